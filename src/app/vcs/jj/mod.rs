//! The handle on jj (Jujutsu): the change is `@` or the one `-r` names (jj has no staging
//! area), a message is recorded with `jj describe` or `jj commit` after the checks jj's
//! missing hooks would make, revisions are jj's (read as their commits in jj's git store),
//! a split and a reword are made with jj and undone with `jj op restore`.

mod change;
mod reword;
mod split;
mod working;

use std::sync::{Mutex, OnceLock};

use anyhow::{Result, anyhow};

use super::{
    Base, Change, ChangeAsked, GitOnly, HistoryTop, How, Recording, RewordDone, SplitAsked,
    SplitHow, SplitMade, SplitStopped, SplitTarget, Vcs, Working,
};
use crate::output::exit::UsageError;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::change::FileDiff;
use iris_studio_core::split::SplitPlan;
use iris_studio_git::jj::{Jj, JjWorkspace};
use iris_studio_git::split::Progress;
use iris_studio_git::{DiffTarget, GitError, GitRepo, OnRemote, RewordCommit};

/// jj for one workspace: started by the first question that needs it, and `@` as the last
/// status read it.
pub(super) struct JjVcs {
    workspace: JjWorkspace,
    jj: OnceLock<Result<Jj, String>>,
    at: Mutex<Option<working::At>>,
}

impl JjVcs {
    /// The handle on the jj workspace `workspace`; jj is not run yet.
    pub(super) fn new(workspace: JjWorkspace) -> Self {
        Self {
            workspace,
            jj: OnceLock::new(),
            at: Mutex::new(None),
        }
    }

    /// jj, started once (an error naming the install, or the version needed, when it
    /// cannot run).
    fn jj(&self) -> Result<&Jj> {
        self.jj
            .get_or_init(|| Jj::open(&self.workspace).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| GitError::Unsupported(e.clone()).into())
    }
}

impl Vcs for JjVcs {
    fn ready(&self) -> Result<()> {
        self.jj().map(|_| ())
    }

    fn change(&self, _repo: &GitRepo, asked: &ChangeAsked) -> Result<Change> {
        refuse_git_flags(asked)?;
        let rev = asked.rev.unwrap_or("@");
        if asked.recording == Some(How::Commit) && rev != "@" {
            return Err(UsageError(
                "--auto-commit records the working copy (`jj commit` on @); to set another \
                 change's description, use --describe with -r"
                    .into(),
            )
            .into());
        }
        let change = change::change_to_describe(self.jj()?, rev)?;
        Ok(Change {
            scope: Scope::Commit(change.commit_id),
            message: (!change.description.trim().is_empty()).then_some(change.description),
            key: None,
            // By its change id: a commit id goes stale when jj snapshots the working copy.
            target: Some(change.change_id),
            _put_back: None,
        })
    }

    fn record(
        &self,
        repo: &GitRepo,
        change: &Change,
        message: &str,
        how: &Recording,
    ) -> Result<String> {
        let verb = match how.how {
            How::Amend => {
                return Err(UsageError(
                    "amend is git's: in jj, describe the change again (`iris gen -r @- \
                     --describe`)"
                        .into(),
                )
                .into());
            }
            How::Describe => "described",
            How::Commit => "committed",
        };
        let jj = self.jj()?;
        let target = change.target.as_deref().unwrap_or("@");
        let message = message.trim_end();
        if !how.no_verify
            && let Some(why) = change::refused(repo, jj, target, message, how.scanner)?
        {
            return Err(anyhow!(
                "not {verb}: {why} (jj runs no git hooks, so Iris checks; --no-verify skips \
                 the checks)"
            ));
        }
        if how.how == How::Describe {
            return Ok(jj.describe(target, message, false)?);
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

    fn commit(&self, _repo: &GitRepo, rev: &str) -> Result<String> {
        change::commit_of(self.jj()?, rev)
    }

    fn range(
        &self,
        _repo: &GitRepo,
        from: Option<&str>,
        to: Option<&str>,
        _base: Base,
    ) -> Result<(String, String)> {
        change::range(self.jj()?, from, top(to))
    }

    fn pr_branches(
        &self,
        _repo: &GitRepo,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Option<(String, String)>> {
        let (from, to) = change::range_changes(self.jj()?, from, top(to))?;
        change::pr_bookmarks(&from, &to).map(Some)
    }

    fn history_top(&self) -> Result<Option<HistoryTop>> {
        Ok(Some(HistoryTop {
            commit: change::commit_of(self.jj()?, "@-")?,
            said: "changes of jj's @-".into(),
        }))
    }

    fn newest_message(&self, _repo: &GitRepo) -> Result<Option<String>> {
        let jj = self.jj()?;
        let at = jj.change("@")?;
        match at.description.trim().is_empty() {
            true => change::commit_of(jj, "@-").map(Some),
            false => Ok(Some(at.commit_id)),
        }
    }

    fn split_change(&self, repo: &GitRepo, asked: &SplitAsked) -> Result<SplitTarget> {
        let refusal = if asked.staged {
            Some("jj has no staging area: the change split is @ (or the one -r names)")
        } else if asked.checked {
            Some("--check runs on git's index, which a jj split does not use")
        } else {
            None
        };
        if let Some(why) = refusal {
            return Err(UsageError(why.into()).into());
        }
        let found = change::change_to_describe(self.jj()?, asked.rev.unwrap_or("@"))?;
        Ok(SplitTarget {
            change: repo.split_change_of(&found.commit_id)?,
            words: ("changes with jj", "changed"),
            named: Some((found.change_id, found.commit_id, found.short_id)),
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
        let stopped = |error: anyhow::Error| SplitStopped {
            error,
            undoable: false,
        };
        let Some((id, commit, short)) = &target.named else {
            return Err(stopped(anyhow!("the change to split was not read with jj")));
        };
        let jj = self.jj().map_err(stopped)?;
        // The plan holds for the change Iris read: refused if it moved while she planned.
        let now = jj.change(id).map_err(|e| stopped(e.into()))?;
        if &now.commit_id != commit {
            return Err(stopped(anyhow!(
                "the change {short} moved since Iris planned it (files changed, or jj rewrote \
                 it): nothing was split; run iris split again"
            )));
        }
        let report = |group: usize, of: usize, title: &str| {
            step(Progress::Committed {
                group,
                of,
                summary: title.to_string(),
            })
        };
        let before = split::apply(repo, jj, (id, &target.change), plan, how.iris, report)
            .map_err(stopped)?;
        Ok(SplitMade {
            made: plan.groups.len(),
            noun: "change",
            undo: Some(format!("`jj op restore {before}`")),
        })
    }

    fn undo_split(&self, repo: &GitRepo) -> Result<String> {
        split::undo(repo, self.jj()?)
    }

    fn reword_commits(
        &self,
        _repo: &GitRepo,
        revs: &str,
        guard: Option<&str>,
    ) -> Result<Vec<RewordCommit>> {
        reword::commits(self.jj()?, revs, guard)
    }

    fn reword_one(&self, _repo: &GitRepo, rev: &str) -> Result<RewordCommit> {
        let anyway = format!("`iris reword --apply --force {rev}` does it anyway");
        let Some(found) = reword::commits(self.jj()?, rev, Some(&anyway))?
            .into_iter()
            .next()
        else {
            anyhow::bail!("there is no change {rev} to reword");
        };
        if found.merge {
            anyhow::bail!(
                "{} keeps its description: a merge, an empty change or one on jj's root",
                found.short_id
            );
        }
        Ok(found)
    }

    fn apply_reword(
        &self,
        _repo: &GitRepo,
        commits: &[RewordCommit],
        messages: &[(String, String)],
        force: bool,
        _interrupted: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<RewordDone> {
        let before = reword::apply(self.jj()?, commits, messages, force)?;
        let n = messages.len();
        let (s, them) = if n == 1 { ("", "it") } else { ("s", "them") };
        Ok(RewordDone {
            said: format!(
                "Described {n} change{s} anew; `jj op restore {before}` puts {them} back."
            ),
            warning: None,
        })
    }

    fn undo_reword(&self, _repo: &GitRepo) -> Result<String> {
        Err(UsageError(
            "in a jj repository, `jj op restore OP` undoes a reword (the operation is named \
             when it is applied; `jj op log` lists them)"
                .into(),
        )
        .into())
    }

    fn working_diff(&self, _repo: &GitRepo) -> Result<Option<DiffTarget>> {
        self.at_diff()
    }

    fn working(&self, repo: &GitRepo) -> Result<Working> {
        self.at_files(repo)
    }

    fn file_diff(&self, repo: &GitRepo, path: &str) -> Result<(Vec<FileDiff>, usize)> {
        self.at_file_diff(repo, path)
    }

    fn refuses(&self, what: GitOnly) -> Option<String> {
        Some(match what {
            GitOnly::Hooks => "jj runs no git hooks, so a hook would never run here: `iris gen \
                               --describe` or `--auto-commit` writes and sets the description, \
                               checking the commit rules and secrets as a hook would"
                .into(),
            GitOnly::Absorb => "this is a jj repository, where `jj absorb` moves each change \
                                into the commit that last touched its lines; iris absorb works \
                                on git's index"
                .into(),
        })
    }

    fn push_command(&self, remote: &str, branches: &[String], there: OnRemote) -> Option<String> {
        // jj checks the remote's bookmark itself (a lease), and tracks a new one it pushes.
        if matches!(there, OnRemote::Same | OnRemote::Ahead) {
            return None;
        }
        let named: Vec<String> = branches.iter().map(|b| format!("-b {b}")).collect();
        Some(format!("jj git push --remote {remote} {}", named.join(" ")))
    }
}

/// `HEAD`, the word git's faces use for the top, is jj's default end.
fn top(to: Option<&str>) -> Option<&str> {
    to.filter(|t| *t != "HEAD")
}

/// What speaks of git's index and hooks, refused with what jj does instead.
fn refuse_git_flags(asked: &ChangeAsked) -> Result<()> {
    let refusal = if asked.amend || asked.recording == Some(How::Amend) {
        Some(
            "--amend is git's; in a jj repository a change's description is set anew with \
             --describe (-r REV for another change than @)",
        )
    } else if asked.stage_tracked {
        Some("--all stages files, and jj has no staging area: @ already holds every change")
    } else if asked.by_hook {
        Some("jj runs no git hooks; run `iris gen --describe` or `--auto-commit` instead")
    } else {
        None
    };
    match refusal {
        Some(why) => Err(UsageError(why.into()).into()),
        None => Ok(()),
    }
}
