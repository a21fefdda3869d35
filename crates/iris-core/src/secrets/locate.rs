//! Which file and line a position of the text belongs to, from what the text itself shows:
//! a unified diff (its headers and hunk counts) or this project's `file_read` output
//! (`src/lib.rs: lines 1-3 of 16`, then `     1| text`). Anything else has no location.
//!
//! [`Locator`] reads the text once, line by line, as the positions asked for grow, so
//! locating every finding costs one pass however many there are.

use std::ops::Range;

use super::Location;

pub(crate) struct Locator<'a> {
    text: &'a str,
    /// Start of the next line to read; past the end when all are read.
    next: usize,
    /// The line read last (without its `\n`) and its number in the file [`Self::path`].
    current: Option<(Range<usize>, Option<u32>)>,
    /// The file the lines belong to.
    path: Option<String>,
    /// A diff's `--- a/X` side, for files whose new side is `/dev/null`.
    old_path: Option<String>,
    mode: Mode,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// Text with no location.
    Outside,
    /// Diff headers or between hunks.
    Headers,
    /// Inside a hunk: the line numbers of the next old and new lines, and how many of
    /// each the hunk header promised are still to come.
    Hunk {
        old: u32,
        new: u32,
        old_left: u32,
        new_left: u32,
    },
    /// Numbered lines of a `file_read` answer.
    FileRead,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self {
            text,
            next: 0,
            current: None,
            path: None,
            old_path: None,
            mode: Mode::Outside,
        }
    }

    /// The location of the byte at `offset`. Offsets must not decrease from one call to
    /// the next (an earlier one gets `None`).
    pub(crate) fn locate(&mut self, offset: usize) -> Option<Location> {
        loop {
            if let Some((line, number)) = &self.current
                && line.start <= offset
                && offset <= line.end
            {
                let path = self.path.as_ref()?;
                return number.map(|line| Location {
                    path: path.clone(),
                    line,
                });
            }
            let text = self.text;
            if self.next > text.len() {
                return None;
            }
            let start = self.next;
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let number = self.read(&text[start..end]);
            self.current = Some((start..end, number));
            self.next = end + 1;
        }
    }

    /// Moves the state over one line and says which line of [`Self::path`] it is.
    fn read(&mut self, line: &str) -> Option<u32> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(found) = self.hunk_line(line) {
            return found;
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            self.path = git_header_path(rest);
            self.old_path = None;
            self.mode = Mode::Headers;
        } else if line.starts_with("diff --cc ") || line.starts_with("diff --combined ") {
            // Merge diffs have more than two sides; their lines get no location.
            self.path = None;
            self.mode = Mode::Outside;
        } else if let Some(rest) = line.strip_prefix("--- ") {
            self.old_path = side(rest, "a/");
            self.mode = Mode::Headers;
        } else if let Some(rest) = line.strip_prefix("+++ ") {
            self.path = side(rest, "b/").or_else(|| self.old_path.clone());
            self.mode = Mode::Headers;
        } else if line.starts_with("@@ ") {
            self.mode = match hunk_header(line) {
                Some((old, old_left, new, new_left)) if self.path.is_some() => Mode::Hunk {
                    old,
                    new,
                    old_left,
                    new_left,
                },
                _ => Mode::Outside,
            };
        } else if let Some(path) = file_read_header(line) {
            self.path = Some(path.to_owned());
            self.mode = Mode::FileRead;
        } else if self.mode == Mode::FileRead {
            match numbered_line(line) {
                Some(number) => return Some(number),
                // The note after the lines (`[12 more lines; ...]`) ends the answer.
                None => self.mode = Mode::Outside,
            }
        }
        None
    }

    /// A line of a hunk: `Some(its number)`; `None` when the hunk is over.
    fn hunk_line(&mut self, line: &str) -> Option<Option<u32>> {
        let Mode::Hunk {
            old,
            new,
            old_left,
            new_left,
        } = self.mode
        else {
            return None;
        };
        let first = line.as_bytes().first().copied();
        if first == Some(b'\\') {
            return Some(None); // `\ No newline at end of file`
        }
        let (number, next) = match first {
            Some(b'+') if new_left > 0 => {
                (new, (old, new.saturating_add(1), old_left, new_left - 1))
            }
            Some(b'-') if old_left > 0 => {
                (old, (old.saturating_add(1), new, old_left - 1, new_left))
            }
            // A context line (an empty one had its space trimmed by an editor).
            Some(b' ') | None if old_left > 0 && new_left > 0 => (
                new,
                (
                    old.saturating_add(1),
                    new.saturating_add(1),
                    old_left - 1,
                    new_left - 1,
                ),
            ),
            _ => {
                self.mode = Mode::Headers;
                return None;
            }
        };
        let (old, new, old_left, new_left) = next;
        self.mode = Mode::Hunk {
            old,
            new,
            old_left,
            new_left,
        };
        Some(Some(number))
    }
}

/// `@@ -a,b +c,d @@`: (a, b, c, d), a count of 1 when left out.
fn hunk_header(line: &str) -> Option<(u32, u32, u32, u32)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let range = |s: &str| -> Option<(u32, u32)> {
        match s.split_once(',') {
            Some((start, count)) => Some((start.parse().ok()?, count.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (a, b) = range(old)?;
    let (c, d) = range(new)?;
    Some((a, b, c, d))
}

/// One side of `--- a/X` / `+++ b/Y`; `None` for `/dev/null`.
fn side(rest: &str, prefix: &str) -> Option<String> {
    let path = match unquote(rest) {
        Some(path) => path,
        None => rest.split('\t').next().unwrap_or(rest).to_owned(),
    };
    if path == "/dev/null" || path.is_empty() {
        return None;
    }
    Some(match path.strip_prefix(prefix) {
        Some(p) => p.to_owned(),
        None => path,
    })
}

/// The new path of `diff --git a/X b/Y` (the `+++` line, when there is one, says it again).
fn git_header_path(rest: &str) -> Option<String> {
    let len = rest.len();
    if len % 2 == 1
        && rest.as_bytes().get(len / 2) == Some(&b' ')
        && let Some(new) = rest.get(len / 2 + 1..)
    {
        return Some(new.strip_prefix("b/").unwrap_or(new).to_owned());
    }
    rest.rsplit_once(" b/")
        .map(|(_, new)| new.trim_end_matches('"').to_owned())
}

/// A C-quoted path as git writes it (`"b/caf\303\251.txt"`).
fn unquote(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            b'"' => return Some(String::from_utf8_lossy(&out).into_owned()),
            b'\\' => {
                let escaped = *bytes.get(i)?;
                i += 1;
                out.push(match escaped {
                    b'n' => b'\n',
                    b't' => b'\t',
                    b'0'..=b'7' => {
                        let mut value = u32::from(escaped - b'0');
                        while let Some(&d @ b'0'..=b'7') = bytes.get(i) {
                            value = value * 8 + u32::from(d - b'0');
                            i += 1;
                            if value > 0o77 {
                                break;
                            }
                        }
                        (value & 0xff) as u8
                    }
                    other => other,
                });
            }
            other => out.push(other),
        }
    }
    None
}

/// `src/lib.rs: lines 1-3 of 16` -> `src/lib.rs`.
fn file_read_header(line: &str) -> Option<&str> {
    let (head, total) = line.rsplit_once(" of ")?;
    let (path, range) = head.rsplit_once(": lines ")?;
    let (first, last) = range.split_once('-')?;
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (numeric(total) && numeric(first) && numeric(last) && !path.is_empty()).then_some(path)
}

/// Where a line's own text starts, and that text, as a diff (behind `+`, `-` or a space) or
/// a `file_read` answer (behind its number and `| `) shows the line; a diff's file headers
/// and plain text stay whole.
pub(crate) fn line_body(line: &str) -> (usize, &str) {
    let lead = line.len() - line.trim_start().len();
    let digits = line[lead..].bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && line[lead + digits..].starts_with("| ") {
        let at = lead + digits + 2;
        return (at, &line[at..]);
    }
    match line.as_bytes().first() {
        Some(b'+' | b'-' | b' ') if !line.starts_with("+++") && !line.starts_with("---") => {
            (1, &line[1..])
        }
        _ => (0, line),
    }
}

/// `    12| text` -> 12.
fn numbered_line(line: &str) -> Option<u32> {
    let (number, _) = line.split_once('|')?;
    let number = number.trim_start_matches(' ');
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    number.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str, line: u32) -> Option<Location> {
        Some(Location {
            path: path.to_owned(),
            line,
        })
    }

    /// The location of each line of `text`, in one pass.
    fn every_line(text: &str) -> Vec<Option<Location>> {
        let mut locator = Locator::new(text);
        let mut offset = 0;
        let mut out = Vec::new();
        for line in text.split('\n') {
            out.push(locator.locate(offset));
            offset += line.len() + 1;
        }
        out
    }

    #[test]
    fn lines_of_a_diff_get_their_side_line_number() {
        let diff = "diff --git a/src/a.rs b/src/a.rs\n\
                    index 1111111..2222222 100644\n\
                    --- a/src/a.rs\n\
                    +++ b/src/a.rs\n\
                    @@ -10,3 +10,4 @@ fn main() {\n \
                    context\n\
                    -removed\n\
                    +added one\n\
                    +added two\n \
                    context again\n\
                    diff --git a/.env b/.env\n\
                    new file mode 100644\n\
                    --- /dev/null\n\
                    +++ b/.env\n\
                    @@ -0,0 +1,2 @@\n\
                    +A=1\n\
                    +B=2\n\
                    diff --git a/old.txt b/old.txt\n\
                    deleted file mode 100644\n\
                    --- a/old.txt\n\
                    +++ /dev/null\n\
                    @@ -1 +0,0 @@\n\
                    -gone\n\
                    \\ No newline at end of file";
        let got = every_line(diff);
        let want = vec![
            None,
            None,
            None,
            None,
            None,
            at("src/a.rs", 10),
            at("src/a.rs", 11),
            at("src/a.rs", 11),
            at("src/a.rs", 12),
            at("src/a.rs", 13),
            None,
            None,
            None,
            None,
            None,
            at(".env", 1),
            at(".env", 2),
            None,
            None,
            None,
            None,
            None,
            at("old.txt", 1),
            None,
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_removed_line_that_looks_like_a_header_stays_in_its_hunk() {
        let diff = "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,1 @@\n--- comment\n+++ x\n";
        let got = every_line(diff);
        assert_eq!(got[3], at("q.sql", 1));
        assert_eq!(got[4], at("q.sql", 1));
    }

    #[test]
    fn bodies_behind_a_gutter_or_a_diff_mark() {
        assert_eq!(line_body("     6|   password: x"), (8, "  password: x"));
        assert_eq!(line_body("+  password: x"), (1, "  password: x"));
        assert_eq!(line_body("data:"), (0, "data:"));
        assert_eq!(line_body("+++ b/secret.yaml").1, "+++ b/secret.yaml");
    }

    #[test]
    fn file_read_output_gives_path_and_number() {
        let text = "src/lib.rs: lines 9-11 of 16\n     9| a\n    10| b\n    11| c\n[5 more lines; read on with start_line: 12]\nafter";
        let got = every_line(text);
        assert_eq!(
            got,
            vec![
                None,
                at("src/lib.rs", 9),
                at("src/lib.rs", 10),
                at("src/lib.rs", 11),
                None,
                None
            ]
        );
    }

    #[test]
    fn plain_text_has_no_location() {
        assert!(
            every_line("API_KEY=1\nfoo: bar\n")
                .iter()
                .all(Option::is_none)
        );
    }

    #[test]
    fn quoted_paths_are_decoded() {
        assert_eq!(
            side("\"b/caf\\303\\251 x.txt\"", "b/").as_deref(),
            Some("café x.txt")
        );
        assert_eq!(side("b/x.txt\t2024-01-01", "b/").as_deref(), Some("x.txt"));
        assert_eq!(side("/dev/null", "b/"), None);
    }

    #[test]
    fn odd_hunk_headers_do_not_panic() {
        for text in [
            "diff --git a/x b/x\n@@ -1,99999999999 +1 @@\n+a\n",
            "diff --git a/x b/x\n@@ -4294967295,4294967295 +4294967295,4294967295 @@\n-\n+\n \n",
            "diff --git \"a/\\\n@@ @@\n--- \"\n+++ \"\\",
            "+++ b/x\n@@ -1 +1 @@\n+a\n+b\n+c\n",
        ] {
            let _ = every_line(text);
        }
    }
}
