//! The chat with Iris about the artifact: opening it, typing, scrolling, her replies and her edits.

use crate::action::ChatOutcome;
use crate::conversation;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::ChatFx;
use crate::layout::{PaneRects, inner_size};
use crate::state::Chat;
use crate::state::{ChatMessage, Level, Pane, Speaker, State, TaskKind, text_input};
use crate::update::cx::{Cx, Then};
use crate::update::{notice, task};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use iris_core::artifact::ArtifactKind;

/// Rows the mouse wheel moves a text.
pub(crate) const WHEEL: isize = 3;

/// Iris' reply arrived: it joins the conversation, or says why none came.
pub(crate) fn chat_replied(
    chat: &mut Chat,
    cx: &mut Cx,
    task: u64,
    result: Outcome<ChatOutcome>,
) -> Vec<Effect> {
    if cx.finish_task(task).is_none() {
        return Vec::new();
    }
    match result {
        Ok(outcome) => chat.messages.push(ChatMessage {
            speaker: Speaker::Iris,
            text: outcome.reply,
        }),
        Err(err) => cx.then(Then::Failed(err, None)),
    }
    Vec::new()
}

/// Iris replaced the artifact through her update tool.
pub(crate) fn updated_by_iris(
    cx: &mut Cx,
    task: u64,
    kind: ArtifactKind,
    text: String,
) -> Vec<Effect> {
    // Only the running task may edit (a cancelled one's late edit is dropped).
    if cx.iris().task.as_ref().is_some_and(|t| t.id == task) {
        cx.then(Then::Written { kind, text });
    }
    Vec::new()
}

pub(crate) fn open_chat(state: &mut State) -> Vec<Effect> {
    if let Some(why) = state.iris.unavailable.clone() {
        notice(state, Level::Warning, why);
    } else {
        state.chat.open = true;
        state.focus = Pane::ChatInput;
    }
    Vec::new()
}

/// Moves the conversation's window by `delta` rows (negative: back in time).
pub(crate) fn scroll_conversation(state: &mut State, rects: &PaneRects, delta: isize) {
    let (width, height) = inner_size(rects.chat_log);
    let rows = conversation::rows(&state.chat, state.streaming_reply(), width).len();
    conversation::scroll(&mut state.chat, rows, height, delta);
}

/// A key typed into the chat: enter sends, the page keys page through the conversation.
pub(crate) fn chat_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    if matches!(key.code, KeyCode::PageUp | KeyCode::PageDown) {
        // The input is a few lines: the page keys page through the conversation.
        let rects = state.layout();
        let page = inner_size(rects.chat_log).1.max(1) as isize;
        let delta = if key.code == KeyCode::PageUp {
            -page
        } else {
            page
        };
        scroll_conversation(state, &rects, delta);
        return Vec::new();
    }
    let send = key.code == KeyCode::Enter
        && !key
            .modifiers
            .intersects(KeyModifiers::SHIFT | KeyModifiers::ALT);
    if !send {
        state.chat.input.input(key);
        return Vec::new();
    }
    let message = state.chat.input.lines().join("\n").trim().to_string();
    let Some(kind) = state.mode.artifact().filter(|_| !message.is_empty()) else {
        return Vec::new();
    };
    let Some(task) = task::start(state, TaskKind::Chat) else {
        return Vec::new();
    };
    state.chat.input = text_input(Vec::new());
    // What is sent and its reply come into view.
    state.chat.top = None;
    let history = state.chat.messages.clone();
    state.chat.messages.push(ChatMessage {
        speaker: Speaker::User,
        text: message.clone(),
    });
    let artifact = state.artifact().map(|a| a.text()).unwrap_or_default();
    vec![Effect::Chat(ChatFx::Send {
        task,
        kind,
        history,
        message,
        artifact,
    })]
}
