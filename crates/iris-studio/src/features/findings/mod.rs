//! The review's findings, read from its markdown (as Iris writes it, or as the user or a chat
//! edit left it), so the list always matches the editor; what comes back to the feature
//! ([`Msg`]) and the work it asks for ([`Fx`]): a finding dismissed.

use crate::failure::{Done, Outcome};
use crate::update::cx::Cx;
use iris_studio_core::artifact::{
    FindingBlock, Folded, finding_blocks, left_out_line, without_findings,
};

/// What comes back to the findings feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The dismissal of the finding `id` was kept (what to say), or why not.
    Dismissed {
        /// The finding's stable id.
        id: String,
        /// What the notice says, or why the dismissal was not kept.
        result: Outcome<Done>,
    },
}

/// The work the findings feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Keeps the dismissal of the last review's finding `id` in the review memory.
    Dismiss {
        /// The finding's stable id.
        id: String,
        /// Why, in the user's words or a choice's (empty: none given).
        reason: String,
        /// In the team's `.iris/review-memory.toml` rather than the user's `.git/iris/`.
        team: bool,
    },
}

/// One finding as the list shows it.
pub type FindingRow = FindingBlock;

/// The findings the list shows: all of them with `show_unsure`, else those not folded at
/// `min` (less sure than `min` percent, or not found in the change); and how many are folded,
/// and why.
pub fn visible_findings(markdown: &str, min: u8, show_unsure: bool) -> (Vec<FindingRow>, Folded) {
    visible(&finding_blocks(markdown), min, show_unsure)
}

/// Of a review's findings, those the list shows and what it folds (see
/// [`visible_findings`]).
pub fn visible(rows: &[FindingBlock], min: u8, show_unsure: bool) -> (Vec<FindingRow>, Folded) {
    if show_unsure {
        return (rows.to_vec(), Folded::default());
    }
    let shown: Vec<FindingRow> = rows.iter().filter(|r| !r.folded(min)).cloned().collect();
    (shown, folded(rows, min))
}

/// The findings of the review in the editor as the list shows them, and what it folds: read
/// from the text when it changed (the buffer's facts), only filtered here.
pub fn shown_findings(state: &crate::state::State) -> (Vec<FindingRow>, Folded) {
    let blocks = review_blocks(&state.artifacts, state.mode);
    visible(
        blocks,
        state.findings.min_confidence,
        state.findings.show_unsure,
    )
}

/// How many of `blocks` threshold `min` folds: the less certain, and those not found in the
/// change or dropped on a second look.
fn folded(blocks: &[FindingBlock], min: u8) -> Folded {
    let count = |unchecked: bool| {
        blocks
            .iter()
            .filter(|b| b.folded(min) && b.unchecked == unchecked)
            .count()
    };
    Folded {
        unsure: count(false),
        unchecked: count(true),
    }
}

/// The review's markdown as it is posted while the folded findings are folded: their blocks
/// taken out, each severity's count made right again, and a closing line saying how many
/// were left out. The text, unchanged, when none is folded.
pub fn without_unsure(markdown: &str, min: u8) -> String {
    let folded = folded(&finding_blocks(markdown), min);
    let (kept, left_out) = without_findings(markdown, |b| b.folded(min));
    if left_out == 0 {
        return markdown.to_string();
    }
    format!(
        "{}\n\n{}\n",
        kept.trim_end(),
        left_out_line(folded, min, None)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::artifact::{Finding, Review, Severity};

    #[test]
    fn findings_are_read_back_from_the_reviews_markdown() {
        let review = Review {
            summary: "Looks fine.".into(),
            findings: vec![
                Finding {
                    severity: Severity::High,
                    file: "src/app.rs".into(),
                    line: Some(12),
                    end_line: Some(14),
                    title: "Unchecked unwrap".into(),
                    body: "It panics.".into(),
                    confidence: Some(55),
                    ..Finding::default()
                },
                Finding {
                    severity: Severity::Low,
                    file: "README.md".into(),
                    line: None,
                    end_line: None,
                    title: "Typo".into(),
                    body: "teh".into(),
                    ..Finding::default()
                },
            ],
            strengths: vec!["Small".into()],
        };
        let rows = finding_blocks(&review.to_markdown());
        let read: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r.severity,
                    r.title.as_str(),
                    r.file.as_str(),
                    r.line,
                    r.confidence,
                )
            })
            .collect();
        assert_eq!(
            read,
            [
                (
                    Severity::High,
                    "Unchecked unwrap",
                    "src/app.rs",
                    Some(12),
                    Some(55)
                ),
                (Severity::Low, "Typo", "README.md", None, None),
            ]
        );
        let markdown = review.to_markdown();
        let (shown, folded) = visible_findings(&markdown, 70, false);
        assert_eq!(
            (shown.len(), shown[0].title.as_str(), folded.total()),
            (1, "Typo", 1)
        );
        assert_eq!(
            visible_findings(&markdown, 70, true),
            (rows, Folded::default())
        );
        assert_eq!(visible_findings(&markdown, 50, false).1.total(), 0);

        // Posting while folded leaves the hunch out and counts again.
        let posted = without_unsure(&markdown, 70);
        assert!(!posted.contains("Unchecked unwrap"), "{posted}");
        assert!(!posted.contains("## High"), "{posted}");
        assert!(
            posted.contains("## Low (1)\n\n### Typo (`README.md`)"),
            "{posted}"
        );
        assert!(posted.contains("## Strengths\n\n- Small"), "{posted}");
        assert!(
            posted.ends_with("\n\n_1 less certain finding (under 70% confidence) left out._\n"),
            "{posted}"
        );
        assert_eq!(without_unsure(&markdown, 50), markdown);

        // A finding not found in the change is posted neither, whatever its confidence.
        let unverified = "# Code review\n\n## High (2)\n\n### Real (`a.rs:3`) · 95%\n\nYes.\n\n\
                          ### Invented (`b.rs:9`) · 95% · unverified\n\n_Not found in the change: \
                          b.rs is not part of the change._\n";
        let posted = without_unsure(unverified, 70);
        assert!(
            posted.contains("## High (1)\n\n### Real") && !posted.contains("Invented"),
            "{posted}"
        );
        assert!(
            posted.ends_with("_1 finding left out (1 not found in the change or dropped)._\n"),
            "{posted}"
        );
        assert_eq!(visible_findings(unverified, 70, false).1.total(), 1);
    }
}

mod dismiss;
pub(crate) mod draw;
pub(crate) mod draw_dismiss;
pub mod state;
pub(crate) mod update;

/// Applies what came back to the findings feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    let text = state
        .artifacts
        .get(&iris_studio_core::artifact::ArtifactKind::Review)
        .map(|a| a.text())
        .unwrap_or_default();
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = match msg {
        Msg::Dismissed { id, result } => {
            dismiss::dismissed(&mut state.findings, &text, &mut cx, (id, result))
        }
    };
    cx.asked().settle(state, effects)
}

/// `d`: asks why the selected finding is dismissed.
pub(crate) fn ask_dismiss(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let (rows, _) = shown_findings(state);
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let listed = (&state.findings, rows.as_slice());
    let effects = dismiss::ask(listed, &mut state.overlay.dismiss, &mut cx);
    cx.asked().settle(state, effects)
}

/// A key while the question about a dismissal is open: every key goes to it.
pub(crate) fn dismiss_key(
    state: &mut crate::state::State,
    key: crossterm::event::KeyEvent,
) -> Vec<crate::effect::Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = dismiss::key(&mut state.overlay.dismiss, &mut cx, key);
    cx.asked().settle(state, effects)
}

/// `f`: the less certain findings shown in the list, or folded again.
pub(crate) fn toggle_unsure(state: &mut crate::state::State) -> Vec<crate::effect::Effect> {
    let mut cx = crate::update::cx::Cx::new(&mut state.iris, state.mode, state.now);
    let blocks = review_blocks(&state.artifacts, state.mode);
    let effects = update::toggle_unsure(&mut state.findings, blocks, &mut cx);
    cx.asked().settle(state, effects)
}

/// The arrows and page keys in the findings.
pub(crate) fn move_in_findings(
    state: &mut crate::state::State,
    command: crate::command::Command,
) -> Vec<crate::effect::Effect> {
    let blocks = review_blocks(&state.artifacts, state.mode);
    update::move_in_findings(&mut state.findings, blocks, command)
}

/// The findings read from the mode's artifact (none outside a review).
fn review_blocks(artifacts: &crate::state::Artifacts, mode: crate::state::Mode) -> &[FindingBlock] {
    mode.artifact()
        .and_then(|kind| artifacts.get(&kind))
        .map_or(&[][..], |a| a.facts().findings.as_slice())
}
