//! `iris release-notes`: the release notes for a range.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::config::ConfigFlags;
use super::session::{AgentSessionFlags, OutputFlags, RangeArgs, Session, print_artifact};
use iris_studio_core::artifact::ArtifactKind;

#[derive(Debug, Args)]
pub struct ReleaseNotesArgs {
    #[command(flatten)]
    pub range: RangeArgs,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
    #[command(flatten)]
    pub sessions: AgentSessionFlags,
}

pub async fn run(args: ReleaseNotesArgs) -> Result<ExitCode> {
    let ws = args.config.workspace_with(args.sessions)?;
    let session = Session::on(&ws, args.output)?;
    let written = session
        .write(
            ArtifactKind::ReleaseNotes,
            &args.range.checked_scope(&session)?,
            false,
        )
        .await?;
    print_artifact(&written, args.output)?;
    Ok(ExitCode::SUCCESS)
}
