//! Committing a plan's groups in order: each group built in the index from HEAD's version of
//! its files and the hunks of every group so far, checked in a temporary worktree when asked,
//! then committed through `git commit` (hooks and signing apply). The state before is saved
//! first; a stop leaves the commits made so far and the rest as it was.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use git2::Index;

use super::check::CheckTree;
use super::state::Saved;
use super::{Rewrite, SplitChange, entry_of};
use crate::{CommitOptions, GitError, GitRepo, Result};
use iris_studio_core::split::SplitPlan;

/// How far an apply is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// The check runs on group `group`'s tree (1-based, of `of`).
    Checking {
        /// The group, 1-based.
        group: usize,
        /// How many groups the plan has.
        of: usize,
    },
    /// `git commit` runs for group `group`.
    Committing {
        /// The group, 1-based.
        group: usize,
        /// How many groups the plan has.
        of: usize,
        /// The first line of the group's message.
        title: String,
    },
    /// Group `group` is committed; `summary` is git's line for it.
    Committed {
        /// The group, 1-based.
        group: usize,
        /// How many groups the plan has.
        of: usize,
        /// The summary line `git commit` printed.
        summary: String,
    },
}

/// What the loop over the groups needs besides the plan.
#[derive(Clone, Copy)]
struct Run<'a> {
    check: Option<(&'a str, &'a CheckTree)>,
    interrupted: Option<&'a AtomicBool>,
    what: Rewrite,
}

/// A plan applied whole: each commit's id and git's summary line, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// One `(id, summary)` per group, in the plan's order.
    pub commits: Vec<(String, String)>,
}

/// Where and why an apply stopped; the commits made before stand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitStop {
    /// The `(id, summary)` of each commit made before the stop, in order.
    pub commits: Vec<(String, String)>,
    /// The group (1-based) it stopped at, when it got as far as one.
    pub group: Option<usize>,
    /// How many groups the plan has.
    pub of: usize,
    /// What went wrong, as the user reads it.
    pub why: String,
    /// Whether the state before was saved (`iris split --undo` restores it).
    pub saved: bool,
    /// Which command stopped.
    pub what: Rewrite,
}

impl std::fmt::Display for SplitStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.group {
            Some(group) => write!(f, "stopped at commit {group} of {}: {}", self.of, self.why)?,
            None => write!(f, "the split did not start: {}", self.why)?,
        }
        let made = self.commits.len();
        if made > 0 {
            let s = if made == 1 { "" } else { "s" };
            write!(
                f,
                "; {made} commit{s} made before it stand, the rest of the change is in the working tree as it was"
            )?;
        } else if self.group.is_some() {
            write!(
                f,
                "; no commit was made, the index and the working tree are as they were"
            )?;
        }
        if self.saved {
            let name = self.what.name();
            write!(
                f,
                "; `iris {name} --undo` restores the state from before the {name}"
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for SplitStop {}

/// How a split is applied.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApplyOptions<'a> {
    /// A command run on each group's tree in a temporary worktree before it is committed;
    /// the first that fails stops the split.
    pub check: Option<&'a str>,
    /// Set (by ctrl-c) to stop before the next group.
    pub interrupted: Option<&'a AtomicBool>,
    /// Which command applies: its state is saved, and undone, apart from the other's.
    pub what: Rewrite,
    /// For a staged change: what the plan leaves out stays staged (the index is as it was
    /// for every path the plan does not commit).
    pub rest_stays_staged: bool,
}

impl GitRepo {
    /// Commits `plan`'s groups in order (the plan must be checked against `change`'s units).
    pub fn apply_split(
        &self,
        change: &SplitChange,
        plan: &SplitPlan,
        options: ApplyOptions<'_>,
        mut progress: impl FnMut(Progress),
    ) -> std::result::Result<Applied, SplitStop> {
        let check = options.check;
        let of = plan.groups.len();
        let stop = |why: String, saved: bool| SplitStop {
            commits: Vec::new(),
            group: None,
            of,
            why,
            saved,
            what: options.what,
        };
        let head = self.head_commit().ok().flatten().map(|c| c.id());
        if head != Some(change.head) {
            return Err(stop(
                "HEAD moved since the change was read; plan again".into(),
                false,
            ));
        }
        let checker = match check {
            Some(_) => Some(CheckTree::new(self).map_err(|e| stop(e.to_string(), false))?),
            None => None,
        };
        let saved = self
            .save_split_state(change, options.what)
            .map_err(|e| stop(e.to_string(), false))?;
        let mut commits = Vec::new();
        let run = Run {
            check: check.zip(checker.as_ref()),
            interrupted: options.interrupted,
            what: options.what,
        };
        let mut result = self.commit_groups(change, plan, run, &mut commits, &mut progress);
        if result.is_ok() && options.rest_stays_staged && change.staged {
            // The index as it was: against the new HEAD it holds just what was left out.
            result = self
                .write_index_bytes(saved.index.as_deref())
                .map_err(|e| (None, format!("the index could not be put back: {e}")));
        }
        match result {
            Ok(()) => Ok(Applied { commits }),
            Err((group, why)) => {
                let restored = self.after_stop(change, &saved, commits.len());
                let why = match restored {
                    Ok(()) => why,
                    Err(e) => format!("{why} (and the index could not be put back: {e})"),
                };
                Err(SplitStop {
                    commits,
                    group,
                    of,
                    why,
                    saved: true,
                    what: options.what,
                })
            }
        }
    }

    /// Builds and commits each group; the group (1-based) and why on the first failure.
    fn commit_groups(
        &self,
        change: &SplitChange,
        plan: &SplitPlan,
        run: Run<'_>,
        commits: &mut Vec<(String, String)>,
        progress: &mut impl FnMut(Progress),
    ) -> std::result::Result<(), (Option<usize>, String)> {
        let of = plan.groups.len();
        let failed = |group: usize| move |e: GitError| (Some(group), e.to_string());
        self.reset_split_index(change)
            .map_err(|e| (None, e.to_string()))?;
        for (k, group) in plan.groups.iter().enumerate() {
            let number = k + 1;
            if run.interrupted.is_some_and(|i| i.load(Ordering::SeqCst)) {
                return Err((Some(number), "interrupted".to_string()));
            }
            let mut index = self.repo.index().map_err(|e| failed(number)(e.into()))?;
            self.stage_upto(change, plan, k, &mut index)
                .map_err(failed(number))?;
            index.write().map_err(|e| failed(number)(e.into()))?;
            if let Some((command, tree)) = run.check {
                progress(Progress::Checking { group: number, of });
                let id = index.write_tree().map_err(|e| failed(number)(e.into()))?;
                if let Some(why) = tree.run(id, command).map_err(failed(number))? {
                    return Err((Some(number), format!("the check `{command}` failed: {why}")));
                }
            }
            progress(Progress::Committing {
                group: number,
                of,
                title: group.title().to_string(),
            });
            let summary = self
                .commit(&group.message, CommitOptions::default())
                .map_err(failed(number))?;
            let id = self.head_id().map_err(failed(number))?.unwrap_or_default();
            self.mark_split_top(&id, run.what).map_err(failed(number))?;
            commits.push((id, summary.clone()));
            progress(Progress::Committed {
                group: number,
                of,
                summary,
            });
        }
        Ok(())
    }

    /// The index before the first group: HEAD's version of what the split writes. Without
    /// `--staged` the whole index is HEAD's, so nothing staged outside the plan slips in.
    fn reset_split_index(&self, change: &SplitChange) -> Result<()> {
        let mut index = self.repo.index()?;
        let tree = self.repo.find_commit(change.head)?.tree()?;
        if change.staged {
            for path in change.paths() {
                match entry_of(&tree, &path) {
                    Ok(entry) => index.add(&entry)?,
                    Err(_) => index.remove_path(Path::new(&path))?,
                }
            }
        } else {
            index.read_tree(&tree)?;
        }
        Ok(index.write()?)
    }

    /// Writes in `index` the files group `k` (0-based) touches, with the units of every group
    /// up to it.
    fn stage_upto(
        &self,
        change: &SplitChange,
        plan: &SplitPlan,
        k: usize,
        index: &mut Index,
    ) -> Result<()> {
        let taken: HashSet<&str> = plan.groups[..=k]
            .iter()
            .flat_map(|g| g.hunks.iter().map(String::as_str))
            .collect();
        let files: BTreeSet<usize> = plan.groups[k]
            .hunks
            .iter()
            .filter_map(|id| change.units.iter().find(|u| &u.id == id))
            .map(|u| u.file)
            .collect();
        for file in files {
            let sides = &change.sides[file];
            match &sides.cut {
                Some(cut) => {
                    let take: Vec<bool> = change
                        .units
                        .iter()
                        .filter(|u| u.file == file)
                        .map(|u| taken.contains(u.id.as_str()))
                        .collect();
                    // The file's units are its hunks, in order.
                    let content =
                        iris_studio_core::split::compose(&cut.old, &cut.new, &cut.spans, |i| {
                            take.get(i).copied().unwrap_or(false)
                        })
                        .ok_or_else(|| {
                            GitError::Unsupported(format!(
                                "the hunks of {} no longer apply",
                                change.files[file].path
                            ))
                        })?;
                    index.add_frombuffer(&cut.head_entry, &content)?;
                }
                None => {
                    if let Some(old) = &sides.old_path
                        && sides.new_path.as_ref() != Some(old)
                    {
                        index.remove_path(Path::new(old))?;
                    }
                    match (&sides.new_path, &sides.staged_entry) {
                        (Some(_), Some(entry)) => index.add(entry)?,
                        (Some(path), None) if change.staged => {
                            index.remove_path(Path::new(path))?
                        }
                        (Some(path), None) => index.add_path(Path::new(path))?,
                        (None, _) => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// After a stop: with no commit made, or with only staged changes split, the index as it
    /// was (what is left of the plan is exactly what was staged); else HEAD's, the rest of
    /// the change left in the working tree.
    fn after_stop(&self, change: &SplitChange, saved: &Saved, made: usize) -> Result<()> {
        if made == 0 || change.staged {
            return self.write_index_bytes(saved.index.as_deref());
        }
        let mut index = self.repo.index()?;
        let head = self
            .head_commit()?
            .ok_or_else(|| GitError::Unsupported("no HEAD".into()))?;
        index.read_tree(&head.tree()?)?;
        Ok(index.write()?)
    }
}
