//! Publishing and copying: the PR opened or updated, the review posted (after asking), the artifact or the selected lines copied.

use crate::effect::Effect;
use crate::features::msgs::PublishFx;
use crate::state::{Level, Mode, State};
use crate::update::notice;
use iris_core::artifact::ArtifactKind;

/// `y`: the artifact (explore: the selected lines) to the clipboard.
pub(crate) fn copy(state: &mut State) -> Vec<Effect> {
    let (text, what) = match state.mode {
        Mode::Artifact(kind) => (
            state.artifact().map(|a| a.text()).unwrap_or_default(),
            kind.title().to_lowercase(),
        ),
        Mode::Explore => {
            let explorer = &state.explore;
            match (explorer.selection(), &explorer.lines, &explorer.open) {
                (Some((start, end)), Some(lines), Some(path)) => (
                    lines[start..=end].join("\n"),
                    format!("{path}:{}-{}", start + 1, end + 1),
                ),
                _ => (String::new(), String::new()),
            }
        }
    };
    if text.trim().is_empty() {
        notice(state, Level::Info, "nothing to copy yet");
        return Vec::new();
    }
    vec![Effect::Publish(PublishFx::Copy { text, what })]
}

/// `P`: asks before the PR is opened or updated, or the review posted.
pub(crate) fn ask_publish(state: &mut State) -> Vec<Effect> {
    if state
        .iris
        .task
        .as_ref()
        .is_some_and(|t| t.mode == state.mode)
    {
        notice(
            state,
            Level::Info,
            "Iris is still writing: wait for her, or esc first",
        );
    } else if let Some(view) = state.stack.as_ref().filter(|view| {
        state.mode == crate::state::Mode::PR
            && view.shows(state.range.from.as_deref(), state.range.to.as_deref())
    }) {
        // A stack's layer is shown (not a range picked with R): the whole stack goes.
        if view.publishing {
            notice(
                state,
                Level::Info,
                "the stack is being published: wait for it",
            );
        } else {
            state.overlay.confirm = Some(crate::state::Confirm::PublishStack);
        }
    } else if state.artifact().is_none_or(|a| a.is_empty()) {
        notice(
            state,
            Level::Info,
            "nothing to publish yet: ctrl-g asks Iris to write it",
        );
    } else {
        state.overlay.confirm = Some(crate::state::Confirm::Publish);
    }
    Vec::new()
}

/// Publishing confirmed: the artifact as it is now, the PR into the range's start.
pub(crate) fn publish(state: &mut State) -> Vec<Effect> {
    let Some(kind) = state.mode.artifact() else {
        return Vec::new();
    };
    let mut text = state.artifact().map(|a| a.text()).unwrap_or_default();
    // A review goes out as the findings list shows it: the folded findings stay folded.
    if kind == ArtifactKind::Review && !state.findings.show_unsure {
        text = crate::findings::without_unsure(&text, state.findings.min_confidence);
    }
    let pr = kind == ArtifactKind::Pr;
    let base = pr.then(|| state.range.from.clone()).flatten();
    let to = pr.then(|| state.range.to.clone()).flatten();
    notice(state, Level::Info, "publishing…");
    vec![Effect::Publish(PublishFx::Publish {
        kind,
        text,
        base,
        to,
    })]
}
