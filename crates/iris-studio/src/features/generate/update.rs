//! Generating the mode's artifact: on arriving, on a key, the request shown unsent, and what Iris wrote.

use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::GenerateFx;
use crate::state::Report;
use crate::state::{Level, State, TaskKind};
use crate::update::cx::{Cx, Then};
use crate::update::{notice, task};
use iris_core::artifact::ArtifactKind;

/// Generates on entering a mode whose artifact is empty and whose input is not.
pub(crate) fn auto_generate(state: &mut State) -> Vec<Effect> {
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

pub(crate) fn generate(state: &mut State) -> Vec<Effect> {
    let Some((kind, range)) = what_to_write(state) else {
        return Vec::new();
    };
    let stack = crate::update::stack::shown_layer(state);
    match task::start(state, TaskKind::Generate) {
        Some(task) => vec![Effect::Generate(GenerateFx::Generate {
            task,
            kind,
            range,
            stack,
        })],
        None => Vec::new(),
    }
}

/// `$`: the request a generation would send, shown and not sent.
pub(crate) fn show_request(state: &mut State) -> Vec<Effect> {
    let Some((kind, range)) = what_to_write(state) else {
        return Vec::new();
    };
    notice(
        state,
        Level::Info,
        "building the request Iris would send (nothing is sent)…",
    );
    let stack = crate::update::stack::shown_layer(state);
    vec![Effect::Generate(GenerateFx::ShowRequest {
        kind,
        range,
        stack,
    })]
}

/// The mode's artifact and, for the range modes, its range; None (said) while the range is
/// not known.
pub(crate) fn what_to_write(state: &mut State) -> Option<(ArtifactKind, Option<(String, String)>)> {
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

/// What Iris wrote arrived: the artifact's newest version (undo steps back), or why none.
pub(crate) fn generated(
    cx: &mut Cx,
    task: u64,
    kind: ArtifactKind,
    result: Outcome<String>,
) -> Vec<Effect> {
    let Some(finished) = cx.finish_task(task) else {
        return Vec::new();
    };
    match result {
        Ok(text) => {
            cx.task_done(&finished, format!("Iris wrote the {}", kind.noun()));
            cx.then(Then::Written { kind, text });
        }
        Err(err) => cx.then(Then::Failed(err, None)),
    }
    Vec::new()
}

/// The request a generation would send, shown over the panes and not sent, or why none.
pub(crate) fn request_shown(cx: &mut Cx, result: Outcome<String>) -> Vec<Effect> {
    match result {
        Ok(preview) => {
            cx.then(Then::Report(Report::plain(preview)));
            cx.say(Level::Info, "nothing was sent: esc closes the preview");
        }
        Err(err) => cx.then(Then::Failed(err, None)),
    }
    Vec::new()
}
