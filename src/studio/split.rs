//! The split view's git work, off the UI thread: reading the change to plan, applying the
//! plan group by group (each step reported), undoing it.

use std::path::{Path, PathBuf};

use tokio::sync::mpsc::UnboundedSender;

use iris_core::change::FileDiff;
use iris_core::split::{SplitPlan, Unit};
use iris_git::GitRepo;
use iris_git::split::Progress;
use iris_studio::action::Action;

/// The change the split view plans: its units and the files they come from.
pub async fn read_change(root: PathBuf) -> anyhow::Result<(Vec<Unit>, Vec<FileDiff>)> {
    let read = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let change = GitRepo::discover(&root)?.split_change(false)?;
        if change.is_empty() {
            anyhow::bail!("there is no change to split");
        }
        Ok((change.units, change.files))
    });
    read.await?
}

/// Applies `plan` if the change is still the one it was planned on (`units`).
pub fn apply(tx: &UnboundedSender<Action>, root: &Path, units: Vec<Unit>, plan: SplitPlan) {
    let (tx, root) = (tx.clone(), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let refused = |why: String| Action::SplitApplied {
            result: Err(why),
            undoable: false,
        };
        let repo = match GitRepo::discover(&root) {
            Ok(repo) => repo,
            Err(err) => return drop(tx.send(refused(err.to_string()))),
        };
        let change = match repo.split_change(false) {
            Ok(change) if change.units == units => change,
            Ok(_) => {
                let why =
                    "the change moved since Iris planned it: esc closes the view, x plans again";
                return drop(tx.send(refused(why.to_string())));
            }
            Err(err) => return drop(tx.send(refused(err.to_string()))),
        };
        let steps = tx.clone();
        let options = iris_git::split::ApplyOptions::default();
        let applied = repo.apply_split(&change, &plan, options, move |progress| {
            let (done, of, step) = match progress {
                Progress::Checking { group, of } => (group - 1, of, "checking".to_string()),
                Progress::Committing { group, of, title } => {
                    (group - 1, of, format!("committing {title}"))
                }
                Progress::Committed { group, of, summary } => (group, of, summary),
            };
            let _ = steps.send(Action::SplitStep { done, of, step });
        });
        let action = match applied {
            Ok(applied) => Action::SplitApplied {
                result: Ok(format!("made {} commits", applied.commits.len())),
                undoable: true,
            },
            Err(stop) => Action::SplitApplied {
                result: Err(stop.to_string()),
                undoable: stop.saved,
            },
        };
        let _ = tx.send(action);
    });
}

/// Restores the state from before the last split.
pub fn undo(tx: &UnboundedSender<Action>, root: &Path) {
    let (tx, root) = (tx.clone(), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let undone = GitRepo::discover(&root)
            .and_then(|repo| repo.undo_split())
            .map(|undone| undone.to_string())
            .map_err(|e| e.to_string());
        let _ = tx.send(Action::SplitUndone(undone));
    });
}
