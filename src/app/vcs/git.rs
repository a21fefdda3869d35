//! The handle on git: the change is the index (or HEAD amended), a message is recorded with
//! `git commit` (its hooks make the checks), revisions are git's, checked before anything
//! runs.

use anyhow::{Result, anyhow};

use super::{
    Base, Change, ChangeAsked, GitOnly, HistoryTop, How, Recording, RewordDone, SplitAsked,
    SplitHow, SplitMade, SplitStopped, SplitTarget, Vcs, Working,
};
use crate::app::stores::ChangeKey;
use crate::output::exit::UsageError;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::change::FileDiff;
use iris_studio_core::split::SplitPlan;
use iris_studio_git::split::{ApplyOptions, Progress};
use iris_studio_git::{CommitOptions, DiffTarget, GitRepo, OnRemote, RewordCommit};

/// git: needs nothing but the repository each question is given.
#[derive(Debug, Clone, Copy, Default)]
pub struct Git;

impl Vcs for Git {
    fn ready(&self) -> Result<()> {
        Ok(())
    }

    fn change(&self, repo: &GitRepo, asked: &ChangeAsked) -> Result<Change> {
        let describe = asked.recording == Some(How::Describe);
        if asked.rev.is_some() || describe {
            let flag = if describe { "--describe" } else { "--rev" };
            return Err(UsageError(format!(
                "{flag} is for jj repositories (or --rev with --check); this is a git \
                 repository: iris gen writes for the staged changes"
            ))
            .into());
        }
        // As `git commit -a`: what is staged to write a message nobody records goes back to
        // how it was.
        let put_back = match (asked.stage_tracked, asked.recording) {
            (true, None) => Some(std::sync::Arc::new(PutBack(repo.keep_index()?))),
            _ => None,
        };
        if asked.stage_tracked {
            repo.stage_tracked()?;
        }
        if asked.unstaged {
            if let Some(none) = asked.nothing_staged {
                require_change(repo, none, true)?;
            }
            return Ok(Change {
                scope: Scope::Uncommitted,
                message: None,
                key: None,
                target: None,
                _put_back: put_back,
            });
        }
        let message = match asked.amend {
            true => Some(repo.commit_info("HEAD")?.message),
            false => {
                if let Some(none) = asked.nothing_staged {
                    require_change(repo, none, false)?;
                }
                None
            }
        };
        Ok(Change {
            scope: if asked.amend {
                Scope::Amend
            } else {
                Scope::Staged
            },
            message,
            // Read once (it writes the index's tree).
            key: asked
                .keyed
                .then(|| ChangeKey::staged(repo, asked.amend).ok())
                .flatten(),
            target: None,
            _put_back: put_back,
        })
    }

    fn record(
        &self,
        repo: &GitRepo,
        _change: &Change,
        message: &str,
        how: &Recording,
    ) -> Result<String> {
        let amend = match how.how {
            How::Commit => false,
            How::Amend => true,
            How::Describe => {
                return Err(UsageError("a description is jj's: git commits".into()).into());
            }
        };
        let options = CommitOptions {
            amend,
            no_verify: how.no_verify,
        };
        Ok(repo.commit(message, options)?)
    }

    fn commit(&self, repo: &GitRepo, rev: &str) -> Result<String> {
        checked(repo, &[rev])?;
        Ok(rev.to_string())
    }

    fn range(
        &self,
        repo: &GitRepo,
        from: Option<&str>,
        to: Option<&str>,
        base: Base,
    ) -> Result<(String, String)> {
        let from = match from {
            Some(from) => from.to_string(),
            None => base_of(repo, base)?,
        };
        let to = to.unwrap_or("HEAD").to_string();
        checked(repo, &[&from, &to])?;
        Ok((from, to))
    }

    fn pr_branches(
        &self,
        _repo: &GitRepo,
        _from: Option<&str>,
        _to: Option<&str>,
    ) -> Result<Option<(String, String)>> {
        // The branch checked out, into the forge's base: the publisher finds them.
        Ok(None)
    }

    fn history_top(&self) -> Result<Option<HistoryTop>> {
        Ok(None)
    }

    fn newest_message(&self, repo: &GitRepo) -> Result<Option<String>> {
        Ok(repo.head_id()?.map(|_| "HEAD".to_string()))
    }

    fn split_change(&self, repo: &GitRepo, asked: &SplitAsked) -> Result<SplitTarget> {
        if asked.rev.is_some() {
            return Err(UsageError(
                "-r is for jj repositories: in git, iris split takes apart the uncommitted change"
                    .into(),
            )
            .into());
        }
        let change = repo.split_change(asked.staged)?;
        if change.is_empty() {
            let what = if asked.staged {
                "staged change"
            } else {
                "change"
            };
            return Err(UsageError(format!("there is no {what} to split")).into());
        }
        Ok(SplitTarget {
            change,
            words: ("commits", "committed"),
            named: None,
        })
    }

    fn apply_split(
        &self,
        repo: &GitRepo,
        target: &SplitTarget,
        plan: &SplitPlan,
        how: &SplitHow,
        step: &mut dyn FnMut(Progress),
    ) -> std::result::Result<SplitMade, SplitStopped> {
        let options = ApplyOptions {
            check: how.check,
            interrupted: how.interrupted,
            ..ApplyOptions::default()
        };
        match repo.apply_split(&target.change, plan, options, step) {
            Ok(applied) => Ok(SplitMade {
                made: applied.commits.len(),
                noun: "commit",
                undo: None,
            }),
            Err(stop) => Err(SplitStopped {
                undoable: stop.saved,
                error: anyhow!(stop),
            }),
        }
    }

    fn undo_split(&self, repo: &GitRepo) -> Result<String> {
        Ok(repo.undo_split()?.to_string())
    }

    fn reword_commits(
        &self,
        repo: &GitRepo,
        revs: &str,
        guard: Option<&str>,
    ) -> Result<Vec<RewordCommit>> {
        let ends: Vec<&str> = match revs.split_once("..") {
            Some((from, to)) => [from, to.trim_start_matches('.')]
                .into_iter()
                .filter(|r| !r.is_empty())
                .collect(),
            None => vec![revs],
        };
        checked(repo, &ends)?;
        let commits = repo
            .reword_range(revs)
            .map_err(|e| UsageError(e.to_string()))?;
        if let Some(anyway) = guard {
            let ids: Vec<String> = commits.iter().map(|c| c.id.clone()).collect();
            repo.refuse_published(&ids, anyway)
                .map_err(|e| UsageError(e.to_string()))?;
        }
        Ok(commits)
    }

    fn reword_one(&self, repo: &GitRepo, rev: &str) -> Result<RewordCommit> {
        let Some(found) = repo.reword_range(rev)?.into_iter().next() else {
            anyhow::bail!("there is no commit {rev} to reword");
        };
        if found.merge {
            anyhow::bail!("{} is a merge: it keeps its message", found.short_id);
        }
        let anyway = format!(
            "`iris reword --apply --force {}` does it anyway",
            found.short_id
        );
        repo.refuse_published(std::slice::from_ref(&found.id), &anyway)?;
        Ok(found)
    }

    fn apply_reword(
        &self,
        repo: &GitRepo,
        _commits: &[RewordCommit],
        messages: &[(String, String)],
        _force: bool,
        interrupted: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<RewordDone> {
        let done = repo.reword(messages, interrupted)?;
        let s = |n: usize| if n == 1 { "" } else { "s" };
        Ok(RewordDone {
            said: format!(
                "Reworded {} commit{} ({} made again, HEAD is at {}); `iris reword --undo` puts \
                 the branch back.",
                done.reworded,
                s(done.reworded),
                done.rewritten,
                &done.head[..12.min(done.head.len())]
            ),
            warning: done.unsigned_warning(),
        })
    }

    fn undo_reword(&self, repo: &GitRepo) -> Result<String> {
        let head = repo.undo_reword()?;
        Ok(format!(
            "Undid the reword: the branch is back at {}.",
            &head[..12.min(head.len())]
        ))
    }

    fn working_diff(&self, _repo: &GitRepo) -> Result<Option<DiffTarget>> {
        Ok(Some(DiffTarget::Staged))
    }

    fn working(&self, repo: &GitRepo) -> Result<Working> {
        let status = repo.status()?;
        Ok(Working {
            on: status.head.to_string(),
            head: repo.head_id()?,
            files: status.entries,
            change_id: None,
            // Writes the index's tree (as a commit would), so the staged change has a name.
            key: ChangeKey::staged(repo, false)
                .ok()
                .map(|key| key.to_string()),
        })
    }

    /// The file's staged changes, then its unstaged ones; an untracked file shows as added
    /// (unstaged).
    fn file_diff(&self, repo: &GitRepo, path: &str) -> Result<(Vec<FileDiff>, usize)> {
        let paths = [path.to_string()];
        let mut files = repo.diff_files(&DiffTarget::Staged, &paths)?;
        let staged = files.len();
        files.extend(repo.diff_files(&DiffTarget::Unstaged, &paths)?);
        if !files.is_empty() || repo.root().join(path).is_dir() || !repo.is_untracked(path)? {
            return Ok((files, staged));
        }
        let patch = repo.untracked_file_patch(path)?;
        Ok((iris_studio_core::change::parse_unified_diff(&patch), 0))
    }

    fn refuses(&self, _what: GitOnly) -> Option<String> {
        None
    }

    fn push_command(&self, remote: &str, branches: &[String], there: OnRemote) -> Option<String> {
        let how = match there {
            OnRemote::Missing => "-u ",
            OnRemote::Behind => "",
            OnRemote::Diverged => "--force-with-lease ",
            OnRemote::Same | OnRemote::Ahead => return None,
        };
        Some(format!("git push {how}{remote} {}", branches.join(" ")))
    }
}

/// The index as it was before `--all` staged every tracked file, put back when dropped;
/// a failure is said, with the index left staged.
#[derive(Debug)]
pub(in crate::app::vcs) struct PutBack(iris_studio_git::IndexKept);

impl Drop for PutBack {
    fn drop(&mut self) {
        if let Err(err) = self.0.put_back() {
            eprintln!("warning: the tracked files stay staged: {err}");
        }
    }
}

/// Fails with a usage error (saying `what`) when nothing is staged in `repo` (nor, with
/// `unstaged`, changed in a tracked file): a request about it would be about nothing.
fn require_change(repo: &GitRepo, what: &str, unstaged: bool) -> Result<()> {
    let status = repo.status()?;
    let changed = |e: &&iris_studio_git::StatusEntry| {
        e.staged.is_some() || (unstaged && e.unstaged.is_some())
    };
    if !status.entries.iter().any(|e| changed(&e)) {
        return Err(UsageError(what.to_string()).into());
    }
    Ok(())
}

/// Where a range starts when none is named, or why there is no such place.
fn base_of(repo: &GitRepo, base: Base) -> Result<String> {
    let found = match base {
        Base::Named(missing) => return Err(UsageError(missing.into()).into()),
        Base::DefaultBranch(missing) => repo.default_branch().ok_or(missing),
        Base::LatestTag(missing) => repo
            .latest_tag()
            .or_else(|| repo.default_branch())
            .ok_or(missing),
        Base::Parent => Ok("HEAD~1".to_string()),
    };
    found.map_err(|missing| UsageError(missing.into()).into())
}

/// Fails on the first of `revs` that names no commit in `repo`, naming the branch or tag it
/// is likeliest a typo of: checked before anything runs, so a typo costs no model time.
fn checked(repo: &GitRepo, revs: &[&str]) -> Result<()> {
    UsageError::unless_revisions(repo, revs)
}
