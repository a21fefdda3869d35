//! A commit message read as conventional commits do: `type(scope)!: subject`, then a body,
//! then a footer that starts at a `BREAKING CHANGE:` note or a `Closes #12` reference.

/// git's scissors line (`git commit -v`): it and everything below it is not the message.
const SCISSORS: &str = "------------------------ >8 ------------------------";

/// A commit message in its parts. Lines are the cleaned message's: no `#` comments, no
/// trailing whitespace, no blank lines before or after.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedMessage {
    pub lines: Vec<String>,
    /// The first line.
    pub header: String,
    /// The type, when the header has the `type(scope): subject` shape (possibly empty).
    pub kind: Option<String>,
    pub scope: Option<String>,
    pub subject: Option<String>,
    /// `!` before the colon.
    pub breaking: bool,
    /// The body's lines (between the header and the footer, blank lines around it dropped).
    pub body: Vec<String>,
    /// The index in `lines` of the body's first line.
    pub body_start: Option<usize>,
    /// The footer's lines.
    pub footer: Vec<String>,
    /// The index in `lines` of the footer's first line.
    pub footer_start: Option<usize>,
}

impl ParsedMessage {
    pub fn parse(message: &str) -> Self {
        let lines = clean(message);
        let header = lines.first().cloned().unwrap_or_default();
        let (kind, scope, breaking, subject) = match parse_header(&header) {
            Some(h) => (Some(h.0), h.1, h.2, Some(h.3)),
            None => (None, None, false, None),
        };
        let footer_start = (1..lines.len()).find(|&i| starts_footer(&lines[i]));
        let body_end = footer_start.unwrap_or(lines.len());
        let body_start = (1..body_end).find(|&i| !lines[i].is_empty());
        let body = match body_start {
            Some(start) => {
                let end = (start..body_end)
                    .rev()
                    .find(|&i| !lines[i].is_empty())
                    .map_or(start, |i| i + 1);
                lines[start..end].to_vec()
            }
            None => Vec::new(),
        };
        let footer = footer_start.map_or_else(Vec::new, |start| lines[start..].to_vec());
        Self {
            header,
            kind,
            scope,
            subject,
            breaking,
            body,
            body_start,
            footer,
            footer_start,
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

/// `type(scope)!: subject` as conventional commits' header pattern
/// `^(\w*)(?:\((.*)\))?!?: (.*)$` reads it: the type, the scope, the `!` and the subject.
fn parse_header(header: &str) -> Option<(String, Option<String>, bool, String)> {
    let type_end = header
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(header.len());
    let kind = &header[..type_end];
    let rest = &header[type_end..];
    let after_colon = |tail: &str| -> Option<(bool, String)> {
        let (breaking, tail) = match tail.strip_prefix('!') {
            Some(t) => (true, t),
            None => (false, tail),
        };
        tail.strip_prefix(": ").map(|s| (breaking, s.to_string()))
    };
    if let Some(inner) = rest.strip_prefix('(') {
        // The scope runs to the last `)` that a `: ` (or `!: `) follows, as the greedy
        // pattern does.
        let found = inner
            .match_indices(')')
            .rev()
            .find_map(|(i, _)| after_colon(&inner[i + 1..]).map(|t| (i, t)));
        if let Some((close, (breaking, subject))) = found {
            let scope = inner[..close].to_string();
            return Some((kind.to_string(), Some(scope), breaking, subject));
        }
    }
    after_colon(rest).map(|(breaking, subject)| (kind.to_string(), None, breaking, subject))
}

/// A line that starts the footer: a breaking change note or an issue reference with an
/// action (`Closes #12`, `fixes org/repo#3`).
fn starts_footer(line: &str) -> bool {
    let line = line.trim_start_matches([' ', '*', '|']);
    if line.starts_with("BREAKING CHANGE:") || line.starts_with("BREAKING-CHANGE:") {
        return true;
    }
    let mut words = line.split_whitespace();
    let action = words.next().unwrap_or_default().to_ascii_lowercase();
    const ACTIONS: [&str; 9] = [
        "close", "closes", "closed", "fix", "fixes", "fixed", "resolve", "resolves", "resolved",
    ];
    if !ACTIONS.contains(&action.trim_end_matches(':')) {
        return false;
    }
    words.next().is_some_and(|reference| {
        reference
            .split_once('#')
            .is_some_and(|(_, n)| n.starts_with(|c: char| c.is_ascii_digit()))
    })
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
        assert_eq!(m.scope.as_deref(), Some("parser"));
        assert!(m.breaking);
        assert_eq!(m.subject.as_deref(), Some("add arrays"));
        assert_eq!(m.body, vec!["The body line.", "Second line."]);
        assert_eq!(m.body_start, Some(2));
        assert_eq!(m.footer, vec!["BREAKING CHANGE: arrays", "Closes #12"]);
        assert_eq!(m.footer_start, Some(5));
    }

    #[test]
    fn headers_that_do_not_parse() {
        for header in ["Add arrays", "feat:no space", "feat (x): y", "feat(x) : y"] {
            let m = ParsedMessage::parse(header);
            assert_eq!(m.kind, None, "{header}");
            assert_eq!(m.subject, None, "{header}");
        }
        let m = ParsedMessage::parse(": subject only");
        assert_eq!(m.kind.as_deref(), Some(""));
    }

    #[test]
    fn the_scope_runs_to_the_last_closing_parenthesis_before_the_colon() {
        let m = ParsedMessage::parse("fix(a(b)): c (d)");
        assert_eq!(m.scope.as_deref(), Some("a(b)"));
        assert_eq!(m.subject.as_deref(), Some("c (d)"));
    }

    #[test]
    fn comments_and_the_scissors_part_are_not_the_message() {
        let m = ParsedMessage::parse(
            "\n# Please enter the message\nfix: x\n\nbody   \n# comment\n# ------------------------ >8 ------------------------\ndiff --git a b\n",
        );
        assert_eq!(m.lines, vec!["fix: x", "", "body"]);
    }

    #[test]
    fn a_reference_without_an_action_stays_in_the_body() {
        let m = ParsedMessage::parse("fix: x\n\nSee #12 for why.\nFixes: #13");
        assert_eq!(m.body, vec!["See #12 for why."]);
        assert_eq!(m.footer, vec!["Fixes: #13"]);
    }
}
