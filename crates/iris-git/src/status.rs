//! `git status`: what is staged, unstaged, untracked, renamed and conflicted.

use git2::{Status, StatusOptions};
use serde::Serialize;

use super::{GitRepo, HeadState, Result, lossy};
use iris_core::change::ChangeKind;

/// One path of `git status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusEntry {
    pub path: String,
    /// The path before a rename (staged or unstaged).
    pub old_path: Option<String>,
    /// The change in the index against HEAD.
    pub staged: Option<ChangeKind>,
    /// The change in the working tree against the index.
    pub unstaged: Option<ChangeKind>,
    pub untracked: bool,
    pub conflicted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoStatus {
    pub head: HeadState,
    pub entries: Vec<StatusEntry>,
    /// A merge, rebase, cherry-pick, revert or bisect in progress.
    pub operation: Option<String>,
}

impl RepoStatus {
    pub fn staged(&self) -> impl Iterator<Item = &StatusEntry> {
        self.entries.iter().filter(|e| e.staged.is_some())
    }
}

impl GitRepo {
    /// The status of the repository, as `git status` reports it (untracked directories
    /// collapsed, ignored files left out, renames detected).
    pub fn status(&self) -> Result<RepoStatus> {
        let mut opts = StatusOptions::new();
        opts.include_untracked(true)
            .recurse_untracked_dirs(false)
            .include_ignored(false)
            .renames_head_to_index(true)
            .renames_index_to_workdir(true)
            .exclude_submodules(false);
        let statuses = self.repo.statuses(Some(&mut opts))?;
        let entries = statuses
            .iter()
            .filter_map(|entry| {
                let s = entry.status();
                let staged_rename = entry.head_to_index();
                let unstaged_rename = entry.index_to_workdir();
                let rename = if s.contains(Status::INDEX_RENAMED) {
                    staged_rename
                } else if s.contains(Status::WT_RENAMED) {
                    unstaged_rename
                } else {
                    None
                };
                let old_path = rename
                    .as_ref()
                    .and_then(|d| d.old_file().path_bytes().map(lossy));
                let path = rename
                    .as_ref()
                    .and_then(|d| d.new_file().path_bytes().map(lossy))
                    .unwrap_or_else(|| lossy(entry.path_bytes()));
                let item = StatusEntry {
                    path,
                    old_path,
                    staged: index_change(s),
                    unstaged: worktree_change(s),
                    untracked: s.contains(Status::WT_NEW),
                    conflicted: s.contains(Status::CONFLICTED),
                };
                let interesting = item.staged.is_some()
                    || item.unstaged.is_some()
                    || item.untracked
                    || item.conflicted;
                interesting.then_some(item)
            })
            .collect();
        Ok(RepoStatus {
            head: self.head_state()?,
            entries,
            operation: operation_name(self.repo.state()),
        })
    }
}

impl GitRepo {
    /// Whether one path is untracked (a single-file status, not a walk of the working tree).
    pub fn is_untracked(&self, path: &str) -> Result<bool> {
        let clean = super::check_relative_path(path)?;
        match self.repo.status_file(&clean) {
            Ok(status) => Ok(status.contains(Status::WT_NEW)),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
}

fn index_change(s: Status) -> Option<ChangeKind> {
    if s.contains(Status::INDEX_NEW) {
        Some(ChangeKind::Added)
    } else if s.contains(Status::INDEX_DELETED) {
        Some(ChangeKind::Deleted)
    } else if s.contains(Status::INDEX_RENAMED) {
        Some(ChangeKind::Renamed)
    } else if s.contains(Status::INDEX_TYPECHANGE) {
        Some(ChangeKind::TypeChanged)
    } else if s.contains(Status::INDEX_MODIFIED) {
        Some(ChangeKind::Modified)
    } else {
        None
    }
}

/// Untracked files are reported through `untracked`, not as a working-tree change.
fn worktree_change(s: Status) -> Option<ChangeKind> {
    if s.contains(Status::WT_DELETED) {
        Some(ChangeKind::Deleted)
    } else if s.contains(Status::WT_RENAMED) {
        Some(ChangeKind::Renamed)
    } else if s.contains(Status::WT_TYPECHANGE) {
        Some(ChangeKind::TypeChanged)
    } else if s.contains(Status::WT_MODIFIED) {
        Some(ChangeKind::Modified)
    } else {
        None
    }
}

fn operation_name(state: git2::RepositoryState) -> Option<String> {
    use git2::RepositoryState as S;
    let name = match state {
        S::Clean => return None,
        S::Merge => "merge",
        S::Revert | S::RevertSequence => "revert",
        S::CherryPick | S::CherryPickSequence => "cherry-pick",
        S::Bisect => "bisect",
        S::Rebase | S::RebaseInteractive | S::RebaseMerge => "rebase",
        S::ApplyMailbox | S::ApplyMailboxOrRebase => "am",
    };
    Some(name.to_string())
}
