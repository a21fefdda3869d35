//! History replayed: a throwaway repository that shows one commit of the user's at a time as
//! a staged change over its parent (see `iris_studio_git::Replay`), so Iris writes a commit's
//! message from its own change with only the history before it in view. `iris eval`,
//! `iris reword` and the studio's reword share it.

use anyhow::{Context, Result};

use iris_studio_agent::IrisAgent;
use iris_studio_git::{GitRepo, Replay};

/// An empty replay of `repo`, its branch named as the user's default branch reads.
pub fn replay_of(repo: &GitRepo) -> Result<Replay> {
    let branch = repo.default_branch().unwrap_or_else(|| "main".to_string());
    Replay::new(repo, &branch)
        .or_else(|_| Replay::new(repo, "main"))
        .context("cannot set up the replay")
}

/// Iris moved to the replay, which shows commit `id` (a full id) staged over its parent:
/// what she writes for the staged change is that commit's message from its own change.
pub fn staged_for(iris: &IrisAgent, replay: &Replay, id: &str) -> Result<IrisAgent> {
    replay.stage(id)?;
    Ok(iris.on_repository(replay.root()))
}
