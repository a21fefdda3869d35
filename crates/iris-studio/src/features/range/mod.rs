//! The range feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::Outcome;
use crate::state::{CommitRow, Mode};

/// What comes back to the range feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The commits of a range, with what its start resolved to.
    Commits {
        /// The range mode that asked.
        mode: Mode,
        /// The range's start as resolved (a tag or the default branch when none was given)
        /// and its commits, or why git could not list them.
        result: Outcome<(String, Vec<CommitRow>)>,
    },
}

/// The work the range feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// The commits of the range; `from` None means the mode's default.
    LoadCommits {
        /// The range mode that shows them.
        mode: Mode,
        /// Where the range starts (a branch, tag or commit).
        from: Option<String>,
        /// Where it ends; `None` means HEAD.
        to: Option<String>,
    },
}

pub(crate) mod update;

/// Applies what came back to the range feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    match msg {
        Msg::Commits { mode, result } => update::commits_loaded(state, mode, result),
    }
}
pub(crate) mod draw;
pub(crate) mod draw_picker;

/// Up, down and the page keys in the commits.
pub(crate) fn move_cursor(
    state: &mut crate::state::State,
    command: crate::command::Command,
) -> Vec<crate::effect::Effect> {
    update::move_cursor((&mut state.range, &mut state.diff), command)
}

/// Selects row `row` of the commits.
pub(crate) fn select(state: &mut crate::state::State, row: usize) -> Vec<crate::effect::Effect> {
    update::select((&mut state.range, &mut state.diff), row)
}

/// `R`: the range picker opens.
pub(crate) fn pick(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    update::pick((&mut state.overlay.range_input, &mut state.focus, state.mode))
}

/// Esc in the range picker.
pub(crate) fn close_picker(state: &mut crate::state::State) {
    update::close_picker((&mut state.overlay.range_input, &mut state.focus, state.mode));
}

/// A key typed into the range picker.
pub(crate) fn key(
    state: &mut crate::state::State,
    key: crossterm::event::KeyEvent,
) -> Vec<crate::effect::Effect> {
    let picker = (&mut state.overlay.range_input, &mut state.focus, state.mode);
    update::key(picker, &mut state.range, key)
}

pub(crate) use update::load_commits;
