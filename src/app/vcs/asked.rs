//! What the faces ask the version control and what it answers, the same for every system.

use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::secrets::Scanner;
use iris_studio_git::StatusEntry;
use iris_studio_git::split::SplitChange;

/// The change to write from, as a face's flags name it. The default is the change being
/// made, nothing checked.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChangeAsked<'a> {
    /// A change named (jj's `-r`); `None` is the one being made.
    pub rev: Option<&'a str>,
    /// HEAD's change with what is staged, for a message that amends it (git's `--amend`).
    pub amend: bool,
    /// Every tracked file's changes staged first (git's `--all`).
    pub stage_tracked: bool,
    /// The unstaged changes too (a review's `include_unstaged`).
    pub unstaged: bool,
    /// Asked by the git hook.
    pub by_hook: bool,
    /// How the message will be recorded, when it will (what the system cannot do is refused
    /// before Iris writes).
    pub recording: Option<How>,
    /// Said when nothing is staged (with `unstaged`, when no tracked file changed); `None`
    /// does not check.
    pub nothing_staged: Option<&'a str>,
    /// The stores will key what is written by the change ([`Change::key`]).
    pub keyed: bool,
}

/// The change Iris writes from.
#[derive(Debug, Clone)]
pub struct Change {
    /// What Iris reads.
    pub scope: Scope,
    /// The message it has already (an amended commit's, a jj change's description), whose
    /// trailers a new one keeps.
    pub message: Option<String>,
    /// How the stores know it, when asked for and the system keys changes.
    pub key: Option<crate::app::stores::ChangeKey>,
    /// The change a message is recorded on (jj's change id); `None` is the one being made.
    pub(in crate::app::vcs) target: Option<String>,
    /// The index as it was before staging for a message nobody records: held only to be
    /// put back when the last copy of the change is dropped.
    pub(in crate::app::vcs) _put_back: Option<std::sync::Arc<super::git::PutBack>>,
}

/// How a message is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// The change recorded and a new one begun on top (git commit, jj commit).
    Commit,
    /// HEAD made again with the message (git commit --amend).
    Amend,
    /// The change given the message as its description, staying on it (jj describe).
    Describe,
}

/// How a message is recorded, and the checks before.
#[derive(Clone, Copy)]
pub struct Recording<'a> {
    /// Commit, amend or describe.
    pub how: How,
    /// Skip the checks (git's hooks; the commit rules and the secret scan where Iris makes
    /// them for a system that runs no hooks).
    pub no_verify: bool,
    /// The scanner the secret check uses (`None`: the scan is off).
    pub scanner: Option<&'a Scanner>,
}

/// Where a range starts when none is named, in git (jj's base is `trunk()`); each says
/// what to tell the user when there is no such base.
#[derive(Debug, Clone, Copy)]
pub enum Base<'a> {
    /// None: the range must be named.
    Named(&'a str),
    /// The default branch (main, master or the remote's HEAD).
    DefaultBranch(&'a str),
    /// The latest tag, else the default branch.
    LatestTag(&'a str),
    /// HEAD's parent.
    Parent,
}

/// Where the history written so far ends, when it is not HEAD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryTop {
    /// Its commit id.
    pub commit: String,
    /// What its history is, said (`changes of jj's @-`).
    pub said: String,
}

/// The change a split takes apart, as a face's flags name it.
#[derive(Debug, Clone, Copy, Default)]
pub struct SplitAsked<'a> {
    /// A change named (jj's `-r`); `None` is the one being made.
    pub rev: Option<&'a str>,
    /// Only what is staged (git's `--staged`).
    pub staged: bool,
    /// A command checks each group first (git's `--check`).
    pub checked: bool,
}

/// The change a split takes apart.
pub struct SplitTarget {
    /// Its units and files.
    pub change: SplitChange,
    /// What a split makes and has done, for asking (`commits`, `committed`).
    pub words: (&'static str, &'static str),
    /// jj's change: its change id, its commit id then, and its short id.
    pub(in crate::app::vcs) named: Option<(String, String, String)>,
}

/// How a split is applied.
#[derive(Clone, Copy)]
pub struct SplitHow<'a> {
    /// A command run on each group's tree before it is committed.
    pub check: Option<&'a str>,
    /// Set (by ctrl-c) to stop before the next group.
    pub interrupted: Option<&'a std::sync::atomic::AtomicBool>,
    /// This program, which jj runs as the diff editor of each group.
    pub iris: &'a std::path::Path,
}

/// A split made.
#[derive(Debug, Clone)]
pub struct SplitMade {
    /// How many commits or changes.
    pub made: usize,
    /// What each is (`commit`, `change`).
    pub noun: &'static str,
    /// How to undo it outside Iris, when there is a way (`jj op restore OP`, quoted).
    pub undo: Option<String>,
}

/// A split that stopped.
#[derive(Debug)]
pub struct SplitStopped {
    /// Why, and what stands.
    pub error: anyhow::Error,
    /// Whether Iris' undo puts back what was made.
    pub undoable: bool,
}

/// A reword applied.
#[derive(Debug, Clone)]
pub struct RewordDone {
    /// What was done and how to undo it, a sentence.
    pub said: String,
    /// What the user should know besides (commits that lost their signature).
    pub warning: Option<String>,
}

/// The change being made as the studio lists it.
#[derive(Debug, Clone)]
pub struct Working {
    /// Where it stands, for the status bar (the branch; jj's `@` and its bookmarks).
    pub on: String,
    /// The commit it goes on (`None` before the first).
    pub head: Option<String>,
    /// Its files, as `git status` lists them (in a change without a staging area, each
    /// file of the working copy is "staged": in the change).
    pub files: Vec<StatusEntry>,
    /// The change's short id, where the system has no staging area and every file of the
    /// working copy is in the change (jj's `@`).
    pub change_id: Option<String>,
    /// The change as drafts are keyed by it: git's index tree on its parent, jj's change;
    /// `None` when it cannot be read.
    pub key: Option<String>,
}

/// What Iris builds on git's own machinery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitOnly {
    /// `iris hook`: git's commit hooks.
    Hooks,
    /// `iris absorb`: fixup commits on git's index.
    Absorb,
}
