//! A commit body put in git's shape: prose wrapped at [`BODY_COLUMNS`], everything else as
//! written.
//!
//! Models hard-wrap at their own width (76, 80, 100 columns). Breaking only the overflowing
//! line leaves a stub in the middle of the paragraph, so a paragraph with any line too long is
//! joined and wrapped again as a whole; a paragraph whose lines all fit is the writer's and
//! stays exactly as it is. List items, code, quotes, headings, tables and trailers are never
//! joined with their neighbours, and a word longer than a line (a URL) is never broken.

use textwrap::core::{Word, display_width};

/// Columns a body line fills at most, by git's convention (`git log` indents it by four).
pub const BODY_COLUMNS: usize = 72;

/// The body with each overflowing paragraph or list item reflowed at [`BODY_COLUMNS`].
pub fn wrap_body(body: &str) -> String {
    let lines: Vec<&str> = body.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    for block in blocks(&lines) {
        match block {
            Block::Verbatim(line) => out.push(line.to_string()),
            Block::Prose(part) => out.extend(reflow(&part, 0)),
            Block::Item { lines, hang } => out.extend(reflow(&lines, hang)),
        }
    }
    out.join("\n")
}

/// A run of lines that wraps as one, or one line that stays as written.
#[derive(Debug, PartialEq)]
enum Block<'a> {
    Verbatim(&'a str),
    Prose(Vec<&'a str>),
    /// A list item and its continuation lines; `hang` is where its text starts.
    Item {
        lines: Vec<&'a str>,
        hang: usize,
    },
}

/// Splits the body into blocks: what wraps together and what is left alone.
fn blocks<'a>(lines: &[&'a str]) -> Vec<Block<'a>> {
    let trailers_from = trailer_block_start(lines);
    let mut blocks = Vec::new();
    let mut open: Option<Block<'a>> = None;
    let mut fence: Option<&str> = None;
    for (i, &line) in lines.iter().enumerate() {
        let text = line.trim_start();
        if let Some(marker) = fence {
            if text.starts_with(marker) {
                fence = None;
            }
            blocks.push(Block::Verbatim(line));
            continue;
        }
        let indent = display_width(&line[..line.len() - text.len()]);
        let code = line.starts_with('\t') || indent >= 4;
        let continues_item = match &open {
            Some(Block::Item { hang, .. }) => indent < hang + 4,
            _ => false,
        };
        let verbatim = text.is_empty()
            || i >= trailers_from
            || is_structural(text)
            || (code && !continues_item)
            || fence_marker(text).is_some();
        let item = !verbatim && list_item_indent(line) > 0;
        if verbatim || item {
            blocks.extend(open.take());
        }
        if verbatim {
            fence = fence_marker(text);
            blocks.push(Block::Verbatim(line));
        } else if item {
            open = Some(Block::Item {
                lines: vec![line],
                hang: list_item_indent(line),
            });
        } else {
            match &mut open {
                Some(Block::Prose(part)) | Some(Block::Item { lines: part, .. }) => part.push(line),
                _ => open = Some(Block::Prose(vec![line])),
            }
        }
    }
    blocks.extend(open);
    blocks
}

/// The lines as written when all fit; else joined and wrapped again, later lines under `hang`.
fn reflow(lines: &[&str], hang: usize) -> Vec<String> {
    if lines.iter().all(|l| display_width(l) <= BODY_COLUMNS) {
        return lines.iter().map(|l| l.to_string()).collect();
    }
    let first = lines[0].trim_end();
    let lead = &first[..first.len() - first.trim_start().len()];
    let mut text = first.to_string();
    for line in &lines[1..] {
        let line = line.trim();
        if !(ends_wide(&text) && starts_wide(line)) {
            text.push(' ');
        }
        text.push_str(line);
    }
    // One space between words: wrapping drops the spaces at each break, so a run of them
    // kept here would wrap differently the next time.
    let text = format!(
        "{lead}{}",
        text[lead.len()..]
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    );
    // Lines joined into one that opens like a list item (`*` then `0` on the next line) read
    // as a list item when wrapped again: they hang as one now, so a second pass changes
    // nothing.
    let hang = match hang {
        0 => list_item_indent(&text),
        hang => hang,
    };
    // Prose indented by less than code's four columns is not indented at all (markdown reads
    // it so): its lead goes, or every line wrapped under it would start with blank space.
    let (text, hanging) = if hang > 0 {
        (text, " ".repeat(hang))
    } else {
        (text.trim_start().to_string(), String::new())
    };
    let options = textwrap::Options::new(BODY_COLUMNS)
        .subsequent_indent(&hanging)
        .break_words(false)
        .word_separator(textwrap::WordSeparator::Custom(words))
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    // A line that opens with blank space and one word too long for a line would wrap into
    // an empty first line (and another on every pass): the word starts the block instead.
    textwrap::wrap(&text, options)
        .into_iter()
        .map(|l| l.into_owned())
        .skip_while(|l| l.trim().is_empty())
        .collect()
}

/// Words split at spaces, and CJK text (which has no spaces) between its characters, so it
/// wraps too; closing punctuation stays with the character before it, and a word that would
/// make a wrapped line read as something else (a list marker, a quote, a heading, a trailer)
/// stays with the word before it, so wrapping again changes nothing.
fn words(line: &str) -> Box<dyn Iterator<Item = Word<'_>> + '_> {
    let spaced = textwrap::WordSeparator::AsciiSpace.find_words(line);
    let pieces = spaced.flat_map(|word| {
        let mut pieces = Vec::new();
        let text = word.word;
        let mut start = 0;
        for (at, c) in text.char_indices().skip(1) {
            let prev = text[..at].chars().next_back().unwrap_or(' ');
            if (is_wide(prev) || is_wide(c)) && !is_closing(c) && !is_opening(prev) {
                pieces.push(Word::from(&text[start..at]));
                start = at;
            }
        }
        // The last piece keeps the word's trailing space.
        let mut last = Word::from(&text[start..]);
        last.whitespace = word.whitespace;
        pieces.push(last);
        pieces.into_iter()
    });
    let mut out: Vec<Word<'_>> = Vec::new();
    for piece in pieces {
        // A list item's marker keeps its first word on its line too.
        let words = out.iter().filter(|w| !w.word.is_empty()).count();
        let after_marker = words == 1 && out.last().is_some_and(|w| is_list_marker(w.word));
        match out.last_mut() {
            Some(before) if after_marker || opens_a_block(piece.word) => {
                // Both are slices of `line`: the joined word runs from one to the other.
                let from = before.word.as_ptr() as usize - line.as_ptr() as usize;
                let to = piece.word.as_ptr() as usize - line.as_ptr() as usize + piece.word.len();
                let mut joined = Word::from(&line[from..to]);
                joined.whitespace = piece.whitespace;
                *before = joined;
            }
            _ => out.push(piece),
        }
    }
    Box::new(out.into_iter())
}

/// Whether `word` is a list item's marker: `-`, `*`, `+`, `1.` or `2)`.
fn is_list_marker(word: &str) -> bool {
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    matches!(word, "-" | "*" | "+") || (digits > 0 && matches!(&word[digits..], "." | ")"))
}

/// Whether a line that starts with `word` reads as a list item, a quote, a table row, a
/// heading, a fence, a rule or a known trailer rather than as prose.
fn opens_a_block(word: &str) -> bool {
    is_list_marker(word)
        || word.starts_with('>')
        || word.starts_with('|')
        || fence_marker(word).is_some()
        || ((1..=6).contains(&word.len()) && word.chars().all(|c| c == '#'))
        || (!word.is_empty() && word.chars().all(|c| "-*_=".contains(c)))
        || word.strip_suffix(':').is_some_and(is_known_trailer)
}

fn is_wide(c: char) -> bool {
    unicode_width::UnicodeWidthChar::width(c) == Some(2)
}

fn ends_wide(text: &str) -> bool {
    text.chars().next_back().is_some_and(is_wide)
}

fn starts_wide(text: &str) -> bool {
    text.chars().next().is_some_and(is_wide)
}

/// Punctuation a CJK line may not start with.
fn is_closing(c: char) -> bool {
    "、。，．！？：；）」』】〕〉》ー々〜".contains(c)
}

/// Punctuation a CJK line may not end with.
fn is_opening(c: char) -> bool {
    "（「『【〔〈《".contains(c)
}

/// A line that is never joined with another: a quote, a heading, a table row, a rule or a
/// known trailer.
fn is_structural(text: &str) -> bool {
    let rule = text.len() >= 3
        && text.chars().all(|c| "-*_= ".contains(c))
        && text.chars().any(|c| c != ' ');
    text.starts_with('>')
        || text.starts_with('|')
        || rule
        || heading(text)
        || trailer_token(text).is_some_and(is_known_trailer)
}

fn is_known_trailer(token: &str) -> bool {
    KNOWN_TRAILERS
        .iter()
        .any(|known| known.eq_ignore_ascii_case(token))
}

fn heading(text: &str) -> bool {
    let hashes = text.chars().take_while(|&c| c == '#').count();
    (1..=6).contains(&hashes) && text[hashes..].starts_with(' ')
}

/// The fence a line opens or closes (```` ``` ```` or `~~~`), if it is one.
fn fence_marker(text: &str) -> Option<&'static str> {
    ["```", "~~~"].into_iter().find(|m| text.starts_with(m))
}

/// Trailers that stand on their own line wherever they are.
const KNOWN_TRAILERS: [&str; 14] = [
    "Signed-off-by",
    "Co-authored-by",
    "Reviewed-by",
    "Acked-by",
    "Tested-by",
    "Reported-by",
    "Suggested-by",
    "Helped-by",
    "Fixes",
    "Closes",
    "Resolves",
    "Refs",
    "See-also",
    "Change-Id",
];

/// The token of a `Token: value` line (letters, digits and dashes, or `BREAKING CHANGE`).
fn trailer_token(text: &str) -> Option<&str> {
    let (token, value) = text.split_once(':')?;
    let word = !token.is_empty()
        && token.starts_with(|c: char| c.is_ascii_alphabetic())
        && token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    ((word || token == "BREAKING CHANGE") && value.starts_with(' ')).then_some(token)
}

/// Whether `body` ends with a block of trailers (see [`trailer_block_start`]), which another
/// trailer joins.
pub(crate) fn ends_with_trailers(body: &str) -> bool {
    let lines: Vec<&str> = body.lines().collect();
    trailer_block_start(&lines) < lines.len()
}

/// Where the closing block of trailers starts: the last paragraph, when each of its lines is
/// `Token: value` or indented under one (git's folded trailers); `lines.len()` when there is
/// none.
fn trailer_block_start(lines: &[&str]) -> usize {
    let end = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let start = lines[..end]
        .iter()
        .rposition(|l| l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let paragraph = &lines[start..end];
    let tokens: Vec<&str> = paragraph.iter().filter_map(|l| trailer_token(l)).collect();
    let is_trailers = paragraph
        .first()
        .is_some_and(|l| trailer_token(l).is_some())
        && paragraph
            .iter()
            .all(|l| trailer_token(l).is_some() || l.starts_with([' ', '\t']))
        // A body that is one `Note: ...` paragraph is prose; trailers follow a body.
        && (start > 0 || tokens.iter().any(|t| is_known_trailer(t)));
    if is_trailers { start } else { lines.len() }
}

/// Where a list item's text starts (`- `, `* `, `+ `, `1. `, `2) `, after any indentation);
/// 0 for a line that is not one.
fn list_item_indent(line: &str) -> usize {
    let text = line.trim_start();
    let lead = line.len() - text.len();
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let rest = &text[digits..];
    let marker = match digits {
        0 if ["- ", "* ", "+ "].iter().any(|m| text.starts_with(m)) => 2,
        1.. if rest.starts_with(". ") || rest.starts_with(") ") => digits + 2,
        _ => return 0,
    };
    lead + marker
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widest(text: &str) -> usize {
        text.lines().map(display_width).max().unwrap_or(0)
    }

    /// Wrapping what is already wrapped changes nothing.
    fn wrapped(body: &str) -> String {
        let once = wrap_body(body);
        assert_eq!(wrap_body(&once), once, "not idempotent");
        once
    }

    #[test]
    fn no_wrapped_line_of_prose_starts_with_a_space() {
        let body = " A paragraph the model opened with a space, which goes on well past the \
                    seventy-two columns of git's convention.";
        assert_eq!(
            wrapped(body),
            "A paragraph the model opened with a space, which goes on well past the\n\
             seventy-two columns of git's convention."
        );
    }

    #[test]
    fn a_paragraph_wrapped_wider_is_reflowed_whole() {
        let body = "The check that warns about a path separator in the search pattern only looked at the\n\
                    primary pattern. Patterns given with --and are now checked the same way.";
        assert_eq!(
            wrapped(body),
            "The check that warns about a path separator in the search pattern only\n\
             looked at the primary pattern. Patterns given with --and are now checked\n\
             the same way."
        );
    }

    #[test]
    fn bodies_wrapped_at_80_and_100_come_out_at_72_with_the_same_words() {
        let words = "Ranking reads each staged file's added and removed lines from libgit2 \
                     instead of writing patch text and parsing it back, which took most of the \
                     time on large changes. The first list still appears at once, sorted by \
                     path and kind of change, and the complete ranking replaces it when the \
                     lines are in.";
        for width in [80, 100] {
            let body = format!(
                "{}\n\nSecond paragraph stays.",
                textwrap::fill(words, width)
            );
            let out = wrapped(&body);
            assert!(widest(&out) <= BODY_COLUMNS, "{out}");
            let (first, rest) = out.split_once("\n\n").unwrap();
            assert_eq!(
                first.split_whitespace().collect::<Vec<_>>().join(" "),
                words
            );
            assert_eq!(rest, "Second paragraph stays.");
            // No stub: every line but the last is more than half full.
            let lines: Vec<&str> = first.lines().collect();
            for line in &lines[..lines.len() - 1] {
                assert!(line.len() > BODY_COLUMNS / 2, "{line:?} in\n{out}");
            }
        }
    }

    #[test]
    fn a_paragraph_whose_lines_fit_is_left_as_written() {
        let body = "Short lines here\nare the writer's choice.\n\nOne more.";
        assert_eq!(wrapped(body), body);
    }

    #[test]
    fn list_items_reflow_one_by_one_with_their_hanging_indent() {
        let body = "Changes:\n\
                    - The diff pane shows a file's staged part first and its unstaged part after it,\n\
                    each under a header saying which.\n\
                    - Short item.\n\
                    \x20 12. A nested numbered item that the model wrapped at a hundred columns, much wider than git wants\n\
                    \x20     and its continuation.";
        let out = wrapped(body);
        assert!(widest(&out) <= BODY_COLUMNS, "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "Changes:");
        assert!(lines[1].starts_with("- The diff pane"));
        assert!(lines[2].starts_with("  ") && !lines[2].starts_with("   "));
        assert!(out.contains("\n- Short item.\n  12. A nested"), "{out}");
        let item: Vec<&&str> = lines.iter().skip_while(|l| !l.contains("12.")).collect();
        assert!(item.len() >= 2);
        for line in &item[1..] {
            assert!(line.starts_with("      ") && !line.starts_with("       "));
        }
        assert!(out.ends_with("and its continuation."));
    }

    #[test]
    fn code_quotes_headings_and_tables_stay_as_written() {
        let long = "x".repeat(30) + " " + &"y".repeat(30) + " " + &"z".repeat(30);
        let body = format!(
            "Intro.\n\n```rust\n{long}\n```\n\n    {long}\n\t{long}\n\n> {long}\n> {long}\n\n\
             ## {long}\n\n| a | {long} |\n|---|---|\n\n~~~\n{long}\n~~~"
        );
        assert_eq!(wrapped(&body), body);
    }

    #[test]
    fn indented_code_after_a_prose_line_is_not_joined_into_it() {
        let body = "The config now reads like this, which a model may well write on a line \
                    longer than git's width:\n    key = \"value\"";
        let out = wrapped(body);
        assert!(out.ends_with("\n    key = \"value\""), "{out}");
    }

    #[test]
    fn trailers_stay_on_their_lines() {
        let long = "word ".repeat(20);
        let body = format!(
            "{long}\n\nSigned-off-by: A Person With A Very Long Name <a.person.with.a.long.name@example.com>\n\
             Co-authored-by: B <b@example.com>\nX-Custom-Token: {long}\n  folded continuation"
        );
        let out = wrapped(&body);
        let trailers = out.split_once("\n\n").unwrap().1;
        assert_eq!(trailers, body.split_once("\n\n").unwrap().1);
        // A known trailer in the middle of prose is not joined either.
        let mid = format!("{long}\nFixes: #12\n{long}");
        assert!(wrapped(&mid).contains("\nFixes: #12\n"));
    }

    #[test]
    fn lines_joined_into_a_list_item_hang_as_one() {
        let long = "x".repeat(75);
        let once = wrap_body(&format!("*\n0\n{long}"));
        assert_eq!(once, format!("* 0\n  {long}"));
        assert_eq!(wrap_body(&once), once);
    }

    #[test]
    fn no_wrapped_line_opens_a_list_item_quote_or_trailer() {
        let body = "The first line of a paragraph that runs on well past the width of a body \
                    line, then * 0 and more text, then - 2. and > quoted and # hashes and \
                    Fixes: words that wrap";
        let once = wrapped(body);
        assert_eq!(wrapped(&once), once, "wrapping again changes nothing");
        for line in once.lines().skip(1) {
            let first = line.split(' ').next().unwrap_or_default();
            assert!(!opens_a_block(first), "{line:?} opens a block");
        }
        // The shape a property test found: a bare `*` and `0` between two long lines.
        let found = format!("{}\n*\n0\n{}", "a0 ".repeat(30), "b1 ".repeat(30));
        wrapped(&found);
        // A list item whose first word is longer than a line keeps it after its marker.
        wrapped(&format!("a\n* {}", "w".repeat(73)));
        // And another: a run of spaces, then a word longer than a line.
        wrapped(&format!(
            "{}a  b0123456789\n{}",
            "a0 ".repeat(19),
            "w".repeat(73)
        ));
    }

    #[test]
    fn a_url_longer_than_a_line_stays_whole_on_its_own_line() {
        let url = format!("https://example.com/{}", "segment/".repeat(12));
        let body = format!("See the discussion at {url} for the reasons behind this choice.");
        let out = wrapped(&body);
        assert!(out.lines().any(|l| l == url), "{out}");
        assert!(out.starts_with("See the discussion at\n"));
    }

    #[test]
    fn cjk_text_wraps_by_display_width() {
        let sentence = "差分の各ファイルの追加行と削除行を直接読み取るようにした。";
        let body = format!("{sentence}{sentence}{sentence}\n{sentence}");
        let out = wrapped(&body);
        assert!(widest(&out) <= BODY_COLUMNS, "{out}");
        assert!(out.lines().count() >= 3);
        assert_eq!(out.replace('\n', ""), body.replace('\n', ""));
        for line in out.lines() {
            assert!(!line.starts_with('。'), "{out}");
        }
    }

    #[test]
    fn trailer_detection_needs_every_line_of_the_last_paragraph() {
        let lines = ["Body.", "", "Note: the thing", "and more prose"];
        assert_eq!(trailer_block_start(&lines), lines.len());
        let lines = ["Body.", "", "Refs: #1", "BREAKING CHANGE: the API"];
        assert_eq!(trailer_block_start(&lines), 2);
        assert_eq!(trailer_block_start(&[]), 0);
        let lines = ["Note: one long paragraph of prose"];
        assert_eq!(trailer_block_start(&lines), lines.len());
        assert_eq!(trailer_block_start(&["Signed-off-by: A <a@b.c>"]), 0);
    }
}
