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
