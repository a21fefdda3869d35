//! `iris pr`: the pull request description for a branch, printed, and opened or updated on
//! the forge.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::config::ConfigFlags;
use super::session::{AgentSessionFlags, OutputFlags, Session, print_artifact, publish};
use crate::app::vcs::Base;
use crate::output::exit::UsageError;
use crate::publish::{PrAction, Target, forge_of_repo, split_pr};
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::ArtifactKind;

#[derive(Debug, Args)]
pub struct PrArgs {
    /// The base (default: the repository's default branch).
    #[arg(long, value_name = "REF")]
    pub from: Option<String>,
    /// The head (default HEAD).
    #[arg(long, value_name = "REF")]
    pub to: Option<String>,
    /// Then open the description as the current branch's pull request (GitHub, with your
    /// `gh`) or merge request (GitLab, with your `glab`) into the base: --from, else the
    /// default branch. Push the branch first.
    #[arg(long, conflicts_with = "update")]
    pub create: bool,
    /// Then replace the title and body of the current branch's pull/merge request with the
    /// description (its base changes only when --from is given).
    #[arg(long)]
    pub update: bool,
    /// Fill in this pull request template (a file of `.github/PULL_REQUEST_TEMPLATE/` or
    /// `.gitlab/merge_request_templates/`, by name: `feature` or `feature.md`) instead of the
    /// repository's default one.
    #[arg(long, value_name = "NAME")]
    pub template: Option<String>,
    /// Describe each layer of the stack the branch is in (main <- b1 <- b2 <- ...: from
    /// history, or git-town's or Graphite's records), each from its own change, each with the
    /// stack's list. The stack is printed on stderr first; with --create each layer's PR/MR
    /// is opened into the branch below it, with --update the existing ones are refreshed
    /// (re-written only when their change moved). --json prints one JSON line a layer.
    #[arg(long)]
    pub stack: bool,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
    #[command(flatten)]
    pub sessions: AgentSessionFlags,
}

pub async fn run(args: PrArgs) -> Result<ExitCode> {
    let ws = args.config.workspace_with(args.sessions)?;
    let mut session = Session::on(&ws, args.output)?;
    session.iris = session.iris.with_pr_template(args.template.clone());
    let (from, to) = (args.from.as_deref(), args.to.as_deref());
    // The branches are the checked-out one and the base, or (in jj) the range's bookmarks.
    let ((from, to), branches) = tokio::task::block_in_place(|| -> Result<_> {
        let (vcs, repo) = (&ws.vcs, &ws.repo);
        let range = vcs.range(repo, from, to, Base::DefaultBranch(NO_DEFAULT_BRANCH))?;
        let publishing = args.create || args.update;
        let branches = match publishing {
            true => vcs.pr_branches(repo, from, to)?,
            false => None,
        };
        Ok((range, branches))
    })?;
    let to = to.as_str();
    // A base that is the branch itself (a shallow CI checkout's only branch): nothing to send.
    UsageError::unless_commits(&ws.repo, &from, to)?;
    if args.create || args.update {
        forge_of_repo(&ws.repo, "description")?;
    }
    let scope = Scope::range(&from, to);
    let written = session.write(ArtifactKind::Pr, &scope, false).await?;
    print_artifact(&written, args.output)?;
    let (action, base) = match (args.create, args.update) {
        (true, _) => (PrAction::Create, Some(from)),
        // An update keeps the PR's base unless one was named.
        (false, true) => (PrAction::Update, args.from),
        (false, false) => return Ok(ExitCode::SUCCESS),
    };
    let root = ws.repo.root();
    let text =
        split_pr(&written.text).context("not published (the description is on stdout above)")?;
    let target = match branches {
        Some((base, head)) => Target::Branches { base, head },
        None => Target::Checkout { base },
    };
    publish("description", move || {
        crate::publish::description(&root, &text, action, &target)
    })
    .await?;
    Ok(ExitCode::SUCCESS)
}

/// Said when there is no default branch to start from.
const NO_DEFAULT_BRANCH: &str =
    "no default branch (main, master or the remote's HEAD) was found: pass --from";

/// The base a PR goes into: `--from`, else the repository's default branch, else a usage
/// error asking for `--from`.
pub(super) fn base_or_default(
    repo: &iris_studio_git::GitRepo,
    from: Option<String>,
) -> Result<String> {
    match from {
        Some(from) => Ok(from),
        None => repo
            .default_branch()
            .ok_or_else(|| UsageError(NO_DEFAULT_BRANCH.into()).into()),
    }
}
