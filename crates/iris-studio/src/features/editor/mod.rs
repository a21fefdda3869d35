//! The editor feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::{Failure, Outcome};
use crate::state::Draft;
use crate::update::cx::Cx;
use iris_core::artifact::ArtifactKind;

/// What comes back to the editor feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The repository's commit rules (commitlint, commitizen), none, or why they cannot be read.
    RulesLoaded(Outcome<Option<Box<iris_core::commit_rules::CommitRules>>>),
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
