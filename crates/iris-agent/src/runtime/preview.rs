//! The artifact shown as it forms: a sink in front of the caller's that passes every event
//! on and, as the structured reply streams, adds the artifact's markdown so far
//! ([`AgentEvent::Preview`]) whenever it changes.

// tokio's clock (the system's, except in a test that pauses it).
use tokio::time::Instant;

use tokio::sync::mpsc::unbounded_channel;
use tokio::task::JoinHandle;

use super::events::EventSink;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::protocol::AgentEvent;

/// Reads a reply piece by piece and renders it as the artifact's markdown
/// (`crate::output::Previewer<T>`).
pub trait Render: Send {
    /// The next piece of the reply.
    fn push(&mut self, piece: &str);
    /// The reply starts over.
    fn clear(&mut self);
    /// The artifact as far as the reply so far has written it.
    fn render(&self) -> Option<String>;
}

/// A renderer of the whole reply so far, for tests: `f` reads it whole at each render.
pub struct WholeReply<F> {
    text: String,
    f: F,
}

impl<F: Fn(&str) -> Option<String> + Send> WholeReply<F> {
    /// Renders with `f`.
    pub fn new(f: F) -> Self {
        Self {
            text: String::new(),
            f,
        }
    }
}

impl<F: Fn(&str) -> Option<String> + Send> Render for WholeReply<F> {
    fn push(&mut self, piece: &str) {
        self.text.push_str(piece);
    }

    fn clear(&mut self) {
        self.text.clear();
    }

    fn render(&self) -> Option<String> {
        (self.f)(&self.text)
    }
}

/// Renders at most this often: a reply streams far faster than anyone reads, and each render
/// builds the whole artifact so far.
const EVERY: std::time::Duration = std::time::Duration::from_millis(40);

/// The sink to run with, and the task that forwards its events.
pub struct Previewing {
    sink: EventSink,
    task: Option<JoinHandle<()>>,
}

impl Previewing {
    /// Events to `outer`, with previews of `kind` rendered by `render`; without a listener
    /// (or for a reply that is no artifact) it is `outer` itself.
    pub fn new(outer: &EventSink, kind: Option<ArtifactKind>, mut render: Box<dyn Render>) -> Self {
        let (Some(kind), true) = (kind, outer.is_listening()) else {
            return Self {
                sink: outer.clone(),
                task: None,
            };
        };
        let (sender, mut events) = unbounded_channel();
        let sink = outer.sending_to(sender);
        let outer = outer.clone();
        let task = tokio::spawn(async move {
            let mut shown = String::new();
            let mut rendered_at: Option<Instant> = None;
            // Text came since the last render, which is due when the interval is over.
            let mut pending = false;
            let show = |render: &dyn Render, shown: &mut String| {
                if let Some(text) = render.render().filter(|t| t != shown) {
                    shown.clone_from(&text);
                    outer.send(AgentEvent::Preview { kind, text });
                }
            };
            loop {
                let due = rendered_at.map(|at| at + EVERY);
                let event = match (pending, due) {
                    (true, Some(due)) => tokio::select! {
                        event = events.recv() => event,
                        () = tokio::time::sleep_until(due) => {
                            rendered_at = Some(Instant::now());
                            pending = false;
                            show(render.as_ref(), &mut shown);
                            continue;
                        }
                    },
                    _ => events.recv().await,
                };
                let Some(event) = event else {
                    // The reply is over: what came since the last render shows before the end.
                    if pending {
                        show(render.as_ref(), &mut shown);
                    }
                    break;
                };
                let delta = match &event {
                    AgentEvent::TextDelta(delta) => {
                        render.push(delta);
                        true
                    }
                    // A new request or a tool call starts the reply over.
                    AgentEvent::Request | AgentEvent::ToolStarted { .. } => {
                        render.clear();
                        shown.clear();
                        rendered_at = None;
                        pending = false;
                        false
                    }
                    _ => false,
                };
                outer.send(event);
                if !delta {
                    continue;
                }
                if rendered_at.is_some_and(|at| at.elapsed() < EVERY) {
                    pending = true;
                    continue;
                }
                rendered_at = Some(Instant::now());
                pending = false;
                show(render.as_ref(), &mut shown);
            }
        });
        Self {
            sink,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The previews sent to `outer` so far.
    fn previews(events: &mut tokio::sync::mpsc::UnboundedReceiver<AgentEvent>) -> Vec<String> {
        let mut shown = Vec::new();
        while let Ok(event) = events.try_recv() {
            if let AgentEvent::Preview { text, .. } = event {
                shown.push(text);
            }
        }
        shown
    }

    /// Lets the forwarding task take what was sent (time stands still).
    async fn settle() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test(start_paused = true)]
    async fn previews_come_at_most_every_interval_and_the_last_text_always_shows() {
        let (tx, mut events) = unbounded_channel();
        let outer = EventSink::new(tx);
        let render = Box::new(WholeReply::new(|text: &str| Some(text.to_uppercase())));
        let previewing = Previewing::new(&outer, Some(ArtifactKind::Commit), render);
        let sink = previewing.sink().clone();
        let delta = |text: &str| AgentEvent::TextDelta(text.to_string());
        // The first text shows at once; what follows within the interval waits.
        sink.send(delta("a"));
        settle().await;
        sink.send(delta("b"));
        sink.send(delta("c"));
        settle().await;
        assert_eq!(previews(&mut events), ["A"]);
        // Once the interval is over, the text that waited shows without any new text.
        tokio::time::advance(EVERY).await;
        settle().await;
        assert_eq!(previews(&mut events), ["ABC"]);
        // Text after that render waits again; the end of the reply shows it.
        sink.send(delta("d"));
        settle().await;
        assert!(previews(&mut events).is_empty());
        drop(sink);
        previewing.finish().await;
        assert_eq!(previews(&mut events), ["ABCD"]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_new_request_starts_the_preview_over() {
        let (tx, mut events) = unbounded_channel();
        let outer = EventSink::new(tx);
        let render = Box::new(WholeReply::new(|text: &str| Some(text.to_string())));
        let previewing = Previewing::new(&outer, Some(ArtifactKind::Commit), render);
        let sink = previewing.sink().clone();
        sink.send(AgentEvent::TextDelta("draft".into()));
        settle().await;
        sink.send(AgentEvent::Request);
        sink.send(AgentEvent::TextDelta("new".into()));
        drop(sink);
        previewing.finish().await;
        assert_eq!(previews(&mut events), ["draft", "new"]);
    }
}
