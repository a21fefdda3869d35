//! A sparse index (`git sparse-checkout set --sparse-index`, `index.sparse`) keeps each
//! directory outside the checkout's cone as one entry (its `sdir` extension), which libgit2
//! refuses to read ("unsupported mandatory extension"). git itself expands such an index when
//! a command needs every entry; Iris has git expand a copy, and reads that. The user's index
//! is never written.

use git2::{Index, Repository};

use super::git_command::{Git, WHOLE_TREE_DEADLINE};
use super::{GitError, Result};

/// When `repo`'s index is sparse: points libgit2 at an expanded copy, returned so it lives as
/// long as the repository is open; `None` for any other index.
pub(super) fn read_expanded(repo: &Repository) -> Result<Option<tempfile::TempPath>> {
    let sparse = repo
        .config()
        .and_then(|c| c.get_bool("index.sparse"))
        .unwrap_or(false);
    let index = repo.path().join("index");
    if !sparse || !has_sparse_directories(&index) {
        return Ok(None);
    }
    let copy = tempfile::Builder::new()
        .prefix("iris-index-")
        .tempfile()
        .map_err(|e| unreadable(format!("could not make a copy: {e}")))?
        .into_temp_path();
    std::fs::copy(&index, &copy).map_err(|e| unreadable(format!("could not copy it: {e}")))?;
    // Any command that writes the index with `index.sparse` off expands it; a refresh writes
    // only stat data. Its status says whether files need updating, which does not matter here.
    let ran = Git::plumbing().and_then(|mut git| {
        git.deadline(WHOLE_TREE_DEADLINE)
            .arg("--git-dir")
            .arg(repo.path())
            .args([
                "-c",
                "index.sparse=false",
                "-c",
                "advice.sparseIndexExpanded=false",
            ])
            .args(["update-index", "-q", "--refresh"])
            .env("GIT_INDEX_FILE", &copy)
            .current_dir(repo.workdir().unwrap_or(repo.path()))
            .output()
    });
    if let Err(e) = ran {
        return Err(unreadable(format!("could not run git update-index: {e}")));
    }
    if has_sparse_directories(&copy) {
        return Err(unreadable("git did not expand it".into()));
    }
    repo.set_index(&mut Index::open(&copy)?)?;
    Ok(Some(copy))
}

fn unreadable(why: String) -> GitError {
    GitError::Unsupported(format!("the sparse index could not be read: {why}"))
}

/// Whether an index file carries the `sdir` extension (only a sparse index does).
fn has_sparse_directories(path: &std::path::Path) -> bool {
    std::fs::read(path).is_ok_and(|bytes| bytes.windows(4).any(|w| w == b"sdir"))
}

/// git's mark on an index entry that a sparse checkout leaves out of the working tree.
const SKIP_WORKTREE: u16 = 1 << 14;

impl super::GitRepo {
    /// Whether the working tree is a sparse checkout (`core.sparseCheckout`): files outside
    /// it are left out.
    pub fn is_sparse(&self) -> bool {
        self.repo
            .config()
            .and_then(|c| c.get_bool("core.sparsecheckout"))
            .unwrap_or(false)
    }

    /// Whether objects are named by SHA-256 (`git init --object-format=sha256`).
    pub fn is_sha256(&self) -> bool {
        self.repo.object_format() == git2::ObjectFormat::Sha256
    }

    /// A working-tree diff shows every file a sparse checkout left out as deleted (libgit2
    /// does not read the skip-worktree mark; git does). When `diff` holds such files: the
    /// paths of its other deltas, for a diff of those alone; `None` when it holds none.
    pub(super) fn outside_sparse_checkout(
        &self,
        diff: &git2::Diff<'_>,
    ) -> Result<Option<Vec<std::ffi::OsString>>> {
        if !self.is_sparse() {
            return Ok(None);
        }
        let index = self.repo.index()?;
        let skipped = |delta: &git2::DiffDelta<'_>| {
            delta.status() == git2::Delta::Deleted
                && delta.old_file().path().is_some_and(|path| {
                    index
                        .get_path(path, 0)
                        .is_some_and(|e| e.flags_extended & SKIP_WORKTREE != 0)
                })
        };
        if !diff.deltas().any(|d| skipped(&d)) {
            return Ok(None);
        }
        Ok(Some(
            diff.deltas()
                .filter(|d| !skipped(d))
                .flat_map(|d| [d.old_file().path(), d.new_file().path()])
                .flatten()
                .map(|p| p.as_os_str().to_owned())
                .collect(),
        ))
    }
}
