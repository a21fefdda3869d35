//! The scores of one written message against the one its author committed.

use serde::{Deserialize, Serialize};

use super::word_distance;
use crate::commit_rules::ParsedMessage;

/// The longest title git's tools show whole.
const TITLE_LIMIT: usize = 72;

/// How one written message compares with its author's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Word edit distance of the whole message (comments and blank lines around it dropped),
    /// by the longer one: 0 is the author's message.
    pub distance: f64,
    /// The same for the titles.
    pub title_distance: f64,
    /// The written title's length in characters.
    pub title_chars: usize,
    /// Whether the written title fits in 72 characters.
    pub title_within_72: bool,
    /// Whether the message has the author's conventional type (`fix`, `feat`, ...); `None`
    /// where the history does not write types.
    pub type_matches: Option<bool>,
    /// Whether the message has a body where the author wrote one; `None` where the author
    /// wrote none.
    pub body_where_author: Option<bool>,
    /// The project's commit rules the message breaks (error level).
    pub rules_broken: usize,
}

/// Scores `written` against `author`'s message. `uses_types`: the history writes
/// conventional types (see [`history_uses_types`]).
pub fn score(author: &str, written: &str, uses_types: bool, rules_broken: usize) -> Score {
    let author = ParsedMessage::parse(author);
    let written = ParsedMessage::parse(written);
    let title_chars = written.header.chars().count();
    Score {
        distance: word_distance(&author.lines.join("\n"), &written.lines.join("\n")),
        title_distance: word_distance(&author.header, &written.header),
        title_chars,
        title_within_72: title_chars <= TITLE_LIMIT,
        type_matches: uses_types.then(|| kind(&author) == kind(&written)),
        body_where_author: (!author.body.is_empty()).then_some(!written.body.is_empty()),
        rules_broken,
    }
}

/// A message as git keeps it: comments, trailing blank space and surrounding blank lines
/// dropped.
pub(super) fn cleaned(message: &str) -> String {
    ParsedMessage::parse(message).lines.join("\n")
}

/// A title's conventional type, lowercased (`feat` of `feat(cli)!: add eval`).
pub fn conventional_type(title: &str) -> Option<String> {
    kind(&ParsedMessage::parse(title))
}

fn kind(message: &ParsedMessage) -> Option<String> {
    message
        .kind
        .as_deref()
        .filter(|k| !k.is_empty())
        .map(str::to_ascii_lowercase)
}

/// Whether a history writes conventional types: at least half of its titles have one.
pub fn history_uses_types<'a>(titles: impl IntoIterator<Item = &'a str>) -> bool {
    let (mut typed, mut all) = (0, 0);
    for title in titles {
        all += 1;
        typed += usize::from(conventional_type(title).is_some());
    }
    all > 0 && typed * 2 >= all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_a_message_against_its_authors() {
        let author = "fix(parser): handle empty input\n\nThe parser read past the end.\n";
        let written = "fix(parser): reject empty input\n\nIt read past the end of the buffer.";
        let s = score(author, written, true, 0);
        // Titles: one word of four differs.
        assert!((s.title_distance - 0.25).abs() < 1e-9, "{s:?}");
        // Whole, by hand:
        // author  fix(parser): handle empty input The parser read past the end. (10 words)
        // written fix(parser): reject empty input It read past the end of the buffer. (12)
        // edits: handle->reject, The->It, delete "parser", end.->end, insert of, the, buffer.
        assert!((s.distance - 7.0 / 12.0).abs() < 1e-9, "{s:?}");
        assert_eq!(s.title_chars, 31);
        assert!(s.title_within_72);
        assert_eq!(s.type_matches, Some(true));
        assert_eq!(s.body_where_author, Some(true));
    }

    #[test]
    fn type_and_body_are_judged_only_where_they_mean_something() {
        let s = score("Handle empty input", "feat: handle empty input", false, 2);
        assert_eq!(s.type_matches, None);
        assert_eq!(s.body_where_author, None);
        assert_eq!(s.rules_broken, 2);
        let s = score("fix: a\n\nwhy", "feat: a", true, 0);
        assert_eq!(s.type_matches, Some(false));
        assert_eq!(s.body_where_author, Some(false));
        // A footer alone is no body.
        let s = score("fix: a\n\nwhy", "fix: a\n\nCloses #4", true, 0);
        assert_eq!(s.body_where_author, Some(false));
    }

    #[test]
    fn comments_and_surrounding_blank_lines_do_not_count() {
        let s = score(
            "Add x\n",
            "\nAdd x\n\n# Please enter the commit message\n",
            false,
            0,
        );
        assert_eq!(s.distance, 0.0);
    }

    #[test]
    fn a_long_title_is_flagged() {
        let s = score("Add x", &"word ".repeat(20), false, 0);
        assert!(!s.title_within_72);
        assert_eq!(s.title_chars, 99);
    }

    #[test]
    fn a_history_uses_types_when_half_its_titles_have_one() {
        assert!(history_uses_types(["feat: a", "fix(x): b", "Update docs"]));
        assert!(history_uses_types(["feat: a", "Update docs"]));
        assert!(!history_uses_types([
            "feat: a",
            "Update docs",
            "Bump version"
        ]));
        assert!(!history_uses_types(Vec::<&str>::new()));
        assert_eq!(conventional_type("Feat(cli)!: add"), Some("feat".into()));
        assert_eq!(conventional_type("Merge branch 'x'"), None);
    }
}
