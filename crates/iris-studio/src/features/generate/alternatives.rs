//! Alternatives to the commit message: Iris writes several at once, and the user picks one
//! from the versions shown side by side, or keeps the one in the editor.

use crate::failure::Outcome;
use crate::features::msgs::GenerateFx;
use crossterm::event::{KeyCode, KeyEvent};

use crate::effect::Effect;
use crate::state::{ALTERNATIVES, Alternatives, Level, TaskKind};
use crate::update::cx::{Cx, Then};
use crate::update::task;
use iris_studio_core::artifact::ArtifactKind;

/// `a`: Iris starts on the alternatives.
pub(crate) fn ask(cx: &mut Cx, kind: Option<ArtifactKind>, has_staged: bool) -> Vec<Effect> {
    let Some(kind) = kind else {
        return Vec::new();
    };
    if !has_staged {
        cx.say(
            Level::Warning,
            "nothing is staged: alternatives describe the staged change",
        );
        return Vec::new();
    }
    let Some(task) = cx.start_task(TaskKind::Alternatives) else {
        return Vec::new();
    };
    cx.say(
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
    (open, current): (&mut Option<Alternatives>, &str),
    cx: &mut Cx,
    task: u64,
    kind: ArtifactKind,
    result: Outcome<Vec<String>>,
) -> Vec<Effect> {
    let Some(finished) = cx.finish_task(task) else {
        return Vec::new();
    };
    let texts = match result {
        Ok(texts) => texts,
        Err(err) => {
            cx.task_failed(&finished, err);
            return Vec::new();
        }
    };
    let shown = Alternatives::new(kind, current, texts);
    if shown.new_count() == 0 {
        let nothing = "Iris wrote nothing different from the current message".to_string();
        let (said, level) = task::with_run_notes(&finished, nothing, Level::Info);
        cx.say(level, said);
        return Vec::new();
    }
    let what = format!(
        "{} versions side by side: 1-{} or ←/→ and enter picks, esc keeps the current",
        shown.versions.len(),
        shown.versions.len()
    );
    cx.task_done(&finished, what);
    *open = Some(shown);
    Vec::new()
}

/// A key while the versions are shown: every key goes to them.
pub(crate) fn key(open: &mut Option<Alternatives>, cx: &mut Cx, key: KeyEvent) -> Vec<Effect> {
    let Some(shown) = open.as_mut() else {
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
                return pick(open, cx, index);
            }
        }
        KeyCode::Enter => {
            let index = shown.selected;
            return pick(open, cx, index);
        }
        KeyCode::Esc | KeyCode::Char('q') => {
            *open = None;
            cx.say(Level::Info, "kept the current message");
        }
        _ => {}
    }
    Vec::new()
}

/// Version `index` becomes the artifact's newest version (undo steps back to the one before).
fn pick(open: &mut Option<Alternatives>, cx: &mut Cx, index: usize) -> Vec<Effect> {
    let Some(shown) = open.take() else {
        return Vec::new();
    };
    let Some(version) = shown.versions.get(index) else {
        return Vec::new();
    };
    if version.current {
        cx.say(Level::Info, "kept the current message");
        return Vec::new();
    }
    cx.then(Then::Replace {
        kind: shown.kind,
        text: version.text.clone(),
    });
    cx.say(
        Level::Success,
        format!("picked version {} (undo steps back)", index + 1),
    );
    Vec::new()
}
