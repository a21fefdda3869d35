//! PR mode's reword, its side in the repository: the commit checked and replayed for Iris to
//! write its message anew, and the commit given the message the user said yes to (by the
//! version control: git rewrites the branch, jj describes the change).

use super::runner::Runner;
use crate::studio::fail;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::failure::Done;
use iris_studio_tui::features::msgs::RewordFx;
use iris_studio_tui::features::msgs::RewordMsg;
use iris_studio_tui::state::Rewording;
use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use tokio::sync::mpsc::UnboundedSender;

use crate::app::replayed::{replay_of, staged_for};
use crate::app::vcs::Vcs;
use iris_studio_agent::IrisAgent;
use iris_studio_git::{GitRepo, Replay, RewordCommit};
use iris_studio_tui::action::Action;

/// Checks `commit` can be reworded here (on HEAD's history, no merge, nothing others built
/// on) and replays it: the replay (kept while Iris works), Iris moved there, and the commit.
pub fn prepare(
    iris: &IrisAgent,
    (root, vcs): (&Path, &dyn Vcs),
    commit: &str,
) -> Result<(Replay, IrisAgent, RewordCommit)> {
    let repo = GitRepo::discover(root)?;
    let found = vcs.reword_one(&repo, commit)?;
    let replay = replay_of(&repo)?;
    let there = staged_for(iris, &replay, &found.id)?;
    Ok((replay, there, found))
}

/// Gives `commit` its new `message`, off the UI thread; what happened comes back as
/// [`RewordMsg::Done`].
pub fn apply(
    tx: &UnboundedSender<Action>,
    (root, vcs): (&Path, Arc<dyn Vcs>),
    commit: String,
    message: String,
) {
    let (tx, root) = (tx.clone(), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let result = (|| -> Result<String> {
            let repo = GitRepo::discover(&root)?;
            let commits = vcs.reword_commits(&repo, &commit, None)?;
            let done = vcs.apply_reword(&repo, &commits, &[(commit, message)], false, None)?;
            Ok(match done.warning {
                Some(warning) => format!("{}; warning: {warning}", done.said),
                None => done.said,
            })
        })();
        let _ = tx.send(Action::Reword(RewordMsg::Done(
            result.map(Done).map_err(fail::any),
        )));
    });
}

impl Runner {
    /// Carries out PR mode's rewording.
    pub(super) fn reword(&mut self, fx: RewordFx) {
        match fx {
            RewordFx::Write { task, commit } => self.write_reword(task, commit),
            RewordFx::Apply { commit, message } => {
                apply(&self.tx, (&self.root, self.jobs.vcs()), commit, message)
            }
        }
    }

    /// Iris writes `commit`'s message anew from its own change, in a replay of the history
    /// before it.
    fn write_reword(&mut self, task: u64, commit: String) {
        let (root, vcs) = (self.root.clone(), self.jobs.vcs());
        self.spawn_iris(
            task,
            |iris, sink| async move {
                // Reading the commit and setting up the replay is git work: off the async threads.
                let asked = commit.clone();
                let (replay, there, found) = tokio::task::spawn_blocking(move || {
                    super::reword::prepare(&iris, (&root, vcs.as_ref()), &asked)
                })
                .await??;
                let written = there
                    .write(ArtifactKind::Commit, &Scope::Staged, false, &sink)
                    .await?;
                drop(replay);
                Ok(Rewording {
                    id: commit,
                    short_id: found.short_id,
                    old: found.message.trim_end().to_string(),
                    new: iris_studio_core::commit_rules::carry_trailers(
                        &found.message,
                        &written.text,
                    ),
                })
            },
            move |result| Action::Reword(RewordMsg::Written { task, result }),
        );
    }
}
