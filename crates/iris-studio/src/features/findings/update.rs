//! The review's findings: moving through them, jumping to one's line, the less certain ones shown or folded.

use crate::command::Command;
use crate::effect::Effect;
use crate::findings::{shown_findings, visible};
use crate::state::{FindingsView, Level, Pane, State};
use crate::update::cx::Cx;
use crate::update::{diff, notice, step};
use iris_studio_core::artifact::FindingBlock;

/// `f`: the findings the reviewer is less sure of are shown in the list, or folded again.
pub(crate) fn toggle_unsure(
    view: &mut FindingsView,
    blocks: &[FindingBlock],
    cx: &mut Cx,
) -> Vec<Effect> {
    let listed = |view: &FindingsView| visible(blocks, view.min_confidence, view.show_unsure).0;
    let selected = listed(view).get(view.selected).cloned();
    view.show_unsure = !view.show_unsure;
    let min = view.min_confidence;
    let said = if view.show_unsure {
        format!("showing the findings under {min}% confidence too (f folds them)")
    } else {
        format!("folded the findings under {min}% confidence (f shows them)")
    };
    // The same finding stays selected when it is still listed.
    let rows = listed(view);
    view.selected = selected
        .and_then(|kept| rows.iter().position(|r| *r == kept))
        .unwrap_or(view.selected)
        .min(rows.len().saturating_sub(1));
    cx.say(Level::Info, said);
    Vec::new()
}

/// The arrows and page keys move through the findings listed.
pub(crate) fn move_in_findings(
    view: &mut FindingsView,
    blocks: &[FindingBlock],
    command: Command,
) -> Vec<Effect> {
    let count = visible(blocks, view.min_confidence, view.show_unsure)
        .0
        .len();
    view.selected = step(view.selected, count.saturating_sub(1), command);
    Vec::new()
}

/// Shows the selected finding: its file in the list and the diff at its line.
pub(crate) fn jump_to_finding(state: &mut State) -> Vec<Effect> {
    let (rows, _) = shown_findings(state);
    let Some(finding) = rows.get(state.findings.selected) else {
        return Vec::new();
    };
    let Some(index) = state
        .changes
        .files
        .iter()
        .position(|f| f.path == finding.file)
    else {
        let text = format!("{} is not among the changed files", finding.file);
        notice(state, Level::Info, text);
        return Vec::new();
    };
    let (file, line) = (finding.file.clone(), finding.line.unwrap_or(1));
    state.focus = Pane::Diff;
    if state.changes.selected == index && !state.diff.loading {
        state.diff.scroll = state.diff.row_of_new_line(&file, line).unwrap_or(0);
        return Vec::new();
    }
    state.changes.selected = index;
    state.findings.pending_jump = Some((file, line));
    diff::load_selected_diff(state)
}
