//! Diffs: staged, unstaged, working tree, ranges and single commits, as unified text or parsed.

use git2::{Delta, Diff, DiffFindOptions, DiffOptions, Tree};
use serde::Serialize;

use super::patch::FileChange;
use super::{GitError, GitRepo, Result, check_relative_path, lossy};
use iris_studio_core::change::{ChangeKind, FileDiff, parse_unified_diff};

/// What to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffTarget {
    /// The index against HEAD (`git diff --cached`).
    Staged,
    /// The working tree against the index (`git diff`).
    Unstaged,
    /// The working tree and index against HEAD (`git diff HEAD`).
    WorkingTree,
    /// `from..to` (`git diff from to`).
    Range {
        /// The revision compared from (the old side).
        from: String,
        /// The revision compared to (the new side).
        to: String,
    },
    /// One commit against its first parent (the empty tree for a root commit).
    Commit(String),
}

/// One entry of `git diff --name-status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedFile {
    /// The path after the change (the path it had, for a deleted file), relative to the root.
    pub path: String,
    /// The path before a rename or copy; `None` otherwise.
    pub old_path: Option<String>,
    /// What happened to the file: added, deleted, modified, renamed, copied or type changed.
    pub kind: ChangeKind,
    /// A conflicted (unmerged) entry in the middle of a merge.
    pub conflicted: bool,
}

impl GitRepo {
    /// The unified diff text for `target`, limited to `paths` when any are given.
    pub fn diff_text(&self, target: &DiffTarget, paths: &[String]) -> Result<String> {
        Ok(self.map_patches(target, paths, str::to_string)?.concat())
    }

    /// The diff for `target`, parsed into files, hunks and lines. Each file is parsed as soon
    /// as it is written, so the whole text of a huge change never sits in memory.
    pub fn diff_files(&self, target: &DiffTarget, paths: &[String]) -> Result<Vec<FileDiff>> {
        let parsed = self.map_patches(target, paths, parse_unified_diff)?;
        Ok(parsed.into_iter().flatten().collect())
    }

    /// Each changed file's patch, turned into a `T` by `map`, in git's order.
    fn map_patches<T: Send>(
        &self,
        target: &DiffTarget,
        paths: &[String],
        map: impl Fn(&str) -> T + Sync,
    ) -> Result<Vec<T>> {
        let changes = self.changes(target, paths)?;
        let workdir = matches!(target, DiffTarget::Unstaged | DiffTarget::WorkingTree);
        self.patches(&changes, workdir, &map)
    }

    /// The files `target` changes, without their content (`git diff --name-status`).
    pub fn changed_files(&self, target: &DiffTarget) -> Result<Vec<ChangedFile>> {
        Ok(self.change_list(target, &[])?.files)
    }

    /// The files `target` changes (of `paths`, when any are given), listed before any of
    /// their content is read, kept so that their lines can be read after without diffing again.
    pub fn change_list(&self, target: &DiffTarget, paths: &[String]) -> Result<ChangeList> {
        let (files, changes) = self
            .changes(target, paths)?
            .into_iter()
            .filter_map(|change| Some((changed_file(&change)?, change)))
            .unzip();
        Ok(ChangeList {
            files,
            changes,
            workdir: matches!(target, DiffTarget::Unstaged | DiffTarget::WorkingTree),
        })
    }

    /// Each listed file's added and removed lines turned into a `T` by `map`, in the list's
    /// order; quicker than [`GitRepo::diff_files`] when only the lines count, and nothing but
    /// what `map` makes is kept.
    pub fn map_changed_lines<T: Send>(
        &self,
        list: &ChangeList,
        map: impl Fn(&ChangedFile, &LineChanges<'_>) -> T + Sync,
    ) -> Result<Vec<T>> {
        let pairs: Vec<(&ChangedFile, &FileChange)> =
            list.files.iter().zip(&list.changes).collect();
        self.each_change(&pairs, &|repo, (file, change)| {
            repo.file_line_changes(change, list.workdir, |lines| map(file, lines))
        })
    }

    /// The changes of `target` as plain data, in path order. The staged ones of the whole
    /// index come from the index read directly when it can be (see `staged.rs`).
    fn changes(&self, target: &DiffTarget, paths: &[String]) -> Result<Vec<FileChange>> {
        if *target == DiffTarget::Staged
            && paths.is_empty()
            && let Some(changes) = self.staged_changes()?
        {
            return Ok(changes);
        }
        Ok(self
            .diff(target, paths)?
            .deltas()
            .map(|d| FileChange::from_delta(&d))
            .collect())
    }

    pub(super) fn diff(&self, target: &DiffTarget, paths: &[String]) -> Result<Diff<'_>> {
        let mut opts = DiffOptions::new();
        opts.max_size(super::patch::MAX_DIFF_BLOB_BYTES as i64)
            .ignore_submodules(false)
            .include_typechange(true);
        for path in paths {
            let clean = check_relative_path(path)?;
            opts.pathspec(clean.to_string_lossy().as_ref());
        }
        let repo = &self.repo;
        let mut diff = match target {
            DiffTarget::Staged => {
                let head = self.head_tree()?;
                repo.diff_tree_to_index(head.as_ref(), None, Some(&mut opts))?
            }
            DiffTarget::Unstaged | DiffTarget::WorkingTree => {
                let head = self.head_tree()?;
                let workdir_diff = |opts: &mut DiffOptions| match target {
                    DiffTarget::Unstaged => repo.diff_index_to_workdir(None, Some(opts)),
                    _ => repo.diff_tree_to_workdir_with_index(head.as_ref(), Some(opts)),
                };
                let diff = workdir_diff(&mut opts)?;
                match self.outside_sparse_checkout(&diff)? {
                    None => diff,
                    // Again, with only the paths that really changed.
                    Some(kept) if kept.is_empty() => {
                        repo.diff_tree_to_tree(head.as_ref(), head.as_ref(), None)?
                    }
                    Some(kept) => {
                        let mut opts = DiffOptions::new();
                        opts.max_size(super::patch::MAX_DIFF_BLOB_BYTES as i64)
                            .ignore_submodules(false)
                            .include_typechange(true)
                            .disable_pathspec_match(true);
                        for path in kept {
                            opts.pathspec(path);
                        }
                        workdir_diff(&mut opts)?
                    }
                }
            }
            DiffTarget::Range { from, to } => {
                let old = self.resolve_commit(from)?.tree()?;
                let new = self.resolve_commit(to)?.tree()?;
                repo.diff_tree_to_tree(Some(&old), Some(&new), Some(&mut opts))?
            }
            DiffTarget::Commit(rev) => {
                let commit = self.resolve_commit(rev)?;
                let parent = match commit.parent_count() {
                    0 => None,
                    _ => Some(commit.parent(0)?.tree()?),
                };
                repo.diff_tree_to_tree(parent.as_ref(), Some(&commit.tree()?), Some(&mut opts))?
            }
        };
        self.fill_diff_holes(&diff)?;
        // git detects renames by default (diff.renames); libgit2 only when asked.
        let mut find = DiffFindOptions::new();
        find.renames(true);
        diff.find_similar(Some(&mut find))?;
        Ok(diff)
    }

    pub(super) fn head_tree(&self) -> Result<Option<Tree<'_>>> {
        self.head_commit()?
            .map(|commit| commit.tree().map_err(GitError::from))
            .transpose()
    }
}

/// The files a diff changes, with what is needed to read their lines later.
pub struct ChangeList {
    /// The changed files, in path order.
    pub files: Vec<ChangedFile>,
    pub(super) changes: Vec<FileChange>,
    pub(super) workdir: bool,
}

/// One changed file's lines, without their newlines (a CRLF line keeps its '\r').
pub struct LineChanges<'a> {
    /// The lines added, in order.
    pub added: &'a [&'a str],
    /// The lines removed, in order.
    pub removed: &'a [&'a str],
    /// Binary content: it has no lines.
    pub binary: bool,
    /// Text too large to diff line by line: no lines, its size and line counts instead.
    pub large: Option<iris_studio_core::change::LargeText>,
}

/// One delta as a `git diff --name-status` entry; `None` for an unchanged one.
fn changed_file(change: &FileChange) -> Option<ChangedFile> {
    let (old, new) = change.paths();
    let (old, new) = (old.map(lossy), new.map(lossy));
    let (kind, conflicted) = match change.status() {
        Delta::Added | Delta::Untracked => (ChangeKind::Added, false),
        Delta::Deleted => (ChangeKind::Deleted, false),
        Delta::Renamed => (ChangeKind::Renamed, false),
        Delta::Copied => (ChangeKind::Copied, false),
        Delta::Typechange => (ChangeKind::TypeChanged, false),
        Delta::Conflicted => (ChangeKind::Modified, true),
        Delta::Modified => (ChangeKind::Modified, false),
        Delta::Unmodified | Delta::Ignored | Delta::Unreadable => return None,
    };
    let path = match kind {
        ChangeKind::Deleted => old.clone().or(new)?,
        _ => new.clone().or(old.clone())?,
    };
    let old_path = matches!(kind, ChangeKind::Renamed | ChangeKind::Copied)
        .then_some(old)
        .flatten();
    Some(ChangedFile {
        path,
        old_path,
        kind,
        conflicted,
    })
}
