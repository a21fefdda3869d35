//! The shell side of what only reads the repository for a pane: the diff, explore's tree
//! and files, and a range's commits. Each is a job of [`super::jobs`], the newest request
//! of its pane winning.

use iris_studio_tui::features::msgs::{DiffFx, ExploreFx, RangeFx};

use super::runner::Runner;

impl Runner {
    /// Reads a diff for the diff pane.
    pub(super) fn diff(&mut self, fx: DiffFx) {
        match fx {
            DiffFx::Load { path } => self.jobs.load_diff(path),
            DiffFx::LoadCommit { id } => self.jobs.load_commit_diff(id),
        }
    }

    /// Reads explore's tree or a file for the code view.
    pub(super) fn explore(&mut self, fx: ExploreFx) {
        match fx {
            ExploreFx::LoadTree => self.jobs.load_tree(),
            ExploreFx::OpenFile { path } => self.jobs.open_file(path),
        }
    }

    /// Lists a range's commits.
    pub(super) fn range(&mut self, fx: RangeFx) {
        match fx {
            RangeFx::LoadCommits { mode, from, to } => self.jobs.load_commits(mode, from, to),
        }
    }
}
