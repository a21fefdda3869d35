//! `d` in review mode: the finding under the cursor dismissed. A question asks why (false
//! positive, intended, or the user's own words) and whose memory keeps it (the user's
//! `.git/iris/`, or the team's `.iris/review-memory.toml`); the shell keeps the dismissal,
//! and only once it is kept does the finding's block leave the review's text (the user's
//! other edits kept, undo steps back).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::state::{Dismissing, Reason};
use super::{FindingRow, Fx, visible};
use crate::effect::Effect;
use crate::failure::{Done, Outcome};
use crate::state::{FindingsView, Level, Mode};
use crate::update::cx::{Cx, Then};
use iris_studio_core::artifact::{ArtifactKind, finding_blocks, without_findings};

/// `d`: asks why the selected finding (of the `rows` listed) is dismissed.
pub(crate) fn ask(
    (view, rows): (&FindingsView, &[FindingRow]),
    open: &mut Option<Dismissing>,
    cx: &mut Cx,
) -> Vec<Effect> {
    if cx
        .iris()
        .task
        .as_ref()
        .is_some_and(|t| t.mode == Mode::REVIEW)
    {
        cx.say(
            Level::Info,
            "Iris is still writing the review: wait for her, or esc first",
        );
        return Vec::new();
    }
    let Some(finding) = rows.get(view.selected) else {
        cx.say(Level::Info, "there is no finding to dismiss");
        return Vec::new();
    };
    let Some(id) = finding.id.clone() else {
        cx.say(
            Level::Warning,
            format!(
                "\"{}\" has no id (its heading ends with · id …) to dismiss it by: ctrl-g has \
                 Iris write the review anew",
                finding.title
            ),
        );
        return Vec::new();
    };
    *open = Some(Dismissing::new(id, finding.title.clone()));
    Vec::new()
}

/// A key while the question is open: every key goes to it.
pub(crate) fn key(open: &mut Option<Dismissing>, cx: &mut Cx, key: KeyEvent) -> Vec<Effect> {
    let Some(asked) = open.as_mut() else {
        return Vec::new();
    };
    let typed = !key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    match key.code {
        KeyCode::Esc => {
            *open = None;
            cx.say(Level::Info, "kept the finding");
        }
        KeyCode::Enter => return confirmed(open, cx),
        KeyCode::Up => asked.chosen = asked.chosen.step(-1),
        KeyCode::Down => asked.chosen = asked.chosen.step(1),
        KeyCode::Tab | KeyCode::BackTab => asked.team = !asked.team,
        KeyCode::Backspace => {
            asked.chosen = Reason::OwnWords;
            asked.words.pop();
        }
        // Whatever is typed is the user's own words.
        KeyCode::Char(c) if typed => {
            asked.chosen = Reason::OwnWords;
            asked.words.push(c);
        }
        _ => {}
    }
    Vec::new()
}

/// Enter: the shell keeps the dismissal; the question closes.
fn confirmed(open: &mut Option<Dismissing>, cx: &mut Cx) -> Vec<Effect> {
    let Some(asked) = open.take() else {
        return Vec::new();
    };
    cx.say(Level::Info, format!("dismissing {}…", asked.id));
    vec![Effect::Findings(Fx::Dismiss {
        reason: asked.reason(),
        id: asked.id,
        team: asked.team,
    })]
}

/// The dismissal of `id` was kept (what to say), or why not: kept, its block leaves the
/// review `text` as a new version; not kept, the finding stays and the failure is said.
pub(crate) fn dismissed(
    view: &mut FindingsView,
    text: &str,
    cx: &mut Cx,
    (id, result): (String, Outcome<Done>),
) -> Vec<Effect> {
    let said = match result {
        Ok(said) => said,
        Err(err) => {
            cx.then(Then::Failed(
                err.context("the finding was not dismissed"),
                None,
            ));
            return Vec::new();
        }
    };
    let (kept, taken) = without_findings(text, |b| b.id.as_deref() == Some(id.as_str()));
    if taken > 0 {
        let listed = visible(
            &finding_blocks(&kept),
            view.min_confidence,
            view.show_unsure,
        )
        .0
        .len();
        view.selected = view.selected.min(listed.saturating_sub(1));
        cx.then(Then::Replace {
            kind: ArtifactKind::Review,
            text: kept,
        });
    }
    cx.say(Level::Success, said.0);
    Vec::new()
}
