//! Generating the mode's artifact: on arriving, on a key, the request shown unsent, and what Iris wrote.

use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::GenerateFx;
use crate::state::{Level, State, TaskKind};
use crate::update::{editor, notice, task};
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

pub(crate) fn generated(
    state: &mut State,
    task: u64,
    kind: ArtifactKind,
    result: Outcome<String>,
) -> Vec<Effect> {
    let Some(finished) = task::finish(state, task) else {
        return Vec::new();
    };
    match result {
        Ok(text) => {
            editor::replace(state, kind, &text);
            editor::wrote(state, kind, &text);
            let what = format!("Iris wrote the {}", kind.noun());
            task::done_notice(state, &finished, what);
            editor::save_draft(state, kind)
        }
        Err(err) => crate::update::failed::failed(state, err, None),
    }
}
