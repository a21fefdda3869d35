//! `iris changelog`: the changelog entry for a range, printed and inserted into the
//! changelog file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::config::ConfigFlags;
use super::session::{AgentSessionFlags, OutputFlags, RangeArgs, Session, print_artifact};
use iris_studio_core::artifact::{ArtifactKind, insert_into_changelog};

#[derive(Debug, Args)]
pub struct ChangelogArgs {
    #[command(flatten)]
    pub range: RangeArgs,
    /// Insert the entry into the changelog file instead of only printing it.
    #[arg(long)]
    pub update: bool,
    /// The changelog file (relative to the repository root).
    #[arg(
        long,
        value_name = "PATH",
        default_value = "CHANGELOG.md",
        requires = "update"
    )]
    pub file: PathBuf,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
    #[command(flatten)]
    pub sessions: AgentSessionFlags,
}

pub async fn run(args: ChangelogArgs) -> Result<ExitCode> {
    let ws = args.config.workspace_with(args.sessions)?;
    let session = Session::on(&ws, args.output)?;
    let written = session
        .write(
            ArtifactKind::Changelog,
            &args.range.checked_scope(&session)?,
            false,
        )
        .await?;
    if args.update {
        let path = ws.repo.root().join(&args.file);
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let updated = insert_into_changelog(&existing, &written.text);
        std::fs::write(&path, updated)
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("updated {}", path.display());
    }
    print_artifact(&written, args.output)?;
    Ok(ExitCode::SUCCESS)
}
