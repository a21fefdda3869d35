//! The version control a workspace is under, opened once: one handle ([`Vcs`]) that answers
//! what the faces ask (the change to write from, a range's commits, recording a message, the
//! branches a pull request stands on, split and reword, the files of the change being made),
//! so no face branches on git or jj. Both systems keep a git store, which Iris reads through
//! `iris_studio_git::GitRepo` (passed to each question); the handle says what the system names and
//! makes. A third system is one more implementation of [`Vcs`] and one more arm in [`open`].

mod asked;
mod git;
mod jj;

use std::path::Path;
use std::sync::Arc;

use anyhow::Result;

use iris_studio_core::change::FileDiff;
use iris_studio_core::split::SplitPlan;
use iris_studio_git::split::Progress;
use iris_studio_git::{DiffTarget, GitRepo, OnRemote, RewordCommit};

pub use asked::{
    Base, Change, ChangeAsked, GitOnly, HistoryTop, How, Recording, RewordDone, SplitAsked,
    SplitHow, SplitMade, SplitStopped, SplitTarget, Working,
};
pub use git::Git;
/// What `iris doctor` says of jj: the version found, the oldest Iris drives, how to get it.
pub use iris_studio_git::jj::{INSTALL as JJ_INSTALL, JjFound, MIN_VERSION as JJ_MIN_VERSION};

/// Whether `repo` is a jj workspace (so jj is needed).
pub fn is_jj(repo: &GitRepo) -> bool {
    repo.jj_workspace().is_some()
}

/// jj on PATH with its version, asked within `deadline` (`None`: not there).
pub fn jj_found(deadline: std::time::Duration) -> Result<Option<JjFound>, String> {
    iris_studio_git::jj::jj_on_path(deadline).map_err(|e| e.to_string())
}

/// The handle for `repo`'s version control: jj when it is a jj workspace (jj itself is
/// started by the first question that needs it), else git. Looks at no file and runs nothing.
pub fn open(repo: &GitRepo) -> Arc<dyn Vcs> {
    match repo.jj_workspace() {
        Some(workspace) => Arc::new(jj::JjVcs::new(workspace.clone())),
        None => Arc::new(Git),
    }
}

/// jj's diff editor for one group of a split (`iris jj-split-tool STATE RIGHT`, which jj runs):
/// leaves `right` as the group's part should be.
pub fn split_tool(state: &Path, right: &Path) -> Result<()> {
    Ok(iris_studio_git::jj::write_right(state, right)?)
}

/// What the faces ask of the version control. Every answer reads the system's git store
/// through `repo` where it needs to; blocking: call it off the async threads.
pub trait Vcs: Send + Sync {
    /// Starts what the system needs, so that a missing program is said before any other
    /// work (jj: found on PATH, its version checked).
    fn ready(&self) -> Result<()>;

    /// The change Iris writes from as `asked` names it (git: the staged change or HEAD's
    /// amended; jj: `@` or `-r`'s), refusing what this system cannot do.
    fn change(&self, repo: &GitRepo, asked: &ChangeAsked) -> Result<Change>;

    /// Records `message` for `change` as `how` says (git commit, jj describe or jj commit,
    /// after the checks a git hook would make where the system runs none); what was done.
    fn record(
        &self,
        repo: &GitRepo,
        change: &Change,
        message: &str,
        how: &Recording,
    ) -> Result<String>;

    /// `rev` as git's store reads it (git: the revision as typed, checked; jj: its commit id).
    fn commit(&self, repo: &GitRepo, rev: &str) -> Result<String>;

    /// The commits after `from` up to `to`, as git's store reads them: without `from`, the
    /// system's base (`base` in git, `trunk()` in jj); without `to` (or `HEAD`), the top.
    fn range(
        &self,
        repo: &GitRepo,
        from: Option<&str>,
        to: Option<&str>,
        base: Base,
    ) -> Result<(String, String)>;

    /// The branches a pull request of that range goes into and from, when they are not the
    /// checked-out branch and the forge's default (jj: the ends' bookmarks).
    fn pr_branches(
        &self,
        repo: &GitRepo,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Option<(String, String)>>;

    /// Where the history written so far ends, when it is not HEAD (jj: `@-`).
    fn history_top(&self) -> Result<Option<HistoryTop>>;

    /// The commit holding the newest message written (git: HEAD; jj: `@` once described,
    /// else `@-`); `None` when there is none yet.
    fn newest_message(&self, repo: &GitRepo) -> Result<Option<String>>;

    /// The change a split takes apart, as `asked` names it.
    fn split_change(&self, repo: &GitRepo, asked: &SplitAsked) -> Result<SplitTarget>;

    /// Makes `plan`'s groups of `target`, `step` told of each as it goes.
    fn apply_split(
        &self,
        repo: &GitRepo,
        target: &SplitTarget,
        plan: &SplitPlan,
        how: &SplitHow,
        step: &mut dyn FnMut(Progress),
    ) -> std::result::Result<SplitMade, SplitStopped>;

    /// Puts the change back as it was before the last split; what was done.
    fn undo_split(&self, repo: &GitRepo) -> Result<String>;

    /// The commits `revs` names for a reword, oldest first; `guard` refuses those others
    /// may have built on (git: on a remote; jj: immutable), `guard` saying how to anyway.
    fn reword_commits(
        &self,
        repo: &GitRepo,
        revs: &str,
        guard: Option<&str>,
    ) -> Result<Vec<RewordCommit>>;

    /// The one commit `rev` names for a reword of its own, refused when it keeps its
    /// message (a merge) or others may have built on it.
    fn reword_one(&self, repo: &GitRepo, rev: &str) -> Result<RewordCommit>;

    /// Gives each `(id, message)` of `commits` its message (`force`: even an immutable jj
    /// change), stopping before the next when `interrupted`.
    fn apply_reword(
        &self,
        repo: &GitRepo,
        commits: &[RewordCommit],
        messages: &[(String, String)],
        force: bool,
        interrupted: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<RewordDone>;

    /// Puts the branch back as the last reword found it; what was done.
    fn undo_reword(&self, repo: &GitRepo) -> Result<String>;

    /// What the change being made is diffed as for ranking its files (git: the index; jj:
    /// `@`'s commit); `None` when its files are listed unranked (a conflicted jj change).
    fn working_diff(&self, repo: &GitRepo) -> Result<Option<DiffTarget>>;

    /// The change being made: where it stands and its files.
    fn working(&self, repo: &GitRepo) -> Result<Working>;

    /// The change being made to `path`, and how many of the files come first as "staged".
    fn file_diff(&self, repo: &GitRepo, path: &str) -> Result<(Vec<FileDiff>, usize)>;

    /// Why what Iris builds on git's own machinery cannot run here, when it cannot.
    fn refuses(&self, what: GitOnly) -> Option<String>;

    /// The command that gives `remote` the `branches` (jj: bookmarks) as they are here,
    /// `there` saying where they stand on it now; None where no push does (the remote has
    /// commits that are not here).
    fn push_command(&self, remote: &str, branches: &[String], there: OnRemote) -> Option<String>;
}
