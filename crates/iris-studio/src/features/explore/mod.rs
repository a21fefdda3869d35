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
