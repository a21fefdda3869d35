//! Accepted as written: what Iris wrote for a change, matched with what was committed.
//!
//! A message is remembered with the change it was written for: the commit it goes on and the
//! tree it makes. A commit with that parent and tree is the change committed, whoever typed
//! `git commit` and whatever the message went through on the way (the editor, the studio).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::score::cleaned;
use super::summary::{mean, median, share};
use super::word_distance;

/// What Iris wrote for a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Remembered {
    /// The commit the change goes on; `None` for a repository's first commit.
    pub parent: Option<String>,
    /// The tree the change makes (the index's, when it was written).
    pub tree: String,
    /// The message Iris wrote.
    pub written: String,
    /// What wrote it: `gen` (the command line and the hook) or `studio`.
    pub source: String,
    /// When, in seconds since the epoch.
    pub at: i64,
}

/// A commit, as far as matching goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// The commit's id.
    pub id: String,
    /// Its first parent; `None` for a repository's first commit.
    pub parent: Option<String>,
    /// The id of its tree.
    pub tree: String,
    /// Its message, as committed.
    pub message: String,
}

/// One commit whose message Iris had written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcceptedRow {
    /// The commit's id.
    pub commit: String,
    /// The first line of the message committed.
    pub title: String,
    /// What wrote the message: `gen` or `studio`.
    pub source: String,
    /// Committed as written (comments and blank space aside).
    pub unedited: bool,
    /// Word edit distance of the user's changes (0 when unedited).
    pub distance: f64,
}

/// How the messages Iris wrote fared once committed (`iris eval --accepted`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcceptedReport {
    /// The commits matched, newest first.
    pub rows: Vec<AcceptedRow>,
    /// Share of them committed as written; `None` when none matched.
    pub share_unedited: Option<f64>,
    /// Median word edit distance of the user's changes.
    pub median_distance: Option<f64>,
    /// Mean word edit distance of the user's changes.
    pub mean_distance: Option<f64>,
}

/// The last `last` of `commits` (newest first) that commit a change Iris wrote a message
/// for, with what the user did to it. The newest message remembered for a change counts.
pub fn accepted_report(
    commits: &[Committed],
    remembered: &[Remembered],
    last: usize,
) -> AcceptedReport {
    let mut by_change: HashMap<(Option<&str>, &str), &Remembered> = HashMap::new();
    for r in remembered {
        by_change.insert((r.parent.as_deref(), r.tree.as_str()), r);
    }
    let rows: Vec<AcceptedRow> = commits
        .iter()
        .filter_map(|c| {
            let r = by_change.get(&(c.parent.as_deref(), c.tree.as_str()))?;
            let (written, committed) = (cleaned(&r.written), cleaned(&c.message));
            Some(AcceptedRow {
                commit: c.id.clone(),
                title: committed.lines().next().unwrap_or_default().to_string(),
                source: r.source.clone(),
                unedited: written == committed,
                distance: word_distance(&written, &committed),
            })
        })
        .take(last)
        .collect();
    let distances: Vec<f64> = rows.iter().map(|r| r.distance).collect();
    AcceptedReport {
        share_unedited: share(rows.iter().map(|r| Some(r.unedited))),
        median_distance: median(&distances),
        mean_distance: mean(&distances),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remembered(parent: &str, tree: &str, written: &str) -> Remembered {
        Remembered {
            parent: Some(parent.into()),
            tree: tree.into(),
            written: written.into(),
            source: "gen".into(),
            at: 0,
        }
    }

    fn commit(id: &str, parent: &str, tree: &str, message: &str) -> Committed {
        Committed {
            id: id.into(),
            parent: Some(parent.into()),
            tree: tree.into(),
            message: message.into(),
        }
    }

    #[test]
    fn matches_commits_by_parent_and_tree() {
        let commits = [
            commit("c3", "c2", "t3", "Fix the lexer\n"),
            commit("c2", "c1", "t2", "Add a parser\n\n# comment\n"),
            commit("c1", "c0", "t1", "Unrelated"),
        ];
        let memory = [
            remembered("c1", "t2", "Add a parser"),
            remembered("c2", "t3", "Fix the parser"),
            // Same tree on another parent: another change.
            remembered("c9", "t1", "Unrelated"),
        ];
        let report = accepted_report(&commits, &memory, 20);
        assert_eq!(report.rows.len(), 2);
        assert_eq!(report.rows[0].commit, "c3");
        assert!(!report.rows[0].unedited);
        assert!((report.rows[0].distance - 1.0 / 3.0).abs() < 1e-9);
        assert!(report.rows[1].unedited);
        assert_eq!(report.share_unedited, Some(0.5));
        assert!((report.mean_distance.unwrap() - 1.0 / 6.0).abs() < 1e-9);
        assert_eq!(accepted_report(&commits, &memory, 1).rows.len(), 1);
    }

    #[test]
    fn the_newest_message_for_a_change_counts() {
        let commits = [commit("c2", "c1", "t2", "Second try")];
        let memory = [
            remembered("c1", "t2", "First try"),
            remembered("c1", "t2", "Second try"),
        ];
        assert!(accepted_report(&commits, &memory, 5).rows[0].unedited);
    }

    #[test]
    fn nothing_remembered_is_an_empty_report() {
        let report = accepted_report(&[commit("c2", "c1", "t2", "x")], &[], 5);
        assert!(report.rows.is_empty());
        assert_eq!(report.share_unedited, None);
        // Git's cleanup is no edit: trailing blank space, a comment.
        let commits = [commit("c2", "c1", "t2", "a\n\nb\n# git's comment")];
        let memory = [remembered("c1", "t2", "a\n\nb  \n")];
        assert!(accepted_report(&commits, &memory, 5).rows[0].unedited);
    }
}
