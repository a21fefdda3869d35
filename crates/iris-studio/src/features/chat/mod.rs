//! The chat feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::action::ChatOutcome;
use crate::failure::Outcome;
use crate::state::ChatMessage;
use crate::update::cx::Cx;
use iris_studio_core::artifact::ArtifactKind;

/// What comes back to the chat feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A chat reply finished.
    Replied {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// Her reply, or why none came.
        result: Outcome<ChatOutcome>,
    },
    /// Iris replaced the artifact through her update tool (lands in the editor at once).
    Updated {
        /// The chat task in which she replaced it.
        task: u64,
        /// The artifact replaced.
        kind: ArtifactKind,
        /// Its new text.
        text: String,
    },
}

/// The work the chat feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// A chat turn about the artifact; Iris may replace it through her update tool.
    Send {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The artifact talked about.
        kind: ArtifactKind,
        /// The conversation before this message.
        history: Vec<ChatMessage>,
        /// What the user just wrote.
        message: String,
        /// The artifact's text as it stands in the editor.
        artifact: String,
    },
}

/// Applies what came back to the chat feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = match msg {
        Msg::Replied { task, result } => {
            update::chat_replied(&mut state.chat, &mut cx, task, result)
        }
        Msg::Updated { task, kind, text } => update::updated_by_iris(&mut cx, task, kind, text),
    };
    cx.asked().settle(state, effects)
}

pub mod conversation;
pub(crate) mod draw;
pub(crate) mod update;

/// Opens the chat with Iris about the artifact.
pub(crate) fn open_chat(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = update::open_chat(&mut state.chat, &mut state.focus, &mut cx);
    cx.asked().settle(state, effects)
}

/// The conversation's wrapped rows and the rows its pane shows.
fn shown(state: &crate::state::State) -> (usize, usize) {
    let height = crate::layout::inner_size(state.layout().chat_log).1;
    (state.rows.chat.len(), height)
}

/// Moves the conversation's window by `delta` rows (the wheel).
pub(crate) fn scroll_conversation(state: &mut crate::state::State, delta: isize) {
    let shown = shown(state);
    update::scroll_conversation(&mut state.chat, shown, delta);
}

/// A key typed into the chat.
pub(crate) fn chat_key(
    state: &mut crate::state::State,
    key: crossterm::event::KeyEvent,
) -> Vec<crate::effect::Effect> {
    let pane = (state.mode, shown(state));
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let parts = (&mut state.chat, &state.artifacts);
    let effects = update::chat_key(parts, &mut cx, pane, key);
    cx.asked().settle(state, effects)
}
