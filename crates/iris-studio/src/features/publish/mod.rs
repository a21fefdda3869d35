//! The publish feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::{Done, Outcome};
use crate::update::cx::{Cx, Then};
use iris_studio_core::artifact::ArtifactKind;

/// What comes back to the publish feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// Text went to the clipboard (what the notice says), or why not.
    Copied(Outcome<Done>),
    /// The artifact was published (the tool's summary and the link), or why not.
    Published(Outcome<Done>),
}

/// The work the publish feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Puts `text` on the clipboard through the terminal (OSC 52); the loop writes it, as it
    /// owns the terminal. `what` names it for the notice.
    Copy {
        /// The text copied.
        text: String,
        /// What it is, for the notice (`commit message`, `src/lib.rs:3-9`).
        what: String,
    },
    /// The PR description published as the branch's pull/merge request (`base` its target,
    /// None: the tool's choice), or the review posted as a comment on it.
    Publish {
        /// The artifact published: the PR description or the review.
        kind: ArtifactKind,
        /// Its text as it is now (a review without the findings folded away).
        text: String,
        /// The branch the pull request goes into (the range's start).
        base: Option<String>,
        /// The range's end when one was picked: in a jj workspace, the change whose bookmark
        /// the pull request comes from (git's comes from the branch checked out).
        to: Option<String>,
    },
}

/// Applies what came back to the publish feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    match msg {
        Msg::Copied(result) | Msg::Published(result) => match result {
            Ok(done) => cx.say(crate::state::Level::Success, done.0),
            Err(err) => cx.then(Then::Failed(err, None)),
        },
    }
    cx.asked().settle(state, Vec::new())
}

pub(crate) mod update;

/// `y`: copies the artifact or the selected lines.
pub(crate) fn copy(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let reads = (state.mode, &state.artifacts, &state.range);
    let effects = update::copy(reads, &state.explore, &mut cx);
    cx.asked().settle(state, effects)
}

/// `P`: asks before publishing.
pub(crate) fn ask_publish(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let reads = (state.mode, &state.artifacts, &state.range);
    let question = (&state.stack, &mut state.overlay.confirm);
    let effects = update::ask_publish(reads, question, &mut cx);
    cx.asked().settle(state, effects)
}

/// `y` to the question: the artifact published.
pub(crate) fn publish(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let reads = (state.mode, &state.artifacts, &state.range);
    let effects = update::publish(reads, &state.findings, &mut cx);
    cx.asked().settle(state, effects)
}
