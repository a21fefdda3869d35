//! `iris-git`: the only crate that talks to git.
//!
//! It works on `git2` (libgit2) and the `git` command line (commits and hooks go through `git`
//! so that hooks and signing apply), and answers with plain data types that carry no git2
//! handles, so callers (tools, the command line, the studio's shell) never see libgit2.
//!
//! It may import `iris-core` and `iris-process`: git is started only through
//! `git_command::Git` (found in PATH's absolute directories, plumbing bounded by a deadline),
//! jj only through `jj::cli`.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// Tests run git and jj to build and check repositories; the code starts them through
// `git_command` and `jj::cli` only.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

mod ancestry;
mod blame;
mod commit;
mod diff;
mod git_command;
mod hooks;
mod index_file;
mod info;
pub mod jj;
mod log;
mod operation;
mod patch;
mod promisor;
mod replay;
mod reword;
mod show;
mod sides;
mod sparse;
pub mod split;
mod stack;
mod stage;
mod staged;
mod status;

use std::path::{Component, Path, PathBuf};

use git2::{Commit, Repository};
use thiserror::Error;

pub use blame::{BlameLine, LineOrigin};
pub use commit::CommitOptions;
pub use diff::{ChangeList, ChangedFile, DiffTarget, LineChanges};
pub use git_command::git_version;
pub use hooks::{BACKUP_SUFFIX, HookInstall, HookRemoval, ManagedHook, StepInstall};
pub use info::{HeadState, RepoInfo};
pub use iris_studio_core::history::is_bot;
pub use log::{CommitInfo, utc_date};
pub use patch::looks_binary;
pub use replay::{ChangeSize, REPLAY_PREFIX, Replay};
pub use reword::{RewordCommit, Reworded};
pub use show::ShownCommit;
pub use sides::ChangedSides;
pub use stack::OnRemote;
pub use stage::IndexKept;
pub use status::{RepoStatus, StatusEntry};

/// A git failure the user can act on. Every variant maps to exit code 3.
#[derive(Debug, Error)]
pub enum GitError {
    /// No repository contains the directory (the one the search started from).
    #[error("not inside a git repository (looked upward from {})", .0.display())]
    NotARepository(PathBuf),
    /// A well-formed revision that names no commit here.
    #[error("unknown revision '{0}': it does not name a commit in this repository")]
    UnknownRevision(String),
    /// A revision refused before git saw it (empty, option-like, whitespace), and why.
    #[error("invalid revision '{0}': {1}")]
    InvalidRevision(String, &'static str),
    /// A path refused for leaving the repository or naming no file, and why.
    #[error("invalid path '{0}': {1}")]
    InvalidPath(String, &'static str),
    /// Something this repository or its state does not allow, said in full.
    #[error("{0}")]
    Unsupported(String),
    /// git is not in any absolute directory of PATH (a relative entry such as `.` is never
    /// searched: the repository could supply its own).
    #[error(
        "git is not installed (not found in PATH's absolute directories; `.` and other \
         relative entries are not searched)"
    )]
    GitNotFound,
    /// A git command ran past its deadline and was stopped with everything it started.
    #[error("`{command}` did not finish within {seconds} s and was stopped")]
    TimedOut {
        /// The command, such as `git status`.
        command: String,
        /// Its deadline.
        seconds: f32,
    },
    /// A file or a `git` child process failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, such as `creating a temporary directory`.
        context: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// Another git holds the index (`.git/index.lock` exists): what git said. Trying again
    /// once it is done may work.
    #[error("git commit failed (the message was not lost): {0}")]
    IndexLocked(String),
    /// A commit hook (pre-commit, prepare-commit-msg, commit-msg) refused the commit: its
    /// output.
    #[error("git commit failed (the message was not lost): {0}")]
    HookRefused(String),
    /// libgit2 failed.
    #[error("git: {}", .0.message())]
    Git(#[from] git2::Error),
}

impl GitError {
    /// Whether another git held the index (or a ref) locked: trying again may work.
    pub fn locked(&self) -> bool {
        match self {
            GitError::IndexLocked(_) => true,
            GitError::Git(e) => e.code() == git2::ErrorCode::Locked,
            _ => false,
        }
    }
}

/// The result of a git operation.
pub type Result<T> = std::result::Result<T, GitError>;

/// A repository opened once per unit of work. Cheap to open; not shared across threads.
pub struct GitRepo {
    repo: Repository,
    /// A partial clone's promisor remote, read once when first needed.
    promisor: std::sync::OnceLock<Option<String>>,
    /// The expanded copy of a sparse index that libgit2 reads, kept while the repository is open.
    _expanded_index: Option<tempfile::TempPath>,
    /// The jj workspace this is the git store of, when jj's `.jj` was found first.
    jj: Option<jj::JjWorkspace>,
}

impl GitRepo {
    /// Finds the repository that contains `start` (any subdirectory works).
    pub fn discover(start: &Path) -> Result<Self> {
        // git itself does not re-hash objects it reads; libgit2 does by default, and that
        // (SHA-1 with collision detection) is a third of the time of a large diff.
        static FAST_READS: std::sync::Once = std::sync::Once::new();
        FAST_READS.call_once(|| {
            git2::opts::strict_hash_verification(false);
            // Each blob of a diff is read once: caching them only costs time and memory.
            git2::opts::enable_caching(false);
        });
        if let Some((workspace, git_dir)) = jj::find(start)? {
            return Self::open_jj(workspace, &git_dir);
        }
        match Repository::discover(start) {
            Ok(repo) => {
                hooks::index_from_env(&repo)?;
                let expanded = match std::env::var_os("GIT_INDEX_FILE") {
                    Some(v) if !v.is_empty() => None,
                    _ => sparse::read_expanded(&repo)?,
                };
                let mut repo = Self::wrap(repo);
                repo._expanded_index = expanded;
                Ok(repo)
            }
            Err(e) if e.code() == git2::ErrorCode::NotFound => {
                Err(GitError::NotARepository(start.to_path_buf()))
            }
            Err(e) => Err(e.into()),
        }
    }

    fn wrap(repo: Repository) -> Self {
        Self {
            repo,
            promisor: std::sync::OnceLock::new(),
            _expanded_index: None,
            jj: None,
        }
    }

    /// A jj workspace's git store, its working tree the workspace's root (a store jj keeps
    /// inside `.jj` is bare). Read only: jj's command line makes every change.
    fn open_jj(workspace: jj::JjWorkspace, git_dir: &Path) -> Result<Self> {
        let repo = Repository::open(git_dir).map_err(|e| {
            GitError::Unsupported(format!(
                "the jj repository at {} keeps its commits in {}, which git cannot open: {}",
                workspace.root.display(),
                git_dir.display(),
                e.message()
            ))
        })?;
        // A store inside `.jj` is bare; a colocated one's work tree is the main workspace,
        // which a secondary workspace (`jj workspace add`) is not.
        repo.set_workdir(&workspace.root, false)?;
        let mut repo = Self::wrap(repo);
        repo.jj = Some(workspace);
        Ok(repo)
    }

    /// Where Iris keeps her own files for this repository (in `iris/` below it): the git
    /// directory, or in a jj workspace its `.jj` folder (jj's git store is jj's alone, and a
    /// workspace has its own drafts).
    pub fn state_dir(&self) -> PathBuf {
        match &self.jj {
            Some(workspace) => workspace.root.join(".jj"),
            None => self.git_dir().to_path_buf(),
        }
    }

    /// The jj workspace this repository is, when it is one: its changes are jj's to make.
    pub fn jj_workspace(&self) -> Option<&jj::JjWorkspace> {
        self.jj.as_ref()
    }

    /// The top of the working tree (the `.git` directory's parent), or the git dir of a bare repository.
    pub fn root(&self) -> PathBuf {
        let dir = self.repo.workdir().unwrap_or_else(|| self.repo.path());
        // libgit2 ends the path with a separator; collecting the components drops it.
        dir.components().collect()
    }

    /// The `.git` directory (of this worktree).
    pub fn git_dir(&self) -> &Path {
        self.repo.path()
    }

    /// The git directory linked worktrees share (refs, objects); the git dir itself in the
    /// main worktree.
    pub fn common_dir(&self) -> &Path {
        self.repo.commondir()
    }

    /// A configuration value as git reads it (repository, then global and system), if set.
    pub fn config_string(&self, name: &str) -> Option<String> {
        self.repo.config().ok()?.get_string(name).ok()
    }

    /// The file `commit.template` names (`~` expanded; a relative path is read from the
    /// root, where git runs a commit's hooks), if it is set.
    pub fn commit_template(&self) -> Option<PathBuf> {
        let path = self.repo.config().ok()?.get_path("commit.template").ok()?;
        Some(self.root().join(path))
    }

    /// Whether git ignores `path` (relative to the root, or absolute inside it).
    pub fn is_ignored(&self, path: &Path) -> bool {
        self.repo.is_path_ignored(path).unwrap_or(false)
    }

    /// Resolves a revision the user or the model gave, refusing anything that looks like an option
    /// or holds whitespace before asking git.
    pub fn resolve_commit(&self, rev: &str) -> Result<Commit<'_>> {
        check_revision(rev)?;
        let object = self
            .repo
            .revparse_single(rev)
            .map_err(|_| GitError::UnknownRevision(rev.to_string()))?;
        object
            .peel_to_commit()
            .map_err(|_| GitError::UnknownRevision(rev.to_string()))
    }

    /// The commit HEAD points at, or `None` in a repository with no commit yet.
    fn head_commit(&self) -> Result<Option<Commit<'_>>> {
        match self.repo.head() {
            Ok(head) => Ok(Some(head.peel_to_commit()?)),
            Err(e)
                if e.code() == git2::ErrorCode::UnbornBranch
                    || e.code() == git2::ErrorCode::NotFound =>
            {
                Ok(None)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Refuses while a merge, rebase or other operation is in progress: building or
    /// rewriting commits under it would leave it nothing to finish.
    fn no_operation_in_progress(&self) -> Result<()> {
        if self.repo.state() != git2::RepositoryState::Clean {
            return Err(GitError::Unsupported(
                "a merge, rebase, cherry-pick or other operation is in progress; finish or abort \
                 it first"
                    .into(),
            ));
        }
        Ok(())
    }

    /// A full object id in this repository's format (SHA-1 or SHA-256).
    fn oid(&self, hex: &str) -> std::result::Result<git2::Oid, git2::Error> {
        parse_oid(&self.repo, hex)
    }

    /// The id of the commit HEAD points at, or `None` before the first commit.
    pub fn head_id(&self) -> Result<Option<String>> {
        Ok(self.head_commit()?.map(|c| c.id().to_string()))
    }
}

/// A full object id in `repo`'s format: git2's `Oid::from_str` reads SHA-1 only.
fn parse_oid(repo: &Repository, hex: &str) -> std::result::Result<git2::Oid, git2::Error> {
    git2::Oid::from_str_ext(hex, repo.object_format())
}

/// A revision must be a single token that cannot be mistaken for an option.
pub fn check_revision(rev: &str) -> Result<()> {
    let problem = if rev.is_empty() {
        Some("it is empty")
    } else if rev.starts_with('-') {
        Some("it may not start with '-'")
    } else if rev.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("it may not contain whitespace or control characters")
    } else {
        None
    };
    match problem {
        Some(why) => Err(GitError::InvalidRevision(rev.to_string(), why)),
        None => Ok(()),
    }
}

/// The editor git would run for the repository at `repo_root` (`git var GIT_EDITOR`:
/// `core.editor`, else git's own default); `None` when git cannot say.
pub fn editor(repo_root: &Path) -> Option<String> {
    let ran = git_command::Git::plumbing()
        .ok()?
        .args(["var", "GIT_EDITOR"])
        .current_dir(repo_root)
        .output()
        .ok()?;
    ran.success().then(|| ran.stdout().trim().to_string())
}

/// Checks a repository-relative path: no absolute paths, no `..` that climbs out of the root.
pub fn check_relative_path(path: &str) -> Result<PathBuf> {
    let invalid = |why| GitError::InvalidPath(path.to_string(), why);
    if path.is_empty() {
        return Err(invalid("it is empty"));
    }
    let mut depth: usize = 0;
    let mut clean = PathBuf::new();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => {
                depth += 1;
                clean.push(part);
            }
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| invalid("it leaves the repository"))?;
                clean.pop();
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(invalid("paths are relative to the repository root"));
            }
        }
    }
    if clean.as_os_str().is_empty() {
        return Err(invalid("it names no file"));
    }
    Ok(clean)
}

/// Bytes from git (paths, messages) as text; invalid UTF-8 is replaced, never an error.
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_that_look_like_options_are_refused() {
        assert!(check_revision("HEAD~1").is_ok());
        assert!(check_revision("v1.0..main").is_ok());
        assert!(check_revision("--upload-pack=x").is_err());
        assert!(check_revision("HEAD main").is_err());
        assert!(check_revision("").is_err());
    }

    #[test]
    fn paths_may_not_leave_the_repository() {
        assert_eq!(
            check_relative_path("src/../a.rs").unwrap(),
            PathBuf::from("a.rs")
        );
        assert!(check_relative_path("../secret").is_err());
        assert!(check_relative_path("src/../../x").is_err());
        assert!(check_relative_path("/etc/passwd").is_err());
        assert!(check_relative_path(".").is_err());
    }
}
