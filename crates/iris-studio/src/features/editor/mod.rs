//! The editor feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::{Failure, Outcome};
use crate::state::Draft;
use crate::update::cx::Cx;
use iris_studio_core::artifact::ArtifactKind;

/// What comes back to the editor feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The repository's commit rules (commitlint, commitizen), none, or why they cannot be read.
    RulesLoaded(Outcome<Option<Box<iris_studio_core::commit_rules::CommitRules>>>),
    /// Drafts saved by an earlier session, offered back.
    DraftsLoaded(Vec<(ArtifactKind, Draft)>),
    /// A merge, cherry-pick, revert or rebase is in progress (its name), and git prepared
    /// this message for the commit that concludes it.
    GitPrepared {
        /// `merge`, `cherry-pick`, `revert` or `rebase`.
        operation: String,
        /// `.git/MERGE_MSG` without its comment lines.
        message: String,
    },
    /// A draft could not be written.
    DraftFailed(Failure),
}

/// The work the editor feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Saves an artifact's text and versions.
    SaveDraft {
        /// The artifact saved.
        kind: ArtifactKind,
        /// Its text and versions.
        draft: Draft,
    },
    /// Removes an artifact's saved draft (after its commit).
    ClearDraft {
        /// The artifact whose draft goes.
        kind: ArtifactKind,
    },
}

pub(crate) mod update;
pub(crate) mod written_for;

/// Applies what came back to the editor feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    match msg {
        Msg::RulesLoaded(Ok(rules)) => {
            state.set_commit_rules(rules.map(|rules| *rules));
            Vec::new()
        }
        // The rules decide the editor's verdict on every artifact: the state applies them.
        Msg::RulesLoaded(Err(err)) => {
            crate::update::notice(state, crate::state::Level::Warning, err.words);
            Vec::new()
        }
        Msg::DraftsLoaded(drafts) => {
            let parts = (&mut state.artifacts, &mut state.layer_drafts);
            let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
            let effects = update::drafts_loaded(parts, &mut cx, drafts);
            cx.asked().settle(state, effects)
        }
        Msg::GitPrepared { operation, message } => {
            let commit = state.artifacts.get_mut(&ArtifactKind::Commit);
            let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
            let effects = update::git_prepared(commit, &mut cx, &operation, message);
            cx.asked().settle(state, effects)
        }
        Msg::DraftFailed(err) => {
            crate::update::failed::failed(state, err.context("saving the draft failed"), None)
        }
    }
}
pub mod draft;
pub(crate) mod draw;

/// A key typed into the mode's editor.
pub(crate) fn type_in_editor(
    state: &mut crate::state::State,
    key: crossterm::event::KeyEvent,
) -> Vec<crate::effect::Effect> {
    within_editor(state, |buffer, cx, kind| {
        update::type_in_editor(buffer, cx, kind, key)
    })
}

/// Undo and redo through the mode's artifact's versions.
pub(crate) fn step_versions(
    state: &mut crate::state::State,
    command: crate::command::Command,
) -> Vec<crate::effect::Effect> {
    within_editor(state, |buffer, cx, kind| {
        update::step_versions(buffer, cx, kind, command)
    })
}

/// Runs `work` on the mode's editor with a context (nothing outside an artifact's mode).
fn within_editor(
    state: &mut crate::state::State,
    work: impl FnOnce(
        Option<&mut crate::state::ArtifactBuffer>,
        &mut Cx,
        ArtifactKind,
    ) -> Vec<crate::effect::Effect>,
) -> Vec<crate::effect::Effect> {
    let Some(kind) = state.mode.artifact() else {
        return Vec::new();
    };
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = work(state.artifacts.get_mut(&kind), &mut cx, kind);
    cx.asked().settle(state, effects)
}
