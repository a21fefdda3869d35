//! Explore mode: the repository's file tree, and the code view with its cursor and selection.

use crate::action::OpenedFile;
use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::ExploreFx;
use crate::layout::{inner_rows, keep_in_view};
use crate::state::{Explore, Heat, Level, Pane};
use crate::update::cx::{Cx, Then};
use crate::update::step;
use ratatui::layout::Rect;

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

/// Up, down and the page keys move through the tree.
pub(crate) fn move_in_tree(explore: &mut Explore, command: Command) -> Vec<Effect> {
    let last = explore.rows().len().saturating_sub(1);
    explore.selected = step(explore.selected, last, command);
    Vec::new()
}

/// Up, down and the page keys move the cursor through the code (a selection follows it), or
/// scroll the commit shown in its place; `rows` of code are on screen.
pub(crate) fn move_in_code(explore: &mut Explore, rows: usize, command: Command) -> Vec<Effect> {
    if let Some(view) = explore.commit.as_mut().map(|c| &mut c.view) {
        let last = view.line_count().saturating_sub(1);
        view.scroll = step(view.scroll, last, command);
        return Vec::new();
    }
    let lines = explore.lines.as_ref().map_or(0, Vec::len);
    let cursor = step(explore.cursor, lines.saturating_sub(1), command);
    put_cursor(explore, rows, cursor);
    Vec::new()
}

/// The cursor on line `line` (0-based), the view (`rows` high) scrolled just enough to show
/// it.
pub(crate) fn put_cursor(explore: &mut Explore, rows: usize, line: usize) {
    let last = explore.lines.as_ref().map_or(0, Vec::len).saturating_sub(1);
    explore.cursor = line.min(last);
    explore.scroll = keep_in_view(explore.scroll, explore.cursor, rows);
}

/// `v`: starts a selection at the cursor (j / k or a drag extend it), or clears it.
pub(crate) fn select_lines(explore: &mut Explore, focus: &mut Pane, cx: &mut Cx) -> Vec<Effect> {
    if explore.lines.is_none() || explore.commit.is_some() {
        cx.say(
            Level::Info,
            "open a file (enter on the tree) to select its lines",
        );
        return Vec::new();
    }
    *focus = Pane::Code;
    explore.anchor = match explore.anchor {
        Some(_) => None,
        None => Some(explore.cursor),
    };
    if explore.anchor.is_some() {
        cx.say(
            Level::Info,
            "selecting: j / k extend, w asks Iris why, esc clears",
        );
    }
    Vec::new()
}

/// The code line under screen row `row` of the code's area, if the row shows one.
fn line_at(explore: &Explore, code: Option<Rect>, row: u16) -> Option<usize> {
    let code = code?;
    let lines = explore.lines.as_ref()?.len();
    if row <= code.y || row + 1 >= code.y + code.height {
        return None; // a border
    }
    let line = explore.scroll + usize::from(row - code.y - 1);
    (line < lines).then_some(line)
}

/// A click on the code (its area `code`) puts the cursor on the line and clears the
/// selection.
pub(crate) fn click_code(explore: &mut Explore, code: Option<Rect>, row: u16) -> Vec<Effect> {
    if explore.commit.is_none()
        && let Some(line) = line_at(explore, code, row)
    {
        explore.anchor = None;
        put_cursor(explore, inner_rows(code), line);
    }
    Vec::new()
}

/// A drag over the code (its area `code`, inside the view `view`) selects from where it
/// started to the line under the pointer; past the top or bottom edge the view scrolls a
/// line.
pub(crate) fn drag_code(
    explore: &mut Explore,
    (view, code): (Option<Rect>, Option<Rect>),
    row: u16,
) -> Vec<Effect> {
    if explore.commit.is_some() || explore.lines.is_none() {
        return Vec::new();
    }
    let rows = inner_rows(code);
    let line = line_at(explore, code, row).unwrap_or_else(|| {
        let above = view.is_some_and(|view| row <= view.y);
        if above {
            explore.scroll.saturating_sub(1)
        } else {
            explore.scroll + rows
        }
    });
    explore.anchor.get_or_insert(explore.cursor);
    put_cursor(explore, rows, line);
    Vec::new()
}

/// Selects row `row` of the tree.
pub(crate) fn select(explore: &mut Explore, row: usize) -> Vec<Effect> {
    if row < explore.rows().len() {
        explore.selected = row;
    }
    Vec::new()
}

/// Enter on the tree: a directory opens or closes, a file opens in the code view.
pub(crate) fn open_tree_row(explore: &mut Explore, focus: &mut Pane) -> Vec<Effect> {
    let Some(row) = explore.rows().into_iter().nth(explore.selected) else {
        return Vec::new();
    };
    if row.is_dir {
        if !explore.expanded.remove(&row.path) {
            explore.expanded.insert(row.path);
        }
        return Vec::new();
    }
    explore.open = Some(row.path.clone());
    explore.lines = None;
    explore.history.clear();
    explore.heat = None;
    explore.scroll = 0;
    explore.hscroll = 0;
    explore.cursor = 0;
    explore.anchor = None;
    explore.commit = None;
    // Blocks are about the file they were read from (one being read stays until it lands).
    if explore.intent.as_ref().is_some_and(|v| v.intent.is_some()) {
        crate::update::panes::close_blocks_of(explore, focus);
    }
    *focus = Pane::Code;
    vec![Effect::Explore(ExploreFx::OpenFile { path: row.path })]
}
