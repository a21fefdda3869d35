//! The last message for a change: what Iris wrote for the change staged now, or what the user
//! last tried to commit with it. When a `commit-msg` hook turns the commit down, the next
//! `git commit` offers that message again (with the user's edits) instead of paying for a new
//! one, and nothing typed is lost.
//!
//! A change is the commit it goes on and the tree the index makes, as `iris eval --accepted`
//! keys it. A message is offered for an hour at most, and only for the same change.

use serde::{Deserialize, Serialize};

/// Messages kept: the oldest are dropped first.
pub const KEEP: usize = 64;
/// How long a message is offered again, in seconds.
pub const FRESH_FOR: i64 = 60 * 60;

/// One message remembered for a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMessage {
    /// The commit the change goes on; `None` for a repository's first commit.
    pub parent: Option<String>,
    /// The tree the change makes.
    pub tree: String,
    /// The message, cleaned as git records it.
    pub message: String,
    /// When, in seconds since the epoch.
    pub at: i64,
    /// The user tried to commit with it (the `commit-msg` step saw it); otherwise Iris wrote it
    /// and the user has not committed with it yet.
    pub tried: bool,
}

/// The messages remembered, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMessages {
    /// One per change at most.
    pub entries: Vec<LastMessage>,
}

impl LastMessages {
    /// The message for the change, if one was remembered less than an hour before `now`.
    pub fn find(&self, parent: Option<&str>, tree: &str, now: i64) -> Option<&LastMessage> {
        self.entries.iter().rev().find(|e| {
            e.parent.as_deref() == parent
                && e.tree == tree
                && (0..FRESH_FOR).contains(&(now - e.at))
        })
    }

    /// Remembers `entry` in place of any earlier message for its change; the oldest go
    /// beyond [`KEEP`]. An empty message is not remembered.
    pub fn put(&mut self, entry: LastMessage) {
        if entry.message.trim().is_empty() {
            return;
        }
        self.entries
            .retain(|e| !(e.parent == entry.parent && e.tree == entry.tree));
        self.entries.push(entry);
        let over = self.entries.len().saturating_sub(KEEP);
        self.entries.drain(..over);
    }
}

/// The message as git records it: comments and the scissors part gone, blank edges trimmed.
pub fn cleaned(message: &str) -> String {
    crate::commit_rules::clean_lines(message).join("\n")
}

/// How old a remembered message is, in words: "2 minutes ago".
pub fn age(at: i64, now: i64) -> String {
    let minutes = (now - at).max(0) / 60;
    match minutes {
        0 => "less than a minute ago".to_string(),
        1 => "a minute ago".to_string(),
        n => format!("{n} minutes ago"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(tree: &str, message: &str, at: i64) -> LastMessage {
        LastMessage {
            parent: Some("p".into()),
            tree: tree.into(),
            message: message.into(),
            at,
            tried: false,
        }
    }

    #[test]
    fn its_age_counts_whole_minutes_from_when_it_was_written() {
        assert_eq!(age(1_000, 1_059), "less than a minute ago");
        assert_eq!(age(1_000, 1_060), "a minute ago");
        assert_eq!(age(1_000, 1_150), "2 minutes ago");
        // A clock set back says "less than a minute", not a negative age.
        assert_eq!(age(1_000, 900), "less than a minute ago");
    }

    #[test]
    fn a_message_is_offered_for_its_change_and_for_an_hour() {
        let mut all = LastMessages::default();
        all.put(entry("t1", "first", 1_000));
        assert_eq!(
            all.find(Some("p"), "t1", 1_000).map(|e| e.message.as_str()),
            Some("first")
        );
        assert!(all.find(Some("p"), "t1", 1_000 + FRESH_FOR - 1).is_some());
        assert!(all.find(Some("p"), "t1", 1_000 + FRESH_FOR).is_none());
        assert!(all.find(Some("p"), "t2", 1_000).is_none());
        assert!(all.find(Some("q"), "t1", 1_000).is_none());
        assert!(all.find(None, "t1", 1_000).is_none());
        // A clock set back does not make a message from the future fresh.
        assert!(all.find(Some("p"), "t1", 900).is_none());
    }

    #[test]
    fn the_newest_message_replaces_the_change_s_earlier_one() {
        let mut all = LastMessages::default();
        all.put(entry("t1", "Iris wrote this", 1_000));
        all.put(LastMessage {
            tried: true,
            ..entry("t1", "the user's edit", 1_010)
        });
        assert_eq!(all.entries.len(), 1);
        let found = all.find(Some("p"), "t1", 1_020).unwrap();
        assert_eq!(found.message, "the user's edit");
        assert!(found.tried);
        all.put(entry("t1", "  \n", 1_030));
        assert_eq!(
            all.find(Some("p"), "t1", 1_040).unwrap().message,
            "the user's edit"
        );
    }

    #[test]
    fn the_store_stays_bounded_dropping_the_oldest() {
        let mut all = LastMessages::default();
        for i in 0..KEEP + 3 {
            all.put(entry(&format!("t{i}"), "m", 1_000));
        }
        assert_eq!(all.entries.len(), KEEP);
        assert!(all.find(Some("p"), "t0", 1_000).is_none());
        assert!(
            all.find(Some("p"), &format!("t{}", KEEP + 2), 1_000)
                .is_some()
        );
    }

    #[test]
    fn cleaned_as_git_records_it() {
        assert_eq!(
            cleaned(
                "\nfix: x\n\nbody  \n# Please enter\n# ------------------------ >8 ------------------------\ndiff\n"
            ),
            "fix: x\n\nbody"
        );
        assert_eq!(age(0, 30), "less than a minute ago");
        assert_eq!(age(0, 61), "a minute ago");
        assert_eq!(age(0, 600), "10 minutes ago");
    }
}
