//! The editor's drafts, shell side: written in order by one task, so a later text never loses
//! to an earlier one; a failed write is reported.

use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::Action;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{EditorFx, EditorMsg};
use iris_studio_tui::state::Draft;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use super::runner::Runner;
use crate::app::stores::DraftStore;

/// A draft to write, or `None` to remove it.
pub(super) type DraftWrite = (ArtifactKind, Option<Draft>);

impl Runner {
    /// Queues a draft's write or removal.
    pub(super) fn editor(&mut self, fx: EditorFx) {
        let write = match fx {
            EditorFx::SaveDraft { kind, draft } => (kind, Some(draft)),
            EditorFx::ClearDraft { kind } => (kind, None),
        };
        let _ = self.draft_writes.send(write);
    }
}

/// The task that writes drafts in order, off the UI thread; a failed write is reported.
pub(super) fn draft_writer(
    store: DraftStore,
    tx: UnboundedSender<Action>,
) -> (UnboundedSender<DraftWrite>, JoinHandle<()>) {
    let (writes, mut rx) = unbounded_channel::<DraftWrite>();
    let writer = tokio::spawn(async move {
        while let Some((kind, draft)) = rx.recv().await {
            let store = store.clone();
            let written = tokio::task::spawn_blocking(move || match draft {
                Some(draft) => store.save(kind, &draft),
                None => store.clear(kind),
            })
            .await;
            let failed = match written {
                Ok(Ok(())) => None,
                Ok(Err(err)) => Some(Failure::io(err.to_string())),
                Err(err) => Some(Failure::other(err.to_string())),
            };
            if let Some(err) = failed {
                let _ = tx.send(Action::Editor(EditorMsg::DraftFailed(
                    err.context(kind.name()),
                )));
            }
        }
    });
    (writes, writer)
}
