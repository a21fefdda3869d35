//! Subagents on the fast model: Iris' side of the subagent tools' port
//! ([`Analyst`](crate::tools::subagent::Analyst)). A subagent runs within the command that
//! asked for it: it spends from the same budget and keeps to the same dry run.

use rig_core::tool::ToolDyn;

use crate::runtime::run_context::RunContext;
use crate::tools::subagent::Analyst;
use crate::{EventSink, ProviderSpec, Run, run};

const SUBAGENT_PREAMBLE: &str = "You are a focused analysis subagent working for Iris, who \
writes commit messages, reviews, PR descriptions and release notes. Investigate exactly the task \
you are given using your tools (git_diff with files, file_read, code_search, git_log, git_blame, \
...). Gather evidence; do not guess. Reply with concise findings in plain text: what changed, \
why it matters, and file:line references. No preamble, no JSON.";

/// A subagent's analyses on `spec` (the fast model), within the command's run `context`.
pub(crate) struct FastModel {
    pub spec: ProviderSpec,
    pub context: RunContext,
    /// Output token budget of a subagent's reply (`subagent_max_output_tokens`).
    pub max_tokens: u64,
    /// Longest one subagent may run before its task is reported as timed out.
    pub timeout: std::time::Duration,
}

#[async_trait::async_trait]
impl Analyst for FastModel {
    async fn analyze(
        &self,
        tools: Vec<Box<dyn ToolDyn>>,
        task: &str,
        max_turns: usize,
    ) -> Result<String, String> {
        let request = Run {
            preamble: SUBAGENT_PREAMBLE.to_string(),
            history: Vec::new(),
            prompt: task.into(),
            tools,
            max_turns,
            max_tokens: self.max_tokens,
            schema: None,
            stream: false,
        };
        let ran = run(&self.spec, &self.context, request, EventSink::none());
        match tokio::time::timeout(self.timeout, ran).await {
            Ok(Ok(output)) if output.text.trim().is_empty() => {
                Err("the subagent finished without findings".to_string())
            }
            Ok(Ok(output)) => Ok(output.text),
            Ok(Err(err)) => Err(format!("{err:#}")),
            Err(_) => Err(format!("timed out after {}s", self.timeout.as_secs())),
        }
    }
}
