//! The explore feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::action::OpenedFile;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::state::State;
use crate::update::cx::Cx;

/// What comes back to the explore feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The repository's files (explore mode).
    Tree(Outcome<Vec<String>>),
    /// A file's content and history (explore mode).
    FileOpened {
        /// The file, relative to the repository's root.
        path: String,
        /// What the code view shows of it, or why it could not be read.
        result: Outcome<OpenedFile>,
    },
    /// When each line of the open file was last committed (`None`: not yet), for the heat
    /// margin.
    LinesAged {
        /// The file, relative to the repository's root.
        path: String,
        /// Per line, the author's time in seconds of its last commit, or why git's blame
        /// failed.
        result: Outcome<Vec<Option<i64>>>,
    },
}

/// The work the explore feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// The repository's files, for explore mode.
    LoadTree,
    /// A file's content and history, for the code view.
    OpenFile {
        /// The file, relative to the repository's root.
        path: String,
    },
}

pub(crate) mod update;

/// Applies what came back to the explore feature; returns the work it asks for next.
pub(crate) fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let explore = &mut state.explore;
    let effects = match msg {
        Msg::Tree(result) => update::tree_loaded(explore, &mut cx, result),
        Msg::FileOpened { path, result } => update::file_opened(explore, &mut cx, path, result),
        Msg::LinesAged { path, result } => update::lines_aged(explore, path, result),
    };
    cx.asked().settle(state, effects)
}
pub(crate) mod draw;
pub mod state;

/// The code view's areas as laid out: the whole view, and the code above the file's history.
fn code_area(state: &State) -> (Option<ratatui::layout::Rect>, Option<ratatui::layout::Rect>) {
    let view = state.layout().view;
    (
        view,
        view.map(|view| crate::layout::code_and_history(view).0),
    )
}

/// Rows of code the view shows (inside its borders, above the history).
pub(crate) fn code_rows(state: &State) -> usize {
    crate::layout::inner_rows(code_area(state).1)
}

/// Up, down and the page keys in the tree.
pub(crate) fn move_in_tree(state: &mut State, command: crate::command::Command) -> Vec<Effect> {
    update::move_in_tree(&mut state.explore, command)
}

/// Up, down and the page keys in the code.
pub(crate) fn move_in_code(state: &mut State, command: crate::command::Command) -> Vec<Effect> {
    let rows = code_rows(state);
    update::move_in_code(&mut state.explore, rows, command)
}

/// `v`: a selection starts at the cursor, or is cleared.
pub(crate) fn select_lines(state: &mut State) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = update::select_lines(&mut state.explore, &mut state.focus, &mut cx);
    cx.asked().settle(state, effects)
}

/// A click on the code.
pub(crate) fn click_code(state: &mut State, row: u16) -> Vec<Effect> {
    let (_, code) = code_area(state);
    update::click_code(&mut state.explore, code, row)
}

/// A drag over the code.
pub(crate) fn drag_code(state: &mut State, row: u16) -> Vec<Effect> {
    let areas = code_area(state);
    update::drag_code(&mut state.explore, areas, row)
}

/// Selects row `row` of the tree.
pub(crate) fn select(state: &mut State, row: usize) -> Vec<Effect> {
    update::select(&mut state.explore, row)
}

/// Enter on the tree.
pub(crate) fn open_tree_row(state: &mut State) -> Vec<Effect> {
    update::open_tree_row(&mut state.explore, &mut state.focus)
}
