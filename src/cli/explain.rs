//! `iris explain FILE`: why a file exists and the responsibility blocks its code divides
//! into, as text or (`--json`) as the FileIntent.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::config::ConfigFlags;
use super::progress::ProgressLine;
use super::session::{OutputFlags, Session};
use super::typed_path::TypedPath;

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The file, as it is in the working copy (relative to the current directory, as git
    /// reads paths).
    #[arg(value_name = "FILE")]
    pub file: String,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

pub async fn run(args: ExplainArgs) -> Result<ExitCode> {
    let ws = args.config.workspace()?;
    let path = TypedPath::read(&args.file, &ws.repo.root())?;
    // What else the file may be (a directory, binary, outside) Iris's own check says.
    if ws
        .repo
        .root()
        .join(&path.in_repo)
        .symlink_metadata()
        .is_err()
    {
        return Err(path.not_there("does not exist").into());
    }
    let session = Session::on(&ws, args.output)?;
    let progress = ProgressLine::start();
    let result = session
        .iris
        .explain_file(&path.in_repo, &progress.sink())
        .await;
    progress.finish().await;
    let result = session.finish(result);
    let explained = result?;
    if args.output.json {
        println!("{}", serde_json::to_string_pretty(&explained)?);
    } else {
        println!(
            "{}",
            crate::output::said::shown(explained.to_text().trim_end())
        );
    }
    Ok(ExitCode::SUCCESS)
}
