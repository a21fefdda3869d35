//! The chat about the artifact, shell side: a turn with Iris, whose edits through her update
//! tool land in the editor as she makes them.

use std::sync::Arc;

use iris_studio_agent::capability::chat::{ChatTarget, Turn};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::{Action, ChatOutcome};
use iris_studio_tui::features::msgs::{ChatFx, ChatMsg};
use iris_studio_tui::state::{ChatMessage, Speaker};

use super::runner::Runner;

impl Runner {
    /// Carries out the chat's work.
    pub(super) fn chat(&mut self, fx: ChatFx) {
        match fx {
            ChatFx::Send {
                task,
                kind,
                history,
                message,
                artifact,
            } => self.chat_turn(task, kind, history, message, artifact),
        }
    }

    fn chat_turn(
        &mut self,
        task: u64,
        kind: ArtifactKind,
        history: Vec<ChatMessage>,
        message: String,
        artifact: String,
    ) {
        let updates = self.tx.clone();
        let on_update = Arc::new(move |text: String| {
            let _ = updates.send(Action::Chat(ChatMsg::Updated { task, kind, text }));
        });
        let target = ChatTarget { kind, artifact };
        let turns = turns(history);
        self.spawn_iris(
            task,
            |iris, sink| async move {
                let reply = iris
                    .chat(&target, &turns, &message, on_update, &sink)
                    .await?;
                Ok(ChatOutcome { reply })
            },
            move |result| Action::Chat(ChatMsg::Replied { task, result }),
        );
    }
}

/// The studio's conversation as the agent's turns.
pub(super) fn turns(history: Vec<ChatMessage>) -> Vec<Turn> {
    history
        .into_iter()
        .map(|m| Turn {
            from_user: m.speaker == Speaker::User,
            text: m.text,
        })
        .collect()
}
