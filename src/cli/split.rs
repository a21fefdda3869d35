//! `iris split`: Iris plans how a tangled change splits into atomic commits; the plan is
//! printed (`--json`: as JSON), `--apply` commits it group by group through `git commit`
//! (`--check` runs a command on each group's tree first), and `--undo` restores the state
//! from before the last split.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use clap::Args;

use super::config::ConfigFlags;
use super::interrupt::Interrupt;
use super::progress::ProgressLine;
use super::prompt::Prompter;
use super::session::{OutputFlags, Session};
use crate::shared::exit::UsageError;
use iris_core::split::{SplitPlan, check_plan, plan_text, unit_ids};
use iris_git::GitRepo;
use iris_git::split::{ApplyOptions, Progress, SplitChange};

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

pub async fn run(args: SplitArgs) -> Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let repo = GitRepo::discover(&cwd)?;
    if let Some(jj) = crate::shared::jj::open(&repo)? {
        return super::split_jj::run(args, repo, jj).await;
    }
    if args.revision.is_some() {
        return Err(UsageError(
            "-r is for jj repositories: in git, iris split takes apart the uncommitted change"
                .into(),
        )
        .into());
    }
    if args.undo {
        println!("{}", repo.undo_split()?);
        return Ok(ExitCode::SUCCESS);
    }
    if args.apply && !args.yes && !args.output.dry_run && !std::io::stdin().is_terminal() {
        return Err(UsageError(
            "--apply asks before committing, and there is no terminal to ask on: add --yes".into(),
        )
        .into());
    }
    let change = repo.split_change(args.staged)?;
    if change.is_empty() {
        let what = if args.staged {
            "staged change"
        } else {
            "change"
        };
        return Err(UsageError(format!("there is no {what} to split")).into());
    }
    let plan = plan_for(&args, &change).await?;
    let agreed = shown_and_agreed(&args, &plan, &change.units, ("commits", "committed"))?;
    if !agreed {
        return Ok(ExitCode::SUCCESS);
    }
    // ctrl-c stops the split before its next group (git and the check get the signal too).
    let interrupt = Interrupt::listen();
    let options = ApplyOptions {
        check: args.check.as_deref(),
        interrupted: Some(interrupt.flag()),
        ..ApplyOptions::default()
    };
    let applied = tokio::task::block_in_place(|| repo.apply_split(&change, &plan, options, report));
    drop(interrupt);
    match applied {
        Ok(applied) => {
            let made = applied.commits.len();
            let s = if made == 1 { "" } else { "s" };
            eprintln!("Made {made} commit{s}; `iris split --undo` puts the change back as it was.");
            Ok(ExitCode::SUCCESS)
        }
        Err(stop) => Err(anyhow!(stop)),
    }
}

/// Prints the plan (`--json`: as JSON); whether to apply it: `--apply`, and on a terminal
/// without `--yes` the user's yes to making its `made.0` (said as not `made.1` on a no).
pub(super) fn shown_and_agreed(
    args: &SplitArgs,
    plan: &SplitPlan,
    units: &[iris_core::split::Unit],
    made: (&str, &str),
) -> Result<bool> {
    if args.output.json {
        println!("{}", serde_json::to_string_pretty(plan)?);
    } else {
        println!("{}", crate::shared::said::shown(&plan_text(plan, units)));
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
pub(super) async fn plan_for(args: &SplitArgs, change: &SplitChange) -> Result<SplitPlan> {
    match &args.plan {
        Some(file) => read_plan(file, change),
        None => ask_iris(args, change).await,
    }
}

/// Progress on stderr, a line a step.
fn report(progress: Progress) {
    match progress {
        Progress::Checking { group, of } => eprintln!("[{group}/{of}] checking…"),
        Progress::Committing { .. } => {}
        Progress::Committed { group, of, summary } => {
            eprintln!("[{group}/{of}] {}", crate::shared::said::shown(&summary))
        }
    }
}

/// Iris' plan for `change` (or, with `--dry-run`, the request it would send).
async fn ask_iris(args: &SplitArgs, change: &SplitChange) -> Result<SplitPlan> {
    let session = Session::open(&args.config, args.output)?;
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
fn read_plan(file: &PathBuf, change: &SplitChange) -> Result<SplitPlan> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the plan {}", file.display()))?;
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
