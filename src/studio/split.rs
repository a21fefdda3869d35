//! The split view's work on the repository, off the UI thread: reading the change to plan,
//! applying the plan group by group (each step reported), undoing it; the version control
//! makes the commits (git) or changes (jj).

use super::chat::turns;
use super::runner::Runner;
use crate::studio::fail;
use iris_studio_agent::capability::split::SplitTarget;
use iris_studio_tui::failure::{Done, Failure};
use iris_studio_tui::features::msgs::SplitFx;
use iris_studio_tui::features::msgs::SplitMsg;
use iris_studio_tui::state::{ChatMessage, PlannedChange};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;

use crate::app::vcs::{SplitAsked, SplitHow, SplitMade, Vcs};
use iris_studio_core::change::FileDiff;
use iris_studio_core::split::{SplitPlan, Unit};
use iris_studio_git::GitRepo;
use iris_studio_git::split::Progress;
use iris_studio_tui::action::Action;

/// The change the split view plans: its units and the files they come from.
pub async fn read_change(
    root: PathBuf,
    vcs: Arc<dyn Vcs>,
) -> anyhow::Result<(Vec<Unit>, Vec<FileDiff>)> {
    let read = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let repo = GitRepo::discover(&root)?;
        let target = vcs.split_change(&repo, &SplitAsked::default())?;
        Ok((target.change.units, target.change.files))
    });
    read.await?
}

/// Applies `plan` if the change is still the one it was planned on (`units`); jj runs `iris`
/// (this program) as its diff editor.
pub fn apply(
    tx: &UnboundedSender<Action>,
    (root, vcs): (&Path, Arc<dyn Vcs>),
    (units, plan): (Vec<Unit>, SplitPlan),
    iris: PathBuf,
) {
    let (tx, root) = (tx.clone(), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let refused = |why: Failure| {
            Action::Split(SplitMsg::Applied {
                result: Err(why),
                undoable: false,
            })
        };
        let target = GitRepo::discover(&root)
            .map_err(anyhow::Error::from)
            .and_then(|repo| Ok((vcs.split_change(&repo, &SplitAsked::default())?, repo)));
        let (target, repo) = match target {
            Ok((target, repo)) if target.change.units == units => (target, repo),
            Ok(_) => {
                let why =
                    "the change moved since Iris planned it: esc closes the view, x plans again";
                return drop(tx.send(refused(Failure::usage(why))));
            }
            Err(err) => return drop(tx.send(refused(fail::of(&err)))),
        };
        let steps = tx.clone();
        let mut step = move |progress| {
            let (done, of, step) = match progress {
                Progress::Checking { group, of } => (group - 1, of, "checking".to_string()),
                Progress::Committing { group, of, title } => {
                    (group - 1, of, format!("committing {title}"))
                }
                Progress::Committed { group, of, summary } => (group, of, summary),
            };
            let _ = steps.send(Action::Split(SplitMsg::Step { done, of, step }));
        };
        let how = SplitHow {
            check: None,
            interrupted: None,
            iris: &iris,
        };
        let action = match vcs.apply_split(&repo, &target, &plan, &how, &mut step) {
            Ok(made) => Action::Split(SplitMsg::Applied {
                result: Ok(Done(said(&made))),
                undoable: true,
            }),
            Err(stopped) => Action::Split(SplitMsg::Applied {
                result: Err(fail::of(&stopped.error)),
                undoable: stopped.undoable,
            }),
        };
        let _ = tx.send(action);
    });
}

/// What a split made, for the notice (`u` undoes it; the version control's own way too).
fn said(made: &SplitMade) -> String {
    let s = if made.made == 1 { "" } else { "s" };
    let also = match &made.undo {
        Some(undo) => format!(" ({undo} is the undo too)"),
        None => String::new(),
    };
    format!("made {} {}{s}{also}", made.made, made.noun)
}

/// Restores the state from before the last split.
pub fn undo(tx: &UnboundedSender<Action>, root: &Path, vcs: Arc<dyn Vcs>) {
    let (tx, root) = (tx.clone(), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let undone = GitRepo::discover(&root)
            .map_err(anyhow::Error::from)
            .and_then(|repo| vcs.undo_split(&repo))
            .map(Done)
            .map_err(fail::any);
        let _ = tx.send(Action::Split(SplitMsg::Undone(undone)));
    });
}

impl Runner {
    /// Carries out the split view's work.
    pub(super) fn split(&mut self, fx: SplitFx) {
        match fx {
            SplitFx::Plan { task } => self.plan_split(task),
            SplitFx::Chat {
                task,
                units,
                files,
                plan,
                history,
                message,
            } => {
                let target = SplitTarget { units, files, plan };
                self.split_chat(task, target, history, message);
            }
            SplitFx::Apply { units, plan } => {
                let iris = self
                    .iris_program
                    .clone()
                    .or_else(|| std::env::current_exe().ok());
                apply(
                    &self.tx,
                    (&self.root, self.jobs.vcs()),
                    (units, plan),
                    iris.unwrap_or_default(),
                )
            }
            SplitFx::Undo => undo(&self.tx, &self.root, self.jobs.vcs()),
        }
    }

    /// Reads the change and has Iris plan its split.
    fn plan_split(&mut self, task: u64) {
        let (root, vcs) = (self.root.clone(), self.jobs.vcs());
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let (units, files) = super::split::read_change(root, vcs).await?;
                let planned = iris.plan_split(&units, &files, false, &sink).await?;
                Ok(Box::new(PlannedChange {
                    units,
                    files,
                    plan: planned.plan,
                    first_problems: planned.first_problems,
                }))
            },
            move |result| Action::Split(SplitMsg::Planned { task, result }),
        );
    }

    /// A chat turn about the split plan; the plans Iris writes land at once.
    fn split_chat(
        &mut self,
        task: u64,
        target: SplitTarget,
        history: Vec<ChatMessage>,
        message: String,
    ) {
        let updates = self.tx.clone();
        let on_update = Arc::new(move |plan| {
            let _ = updates.send(Action::Split(SplitMsg::Updated { task, plan }));
        });
        let turns = turns(history);
        self.spawn_iris(
            task,
            |iris, sink| async move {
                Ok(iris
                    .chat_split(&target, &turns, &message, on_update, &sink)
                    .await?)
            },
            move |result| Action::Split(SplitMsg::ChatReplied { task, result }),
        );
    }
}
