//! `iris mcp`: serve Iris' tools to a coding agent over MCP on stdio (see `crate::mcp`).

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use rmcp::ServiceExt;

use super::config::ConfigFlags;
use crate::mcp::Server;

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Offer the `commit` tool, which commits the staged changes with a given message
    /// (without it, nothing the server does writes to the repository).
    #[arg(long)]
    pub allow_commit: bool,
    #[command(flatten)]
    pub config: ConfigFlags,
}

pub async fn run(args: McpArgs) -> Result<ExitCode> {
    let workspace = std::env::current_dir().context("cannot read the current directory")?;
    let server = Server::new(workspace, args.allow_commit, args.config.overrides());
    let service = server
        .serve(rmcp::transport::stdio())
        .await
        .context("the MCP client did not complete the handshake")?;
    service
        .waiting()
        .await
        .context("the MCP connection failed")?;
    Ok(ExitCode::SUCCESS)
}
