//! The changes list's shell side: the status read, files and hunks staged and unstaged,
//! the commit recorded (git's own `commit`, or jj's).

use iris_studio_tui::features::msgs::ChangesFx;

use super::runner::Runner;

impl Runner {
    /// Carries out the changes list's work.
    pub(super) fn changes(&mut self, fx: ChangesFx) {
        let jobs = &self.jobs;
        let tried = fx.clone();
        match fx {
            ChangesFx::LoadStatus => jobs.load_status(),
            ChangesFx::Stage { path } => jobs.git(tried, move |repo| {
                repo.stage(&path)?;
                Ok(format!("staged {path}"))
            }),
            ChangesFx::Unstage { path } => jobs.git(tried, move |repo| {
                repo.unstage(&path)?;
                Ok(format!("unstaged {path}"))
            }),
            ChangesFx::StageAll => jobs.git(tried, |repo| {
                repo.stage_all()?;
                Ok("staged everything".to_string())
            }),
            ChangesFx::UnstageAll => jobs.git(tried, |repo| {
                repo.unstage_all()?;
                Ok("unstaged everything".to_string())
            }),
            ChangesFx::StageHunk { path, hunk } => jobs.git(tried, move |repo| {
                repo.stage_hunk(&path, hunk)?;
                Ok(format!("staged hunk {} of {path}", hunk + 1))
            }),
            ChangesFx::UnstageHunk { path, hunk } => jobs.git(tried, move |repo| {
                repo.unstage_hunk(&path, hunk)?;
                Ok(format!("unstaged hunk {} of {path}", hunk + 1))
            }),
            ChangesFx::Commit {
                message,
                written,
                flags,
            } => jobs.commit(tried, message, written, flags),
        }
    }
}
