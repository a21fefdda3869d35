//! Alternatives to the commit message: Iris writes several at once, and the user picks one
//! from the versions shown side by side, or keeps the one in the editor.

use crate::failure::Outcome;
use crate::features::msgs::GenerateFx;
use crossterm::event::{KeyCode, KeyEvent};

use crate::effect::Effect;
use crate::state::{ALTERNATIVES, Alternatives, Level, State, TaskKind};
use crate::update::{editor, notice, task};
use iris_core::artifact::ArtifactKind;

/// `a`: Iris starts on the alternatives.
pub(crate) fn ask(state: &mut State) -> Vec<Effect> {
    let Some(kind) = state.mode.artifact() else {
        return Vec::new();
    };
    if !state.changes.has_staged {
        notice(
            state,
            Level::Warning,
            "nothing is staged: alternatives describe the staged change",
        );
        return Vec::new();
    }
    let Some(task) = task::start(state, TaskKind::Alternatives) else {
        return Vec::new();
    };
    notice(
        state,
        Level::Info,
        format!("Iris is writing {ALTERNATIVES} alternatives (esc cancels)"),
    );
    vec![Effect::Generate(GenerateFx::Alternatives {
        task,
        kind,
        count: ALTERNATIVES,
    })]
}

/// The alternatives arrived: shown beside the editor's text, or why not.
pub(crate) fn written(
    state: &mut State,
    task: u64,
    kind: ArtifactKind,
    result: Outcome<Vec<String>>,
) -> Vec<Effect> {
    let Some(finished) = task::finish(state, task) else {
        return Vec::new();
    };
    let texts = match result {
        Ok(texts) => texts,
        Err(err) => return crate::update::failed::task_failed(state, &finished, err),
    };
    let current = state
        .artifacts
        .get(&kind)
        .map(|a| a.text())
        .unwrap_or_default();
    let shown = Alternatives::new(kind, &current, texts);
    if shown.new_count() == 0 {
        let nothing = "Iris wrote nothing different from the current message".to_string();
        let (said, level) = task::with_run_notes(&finished, nothing, Level::Info);
        notice(state, level, said);
        return Vec::new();
    }
    let what = format!(
        "{} versions side by side: 1-{} or ←/→ and enter picks, esc keeps the current",
        shown.versions.len(),
        shown.versions.len()
    );
    task::done_notice(state, &finished, what);
    state.overlay.alternatives = Some(shown);
    Vec::new()
}

/// A key while the versions are shown: every key goes to them.
pub(crate) fn key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(shown) = state.overlay.alternatives.as_mut() else {
        return Vec::new();
    };
    let count = shown.versions.len();
    match key.code {
        KeyCode::Left | KeyCode::Char('h') | KeyCode::BackTab => {
            shown.selected = (shown.selected + count - 1) % count;
        }
        KeyCode::Right | KeyCode::Char('l') | KeyCode::Tab => {
            shown.selected = (shown.selected + 1) % count;
        }
        KeyCode::Char(digit @ '1'..='9') => {
            let index = digit as usize - '1' as usize;
            if index < count {
                return pick(state, index);
            }
        }
        KeyCode::Enter => {
            let index = shown.selected;
            return pick(state, index);
        }
        KeyCode::Esc | KeyCode::Char('q') => {
            state.overlay.alternatives = None;
            notice(state, Level::Info, "kept the current message");
        }
        _ => {}
    }
    Vec::new()
}

/// Version `index` becomes the artifact's newest version (undo steps back to the one before).
fn pick(state: &mut State, index: usize) -> Vec<Effect> {
    let Some(shown) = state.overlay.alternatives.take() else {
        return Vec::new();
    };
    let Some(version) = shown.versions.get(index) else {
        return Vec::new();
    };
    if version.current {
        notice(state, Level::Info, "kept the current message");
        return Vec::new();
    }
    editor::replace(state, shown.kind, &version.text);
    notice(
        state,
        Level::Success,
        format!("picked version {} (undo steps back)", index + 1),
    );
    editor::save_draft(state, shown.kind)
}
