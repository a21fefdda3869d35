//! A commit message cleaned as git cleans it, and read in conventional commits' parts.

use std::sync::LazyLock;

use super::built_in;
use super::parser::{Parser, ParserOptions};

/// git's scissors line (`git commit -v`): it and everything below it is not the message.
const SCISSORS: &str = "------------------------ >8 ------------------------";

/// A commit message as git keeps it, in the parts conventional commits name (for scoring
/// and summaries; [`super::CommitRules::check`] reads messages as commitlint does).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedMessage {
    /// The cleaned message's lines: no `#` comments, no trailing whitespace, no blank lines
    /// before or after.
    pub lines: Vec<String>,
    /// The first line.
    pub header: String,
    /// The type, when the header has the `type(scope)!: subject` shape (possibly empty).
    pub kind: Option<String>,
    /// The body's lines (between the header and the footer), if any.
    pub body: Vec<String>,
}

static CONVENTIONAL: LazyLock<Option<Parser>> =
    LazyLock::new(|| ParserOptions::conventional_commits().compile().ok());

/// The conventional header's start, as the built-in pattern reads it.
static HEADER_SHAPE: LazyLock<regex::Regex> =
    LazyLock::new(|| built_in(r"^[0-9A-Za-z_]*(?:\(.*\))?!?: "));

impl ParsedMessage {
    /// `message` cleaned as git cleans it and read in its conventional parts; past
    /// [`super::MAX_INPUT_BYTES`], only its start is read.
    pub fn parse(message: &str) -> Self {
        // A history's message may be anything: past the size checked, only its start is read.
        let end = message.floor_char_boundary(message.len().min(super::MAX_INPUT_BYTES));
        let lines = clean(&message[..end]);
        let header = lines.first().cloned().unwrap_or_default();
        let commit = CONVENTIONAL
            .as_ref()
            .and_then(|p| p.parse(&lines.join("\n")))
            .unwrap_or_default();
        // The pattern's type group may match nothing (`: subject`): a header of that shape
        // has an empty type, unlike one without the shape.
        let shaped = HEADER_SHAPE.is_match(&header);
        Self {
            kind: shaped.then(|| commit.kind.unwrap_or_default()),
            body: commit
                .body
                .map(|b| b.lines().map(str::to_string).collect())
                .unwrap_or_default(),
            header,
            lines,
        }
    }
}

/// The message as git records it with its default cleanup: comment lines and the scissors
/// part gone, trailing whitespace trimmed, no leading or trailing blank lines.
pub fn clean(message: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for line in message.lines() {
        if line.starts_with('#') {
            if line.contains(SCISSORS) {
                break;
            }
            continue;
        }
        let line = line.trim_end();
        if lines.is_empty() && line.is_empty() {
            continue;
        }
        lines.push(line.to_string());
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_conventional_message() {
        let m = ParsedMessage::parse(
            "feat(parser)!: add arrays\n\nThe body line.\nSecond line.\n\nBREAKING CHANGE: arrays\nCloses #12\n",
        );
        assert_eq!(m.kind.as_deref(), Some("feat"));
        assert_eq!(m.header, "feat(parser)!: add arrays");
        assert_eq!(m.body, vec!["The body line.", "Second line."]);
    }

    #[test]
    fn headers_that_do_not_parse() {
        for header in ["Add arrays", "feat:no space", "feat (x): y", "feat(x) : y"] {
            assert_eq!(ParsedMessage::parse(header).kind, None, "{header}");
        }
        let m = ParsedMessage::parse(": subject only");
        assert_eq!(m.kind.as_deref(), Some(""));
    }

    #[test]
    fn comments_and_the_scissors_part_are_not_the_message() {
        let m = ParsedMessage::parse(
            "\n# Please enter the message\nfix: x\n\nbody   \n# comment\n# ------------------------ >8 ------------------------\ndiff --git a b\n",
        );
        assert_eq!(m.lines, vec!["fix: x", "", "body"]);
    }
}
