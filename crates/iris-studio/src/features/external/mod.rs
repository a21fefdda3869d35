//! The external feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::effect::EditTarget;
use crate::failure::Outcome;
use crate::update::cx::Cx;
use iris_studio_core::artifact::ArtifactKind;

/// What comes back to the external feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The user's editor closed on an artifact: its text as saved, or why it could not run.
    ArtifactEdited {
        /// The artifact edited.
        kind: ArtifactKind,
        /// The text saved in the editor, or why the editor could not run.
        result: Outcome<String>,
    },
    /// The user's editor closed on a file of the repository (or could not run).
    FileEdited {
        /// The file, relative to the repository's root (read again if it is open).
        path: String,
        /// Nothing, or why the editor could not run.
        result: Outcome<()>,
    },
}

/// The work the external feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// The studio steps aside for the user's editor (the loop carries this out: it owns the
    /// terminal).
    Edit(EditTarget),
}

pub(crate) mod update;

/// Applies what came back to the external feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = match msg {
        Msg::ArtifactEdited { kind, result } => {
            let buffer = state.artifacts.get_mut(&kind);
            update::artifact_edited(buffer, &mut cx, kind, result)
        }
        Msg::FileEdited { path, result } => {
            update::file_edited(state.explore.open.as_deref(), &mut cx, path, result)
        }
    };
    cx.asked().settle(state, effects)
}
