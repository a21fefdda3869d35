//! One command's run context: what everything the command starts shares, and nothing else
//! does. Iris herself ([`IrisAgent`](crate::IrisAgent)) is configuration; each command (an
//! `iris gen`, a studio job, a call of `iris mcp`) runs with a context of its own, so that its
//! candidates, critic, review aspects and subagents spend from one ledger while two commands
//! share nothing by accident.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::runtime::budget::Budget;
use crate::runtime::dry_run::DryRun;

/// What one command spends and captures.
#[derive(Debug, Clone, Default)]
pub struct RunContext {
    /// `max_cost_per_run`: the command's ledger, with the reservations of its requests in
    /// flight; `None` when no cap is set.
    pub(crate) budget: Option<Arc<Budget>>,
    /// `--dry-run`: the first request is kept here instead of being sent.
    pub(crate) dry_run: Option<DryRun>,
    /// Replies that could not be read, saved so far: each gets a file of its own.
    saved_replies: Arc<AtomicUsize>,
}

impl RunContext {
    /// A context whose requests spend from `budget` (`None`: no cap).
    pub fn new(budget: Option<Budget>) -> Self {
        Self {
            budget: budget.map(Arc::new),
            ..Self::default()
        }
    }

    /// A dry run's: its first request is kept in `dry_run`, and nothing is spent.
    pub fn dry(dry_run: DryRun) -> Self {
        Self {
            dry_run: Some(dry_run),
            ..Self::default()
        }
    }

    /// This context with `batch`'s count of saved replies: the items of a batch (`iris eval`'s
    /// commits) each spend from a ledger of their own, but save their unreadable replies in
    /// one directory, where none may overwrite another's.
    pub(crate) fn saving_after(self, batch: &RunContext) -> Self {
        Self {
            saved_replies: Arc::clone(&batch.saved_replies),
            ..self
        }
    }

    /// The name of the file the next unreadable reply of `capability` is saved in: the first
    /// of the command keeps the plain name, the others are numbered, so replies of
    /// candidates written side by side do not overwrite each other.
    pub(crate) fn raw_reply_name(&self, capability: &str) -> String {
        match self.saved_replies.fetch_add(1, Ordering::Relaxed) {
            0 => format!("iris-{capability}-reply.txt"),
            n => format!("iris-{capability}-reply-{}.txt", n + 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_unreadable_reply_of_a_command_gets_a_file_of_its_own() {
        let run = RunContext::default();
        let other = run.clone();
        assert_eq!(run.raw_reply_name("commit"), "iris-commit-reply.txt");
        assert_eq!(other.raw_reply_name("commit"), "iris-commit-reply-2.txt");
        assert_eq!(
            RunContext::default().raw_reply_name("review"),
            "iris-review-reply.txt",
            "a new command starts again"
        );
        let item = RunContext::default().saving_after(&run);
        assert_eq!(item.raw_reply_name("review"), "iris-review-reply-3.txt");
        assert_eq!(run.raw_reply_name("review"), "iris-review-reply-4.txt");
    }
}
