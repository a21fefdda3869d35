//! Explore mode: the repository's file tree and the code view.

use super::super::action::OpenedFile;
use super::super::command::Command;
use super::super::effect::Effect;
use super::super::state::{Heat, Level, Pane, State};
use super::{notice, step};

pub(super) fn tree_loaded(state: &mut State, result: Result<Vec<String>, String>) -> Vec<Effect> {
    match result {
        Ok(files) => {
            state.explorer.files = files;
            state.explorer.loaded = true;
        }
        Err(err) => notice(
            state,
            Level::Error,
            format!("listing the files failed: {err}"),
        ),
    }
    Vec::new()
}

pub(super) fn file_opened(
    state: &mut State,
    path: String,
    result: Result<OpenedFile, String>,
) -> Vec<Effect> {
    if state.explorer.open.as_deref() != Some(path.as_str()) {
        return Vec::new(); // a file the user has since left
    }
    match result {
        Ok(opened) => {
            state.explorer.lines = opened.lines;
            state.explorer.history = opened.history;
        }
        Err(err) => notice(state, Level::Error, format!("opening {path} failed: {err}")),
    }
    Vec::new()
}

/// The blame of the open file arrived: its lines' heat, or nothing (the margin stays blank;
/// a file git cannot blame is no error worth a notice).
pub(super) fn lines_aged(
    state: &mut State,
    path: String,
    result: Result<Vec<Option<i64>>, String>,
) -> Vec<Effect> {
    if state.explorer.open.as_deref() != Some(path.as_str()) {
        return Vec::new();
    }
    state.explorer.heat = result.ok().map(|times| Heat::of_times(&times));
    Vec::new()
}

pub(super) fn move_in_tree(state: &mut State, command: Command) -> Vec<Effect> {
    let last = state.explorer.rows().len().saturating_sub(1);
    state.explorer.selected = step(state.explorer.selected, last, command);
    Vec::new()
}

pub(super) fn scroll_code(state: &mut State, command: Command) -> Vec<Effect> {
    let lines = state.explorer.lines.as_ref().map_or(0, Vec::len);
    state.explorer.scroll = step(state.explorer.scroll, lines.saturating_sub(1), command);
    Vec::new()
}

/// Selects row `row` of the tree.
pub(super) fn select(state: &mut State, row: usize) -> Vec<Effect> {
    if row < state.explorer.rows().len() {
        state.explorer.selected = row;
    }
    Vec::new()
}

/// Enter on the tree: a directory opens or closes, a file opens in the code view.
pub(super) fn open_tree_row(state: &mut State) -> Vec<Effect> {
    let Some(row) = state
        .explorer
        .rows()
        .into_iter()
        .nth(state.explorer.selected)
    else {
        return Vec::new();
    };
    if row.is_dir {
        if !state.explorer.expanded.remove(&row.path) {
            state.explorer.expanded.insert(row.path);
        }
        return Vec::new();
    }
    state.explorer.open = Some(row.path.clone());
    state.explorer.lines = None;
    state.explorer.history.clear();
    state.explorer.heat = None;
    state.explorer.scroll = 0;
    state.explorer.hscroll = 0;
    state.focus = Pane::Code;
    vec![Effect::OpenFile { path: row.path }]
}
