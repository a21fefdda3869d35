//! The tools Iris gathers evidence with, as rig-core tools.
//!
//! Each tool is a small type implementing [`IrisTool`]: typed arguments whose JSON schema comes
//! from schemars, and a `run` that checks its arguments and returns bounded text (blocking work
//! off the async threads, through [`blocking`]). [`Adapter`] turns any of them into a rig
//! [`Tool`]: it builds the definition and traces each call (`--debug`). Failures come back as
//! text the model can read, never as a panic.

mod code_search;
mod definitions;
mod file_list;
mod file_read;
mod file_search;
pub(crate) mod git;
pub(crate) mod git_diff;
pub mod lines;
pub mod outline;
mod project_docs;
pub mod refer_to_source;
pub mod registry;
mod repo_map;
mod static_analysis;
pub mod subagent;
pub mod workspace;

use std::fmt::Debug;
use std::path::PathBuf;
use std::time::Instant;

use rig_core::completion::ToolDefinition;
use rig_core::tool::Tool;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::EventSink;
use crate::runtime::redact::for_log;
use crate::runtime::safety::Safety;
use iris_studio_core::protocol::Risk;
use iris_studio_git::GitRepo;

/// What every tool needs to know about where it runs.
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// The repository root; every path a tool takes is relative to it.
    pub repo_root: PathBuf,
    /// Whether the user trusts this repository enough to run its build scripts (linters do).
    pub trusted: bool,
    /// Which calls need the user's approval, and the tools allowed for the session.
    pub safety: Safety,
    /// The run's events, where an approval is asked for.
    pub sink: EventSink,
    /// Whether a tool's blocking work runs on the thread that calls it (see
    /// [`ToolContext::working_on_this_thread`]).
    pub on_this_thread: bool,
}

impl ToolContext {
    /// A context for an untrusted repository, in the default safety mode, with nobody to ask.
    pub fn new(repo_root: PathBuf) -> Self {
        Self {
            repo_root,
            trusted: false,
            safety: Safety::default(),
            sink: EventSink::none(),
            on_this_thread: false,
        }
    }

    /// The same context, its tools doing their blocking work on the thread that calls them
    /// instead of a thread of their own. Only for one call with nothing else to run, as `iris
    /// tool` makes it: the hand-over to a new thread left the process idle for a fifth of a
    /// short call (`git_changed_files` at 20,000 files: 8.3 ms, now 7.3 ms; git's 7.0 ms).
    /// An agent's tools keep their threads, so its runtime is never held up.
    pub fn working_on_this_thread(mut self) -> Self {
        self.on_this_thread = true;
        self
    }

    /// The same context, trusted or not.
    pub fn with_trust(mut self, trusted: bool) -> Self {
        self.trusted = trusted;
        self
    }

    /// The same context, `safety` deciding which calls need the user's approval.
    pub fn with_safety(mut self, safety: Safety) -> Self {
        self.safety = safety;
        self
    }

    /// The same context for one run, asking its approvals through `sink`.
    pub fn reporting_to(&self, sink: &EventSink) -> Self {
        Self {
            sink: sink.clone(),
            ..self.clone()
        }
    }

    /// Whether a call of `tool` may go ahead; the error is what the model reads. An execute
    /// tool in an untrusted repository runs nothing (it says what it would have run), so it
    /// needs no approval: without trust, execution is refused whatever the mode.
    async fn permit(&self, tool: &str, risk: Risk, args: &str) -> Result<(), ToolFailure> {
        if risk == Risk::Execute && !self.trusted {
            return Ok(());
        }
        self.safety
            .permit(tool, risk, args, &self.sink)
            .await
            .map_err(|refused| ToolFailure(refused.0))
    }

    /// The repository at the root, opened with git; the failure is worded for the model.
    pub fn repo(&self) -> Result<GitRepo, ToolFailure> {
        GitRepo::discover(&self.repo_root).map_err(ToolFailure::from)
    }
}

/// A tool's failure, worded for the model to read and act on.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct ToolFailure(pub String);

impl ToolFailure {
    /// A failure saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl From<iris_studio_workspace::OutOfBounds> for ToolFailure {
    fn from(err: iris_studio_workspace::OutOfBounds) -> Self {
        Self(err.0)
    }
}

impl From<iris_studio_git::GitError> for ToolFailure {
    fn from(err: iris_studio_git::GitError) -> Self {
        Self(err.to_string())
    }
}

/// One tool: its name, what it is for, its arguments and the work it does.
pub trait IrisTool: Send + Sync + 'static {
    /// The name the model calls the tool by (for a family named at run time, the family's).
    const NAME: &'static str;
    /// What the tool is for, as its definition tells the model.
    const DESCRIPTION: &'static str;
    /// What a call can do; the safety mode decides whether it needs the user's approval.
    const RISK: Risk;
    /// The arguments of a call; their JSON schema, doc comments included, is what the model
    /// fills in.
    type Args: DeserializeOwned + JsonSchema + Debug + Send + Sync + 'static;

    /// The name the model calls the tool by: [`Self::NAME`] unless the tool is one of a family
    /// named at run time (`update_commit`, `update_pr`, ...).
    fn name(&self) -> String {
        Self::NAME.to_string()
    }

    /// What the tool is for: [`Self::DESCRIPTION`] unless it depends on the tool's settings.
    fn description(&self) -> String {
        Self::DESCRIPTION.to_string()
    }

    /// The work. Work that blocks (reading the repository) goes through [`blocking`] so the
    /// async threads stay free; work that waits on other work (subagents) is awaited as is.
    fn run(
        &self,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> impl Future<Output = Result<String, ToolFailure>> + Send;
}

/// Runs blocking work on a thread of its own, with its own copy of the context.
pub async fn blocking(
    ctx: &ToolContext,
    work: impl FnOnce(&ToolContext) -> Result<String, ToolFailure> + Send + 'static,
) -> Result<String, ToolFailure> {
    if ctx.on_this_thread {
        return work(ctx);
    }
    let ctx = ctx.clone();
    tokio::task::spawn_blocking(move || work(&ctx))
        .await
        .unwrap_or_else(|e| {
            Err(ToolFailure::new(format!(
                "the tool stopped unexpectedly: {e}"
            )))
        })
}

/// Makes an [`IrisTool`] a rig [`Tool`].
pub struct Adapter<T> {
    ctx: ToolContext,
    tool: T,
}

impl<T: IrisTool> Adapter<T> {
    /// `tool`, run in `ctx`, as a rig tool.
    pub fn new(ctx: ToolContext, tool: T) -> Self {
        Self { ctx, tool }
    }
}

impl<T: IrisTool> Tool for Adapter<T> {
    const NAME: &'static str = T::NAME;
    type Error = ToolFailure;
    type Args = T::Args;
    type Output = String;

    fn name(&self) -> String {
        self.tool.name()
    }

    async fn definition(&self, _prompt: String) -> ToolDefinition {
        ToolDefinition {
            name: self.tool.name(),
            description: self.tool.description(),
            parameters: parameters_schema::<T::Args>(),
        }
    }

    async fn call(&self, args: Self::Args) -> Result<String, ToolFailure> {
        let started = Instant::now();
        let described = format!("{args:?}");
        let tool = self.tool.name();
        let result = match self.ctx.permit(&tool, T::RISK, &described).await {
            Ok(()) => self.tool.run(&self.ctx, args).await,
            Err(refused) => Err(refused),
        };
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        self.ctx.sink.note_tool_outcome(&tool, result.is_ok());
        match &result {
            Ok(text) => tracing::debug!(
                tool = tool.as_str(),
                args = %for_log(&described),
                elapsed_ms = format!("{elapsed_ms:.1}"),
                output_chars = text.len(),
                "tool call"
            ),
            Err(err) => tracing::debug!(
                tool = tool.as_str(),
                args = %for_log(&described),
                elapsed_ms = format!("{elapsed_ms:.1}"),
                error = %for_log(&err.to_string()),
                "tool call failed"
            ),
        }
        result
    }
}

/// The JSON schema of a tool's arguments, as providers expect it, and no larger than it
/// needs to be (it goes with every request): an object schema without the `$schema` and
/// `title` decorations, nor what the descriptions already say (defaults, an integer's
/// `format` and `minimum: 0`; every property is required in strict mode anyway).
pub(crate) fn parameters_schema<A: JsonSchema>() -> serde_json::Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(A)).unwrap_or_default();
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
        object
            .entry("properties")
            .or_insert_with(|| serde_json::json!({}));
    }
    compact(&mut schema);
    schema
}

fn compact(schema: &mut serde_json::Value) {
    use serde_json::Value;
    match schema {
        Value::Object(map) => {
            // A property's default, not a property named `default`.
            if map.contains_key("type") || map.contains_key("enum") {
                map.remove("default");
            }
            if map.contains_key("format") && map.get("type").is_some_and(mentions_integer) {
                map.remove("format");
                if map.get("minimum").and_then(Value::as_u64) == Some(0) {
                    map.remove("minimum");
                }
            }
            map.values_mut().for_each(compact);
        }
        Value::Array(items) => items.iter_mut().for_each(compact),
        _ => {}
    }
}

/// Whether a schema's `type` is or includes `integer`.
fn mentions_integer(kind: &serde_json::Value) -> bool {
    match kind {
        serde_json::Value::String(s) => s == "integer",
        serde_json::Value::Array(items) => items.iter().any(mentions_integer),
        _ => false,
    }
}

pub use crate::evidence::bound_output;

#[cfg(test)]
mod tests {
    use super::*;

    /// Any completion model: the hook's methods do not depend on which.
    type Model = rig_core::providers::openai::CompletionModel;

    /// Says its text back; an empty text is its failure.
    struct Echo;

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    struct EchoArgs {
        text: String,
    }

    impl IrisTool for Echo {
        const NAME: &'static str = "echo";
        const DESCRIPTION: &'static str = "Says the text back.";
        const RISK: iris_studio_core::protocol::Risk = iris_studio_core::protocol::Risk::ReadOnly;
        type Args = EchoArgs;

        async fn run(&self, _ctx: &ToolContext, args: EchoArgs) -> Result<String, ToolFailure> {
            match args.text.is_empty() {
                true => Err(ToolFailure::new("nothing to say")),
                false => Ok(args.text),
            }
        }
    }

    #[tokio::test]
    async fn a_tool_call_ends_as_its_own_result_says() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let sink = EventSink::new(tx);
        let hook = crate::EventHook::new(sink.clone(), false);
        // As rig's agent loop runs a call: the tool through its server, then the hook with
        // the result's text.
        let dir = tempfile::tempdir().unwrap();
        let ctx = ToolContext::new(dir.path().to_path_buf()).reporting_to(&sink);
        let server = rig_core::tool::server::ToolServer::new()
            .tool(Adapter::new(ctx, Echo))
            .run();
        for (tool, args, ok) in [
            ("echo", r#"{"text": "diff --git a/x b/x"}"#, true),
            // What a tool returns is its result, whatever its words.
            (
                "echo",
                r#"{"text": "Toolset error: a line of a file"}"#,
                true,
            ),
            ("echo", r#"{"text": ""}"#, false),
            // Arguments that do not parse, a tool the run does not have: no tool ran.
            ("echo", r#"{"words": 1}"#, false),
            ("file_read", "{}", false),
        ] {
            let result = match server.call_tool(tool, args).await {
                Ok(text) => text,
                Err(err) => err.to_string(),
            };
            rig_core::agent::PromptHook::<Model>::on_tool_result(
                &hook, tool, None, "i", args, &result,
            )
            .await;
            let events: Vec<_> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
            assert_eq!(
                events.last(),
                Some(&iris_studio_core::protocol::AgentEvent::ToolFinished {
                    name: tool.into(),
                    ok
                }),
                "{tool} {args}: {result}"
            );
        }
    }

    #[tokio::test]
    async fn blocking_work_takes_a_thread_of_its_own_unless_told_to_stay() {
        let here = std::thread::current().id();
        let thread_of = |ctx: ToolContext| async move {
            blocking(&ctx, move |_| {
                Ok(format!("{:?}", std::thread::current().id()))
            })
            .await
            .expect("work")
        };
        let ctx = ToolContext::new(std::env::temp_dir());
        assert_ne!(thread_of(ctx.clone()).await, format!("{here:?}"));
        let staying = ctx.working_on_this_thread();
        assert_eq!(thread_of(staying).await, format!("{here:?}"));
    }

    #[test]
    fn bound_output_keeps_short_text_and_cuts_long_text_with_a_note() {
        assert_eq!(bound_output("short".into(), 10, "x"), "short");
        let long = "line one\nline two\nline three\n".repeat(10);
        let cut = bound_output(long, 50, "ask for less");
        assert!(cut.contains("[output cut at 50 of 290 characters; ask for less]"));
        assert!(cut.lines().next().is_some_and(|l| l == "line one"));
        assert!(cut.len() < 120);
    }

    #[test]
    fn bound_output_never_splits_a_character() {
        let text = "é".repeat(100);
        let cut = bound_output(text, 7, "more");
        assert!(cut.starts_with("ééééééé\n"));
    }
}
