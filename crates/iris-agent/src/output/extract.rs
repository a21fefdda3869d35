//! Finding the JSON in a model's reply: after its reasoning, inside fences, after prose.

use serde_json::Value;

use super::sanitize::sanitize;

/// How many `{` positions the object search tries before it gives up (bounds the work on a
/// long reply full of braces).
const MAX_CANDIDATES: usize = 64;

/// The JSON text in a model's reply, or `None` when there is none.
///
/// `<think>` blocks go first (a leading block, or reasoning that only ends with `</think>`).
/// Then, in order: the whole reply as JSON; the JSON opening a ```` ```json ```` fence, then any
/// fence; the first balanced `{...}` object that parses (an empty `{}` only when nothing else
/// does), braces inside strings not counted. A reply cut off inside an object gives that
/// object closed. The text returned may still need [`sanitize`].
pub fn extract_json(reply: &str) -> Option<String> {
    let without_leading = strip_leading_think(reply);
    if let Some(json) = extract_from(&without_leading) {
        return Some(json);
    }
    let without_any = strip_all_think(reply);
    if let Some(json) = extract_from(&without_any) {
        return Some(json);
    }
    extract_from(reply)
}

/// The reply without the reasoning that opens it: leading `<think>`/`<thinking>` blocks (an
/// unclosed one runs to the end), or everything before a `</think>` that has no opening tag.
pub(super) fn strip_leading_think(text: &str) -> String {
    answer_start(text).map_or_else(String::new, |at| text[at..].to_string())
}

/// Where the answer begins in `text` (after the reasoning [`strip_leading_think`] drops);
/// `None` while an unclosed leading block runs to the end.
pub(super) fn answer_start(text: &str) -> Option<usize> {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        let Some((open_len, close)) = THINK_TAGS
            .iter()
            .find(|(open, _)| starts_with_ignore_case(trimmed, open))
            .map(|(open, close)| (open.len(), *close))
        else {
            break;
        };
        let after = &trimmed[open_len..];
        match find_ignore_case(after, close) {
            Some(end) => rest = &after[end + close.len()..],
            None => return None,
        }
    }
    for (open, close) in THINK_TAGS {
        if let Some(end) = find_ignore_case(rest, close)
            && find_ignore_case(&rest[..end], open).is_none()
        {
            rest = &rest[end + close.len()..];
        }
    }
    Some(text.len() - rest.len())
}

const THINK_TAGS: [(&str, &str); 2] = [("<think>", "</think>"), ("<thinking>", "</thinking>")];

/// The text with every closed `<think>` block removed wherever it is, and the tags of
/// unclosed ones.
fn strip_all_think(text: &str) -> String {
    let mut text = strip_leading_think(text);
    for (open, close) in THINK_TAGS {
        while let Some(start) = find_ignore_case(&text, open) {
            match find_ignore_case(&text[start..], close) {
                Some(end) => text.replace_range(start..start + end + close.len(), ""),
                None => text.replace_range(start..start + open.len(), ""),
            }
        }
    }
    text
}

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

fn find_ignore_case(text: &str, needle: &str) -> Option<usize> {
    text.char_indices()
        .map(|(i, _)| i)
        .find(|&i| starts_with_ignore_case(&text[i..], needle))
}

fn extract_from(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return None;
    }
    if (trimmed.starts_with('{') || trimmed.starts_with('['))
        && serde_json::from_str::<Value>(trimmed).is_ok()
    {
        return Some(trimmed.to_string());
    }
    fenced(trimmed).or_else(|| first_object(trimmed))
}

/// The JSON that opens a fenced block: ```` ```json ```` fences first, then any fence.
fn fenced(text: &str) -> Option<String> {
    let mut fences: Vec<(bool, usize)> = Vec::new();
    let mut search = 0;
    while let Some(found) = text[search..].find("```") {
        let start = search + found + 3;
        let line_end = text[start..].find('\n').map_or(text.len(), |n| start + n);
        let lang = text[start..line_end].trim();
        search = line_end;
        // Only an opening fence has a body starting with JSON on the next line.
        if lang.contains('`') || lang.contains(' ') {
            continue;
        }
        fences.push((lang.eq_ignore_ascii_case("json"), line_end));
    }
    fences.sort_by_key(|(is_json, _)| !is_json);
    fences.into_iter().find_map(|(_, body)| {
        let offset = text[body..].len() - text[body..].trim_start().len();
        let start = body + offset;
        match text[start..].chars().next() {
            Some('{' | '[') => match balanced_end(text, start) {
                Some(end) => Some(text[start..end].to_string()),
                None => Some(close_truncated(&text[start..])),
            },
            _ => None,
        }
    })
}

/// The first balanced `{...}` that parses (possibly after sanitizing) and is not empty; else
/// an empty one; else an object cut off at the end of the reply, closed; else the first
/// balanced one even if it does not parse.
fn first_object(text: &str) -> Option<String> {
    let mut empty = None;
    let mut truncated = None;
    let mut broken = None;
    for start in text
        .char_indices()
        .filter(|(_, c)| *c == '{')
        .map(|(i, _)| i)
        .take(MAX_CANDIDATES)
    {
        match balanced_end(text, start) {
            Some(end) => {
                let candidate = &text[start..end];
                match parses(candidate) {
                    Some(value) if value.as_object().is_some_and(|o| !o.is_empty()) => {
                        return Some(candidate.to_string());
                    }
                    Some(_) => {
                        empty.get_or_insert(candidate);
                    }
                    None => {
                        broken.get_or_insert(candidate);
                    }
                }
            }
            None => {
                truncated.get_or_insert_with(|| close_truncated(&text[start..]));
            }
        }
    }
    let truncated = truncated.filter(|t| parses(t).is_some());
    truncated
        .or(empty.map(str::to_string))
        .or(broken.map(str::to_string))
}

fn parses(candidate: &str) -> Option<Value> {
    serde_json::from_str(candidate)
        .or_else(|_| serde_json::from_str(&sanitize(candidate)))
        .ok()
}

/// Where a scan of JSON text is: inside a string (and after a backslash there) or not.
#[derive(Default)]
struct Scan {
    in_string: bool,
    escaped: bool,
}

impl Scan {
    /// Advances over `c`; true when `c` is structural (outside any string, quotes excluded).
    fn structural(&mut self, c: char) -> bool {
        if self.in_string {
            match c {
                _ if self.escaped => self.escaped = false,
                '\\' => self.escaped = true,
                '"' => self.in_string = false,
                _ => {}
            }
            return false;
        }
        if c == '"' {
            self.in_string = true;
            return false;
        }
        true
    }
}

/// The end (exclusive byte offset) of the object or array opening at `start`, counting
/// brackets outside strings only; `None` when the text ends first.
fn balanced_end(text: &str, start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut scan = Scan::default();
    for (i, c) in text[start..].char_indices() {
        if !scan.structural(c) {
            continue;
        }
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(start + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// JSON cut off mid-way (a reply that hit its token limit), closed: the open string ended,
/// a dangling comma dropped or a dangling key given null, the open brackets closed.
pub(super) fn close_truncated(text: &str) -> String {
    let mut closers = Vec::new();
    let mut scan = Scan::default();
    for c in text.chars() {
        if !scan.structural(c) {
            continue;
        }
        match c {
            '{' => closers.push('}'),
            '[' => closers.push(']'),
            '}' | ']' => {
                closers.pop();
            }
            _ => {}
        }
    }
    let mut out = text.to_string();
    if scan.in_string {
        if scan.escaped {
            out.pop();
        }
        out.push('"');
    }
    out.truncate(out.trim_end().len());
    if out.ends_with(',') {
        out.pop();
    } else if out.ends_with(':') {
        out.push_str(" null");
    }
    out.extend(closers.iter().rev());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OBJECT: &str = r#"{"title": "Fix {braces} in \"strings\"", "n": [1, {"a": 2}]}"#;

    #[test]
    fn bare_json_is_taken_whole() {
        assert_eq!(
            extract_json(&format!("  {OBJECT}\n")).as_deref(),
            Some(OBJECT)
        );
        assert_eq!(extract_json("[1, 2]").as_deref(), Some("[1, 2]"));
    }

    #[test]
    fn json_fences_win_over_other_fences_and_prose() {
        let reply =
            format!("Here you go:\n```rust\nlet x = {{ 1 }};\n```\n```json\n{OBJECT}\n```\nDone.");
        assert_eq!(extract_json(&reply).as_deref(), Some(OBJECT));
        let any_fence = format!("```\n{OBJECT}\n```");
        assert_eq!(extract_json(&any_fence).as_deref(), Some(OBJECT));
        let upper = format!("```JSON\n{OBJECT}\n```");
        assert_eq!(extract_json(&upper).as_deref(), Some(OBJECT));
    }

    #[test]
    fn a_fence_inside_a_json_string_does_not_end_the_block() {
        let inner = "{\"suggestion\": \"```rust\nfn x() {}\n```\"}";
        let reply = format!("```json\n{inner}\n```");
        assert_eq!(extract_json(&reply).as_deref(), Some(inner));
    }

    #[test]
    fn json_after_prose_and_braces_inside_strings() {
        let reply = format!("Sure! The object {{}} below is what you asked for.\n{OBJECT}\nThanks");
        assert_eq!(extract_json(&reply).as_deref(), Some(OBJECT));
    }

    #[test]
    fn an_empty_object_is_taken_only_when_nothing_else_parses() {
        assert_eq!(extract_json("nothing here: {}").as_deref(), Some("{}"));
    }

    #[test]
    fn think_blocks_are_skipped() {
        let reply = format!("<think>maybe {{\"title\": \"wrong\"}}</think>\n{OBJECT}");
        assert_eq!(extract_json(&reply).as_deref(), Some(OBJECT));
        let orphan = format!("I consider {{\"title\": \"wrong\"}} first.</think>{OBJECT}");
        assert_eq!(extract_json(&orphan).as_deref(), Some(OBJECT));
        let two = format!("<THINK>a</THINK> <thinking>{{\"x\":1}}</thinking> {OBJECT}");
        assert_eq!(extract_json(&two).as_deref(), Some(OBJECT));
    }

    #[test]
    fn an_unclosed_think_falls_back_to_the_whole_reply() {
        let reply = format!("<think>the answer is\n{OBJECT}");
        assert_eq!(extract_json(&reply).as_deref(), Some(OBJECT));
        assert_eq!(strip_leading_think("<think>never closed {\"a\":1}"), "");
    }

    #[test]
    fn a_think_block_in_the_middle_is_removed_when_it_hides_the_json() {
        assert_eq!(strip_all_think("a<think>b</think>c<think>d"), "acd");
    }

    #[test]
    fn a_reply_cut_off_mid_object_is_closed() {
        let reply = "```json\n{\"title\": \"Add x\", \"findings\": [{\"body\": \"cut her";
        let json = extract_json(reply).unwrap_or_default();
        assert_eq!(
            json,
            "{\"title\": \"Add x\", \"findings\": [{\"body\": \"cut her\"}]}"
        );
        let prose = "Result: {\"title\": \"Add x\",";
        assert_eq!(
            extract_json(prose).as_deref(),
            Some("{\"title\": \"Add x\"}")
        );
        assert_eq!(close_truncated("{\"a\":"), "{\"a\": null}");
        assert_eq!(close_truncated("{\"a\": \"x\\"), "{\"a\": \"x\"}");
    }

    #[test]
    fn raw_newlines_in_strings_still_extract() {
        let broken = "{\"message\": \"line one\nline two\"}";
        assert_eq!(
            extract_json(&format!("Answer:\n{broken}")).as_deref(),
            Some(broken)
        );
    }

    #[test]
    fn no_json_is_none() {
        assert_eq!(extract_json(""), None);
        assert_eq!(extract_json("I could not do it, sorry."), None);
        assert_eq!(extract_json("<think>only thoughts</think>"), None);
    }
}
