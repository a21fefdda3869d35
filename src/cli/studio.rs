//! `iris studio` (and `iris` alone inside a repository): the full-screen studio.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::config::ConfigFlags;
use crate::output::exit::UsageError;
use crate::studio::app::{Studio, StudioOptions};
use iris_studio_tui::state::Mode;

#[derive(Debug, Args, Default)]
pub struct StudioArgs {
    /// explore, commit, review, pr, changelog or release-notes (default: commit when something
    /// is staged or modified, else explore).
    #[arg(long, value_name = "MODE")]
    pub mode: Option<String>,
    /// Start of the range the PR, changelog and release notes cover (default: the default
    /// branch for a PR, the latest tag for a changelog or release notes).
    #[arg(long, value_name = "REF")]
    pub from: Option<String>,
    /// End of the range (default HEAD).
    #[arg(long, value_name = "REF")]
    pub to: Option<String>,
    /// The theme: dark, light, high-contrast, or one of yours in ~/.config/iris/themes.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    #[command(flatten)]
    pub config: ConfigFlags,
}

pub async fn run(args: StudioArgs) -> Result<ExitCode> {
    crate::studio::memory::tune();
    let mode = match args.mode.as_deref() {
        None => None,
        Some(name) => Some(Mode::from_name(name).ok_or_else(|| {
            UsageError(format!(
                "unknown mode '{name}': choose explore, commit, review, pr, changelog or release-notes"
            ))
        })?),
    };
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    // A range typed wrong is said before the screen is taken.
    let revs: Vec<&str> = [args.from.as_deref(), args.to.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let ws = crate::app::Workspace::open(&cwd, &args.config.overrides())?;
    for rev in revs {
        ws.vcs.commit(&ws.repo, rev)?;
    }
    // Without one, taking the screen fails deep in the terminal library ("os error 6").
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(UsageError(
            "the studio needs a terminal: run it in one; scripts have iris gen, review, pr, \
             changelog and release-notes"
                .into(),
        )
        .into());
    }
    let options = StudioOptions {
        mode,
        theme: args.theme,
        from: args.from,
        to: args.to,
        overrides: args.config.overrides(),
    };
    Studio::prepare(ws, options)?.run().await?;
    Ok(ExitCode::SUCCESS)
}
