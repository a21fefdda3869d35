//! The diff feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::effect::Effect;
use crate::failure::Outcome;
use crate::state::State;
use crate::update::cx::Cx;
use iris_studio_core::change::FileDiff;

/// What comes back to the diff feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The diff of the selected file (its staged part, then its unstaged part) or of a commit.
    Loaded {
        /// The file the diff is of, or `commit <short id>`: a diff the user has since left
        /// is dropped.
        path: String,
        /// The diff's files, or why git could not make it.
        result: Outcome<Vec<FileDiff>>,
        /// How many of the files are the staged part; `None` for a commit's diff.
        staged: Option<usize>,
    },
}

/// The work the diff feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Reads a changed file's diff for the diff pane: its staged part, then its unstaged part.
    Load {
        /// The file, relative to the repository's root.
        path: String,
    },
    /// One commit's changes, shown in the diff pane.
    LoadCommit {
        /// The commit's id.
        id: String,
    },
}

pub(crate) mod update;

/// Applies what came back to the diff feature; returns the work it asks for next.
pub(crate) fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let parts = (&mut state.diff, &mut state.findings.pending_jump);
    let effects = match msg {
        Msg::Loaded {
            path,
            result,
            staged,
        } => update::loaded(parts, &mut cx, path, result, staged),
    };
    cx.asked().settle(state, effects)
}
pub(crate) mod draw;
pub mod side_by_side;
pub mod state;

/// `d`: diffs side by side or unified.
pub(crate) fn toggle_side_by_side(state: &mut State) -> Vec<Effect> {
    let (columns, _) = crate::layout::inner_size(state.layout().view);
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = update::toggle_side_by_side(&mut state.screen.side_by_side, &mut cx, columns);
    cx.asked().settle(state, effects)
}
