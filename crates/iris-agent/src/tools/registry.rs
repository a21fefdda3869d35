//! The one place that decides which tools an agent gets.

use rig_core::agent::{AgentBuilder, NoToolConfig, WithBuilderTools};
use rig_core::completion::CompletionModel;
use rig_core::tool::{ToolDyn, ToolSet};

use super::code_search::CodeSearch;
use super::file_list::FileList;
use super::file_read::FileRead;
use super::file_search::FileSearch;
use super::git::{GitBlame, GitChangedFiles, GitLog, GitRepoInfo, GitShow, GitStatus};
use super::git_diff::GitDiff;
use super::project_docs::ProjectDocs;
use super::repo_map::RepoMap;
use super::static_analysis::StaticAnalysis;
use super::subagent::{AnalyzeSubagent, ParallelAnalyze, Subagents};
use super::workspace::Notes;
use super::{Adapter, IrisTool, ToolContext};
use iris_studio_core::protocol::Risk;

/// The core tools every agent and subagent gets, in the order they are offered.
pub const CORE_TOOL_NAMES: &[&str] = &[
    "git_status",
    "git_diff",
    "git_log",
    "git_show",
    "git_changed_files",
    "git_blame",
    "file_read",
    "file_list",
    "file_search",
    "code_search",
    "repo_map",
    "static_analysis",
    "project_docs",
];

/// Tools the main agent gets on top of the core ones: repository facts, its notebook, and
/// delegation to subagents (which get only the core tools, so delegation cannot recurse).
pub const MAIN_AGENT_EXTRA_TOOL_NAMES: &[&str] = &[
    "git_repo_info",
    "workspace",
    "parallel_analyze",
    "analyze_subagent",
];

/// A tool ready for a rig agent, with the risk it declares.
pub type Listed = (Box<dyn ToolDyn>, Risk);

/// The core tools, ready for a rig agent or tool set.
pub fn core_tools(ctx: &ToolContext) -> Vec<Box<dyn ToolDyn>> {
    core_listed(ctx).into_iter().map(|(tool, _)| tool).collect()
}

fn core_listed(ctx: &ToolContext) -> Vec<Listed> {
    vec![
        listed(ctx, GitStatus),
        listed(ctx, GitDiff),
        listed(ctx, GitLog),
        listed(ctx, GitShow),
        listed(ctx, GitChangedFiles),
        listed(ctx, GitBlame),
        listed(ctx, FileRead),
        listed(ctx, FileList),
        listed(ctx, FileSearch),
        listed(ctx, CodeSearch),
        listed(ctx, RepoMap),
        listed(ctx, StaticAnalysis),
        listed(ctx, ProjectDocs),
    ]
}

/// The main agent's tools: the core ones and the extras, around one notebook.
pub fn main_agent_tools(subagents: &Subagents, notes: &Notes) -> Vec<Box<dyn ToolDyn>> {
    let ctx = &subagents.ctx;
    let mut tools = runnable_tools(ctx, notes);
    tools.push(tool(
        ctx,
        ParallelAnalyze {
            subagents: subagents.clone(),
            tools: core_tools,
        },
    ));
    tools.push(tool(
        ctx,
        AnalyzeSubagent {
            subagents: subagents.clone(),
            tools: core_tools,
        },
    ));
    tools
}

/// The tools that need no model: what `iris tool` runs.
pub fn runnable_tools(ctx: &ToolContext, notes: &Notes) -> Vec<Box<dyn ToolDyn>> {
    runnable_listed(ctx, notes)
        .into_iter()
        .map(|(tool, _)| tool)
        .collect()
}

/// [`runnable_tools`] with their risks, for `iris tool --list`.
pub fn runnable_listed(ctx: &ToolContext, notes: &Notes) -> Vec<Listed> {
    let mut tools = core_listed(ctx);
    tools.push(listed(ctx, GitRepoInfo));
    tools.push(listed(ctx, notes.clone()));
    tools
}

/// The names of the main agent's tools, which a capability's `tools` chooses from.
pub const MAIN_TOOL_NAMES: [&str; 17] = [
    GitStatus::NAME,
    GitDiff::NAME,
    GitLog::NAME,
    GitShow::NAME,
    GitChangedFiles::NAME,
    GitBlame::NAME,
    FileRead::NAME,
    FileList::NAME,
    FileSearch::NAME,
    CodeSearch::NAME,
    RepoMap::NAME,
    StaticAnalysis::NAME,
    ProjectDocs::NAME,
    GitRepoInfo::NAME,
    <Notes as IrisTool>::NAME,
    ParallelAnalyze::NAME,
    AnalyzeSubagent::NAME,
];

/// One tool, ready for a rig agent or tool set.
pub fn tool(ctx: &ToolContext, tool: impl IrisTool) -> Box<dyn ToolDyn> {
    Box::new(Adapter::new(ctx.clone(), tool))
}

fn listed<T: IrisTool>(ctx: &ToolContext, t: T) -> Listed {
    (tool(ctx, t), T::RISK)
}

/// Attaches the core tools to any rig agent builder.
pub fn attach_core_tools<M: CompletionModel>(
    builder: AgentBuilder<M, (), NoToolConfig>,
    ctx: &ToolContext,
) -> AgentBuilder<M, (), WithBuilderTools> {
    builder.tools(core_tools(ctx))
}

/// A tool set holding every tool that needs no model, for running one by name.
pub fn tool_set(ctx: &ToolContext) -> ToolSet {
    ToolSet::from_tools_boxed(runnable_tools(ctx, &Notes::default()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rig_core::client::CompletionClient;
    use rig_core::providers::openai;

    #[tokio::test]
    async fn the_core_tool_list_is_what_the_registry_attaches() {
        let ctx = ToolContext::new(std::env::temp_dir());
        // No request is made: the client only carries the model name into the agent.
        let client = openai::CompletionsClient::builder()
            .api_key("not-a-key")
            .base_url("http://127.0.0.1:9")
            .build()
            .expect("client");
        let agent = attach_core_tools(client.agent("any-model"), &ctx).build();
        let defs = agent
            .tool_server_handle
            .get_tool_defs(None)
            .await
            .expect("tool definitions");
        let mut attached: Vec<String> = defs.into_iter().map(|d| d.name).collect();
        let mut listed: Vec<String> = CORE_TOOL_NAMES.iter().map(|s| s.to_string()).collect();
        attached.sort();
        listed.sort();
        assert_eq!(attached, listed);
        assert_eq!(CORE_TOOL_NAMES.len(), 13);
        // The order they are offered in is the order of the list.
        let offered: Vec<String> = core_tools(&ctx).iter().map(|t| t.name()).collect();
        assert_eq!(offered, CORE_TOOL_NAMES);
    }

    #[test]
    fn the_main_agent_gets_the_core_tools_and_every_extra_once() {
        let ctx = ToolContext::new(std::env::temp_dir());
        struct Nobody;
        #[async_trait::async_trait]
        impl super::super::subagent::Analyst for Nobody {
            async fn analyze(
                &self,
                _tools: Vec<Box<dyn ToolDyn>>,
                _task: &str,
                _max_turns: usize,
            ) -> Result<String, String> {
                Err("no model here".into())
            }
        }
        let subagents = Subagents {
            analyst: std::sync::Arc::new(Nobody),
            ctx: ctx.clone(),
            default_turns: 3,
            sink: crate::EventSink::none(),
        };
        let names: Vec<String> = main_agent_tools(&subagents, &Notes::default())
            .iter()
            .map(|t| t.name())
            .collect();
        let expected: Vec<&str> = CORE_TOOL_NAMES
            .iter()
            .chain(MAIN_AGENT_EXTRA_TOOL_NAMES)
            .copied()
            .collect();
        assert_eq!(names, expected);
        // `iris tool` runs all but the two that need a model.
        let runnable: Vec<String> = runnable_tools(&ctx, &Notes::default())
            .iter()
            .map(|t| t.name())
            .collect();
        assert_eq!(runnable.len(), expected.len() - 2);
        assert!(!runnable.iter().any(|n| n.contains("analyze")));
    }
}
