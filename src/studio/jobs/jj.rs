//! The studio's git work in a jj workspace. jj has no staging area: the change is `@`, the
//! working copy, which each status reads through jj (and so snapshots). Its files, diffs and
//! ranking come from `@`'s commit in jj's git store; a commit is `jj commit`, after the checks
//! jj's missing hooks would make; a range's ends are jj revisions.

use std::path::Path;
use std::sync::{Arc, Mutex};

use iris_agent::capability::requests::Scope;
use iris_core::artifact::ArtifactKind;
use iris_core::change::FileDiff;
use iris_core::secrets::Scanner;
use iris_git::jj::Jj;
use iris_git::{DiffTarget, GitRepo};
use iris_studio::action::RepoSnapshot;
use iris_studio::state::FileEntry;

/// jj for the studio's workspace, and `@`'s commit as the last status read it.
pub struct JjJobs {
    jj: Jj,
    at: Mutex<Option<String>>,
}

impl JjJobs {
    /// jj for the workspace at `root`, when it is one and jj runs (the studio refuses to
    /// start otherwise, saying why).
    pub fn open(root: &Path) -> Option<Arc<Self>> {
        let repo = GitRepo::discover(root).ok()?;
        let jj = Jj::open(repo.jj_workspace()?).ok()?;
        Some(Arc::new(Self {
            jj,
            at: Mutex::new(None),
        }))
    }

    /// `@`'s commit as the last status read it, else read now.
    fn at(&self) -> Result<String, String> {
        if let Some(at) = self.at.lock().ok().and_then(|at| at.clone()) {
            return Ok(at);
        }
        let change = self.jj.change("@").map_err(|e| e.to_string())?;
        Ok(change.commit_id)
    }

    /// `@`'s files (each "staged": in the change), with where it sits for the status bar;
    /// `@`'s commit is kept for the diffs and generations that follow.
    pub fn snapshot(&self, repo: &GitRepo) -> Result<(RepoSnapshot, String), String> {
        let change = self.jj.change("@").map_err(|e| e.to_string())?;
        let conflicted: Vec<String> = if change.conflict {
            conflicted_paths(&self.jj.conflicts("@").unwrap_or_default())
        } else {
            Vec::new()
        };
        let files = repo
            .changed_files(&DiffTarget::Commit(change.commit_id.clone()))
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|f| FileEntry {
                conflicted: conflicted.contains(&f.path),
                path: f.path,
                staged: Some(f.kind),
                unstaged: None,
                untracked: false,
                relevance: None,
                secret: None,
            })
            .collect();
        let parent = change.parents.first().cloned();
        let on = if change.bookmarks.is_empty() {
            String::new()
        } else {
            format!(" ({})", change.bookmarks.join(", "))
        };
        if let Ok(mut at) = self.at.lock() {
            *at = Some(change.commit_id.clone());
        }
        let snapshot = RepoSnapshot {
            branch: format!("jj @ {}{on}", change.short_id),
            head: parent.filter(|p| !p.bytes().all(|b| b == b'0')),
            files,
            jj_change: Some(change.short_id),
        };
        Ok((snapshot, change.commit_id))
    }

    /// The diff pane's file at `path`: its change in `@` (all of it "staged").
    pub fn file_diff(&self, repo: &GitRepo, path: &str) -> Result<(Vec<FileDiff>, usize), String> {
        let files = repo
            .diff_files(&DiffTarget::Commit(self.at()?), &[path.to_string()])
            .map_err(|e| e.to_string())?;
        let staged = files.len();
        Ok((files, staged))
    }

    /// The range FROM..TO as commit ids: FROM defaults to `trunk()`, TO (or `HEAD`, the
    /// studio's word for the top) to `@`, or `@-` when `@` is empty. FROM comes back as a
    /// short commit id, which git and jj both read.
    pub fn range(&self, from: Option<&str>, to: Option<&str>) -> Result<(String, String), String> {
        let to = to.filter(|t| *t != "HEAD");
        let (from, to) = crate::shared::jj::range(&self.jj, from, to).map_err(|e| {
            let said = format!("{e:#}");
            format!("{said}: R picks the range")
        })?;
        Ok((from[..from.len().min(12)].to_string(), to))
    }

    /// What a generation of `kind` covers: `@`'s change, or the range's commits.
    pub fn scope(
        &self,
        kind: ArtifactKind,
        range: Option<(String, String)>,
    ) -> Result<Scope, String> {
        match range {
            Some((from, to)) => {
                let (from, to) = self.range(Some(&from), Some(&to))?;
                Ok(Scope::range(&from, &to))
            }
            None if kind.uses_range() => {
                let (from, to) = self.range(Some("@-"), None)?;
                Ok(Scope::range(&from, &to))
            }
            None => Ok(Scope::Commit(self.at()?)),
        }
    }

    /// Records `@` with `message` (`jj commit`: `@` described, a new empty change on top),
    /// after the commit rules and the secret scan unless `no_verify`.
    pub fn commit(
        &self,
        repo: &GitRepo,
        message: &str,
        amend: bool,
        no_verify: bool,
        scanner: Option<&Scanner>,
    ) -> anyhow::Result<String> {
        if amend {
            anyhow::bail!(
                "amend is git's: in jj, describe the change again (`iris gen -r @- --describe`)"
            );
        }
        let message = message.trim_end();
        if !no_verify
            && let Some(why) = crate::shared::jj::refused(repo, &self.jj, "@", message, scanner)?
        {
            anyhow::bail!(
                "not committed: {why} (jj runs no git hooks, so Iris checks; toggle no-verify to \
                 skip)"
            );
        }
        let said = self.jj.commit(message)?;
        // jj's line for the change just described: `Parent commit (@-)      : abc 123 Title`.
        let made = said
            .lines()
            .find_map(|l| l.strip_prefix("Parent commit (@-)"))
            .and_then(|rest| rest.split_once(':'))
            .map(|(_, what)| what.trim().to_string());
        Ok(match made {
            Some(what) => format!("jj commit: {what}"),
            None => "committed with jj commit".to_string(),
        })
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
