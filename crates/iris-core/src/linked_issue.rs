//! The issues a change is for (pure): their numbers, in a branch's ticket and in commit
//! messages, and the request's section with each one's title and the opening of its body,
//! the best "why" a forge holds.

use std::sync::LazyLock;

use regex::Regex;

/// How many issues a request carries at most.
pub const MAX_ISSUES: usize = 5;
/// How much of an issue's body a request carries at most, in characters.
pub const MAX_BODY_CHARS: usize = 1_500;

/// An issue as the forge gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct LinkedIssue {
    /// Its number on the forge.
    pub number: u64,
    /// Its title.
    pub title: String,
    /// Its body, as written (markdown).
    pub body: String,
    /// `open` or `closed` (GitLab's `opened` is said `open`).
    pub state: String,
}

static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| crate::commit_rules::built_in(r"(?:^|[\s(\[,;:])#([0-9]{1,7})\b"));

/// The issue number a ticket id names (`#45`); a Jira key names none on the forge.
pub fn number_of_ticket(id: &str) -> Option<u64> {
    id.strip_prefix('#')?.parse().ok().filter(|n| *n > 0)
}

/// The issue numbers `messages` name (`#12`, `Fixes #12`, `(#12)`), each once, in order.
pub fn numbers_in(messages: &[String]) -> Vec<u64> {
    let mut numbers = Vec::new();
    for message in messages {
        for found in NUMBER.captures_iter(message) {
            if let Some(n) = found[1].parse::<u64>().ok().filter(|n| *n > 0)
                && !numbers.contains(&n)
            {
                numbers.push(n);
            }
        }
    }
    numbers
}

/// The request's section for `issues` (at most [`MAX_ISSUES`]), or none.
pub fn section(issues: &[LinkedIssue]) -> Option<String> {
    if issues.is_empty() {
        return None;
    }
    let mut text = String::from(
        "## Linked issues\n\nThe issues this change is for, as their authors wrote them: the \
         reason for the change, when it is given here. Name it in the message's body; do not \
         invent one that is not here.\n",
    );
    for issue in issues.iter().take(MAX_ISSUES) {
        let state = match issue.state.as_str() {
            "" => String::new(),
            state => format!(" ({state})"),
        };
        text.push_str(&format!(
            "\n### #{}: {}{state}\n",
            issue.number,
            issue.title.trim()
        ));
        let body = opening(&issue.body);
        if !body.is_empty() {
            text.push('\n');
            text.push_str(&body);
            text.push('\n');
        }
    }
    Some(text)
}

/// The opening of an issue's body: its HTML comments (a template's hints) dropped, runs of
/// blank lines made one, at most [`MAX_BODY_CHARS`] characters, cut at a word.
fn opening(body: &str) -> String {
    let mut text = String::new();
    let mut rest = body;
    while let Some(start) = rest.find("<!--") {
        text.push_str(&rest[..start]);
        rest = rest[start..]
            .find("-->")
            .map_or("", |end| &rest[start + end + 3..]);
    }
    text.push_str(rest);
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() && lines.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        lines.push(line);
    }
    let text = lines.join("\n").trim().to_string();
    if text.chars().count() <= MAX_BODY_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_BODY_CHARS).collect();
    let at = cut.rfind(char::is_whitespace).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_come_from_tickets_and_messages() {
        assert_eq!(number_of_ticket("#45"), Some(45));
        assert_eq!(number_of_ticket("PROJ-45"), None);
        let messages = [
            "Fix the crash (#12)\n\nFixes #34, refs #12".to_string(),
            "Bump the version to v1.2#3 and color#fff".to_string(),
            "#7: parse flags".to_string(),
        ];
        assert_eq!(numbers_in(&messages), [12, 34, 7]);
    }

    #[test]
    fn the_section_holds_the_title_and_the_bounded_opening() {
        let long = format!(
            "<!-- Describe the bug -->\nThe app crashes on an empty config.\n\n\n\n{}",
            "word ".repeat(600)
        );
        let issues = vec![
            LinkedIssue {
                number: 45,
                title: "Crash on an empty config".into(),
                body: long,
                state: "open".into(),
            };
            7
        ];
        let text = section(&issues).expect("a section");
        assert!(text.starts_with("## Linked issues\n"));
        assert!(text.contains(
            "### #45: Crash on an empty config (open)\n\nThe app crashes on an empty config.\n\nword"
        ));
        assert!(!text.contains("Describe the bug"));
        assert_eq!(text.matches("### #45").count(), MAX_ISSUES);
        let opening = text.split("### #45").nth(1).unwrap_or_default();
        assert!(opening.chars().count() < MAX_BODY_CHARS + 60, "{opening}");
        assert!(opening.trim_end().ends_with("word…"));
        assert_eq!(section(&[]), None);
    }
}
