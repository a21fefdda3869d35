//! Lines of files as the tools show them: searched (numbered, binary files skipped), numbered
//! for a read, trimmed for a listing.

use std::path::Path;

use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use grep_searcher::sinks::Lossy;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};

/// A line searcher that numbers lines and gives up on binary files.
pub fn line_searcher() -> Searcher {
    SearcherBuilder::new()
        .line_number(true)
        .binary_detection(BinaryDetection::quit(0))
        .build()
}

/// Builds a line matcher: `^`/`$` match at line ends and no match spans two lines.
pub fn line_matcher(pattern: &str, case_insensitive: bool) -> Result<RegexMatcher, String> {
    grep_regex::RegexMatcherBuilder::new()
        .multi_line(true)
        .line_terminator(Some(b'\n'))
        .case_insensitive(case_insensitive)
        .build(pattern)
        .map_err(|e| e.to_string())
}

/// Calls `found(line_number, line)` for each line of `path` the matcher matches, until it
/// returns false. Unreadable and binary files yield nothing.
pub fn matching_lines(
    searcher: &mut Searcher,
    matcher: &impl Matcher,
    path: &Path,
    mut found: impl FnMut(u64, &str) -> bool,
) {
    let _ = searcher.search_path(
        matcher,
        path,
        Lossy(|line_number, line| Ok(found(line_number, line))),
    );
}

/// Like [`matching_lines`], over text already read.
pub fn matching_lines_in(
    searcher: &mut Searcher,
    matcher: &impl Matcher,
    text: &[u8],
    mut found: impl FnMut(u64, &str) -> bool,
) {
    let _ = searcher.search_slice(
        matcher,
        text,
        Lossy(|line_number, line| Ok(found(line_number, line))),
    );
}

/// Writes line `number` of a file as every read shows it (`    12| text`), cut at
/// `max_chars` characters with a note saying so; returns the bytes of text written. The
/// secret locator reads the numbers back from this shape.
pub fn write_numbered_line(out: &mut String, number: usize, line: &str, max_chars: usize) -> usize {
    use std::fmt::Write;
    let (text, note) = match line.char_indices().nth(max_chars) {
        Some((cut, _)) => (
            &line[..cut],
            format!(" [line cut at {max_chars} characters]"),
        ),
        None => (line, String::new()),
    };
    let _ = writeln!(out, "{number:>6}| {text}{note}");
    text.len() + note.len()
}

/// `line` without its line ending and surrounding blanks, cut to `max_chars` with an ellipsis.
pub fn trim_line(line: &str, max_chars: usize) -> String {
    let line = line.trim();
    match line.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_to_their_bound() {
        assert_eq!(trim_line("  let x = 1;\n", 100), "let x = 1;");
        assert_eq!(trim_line("ééééé", 3), "ééé…");
    }
}
