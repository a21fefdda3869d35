//! `iris split`: Iris plans how a tangled change splits into atomic commits; the plan is
//! printed (`--json`: as JSON), `--apply` commits it group by group (through `git commit`,
//! `--check` running a command on each group's tree first; in jj one change a group, jj
//! running this program as its diff editor), and `--undo` restores the state from before
//! the last split.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::config::ConfigFlags;
use super::interrupt::Interrupt;
use super::progress::ProgressLine;
use super::prompt::Prompter;
use super::session::{OutputFlags, Session};
use crate::app::Workspace;
use crate::app::vcs::{SplitAsked, SplitHow};
use crate::output::exit::UsageError;
use iris_studio_core::split::{SplitPlan, check_plan, plan_text, unit_ids};
use iris_studio_git::split::{Progress, SplitChange};

#[derive(Debug, Args)]
pub struct SplitArgs {
    /// Split only what is staged (by default the index's and the working tree's changes,
    /// untracked files included).
    #[arg(long)]
    pub staged: bool,
    /// Commit the plan's groups in order, each through `git commit` (hooks and signing
    /// apply); asks first on a terminal.
    #[arg(long)]
    pub apply: bool,
    /// Apply without asking (needed without a terminal).
    #[arg(short = 'y', long, requires = "apply")]
    pub yes: bool,
    /// Run COMMAND (with `sh -c`) on each group's files in a temporary worktree before that
    /// group is committed; the first that fails stops the split.
    #[arg(long, value_name = "COMMAND", requires = "apply")]
    pub check: Option<String>,
    /// Take the plan from FILE (the JSON `--json` prints, edited) instead of asking Iris.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Restore the state from before the last split: the index and the files it touched,
    /// byte for byte, and its commits removed while they are still on top.
    #[arg(long, conflicts_with_all = ["apply", "staged", "check", "plan"])]
    pub undo: bool,
    /// In a jj repository: the change to split (default `@`, the working copy).
    #[arg(short = 'r', long, value_name = "REV")]
    pub revision: Option<String>,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

/// The hidden diff editor jj runs for each group.
#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The folder holding what the first part should be (`manifest.json` and the bytes).
    pub state: PathBuf,
    /// jj's right side, left as the first part should be.
    pub right: PathBuf,
}

pub async fn run(args: SplitArgs) -> Result<ExitCode> {
    let ws = args.config.workspace()?;
    let (repo, vcs) = (&ws.repo, &ws.vcs);
    if args.undo {
        println!("{}", tokio::task::block_in_place(|| vcs.undo_split(repo))?);
        return Ok(ExitCode::SUCCESS);
    }
    if args.apply && !args.yes && !args.output.dry_run && !std::io::stdin().is_terminal() {
        return Err(UsageError(
            "--apply asks before committing, and there is no terminal to ask on: add --yes".into(),
        )
        .into());
    }
    let asked = SplitAsked {
        rev: args.revision.as_deref(),
        staged: args.staged,
        checked: args.check.is_some(),
    };
    let target = tokio::task::block_in_place(|| vcs.split_change(repo, &asked))?;
    let plan = plan_for(&args, &ws, &target.change).await?;
    if !shown_and_agreed(&args, &plan, &target.change.units, target.words)? {
        return Ok(ExitCode::SUCCESS);
    }
    let iris = std::env::current_exe().context("cannot find this program for jj to run")?;
    // ctrl-c stops the split before its next group (git and the check get the signal too).
    let interrupt = Interrupt::listen();
    let how = SplitHow {
        check: args.check.as_deref(),
        interrupted: Some(interrupt.flag()),
        iris: &iris,
    };
    let applied =
        tokio::task::block_in_place(|| vcs.apply_split(repo, &target, &plan, &how, &mut report));
    drop(interrupt);
    let made = applied.map_err(|stopped| stopped.error)?;
    let s = if made.made == 1 { "" } else { "s" };
    let undo = made.undo.as_deref().unwrap_or("`iris split --undo`");
    eprintln!(
        "Made {} {}{s}; {undo} puts the change back as it was.",
        made.made, made.noun
    );
    Ok(ExitCode::SUCCESS)
}

/// `iris jj-split-tool STATE RIGHT`, which jj runs for each group.
pub fn tool(args: ToolArgs) -> Result<ExitCode> {
    crate::app::vcs::split_tool(&args.state, &args.right)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the plan (`--json`: as JSON); whether to apply it: `--apply`, and on a terminal
/// without `--yes` the user's yes to making its `made.0` (said as not `made.1` on a no).
fn shown_and_agreed(
    args: &SplitArgs,
    plan: &SplitPlan,
    units: &[iris_studio_core::split::Unit],
    made: (&str, &str),
) -> Result<bool> {
    if args.output.json {
        println!("{}", serde_json::to_string_pretty(plan)?);
    } else {
        println!("{}", crate::output::said::shown(&plan_text(plan, units)));
    }
    if !args.apply {
        return Ok(false);
    }
    let count = plan.groups.len();
    let (what, done) = made;
    if !args.yes {
        let question = format!("Make these {count} {what}? [y/N] ");
        if !Prompter::stdio().confirm(&question, false)? {
            eprintln!("Nothing was {done}.");
            return Ok(false);
        }
    }
    Ok(true)
}

/// The plan: from `--plan`'s file, or Iris'.
async fn plan_for(args: &SplitArgs, ws: &Workspace, change: &SplitChange) -> Result<SplitPlan> {
    match &args.plan {
        Some(file) => read_plan(file, change),
        None => ask_iris(args, ws, change).await,
    }
}

/// Progress on stderr, a line a step.
fn report(progress: Progress) {
    match progress {
        Progress::Checking { group, of } => eprintln!("[{group}/{of}] checking…"),
        Progress::Committing { .. } => {}
        Progress::Committed { group, of, summary } => {
            eprintln!("[{group}/{of}] {}", crate::output::said::shown(&summary))
        }
    }
}

/// Iris' plan for `change` (or, with `--dry-run`, the request it would send).
async fn ask_iris(args: &SplitArgs, ws: &Workspace, change: &SplitChange) -> Result<SplitPlan> {
    let session = Session::on(ws, args.output)?;
    let progress = ProgressLine::start().priced(session.price());
    let result = session
        .iris
        .plan_split(
            &change.units,
            &change.files,
            change.staged,
            &progress.sink(),
        )
        .await;
    progress.finish().await;
    let planned = session.finish(result)?;
    if !planned.first_problems.is_empty() {
        eprintln!(
            "Iris' first plan was sent back: {}",
            planned.first_problems.join("; ")
        );
    }
    Ok(planned.plan)
}

/// A plan from a file, checked like Iris' own.
fn read_plan(file: &std::path::Path, change: &SplitChange) -> Result<SplitPlan> {
    let text = super::session::plan_text(file)?;
    let plan: SplitPlan = serde_json::from_str(&text)
        .map_err(|e| UsageError(format!("{} is not a split plan: {e}", file.display())))?;
    check_plan(&plan, &unit_ids(&change.units)).map_err(|problems| {
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        UsageError(format!(
            "the plan in {} is not valid: {}",
            file.display(),
            said.join("; ")
        ))
        .into()
    })
}
