//! The range modes' list: the commits of FROM..TO and the range picker.

use crate::features::msgs::{DiffFx, RangeFx, StackFx};
use crossterm::event::{KeyCode, KeyEvent};

use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::state::{CommitRange, CommitRow, DiffView, Level, Mode, Pane, State};
use crate::update::{notice, step};
use tui_textarea::TextArea;

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
    ask_commits(&mut state.range, state.mode)
}

/// The range's commits asked for, for `mode`.
fn ask_commits(range: &mut CommitRange, mode: Mode) -> Vec<Effect> {
    range.loading = true;
    vec![Effect::Range(RangeFx::LoadCommits {
        mode,
        from: range.from.clone(),
        to: range.to.clone(),
    })]
}

fn load_selected_commit_diff(state: &mut State) -> Vec<Effect> {
    selected_commit_diff(&state.range, &mut state.diff)
}

/// The diff pane shows the selected commit's diff, asked for.
fn selected_commit_diff(range: &CommitRange, diff: &mut DiffView) -> Vec<Effect> {
    let Some(commit) = range.commits.get(range.selected) else {
        *diff = Default::default();
        return Vec::new();
    };
    let id = commit.id.clone();
    *diff = DiffView {
        path: Some(format!("commit {}", commit.short_id)),
        loading: true,
        ..Default::default()
    };
    vec![Effect::Diff(DiffFx::LoadCommit { id })]
}

/// Up, down and the page keys move through the commits; the diff follows.
pub(crate) fn move_cursor(
    (range, diff): (&mut CommitRange, &mut DiffView),
    command: Command,
) -> Vec<Effect> {
    let last = range.commits.len().saturating_sub(1);
    let before = range.selected;
    range.selected = step(before, last, command);
    if range.selected != before {
        return selected_commit_diff(range, diff);
    }
    Vec::new()
}

/// Selects row `row` of the commits.
pub(crate) fn select((range, diff): (&mut CommitRange, &mut DiffView), row: usize) -> Vec<Effect> {
    if row >= range.commits.len() {
        return Vec::new();
    }
    range.selected = row;
    selected_commit_diff(range, diff)
}

/// Where the range picker works: its input line, the focus, and the mode it picks for.
pub(crate) type Picker<'a> = (&'a mut Option<TextArea<'static>>, &'a mut Pane, Mode);

/// Opens the range picker: an empty line, the current range in its title stays when nothing
/// is typed.
pub(crate) fn pick((input, focus, _): Picker) -> Vec<Effect> {
    *input = Some(TextArea::default());
    *focus = Pane::RangeInput;
    Vec::new()
}

/// Closes the range picker, back to the mode's list.
pub(crate) fn close_picker((input, focus, mode): Picker) {
    *input = None;
    *focus = mode.list_pane();
}

/// A key typed into the range picker; enter applies FROM..TO.
pub(crate) fn key(
    (input, focus, mode): Picker,
    range: &mut CommitRange,
    key: KeyEvent,
) -> Vec<Effect> {
    let Some(line) = input.as_mut() else {
        *focus = mode.list_pane();
        return Vec::new();
    };
    if key.code != KeyCode::Enter {
        line.input(key);
        return Vec::new();
    }
    let text = line.lines().join("").trim().to_string();
    close_picker((input, focus, mode));
    if text.is_empty() {
        return Vec::new();
    }
    let (from, to) = match text.split_once("..") {
        Some((from, to)) => (from.trim(), to.trim()),
        None => (text.as_str(), ""),
    };
    range.from = (!from.is_empty()).then(|| from.to_string());
    range.to = (!to.is_empty()).then(|| to.to_string());
    range.loaded_for = None;
    ask_commits(range, mode)
}
