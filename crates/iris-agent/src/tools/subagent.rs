//! Subagents: focused analyses on the fast model, alone (`analyze_subagent`) or several at
//! once (`parallel_analyze`). They get only the core tools, so they cannot delegate in turn.

use iris_studio_core::protocol::Risk;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use rig_core::tool::ToolDyn;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure};
use crate::runtime::events::EventSink;
use iris_studio_core::protocol::AgentEvent;

/// Most tasks one `parallel_analyze` call may start.
const MAX_PARALLEL_TASKS: usize = 10;

/// Makes the tools a subagent works with. The registry passes its core tools in, so this module
/// does not depend on the registry that offers its tools.
pub type MakeTools = fn(&ToolContext) -> Vec<Box<dyn ToolDyn>>;

/// The port through which the subagent tools reach a model: one focused analysis with
/// `tools`, at most `max_turns` replies, its findings or why it has none. Iris implements it
/// on her fast model, within the run of the command that asked (its deadline and budget);
/// the tools know nothing of providers or runs.
#[async_trait::async_trait]
pub trait Analyst: Send + Sync {
    /// One subagent's findings on `task`, or why it has none.
    async fn analyze(
        &self,
        tools: Vec<Box<dyn ToolDyn>>,
        task: &str,
        max_turns: usize,
    ) -> Result<String, String>;
}

/// Runs subagents; clones share the analyst and nothing else.
#[derive(Clone)]
pub struct Subagents {
    /// Who runs each analysis.
    pub analyst: Arc<dyn Analyst>,
    /// Where their tools run, asking approvals through the main run's events.
    pub ctx: ToolContext,
    /// Turns a subagent may take when its call asks for no number (`subagent_max_turns`).
    pub default_turns: usize,
    /// The main run's events, where a subagent's start is reported (its own run reports none).
    pub sink: EventSink,
}

impl Subagents {
    /// One subagent's findings, or why it has none.
    async fn analyze(
        &self,
        tools: MakeTools,
        task: &str,
        max_turns: usize,
    ) -> Result<String, String> {
        self.analyst
            .analyze(tools(&self.ctx), task, max_turns)
            .await
    }

    fn turns(&self, asked: Option<usize>) -> usize {
        asked.unwrap_or(self.default_turns).clamp(1, 100)
    }
}

#[expect(
    missing_docs,
    reason = "a doc comment here would go into the tool's JSON schema, sent with every request"
)]
#[derive(Debug, Deserialize, JsonSchema)]
pub struct AnalyzeArgs {
    /// What to investigate, self-contained (name the files, commits or range).
    pub task: String,
    /// Turns the subagent may take (1-100, default from config).
    #[serde(default)]
    pub max_turns: Option<usize>,
}

/// `analyze_subagent`: one focused analysis.
#[derive(Clone)]
pub struct AnalyzeSubagent {
    /// What runs the subagent.
    pub subagents: Subagents,
    /// The subagent's tools.
    pub tools: MakeTools,
}

impl IrisTool for AnalyzeSubagent {
    const NAME: &'static str = "analyze_subagent";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Delegate one focused investigation to a subagent on the \
        fast model (it has the git and workspace tools, not delegation). Returns its findings.";
    type Args = AnalyzeArgs;

    async fn run(&self, _ctx: &ToolContext, args: AnalyzeArgs) -> Result<String, ToolFailure> {
        if args.task.trim().is_empty() {
            return Err(ToolFailure::new("`task` is empty"));
        }
        let subagents = &self.subagents;
        subagents
            .sink
            .send(AgentEvent::Status("a subagent is analyzing".into()));
        let turns = subagents.turns(args.max_turns);
        subagents
            .analyze(self.tools, &args.task, turns)
            .await
            .map_err(ToolFailure::new)
    }
}

#[expect(
    missing_docs,
    reason = "a doc comment here would go into the tool's JSON schema, sent with every request"
)]
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ParallelArgs {
    /// 1 to 10 self-contained tasks, one subagent each, run at the same time.
    pub tasks: Vec<String>,
    /// Turns each subagent may take (1-100, default from config).
    #[serde(default)]
    pub max_turns: Option<usize>,
}

/// `parallel_analyze`: several subagents at once; each task's result or error is reported.
#[derive(Clone)]
pub struct ParallelAnalyze {
    /// What runs the subagents.
    pub subagents: Subagents,
    /// Each subagent's tools.
    pub tools: MakeTools,
}

impl IrisTool for ParallelAnalyze {
    const NAME: &'static str = "parallel_analyze";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Run 1-10 focused investigations in parallel, one \
        subagent each on the fast model; for large changes, split the files into related \
        groups. Returns each task's findings or error, with totals and elapsed time.";
    type Args = ParallelArgs;

    async fn run(&self, _ctx: &ToolContext, args: ParallelArgs) -> Result<String, ToolFailure> {
        let count = args.tasks.len();
        if !(1..=MAX_PARALLEL_TASKS).contains(&count) {
            return Err(ToolFailure::new(format!(
                "give 1 to {MAX_PARALLEL_TASKS} tasks (got {count})"
            )));
        }
        let subagents = &self.subagents;
        subagents.sink.send(AgentEvent::Status(format!(
            "{count} subagents are analyzing"
        )));
        let started = Instant::now();
        let turns = subagents.turns(args.max_turns);
        let analyses = args
            .tasks
            .iter()
            .map(|task| subagents.analyze(self.tools, task, turns));
        let results = futures::future::join_all(analyses).await;
        Ok(report(
            &args.tasks,
            &results,
            started.elapsed().as_secs_f64(),
        ))
    }
}

fn report(tasks: &[String], results: &[Result<String, String>], seconds: f64) -> String {
    let ok = results.iter().filter(|r| r.is_ok()).count();
    let mut out = format!(
        "{ok} of {} subagent task(s) succeeded, {} failed, in {seconds:.1}s.\n",
        results.len(),
        results.len() - ok
    );
    for (i, (task, result)) in tasks.iter().zip(results).enumerate() {
        let _ = writeln!(out, "\n## Task {}: {task}", i + 1);
        match result {
            Ok(findings) => {
                let _ = writeln!(out, "{}", findings.trim());
            }
            Err(why) => {
                let _ = writeln!(out, "FAILED: {why}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_gives_each_result_and_the_totals() {
        let tasks = vec!["look at a".to_string(), "look at b".to_string()];
        let results = vec![
            Ok("a is fine".to_string()),
            Err("timed out after 120s".to_string()),
        ];
        let text = report(&tasks, &results, 1.25);
        assert!(
            text.starts_with("1 of 2 subagent task(s) succeeded, 1 failed, in 1.2s."),
            "{text}"
        );
        assert!(text.contains("## Task 1: look at a\na is fine"));
        assert!(text.contains("## Task 2: look at b\nFAILED: timed out after 120s"));
    }
}
