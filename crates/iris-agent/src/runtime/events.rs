//! Where a running agent's [`AgentEvent`]s go ([`EventSink`]) and the rig hook that makes them
//! from requests, tool calls, text deltas and usage ([`EventHook`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rig_core::agent::{HookAction, PromptHook, ToolCallHookAction};
use rig_core::completion::{CompletionModel, GetTokenUsage};
use tokio::sync::mpsc::UnboundedSender;

use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::artifact::partial::Incremental;
use iris_studio_core::protocol::AgentEvent;

use crate::runtime::budget::Meter;
use crate::runtime::runaway::{Degenerate, Gathered, Watch};

/// Sends events to whoever listens; a closed receiver is not an error. Its clones also share
/// how the tool calls made through it ended ([`ToolOutcomes`]).
#[derive(Clone, Default)]
pub struct EventSink {
    tx: Option<UnboundedSender<AgentEvent>>,
    outcomes: ToolOutcomes,
}

/// How each tool's last call ended, as the tool's own result said: a tool notes it when it
/// returns, and the hook takes it when rig hands over the call's result, which is text only.
/// Nothing noted means the call never reached a tool (a name the run has no tool for,
/// arguments that did not parse): it failed. A call's note and its taking happen with no
/// other call of the same run in between (rig runs the hook right after the tool), so the
/// last note of a name is that call's.
#[derive(Clone, Default)]
pub(crate) struct ToolOutcomes(Arc<Mutex<HashMap<String, bool>>>);

impl ToolOutcomes {
    fn note(&self, tool: &str, ok: bool) {
        if let Ok(mut noted) = self.0.lock() {
            noted.insert(tool.to_string(), ok);
        }
    }

    fn take(&self, tool: &str) -> Option<bool> {
        self.0.lock().ok()?.remove(tool)
    }
}

impl std::fmt::Debug for EventSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.tx.is_some() {
            "EventSink"
        } else {
            "EventSink(none)"
        })
    }
}

impl EventSink {
    /// A sink that sends to `tx`.
    pub fn new(tx: UnboundedSender<AgentEvent>) -> Self {
        Self {
            tx: Some(tx),
            outcomes: ToolOutcomes::default(),
        }
    }

    /// A sink nobody listens to: every event is dropped.
    pub fn none() -> Self {
        Self::default()
    }

    /// A sink that sends to `tx` instead, sharing this one's tool outcomes (a sink that
    /// passes events on after looking at them).
    pub(crate) fn sending_to(&self, tx: UnboundedSender<AgentEvent>) -> Self {
        Self {
            tx: Some(tx),
            outcomes: self.outcomes.clone(),
        }
    }

    /// Whether anyone receives the events.
    pub fn is_listening(&self) -> bool {
        self.tx.as_ref().is_some_and(|tx| !tx.is_closed())
    }

    /// Sends `event` to the listener, if there is one.
    pub fn send(&self, event: AgentEvent) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(event);
        }
    }

    /// Notes how a call of `tool` ended, from its result (see [`ToolOutcomes`]).
    pub(crate) fn note_tool_outcome(&self, tool: &str, ok: bool) {
        self.outcomes.note(tool, ok);
    }
}

/// The rig hook that turns requests, tool calls, text deltas and usage into [`AgentEvent`]s,
/// traces each request (`--debug`), and stops a streamed reply that runs away.
#[derive(Clone)]
pub struct EventHook {
    sink: EventSink,
    /// Text deltas reach the sink (streaming runs).
    forward_text: bool,
    /// When the request being answered was sent.
    sent: Arc<Mutex<Option<Instant>>>,
    /// Requests sent so far.
    requests: Arc<AtomicUsize>,
    /// Tokens reported so far (input, output): rig reports a streamed turn that only calls
    /// tools to no hook, so the run's end sends what is missing.
    reported: Arc<Mutex<(u64, u64)>>,
    watch: Arc<Mutex<Watch>>,
    /// The arguments of the tool call being streamed, watched like text: a model can loop
    /// inside a call as well as in prose.
    call: Arc<Mutex<Gathered>>,
    /// The artifact the streamed call replaces (a chat's `update_commit`, ...), shown as its
    /// new text forms, the text last shown, and the call's arguments read so far.
    editing: Arc<Mutex<Editing>>,
    /// When the model last wrote anything (text or a tool call's arguments): a stream that
    /// reaches no consumer item while a long call is written is not a stalled one.
    last_delta: Arc<Mutex<Option<Instant>>>,
    /// `max_cost_per_run`: told what each reply cost, and asked whether a stream may go on.
    meter: Option<Meter>,
}

/// An update tool's call being streamed: the artifact it replaces, the text last shown, and
/// its arguments as read so far.
#[derive(Debug, Default)]
struct Editing {
    kind: Option<ArtifactKind>,
    shown: String,
    reader: Incremental,
    read: usize,
}

impl EventHook {
    /// A hook reporting to `sink`; with `forward_text`, text deltas reach it as they stream.
    pub fn new(sink: EventSink, forward_text: bool) -> Self {
        Self {
            sink,
            forward_text,
            sent: Arc::default(),
            requests: Arc::default(),
            reported: Arc::default(),
            watch: Arc::default(),
            call: Arc::default(),
            editing: Arc::default(),
            last_delta: Arc::default(),
            meter: None,
        }
    }

    /// The same hook, telling `meter` what each reply cost.
    pub fn with_meter(mut self, meter: Option<Meter>) -> Self {
        self.meter = meter;
        self
    }

    /// Stops a reply that, `written` characters long, would take the command past
    /// `max_cost_per_run` (a provider that does not keep to the output budget).
    fn within_cost(&self, written: usize) -> HookAction {
        match &self.meter {
            Some(meter) if meter.would_pass(written.div_ceil(4) as u64) => HookAction::terminate(
                "the reply would take the run past max_cost_per_run; stopped".to_string(),
            ),
            _ => HookAction::cont(),
        }
    }

    /// When the model last wrote a text or tool-call delta that was not empty, if it has.
    pub fn last_delta(&self) -> Option<Instant> {
        self.last_delta.lock().ok().and_then(|at| *at)
    }

    /// A reasoning model's thinking, as it arrives: shown as thinking.
    pub fn thinking(&self, text: &str) {
        if !text.is_empty() {
            self.sink.send(AgentEvent::Thinking(text.to_string()));
        }
    }

    fn wrote(&self) {
        if let Ok(mut at) = self.last_delta.lock() {
            *at = Some(Instant::now());
        }
    }

    /// The new text of an update tool's call as far as its arguments are written, sent when
    /// it grew. The arguments are read piece by piece (each once), not whole at each piece.
    fn preview_edit(&self, tool_name: Option<&str>, arguments: &str) {
        let Ok(mut editing) = self.editing.lock() else {
            return;
        };
        if let Some(name) = tool_name {
            *editing = Editing {
                kind: ArtifactKind::edited_by(name),
                ..Editing::default()
            };
        }
        let Some(kind) = editing.kind else {
            return;
        };
        // The arguments started over without a name: read them from their start.
        if arguments.len() < editing.read || !arguments.is_char_boundary(editing.read) {
            editing.reader = Incremental::new();
            editing.read = 0;
        }
        let read = editing.read;
        editing.reader.push(&arguments[read..]);
        editing.read = arguments.len();
        let content = editing.reader.string_field("content");
        if let Some(text) = content.filter(|t| !t.trim().is_empty() && *t != editing.shown) {
            let text = text.to_string();
            editing.shown.clone_from(&text);
            self.sink.send(AgentEvent::Preview { kind, text });
        }
    }

    fn stop_if(runaway: Option<Degenerate>) -> HookAction {
        match runaway {
            Some(Degenerate(why)) => HookAction::terminate(format!("{why}; stopped")),
            None => HookAction::cont(),
        }
    }

    /// Requests sent so far, by this hook and its clones.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }

    fn answered(&self, input: u64, output: u64, cached: u64) {
        let sent = self.sent.lock().ok().and_then(|mut s| s.take());
        let ms = sent.map_or(0, |at| at.elapsed().as_millis() as u64);
        tracing::debug!(
            input_tokens = input,
            output_tokens = output,
            ms,
            "provider request answered"
        );
        if let Ok(mut reported) = self.reported.lock() {
            reported.0 += input;
            reported.1 += output;
        }
        if let Some(meter) = &self.meter {
            meter.answered(input, output);
        }
        self.sink.send(AgentEvent::Usage {
            input,
            output,
            cached,
        });
    }

    /// At the end of a run: the tokens of the run (`input`, `output`, rig's totals) that no
    /// hook call reported.
    pub fn settle(&self, input: u64, output: u64) {
        let (seen_in, seen_out) = self.reported.lock().map(|r| *r).unwrap_or_default();
        let (input, output) = (
            input.saturating_sub(seen_in),
            output.saturating_sub(seen_out),
        );
        if input + output > 0 {
            if let Some(meter) = &self.meter {
                meter.answered(input, output);
            }
            self.sink.send(AgentEvent::Usage {
                input,
                output,
                cached: 0,
            });
        }
    }
}

impl<M: CompletionModel> PromptHook<M> for EventHook {
    async fn on_completion_call(
        &self,
        _prompt: &rig_core::message::Message,
        _history: &[rig_core::message::Message],
    ) -> HookAction {
        if let Ok(mut sent) = self.sent.lock() {
            *sent = Some(Instant::now());
        }
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.sink.send(AgentEvent::Request);
        HookAction::cont()
    }

    async fn on_completion_response(
        &self,
        _prompt: &rig_core::message::Message,
        response: &rig_core::completion::CompletionResponse<M::Response>,
    ) -> HookAction {
        let usage = &response.usage;
        self.answered(
            usage.input_tokens,
            usage.output_tokens,
            usage.cached_input_tokens,
        );
        HookAction::cont()
    }

    async fn on_stream_completion_response_finish(
        &self,
        _prompt: &rig_core::message::Message,
        response: &<M as CompletionModel>::StreamingResponse,
    ) -> HookAction {
        let usage = response.token_usage().unwrap_or_default();
        self.answered(
            usage.input_tokens,
            usage.output_tokens,
            usage.cached_input_tokens,
        );
        HookAction::cont()
    }

    async fn on_tool_call(
        &self,
        tool_name: &str,
        _tool_call_id: Option<String>,
        _internal_call_id: &str,
        args: &str,
    ) -> ToolCallHookAction {
        self.sink.send(AgentEvent::ToolStarted {
            name: tool_name.to_string(),
            summary: summarize_call(tool_name, args),
        });
        ToolCallHookAction::cont()
    }

    async fn on_tool_result(
        &self,
        tool_name: &str,
        _tool_call_id: Option<String>,
        _internal_call_id: &str,
        _args: &str,
        _result: &str,
    ) -> HookAction {
        // The tool's own result said how it ended; nothing said, it never ran.
        let ok = self.sink.outcomes.take(tool_name).unwrap_or(false);
        self.sink.send(AgentEvent::ToolFinished {
            name: tool_name.to_string(),
            ok,
        });
        HookAction::cont()
    }

    async fn on_text_delta(&self, text_delta: &str, aggregated_text: &str) -> HookAction {
        // An empty delta is no writing (Anthropic's stream passes them through): it must not
        // keep a stalled server alive.
        if !text_delta.is_empty() {
            self.wrote();
        }
        if self.forward_text {
            self.sink
                .send(AgentEvent::TextDelta(text_delta.to_string()));
        }
        let runaway = self
            .watch
            .lock()
            .ok()
            .and_then(|mut watch| watch.observe(aggregated_text));
        match Self::stop_if(runaway) {
            HookAction::Continue => self.within_cost(aggregated_text.len()),
            stop => stop,
        }
    }

    async fn on_tool_call_delta(
        &self,
        _tool_call_id: &str,
        _internal_call_id: &str,
        tool_name: Option<&str>,
        tool_call_delta: &str,
    ) -> HookAction {
        if !tool_call_delta.is_empty() {
            self.wrote();
        }
        let runaway = match self.call.lock() {
            Ok(mut call) => {
                if tool_name.is_some() {
                    call.restart(); // a new call
                }
                let runaway = call.push(tool_call_delta);
                if self.forward_text {
                    self.preview_edit(tool_name, call.text());
                }
                (runaway, call.text().len())
            }
            Err(_) => (None, 0),
        };
        match Self::stop_if(runaway.0) {
            HookAction::Continue => self.within_cost(runaway.1),
            stop => stop,
        }
    }
}

/// A few words on what a tool call looks at: "reading src/app.rs", "searching for `parse`".
pub fn summarize_call(tool: &str, args: &str) -> String {
    let args: serde_json::Value = serde_json::from_str(args).unwrap_or_default();
    let field = |name: &str| args.get(name).and_then(|v| v.as_str()).map(str::to_string);
    let summary = match tool {
        "file_read" => field("path").map(|p| format!("reading {p}")),
        "file_list" => Some(match field("path").filter(|p| !p.is_empty() && p != ".") {
            Some(path) => format!("listing {path}"),
            None => "listing the repository root".to_string(),
        }),
        "file_search" => field("pattern").map(|p| format!("finding files matching `{p}`")),
        "code_search" => field("query").map(|q| format!("searching for `{q}`")),
        "git_diff" => Some(match (field("from"), field("to")) {
            (Some(from), to) => format!("diffing {from}..{}", to.unwrap_or_else(|| "HEAD".into())),
            (None, Some(to)) => format!("diffing commit {to}"),
            (None, None) => "reading the staged diff".to_string(),
        }),
        "git_log" => Some("reading history".to_string()),
        "git_show" => field("commit").map(|c| format!("showing {c}")),
        "git_blame" => field("file").map(|f| format!("blaming {f}")),
        "git_status" => Some("checking status".to_string()),
        "git_changed_files" => Some("listing changed files".to_string()),
        "repo_map" => Some("mapping the repository".to_string()),
        "project_docs" => Some("reading project docs".to_string()),
        "static_analysis" => Some("running linters".to_string()),
        "parallel_analyze" => args
            .get("tasks")
            .and_then(|t| t.as_array())
            .map(|t| format!("running {} subagents", t.len())),
        _ => None,
    };
    summary.unwrap_or_else(|| tool.replace('_', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

    /// Any completion model: the hook's methods do not depend on which.
    type Model = rig_core::providers::openai::CompletionModel;

    fn listened(forward_text: bool) -> (EventHook, UnboundedReceiver<AgentEvent>) {
        let (tx, rx) = unbounded_channel();
        (EventHook::new(EventSink::new(tx), forward_text), rx)
    }

    fn drained(rx: &mut UnboundedReceiver<AgentEvent>) -> Vec<AgentEvent> {
        std::iter::from_fn(|| rx.try_recv().ok()).collect()
    }

    #[test]
    fn a_sink_listens_while_its_receiver_does() {
        assert!(!EventSink::none().is_listening());
        assert_eq!(format!("{:?}", EventSink::none()), "EventSink(none)");
        let (tx, rx) = unbounded_channel();
        let sink = EventSink::new(tx);
        assert!(sink.is_listening());
        assert_eq!(format!("{sink:?}"), "EventSink");
        drop(rx);
        assert!(!sink.is_listening());
        sink.send(AgentEvent::Request); // nobody hears it, and that is no error
    }

    #[tokio::test]
    async fn text_is_forwarded_when_asked_and_only_writing_counts_as_writing() {
        let (hook, mut rx) = listened(true);
        assert_eq!(hook.last_delta(), None);
        PromptHook::<Model>::on_text_delta(&hook, "", "").await;
        assert_eq!(hook.last_delta(), None, "an empty delta is no writing");
        PromptHook::<Model>::on_text_delta(&hook, "Add", "Add").await;
        assert!(hook.last_delta().is_some());
        assert_eq!(
            drained(&mut rx),
            [
                AgentEvent::TextDelta(String::new()),
                AgentEvent::TextDelta("Add".into())
            ]
        );
        let (quiet, mut rx) = listened(false);
        PromptHook::<Model>::on_text_delta(&quiet, "Add", "Add").await;
        assert!(drained(&mut rx).is_empty());

        let (hook, mut rx) = listened(false);
        PromptHook::<Model>::on_tool_call_delta(&hook, "c1", "i1", Some("git_diff"), "").await;
        assert_eq!(hook.last_delta(), None);
        PromptHook::<Model>::on_tool_call_delta(&hook, "c1", "i1", None, "{").await;
        assert!(hook.last_delta().is_some());
        assert!(
            drained(&mut rx).is_empty(),
            "no preview without forward_text"
        );
    }

    #[test]
    fn thinking_is_sent_when_there_is_some() {
        let (hook, mut rx) = listened(false);
        hook.thinking("");
        hook.thinking("hm");
        assert_eq!(drained(&mut rx), [AgentEvent::Thinking("hm".into())]);
    }

    #[tokio::test]
    async fn an_update_tool_s_call_is_previewed_as_its_content_grows() {
        let (hook, mut rx) = listened(true);
        let delta = |name: Option<&'static str>, piece: &'static str| {
            let hook = hook.clone();
            async move {
                PromptHook::<Model>::on_tool_call_delta(&hook, "c1", "i1", name, piece).await;
            }
        };
        delta(Some("update_commit"), "").await;
        delta(None, r#"{"content": "  "#).await; // blank: nothing to show
        delta(None, r#"Add"#).await;
        delta(None, r#"", "#).await; // the same text: not sent again
        delta(None, r#""reason": "x"}"#).await;
        let commit = ArtifactKind::edited_by("update_commit").expect("an update tool");
        assert_eq!(
            drained(&mut rx),
            [AgentEvent::Preview {
                kind: commit,
                text: "  Add".into()
            }]
        );
        // Another tool's call is not an edit.
        delta(Some("git_diff"), r#"{"content": "x"}"#).await;
        assert!(drained(&mut rx).is_empty());
    }

    #[tokio::test]
    async fn requests_are_counted_together_by_a_hook_s_clones() {
        let (hook, _rx) = listened(false);
        let prompt = rig_core::message::Message::user("x");
        PromptHook::<Model>::on_completion_call(&hook, &prompt, &[]).await;
        PromptHook::<Model>::on_completion_call(&hook.clone(), &prompt, &[]).await;
        assert_eq!(hook.requests(), 2, "clones count together");
    }

    #[test]
    fn the_run_s_end_reports_only_the_tokens_no_reply_did() {
        let usage = |input, output| AgentEvent::Usage {
            input,
            output,
            cached: 0,
        };
        let (hook, mut rx) = listened(false);
        hook.answered(100, 20, 0);
        hook.answered(50, 10, 0);
        assert_eq!(drained(&mut rx), [usage(100, 20), usage(50, 10)]);
        hook.settle(150, 30);
        assert!(drained(&mut rx).is_empty(), "all reported");
        hook.settle(180, 30);
        assert_eq!(drained(&mut rx), [usage(30, 0)]);
        let (hook, mut rx) = listened(false);
        hook.answered(10, 0, 0);
        hook.settle(10, 7);
        assert_eq!(drained(&mut rx), [usage(10, 0), usage(0, 7)]);
    }

    #[test]
    fn tool_calls_are_summarized_in_a_few_words() {
        assert_eq!(
            summarize_call("file_read", r#"{"path":"src/app.rs"}"#),
            "reading src/app.rs"
        );
        assert_eq!(summarize_call("git_diff", "{}"), "reading the staged diff");
        assert_eq!(
            summarize_call("git_diff", r#"{"from":"v1"}"#),
            "diffing v1..HEAD"
        );
        assert_eq!(
            summarize_call("file_list", r#"{"path":"src/ui"}"#),
            "listing src/ui"
        );
        assert_eq!(
            summarize_call("file_list", r#"{"path":"."}"#),
            "listing the repository root"
        );
        assert_eq!(
            summarize_call("file_list", "{}"),
            "listing the repository root"
        );
        assert_eq!(
            summarize_call("file_search", r#"{"pattern":"*.toml"}"#),
            "finding files matching `*.toml`"
        );
        assert_eq!(summarize_call("unknown_tool", "not json"), "unknown tool");
        for (tool, args, said) in [
            (
                "code_search",
                r#"{"query":"parse"}"#,
                "searching for `parse`",
            ),
            ("git_diff", r#"{"to":"abc"}"#, "diffing commit abc"),
            ("git_log", "{}", "reading history"),
            ("git_show", r#"{"commit":"abc"}"#, "showing abc"),
            ("git_blame", r#"{"file":"a.rs"}"#, "blaming a.rs"),
            ("git_status", "{}", "checking status"),
            ("git_changed_files", "{}", "listing changed files"),
            ("repo_map", "{}", "mapping the repository"),
            ("project_docs", "{}", "reading project docs"),
            ("static_analysis", "{}", "running linters"),
            (
                "parallel_analyze",
                r#"{"tasks":["a","b"]}"#,
                "running 2 subagents",
            ),
        ] {
            assert_eq!(summarize_call(tool, args), said, "{tool}");
        }
    }
}
