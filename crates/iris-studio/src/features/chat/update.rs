//! The chat with Iris about the artifact: opening it, typing, scrolling, her replies and her edits.

use crate::action::ChatOutcome;
use crate::conversation;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::ChatFx;
use crate::state::{Artifacts, Chat, Mode};
use crate::state::{ChatMessage, Level, Pane, Speaker, TaskKind, text_input};
use crate::update::cx::{Cx, Then};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use iris_studio_core::artifact::ArtifactKind;

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

/// Opens the chat, its input focused (said why not when Iris cannot work).
pub(crate) fn open_chat(chat: &mut Chat, focus: &mut Pane, cx: &mut Cx) -> Vec<Effect> {
    if let Some(why) = cx.iris().unavailable.clone() {
        cx.say(Level::Warning, why);
    } else {
        chat.open = true;
        *focus = Pane::ChatInput;
    }
    Vec::new()
}

/// Moves the conversation's window by `delta` rows (negative: back in time): `rows` wrapped
/// rows, `height` of them shown.
pub(crate) fn scroll_conversation(chat: &mut Chat, (rows, height): (usize, usize), delta: isize) {
    conversation::scroll(chat, rows, height, delta);
}

/// A key typed into the chat: enter sends (with the mode's artifact as it stands), the page
/// keys page through the conversation (`shown`: its wrapped rows and the rows on screen).
pub(crate) fn chat_key(
    (chat, artifacts): (&mut Chat, &Artifacts),
    cx: &mut Cx,
    (mode, shown): (Mode, (usize, usize)),
    key: KeyEvent,
) -> Vec<Effect> {
    if matches!(key.code, KeyCode::PageUp | KeyCode::PageDown) {
        // The input is a few lines: the page keys page through the conversation.
        let page = shown.1.max(1) as isize;
        let delta = if key.code == KeyCode::PageUp {
            -page
        } else {
            page
        };
        scroll_conversation(chat, shown, delta);
        return Vec::new();
    }
    let send = key.code == KeyCode::Enter
        && !key
            .modifiers
            .intersects(KeyModifiers::SHIFT | KeyModifiers::ALT);
    if !send {
        chat.input.input(key);
        return Vec::new();
    }
    let message = chat.input.lines().join("\n").trim().to_string();
    let Some(kind) = mode.artifact().filter(|_| !message.is_empty()) else {
        return Vec::new();
    };
    let Some(task) = cx.start_task(TaskKind::Chat) else {
        return Vec::new();
    };
    chat.input = text_input(Vec::new());
    // What is sent and its reply come into view.
    chat.top = None;
    let history = chat.messages.clone();
    chat.messages.push(ChatMessage {
        speaker: Speaker::User,
        text: message.clone(),
    });
    let artifact = artifacts.get(&kind).map(|a| a.text()).unwrap_or_default();
    vec![Effect::Chat(ChatFx::Send {
        task,
        kind,
        history,
        message,
        artifact,
    })]
}
