//! Explore mode: the repository's file tree, and the code view with its cursor and selection.

use crate::action::OpenedFile;
use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::ExploreFx;
use crate::layout::{code_and_history, inner_rows, keep_in_view};
use crate::state::{Explore, Heat, Level, Pane, State};
use crate::update::cx::{Cx, Then};
use crate::update::{notice, panes, step};

/// The repository's files arrived, for the tree.
pub(crate) fn tree_loaded(
    explore: &mut Explore,
    cx: &mut Cx,
    result: Outcome<Vec<String>>,
) -> Vec<Effect> {
    match result {
        Ok(files) => {
            explore.files = files;
            explore.loaded = true;
        }
        Err(err) => cx.then(Then::Failed(err.context("listing the files failed"), None)),
    }
    Vec::new()
}

/// The open file's lines and history arrived (dropped when the user has since left it).
pub(crate) fn file_opened(
    explore: &mut Explore,
    cx: &mut Cx,
    path: String,
    result: Outcome<OpenedFile>,
) -> Vec<Effect> {
    if explore.open.as_deref() != Some(path.as_str()) {
        return Vec::new(); // a file the user has since left
    }
    match result {
        Ok(opened) => {
            explore.lines = opened.lines;
            explore.history = opened.history;
            explore.digest = opened.digest;
        }
        Err(err) => {
            let err = err.context(format!("opening {path} failed"));
            cx.then(Then::Failed(err, None));
        }
    }
    Vec::new()
}

/// The blame of the open file arrived: its lines' heat, or nothing (the margin stays blank;
/// a file git cannot blame is no error worth a notice).
pub(crate) fn lines_aged(
    explore: &mut Explore,
    path: String,
    result: Outcome<Vec<Option<i64>>>,
) -> Vec<Effect> {
    if explore.open.as_deref() != Some(path.as_str()) {
        return Vec::new();
    }
    explore.heat = result.ok().map(|times| Heat::of_times(&times));
    Vec::new()
}

pub(crate) fn move_in_tree(state: &mut State, command: Command) -> Vec<Effect> {
    let last = state.explore.rows().len().saturating_sub(1);
    state.explore.selected = step(state.explore.selected, last, command);
    Vec::new()
}

/// Rows of code the view shows (inside its borders, above the history).
fn code_rows(state: &State) -> usize {
    let rects = state.layout();
    inner_rows(rects.view.map(|view| code_and_history(view).0))
}

/// Up, down and the page keys move the cursor through the code (a selection follows it), or
/// scroll the commit shown in its place.
pub(crate) fn move_in_code(state: &mut State, command: Command) -> Vec<Effect> {
    if let Some(view) = state.explore.commit.as_mut().map(|c| &mut c.view) {
        let last = view.line_count().saturating_sub(1);
        view.scroll = step(view.scroll, last, command);
        return Vec::new();
    }
    let lines = state.explore.lines.as_ref().map_or(0, Vec::len);
    let cursor = step(state.explore.cursor, lines.saturating_sub(1), command);
    put_cursor(state, cursor);
    Vec::new()
}

/// The cursor on line `line` (0-based), the view scrolled just enough to show it.
pub(crate) fn put_cursor(state: &mut State, line: usize) {
    let last = state
        .explore
        .lines
        .as_ref()
        .map_or(0, Vec::len)
        .saturating_sub(1);
    let rows = code_rows(state);
    let explorer = &mut state.explore;
    explorer.cursor = line.min(last);
    explorer.scroll = keep_in_view(explorer.scroll, explorer.cursor, rows);
}

/// `v`: starts a selection at the cursor (j / k or a drag extend it), or clears it.
pub(crate) fn select_lines(state: &mut State) -> Vec<Effect> {
    if state.explore.lines.is_none() || state.explore.commit.is_some() {
        notice(
            state,
            Level::Info,
            "open a file (enter on the tree) to select its lines",
        );
        return Vec::new();
    }
    state.focus = Pane::Code;
    let explorer = &mut state.explore;
    explorer.anchor = match explorer.anchor {
        Some(_) => None,
        None => Some(explorer.cursor),
    };
    if explorer.anchor.is_some() {
        notice(
            state,
            Level::Info,
            "selecting: j / k extend, w asks Iris why, esc clears",
        );
    }
    Vec::new()
}

/// The code line under screen row `row`, if the row shows one.
fn line_at(state: &State, row: u16) -> Option<usize> {
    let rects = state.layout();
    let code = code_and_history(rects.view?).0;
    let lines = state.explore.lines.as_ref()?.len();
    if row <= code.y || row + 1 >= code.y + code.height {
        return None; // a border
    }
    let line = state.explore.scroll + usize::from(row - code.y - 1);
    (line < lines).then_some(line)
}

/// A click on the code puts the cursor on the line and clears the selection.
pub(crate) fn click_code(state: &mut State, row: u16) -> Vec<Effect> {
    if state.explore.commit.is_none()
        && let Some(line) = line_at(state, row)
    {
        state.explore.anchor = None;
        put_cursor(state, line);
    }
    Vec::new()
}

/// A drag over the code selects from where it started to the line under the pointer; past
/// the top or bottom edge the view scrolls a line.
pub(crate) fn drag_code(state: &mut State, row: u16) -> Vec<Effect> {
    if state.explore.commit.is_some() || state.explore.lines.is_none() {
        return Vec::new();
    }
    let line = line_at(state, row).unwrap_or_else(|| {
        let rects = state.layout();
        let above = rects.view.is_some_and(|view| row <= view.y);
        let explorer = &state.explore;
        if above {
            explorer.scroll.saturating_sub(1)
        } else {
            explorer.scroll + code_rows(state)
        }
    });
    let explorer = &mut state.explore;
    explorer.anchor.get_or_insert(explorer.cursor);
    put_cursor(state, line);
    Vec::new()
}

/// Selects row `row` of the tree.
pub(crate) fn select(state: &mut State, row: usize) -> Vec<Effect> {
    if row < state.explore.rows().len() {
        state.explore.selected = row;
    }
    Vec::new()
}

/// Enter on the tree: a directory opens or closes, a file opens in the code view.
pub(crate) fn open_tree_row(state: &mut State) -> Vec<Effect> {
    let Some(row) = state.explore.rows().into_iter().nth(state.explore.selected) else {
        return Vec::new();
    };
    if row.is_dir {
        if !state.explore.expanded.remove(&row.path) {
            state.explore.expanded.insert(row.path);
        }
        return Vec::new();
    }
    state.explore.open = Some(row.path.clone());
    state.explore.lines = None;
    state.explore.history.clear();
    state.explore.heat = None;
    state.explore.scroll = 0;
    state.explore.hscroll = 0;
    state.explore.cursor = 0;
    state.explore.anchor = None;
    panes::close_commit(state);
    // Blocks are about the file they were read from (one being read stays until it lands).
    if state
        .explore
        .intent
        .as_ref()
        .is_some_and(|v| v.intent.is_some())
    {
        panes::close_blocks(state);
    }
    state.focus = Pane::Code;
    vec![Effect::Explore(ExploreFx::OpenFile { path: row.path })]
}
