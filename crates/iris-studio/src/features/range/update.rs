//! The range modes' list: the commits of FROM..TO and the range picker.

use crate::features::msgs::{DiffFx, RangeFx, StackFx};
use crossterm::event::{KeyCode, KeyEvent};

use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::state::{CommitRow, DiffView, Level, Mode, Pane, State};
use crate::update::{notice, step};

pub(crate) fn commits_loaded(
    state: &mut State,
    mode: Mode,
    result: Outcome<(String, Vec<CommitRow>)>,
) -> Vec<Effect> {
    state.range.loading = false;
    let (from, commits) = match result {
        Ok(loaded) => loaded,
        Err(err) => return crate::update::failed::failed(state, err, None),
    };
    // The same commits again (a refresh, something changed outside): nothing moves, nothing
    // is written anew.
    let unchanged = state.range.loaded_for == Some(mode)
        && state.range.resolved_from.as_deref() == Some(from.as_str())
        && same_ids(&state.range.commits, &commits);
    if unchanged {
        return Vec::new();
    }
    // New commits on the same base (a commit made outside) keep the selected one; another
    // range starts at its top.
    let same_base = state.range.resolved_from.as_deref() == Some(from.as_str());
    let selected = state
        .range
        .commits
        .get(state.range.selected)
        .filter(|_| same_base)
        .map(|c| c.id.clone());
    state.range.resolved_from = Some(from);
    state.range.commits = commits;
    state.range.selected = selected
        .and_then(|id| state.range.commits.iter().position(|c| c.id == id))
        .unwrap_or(0);
    state.range.loaded_for = Some(mode);
    if state.mode != mode {
        return Vec::new();
    }
    if state.range.commits.is_empty() {
        notice(
            state,
            Level::Info,
            "the range has no commits: R picks another",
        );
    }
    // PR mode's default range: whether the branch is in a stack decides what is written (a
    // stack's layer, once it is known, rather than the whole range).
    if mode == Mode::PR && state.range.from.is_none() {
        if !state.range.stack_read {
            state.range.stack_read = true;
            let base = state.range.resolved_from.clone().unwrap_or_default();
            let mut effects = load_selected_commit_diff(state);
            effects.push(Effect::Stack(StackFx::Load { base }));
            return effects;
        }
        if state.stack.is_some() {
            return crate::update::stack::show_layer(state);
        }
    }
    let mut effects = load_selected_commit_diff(state);
    effects.extend(crate::update::written_for::arrive(state, true));
    effects
}

fn same_ids(a: &[CommitRow], b: &[CommitRow]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.id == y.id)
}

pub(crate) fn load_commits(state: &mut State) -> Vec<Effect> {
    state.range.loading = true;
    vec![Effect::Range(RangeFx::LoadCommits {
        mode: state.mode,
        from: state.range.from.clone(),
        to: state.range.to.clone(),
    })]
}

fn load_selected_commit_diff(state: &mut State) -> Vec<Effect> {
    let Some(commit) = state.range.commits.get(state.range.selected) else {
        state.diff = Default::default();
        return Vec::new();
    };
    let id = commit.id.clone();
    state.diff = DiffView {
        path: Some(format!("commit {}", commit.short_id)),
        loading: true,
        ..Default::default()
    };
    vec![Effect::Diff(DiffFx::LoadCommit { id })]
}

pub(crate) fn move_cursor(state: &mut State, command: Command) -> Vec<Effect> {
    let last = state.range.commits.len().saturating_sub(1);
    let before = state.range.selected;
    state.range.selected = step(before, last, command);
    if state.range.selected != before {
        return load_selected_commit_diff(state);
    }
    Vec::new()
}

/// Selects row `row` of the commits.
pub(crate) fn select(state: &mut State, row: usize) -> Vec<Effect> {
    if row >= state.range.commits.len() {
        return Vec::new();
    }
    state.range.selected = row;
    load_selected_commit_diff(state)
}

/// Opens the range picker: an empty line, the current range in its title stays when nothing
/// is typed.
pub(crate) fn pick(state: &mut State) -> Vec<Effect> {
    state.overlay.range_input = Some(tui_textarea::TextArea::default());
    state.focus = Pane::RangeInput;
    Vec::new()
}

pub(crate) fn close_picker(state: &mut State) {
    state.overlay.range_input = None;
    state.focus = state.mode.list_pane();
}

/// A key typed into the range picker; enter applies FROM..TO.
pub(crate) fn key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(input) = state.overlay.range_input.as_mut() else {
        state.focus = state.mode.list_pane();
        return Vec::new();
    };
    if key.code != KeyCode::Enter {
        input.input(key);
        return Vec::new();
    }
    let text = input.lines().join("").trim().to_string();
    close_picker(state);
    if text.is_empty() {
        return Vec::new();
    }
    let (from, to) = match text.split_once("..") {
        Some((from, to)) => (from.trim(), to.trim()),
        None => (text.as_str(), ""),
    };
    state.range.from = (!from.is_empty()).then(|| from.to_string());
    state.range.to = (!to.is_empty()).then(|| to.to_string());
    state.range.loaded_for = None;
    load_commits(state)
}
