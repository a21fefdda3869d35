//! Staging and unstaging: a file, a hunk, everything.

use std::path::Path;

use git2::{ApplyLocation, ApplyOptions, DiffOptions, IndexAddOption};

use super::{GitError, GitRepo, Result, check_relative_path};

impl GitRepo {
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
        let clean = check_relative_path(path)?;
        let mut opts = DiffOptions::new();
        opts.pathspec(clean.to_string_lossy().as_ref());
        let diff = self.repo.diff_index_to_workdir(None, Some(&mut opts))?;
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
            .apply(&diff, ApplyLocation::Index, Some(&mut apply))?;
        drop(apply);
        if !found {
            return Err(GitError::Unsupported(format!(
                "{path} has no unstaged hunk {}",
                hunk + 1
            )));
        }
        Ok(())
    }
}
