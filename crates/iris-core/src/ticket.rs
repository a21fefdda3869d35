//! Ticket ids: the one a branch's name carries (`feature/PROJ-123-login`, `fix/#45-crash`), and
//! where the project's recent commit messages put theirs (a prefix of the title, or a trailer),
//! so a message names its ticket the way the project's people do. Pure: the caller reads the
//! branch and the history.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::artifact::GeneratedMessage;
use crate::artifact::commit_body::ends_with_trailers;

/// Commit messages read for the project's habit.
pub const HISTORY: usize = 50;
/// Messages that must name a ticket the same way before it counts as the project's habit.
const HABIT: usize = 2;

/// A Jira-style key (`PROJ-123`) or a GitHub/GitLab number (`#45`).
const ID: &str = r"(?:[A-Z][A-Z0-9]{1,9}-[0-9]{1,7}|#[0-9]{1,7})";

static JIRA_IN_BRANCH: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)(?:^|[/_-])([a-z][a-z0-9]{1,9})-([0-9]{1,7})(?:[/_-]|$)"));
static NUMBER_IN_BRANCH: LazyLock<Regex> = LazyLock::new(|| {
    // `#45`, `issue-45`, `gh-45`, `bug/45`, and GitHub's own `45-fix-the-crash`.
    pattern(
        r"(?i)#([0-9]{1,7})|(?:^|/)(?:issues?|gh|bug)[-_/]?([0-9]{1,7})(?:[/_-]|$)|(?:^|/)([0-9]{1,7})-[a-z]",
    )
});
static PREFIX: LazyLock<Regex> =
    LazyLock::new(|| pattern(&format!(r"^(\[{ID}\] ?|\({ID}\) ?|{ID}:? )")));
static TRAILER: LazyLock<Regex> =
    LazyLock::new(|| pattern(&format!(r"^([A-Za-z][A-Za-z-]{{0,30}})(:? )({ID})\s*$")));
static ANY_ID: LazyLock<Regex> = LazyLock::new(|| pattern(ID));

fn pattern(text: &str) -> Regex {
    crate::commit_rules::built_in(text)
}

/// Where a project writes its ticket ids, as a pattern with `{id}` in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Before the title: `{id}: `, `[{id}] `.
    Prefix(String),
    /// A line of its own at the end of the message: `Refs: {id}`, `Closes {id}`.
    Trailer(String),
}

impl Placement {
    /// The placement written out for `id`: `PROJ-1: ` or `Refs: PROJ-1`.
    pub fn example(&self, id: &str) -> String {
        match self {
            Placement::Prefix(pattern) | Placement::Trailer(pattern) => pattern.replace("{id}", id),
        }
    }
}

/// The ticket a branch names, and where the project puts ticket ids (`None`: its history
/// shows no habit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    /// The id as messages write it: `PROJ-123` (upper case) or `#45`.
    pub id: String,
    /// The branch it was found in.
    pub branch: String,
    /// Where the project puts ticket ids; `None` when its history shows no habit.
    pub placement: Option<Placement>,
}

impl Ticket {
    /// The ticket in `branch`, with the habit of `history` (recent messages, newest first).
    pub fn find(branch: &str, history: &[String]) -> Option<Ticket> {
        let id = id_in_branch(branch, history)?;
        Some(Ticket {
            id,
            branch: branch.to_string(),
            placement: habit(history),
        })
    }

    /// The request's section on the ticket, for a commit message or (`commit` false) a pull
    /// request.
    pub fn section(&self, commit: bool) -> String {
        let how = match &self.placement {
            _ if !commit => "List it among the related issues.".to_string(),
            Some(Placement::Prefix(_)) => format!(
                "This project starts its commit titles with the ticket (`{}Fix the login`): do \
                 the same.",
                self.example()
            ),
            Some(Placement::Trailer(_)) => format!(
                "This project names the ticket in a trailer, a last line of its own (`{}`): do \
                 the same.",
                self.example()
            ),
            None => "Mention it only where it helps the reader: the recent history shows no \
                     habit of naming tickets."
                .to_string(),
        };
        format!(
            "## Ticket\nThe branch `{}` names the ticket {}. {how}",
            self.branch, self.id
        )
    }

    fn example(&self) -> String {
        self.placement
            .as_ref()
            .map(|p| p.example(&self.id))
            .unwrap_or_default()
    }

    /// `message` with the ticket where the project puts it, unless the message names it
    /// already. `prefix_allowed` is false when the commit rules read a type at the start of
    /// the title: the id then goes into a `Refs:` trailer instead.
    pub fn place(&self, message: &mut GeneratedMessage, prefix_allowed: bool) {
        let Some(placement) = &self.placement else {
            return;
        };
        if names(&message.title, &self.id) || names(&message.message, &self.id) {
            return;
        }
        match placement {
            Placement::Prefix(pattern) if prefix_allowed => {
                message.title = format!("{}{}", pattern.replace("{id}", &self.id), message.title);
            }
            Placement::Prefix(_) => add_trailer(message, &format!("Refs: {}", self.id)),
            Placement::Trailer(pattern) => add_trailer(message, &pattern.replace("{id}", &self.id)),
        }
    }
}

/// The ticket id in a branch's name. A lowercase Jira key (`feature/proj-12-x`) counts only when
/// the history writes that key in capitals, so `fix/utf-8-names` names no ticket.
fn id_in_branch(branch: &str, history: &[String]) -> Option<String> {
    for found in JIRA_IN_BRANCH.captures_iter(branch) {
        let (key, number) = (&found[1], &found[2]);
        let upper = key.to_ascii_uppercase();
        let prefix = format!("{upper}-");
        let written_so = key == upper
            || history.iter().any(|m| {
                ANY_ID
                    .find_iter(m)
                    .any(|id| id.as_str().starts_with(&prefix))
            });
        if written_so {
            return Some(format!("{upper}-{number}"));
        }
    }
    let found = NUMBER_IN_BRANCH.captures(branch)?;
    let number = (1..=3).find_map(|i| found.get(i))?.as_str();
    Some(format!("#{number}"))
}

/// Where the history puts ticket ids, when at least [`HABIT`] messages agree; the commonest
/// placement wins.
fn habit(history: &[String]) -> Option<Placement> {
    let mut seen: HashMap<Placement, usize> = HashMap::new();
    for message in history {
        if let Some(placement) = placement_in(message) {
            *seen.entry(placement).or_default() += 1;
        }
    }
    seen.into_iter()
        .filter(|(_, n)| *n >= HABIT)
        // The commonest; on a tie, a prefix (the more visible habit), then by pattern.
        .max_by(|(a, n), (b, m)| {
            n.cmp(m)
                .then_with(|| {
                    matches!(a, Placement::Prefix(_)).cmp(&matches!(b, Placement::Prefix(_)))
                })
                .then_with(|| b.example("").cmp(&a.example("")))
        })
        .map(|(placement, _)| placement)
}

/// How one message names a ticket, if it does.
fn placement_in(message: &str) -> Option<Placement> {
    let mut lines = message.lines();
    let title = lines.next().unwrap_or_default().trim();
    if let Some(found) = PREFIX.find(title) {
        let id = ANY_ID.find(found.as_str())?.as_str();
        return Some(Placement::Prefix(found.as_str().replacen(id, "{id}", 1)));
    }
    lines.rev().find_map(|line| {
        let found = TRAILER.captures(line.trim())?;
        Some(Placement::Trailer(format!(
            "{}{}{{id}}",
            &found[1], &found[2]
        )))
    })
}

/// Whether `text` names `id` (in any case), as a word of its own: `#45` is not in `#456`.
fn names(text: &str, id: &str) -> bool {
    let (text, id) = (text.to_ascii_lowercase(), id.to_ascii_lowercase());
    text.match_indices(&id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// `line` as the message's last line: in its trailer block when it ends with one, else as a
/// paragraph of its own.
/// Adds `line` to the message's closing block of trailers (a new one when it has none).
pub(crate) fn add_trailer(message: &mut GeneratedMessage, line: &str) {
    let body = message.message.trim_end();
    message.message = if body.is_empty() {
        line.to_string()
    } else if ends_with_trailers(body) {
        format!("{body}\n{line}")
    } else {
        format!("{body}\n\n{line}")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(messages: &[&str]) -> Vec<String> {
        messages.iter().map(|m| m.to_string()).collect()
    }

    fn message(title: &str, body: &str) -> GeneratedMessage {
        GeneratedMessage {
            emoji: None,
            title: title.into(),
            message: body.into(),
        }
    }

    #[test]
    fn branches_name_jira_keys_and_issue_numbers() {
        let none: Vec<String> = Vec::new();
        for (branch, id) in [
            ("feature/PROJ-123-add-login", Some("PROJ-123")),
            ("PROJ-9", Some("PROJ-9")),
            ("bugfix/AB2-7_crash", Some("AB2-7")),
            ("fix/#45-crash", Some("#45")),
            ("45-fix-the-crash", Some("#45")),
            ("user/issue-78", Some("#78")),
            ("gh-12", Some("#12")),
            ("feature/add-login", None),
            ("fix/utf-8-names", None),
            ("release/1.2", None),
            ("main", None),
        ] {
            assert_eq!(id_in_branch(branch, &none).as_deref(), id, "{branch}");
        }
    }

    #[test]
    fn a_lowercase_key_counts_when_the_history_writes_it_in_capitals() {
        let past = history(&["PROJ-3: Fix the build"]);
        assert_eq!(
            id_in_branch("feature/proj-12-login", &past).as_deref(),
            Some("PROJ-12")
        );
        assert_eq!(id_in_branch("feature/proj-12-login", &[]), None);
    }

    #[test]
    fn the_history_habit_is_a_prefix_or_a_trailer() {
        let prefix = history(&[
            "PROJ-3: Fix the build",
            "Tidy up",
            "PROJ-2: Add the parser\n\nBody.",
        ]);
        assert_eq!(habit(&prefix), Some(Placement::Prefix("{id}: ".into())));
        let brackets = history(&["[PROJ-3] Fix", "[PROJ-1] Add"]);
        assert_eq!(habit(&brackets), Some(Placement::Prefix("[{id}] ".into())));
        let trailer = history(&[
            "Fix the build\n\nBecause.\n\nRefs: PROJ-3",
            "Add the parser\n\nCloses #12\nSigned-off-by: A <a@b>",
            "Add more\n\nRefs: #4",
        ]);
        assert_eq!(
            habit(&trailer),
            Some(Placement::Trailer("Refs: {id}".into()))
        );
        // One message is no habit.
        assert_eq!(habit(&history(&["PROJ-3: Fix", "Add"])), None);
        assert_eq!(habit(&history(&["Fix typo", "Bump version 1.2-3"])), None);
    }

    #[test]
    fn a_branch_s_ticket_is_found_with_the_history_s_habit_and_said() {
        let past = history(&["PROJ-3: Fix the build", "PROJ-2: Add the parser"]);
        let ticket = Ticket::find("feature/PROJ-7-login", &past).expect("a ticket");
        assert_eq!(
            ticket,
            Ticket {
                id: "PROJ-7".into(),
                branch: "feature/PROJ-7-login".into(),
                placement: Some(Placement::Prefix("{id}: ".into())),
            }
        );
        assert!(
            ticket.section(true).contains("(`PROJ-7: Fix the login`)"),
            "{}",
            ticket.section(true)
        );
        assert_eq!(Ticket::find("feature/login", &past), None);
        assert_eq!(
            Placement::Trailer("Refs: {id}".into()).example("#4"),
            "Refs: #4"
        );
    }

    #[test]
    fn the_ticket_goes_where_the_habit_says_unless_the_message_names_it() {
        let ticket = Ticket {
            id: "PROJ-7".into(),
            branch: "feature/PROJ-7-x".into(),
            placement: Some(Placement::Prefix("{id}: ".into())),
        };
        let mut m = message("Add login", "");
        ticket.place(&mut m, true);
        assert_eq!(m.title, "PROJ-7: Add login");
        let mut named = message("Add login for proj-7", "");
        ticket.place(&mut named, true);
        assert_eq!(named.title, "Add login for proj-7");
        let mut other = message("Fix PROJ-70", "");
        ticket.place(&mut other, true);
        assert_eq!(other.title, "PROJ-7: Fix PROJ-70");
        // Rules that read a type at the start: a trailer instead.
        let mut typed = message("feat: add login", "Because.");
        ticket.place(&mut typed, false);
        assert_eq!(
            (typed.title.as_str(), typed.message.as_str()),
            ("feat: add login", "Because.\n\nRefs: PROJ-7")
        );

        let trailer = Ticket {
            placement: Some(Placement::Trailer("Closes {id}".into())),
            id: "#45".into(),
            ..ticket.clone()
        };
        let mut m = message("Fix crash", "");
        trailer.place(&mut m, true);
        assert_eq!(m.message, "Closes #45");
        let mut signed = message("Fix crash", "Why.\n\nSigned-off-by: A <a@b>");
        trailer.place(&mut signed, true);
        assert_eq!(signed.message, "Why.\n\nSigned-off-by: A <a@b>\nCloses #45");

        let offered = Ticket {
            placement: None,
            ..ticket
        };
        let mut m = message("Add login", "");
        offered.place(&mut m, true);
        assert_eq!(m.title, "Add login");
        assert!(
            offered
                .section(true)
                .contains("names the ticket PROJ-7. Mention it only")
        );
        assert!(
            offered
                .section(false)
                .ends_with("names the ticket PROJ-7. List it among the related issues.")
        );
    }
}
