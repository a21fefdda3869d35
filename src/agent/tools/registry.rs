//! The one place that decides which tools an agent gets.

use rig_core::agent::{AgentBuilder, NoToolConfig, WithBuilderTools};
use rig_core::completion::CompletionModel;
use rig_core::tool::{ToolDyn, ToolSet};

use super::git::{GitBlame, GitChangedFiles, GitLog, GitRepoInfo, GitShow, GitStatus};
use super::git_diff::GitDiff;
use super::{Adapter, ToolContext};

/// The core tools every agent and subagent gets, in the order they are offered.
pub const CORE_TOOL_NAMES: &[&str] = &[
    "git_status",
    "git_diff",
    "git_log",
    "git_show",
    "git_changed_files",
    "git_blame",
];

/// Tools the main agent gets on top of the core ones.
pub const MAIN_AGENT_EXTRA_TOOL_NAMES: &[&str] = &["git_repo_info"];

/// The core tools, ready for a rig agent or tool set.
pub fn core_tools(ctx: &ToolContext) -> Vec<Box<dyn ToolDyn>> {
    vec![
        Box::new(Adapter::<GitStatus>::new(ctx.clone())),
        Box::new(Adapter::<GitDiff>::new(ctx.clone())),
        Box::new(Adapter::<GitLog>::new(ctx.clone())),
        Box::new(Adapter::<GitShow>::new(ctx.clone())),
        Box::new(Adapter::<GitChangedFiles>::new(ctx.clone())),
        Box::new(Adapter::<GitBlame>::new(ctx.clone())),
    ]
}

/// Every tool `iris tool` can run: the core tools and the main agent's extras.
pub fn all_tools(ctx: &ToolContext) -> Vec<Box<dyn ToolDyn>> {
    let mut tools = core_tools(ctx);
    tools.push(Box::new(Adapter::<GitRepoInfo>::new(ctx.clone())));
    tools
}

/// Attaches the core tools to any rig agent builder.
pub fn attach_core_tools<M: CompletionModel>(
    builder: AgentBuilder<M, (), NoToolConfig>,
    ctx: &ToolContext,
) -> AgentBuilder<M, (), WithBuilderTools> {
    builder.tools(core_tools(ctx))
}

/// A tool set holding every tool, for running one by name.
pub fn tool_set(ctx: &ToolContext) -> ToolSet {
    ToolSet::from_tools_boxed(all_tools(ctx))
}
