//! The review's findings, shell side: a finding dismissed (`d`) kept in the review memory,
//! and the studio's reviews written as `iris review` writes them, the dismissals in their
//! request and the dismissed findings left out ([`crate::app::dismissed`], the step both
//! share). The memory's files are read and written off the UI thread.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use iris_studio_agent::IrisAgent;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::capability::write::Written;
use iris_studio_core::artifact::Review;
use iris_studio_git::GitRepo;
use iris_studio_tui::action::Action;
use iris_studio_tui::failure::{Done, Failure};
use iris_studio_tui::features::msgs::{FindingsFx, FindingsMsg};

use super::fail;
use super::runner::Runner;
use crate::app::dismissed::Dismissed;
use crate::app::stores::review_memory::{Keeper, ReviewMemory};

impl Runner {
    /// Carries out the findings' work.
    pub(super) fn findings(&mut self, fx: FindingsFx) {
        match fx {
            FindingsFx::Dismiss { id, reason, team } => {
                let (tx, memory) = (self.tx.clone(), self.review_memory.clone());
                let keeper = if team { Keeper::Team } else { Keeper::User };
                tokio::task::spawn_blocking(move || {
                    let result = match memory.dismiss_seen(keeper, &id, &reason) {
                        Ok(Some(said)) => Ok(Done(said)),
                        Ok(None) => Err(Failure::usage(format!(
                            "{id} is not among the last review's findings (another review was \
                             written since): ctrl-g has Iris review again"
                        ))),
                        Err(err) => Err(fail::of(&err)),
                    };
                    let _ = tx.send(Action::Findings(FindingsMsg::Dismissed { id, result }));
                });
            }
        }
    }
}

/// Iris as she writes a review: the dismissals read from `memory` (off the async threads)
/// and carried in her request. `None` (another artifact): Iris as she is.
pub(super) async fn with_dismissals(
    iris: Arc<IrisAgent>,
    memory: Option<ReviewMemory>,
) -> Result<(Arc<IrisAgent>, Option<Dismissed>)> {
    let Some(memory) = memory else {
        return Ok((iris, None));
    };
    let dismissed = tokio::task::spawn_blocking(move || Dismissed::read(memory)).await??;
    let iris = (*iris)
        .clone()
        .with_dismissals(dismissed.dismissals.clone());
    Ok((Arc::new(iris), Some(dismissed)))
}

/// The text of the review Iris `written` for `scope` (in the repository at `root`), without
/// the findings dismissed before and closed by the line that says how many; as she wrote it
/// when none was.
pub(super) async fn left_out(
    dismissed: Dismissed,
    (root, scope): (PathBuf, Scope),
    written: Written,
) -> Result<String> {
    let review: Review = serde_json::from_value(written.json)?;
    tokio::task::spawn_blocking(move || {
        let repo = GitRepo::discover(&root)?;
        let (review, line) = dismissed.leave_out(&repo, &scope, &review);
        Ok(match line {
            Some(line) => format!("{}\n\n{line}\n", review.to_markdown().trim_end()),
            None => written.text,
        })
    })
    .await?
}
