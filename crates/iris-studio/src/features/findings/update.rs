//! The review's findings: moving through them, jumping to one's line, the less certain ones shown or folded.

use crate::command::Command;
use crate::effect::Effect;
use crate::findings::shown_findings;
use crate::state::{Level, Pane, State};
use crate::update::{diff, notice, step};

/// `f`: the findings the reviewer is less sure of are shown in the list, or folded again.
pub(crate) fn toggle_unsure(state: &mut State) -> Vec<Effect> {
    let (rows, _) = shown_findings(state);
    let selected = rows.get(state.findings.selected).cloned();
    state.findings.show_unsure = !state.findings.show_unsure;
    let min = state.findings.min_confidence;
    let said = if state.findings.show_unsure {
        format!("showing the findings under {min}% confidence too (f folds them)")
    } else {
        format!("folded the findings under {min}% confidence (f shows them)")
    };
    // The same finding stays selected when it is still listed.
    let (rows, _) = shown_findings(state);
    state.findings.selected = selected
        .and_then(|kept| rows.iter().position(|r| *r == kept))
        .unwrap_or(state.findings.selected)
        .min(rows.len().saturating_sub(1));
    notice(state, Level::Info, said);
    Vec::new()
}

pub(crate) fn move_in_findings(state: &mut State, command: Command) -> Vec<Effect> {
    let count = shown_findings(state).0.len();
    state.findings.selected = step(state.findings.selected, count.saturating_sub(1), command);
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
