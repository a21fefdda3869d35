//! The chat with Iris about the artifact: opening it, typing, scrolling, her replies and her edits.

use crate::action::ChatOutcome;
use crate::conversation;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::ChatFx;
use crate::layout::{PaneRects, inner_size};
use crate::state::{ChatMessage, Level, Pane, Speaker, State, TaskKind, text_input};
use crate::update::{editor, notice, task};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use iris_core::artifact::ArtifactKind;

/// Rows the mouse wheel moves a text.
pub(crate) const WHEEL: isize = 3;

pub(crate) fn chat_replied(
    state: &mut State,
    task: u64,
    result: Outcome<ChatOutcome>,
) -> Vec<Effect> {
    if task::finish(state, task).is_none() {
        return Vec::new();
    }
    match result {
        Ok(outcome) => {
            state.chat.messages.push(ChatMessage {
                speaker: Speaker::Iris,
                text: outcome.reply,
            });
            Vec::new()
        }
        Err(err) => crate::update::failed::failed(state, err, None),
    }
}

/// Iris replaced the artifact through her update tool.
pub(crate) fn updated_by_iris(
    state: &mut State,
    task: u64,
    kind: ArtifactKind,
    text: &str,
) -> Vec<Effect> {
    // Only the running task may edit (a cancelled one's late edit is dropped).
    if state.iris.task.as_ref().is_none_or(|t| t.id != task) {
        return Vec::new();
    }
    editor::replace(state, kind, text);
    editor::wrote(state, kind, text);
    editor::save_draft(state, kind)
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
