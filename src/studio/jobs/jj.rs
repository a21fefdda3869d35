//! The studio's git work in a jj workspace. jj has no staging area: the change is `@`, the
//! working copy, which each status reads through jj (and so snapshots). Its files, diffs and
//! ranking come from `@`'s commit in jj's git store; a commit is `jj commit`, after the checks
//! jj's missing hooks would make; a range's ends are jj revisions.

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use iris_agent::capability::requests::Scope;
use iris_core::artifact::ArtifactKind;
use iris_core::change::{ChangeKind, FileDiff};
use iris_core::secrets::Scanner;
use iris_git::jj::{Jj, JjChange, JjWorkspace};
use iris_git::{DiffTarget, GitRepo};
use iris_studio::action::RepoSnapshot;
use iris_studio::state::FileEntry;

/// jj for the studio's workspace (started by the first job that needs it, on its thread),
/// and `@` as the last status read it.
pub struct JjJobs {
    workspace: JjWorkspace,
    jj: OnceLock<Result<Jj, String>>,
    at: Mutex<Option<At>>,
}

/// `@` as a status read it.
#[derive(Clone)]
struct At {
    /// Its commit in jj's git store.
    commit: String,
    /// Why Iris cannot write from its commit, when she cannot: a conflicted change (its
    /// tree holds jj's conflict files) or a merge (jj shows it against its merged parents,
    /// which are no commit). The list and diffs then come from `jj diff --git`.
    unwritable: Option<String>,
}

impl At {
    fn of(change: &JjChange) -> Self {
        Self {
            commit: change.commit_id.clone(),
            unwritable: crate::shared::jj::not_written_from(change),
        }
    }
}

impl JjJobs {
    /// The jj jobs of the workspace at `root`, when it is one. Only files are looked at
    /// here, as the studio starts; jj itself is started by the first job (the studio checked
    /// it runs before it took the terminal).
    pub fn open(root: &Path) -> Option<Arc<Self>> {
        let workspace = iris_git::jj::workspace_of(root).ok()??;
        Some(Arc::new(Self {
            workspace,
            jj: OnceLock::new(),
            at: Mutex::new(None),
        }))
    }

    /// jj, started once.
    fn jj(&self) -> Result<&Jj, String> {
        self.jj
            .get_or_init(|| Jj::open(&self.workspace).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// `@` as the last status read it, else read now.
    fn at(&self) -> Result<At, String> {
        if let Some(at) = self.at.lock().ok().and_then(|at| at.clone()) {
            return Ok(at);
        }
        let change = self.jj()?.change("@").map_err(|e| e.to_string())?;
        Ok(At::of(&change))
    }

    /// `@`'s files (each "staged": in the change), with where it sits for the status bar,
    /// and `@`'s commit when its files can be ranked from it; `@` is kept for the diffs and
    /// generations that follow.
    pub fn snapshot(&self, repo: &GitRepo) -> Result<(RepoSnapshot, Option<String>), String> {
        let change = self.jj()?.change("@").map_err(|e| e.to_string())?;
        let at = At::of(&change);
        let conflicted: Vec<String> = if change.conflict {
            conflicted_paths(&self.jj()?.conflicts("@").unwrap_or_default())
        } else {
            Vec::new()
        };
        let changed: Vec<(String, ChangeKind)> = match at.unwritable {
            None => repo
                .changed_files(&DiffTarget::Commit(at.commit.clone()))
                .map_err(|e| e.to_string())?
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
            .map(|(path, kind)| FileEntry {
                conflicted: conflicted.contains(&path),
                path,
                staged: Some(kind),
                unstaged: None,
                untracked: false,
                relevance: None,
                secret: None,
            })
            .collect();
        let on = if change.bookmarks.is_empty() {
            String::new()
        } else {
            format!(" ({})", change.bookmarks.join(", "))
        };
        let rankable = at.unwritable.is_none().then(|| at.commit.clone());
        if let Ok(mut kept) = self.at.lock() {
            *kept = Some(at);
        }
        let snapshot = RepoSnapshot {
            branch: format!("jj @ {}{on}", change.short_id),
            head: change
                .parents
                .first()
                .filter(|_| !change.on_root())
                .cloned(),
            files,
            jj_change: Some(change.short_id),
        };
        Ok((snapshot, rankable))
    }

    /// `@`'s own diff as jj shows it (a merge against its merged parents, a conflict as its
    /// markers), parsed.
    fn jj_diff(&self) -> Result<Vec<FileDiff>, String> {
        let text = self.jj()?.diff("@").map_err(|e| e.to_string())?;
        Ok(iris_core::change::parse_unified_diff(&text))
    }

    /// The diff pane's file at `path`: its change in `@` (all of it "staged").
    pub fn file_diff(&self, repo: &GitRepo, path: &str) -> Result<(Vec<FileDiff>, usize), String> {
        let at = self.at()?;
        let files = match at.unwritable {
            None => repo
                .diff_files(&DiffTarget::Commit(at.commit), &[path.to_string()])
                .map_err(|e| e.to_string())?,
            Some(_) => {
                let mut files = self.jj_diff()?;
                files.retain(|f| f.path == path);
                files
            }
        };
        let staged = files.len();
        Ok((files, staged))
    }

    /// The range FROM..TO as commit ids: FROM defaults to `trunk()`, TO (or `HEAD`, the
    /// studio's word for the top) to `@`, or `@-` when `@` is empty. FROM comes back as a
    /// short commit id, which git and jj both read.
    pub fn range(&self, from: Option<&str>, to: Option<&str>) -> Result<(String, String), String> {
        let to = to.filter(|t| *t != "HEAD");
        let (from, to) = crate::shared::jj::range(self.jj()?, from, to).map_err(|e| {
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
                let (from, to) = self.range(None, None)?;
                Ok(Scope::range(&from, &to))
            }
            None => {
                let at = self.at()?;
                match at.unwritable {
                    None => Ok(Scope::Commit(at.commit)),
                    Some(why) => Err(why),
                }
            }
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
        let jj = self.jj().map_err(anyhow::Error::msg)?;
        if !no_verify
            && let Some(why) = crate::shared::jj::refused(repo, jj, "@", message, scanner)?
        {
            anyhow::bail!(
                "not committed: {why} (jj runs no git hooks, so Iris checks; toggle no-verify to \
                 skip)"
            );
        }
        jj.commit(message)?;
        // The change just described is now `@-`.
        let made = jj.change("@-")?;
        let title = made.description.lines().next().unwrap_or_default();
        Ok(format!(
            "jj commit: {} {} {title}",
            made.short_id,
            &made.commit_id[..made.commit_id.len().min(8)]
        ))
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
