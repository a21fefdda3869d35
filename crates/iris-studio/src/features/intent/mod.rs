//! The intent feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::Outcome;
use crate::update::cx::Cx;
use iris_studio_core::artifact::intent::FileIntent;

/// What comes back to the intent feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The open file's intent and responsibility blocks (explore), or why none came.
    Explained {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// What the file is for, and its blocks.
        result: Outcome<FileIntent>,
    },
}

/// The work the intent feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Iris reads a file for its intent and responsibility blocks.
    Explain {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The file open in the code view, relative to the repository's root.
        path: String,
    },
}

pub(crate) mod update;

/// Applies what came back to the intent feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let code_rows = crate::features::explore::code_rows(state);
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let parts = (&mut state.explore, &mut state.focus, code_rows);
    let effects = match msg {
        Msg::Explained { task, result } => update::explained(parts, &mut cx, task, result),
    };
    cx.asked().settle(state, effects)
}

/// `i`: Iris reads the open file for its blocks.
pub(crate) fn ask(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let code_rows = crate::features::explore::code_rows(state);
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let parts = (&mut state.explore, &mut state.focus, code_rows);
    let effects = update::ask(parts, &mut cx);
    cx.asked().settle(state, effects)
}

/// Up, down and the page keys in the blocks.
pub(crate) fn move_block(
    state: &mut crate::state::State,
    command: crate::command::Command,
) -> Vec<crate::effect::Effect> {
    let code_rows = crate::features::explore::code_rows(state);
    let pane = crate::layout::inner_size(state.layout().blocks);
    update::move_block((&mut state.explore, code_rows), pane, command)
}

/// A click in the blocks' pane.
pub(crate) fn click(state: &mut crate::state::State, row: u16) -> Vec<crate::effect::Effect> {
    let code_rows = crate::features::explore::code_rows(state);
    let area = state.layout().blocks;
    let rows = (&state.rows.blocks[..], area);
    update::click((&mut state.explore, code_rows), rows, row)
}
pub mod blocks;
pub(crate) mod draw;
