//! PR mode's reword, its git side: the commit checked and replayed for Iris to write its
//! message anew, and the commit given the message the user said yes to.

use std::path::Path;

use anyhow::{Result, bail};
use tokio::sync::mpsc::UnboundedSender;

use crate::shared::replayed::{replay_of, staged_for};
use iris_agent::IrisAgent;
use iris_git::{GitRepo, Replay, RewordCommit};
use iris_studio::action::Action;

/// Checks `commit` can be reworded here (on HEAD's history, no merge, not on a remote) and
/// replays it: the replay (kept while Iris works), Iris moved there, and the commit.
pub fn prepare(
    iris: &IrisAgent,
    root: &Path,
    commit: &str,
) -> Result<(Replay, IrisAgent, RewordCommit)> {
    let repo = GitRepo::discover(root)?;
    if let Some(jj) = crate::shared::jj::open(&repo)? {
        let Some(found) = crate::shared::jj_reword::commits(&jj, commit, false)?
            .into_iter()
            .next()
        else {
            bail!("there is no change {commit} to reword");
        };
        if found.merge {
            bail!(
                "{} keeps its description: a merge, an empty change or one on jj's root",
                found.short_id
            );
        }
        let replay = replay_of(&repo)?;
        let there = staged_for(iris, &replay, &found.id)?;
        return Ok((replay, there, found));
    }
    let Some(found) = repo.reword_range(commit)?.into_iter().next() else {
        bail!("there is no commit {commit} to reword");
    };
    if found.merge {
        bail!("{} is a merge: it keeps its message", found.short_id);
    }
    let anyway = format!(
        "`iris reword --apply --force {}` does it anyway",
        found.short_id
    );
    repo.refuse_published(std::slice::from_ref(&found.id), &anyway)?;
    let replay = replay_of(&repo)?;
    let there = staged_for(iris, &replay, &found.id)?;
    Ok((replay, there, found))
}

/// Gives `commit` its new `message`, off the UI thread; what happened comes back as
/// [`Action::Reworded`].
pub fn apply(tx: &UnboundedSender<Action>, root: &Path, commit: String, message: String) {
    let (tx, root) = (tx.clone(), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let jj = GitRepo::discover(&root)
            .map_err(anyhow::Error::from)
            .and_then(|repo| crate::shared::jj::open(&repo));
        match jj {
            Ok(Some(jj)) => {
                let described = describe(&jj, commit, message).map_err(|e| format!("{e:#}"));
                let _ = tx.send(Action::Reworded(described));
                return;
            }
            Ok(None) => {}
            Err(err) => {
                let _ = tx.send(Action::Reworded(Err(format!("{err:#}"))));
                return;
            }
        }
        let result = GitRepo::discover(&root)
            .and_then(|repo| repo.reword(&[(commit, message)], None))
            .map(|done| {
                let made = done.rewritten;
                let warning = done
                    .unsigned_warning()
                    .map(|w| format!("; warning: {w}"))
                    .unwrap_or_default();
                format!(
                    "Reworded: {made} commit{} made again, HEAD is at {}; `iris reword --undo` \
                     puts the branch back{warning}",
                    if made == 1 { "" } else { "s" },
                    &done.head[..12.min(done.head.len())]
                )
            })
            .map_err(|e| e.to_string());
        let _ = tx.send(Action::Reworded(result));
    });
}

/// In a jj workspace: `commit`'s change described anew with `jj describe`.
fn describe(jj: &iris_git::jj::Jj, commit: String, message: String) -> Result<String> {
    let commits = crate::shared::jj_reword::commits(jj, &commit, false)?;
    let short = commits
        .first()
        .map_or(commit.clone(), |c| c.short_id.clone());
    let before = crate::shared::jj_reword::apply(jj, &commits, &[(commit, message)], false)?;
    Ok(format!(
        "Described {short} anew with jj; `jj op restore {before}` puts it back"
    ))
}
