//! The change being made in a jj workspace, as the studio lists it. jj has no staging area:
//! the change is `@`, the working copy, which each status reads through jj (and so
//! snapshots). Its files, diffs and ranking come from `@`'s commit in jj's git store; a
//! conflicted change or a merge is listed as jj shows its own diff.

use anyhow::Result;

use super::JjVcs;
use crate::app::vcs::Working;
use iris_studio_core::change::{ChangeKind, FileDiff};
use iris_studio_git::jj::JjChange;
use iris_studio_git::{DiffTarget, GitRepo, StatusEntry};

/// `@` as a status read it.
#[derive(Clone)]
pub(super) struct At {
    change: JjChange,
    /// Why Iris cannot write from its commit, when she cannot: a conflicted change (its
    /// tree holds jj's conflict files) or a merge (jj shows it against its merged parents,
    /// which are no commit). The list and diffs then come from `jj diff --git`.
    unwritable: Option<String>,
}

impl JjVcs {
    /// `@` read now, kept for the diffs that follow.
    fn read_at(&self) -> Result<At> {
        let change = self.jj()?.change("@")?;
        let at = At {
            unwritable: super::change::not_written_from(&change),
            change,
        };
        if let Ok(mut kept) = self.at.lock() {
            *kept = Some(at.clone());
        }
        Ok(at)
    }

    /// `@` as the last status read it, else read now.
    fn at(&self) -> Result<At> {
        match self.at.lock().ok().and_then(|at| at.clone()) {
            Some(at) => Ok(at),
            None => self.read_at(),
        }
    }

    /// `@`'s commit when its files can be ranked from it (`@` read anew).
    pub(super) fn at_diff(&self) -> Result<Option<DiffTarget>> {
        let at = self.read_at()?;
        let commit = DiffTarget::Commit(at.change.commit_id);
        Ok(at.unwritable.is_none().then_some(commit))
    }

    /// `@`'s files (each "staged": in the change), with where it sits for the status bar.
    pub(super) fn at_files(&self, repo: &GitRepo) -> Result<Working> {
        let At { change, unwritable } = self.at()?;
        let conflicted: Vec<String> = if change.conflict {
            conflicted_paths(&self.jj()?.conflicts("@").unwrap_or_default())
        } else {
            Vec::new()
        };
        let changed: Vec<(String, ChangeKind)> = match unwritable {
            None => repo
                .changed_files(&DiffTarget::Commit(change.commit_id.clone()))?
                .into_iter()
                .map(|f| (f.path, f.kind))
                .collect(),
            Some(_) => self
                .jj_diff()?
                .into_iter()
                .map(|f| (f.path, f.kind))
                .collect(),
        };
        let files = changed
            .into_iter()
            .map(|(path, kind)| StatusEntry {
                conflicted: conflicted.contains(&path),
                path,
                old_path: None,
                staged: Some(kind),
                unstaged: None,
                untracked: false,
            })
            .collect();
        let on = if change.bookmarks.is_empty() {
            String::new()
        } else {
            format!(" ({})", change.bookmarks.join(", "))
        };
        Ok(Working {
            on: format!("jj @ {}{on}", change.short_id),
            head: change
                .parents
                .first()
                .filter(|_| !change.on_root())
                .cloned(),
            files,
            key: Some(format!("jj change {}", change.short_id)),
            change_id: Some(change.short_id),
        })
    }

    /// `@`'s own diff as jj shows it (a merge against its merged parents, a conflict as its
    /// markers), parsed.
    fn jj_diff(&self) -> Result<Vec<FileDiff>> {
        let text = self.jj()?.diff("@")?;
        Ok(iris_studio_core::change::parse_unified_diff(&text))
    }

    /// The diff pane's file at `path`: its change in `@` (all of it "staged").
    pub(super) fn at_file_diff(
        &self,
        repo: &GitRepo,
        path: &str,
    ) -> Result<(Vec<FileDiff>, usize)> {
        let at = self.at()?;
        let files = match at.unwritable {
            None => repo.diff_files(
                &DiffTarget::Commit(at.change.commit_id),
                &[path.to_string()],
            )?,
            Some(_) => {
                let mut files = self.jj_diff()?;
                files.retain(|f| f.path == path);
                files
            }
        };
        let staged = files.len();
        Ok((files, staged))
    }
}

/// The paths of `jj resolve --list`'s lines (`a.txt    2-sided conflict`).
fn conflicted_paths(list: &str) -> Vec<String> {
    list.lines()
        .filter_map(|line| {
            let path = line.split("    ").next()?.trim();
            (!path.is_empty()).then(|| path.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflicted_paths_are_read_from_jj_s_list() {
        let list =
            "a.txt    2-sided conflict\nsrc/b c.rs    2-sided conflict including 1 deletion\n";
        assert_eq!(conflicted_paths(list), ["a.txt", "src/b c.rs"]);
        assert!(conflicted_paths("").is_empty());
    }
}
