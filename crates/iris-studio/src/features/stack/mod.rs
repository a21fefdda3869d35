//! The stack feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::effect::Effect;
use crate::failure::Outcome;
use crate::state::State;
use crate::update::cx::Cx;
use iris_studio_core::artifact::ArtifactKind;

/// What comes back to the stack feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The stack the branch is in (None: it is in none, or is the only layer), or why it
    /// could not be read.
    Loaded(Outcome<Option<iris_studio_core::stack::Stack>>),
    /// Iris wrote the description of a stack's layer that had none, on the way to publishing.
    LayerWritten {
        /// The publishing task.
        task: u64,
        /// The layer (0 is the bottom one).
        index: usize,
        /// The description.
        text: String,
    },
    /// The stack was published: what happened to each layer, a line each, or why not.
    Published {
        /// The publishing task, when Iris wrote layers for it.
        task: Option<u64>,
        /// What happened to each layer, or why publishing stopped.
        result: Outcome<Vec<String>>,
    },
}

/// The work the stack feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Reads the stack of branches the checked-out branch is in, over `base`.
    Load {
        /// The branch the stack sits on (the PR range's start).
        base: String,
    },
    /// Publishes the stack: each layer's PR/MR opened into the one below where it has none,
    /// every one's stack list refreshed, a layer's text re-written where it has one here.
    Publish {
        /// The studio's id for the task, when Iris first writes the layers without a
        /// description (None: every layer has one, nothing is written).
        task: Option<u64>,
        /// The stack, bottom layer first.
        stack: iris_studio_core::stack::Stack,
        /// Each layer's description as the studio has it ("" for one not written).
        texts: Vec<String>,
    },
}

pub(crate) mod update;

/// Applies what came back to the stack feature; returns the work it asks for next. The
/// stack's arrival decides what PR mode writes (a layer, or the whole range): it is settled
/// with the whole state.
pub(crate) fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = match msg {
        Msg::Loaded(result) => {
            drop(cx);
            return update::loaded(state, result);
        }
        Msg::LayerWritten { task, index, text } => {
            let shown = state.artifacts.get_mut(&ArtifactKind::Pr);
            update::layer_written((&mut state.stack, shown), &mut cx, task, index, &text)
        }
        Msg::Published { task, result } => {
            update::published(&mut state.stack, &mut cx, task, result)
        }
    };
    cx.asked().settle(state, effects)
}
pub(crate) mod draw;
pub mod state;
