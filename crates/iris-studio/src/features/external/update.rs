//! The user's own editor: the artifact opens in it and comes back as a new version; a file
//! opens at the line under the cursor and is read again afterwards.

use crate::effect::{EditTarget, Effect};
use crate::failure::{Failure, Outcome};
use crate::features::msgs::{ChangesFx, ExploreFx, ExternalFx};
use crate::state::ArtifactBuffer;
use crate::state::{Level, Mode, Pane, State};
use crate::update::cx::{Cx, Then};
use crate::update::notice;
use iris_studio_core::artifact::ArtifactKind;

/// `e`: the diff's file at its top line, explore's file at the cursor (or the tree's file),
/// else the artifact.
pub(crate) fn edit(state: &mut State) -> Vec<Effect> {
    let target = match (state.mode, state.focus) {
        (Mode::Explore, Pane::Tree) => tree_file(state),
        (Mode::Explore, _) => open_file(state),
        (_, Pane::Diff) => diff_file(state),
        (Mode::Artifact(kind), _) => artifact_target(state, kind),
    };
    match target {
        Ok(target) => vec![Effect::External(ExternalFx::Edit(target))],
        // Nothing to open yet: a hint, not an error.
        Err(why) => {
            notice(state, Level::Info, why.words);
            Vec::new()
        }
    }
}

fn artifact_target(state: &State, kind: ArtifactKind) -> Outcome<EditTarget> {
    if state
        .iris
        .task
        .as_ref()
        .is_some_and(|t| t.mode == state.mode)
    {
        return Err(Failure::usage(format!(
            "Iris is writing the {}: wait for her, or esc first",
            kind.title().to_lowercase()
        )));
    }
    let text = state.artifact().map(|a| a.text()).unwrap_or_default();
    Ok(EditTarget::Artifact { kind, text })
}

fn diff_file(state: &State) -> Outcome<EditTarget> {
    if let Some((path, line)) = state.diff.new_line_at(state.diff.scroll) {
        return Ok(EditTarget::File {
            path: path.to_string(),
            line,
        });
    }
    // The diff is still (re)loading: the file it is of, from its top.
    let path = state
        .diff
        .path
        .clone()
        .or_else(|| state.changes.selected_file().map(|f| f.path.clone()))
        .ok_or_else(|| Failure::usage("select a changed file first"))?;
    Ok(EditTarget::File { path, line: 1 })
}

fn open_file(state: &State) -> Outcome<EditTarget> {
    let explorer = &state.explore;
    let path = explorer
        .open
        .clone()
        .ok_or_else(|| Failure::usage("open a file first (enter on the tree)"))?;
    Ok(EditTarget::File {
        path,
        line: u32::try_from(explorer.cursor + 1).unwrap_or(u32::MAX),
    })
}

fn tree_file(state: &State) -> Outcome<EditTarget> {
    match state.explore.rows().into_iter().nth(state.explore.selected) {
        Some(row) if !row.is_dir => Ok(EditTarget::File {
            path: row.path,
            line: 1,
        }),
        _ => Err(Failure::usage(
            "choose a file to edit (a directory does not open)",
        )),
    }
}

/// The editor closed on an artifact: a changed text becomes its newest version (undo steps
/// back over it), the text as it was is kept either way.
pub(crate) fn artifact_edited(
    buffer: Option<&mut ArtifactBuffer>,
    cx: &mut Cx,
    kind: ArtifactKind,
    result: Outcome<String>,
) -> Vec<Effect> {
    let text = match result {
        Ok(text) => text,
        Err(err) => {
            cx.then(Then::Failed(err.context("the editor failed"), None));
            return Vec::new();
        }
    };
    // Editors end a file with a newline; the artifact never had it.
    let text = text.trim_end();
    let Some(buffer) = buffer else {
        return Vec::new();
    };
    if buffer.text() == text {
        cx.say(Level::Info, "no change from the editor");
        return Vec::new();
    }
    buffer.replace(text);
    let what = kind.title().to_lowercase();
    cx.say(
        Level::Success,
        format!("the {what} came back from your editor (undo steps back)"),
    );
    cx.then(Then::SaveDraft(kind));
    Vec::new()
}

/// The editor closed on a file: what shows it (the status, the open file) is read again.
pub(crate) fn file_edited(
    open: Option<&str>,
    cx: &mut Cx,
    path: String,
    result: Outcome<()>,
) -> Vec<Effect> {
    if let Err(err) = result {
        cx.then(Then::Failed(err.context("the editor failed"), None));
        return Vec::new();
    }
    cx.say(Level::Info, format!("back from your editor: {path}"));
    let mut effects = vec![Effect::Changes(ChangesFx::LoadStatus)];
    if open == Some(path.as_str()) {
        effects.push(Effect::Explore(ExploreFx::OpenFile { path }));
    }
    effects
}
