//! The reword feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::effect::Effect;
use crate::failure::{Done, Outcome};
use crate::state::State;
use crate::update::cx::Cx;

/// What comes back to the reword feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// Iris wrote a commit's message anew (`r`), or why not.
    Written {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The commit's old and new message, or why there is none.
        result: Outcome<crate::state::Rewording>,
    },
    /// The commit was reworded (what to say), or why not.
    Done(Outcome<Done>),
}

/// The work the reword feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Has Iris write commit `commit`'s message anew from its own change (replayed over its
    /// parent).
    Write {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The commit's full id.
        commit: String,
    },
    /// Gives commit `commit` the message `message`, nothing else changed (`iris reword`).
    Apply {
        /// The commit's full id.
        commit: String,
        /// Its new message.
        message: String,
    },
}

pub(crate) mod update;

/// Applies what came back to the reword feature; returns the work it asks for next.
pub(crate) fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let parts = (&mut state.range, &mut state.overlay.confirm);
    let effects = match msg {
        Msg::Written { task, result } => update::written(parts, &mut cx, task, result),
        Msg::Done(result) => update::done(&mut cx, result),
    };
    cx.asked().settle(state, effects)
}

/// `r`: Iris writes the selected commit's message anew.
pub(crate) fn ask(state: &mut State) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = update::ask(&state.range, &mut cx);
    cx.asked().settle(state, effects)
}

/// `y` to the question: the commit gets its new message.
pub(crate) fn confirmed(state: &mut State) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = update::confirmed(&mut state.range, &mut cx);
    cx.asked().settle(state, effects)
}
