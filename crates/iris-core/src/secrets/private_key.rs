//! Private-key blocks (`-----BEGIN ... PRIVATE KEY-----` to the END line). The BEGIN and
//! END lines stay and so does the number of lines: the first body line's content becomes
//! the marker, the others become empty, each keeping its prefix (a diff's `+`, a
//! `file_read` line number, indentation). A key inside one JSON string (`\n` escapes) has
//! what lies between BEGIN and END replaced.

use std::ops::Range;

use std::sync::Arc;

use super::rules::{Compiled, Suspect};

/// Header lines a PEM or PGP body may hold before its base64.
const KEY_HEADERS: &[&str] = &[
    "Proc-Type:",
    "DEK-Info:",
    "Version:",
    "Comment:",
    "Hash:",
    "Charset:",
];

/// Base64 characters a key's body must hold at least, so that a header quoted in code or
/// documentation (`starts_with("-----BEGIN ... PRIVATE KEY-----")`) is no key.
const MIN_KEY_CHARS: usize = 32;

/// Every private-key block whose BEGIN or END line is `line`.
pub(crate) fn private_keys(
    compiled: &Compiled,
    text: &str,
    line: Range<usize>,
    priority: usize,
    found: &mut Vec<Suspect>,
) {
    let Some(begin) = compiled.rules.get(priority).map(|rule| &rule.regex) else {
        return;
    };
    let slice = &text[line.clone()];
    let begins: Vec<Range<usize>> = begin.find_iter(slice).map(|m| m.range()).collect();
    for (i, m) in begins.iter().enumerate() {
        // What follows this BEGIN up to the next one: each part of the line is read once.
        let until = begins.get(i + 1).map_or(slice.len(), |next| next.start);
        let lead = &slice[..m.start];
        let rest = line.start + m.end..line.start + until;
        let block = if only_wrapping(&text[rest.clone()]) && until == slice.len() {
            following_lines(compiled, text, line.end, lead)
        } else {
            same_line(compiled, text, rest, lead)
        };
        found.extend(block.map(|mut c| {
            c.priority = priority;
            c
        }));
    }
    // An END with no BEGIN in view (a hunk that starts inside the key): the body above it.
    if let Some(m) = compiled.end_of_key.find(slice)
        && !begin.is_match(slice)
    {
        let lead = &slice[..m.start()];
        found.extend(
            preceding_lines(compiled, text, line.start, lead).map(|mut c| {
                c.priority = priority;
                c
            }),
        );
    }
}

/// A key inside one line, its line breaks written as `\n` (a JSON string), or spaces.
fn same_line(compiled: &Compiled, text: &str, rest: Range<usize>, lead: &str) -> Option<Suspect> {
    let slice = &text[rest.clone()];
    let stop = compiled
        .end_of_key
        .find(slice)
        .map(|m| m.start())
        .or_else(|| slice.find(['"', '\'']))
        .unwrap_or(slice.len());
    let body = &slice[..stop];
    let (from, to) = trim_escapes(body);
    let inner = &body[from..to];
    if count_base64(inner) < MIN_KEY_CHARS || inner.contains("[secret:") {
        return None;
    }
    // `"private_key": "` just before the BEGIN.
    let mut near = lead.len().saturating_sub(32);
    while !lead.is_char_boundary(near) {
        near += 1;
    }
    let rule = if lead[near..].contains("private_key") {
        "gcp-service-account"
    } else {
        "private-key"
    };
    Some(Suspect {
        rule: Arc::from(rule),
        span: rest.start + from..rest.start + to,
        tail: String::new(),
        fingerprint_of: Some(normalise_escaped(inner)),
        priority: 0,
    })
}

/// `MIIE\nABCD` (with literal backslash-n) as the lines `MIIE`, `ABCD` joined by `\n`.
fn normalise_escaped(inner: &str) -> String {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                while chars.peek() == Some(&'\\') {
                    chars.next();
                }
                if matches!(chars.peek(), Some('n' | 'r' | 't')) {
                    chars.next();
                }
                lines.push(std::mem::take(&mut current));
            }
            '\n' | '\r' | ' ' | '\t' => lines.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    lines.push(current);
    lines
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The body without the line breaks (real or escaped) and blanks around it.
fn trim_escapes(body: &str) -> (usize, usize) {
    let bytes = body.as_bytes();
    let mut from = 0;
    loop {
        match bytes.get(from) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => from += 1,
            Some(b'\\') => {
                let mut i = from;
                while bytes.get(i) == Some(&b'\\') {
                    i += 1;
                }
                if matches!(bytes.get(i), Some(b'n' | b'r' | b't')) {
                    i += 1;
                }
                from = i;
            }
            _ => break,
        }
    }
    let mut to = bytes.len();
    while to > from {
        match bytes[to - 1] {
            b' ' | b'\t' | b'\r' | b'\n' | b'\\' => to -= 1,
            b'n' | b'r' | b't' if to - 1 > from && bytes[to - 2] == b'\\' => to -= 2,
            _ => break,
        }
    }
    (from, to)
}

fn count_base64(s: &str) -> usize {
    s.bytes()
        .filter(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        .count()
}

/// What a body line starts with that is no part of the key: a `file_read` line number
/// (`    12| `), a diff's `+`/`-`/` ` when the BEGIN line had one, indentation.
fn prefix_len(line: &str, diff: bool) -> usize {
    let b = line.as_bytes();
    let spaces = b.iter().take_while(|&&c| c == b' ').count();
    let digits = b[spaces..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits > 0 && b.get(spaces + digits) == Some(&b'|') {
        // The number, then the line's own indentation (a key in a YAML block scalar).
        let mut end = spaces + digits + 1;
        while matches!(b.get(end), Some(b' ' | b'\t')) {
            end += 1;
        }
        return end;
    }
    let mut i = usize::from(diff && matches!(b.first(), Some(b'+' | b'-' | b' ')));
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// After a BEGIN line's header, nothing but what closes a string and joins it to the next
/// (`\n" +`, `",`, `\`): the key's body is on the lines below.
fn only_wrapping(rest: &str) -> bool {
    let b = rest.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\r' | b'"' | b'\'' | b'`' | b'+' | b',' | b';' | b')' => i += 1,
            b'\\' => {
                i += 1;
                if matches!(b.get(i), Some(b'n' | b'r')) {
                    i += 1;
                }
            }
            _ => return false,
        }
    }
    true
}

/// A body line written as a string in code (`"MIIE...\n" +`, `'MIIE...',`): the part
/// inside the quotes, without the escaped line break. Other lines whole.
fn unwrap_string(content: &str) -> (usize, usize) {
    let b = content.as_bytes();
    if !matches!(b.first(), Some(b'"' | b'\'' | b'`')) {
        return (0, b.len());
    }
    let mut to = b.len();
    while to > 1 {
        match b[to - 1] {
            b' ' | b'\t' | b'+' | b',' | b';' | b')' | b'"' | b'\'' | b'`' | b'\\' => to -= 1,
            b'n' | b'r' if to >= 3 && b[to - 2] == b'\\' => to -= 2,
            _ => break,
        }
    }
    (1, to)
}

fn looks_like_body(content: &str) -> bool {
    content
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        || KEY_HEADERS.iter().any(|h| content.starts_with(h))
}

/// The lines of a block, collected in either direction.
struct Body {
    diff: bool,
    /// Content spans in text order.
    lines: Vec<Range<usize>>,
}

impl Body {
    fn new(lead: &str) -> Self {
        Self {
            diff: lead.starts_with(['+', '-', ' ']),
            lines: Vec::new(),
        }
    }

    /// Takes the line `start..end` if it looks like part of a key body.
    fn take(&mut self, text: &str, start: usize, end: usize) -> bool {
        let line = &text[start..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let p = prefix_len(line, self.diff);
        let (from, to) = unwrap_string(&line[p..]);
        if !looks_like_body(&line[p + from..p + to]) {
            return false;
        }
        self.lines.push(start + p + from..start + p + to);
        true
    }

    /// The candidate: the first line's content becomes the marker, the others empty.
    fn candidate(mut self, text: &str) -> Option<Suspect> {
        self.lines.sort_by_key(|r| r.start);
        let first = self.lines.first()?.clone();
        let last = self.lines.last()?.clone();
        let chars: usize = self
            .lines
            .iter()
            .map(|r| count_base64(&text[r.clone()]))
            .sum();
        if chars < MIN_KEY_CHARS {
            return None;
        }
        let mut tail = String::new();
        let mut content = Vec::new();
        for pair in self.lines.windows(2) {
            tail.push_str(&text[pair[0].end..pair[1].start]);
        }
        for r in &self.lines {
            let c = text[r.clone()].trim();
            if !c.is_empty() {
                content.push(c);
            }
        }
        Some(Suspect {
            rule: Arc::from("private-key"),
            span: first.start..last.end,
            tail,
            fingerprint_of: Some(content.join("\n")),
            priority: 0,
        })
    }
}

/// The body under a BEGIN line that ends at `begin_end` (its `\n` or the text's end): up
/// to the END line, or while the lines look like a key's (a diff cut short).
fn following_lines(
    compiled: &Compiled,
    text: &str,
    begin_end: usize,
    lead: &str,
) -> Option<Suspect> {
    let mut body = Body::new(lead);
    let mut pos = begin_end + 1;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        if compiled.end_of_key.is_match(&text[pos..end]) || !body.take(text, pos, end) {
            break;
        }
        pos = end + 1;
    }
    body.candidate(text)
}

/// The body above an END line starting at `end_start`, while the lines look like a key's.
fn preceding_lines(
    compiled: &Compiled,
    text: &str,
    end_start: usize,
    lead: &str,
) -> Option<Suspect> {
    let mut body = Body::new(lead);
    let mut end = end_start.checked_sub(1)?; // the `\n` before the END line
    loop {
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[start..end];
        if compiled.end_of_key.is_match(line) || !body.take(text, start, end) {
            break;
        }
        if start == 0 {
            break;
        }
        end = start - 1;
    }
    body.candidate(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_around_a_key_body_are_trimmed() {
        let body = r"\nMIIEabc\nDEF==\n";
        let (from, to) = trim_escapes(body);
        assert_eq!(&body[from..to], r"MIIEabc\nDEF==");
        assert_eq!(normalise_escaped(&body[from..to]), "MIIEabc\nDEF==");
    }

    #[test]
    fn prefixes_of_body_lines() {
        assert_eq!(prefix_len("+MIIE", true), 1);
        assert_eq!(prefix_len("+MIIE", false), 0);
        assert_eq!(prefix_len("     3| MIIE", false), 8);
        assert_eq!(prefix_len("+    MIIE", true), 5);
    }
}
