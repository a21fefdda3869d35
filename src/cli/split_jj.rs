//! `iris split` in a jj workspace: Iris plans how a change (`@`, or `-r REV`) splits, and jj
//! applies the plan, one change a group in order (`shared::jj_split`), so hunks of one file
//! go to different changes. jj keeps every operation: the one before the split is named for
//! `jj op restore`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::split::{SplitArgs, plan_for, shown_and_agreed};
use crate::shared::exit::UsageError;
use crate::shared::jj::change_to_describe;
use iris_git::GitRepo;
use iris_git::jj::Jj;

/// The hidden diff editor jj runs for each group.
#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The folder holding what the first part should be (`manifest.json` and the bytes).
    pub state: PathBuf,
    /// jj's right side, left as the first part should be.
    pub right: PathBuf,
}

pub async fn run(args: SplitArgs, repo: GitRepo, jj: Jj) -> Result<ExitCode> {
    if args.undo {
        let said = tokio::task::block_in_place(|| crate::shared::jj_split::undo(&repo, &jj))?;
        println!("{said}");
        return Ok(ExitCode::SUCCESS);
    }
    let refusal = if args.staged {
        Some("jj has no staging area: the change split is @ (or the one -r names)")
    } else if args.check.is_some() {
        Some("--check runs on git's index, which a jj split does not use")
    } else {
        None
    };
    if let Some(why) = refusal {
        return Err(UsageError(why.into()).into());
    }
    let rev = args.revision.as_deref().unwrap_or("@");
    let found = tokio::task::block_in_place(|| change_to_describe(&jj, rev))?;
    let change = repo.split_change_of(&found.commit_id)?;
    let plan = plan_for(&args, &change).await?;
    let agreed = shown_and_agreed(&args, &plan, &change.units, ("changes with jj", "changed"))?;
    if !agreed {
        return Ok(ExitCode::SUCCESS);
    }
    let count = plan.groups.len();
    // The plan holds for the change Iris read: refused if it moved while she planned.
    let now = tokio::task::block_in_place(|| jj.change(&found.change_id))?;
    if now.commit_id != found.commit_id {
        return Err(anyhow::anyhow!(
            "the change {} moved since Iris planned it (files changed, or jj rewrote it): \
             nothing was split; run iris split again",
            found.short_id
        ));
    }
    let before = tokio::task::block_in_place(|| {
        let report = |number, of, title: &str| {
            eprintln!("[{number}/{of}] {}", crate::shared::said::shown(title));
        };
        let iris = std::env::current_exe().context("cannot find this program for jj to run")?;
        let target = (found.change_id.as_str(), &change);
        crate::shared::jj_split::apply(&repo, &jj, target, &plan, &iris, report)
    })?;
    let s = if count == 1 { "" } else { "s" };
    eprintln!("Made {count} change{s}; `jj op restore {before}` puts the change back as it was.");
    Ok(ExitCode::SUCCESS)
}

/// `iris jj-split-tool STATE RIGHT`, which jj runs for each group.
pub fn tool(args: ToolArgs) -> Result<ExitCode> {
    iris_git::jj::write_right(&args.state, &args.right)?;
    Ok(ExitCode::SUCCESS)
}
