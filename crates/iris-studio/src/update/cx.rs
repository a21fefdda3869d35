//! What a feature's update is handed beside its own part of the state: a [`Cx`] with Iris'
//! tasks (one runs at a time), to say something in the status line, and to ask for what
//! another feature does next. The reducer settles it with the whole state once the feature
//! is done, so a feature's update touches only its own part and says in its signature which
//! part that is.

use std::time::Instant;

use super::{editing, failed, generate, notice, range, task};
use crate::effect::Effect;
use crate::failure::Failure;
use crate::state::{IrisState, Level, Mode, State, Task, TaskKind};

/// Iris' tasks and what a feature asked of the rest of the studio while it updated its own
/// part.
#[must_use = "a feature's context is settled with the whole state"]
pub(crate) struct Cx<'a> {
    iris: &'a mut IrisState,
    mode: Mode,
    now: Instant,
    asked: Asked,
}

/// What was said and asked, to settle once the feature's borrow of the state ends.
#[derive(Debug, Default)]
#[must_use = "settled with the whole state"]
pub(crate) struct Asked {
    said: Vec<(Level, String)>,
    then: Vec<Then>,
}

/// What happens elsewhere once a feature is done.
#[derive(Debug)]
pub(crate) enum Then {
    /// Work failed: acted on by its kind (see `failed.rs`), `retry` offered where trying
    /// again may work.
    Failed(Failure, Option<Effect>),
    /// Iris may start on the mode's artifact, if it is empty and its input is not.
    AutoGenerate,
    /// What Iris is doing is cancelled (Esc): said, and each feature's waiting pane closed.
    CancelTask,
    /// The range's commits are read again (their ids changed).
    LoadCommits,
    /// The artifact `kind` is emptied and its draft removed (its commit was made).
    Clear(iris_studio_core::artifact::ArtifactKind),
    /// Iris wrote `text` for the artifact `kind`: its newest version (undo steps back),
    /// noted as hers and for what is in front of the user, and saved.
    Written {
        /// The artifact.
        kind: iris_studio_core::artifact::ArtifactKind,
        /// What she wrote.
        text: String,
    },
    /// The artifact `kind`'s text and versions are saved as its draft.
    SaveDraft(iris_studio_core::artifact::ArtifactKind),
    /// A long text shown whole over the panes until esc.
    Report(crate::state::Report),
    /// The artifact `kind` gets `text` as its newest version (undo steps back), saved.
    Replace {
        /// The artifact.
        kind: iris_studio_core::artifact::ArtifactKind,
        /// Its new text.
        text: String,
    },
}

impl<'a> Cx<'a> {
    /// A context over Iris' state, in the mode the studio is in, at `now`.
    pub(crate) fn new(iris: &'a mut IrisState, mode: Mode, now: Instant) -> Self {
        Self {
            iris,
            mode,
            now,
            asked: Asked::default(),
        }
    }

    /// Iris' state: whether she can work, what she is doing.
    pub(crate) fn iris(&mut self) -> &mut IrisState {
        self.iris
    }

    /// Says `text` in the status line (the last said is what shows).
    pub(crate) fn say(&mut self, level: Level, text: impl Into<String>) {
        self.asked.said.push((level, text.into()));
    }

    /// Asks for `then` once the feature is done.
    pub(crate) fn then(&mut self, then: Then) {
        self.asked.then.push(then);
    }

    /// Starts a task of `kind`: its id, or `None` (said why: not set up, or busy).
    pub(crate) fn start_task(&mut self, kind: TaskKind) -> Option<u64> {
        match task::begin(self.iris, self.mode, self.now, kind) {
            Ok(id) => Some(id),
            // Said, not acted on: asking Iris while she is busy or not set up is no failure.
            Err(why) => {
                self.say(Level::Warning, why.words);
                None
            }
        }
    }

    /// Ends task `id`; `None` for a cancelled or overtaken task's late result.
    pub(crate) fn finish_task(&mut self, id: u64) -> Option<Task> {
        task::end(self.iris, id)
    }

    /// Says what `finished` did well, with what its run noted on the way.
    pub(crate) fn task_done(&mut self, finished: &Task, what: String) {
        let (said, level) = task::with_run_notes(finished, what, Level::Success);
        self.say(level, said);
    }

    /// `finished` failed: acted on by the failure's kind, with what its run noted.
    pub(crate) fn task_failed(&mut self, finished: &Task, failure: Failure) {
        let (words, _) = task::with_run_notes(finished, failure.words, Level::Error);
        self.then(Then::Failed(
            Failure {
                kind: failure.kind,
                words,
            },
            None,
        ));
    }

    /// What was said and asked, to settle with the whole state.
    pub(crate) fn asked(self) -> Asked {
        self.asked
    }
}

impl Asked {
    /// Carries out what was said and asked, in order, after the feature's own `effects`.
    pub(crate) fn settle(self, state: &mut State, mut effects: Vec<Effect>) -> Vec<Effect> {
        for (level, text) in self.said {
            notice(state, level, text);
        }
        for then in self.then {
            match then {
                Then::Failed(failure, retry) => {
                    effects.extend(failed::failed(state, failure, retry));
                }
                Then::AutoGenerate => effects.extend(generate::auto_generate(state)),
                Then::CancelTask => effects.extend(task::cancel(state).unwrap_or_default()),
                Then::LoadCommits => effects.extend(range::load_commits(state)),
                Then::Clear(kind) => effects.extend(editing::clear(state, kind)),
                Then::Report(report) => state.overlay.report = Some(report),
                Then::SaveDraft(kind) => effects.extend(editing::save_draft(state, kind)),
                Then::Written { kind, text } => {
                    editing::replace(state, kind, &text);
                    editing::wrote(state, kind, &text);
                    effects.extend(editing::save_draft(state, kind));
                }
                Then::Replace { kind, text } => {
                    editing::replace(state, kind, &text);
                    effects.extend(editing::save_draft(state, kind));
                }
            }
        }
        effects
    }
}
