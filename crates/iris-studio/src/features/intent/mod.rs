//! The intent feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::Outcome;
use iris_core::artifact::intent::FileIntent;

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
    match msg {
        Msg::Explained { task, result } => update::explained(state, task, result),
    }
}
pub mod blocks;
pub(crate) mod draw;
