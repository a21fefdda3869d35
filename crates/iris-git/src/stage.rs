//! Staging and unstaging: a file, a hunk, everything.

use std::path::Path;

use git2::{ApplyLocation, ApplyOptions, Delta, DiffOptions, IndexAddOption};

use super::git_command::Git;
use super::{GitError, GitRepo, Result, check_relative_path};

/// The index file as it was, to be put back: what `git commit -a` leaves behind when it does
/// not commit, after Iris staged every tracked file to write a message for them.
#[derive(Debug)]
pub struct IndexKept {
    path: std::path::PathBuf,
    /// `None`: there was no index file.
    bytes: Option<Vec<u8>>,
}

impl IndexKept {
    /// Puts the index back as it was, written beside and renamed into place as git writes
    /// it, so no reader sees half of it.
    pub fn put_back(&self) -> Result<()> {
        let io = |source| GitError::Io {
            context: format!("putting back the index {}", self.path.display()),
            source,
        };
        match &self.bytes {
            Some(bytes) => {
                let beside = self.path.with_extension("iris-kept");
                std::fs::write(&beside, bytes).map_err(io)?;
                std::fs::rename(&beside, &self.path).map_err(io)
            }
            None => match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(e)),
                _ => Ok(()),
            },
        }
    }
}

impl GitRepo {
    /// The index file as it is now, to put back later ([`IndexKept::put_back`]).
    pub fn keep_index(&self) -> Result<IndexKept> {
        let index = self.repo.index()?;
        let path = index
            .path()
            .map(Path::to_path_buf)
            .ok_or_else(|| GitError::Unsupported("the repository's index is not a file".into()))?;
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => {
                return Err(GitError::Io {
                    context: format!("reading the index {}", path.display()),
                    source,
                });
            }
        };
        Ok(IndexKept { path, bytes })
    }

    /// `git add -- path` (a deleted file is removed from the index).
    pub fn stage(&self, path: &str) -> Result<()> {
        let clean = check_relative_path(path)?;
        let mut index = self.repo.index()?;
        if self.root().join(&clean).symlink_metadata().is_ok() {
            index.add_path(&clean)?;
        } else {
            index.remove_path(&clean)?;
        }
        index.write()?;
        Ok(())
    }

    /// `git reset -- path`: the index entry goes back to HEAD's (or away, before the first commit).
    pub fn unstage(&self, path: &str) -> Result<()> {
        let clean = check_relative_path(path)?;
        match self.head_commit()? {
            Some(head) => self.repo.reset_default(Some(head.as_object()), [&clean])?,
            None => {
                let mut index = self.repo.index()?;
                index.remove_path(&clean)?;
                index.write()?;
            }
        }
        Ok(())
    }

    /// `git add -A`.
    pub fn stage_all(&self) -> Result<()> {
        let mut index = self.repo.index()?;
        index.add_all(["*"], IndexAddOption::DEFAULT, None)?;
        index.update_all(["*"], None)?;
        index.write()?;
        Ok(())
    }

    /// `git add --update`: every tracked file's changes (deletions too) staged, as `git
    /// commit -a` does; untracked files are left alone. Through git itself, so clean filters
    /// (Git LFS), sparse checkouts and the index's lock behave as they do for the user. In the
    /// foreground: it runs the user's filters and holds the index's lock, which stopping it
    /// at a deadline would leave behind.
    pub fn stage_tracked(&self) -> Result<()> {
        let ran = Git::foreground()?
            .arg("-C")
            .arg(self.root())
            .args(["add", "--update", "--", ":/"])
            .output()?;
        if !ran.success() {
            return Err(GitError::Unsupported(format!(
                "git add --update failed: {}",
                ran.stderr().trim()
            )));
        }
        Ok(())
    }

    /// `git reset`: nothing staged any more.
    pub fn unstage_all(&self) -> Result<()> {
        match self.head_commit()? {
            Some(head) => {
                let staged: Vec<String> = self
                    .status()?
                    .staged()
                    .flat_map(|e| std::iter::once(e.path.clone()).chain(e.old_path.clone()))
                    .collect();
                if !staged.is_empty() {
                    self.repo
                        .reset_default(Some(head.as_object()), staged.iter().map(Path::new))?;
                }
            }
            None => {
                let mut index = self.repo.index()?;
                index.clear()?;
                index.write()?;
            }
        }
        Ok(())
    }

    /// Stages hunk number `hunk` (0-based) of the file's unstaged changes.
    pub fn stage_hunk(&self, path: &str, hunk: usize) -> Result<()> {
        let mut opts = self.one_path(path)?;
        opts.include_untracked(true).show_untracked_content(true);
        let diff = self.repo.diff_index_to_workdir(None, Some(&mut opts))?;
        // A new or deleted file is one hunk: staging it stages the file.
        let whole =
            |d: git2::DiffDelta<'_>| matches!(d.status(), Delta::Deleted | Delta::Untracked);
        if hunk == 0 && diff.deltas().any(whole) {
            return self.stage(path);
        }
        self.apply_hunk(&diff, hunk)
            .map_err(|e| e.unwrap_or_else(|| missing(path, "unstaged", hunk)))
    }

    /// Unstages hunk number `hunk` (0-based) of the file's staged changes: the index gets that
    /// part of HEAD's version back, the working tree is untouched.
    pub fn unstage_hunk(&self, path: &str, hunk: usize) -> Result<()> {
        let mut opts = self.one_path(path)?;
        // The staged change reversed (index to HEAD), applied to the index, undoes it.
        opts.reverse(true);
        let head = self.head_commit()?.map(|c| c.tree()).transpose()?;
        let diff = self
            .repo
            .diff_tree_to_index(head.as_ref(), None, Some(&mut opts))?;
        // A staged new file is one hunk, all added: unstaging it unstages the file (reversed,
        // it reads as a deletion, which has no hunk to pick).
        if hunk == 0 && diff.deltas().any(|d| d.status() == Delta::Deleted) {
            return self.unstage(path);
        }
        self.apply_hunk(&diff, hunk)
            .map_err(|e| e.unwrap_or_else(|| missing(path, "staged", hunk)))
    }

    fn one_path(&self, path: &str) -> Result<DiffOptions> {
        let clean = check_relative_path(path)?;
        let mut opts = DiffOptions::new();
        opts.pathspec(clean.to_string_lossy().as_ref());
        Ok(opts)
    }

    /// Applies hunk `hunk` of `diff` to the index; `Err(None)` when the diff has no such hunk.
    fn apply_hunk(
        &self,
        diff: &git2::Diff<'_>,
        hunk: usize,
    ) -> std::result::Result<(), Option<GitError>> {
        let mut seen = 0usize;
        let mut found = false;
        let mut apply = ApplyOptions::new();
        apply.hunk_callback(|h| {
            let take = h.is_some() && seen == hunk;
            seen += 1;
            found |= take;
            take
        });
        self.repo
            .apply(diff, ApplyLocation::Index, Some(&mut apply))
            .map_err(|e| Some(e.into()))?;
        drop(apply);
        if found { Ok(()) } else { Err(None) }
    }
}

fn missing(path: &str, side: &str, hunk: usize) -> GitError {
    GitError::Unsupported(format!("{path} has no {side} hunk {}", hunk + 1))
}
