//! `git show`: a commit's message, metadata, stat and patch.

use serde::Serialize;

use super::{ChangedFile, CommitInfo, DiffTarget, GitRepo, Result};

/// A commit as `git show` tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShownCommit {
    /// Its id, author and message.
    pub commit: CommitInfo,
    /// The committer's name (who applied it, not always its author).
    pub committer_name: String,
    /// The committer's email.
    pub committer_email: String,
    /// Every file it changes against its first parent (not limited to `paths`).
    pub files: Vec<ChangedFile>,
    /// `git show --stat` style: one line per file and a summary line.
    pub stat: String,
    /// The unified diff against the first parent, limited to `paths` when given.
    pub patch: String,
}

impl GitRepo {
    /// The commit `rev` names, with its stat and patch limited to `paths` when any are given.
    pub fn show(&self, rev: &str, paths: &[String]) -> Result<ShownCommit> {
        let commit = self.resolve_commit(rev)?;
        let info = CommitInfo::from_commit(&commit);
        let committer = commit.committer();
        let target = DiffTarget::Commit(info.id.clone());
        let patch = self.diff_text(&target, paths)?;
        let stat = iris_studio_core::change::stat::stat(
            &iris_studio_core::change::parse_unified_diff(&patch),
        );
        Ok(ShownCommit {
            committer_name: super::lossy(committer.name_bytes()),
            committer_email: super::lossy(committer.email_bytes()),
            files: self.changed_files(&target)?,
            stat,
            patch,
            commit: info,
        })
    }
}
