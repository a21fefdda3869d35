//! The checks of a staged change that every face makes before Iris writes for it.

use anyhow::Result;

use crate::shared::exit::UsageError;
use iris_git::GitRepo;

/// Fails with a usage error (saying `what`) when nothing is staged in `repo`.
pub fn require_staged(repo: &GitRepo, what: &str) -> Result<()> {
    if repo.status()?.staged().count() == 0 {
        return Err(UsageError(what.to_string()).into());
    }
    Ok(())
}
