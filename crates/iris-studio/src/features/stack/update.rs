//! PR mode over a stack of branches: the stack read once, `[` and `]` move between its
//! layers (each its own commits, diff and description), `P` publishes them all.

use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::{EditorFx, StackFx};
use crate::state::TaskKind;
use crate::state::{ArtifactBuffer, Level, Mode, Report, StackView, State};
use crate::update::cx::{Cx, Then};
use crate::update::{notice, range, task};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::stack::{InStack, Stack};

/// The stack came: with more than one layer, PR mode shows the checked-out branch's layer;
/// else the whole range is written as one PR, as before.
pub(crate) fn loaded(state: &mut State, result: Outcome<Option<Stack>>) -> Vec<Effect> {
    let stack = match result {
        Ok(Some(stack)) if stack.layers.len() > 1 => stack,
        Ok(_) => return crate::update::written_for::arrive(state, true),
        Err(err) => {
            notice(
                state,
                Level::Warning,
                format!(
                    "the stack of branches could not be read ({err}): the PR covers the whole range"
                ),
            );
            return crate::update::written_for::arrive(state, true);
        }
    };
    let count = stack.layers.len();
    let notes = stack.notes.join("; ");
    state.stack = Some(StackView::new(stack));
    restore_layers(state);
    if state.mode != Mode::PR {
        // Shown when PR mode is entered again; the other range modes keep their range.
        return Vec::new();
    }
    let said = if notes.is_empty() {
        format!("this branch is one layer of a stack of {count}: [ and ] move between them")
    } else {
        format!("a stack of {count} ([ and ] move between them); {notes}")
    };
    notice(state, Level::Info, said);
    show_layer(state)
}

/// A restored PR draft of a stack: its text to the layer it was written for, the other
/// layers' to theirs (a layer no longer in the stack keeps nothing).
fn restore_layers(state: &mut State) {
    let (Some(draft), Some(view)) = (state.layer_drafts.take(), state.stack.as_mut()) else {
        return;
    };
    let Some(shown) = state.artifacts.get_mut(&ArtifactKind::Pr) else {
        return;
    };
    let current = view.layer().map(|l| l.branch.clone()).unwrap_or_default();
    // The restored text, when it is another layer's, moves there.
    if let Some(index) = draft.layer.as_deref().and_then(|b| view.stack.position(b))
        && draft.layer.as_deref() != Some(current.as_str())
    {
        std::mem::swap(shown, &mut view.buffers[index]);
    }
    for (branch, layer_draft) in draft.layers {
        let Some(index) = view.stack.position(&branch) else {
            continue;
        };
        let buffer = if index == view.selected {
            &mut *shown
        } else {
            &mut view.buffers[index]
        };
        if buffer.is_empty() {
            buffer.restore(layer_draft);
        }
    }
}

/// The PR draft of a stack: the shown layer's text and every other layer's, saved when any
/// of them changed.
pub(crate) fn save_drafts(state: &mut State) -> Vec<Effect> {
    let (Some(view), Some(shown)) = (
        state.stack.as_mut(),
        state.artifacts.get_mut(&ArtifactKind::Pr),
    ) else {
        return Vec::new();
    };
    let changed = |b: &crate::state::ArtifactBuffer| b.text() != b.saved;
    if !changed(shown) && !view.buffers.iter().any(changed) {
        return Vec::new();
    }
    let mut draft = shown.draft();
    shown.saved = shown.text();
    draft.layer = view.layer().map(|l| l.branch.clone());
    for (i, buffer) in view.buffers.iter_mut().enumerate() {
        if i != view.selected && !buffer.is_empty() {
            buffer.saved = buffer.text();
            draft
                .layers
                .insert(view.stack.layers[i].branch.clone(), buffer.draft());
        }
    }
    vec![Effect::Editor(EditorFx::SaveDraft {
        kind: ArtifactKind::Pr,
        draft,
    })]
}

/// Loads the shown layer's commits (its PR's range); its description follows when they come.
pub(crate) fn show_layer(state: &mut State) -> Vec<Effect> {
    let Some(layer) = state.stack.as_ref().and_then(StackView::layer) else {
        return Vec::new();
    };
    state.range.from = Some(layer.parent.clone());
    state.range.to = Some(layer.branch.clone());
    state.range.loaded_for = None;
    range::load_commits(state)
}

/// `[` or `]`: the layer below or above.
pub(crate) fn step(state: &mut State, command: Command) -> Vec<Effect> {
    let Some(view) = state.stack.as_ref() else {
        notice(
            state,
            Level::Info,
            "this branch is in no stack of branches: [ and ] move between a stack's layers",
        );
        return Vec::new();
    };
    let last = view.stack.layers.len().saturating_sub(1);
    let next = match command {
        Command::PrevLayer => view.selected.saturating_sub(1),
        _ => (view.selected + 1).min(last),
    };
    if next == view.selected {
        let end = if command == Command::PrevLayer {
            "bottom"
        } else {
            "top"
        };
        notice(
            state,
            Level::Info,
            format!("this is the stack's {end} layer"),
        );
        return Vec::new();
    }
    select(state, next)
}

/// A click on row `row` of the stack's box (inside its borders).
pub(crate) fn click(state: &mut State, row: usize, rows: usize) -> Vec<Effect> {
    let Some(view) = state.stack.as_ref() else {
        return Vec::new();
    };
    // The box scrolls as the list draws it: the shown layer kept in view.
    let top = crate::layout::keep_in_view(0, view.selected, rows);
    select(state, top + row)
}

/// Shows layer `next`: its description swapped into the editor (the one left keeps its text
/// and versions), its commits loaded.
pub(crate) fn select(state: &mut State, next: usize) -> Vec<Effect> {
    let Some(view) = state.stack.as_ref() else {
        return Vec::new();
    };
    if state.iris.task.as_ref().is_some_and(|t| t.mode == Mode::PR) {
        // (While a task runs the status line shows its spinner, not notices: this shows
        // once Iris stops.)
        notice(
            state,
            Level::Warning,
            "Iris is still writing this layer's description: wait for her, or esc first",
        );
        return Vec::new();
    }
    if next >= view.stack.layers.len() || next == view.selected {
        return Vec::new();
    }
    let old = view.selected;
    let (Some(view), Some(shown)) = (
        state.stack.as_mut(),
        state.artifacts.get_mut(&ArtifactKind::Pr),
    ) else {
        return Vec::new();
    };
    std::mem::swap(shown, &mut view.buffers[old]);
    std::mem::swap(shown, &mut view.buffers[next]);
    view.selected = next;
    show_layer(state)
}

/// The shown layer of the stack, when PR mode shows a layer's range: what a request for it
/// carries.
pub(crate) fn shown_layer(state: &State) -> Option<InStack> {
    let view = state.stack.as_ref()?;
    let shows = state.mode == Mode::PR
        && view.shows(state.range.from.as_deref(), state.range.to.as_deref());
    shows.then(|| InStack {
        stack: view.stack.clone(),
        index: view.selected,
    })
}

/// Publishing the stack was confirmed: every layer's description as it is now; Iris first
/// writes those that have none (a task Esc cancels).
pub(crate) fn publish(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.stack.as_ref() else {
        return Vec::new();
    };
    let shown = state
        .artifacts
        .get(&ArtifactKind::Pr)
        .map(|a| a.text())
        .unwrap_or_default();
    let texts = view
        .buffers
        .iter()
        .enumerate()
        .map(|(i, buffer)| {
            if i == view.selected {
                shown.clone()
            } else {
                buffer.text()
            }
        })
        .collect::<Vec<String>>();
    let stack = view.stack.clone();
    let missing = texts.iter().filter(|t| t.trim().is_empty()).count();
    // Iris writes the layers without text whose PR/MR was not written for their change: a
    // task, which Esc cancels. Without her, what has text is published.
    let task = if state.iris.unavailable.is_some() {
        None
    } else {
        let Some(task) = task::start(state, TaskKind::PublishStack) else {
            return Vec::new();
        };
        Some(task)
    };
    if let Some(view) = state.stack.as_mut() {
        view.publishing = true;
    }
    let said = match (missing, task) {
        (0, _) | (_, None) => "publishing the stack…".to_string(),
        (1, Some(_)) => {
            "publishing the stack; Iris writes the layer without a description if its pull \
             request needs one…"
                .to_string()
        }
        (n, Some(_)) => format!(
            "publishing the stack; Iris writes the {n} layers without a description where their \
             pull requests need one…"
        ),
    };
    notice(state, Level::Info, said);
    vec![Effect::Stack(StackFx::Publish { task, stack, texts })]
}

/// A layer Iris wrote on the way to publishing: its description, as a version of its own
/// (the layer shown is the PR editor's `shown`).
pub(crate) fn layer_written(
    (stack, shown): (&mut Option<StackView>, Option<&mut ArtifactBuffer>),
    cx: &mut Cx,
    task: u64,
    index: usize,
    text: &str,
) -> Vec<Effect> {
    let current = cx.iris().task.as_ref().is_some_and(|t| t.id == task);
    let Some(view) = stack.as_mut().filter(|_| current) else {
        return Vec::new();
    };
    let buffer = if index == view.selected {
        shown
    } else {
        view.buffers.get_mut(index)
    };
    if let Some(buffer) = buffer {
        buffer.replace(text);
        buffer.by_iris = Some(text.to_string());
    }
    Vec::new()
}

/// What publishing did to each layer, shown over the panes.
pub(crate) fn published(
    stack: &mut Option<StackView>,
    cx: &mut Cx,
    task: Option<u64>,
    result: Outcome<Vec<String>>,
) -> Vec<Effect> {
    if let Some(view) = stack.as_mut() {
        view.publishing = false;
    }
    // A cancelled publishing's end is dropped (what it published is on the forge).
    if let Some(task) = task
        && cx.finish_task(task).is_none()
    {
        return Vec::new();
    }
    match result {
        Ok(lines) => {
            cx.then(Then::Report(Report::plain(lines.join("\n"))));
            cx.say(
                Level::Success,
                "the stack is published: esc closes the report",
            );
        }
        Err(err) => cx.then(Then::Failed(err, None)),
    }
    Vec::new()
}
