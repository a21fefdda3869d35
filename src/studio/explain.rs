//! Explore's questions to Iris, shell side: why the selected lines are as they are (with the
//! commits behind them) and what the open file is for.

use iris_studio_tui::action::Action;
use iris_studio_tui::features::msgs::{IntentFx, IntentMsg, WhyFx, WhyMsg};

use super::runner::Runner;

impl Runner {
    /// Asks Iris about the selected lines, or shows one of the commits behind her answer.
    pub(super) fn why(&mut self, fx: WhyFx) {
        match fx {
            WhyFx::ShowCommit { id } => self.jobs.show_commit(id),
            WhyFx::Explain { task, asked } => self.spawn_iris(
                task,
                |iris, sink| async move { Ok(iris.explain_lines(&asked, &sink).await?) },
                move |result| Action::Why(WhyMsg::Explained { task, result }),
            ),
        }
    }

    /// Asks Iris what the open file is for, block by block.
    pub(super) fn intent(&mut self, fx: IntentFx) {
        match fx {
            IntentFx::Explain { task, path } => self.spawn_iris(
                task,
                |iris, sink| async move { Ok(iris.explain_file(&path, &sink).await?) },
                move |result| Action::Intent(IntentMsg::Explained { task, result }),
            ),
        }
    }
}
