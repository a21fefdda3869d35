//! The artifact: generating it, the chat, versions and drafts, and the review's findings.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::super::action::ChatOutcome;
use super::super::command::Command;
use super::super::conversation;
use super::super::effect::Effect;
use super::super::findings::shown_findings;
use super::super::layout::{PaneRects, inner_size};
use super::super::state::{ChatMessage, Level, Pane, Speaker, State, TaskKind, text_input};
use super::{diff, notice, step, task, written_for};
use crate::state::Draft;
use iris_core::artifact::ArtifactKind;

/// Rows the mouse wheel moves a text.
pub(super) const WHEEL: isize = 3;

/// Generates on entering a mode whose artifact is empty and whose input is not.
pub(super) fn auto_generate(state: &mut State) -> Vec<Effect> {
    let Some(kind) = state.mode.artifact() else {
        return Vec::new();
    };
    let input_ready = if kind.uses_range() {
        state.range.loaded_for == Some(state.mode) && !state.range.commits.is_empty()
    } else {
        state.changes.has_staged
    };
    let empty = state.artifact().is_some_and(|a| a.is_empty());
    if state.iris.auto_generate
        && input_ready
        && empty
        && state.iris.task.is_none()
        && state.iris.unavailable.is_none()
    {
        generate(state)
    } else {
        Vec::new()
    }
}

pub(super) fn generate(state: &mut State) -> Vec<Effect> {
    let Some((kind, range)) = what_to_write(state) else {
        return Vec::new();
    };
    let stack = super::stack::shown_layer(state);
    match task::start(state, TaskKind::Generate) {
        Some(task) => vec![Effect::Generate {
            task,
            kind,
            range,
            stack,
        }],
        None => Vec::new(),
    }
}

/// `$`: the request a generation would send, shown and not sent.
pub(super) fn show_request(state: &mut State) -> Vec<Effect> {
    let Some((kind, range)) = what_to_write(state) else {
        return Vec::new();
    };
    notice(
        state,
        Level::Info,
        "building the request Iris would send (nothing is sent)…",
    );
    let stack = super::stack::shown_layer(state);
    vec![Effect::ShowRequest { kind, range, stack }]
}

/// The mode's artifact and, for the range modes, its range; None (said) while the range is
/// not known.
fn what_to_write(state: &mut State) -> Option<(ArtifactKind, Option<(String, String)>)> {
    let kind = state.mode.artifact()?;
    if !kind.uses_range() {
        return Some((kind, None));
    }
    match &state.range.resolved_from {
        Some(from) => Some((
            kind,
            Some((from.clone(), state.range.to_or_head().to_string())),
        )),
        None => {
            notice(
                state,
                Level::Warning,
                "the range is not known yet: R picks FROM..TO",
            );
            None
        }
    }
}

pub(super) fn generated(
    state: &mut State,
    task: u64,
    kind: ArtifactKind,
    result: Result<String, String>,
) -> Vec<Effect> {
    let Some(finished) = task::finish(state, task) else {
        return Vec::new();
    };
    match result {
        Ok(text) => {
            replace(state, kind, &text);
            wrote(state, kind, &text);
            let what = format!("Iris wrote the {}", kind.noun());
            task::done_notice(state, &finished, what);
            save_draft(state, kind)
        }
        Err(err) => {
            notice(state, Level::Error, err);
            Vec::new()
        }
    }
}

pub(super) fn chat_replied(
    state: &mut State,
    task: u64,
    result: Result<ChatOutcome, String>,
) -> Vec<Effect> {
    if task::finish(state, task).is_none() {
        return Vec::new();
    }
    match result {
        Ok(outcome) => state.chat.messages.push(ChatMessage {
            speaker: Speaker::Iris,
            text: outcome.reply,
        }),
        Err(err) => notice(state, Level::Error, err),
    }
    Vec::new()
}

/// Iris replaced the artifact through her update tool.
pub(super) fn updated_by_iris(
    state: &mut State,
    task: u64,
    kind: ArtifactKind,
    text: &str,
) -> Vec<Effect> {
    // Only the running task may edit (a cancelled one's late edit is dropped).
    if state.iris.task.as_ref().is_none_or(|t| t.id != task) {
        return Vec::new();
    }
    replace(state, kind, text);
    wrote(state, kind, text);
    save_draft(state, kind)
}

/// Remembers that Iris wrote `text` for `kind`.
fn wrote(state: &mut State, kind: ArtifactKind, text: &str) {
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.by_iris = Some(text.to_string());
    }
    written_for::note(state, kind);
}

pub(super) fn replace(state: &mut State, kind: ArtifactKind, text: &str) {
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.replace(text);
    }
}

/// Empties an artifact (after its commit) and drops its draft.
pub(super) fn clear(state: &mut State, kind: ArtifactKind) -> Vec<Effect> {
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.replace("");
        buffer.saved.clear();
        buffer.by_iris = None;
        buffer.written_for = None;
    }
    vec![Effect::ClearDraft { kind }]
}

/// Saves the artifact as a draft, with its versions, when its text changed (the PR over a
/// stack: with every layer's).
pub(super) fn save_draft(state: &mut State, kind: ArtifactKind) -> Vec<Effect> {
    if kind == ArtifactKind::Pr && state.stack.is_some() {
        return super::stack::save_drafts(state);
    }
    // A text the user began is for what is in front of them.
    if state
        .artifacts
        .get(&kind)
        .is_some_and(|b| b.written_for.is_none() && !b.is_empty())
    {
        written_for::note(state, kind);
    }
    match state.artifacts.get_mut(&kind) {
        Some(buffer) if buffer.text() != buffer.saved => {
            buffer.saved = buffer.text();
            vec![Effect::SaveDraft {
                kind,
                draft: buffer.draft(),
            }]
        }
        _ => Vec::new(),
    }
}

pub(super) fn drafts_loaded(state: &mut State, drafts: Vec<(ArtifactKind, Draft)>) -> Vec<Effect> {
    let mut restored = Vec::new();
    for (kind, draft) in drafts {
        if let Some(buffer) = state.artifacts.get_mut(&kind).filter(|b| b.is_empty()) {
            if draft.layer.is_some() {
                // A stack's: each layer's text goes to its layer once the stack is read.
                state.layer_drafts = Some(draft.clone());
            }
            buffer.restore(draft);
            restored.push(kind.title());
        }
    }
    if !restored.is_empty() {
        let text = format!("restored drafts: {}", restored.join(", "));
        notice(state, Level::Info, text);
    }
    Vec::new()
}

/// git's prepared message for the operation in progress goes into an empty commit editor
/// (a draft of the user's wins), so the studio starts where `git commit` would.
pub(super) fn git_prepared(state: &mut State, operation: &str, message: String) -> Vec<Effect> {
    let Some(buffer) = state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .filter(|b| b.is_empty())
    else {
        return Vec::new();
    };
    buffer.restore(Draft {
        text: message,
        ..Draft::default()
    });
    let text = format!(
        "a {operation} is in progress: git's message is in the editor; Iris' tells the \
         resolution"
    );
    notice(state, Level::Info, text);
    Vec::new()
}

/// A key typed into the editor.
pub(super) fn type_in_editor(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(kind) = state.mode.artifact() else {
        return Vec::new();
    };
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.input(key);
    }
    // Drafts are saved as they change, so a crash or a kill loses nothing.
    save_draft(state, kind)
}

pub(super) fn step_versions(state: &mut State, command: Command) -> Vec<Effect> {
    let Some(kind) = state.mode.artifact() else {
        return Vec::new();
    };
    let moved = state.artifacts.get_mut(&kind).is_some_and(|a| {
        if command == Command::UndoVersion {
            a.undo()
        } else {
            a.redo()
        }
    });
    if moved {
        save_draft(state, kind)
    } else {
        Vec::new()
    }
}

pub(super) fn open_chat(state: &mut State) -> Vec<Effect> {
    if let Some(why) = state.iris.unavailable.clone() {
        notice(state, Level::Warning, why);
    } else {
        state.chat.open = true;
        state.focus = Pane::ChatInput;
    }
    Vec::new()
}

/// Moves the conversation's window by `delta` rows (negative: back in time).
pub(super) fn scroll_conversation(state: &mut State, rects: &PaneRects, delta: isize) {
    let (width, height) = inner_size(rects.chat_log);
    let rows = conversation::rows(&state.chat, state.streaming_reply(), width).len();
    conversation::scroll(&mut state.chat, rows, height, delta);
}

/// A key typed into the chat: enter sends, the page keys page through the conversation.
pub(super) fn chat_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    if matches!(key.code, KeyCode::PageUp | KeyCode::PageDown) {
        // The input is a few lines: the page keys page through the conversation.
        let rects = PaneRects::compute(state.screen.size, state);
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
    vec![Effect::Chat {
        task,
        kind,
        history,
        message,
        artifact,
    }]
}

/// `f`: the findings the reviewer is less sure of are shown in the list, or folded again.
pub(super) fn toggle_unsure(state: &mut State) -> Vec<Effect> {
    let (rows, _) = shown_findings(state);
    let selected = rows.get(state.findings.selected).cloned();
    state.findings.show_unsure = !state.findings.show_unsure;
    let min = state.findings.min_confidence;
    let said = if state.findings.show_unsure {
        format!("showing the findings under {min}% confidence too (f folds them)")
    } else {
        format!("folded the findings under {min}% confidence (f shows them)")
    };
    // The same finding stays selected when it is still listed.
    let (rows, _) = shown_findings(state);
    state.findings.selected = selected
        .and_then(|kept| rows.iter().position(|r| *r == kept))
        .unwrap_or(state.findings.selected)
        .min(rows.len().saturating_sub(1));
    notice(state, Level::Info, said);
    Vec::new()
}

pub(super) fn move_in_findings(state: &mut State, command: Command) -> Vec<Effect> {
    let count = shown_findings(state).0.len();
    state.findings.selected = step(state.findings.selected, count.saturating_sub(1), command);
    Vec::new()
}

/// Shows the selected finding: its file in the list and the diff at its line.
pub(super) fn jump_to_finding(state: &mut State) -> Vec<Effect> {
    let (rows, _) = shown_findings(state);
    let Some(finding) = rows.get(state.findings.selected) else {
        return Vec::new();
    };
    let Some(index) = state
        .changes
        .files
        .iter()
        .position(|f| f.path == finding.file)
    else {
        let text = format!("{} is not among the changed files", finding.file);
        notice(state, Level::Info, text);
        return Vec::new();
    };
    let (file, line) = (finding.file.clone(), finding.line.unwrap_or(1));
    state.focus = Pane::Diff;
    if state.changes.selected == index && !state.diff.loading {
        state.diff.scroll = state.diff.row_of_new_line(&file, line).unwrap_or(0);
        return Vec::new();
    }
    state.changes.selected = index;
    state.findings.pending_jump = Some((file, line));
    diff::load_selected_diff(state)
}
