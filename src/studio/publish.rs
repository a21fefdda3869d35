//! Publishing, shell side: the description or the review handed to `gh`/`glab` as
//! [`crate::publish::from_studio`] decides, off the UI thread. Copying is the loop's: it needs
//! the terminal.

use iris_studio_tui::action::Action;
use iris_studio_tui::failure::{Done, Failure};
use iris_studio_tui::features::msgs::{PublishFx, PublishMsg};

use super::runner::Runner;

impl Runner {
    /// Carries out publishing's work.
    pub(super) fn publish(&mut self, fx: PublishFx) {
        match fx {
            PublishFx::Publish {
                kind,
                text,
                base,
                to,
            } => {
                let (tx, root, vcs) = (self.tx.clone(), self.root.clone(), self.jobs.vcs());
                tokio::task::spawn_blocking(move || {
                    let range = (base.as_deref(), to.as_deref());
                    let published = crate::publish::from_studio(&root, vcs, kind, &text, range);
                    let result = published
                        .map(|p| Done(p.summary))
                        .map_err(|e| Failure::other(e.to_string()));
                    let _ = tx.send(Action::Publish(PublishMsg::Published(result)));
                });
            }
            PublishFx::Copy { .. } => {
                tracing::debug!("a terminal effect was asked of the runner; the loop runs it")
            }
        }
    }
}
