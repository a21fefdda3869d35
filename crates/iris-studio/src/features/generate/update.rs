//! Generating the mode's artifact: on arriving, on a key, the request shown unsent, and what Iris wrote.

use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::GenerateFx;
use crate::state::Report;
use crate::state::{ArtifactBuffer, CommitRange, Level, Mode, TaskKind};
use crate::update::cx::{Cx, Then};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::stack::InStack;

/// What generating reads: the mode, the range and whether anything is staged (its input),
/// the mode's artifact, and the stack's layer shown, which the request carries.
pub(crate) struct Reads<'a> {
    /// The mode the studio is in.
    pub mode: Mode,
    /// The range of the range modes.
    pub range: &'a CommitRange,
    /// Whether anything is staged.
    pub has_staged: bool,
    /// The mode's artifact, when it has one.
    pub artifact: Option<&'a ArtifactBuffer>,
    /// The stack's layer PR mode shows.
    pub layer: Option<InStack>,
}

/// Generates on entering a mode whose artifact is empty and whose input is not.
pub(crate) fn auto_generate(reads: Reads, cx: &mut Cx) -> Vec<Effect> {
    let Some(kind) = reads.mode.artifact() else {
        return Vec::new();
    };
    let input_ready = if kind.uses_range() {
        reads.range.loaded_for == Some(reads.mode) && !reads.range.commits.is_empty()
    } else {
        reads.has_staged
    };
    let empty = reads.artifact.is_some_and(|a| a.is_empty());
    let iris = cx.iris();
    if iris.auto_generate
        && input_ready
        && empty
        && iris.task.is_none()
        && iris.unavailable.is_none()
    {
        generate(reads, cx)
    } else {
        Vec::new()
    }
}

/// `ctrl-g`: Iris writes the mode's artifact.
pub(crate) fn generate(reads: Reads, cx: &mut Cx) -> Vec<Effect> {
    let Some((kind, range)) = what_to_write(&reads, cx) else {
        return Vec::new();
    };
    match cx.start_task(TaskKind::Generate) {
        Some(task) => vec![Effect::Generate(GenerateFx::Generate {
            task,
            kind,
            range,
            stack: reads.layer,
        })],
        None => Vec::new(),
    }
}

/// `$`: the request a generation would send, shown and not sent.
pub(crate) fn show_request(reads: Reads, cx: &mut Cx) -> Vec<Effect> {
    let Some((kind, range)) = what_to_write(&reads, cx) else {
        return Vec::new();
    };
    cx.say(
        Level::Info,
        "building the request Iris would send (nothing is sent)…",
    );
    vec![Effect::Generate(GenerateFx::ShowRequest {
        kind,
        range,
        stack: reads.layer,
    })]
}

/// The mode's artifact and, for the range modes, its range; None (said) while the range is
/// not known.
fn what_to_write(reads: &Reads, cx: &mut Cx) -> Option<(ArtifactKind, Option<(String, String)>)> {
    let kind = reads.mode.artifact()?;
    if !kind.uses_range() {
        return Some((kind, None));
    }
    match &reads.range.resolved_from {
        Some(from) => Some((
            kind,
            Some((from.clone(), reads.range.to_or_head().to_string())),
        )),
        None => {
            cx.say(
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
