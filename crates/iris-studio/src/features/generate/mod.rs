//! The generate feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::Outcome;
use crate::update::cx::Cx;
use iris_studio_core::artifact::ArtifactKind;

/// What comes back to the generate feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A generation finished: the artifact's text, or why not.
    Written {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The artifact written.
        kind: ArtifactKind,
        /// Its new text, or why Iris could not write it.
        result: Outcome<String>,
    },
    /// Alternatives to the artifact were written: their texts, or why not.
    Alternatives {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The artifact they are alternatives to.
        kind: ArtifactKind,
        /// The texts to pick from, or why none came.
        result: Outcome<Vec<String>>,
    },
    /// The request Iris would send for an artifact, as the preview shows it (`$`).
    RequestShown(Outcome<String>),
}

/// The work the generate feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Builds the first request Iris would send for `kind` (over `range` for the range
    /// modes) and sends nothing: its preview comes back as [`crate::action::GenerateMsg::RequestShown`].
    ShowRequest {
        /// The artifact whose request is built.
        kind: ArtifactKind,
        /// (FROM, TO) for the range modes; `None`: the staged changes.
        range: Option<(String, String)>,
        /// For one layer of a stack: the stack and which layer, which the request carries.
        stack: Option<iris_studio_core::stack::InStack>,
    },
    /// Iris writes an artifact; `range` is (FROM, TO) for the range modes.
    Generate {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The artifact to write.
        kind: ArtifactKind,
        /// (FROM, TO) for the range modes; `None`: the staged changes.
        range: Option<(String, String)>,
        /// For one layer of a stack: the stack and which layer, which the request carries.
        stack: Option<iris_studio_core::stack::InStack>,
    },
    /// `count` alternatives to the artifact, written in parallel.
    Alternatives {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The artifact they are alternatives to.
        kind: ArtifactKind,
        /// How many to write.
        count: usize,
    },
}

pub(crate) mod alternatives;

/// Applies what came back to the generate feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let current = match &msg {
        Msg::Alternatives { kind, .. } => state.artifacts.get(kind).map(|a| a.text()),
        _ => None,
    };
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = match msg {
        Msg::Written { task, kind, result } => update::generated(&mut cx, task, kind, result),
        Msg::Alternatives { task, kind, result } => {
            let open = &mut state.overlay.alternatives;
            let current = current.unwrap_or_default();
            alternatives::written((open, &current), &mut cx, task, kind, result)
        }
        Msg::RequestShown(result) => update::request_shown(&mut cx, result),
    };
    cx.asked().settle(state, effects)
}

pub mod state;
pub(crate) mod update;

/// `a`: Iris starts on alternatives to the commit message.
pub(crate) fn ask_alternatives(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let (kind, staged) = (state.mode.artifact(), state.changes.has_staged);
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = alternatives::ask(&mut cx, kind, staged);
    cx.asked().settle(state, effects)
}

/// A key while the alternatives are shown: every key goes to them.
pub(crate) fn alternatives_key(
    state: &mut crate::state::State,
    key: crossterm::event::KeyEvent,
) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = alternatives::key(&mut state.overlay.alternatives, &mut cx, key);
    cx.asked().settle(state, effects)
}
pub(crate) mod draw;

/// Runs `work` with what generating reads and a context, then settles what it asked.
fn generating(
    state: &mut crate::state::State,
    work: impl FnOnce(update::Reads, &mut Cx) -> Vec<crate::effect::Effect>,
) -> Vec<crate::effect::Effect> {
    let layer = crate::features::stack::update::shown_layer(state);
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let reads = update::Reads {
        mode: state.mode,
        range: &state.range,
        has_staged: state.changes.has_staged,
        artifact: state
            .mode
            .artifact()
            .and_then(|kind| state.artifacts.get(&kind)),
        layer,
    };
    let effects = work(reads, &mut cx);
    cx.asked().settle(state, effects)
}

/// Iris writes the mode's artifact when it is empty and its input is not (on arriving).
pub(crate) fn auto_generate(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    generating(state, update::auto_generate)
}

/// `ctrl-g`: Iris writes the mode's artifact.
pub(crate) fn generate(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    generating(state, update::generate)
}

/// `$`: the request a generation would send, shown and not sent.
pub(crate) fn show_request(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    generating(state, update::show_request)
}
