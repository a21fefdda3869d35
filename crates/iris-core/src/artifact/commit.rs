//! The commit message artifact.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::commit_body::wrap_body;

/// Longest first line of a commit message git tools display without cutting.
pub const MAX_TITLE_CHARS: usize = 72;

/// A commit message.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct GeneratedMessage {
    /// One gitmoji (the emoji character, e.g. "✨") when the style asks for gitmoji; null
    /// otherwise. Never repeat it in the title.
    pub emoji: Option<String>,
    /// The subject line: imperative mood ("Add", "Fix"), at most 72 characters, no trailing
    /// period. Keep a conventional `type(scope): ` prefix when the style uses one.
    pub title: String,
    /// The body: why the change was made and what it does, in plain text wrapped at about
    /// 72 columns. Empty when the title says everything.
    pub message: String,
}

impl GeneratedMessage {
    /// Puts the message in shape: a one-line title of at most [`MAX_TITLE_CHARS`] (counting
    /// the emoji) without trailing period, the overflow moved to the body, no emoji twice, the
    /// body wrapped at `BODY_COLUMNS` (in commit_body).
    pub fn normalize(&mut self) {
        // A commit message carries no control characters (an escape sequence in a title
        // would act on every terminal that shows the log).
        self.emoji = self
            .emoji
            .take()
            .map(|e| crate::controls::strip(e.trim()).into_owned())
            .filter(|e| !e.is_empty());
        let mut message = crate::controls::strip(&self.message.replace("\r\n", "\n"))
            .trim()
            .to_string();
        let mut title = crate::controls::strip(&self.title.replace("\r\n", "\n"))
            .trim()
            .to_string();
        if let Some((first, rest)) = title.split_once('\n') {
            message = paragraphs(rest.trim(), &message);
            title = first.trim().to_string();
        }
        // Every copy of the emoji the title opens with goes (one left would go next time).
        if let Some(emoji) = &self.emoji {
            while let Some(rest) = title.strip_prefix(emoji.as_str()) {
                title = rest.trim_start().to_string();
            }
        }
        title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        while title.ends_with('.') && !title.ends_with("..") {
            title.pop();
            title.truncate(title.trim_end().len());
        }
        let budget = MAX_TITLE_CHARS
            - self
                .emoji
                .as_ref()
                .map_or(0, |e| e.chars().count().min(MAX_TITLE_CHARS / 2) + 1);
        if title.chars().count() > budget {
            let (head, tail) = split_title(&title, budget - 1);
            title = format!("{head}…");
            message = paragraphs(&format!("…{tail}"), &message);
        }
        self.title = title;
        self.message = wrap_body(&message);
    }

    /// The text git records: the first line (emoji and title), a blank line, the body.
    pub fn to_commit_text(&self) -> String {
        let first = match self.emoji.as_deref().map(str::trim) {
            Some(emoji) if !emoji.is_empty() => format!("{emoji} {}", self.title),
            _ => self.title.clone(),
        };
        let body = self.message.trim();
        if body.is_empty() {
            first
        } else {
            format!("{first}\n\n{body}")
        }
    }

    /// Reads a commit text (first line, blank line, body) back into its parts; the emoji
    /// stays part of the title.
    pub fn from_commit_text(text: &str) -> Self {
        let text = text.replace("\r\n", "\n");
        let text = text.trim();
        let (title, message) = text.split_once('\n').unwrap_or((text, ""));
        Self {
            emoji: None,
            title: title.to_string(),
            message: message.trim().to_string(),
        }
    }

    /// A commit text written by Iris put in the shape [`GeneratedMessage::normalize`] gives
    /// a generated message (the title cut at a word, the body wrapped at 72 columns).
    pub fn tidy_commit_text(text: &str) -> String {
        let mut message = Self::from_commit_text(text);
        message.normalize();
        message.to_commit_text()
    }

    /// A commit message is plain text: its markdown is the commit text itself.
    pub fn to_markdown(&self) -> String {
        self.to_commit_text()
    }
}

/// Two blocks of text separated by a blank line, either may be empty.
fn paragraphs(first: &str, second: &str) -> String {
    match (first.is_empty(), second.is_empty()) {
        (true, _) => second.to_string(),
        (_, true) => first.to_string(),
        _ => format!("{first}\n\n{second}"),
    }
}

/// Length in characters of a conventional-commit prefix (`type(scope)!: `), 0 if none.
fn conventional_prefix_chars(title: &str) -> usize {
    let Some(colon) = title.find(": ") else {
        return 0;
    };
    let head = &title[..colon];
    let head = head.strip_suffix('!').unwrap_or(head);
    let (kind, scope_ok) = match head.find('(') {
        Some(open) => (
            &head[..open],
            head.ends_with(')') && !head[open..].contains(' '),
        ),
        None => (head, true),
    };
    let is_type = !kind.is_empty() && kind.chars().all(|c| c.is_ascii_alphabetic());
    if is_type && scope_ok {
        title[..colon + 2].chars().count()
    } else {
        0
    }
}

/// Cuts `title` to at most `limit` characters at a word boundary after any conventional
/// prefix; returns the head (without trailing punctuation) and the rest.
fn split_title(title: &str, limit: usize) -> (String, String) {
    let chars: Vec<char> = title.chars().collect();
    let prefix = conventional_prefix_chars(title);
    let boundary = (prefix + 1..=limit.min(chars.len() - 1))
        .rev()
        .find(|&i| chars[i] == ' ');
    let (head_end, tail_start) = match boundary {
        Some(space) => (space, space + 1),
        None => (limit, limit),
    };
    let head: String = chars[..head_end].iter().collect();
    let head = head
        .trim_end_matches(|c: char| c.is_whitespace() || ",;:-".contains(c))
        .to_string();
    let tail: String = chars[tail_start..].iter().collect();
    (head, tail.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::commit_body::BODY_COLUMNS;

    fn normalized(emoji: Option<&str>, title: &str, message: &str) -> GeneratedMessage {
        let mut m = GeneratedMessage {
            emoji: emoji.map(str::to_string),
            title: title.to_string(),
            message: message.to_string(),
        };
        m.normalize();
        m
    }

    #[test]
    fn the_body_is_wrapped_at_72_columns_and_keeps_its_lists_and_code() {
        let long = "The studio ranks the staged files from one diff of the index, reading \
                    each file's added and removed lines straight from libgit2.";
        let body = format!(
            "{long}\n\n- {long}\n  12. {long}\n\n```\n{long}\n```\n    {long}\n\
             See https://example.com/{}",
            "x".repeat(80)
        );
        let m = normalized(None, "Rank faster", &body);
        let lines: Vec<&str> = m.message.lines().collect();
        assert_eq!(
            lines[..4],
            [
                "The studio ranks the staged files from one diff of the index, reading",
                "each file's added and removed lines straight from libgit2.",
                "",
                "- The studio ranks the staged files from one diff of the index, reading",
            ]
        );
        assert_eq!(
            lines[4],
            "  each file's added and removed lines straight from libgit2."
        );
        assert!(lines[5].starts_with("  12. The studio"), "{}", lines[5]);
        assert!(
            lines[6].starts_with("      ") && !lines[6].starts_with("       "),
            "{m:?}"
        );
        // Code stays as written; a word longer than a line stands alone.
        assert!(
            m.message
                .contains(&format!("```\n{long}\n```\n    {long}\n"))
        );
        assert!(lines.last().unwrap().starts_with("https://example.com/"));
        for line in lines
            .iter()
            .filter(|l| !l.contains("libgit2.") && !l.contains("https"))
        {
            assert!(line.chars().count() <= BODY_COLUMNS, "{line}");
        }
        // Short lines are never joined.
        assert_eq!(normalized(None, "T", "one\ntwo").message, "one\ntwo");
    }

    #[test]
    fn short_title_only_loses_its_trailing_period_and_extra_spaces() {
        let m = normalized(None, "  Add  the relevance engine. ", "Body.\n");
        assert_eq!(m.title, "Add the relevance engine");
        assert_eq!(m.message, "Body.");
        assert_eq!(
            normalized(None, "Wait for it...", "").title,
            "Wait for it..."
        );
    }

    #[test]
    fn long_title_is_cut_at_a_word_and_the_rest_opens_the_body() {
        let title = "Teach the relevance engine to rank generated files below hand-written sources in every diff";
        let m = normalized(None, title, "Why it matters.");
        assert!(m.title.chars().count() <= MAX_TITLE_CHARS, "{}", m.title);
        assert!(m.title.ends_with('…'));
        let head = m.title.trim_end_matches('…');
        assert!(title.starts_with(head) && title[head.len()..].starts_with(' '));
        assert!(
            m.message
                .starts_with(&format!("…{}", title[head.len()..].trim()))
        );
        assert!(m.message.ends_with("\n\nWhy it matters."));
    }

    #[test]
    fn conventional_prefix_survives_the_cut() {
        let title = "feat(context)!: rank generated files and lock files below the hand-written sources of the change";
        let m = normalized(None, title, "");
        assert!(m.title.starts_with("feat(context)!: rank"), "{}", m.title);
        assert!(m.title.chars().count() <= MAX_TITLE_CHARS);
        assert_eq!(conventional_prefix_chars("fix: x"), 5);
        assert_eq!(conventional_prefix_chars("fix(git): x"), 10);
        assert_eq!(conventional_prefix_chars("Note: the thing"), 6);
        assert_eq!(conventional_prefix_chars("Merge branch 'a': b"), 0);
    }

    #[test]
    fn a_prefix_longer_than_the_limit_is_cut_hard() {
        let title = format!("feat({}): x", "s".repeat(80));
        let m = normalized(None, &title, "");
        assert_eq!(m.title.chars().count(), MAX_TITLE_CHARS);
    }

    #[test]
    fn one_huge_word_is_cut_hard() {
        let m = normalized(None, &"a".repeat(100), "");
        assert_eq!(m.title.chars().count(), MAX_TITLE_CHARS);
        assert_eq!(m.message, format!("…{}", "a".repeat(29)));
    }

    #[test]
    fn the_emoji_counts_toward_the_limit_and_is_not_repeated() {
        let m = normalized(Some(" ✨ "), &format!("✨ {}", "word ".repeat(20)), "");
        assert_eq!(m.emoji.as_deref(), Some("✨"));
        assert!(!m.title.starts_with('✨'));
        let text = m.to_commit_text();
        let first = text.lines().next().unwrap_or_default();
        assert!(first.starts_with("✨ word"));
        assert!(first.chars().count() <= MAX_TITLE_CHARS, "{first}");
        assert_eq!(normalized(Some(""), "x", "").emoji, None);
    }

    #[test]
    fn a_multi_line_title_keeps_its_first_line() {
        let m = normalized(None, "Fix the parser\r\nIt dropped the last hunk.", "More.");
        assert_eq!(m.title, "Fix the parser");
        assert_eq!(m.message, "It dropped the last hunk.\n\nMore.");
    }

    #[test]
    fn a_commit_text_from_chat_is_tidied_as_a_generated_one() {
        let body = "The check that warns about a path separator in the search pattern only looked at the\n\
                    primary pattern. Patterns given with --and are now checked the same way.";
        let text = format!("✨ Check every pattern for a separator.\r\n\r\n{body}\n");
        assert_eq!(
            GeneratedMessage::tidy_commit_text(&text),
            "✨ Check every pattern for a separator\n\n\
             The check that warns about a path separator in the search pattern only\n\
             looked at the primary pattern. Patterns given with --and are now checked\n\
             the same way."
        );
        assert_eq!(GeneratedMessage::tidy_commit_text("Fix"), "Fix");
    }

    #[test]
    fn commit_text_is_title_blank_line_body() {
        let m = GeneratedMessage {
            emoji: Some("🐛".into()),
            title: "Fix the parser".into(),
            message: "It dropped the last hunk.".into(),
        };
        assert_eq!(
            m.to_commit_text(),
            "🐛 Fix the parser\n\nIt dropped the last hunk."
        );
        let bare = GeneratedMessage {
            title: "Fix".into(),
            ..Default::default()
        };
        assert_eq!(bare.to_commit_text(), "Fix");
        assert_eq!(bare.to_markdown(), "Fix");
    }
}
