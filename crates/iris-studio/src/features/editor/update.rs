//! The artifact: generating it, the chat, versions and drafts, and the review's findings.

use crate::features::msgs::EditorFx;
use crossterm::event::KeyEvent;

use crate::command::Command;
use crate::effect::Effect;
use crate::state::Draft;
use crate::state::{ArtifactBuffer, Artifacts};
use crate::state::{Level, State};
use crate::update::cx::{Cx, Then};
use crate::update::written_for;
use iris_studio_core::artifact::ArtifactKind;

/// Remembers that Iris wrote `text` for `kind`.
pub(crate) fn wrote(state: &mut State, kind: ArtifactKind, text: &str) {
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.by_iris = Some(text.to_string());
    }
    written_for::note(state, kind);
}

pub(crate) fn replace(state: &mut State, kind: ArtifactKind, text: &str) {
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.replace(text);
    }
}

/// Empties an artifact (after its commit) and drops its draft.
pub(crate) fn clear(state: &mut State, kind: ArtifactKind) -> Vec<Effect> {
    if let Some(buffer) = state.artifacts.get_mut(&kind) {
        buffer.replace("");
        buffer.saved.clear();
        buffer.by_iris = None;
        buffer.written_for = None;
    }
    vec![Effect::Editor(EditorFx::ClearDraft { kind })]
}

/// Saves the artifact as a draft, with its versions, when its text changed (the PR over a
/// stack: with every layer's).
pub(crate) fn save_draft(state: &mut State, kind: ArtifactKind) -> Vec<Effect> {
    if kind == ArtifactKind::Pr && state.stack.is_some() {
        return crate::update::stack::save_drafts(state);
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
            vec![Effect::Editor(EditorFx::SaveDraft {
                kind,
                draft: buffer.draft(),
            })]
        }
        _ => Vec::new(),
    }
}

pub(crate) fn drafts_loaded(
    (artifacts, layer_drafts): (&mut Artifacts, &mut Option<Draft>),
    cx: &mut Cx,
    drafts: Vec<(ArtifactKind, Draft)>,
) -> Vec<Effect> {
    let mut restored = Vec::new();
    for (kind, draft) in drafts {
        if let Some(buffer) = artifacts.get_mut(&kind).filter(|b| b.is_empty()) {
            if draft.layer.is_some() {
                // A stack's: each layer's text goes to its layer once the stack is read.
                *layer_drafts = Some(draft.clone());
            }
            buffer.restore(draft);
            restored.push(kind.title());
        }
    }
    if !restored.is_empty() {
        cx.say(
            Level::Info,
            format!("restored drafts: {}", restored.join(", ")),
        );
    }
    Vec::new()
}

/// git's prepared message for the operation in progress goes into an empty commit editor
/// (a draft of the user's wins), so the studio starts where `git commit` would.
pub(crate) fn git_prepared(
    commit: Option<&mut ArtifactBuffer>,
    cx: &mut Cx,
    operation: &str,
    message: String,
) -> Vec<Effect> {
    let Some(buffer) = commit.filter(|b| b.is_empty()) else {
        return Vec::new();
    };
    buffer.restore(Draft {
        text: message,
        ..Draft::default()
    });
    cx.say(
        Level::Info,
        format!(
            "a {operation} is in progress: git's message is in the editor; Iris' tells the \
             resolution"
        ),
    );
    Vec::new()
}

/// A key typed into the mode's editor (`kind`'s).
pub(crate) fn type_in_editor(
    buffer: Option<&mut ArtifactBuffer>,
    cx: &mut Cx,
    kind: ArtifactKind,
    key: KeyEvent,
) -> Vec<Effect> {
    if let Some(buffer) = buffer {
        buffer.input(key);
    }
    // Drafts are saved as they change, so a crash or a kill loses nothing.
    cx.then(Then::SaveDraft(kind));
    Vec::new()
}

/// Undo and redo step through the versions of the mode's artifact (`kind`'s).
pub(crate) fn step_versions(
    buffer: Option<&mut ArtifactBuffer>,
    cx: &mut Cx,
    kind: ArtifactKind,
    command: Command,
) -> Vec<Effect> {
    let moved = buffer.is_some_and(|a| {
        if command == Command::UndoVersion {
            a.undo()
        } else {
            a.redo()
        }
    });
    if moved {
        cx.then(Then::SaveDraft(kind));
    }
    Vec::new()
}
