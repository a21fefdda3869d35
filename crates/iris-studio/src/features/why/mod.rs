//! The why feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::Outcome;
use crate::update::cx::Cx;
use iris_studio_core::change::FileDiff;
use iris_studio_core::protocol::{Explained, LinesAsked};

/// What comes back to the why feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// Iris' answer about the selected lines of the open file (explore), or why none came.
    Explained {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// Her answer, with the commits behind it.
        result: Outcome<Explained>,
    },
    /// A commit's diff, shown in place of the code (explore).
    CommitShown {
        /// The commit's id.
        id: String,
        /// Its diff, or why git could not make it.
        result: Outcome<Vec<FileDiff>>,
    },
}

/// The work the why feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Iris explains lines of a file from their history.
    Explain {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The file and the lines selected.
        asked: LinesAsked,
    },
    /// One commit's changes, shown in explore's code view.
    ShowCommit {
        /// The commit's id.
        id: String,
    },
}

pub(crate) mod update;

/// Applies what came back to the why feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let explore = &mut state.explore;
    let effects = match msg {
        Msg::Explained { task, result } => update::explained(explore, &mut cx, task, result),
        Msg::CommitShown { id, result } => update::commit_shown(explore, &mut cx, id, result),
    };
    cx.asked().settle(state, effects)
}
pub mod answer;
pub(crate) mod draw;

/// Up, down and the page keys scroll the answer.
pub(crate) fn scroll(
    state: &mut crate::state::State,
    command: crate::command::Command,
) -> Vec<crate::effect::Effect> {
    let height = crate::layout::inner_size(state.layout().answer).1;
    update::scroll(
        &mut state.explore.why,
        (&state.rows.answer, height),
        command,
    )
}

/// `n` / `p`: the next or previous commit behind the lines.
pub(crate) fn step_commit(
    state: &mut crate::state::State,
    command: crate::command::Command,
) -> Vec<crate::effect::Effect> {
    let height = crate::layout::inner_size(state.layout().answer).1;
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let rows = (&state.rows.answer[..], height);
    let effects = update::step_commit(&mut state.explore.why, rows, &mut cx, command);
    cx.asked().settle(state, effects)
}

/// A click in the answer's pane.
pub(crate) fn click(state: &mut crate::state::State, row: u16) -> Vec<crate::effect::Effect> {
    let area = state.layout().answer;
    update::click(&mut state.explore.why, (&state.rows.answer, area), row)
}

// Asking and opening a commit reach beyond the answer (the code view, its selection).
pub(crate) use update::{ask, open_commit};
