//! The artifact shown as it forms: a sink in front of the caller's that passes every event
//! on and, as the structured reply streams, adds the artifact's markdown so far
//! ([`AgentEvent::Preview`]) whenever it changes.

use tokio::sync::mpsc::unbounded_channel;
use tokio::task::JoinHandle;

use super::events::EventSink;
use iris_core::artifact::ArtifactKind;
use iris_core::protocol::AgentEvent;

/// Renders a reply's prefix as the artifact's markdown (`crate::output::preview::<T>`).
pub type Render = fn(&str) -> Option<String>;

/// The sink to run with, and the task that forwards its events.
pub struct Previewing {
    sink: EventSink,
    task: Option<JoinHandle<()>>,
}

impl Previewing {
    /// Events to `outer`, with previews of `kind` rendered by `render`; without a listener
    /// (or for a reply that is no artifact) it is `outer` itself.
    pub fn new(outer: &EventSink, kind: Option<ArtifactKind>, render: Render) -> Self {
        let (Some(kind), true) = (kind, outer.is_listening()) else {
            return Self {
                sink: outer.clone(),
                task: None,
            };
        };
        let (sender, mut events) = unbounded_channel();
        let outer = outer.clone();
        let task = tokio::spawn(async move {
            let mut streamed = String::new();
            let mut shown = String::new();
            while let Some(event) = events.recv().await {
                let delta = match &event {
                    AgentEvent::TextDelta(delta) => Some(delta.clone()),
                    // A new request or a tool call starts the reply over.
                    AgentEvent::Request | AgentEvent::ToolStarted { .. } => {
                        streamed.clear();
                        shown.clear();
                        None
                    }
                    _ => None,
                };
                outer.send(event);
                let Some(delta) = delta else {
                    continue;
                };
                streamed.push_str(&delta);
                if let Some(text) = render(&streamed).filter(|t| *t != shown) {
                    shown.clone_from(&text);
                    outer.send(AgentEvent::Preview { kind, text });
                }
            }
        });
        Self {
            sink: EventSink::new(sender),
            task: Some(task),
        }
    }

    pub fn sink(&self) -> &EventSink {
        &self.sink
    }

    /// Waits until every event has been passed on, so none arrives after the caller's next.
    pub async fn finish(self) {
        let Self { sink, task } = self;
        drop(sink);
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}
