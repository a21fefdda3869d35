//! `iris mcp`: Iris for coding agents, over the Model Context Protocol on stdio. A client
//! (Claude Code, Codex, Cursor, ...) lists the tools of [`tools`] and calls them; each call
//! runs the same capability as the command line ([`run`]) on the workspace's repository,
//! with Iris' progress sent as progress notifications and the client's cancellation
//! stopping the run. Nothing but the protocol is written to stdout.

mod run;
pub mod tools;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::Value;
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use crate::output::exit::one_line;
use iris_studio_agent::EventSink;
use iris_studio_config::Overrides;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_core::protocol::Decision;
use iris_studio_core::protocol::progress::Progress;
use iris_studio_git::GitRepo;

/// The server: the workspace it serves and what it may do there.
pub struct Server {
    /// The directory the server was started in; a call's `repository` must be inside it.
    workspace: PathBuf,
    allow_commit: bool,
    overrides: Overrides,
}

impl Server {
    /// A server for `workspace`; `allow_commit` offers the `commit` tool, and `overrides` (the
    /// command line's flags) apply to every call's configuration.
    pub fn new(workspace: PathBuf, allow_commit: bool, overrides: Overrides) -> Self {
        let workspace = workspace.canonicalize().unwrap_or(workspace);
        Self {
            workspace,
            allow_commit,
            overrides,
        }
    }

    /// The directory a call works in: the workspace, or a path inside it whose repository is
    /// inside it too (or is the workspace's own): a path in a folder that is no repository
    /// must not reach one that encloses the workspace. Reads the disk: off the runtime.
    async fn directory(&self, repository: Option<String>) -> Result<PathBuf, String> {
        let workspace = self.workspace.clone();
        tokio::task::spawn_blocking(move || directory_in(&workspace, repository.as_deref()))
            .await
            .map_err(|e| e.to_string())?
    }
}

/// [`Server::directory`]'s answer for `workspace`.
fn directory_in(workspace: &Path, repository: Option<&str>) -> Result<PathBuf, String> {
    {
        let Some(asked) = repository else {
            return Ok(workspace.to_path_buf());
        };
        let outside = || {
            format!(
                "repository '{asked}' is outside the workspace this server was started in ({})",
                workspace.display()
            )
        };
        let path = workspace.join(asked);
        let path = path
            .canonicalize()
            .map_err(|e| format!("repository '{asked}': {e}"))?;
        if !path.starts_with(workspace) {
            return Err(outside());
        }
        let root_of = |dir: &std::path::Path| {
            GitRepo::discover(dir)
                .ok()
                .map(|repo| repo.root().canonicalize().unwrap_or_else(|_| repo.root()))
        };
        match root_of(&path) {
            Some(root)
                if !root.starts_with(workspace) && Some(&root) != root_of(workspace).as_ref() =>
            {
                Err(outside())
            }
            _ => Ok(path),
        }
    }
}

fn tool_of(spec: tools::ToolSpec) -> Tool {
    let mut annotations = ToolAnnotations::default();
    annotations.read_only_hint = Some(!spec.writes);
    annotations.destructive_hint = Some(false);
    annotations.open_world_hint = Some(spec.uses_model);
    let mut tool = Tool::new(spec.name, spec.description, Arc::new(spec.schema));
    tool.annotations = Some(annotations);
    tool
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut server = Implementation::from_build_env();
        server.name = "iris".into();
        server.title = Some("Iris Studio".into());
        server.version = env!("CARGO_PKG_VERSION").into();
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(server)
            .with_instructions(
                "Iris writes the prose around code changes: commit messages for the staged \
                 changes, reviews, pull request descriptions, changelogs and release notes, \
                 following the repository's own rules and history. check_commit_message checks \
                 a message against the repository's commitlint or commitizen rules without a \
                 model.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = tools::catalogue(self.allow_commit)
            .into_iter()
            .map(tool_of)
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        let asked = tools::read(&request.name, arguments, self.allow_commit)
            .map_err(|why| ErrorData::invalid_params(why, None))?;
        let directory = self
            .directory(asked.repository.clone())
            .await
            .map_err(|why| ErrorData::invalid_params(why, None))?;
        let token = context
            .meta
            .get_progress_token()
            .or_else(|| request.meta.as_ref().and_then(|m| m.get_progress_token()));
        let (sender, events) = unbounded_channel();
        let reporter = tokio::spawn(report(events, context.peer.clone(), token));
        let sink = EventSink::new(sender);
        // A commit, once started, runs to its end (git is not stopped halfway): the client
        // hears what happened rather than a cancellation that did not take.
        let cancellable = !matches!(asked.call, tools::Call::Commit { .. });
        let run = run::run(&directory, &self.overrides, asked.call, &sink);
        let outcome = if cancellable {
            tokio::select! {
                outcome = run => Some(outcome),
                () = context.ct.cancelled() => None,
            }
        } else {
            Some(run.await)
        };
        drop(sink);
        let _ = reporter.await;
        let Some(outcome) = outcome else {
            // The run's future is dropped: requests in flight end with it, nothing was written.
            return Err(ErrorData::internal_error(
                format!("{}: cancelled by the client", request.name),
                None,
            ));
        };
        Ok(match outcome {
            Ok(done) => {
                let mut content = vec![ContentBlock::text(done.text)];
                if !done.warnings.is_empty() {
                    content.push(ContentBlock::text(format!(
                        "warnings:\n{}",
                        done.warnings.join("\n")
                    )));
                }
                let mut result = CallToolResult::success(content);
                result.structured_content = Some(done.json);
                result
            }
            // A run that fails is the tool's answer, in the command line's words, so the agent
            // reads why (nothing staged, no provider, a provider error).
            Err(err) => CallToolResult::error(vec![ContentBlock::text(format!(
                "error: {}",
                one_line(&err)
            ))]),
        }
        .into())
    }
}

/// Turns Iris' events into progress notifications (when the client asked for them with a
/// progress token). A tool call that the safety mode would ask about is refused: there is
/// no terminal to ask on, as for the command line without one.
async fn report(
    mut events: UnboundedReceiver<AgentEvent>,
    peer: Peer<RoleServer>,
    token: Option<ProgressToken>,
) {
    let mut state = Progress::default();
    let mut step = 0.0;
    let mut said = String::new();
    while let Some(event) = events.recv().await {
        let message = match &event {
            AgentEvent::Approval(request) => {
                request.reply.send(Decision::Deny);
                Some(format!(
                    "{} ({}) was not run: the safety mode asks first and no one can be asked over MCP (safety_mode = \"yolo\" in the user config allows it)",
                    request.tool, request.risk
                ))
            }
            AgentEvent::SecretWithheld(finding) => {
                Some(crate::output::said::withheld_line(finding))
            }
            AgentEvent::Warning(text) => Some(format!("warning: {text}")),
            other => {
                state.apply(other);
                if state.activity.is_empty() || state.activity == said {
                    None
                } else {
                    said = state.activity.clone();
                    Some(said.clone())
                }
            }
        };
        let (Some(message), Some(token)) = (message, token.as_ref()) else {
            continue;
        };
        step += 1.0;
        let _ = peer
            .notify_progress(
                ProgressNotificationParam::new(token.clone(), step).with_message(message),
            )
            .await;
    }
}
