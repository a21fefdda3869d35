//! Publishing and copying: the PR opened or updated, the review posted (after asking), the
//! artifact or the selected lines copied. They read what the other features hold (the
//! artifact, the range, the stack, the findings) and change only the question.

use crate::effect::Effect;
use crate::features::msgs::PublishFx;
use crate::state::{
    Artifacts, CommitRange, Confirm, Explore, FindingsView, Level, Mode, StackView,
};
use crate::update::cx::Cx;
use iris_studio_core::artifact::ArtifactKind;

/// What publishing and copying read: the mode, the artifacts, the range.
pub(crate) type Reads<'a> = (Mode, &'a Artifacts, &'a CommitRange);

/// `y`: the artifact (explore: the selected lines) to the clipboard.
pub(crate) fn copy((mode, artifacts, _): Reads, explore: &Explore, cx: &mut Cx) -> Vec<Effect> {
    let (text, what) = match mode {
        Mode::Artifact(kind) => (
            artifacts.get(&kind).map(|a| a.text()).unwrap_or_default(),
            kind.title().to_lowercase(),
        ),
        Mode::Explore => match (explore.selection(), &explore.lines, &explore.open) {
            (Some((start, end)), Some(lines), Some(path)) => (
                lines[start..=end].join("\n"),
                format!("{path}:{}-{}", start + 1, end + 1),
            ),
            _ => (String::new(), String::new()),
        },
    };
    if text.trim().is_empty() {
        cx.say(Level::Info, "nothing to copy yet");
        return Vec::new();
    }
    vec![Effect::Publish(PublishFx::Copy { text, what })]
}

/// `P`: asks before the PR is opened or updated, the review posted, or the stack published.
pub(crate) fn ask_publish(
    (mode, artifacts, range): Reads,
    (stack, confirm): (&Option<StackView>, &mut Option<Confirm>),
    cx: &mut Cx,
) -> Vec<Effect> {
    let writing = cx.iris().task.as_ref().is_some_and(|t| t.mode == mode);
    let layer = stack
        .as_ref()
        .filter(|view| mode == Mode::PR && view.shows(range.from.as_deref(), range.to.as_deref()));
    if writing {
        cx.say(
            Level::Info,
            "Iris is still writing: wait for her, or esc first",
        );
    } else if let Some(view) = layer {
        // A stack's layer is shown (not a range picked with R): the whole stack goes.
        if view.publishing {
            cx.say(Level::Info, "the stack is being published: wait for it");
        } else {
            *confirm = Some(Confirm::PublishStack);
        }
    } else if mode
        .artifact()
        .and_then(|kind| artifacts.get(&kind))
        .is_none_or(|a| a.is_empty())
    {
        cx.say(
            Level::Info,
            "nothing to publish yet: ctrl-g asks Iris to write it",
        );
    } else {
        *confirm = Some(Confirm::Publish);
    }
    Vec::new()
}

/// Publishing confirmed: the artifact as it is now, the PR into the range's start.
pub(crate) fn publish(
    (mode, artifacts, range): Reads,
    findings: &FindingsView,
    cx: &mut Cx,
) -> Vec<Effect> {
    let Some(kind) = mode.artifact() else {
        return Vec::new();
    };
    let mut text = artifacts.get(&kind).map(|a| a.text()).unwrap_or_default();
    // A review goes out as the findings list shows it: the folded findings stay folded.
    if kind == ArtifactKind::Review && !findings.show_unsure {
        text = crate::findings::without_unsure(&text, findings.min_confidence);
    }
    let pr = kind == ArtifactKind::Pr;
    let base = pr.then(|| range.from.clone()).flatten();
    let to = pr.then(|| range.to.clone()).flatten();
    cx.say(Level::Info, "publishing…");
    vec![Effect::Publish(PublishFx::Publish {
        kind,
        text,
        base,
        to,
    })]
}
