//! The artifact shown as it forms: a sink in front of the caller's that passes every event
//! on and, as the structured reply streams, adds the artifact's markdown so far
//! ([`AgentEvent::Preview`]) whenever it changes.

use std::time::Instant;

use tokio::sync::mpsc::unbounded_channel;
use tokio::task::JoinHandle;

use super::events::EventSink;
use iris_core::artifact::ArtifactKind;
use iris_core::protocol::AgentEvent;

/// Renders a reply's prefix as the artifact's markdown (`crate::output::preview_with::<T>`).
pub type Render = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Renders at most this often: a reply streams far faster than anyone reads, and each render
/// reads the whole reply so far.
const EVERY: std::time::Duration = std::time::Duration::from_millis(40);

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
            let mut rendered_at: Option<Instant> = None;
            // Text came since the last render, which is due when the interval is over.
            let mut pending = false;
            let show = |streamed: &str, shown: &mut String| {
                if let Some(text) = render(streamed).filter(|t| t != shown) {
                    shown.clone_from(&text);
                    outer.send(AgentEvent::Preview { kind, text });
                }
            };
            loop {
                let due = rendered_at.map(|at| at + EVERY);
                let event = match (pending, due) {
                    (true, Some(due)) => tokio::select! {
                        event = events.recv() => event,
                        () = tokio::time::sleep_until(due.into()) => {
                            rendered_at = Some(Instant::now());
                            pending = false;
                            show(&streamed, &mut shown);
                            continue;
                        }
                    },
                    _ => events.recv().await,
                };
                let Some(event) = event else {
                    // The reply is over: what came since the last render shows before the end.
                    if pending {
                        show(&streamed, &mut shown);
                    }
                    break;
                };
                let delta = match &event {
                    AgentEvent::TextDelta(delta) => Some(delta.clone()),
                    // A new request or a tool call starts the reply over.
                    AgentEvent::Request | AgentEvent::ToolStarted { .. } => {
                        streamed.clear();
                        shown.clear();
                        rendered_at = None;
                        pending = false;
                        None
                    }
                    _ => None,
                };
                outer.send(event);
                let Some(delta) = delta else {
                    continue;
                };
                streamed.push_str(&delta);
                if rendered_at.is_some_and(|at| at.elapsed() < EVERY) {
                    pending = true;
                    continue;
                }
                rendered_at = Some(Instant::now());
                pending = false;
                show(&streamed, &mut shown);
            }
        });
        Self {
            sink: EventSink::new(sender),
            task: Some(task),
        }
    }

    /// The sink to run with: the previewing one, or the caller's own when nothing is previewed.
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
