//! The split view's git work, off the UI thread: reading the change to plan, applying the
//! plan group by group (each step reported), undoing it. In a jj workspace the change is
//! `@` and jj applies the plan (`shared::jj_split`).

use std::path::{Path, PathBuf};

use tokio::sync::mpsc::UnboundedSender;

use iris_core::change::FileDiff;
use iris_core::split::{SplitPlan, Unit};
use iris_git::GitRepo;
use iris_git::jj::Jj;
use iris_git::split::{Progress, SplitChange};
use iris_studio::action::Action;

/// The change the split view plans: its units and the files they come from.
pub async fn read_change(root: PathBuf) -> anyhow::Result<(Vec<Unit>, Vec<FileDiff>)> {
    let read = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let repo = GitRepo::discover(&root)?;
        let change = match crate::shared::jj::open(&repo)? {
            Some(jj) => jj_change(&repo, &jj)?.1,
            None => repo.split_change(false)?,
        };
        if change.is_empty() {
            anyhow::bail!("there is no change to split");
        }
        Ok((change.units, change.files))
    });
    read.await?
}

/// Applies `plan` if the change is still the one it was planned on (`units`); in a jj
/// workspace jj runs `iris` (this program) as its diff editor.
pub fn apply(
    tx: &UnboundedSender<Action>,
    root: &Path,
    (units, plan): (Vec<Unit>, SplitPlan),
    iris: PathBuf,
) {
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
        match crate::shared::jj::open(&repo) {
            Ok(Some(jj)) => {
                let applied = apply_with_jj(&tx, (&repo, &jj), &units, &plan, &iris);
                return drop(tx.send(applied));
            }
            Ok(None) => {}
            Err(err) => return drop(tx.send(refused(format!("{err:#}")))),
        }
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

/// `@`'s change id and its change to split.
fn jj_change(repo: &GitRepo, jj: &Jj) -> anyhow::Result<(String, SplitChange)> {
    let found = crate::shared::jj::change_to_describe(jj, "@")?;
    Ok((found.change_id, repo.split_change_of(&found.commit_id)?))
}

/// The plan applied with jj, if `@` is still the change it was planned on (`units`): one
/// change a group; jj's operation before is named for undoing it.
fn apply_with_jj(
    tx: &UnboundedSender<Action>,
    (repo, jj): (&GitRepo, &Jj),
    units: &[Unit],
    plan: &SplitPlan,
    iris: &Path,
) -> Action {
    let applied = jj_change(repo, jj).and_then(|(id, change)| {
        if change.units != units {
            anyhow::bail!(
                "the change moved since Iris planned it: esc closes the view, x plans again"
            );
        }
        let step = |number: usize, of: usize, title: &str| {
            let step = format!("made {title}");
            let _ = tx.send(Action::SplitStep {
                done: number,
                of,
                step,
            });
        };
        let before = crate::shared::jj_split::apply(repo, jj, (&id, &change), plan, iris, step)?;
        Ok(format!(
            "made {} changes with jj (jj op restore {before} is the undo too)",
            plan.groups.len()
        ))
    });
    let undoable = applied.is_ok();
    Action::SplitApplied {
        result: applied.map_err(|e| format!("{e:#}")),
        undoable,
    }
}

/// Restores the state from before the last split.
pub fn undo(tx: &UnboundedSender<Action>, root: &Path) {
    let (tx, root) = (tx.clone(), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let undone = GitRepo::discover(&root)
            .map_err(anyhow::Error::from)
            .and_then(|repo| match crate::shared::jj::open(&repo)? {
                Some(jj) => crate::shared::jj_split::undo(&repo, &jj),
                None => Ok(repo.undo_split()?.to_string()),
            })
            .map_err(|e| format!("{e:#}"));
        let _ = tx.send(Action::SplitUndone(undone));
    });
}
