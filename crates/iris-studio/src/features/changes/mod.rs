//! The changes feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::action::{RankedFile, RepoSnapshot};
use crate::effect::Effect;
use crate::failure::{Done, Outcome};
use crate::state::CommitFlags;
use crate::state::State;
use crate::update::cx::Cx;

/// What comes back to the changes feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The staged files ranked by relevance (before the full status, which takes longer).
    /// A first ranking from paths and kinds of change arrives at once; `complete` marks the
    /// one that also weighs changed lines and new functions and types.
    Ranked {
        /// The staged files, most relevant first, or why they could not be ranked.
        result: Outcome<Vec<RankedFile>>,
        /// Whether this is the final ranking, from the changed lines too.
        complete: bool,
    },
    /// The status of the repository, the branch, and whether anything is staged.
    Status(Outcome<RepoSnapshot>),
    /// A git operation (stage, unstage, commit) finished.
    GitDone {
        /// What was done (`staged src/lib.rs`, git's summary line of the commit), or why not.
        result: Outcome<Done>,
        /// The work asked (a commit's message is cleared once it is made; locked, it can be
        /// tried again).
        tried: Fx,
    },
}

/// The work the changes feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Reads the repository's status again: the staged files ranked first, then every
    /// changed path.
    LoadStatus,
    /// Stages a file's changes.
    Stage {
        /// The file, relative to the repository's root.
        path: String,
    },
    /// Takes a file's changes out of the index.
    Unstage {
        /// The file, relative to the repository's root.
        path: String,
    },
    /// Stages every change of the working tree.
    StageAll,
    /// Takes everything out of the index.
    UnstageAll,
    /// Hunk `hunk` (0-based, counted in the file's unstaged diff) goes into the index.
    StageHunk {
        /// The file, relative to the repository's root.
        path: String,
        /// The hunk's place among the file's unstaged hunks (0-based).
        hunk: usize,
    },
    /// Hunk `hunk` (0-based, counted in the file's staged diff) leaves the index.
    UnstageHunk {
        /// The file, relative to the repository's root.
        path: String,
        /// The hunk's place among the file's staged hunks (0-based).
        hunk: usize,
    },
    /// Commits the staged changes with `message`; `written` is the text Iris last wrote for
    /// the commit (the shell remembers it for `iris eval --accepted`).
    Commit {
        /// The commit message, as the user left it.
        message: String,
        /// The message as Iris last wrote it, if she did.
        written: Option<String>,
        /// Whether to amend the last commit and skip the hooks.
        flags: CommitFlags,
    },
}

pub(crate) mod update;

/// Applies what came back to the changes feature; returns the work it asks for next. The
/// status is the whole studio's news (the branch, the mode to open in, the diff, a draft's
/// change): it is settled with the whole state.
pub(crate) fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = match msg {
        Msg::Ranked { result, complete } => {
            update::ranking_loaded(&mut state.changes, &mut cx, result, complete)
        }
        Msg::GitDone { result, tried } => {
            update::git_done(&mut state.repo.commit_flags, &mut cx, result, tried)
        }
        Msg::Status(result) => {
            drop(cx);
            return update::status_loaded(state, result);
        }
    };
    cx.asked().settle(state, effects)
}
pub(crate) mod draw;
pub mod state;

/// Up, down and the page keys in the changed files.
pub(crate) fn move_cursor(state: &mut State, command: crate::command::Command) -> Vec<Effect> {
    update::move_cursor((&mut state.changes, &mut state.diff), command)
}

/// Selects row `row` of the changed files.
pub(crate) fn select(state: &mut State, row: usize) -> Vec<Effect> {
    update::select((&mut state.changes, &mut state.diff), row)
}

/// Staging and committing keys.
pub(crate) fn command(state: &mut State, command: crate::command::Command) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let message = state
        .artifacts
        .get(&iris_studio_core::artifact::ArtifactKind::Commit);
    let parts = (
        &state.changes,
        &state.diff,
        &mut state.repo,
        message,
        &mut state.overlay.confirm,
    );
    let effects = update::command(parts, &mut cx, command);
    cx.asked().settle(state, effects)
}

/// `y` to the commit question.
pub(crate) fn commit_confirmed(state: &mut State) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let message = state
        .artifacts
        .get(&iris_studio_core::artifact::ArtifactKind::Commit);
    let effects = update::commit_confirmed(message, state.repo.commit_flags, &mut cx);
    cx.asked().settle(state, effects)
}

pub(crate) use update::select_in_list;
