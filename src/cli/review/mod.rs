//! `iris review`: findings on the staged change, a range or a commit, printed as markdown,
//! JSON or a CI format, posted to the forge, and failing the run at a severity.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::config::ConfigFlags;
use super::session::{AgentSessionFlags, OutputFlags, Session, print_artifact, publish};

mod again;
use again::Plan;

use crate::app::Workspace;
use crate::app::dismissed::Dismissed;
use crate::app::stores::review_memory::{Keeper, ReviewMemory};
use crate::app::vcs::{Base, ChangeAsked};
use crate::output::exit::{self, UsageError};
use crate::output::written::confident;
use crate::publish::{OnThePr, ReviewPost, forge_of_repo, on_the_pr, post_review};
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::review::memory::review_json;
use iris_studio_core::artifact::review::{Aspect, ReviewOptions, report};
use iris_studio_core::artifact::{ArtifactKind, Review, Severity};

/// The flags that review, which the dismissal flags do not go with.
const REVIEWING: [&str; 13] = [
    "from",
    "to",
    "commit",
    "include_unstaged",
    "min_confidence",
    "post",
    "full",
    "no_inline",
    "verify",
    "aspects",
    "format",
    "fail_on",
    "dismissed",
];

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("memory_edit").args(["dismiss", "undismiss"])))]
pub struct ReviewArgs {
    /// Review FROM..TO instead of the staged changes.
    #[arg(long, value_name = "REF", conflicts_with = "commit")]
    pub from: Option<String>,
    /// End of the range (default HEAD).
    #[arg(long, value_name = "REF", requires = "from")]
    pub to: Option<String>,
    /// Review one commit.
    #[arg(long, value_name = "REV")]
    pub commit: Option<String>,
    /// Review unstaged changes too (all uncommitted changes).
    #[arg(long, conflicts_with_all = ["from", "commit"])]
    pub include_unstaged: bool,
    /// Leave out findings the reviewer is less sure of than this (0-100; default
    /// review_min_confidence, 70); 0 shows every finding.
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=100))]
    pub min_confidence: Option<u8>,
    /// Then post the review on the current branch's pull request (GitHub, with your `gh`)
    /// or merge request (GitLab, with your `glab`): each checked finding on its line of the
    /// diff, pinned to the head commit, the rest in the review's body. Posting a range again
    /// reviews only the commits since Iris' last review there: new findings on their lines,
    /// the summary updated with what the new commits resolved.
    #[arg(long)]
    pub post: bool,
    /// With --post: review the whole range again and replace Iris' earlier review, instead
    /// of the commits since it.
    #[arg(long, requires = "post", conflicts_with = "no_inline")]
    pub full: bool,
    /// With --post: one comment with the whole review instead of findings on their lines.
    #[arg(long, requires = "post")]
    pub no_inline: bool,
    /// Give the findings a second look (one more request): each is kept or dropped with a
    /// reason, the dropped ones folded (default review_verify, off).
    #[arg(long)]
    pub verify: bool,
    /// Review in one pass per aspect, in parallel, merged with each finding once:
    /// correctness, security, performance, tests.
    #[arg(long, value_name = "ASPECT,...", value_delimiter = ',')]
    pub aspects: Vec<Aspect>,
    /// Print the checked, confident findings for CI: sarif (SARIF 2.1.0, for GitHub code
    /// scanning), github (workflow commands that annotate the lines), gitlab (a Code Quality
    /// report). Default: the review's markdown.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<ReviewFormat>,
    /// Exit 1 when a checked, confident finding of this severity or worse remains:
    /// critical, high, medium, low or info.
    #[arg(long, value_name = "SEVERITY", value_parser = severity)]
    pub fail_on: Option<Severity>,
    /// Dismiss the finding ID of the last review (its id is printed beside it): the same
    /// finding is left out of later reviews, and the reason tells the reviewer why.
    #[arg(long, value_name = "ID", conflicts_with_all = REVIEWING)]
    pub dismiss: Option<String>,
    /// With --dismiss: why ("false positive", "intended", or your own words).
    #[arg(long, value_name = "TEXT", requires = "dismiss")]
    pub reason: Option<String>,
    /// With --dismiss or --undismiss: in the team's `.iris/review-memory.toml`, committed in
    /// the repository, instead of your `.git/iris/`.
    #[arg(long, requires = "memory_edit")]
    pub team: bool,
    /// Take back the dismissal ID (yours, or the team's with --team).
    #[arg(long, value_name = "ID", conflicts_with_all = REVIEWING)]
    pub undismiss: Option<String>,
    /// List the dismissed findings, yours and the team's.
    #[arg(long, conflicts_with_all = ["from", "to", "commit", "include_unstaged", "post", "verify", "aspects", "format", "fail_on", "min_confidence"])]
    pub dismissed: bool,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
    #[command(flatten)]
    pub sessions: AgentSessionFlags,
}

/// How `iris review --format` prints the findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReviewFormat {
    Sarif,
    Github,
    Gitlab,
}

fn severity(name: &str) -> std::result::Result<Severity, String> {
    Severity::ALL
        .into_iter()
        .find(|s| s.name() == name.trim().to_ascii_lowercase())
        .ok_or_else(|| "expected critical, high, medium, low or info".to_string())
}

pub async fn run(args: ReviewArgs) -> Result<ExitCode> {
    if args.format.is_some() && (args.output.json || args.output.raw) {
        return Err(UsageError(
            "--format prints its own output: leave out --json and --raw".into(),
        )
        .into());
    }
    let ws = args.config.workspace_with(args.sessions)?;
    let memory = ws.review_memory();
    if let Some(code) = remembering(&args, &memory)? {
        return Ok(code);
    }
    let mut dismissed = Dismissed::read(memory)?;
    let mut session = Session::on(&ws, args.output)?;
    let mut aspects: Vec<Aspect> = Vec::new();
    for aspect in &args.aspects {
        if !aspects.contains(aspect) {
            aspects.push(*aspect);
        }
    }
    let mut scope = tokio::task::block_in_place(|| scope_of(&ws, &args))?;
    if args.post {
        forge_of_repo(&ws.repo, "review")?;
    }
    // A pull request Iris reviewed before decides what is reviewed now.
    let on_pr = if args.post && !args.no_inline {
        earlier_on_the_pr(&ws.repo).await
    } else {
        None
    };
    let plan = match &on_pr {
        Some(on_pr) => again::plan(&ws.repo, &scope, on_pr, args.full)?,
        None => Plan::Whole(None),
    };
    // For a re-review: the earlier findings the new commits resolved, and those still open.
    let (mut resolved, mut earlier) = (Vec::new(), Vec::new());
    match &plan {
        Plan::Nothing { to } => {
            eprintln!(
                "Iris reviewed {} on the pull request already: nothing new to review \
                 (--full reviews the whole range again)",
                again::short_of(to)
            );
            return Ok(ExitCode::SUCCESS);
        }
        Plan::Since { since, to } => {
            eprintln!(
                "reviewing the commits since {}, which Iris reviewed on the pull request \
                 (--full reviews the whole range)",
                again::short_of(since)
            );
            scope = Scope::range(since, to);
            let open = on_pr.as_ref().map(again::earlier_open).unwrap_or_default();
            (resolved, earlier) =
                tokio::task::block_in_place(|| again::split_resolved(&ws.repo, to, open));
        }
        Plan::Whole(Some(why)) => eprintln!("{why}"),
        Plan::Whole(None) => {}
    }
    if let Some(on_pr) = &on_pr {
        dismissed.dismissals.extend(on_pr.dismissed.iter().cloned());
    }
    session.iris = session.iris.with_review(ReviewOptions {
        aspects,
        verify: args.verify || ws.config.review_verify,
        dismissals: dismissed.dismissals.clone(),
        earlier: earlier.clone(),
    });
    let mut written = session.write(ArtifactKind::Review, &scope, false).await?;
    // What was dismissed before is dropped once, here, before every output.
    let review: Review = serde_json::from_value(written.json.clone())?;
    let (mut review, dismissed_line) =
        tokio::task::block_in_place(|| dismissed.leave_out(&ws.repo, &scope, &review));
    let mut already = 0;
    if let (Plan::Since { .. }, Some(on_pr)) = (&plan, &on_pr) {
        (review, already) = again::without_posted(&review, on_pr, &earlier);
    }
    if dismissed_line.is_some() || already > 0 {
        written.text = review.to_markdown();
        written.json = serde_json::to_value(&review)?;
    }
    let min = args
        .min_confidence
        .unwrap_or(ws.config.review_min_confidence);
    let mut written = confident(written, min)?;
    let kept: Review = serde_json::from_value(written.json.clone())?;
    written.json = review_json(&kept)?;
    // A re-review says what the new commits resolved, and records what is on the pull
    // request after it for the next.
    let posting = match &plan {
        Plan::Since { since, to } => {
            let said = again::since_text(since, &resolved, earlier.len(), already);
            written.text = format!("{}\n\n{said}", written.text.trim_end());
            written.json["resolved_since"] = serde_json::to_value(&resolved)?;
            again::posting(Some(to.clone()), earlier, &kept, true)
        }
        _ => {
            let head = match &scope {
                Scope::Range { to, .. } => ws.repo.commit_id(to).ok(),
                _ => None,
            };
            again::posting(head, Vec::new(), &kept, false)
        }
    };
    if let Some(line) = &dismissed_line {
        written.text = format!("{}\n\n{line}\n", written.text.trim_end());
    }
    if let Some(line) = &dismissed_line
        && (args.format.is_some() || args.output.json)
    {
        eprintln!("{}", line.trim_matches('_'));
    }
    match args.format {
        None => print_artifact(&written, args.output)?,
        Some(format) => {
            let version = env!("CARGO_PKG_VERSION");
            let text = match format {
                ReviewFormat::Sarif => {
                    serde_json::to_string_pretty(&report::sarif(&kept, version))?
                }
                ReviewFormat::Gitlab => {
                    serde_json::to_string_pretty(&report::gitlab_report(&kept))?
                }
                ReviewFormat::Github => report::github_commands(&kept),
            };
            println!("{}", text.trim_end());
        }
    }
    if args.post {
        let root = ws.repo.root();
        let body = written.text.clone();
        let how = if args.no_inline {
            ReviewPost::Comment
        } else {
            ReviewPost::Inline(posting)
        };
        publish("review", move || post_review(&root, &body, how)).await?;
    }
    if let Some(threshold) = args.fail_on {
        let failing = kept
            .findings
            .iter()
            .filter(|f| f.severity <= threshold)
            .count();
        if failing > 0 {
            let findings = if failing == 1 { "finding" } else { "findings" };
            eprintln!(
                "{failing} {findings} at {} or worse (--fail-on {})",
                threshold.name(),
                threshold.name()
            );
            return Ok(ExitCode::from(exit::GENERAL));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What Iris posted on the pull request before, or none when it cannot be read (no pull
/// request yet: the post says so after the review is printed).
async fn earlier_on_the_pr(repo: &iris_studio_git::GitRepo) -> Option<OnThePr> {
    let root = repo.root();
    let on_pr = tokio::task::spawn_blocking(move || on_the_pr(&root))
        .await
        .ok()?
        .ok()?;
    if let Some(why) = &on_pr.threads_unread {
        eprintln!("the pull request's resolved threads were not read: {why}");
    }
    Some(on_pr)
}

/// `--dismiss`, `--undismiss` and `--dismissed`: done, with the exit code, or none when the
/// run reviews.
fn remembering(args: &ReviewArgs, memory: &ReviewMemory) -> Result<Option<ExitCode>> {
    let keeper = if args.team {
        Keeper::Team
    } else {
        Keeper::User
    };
    if let Some(id) = &args.dismiss {
        let reason = args.reason.as_deref().unwrap_or_default();
        let Some(said) = memory.dismiss_seen(keeper, id, reason)? else {
            return Err(UsageError(format!(
                "no finding {} in the last review: run `iris review` and dismiss a finding by \
                 the id printed beside it",
                id.trim().to_ascii_lowercase()
            ))
            .into());
        };
        eprintln!("{said}");
        return Ok(Some(ExitCode::SUCCESS));
    }
    if let Some(id) = &args.undismiss {
        let id = id.trim().to_ascii_lowercase();
        let keepers: &[Keeper] = if args.team {
            &[Keeper::Team]
        } else {
            &[Keeper::User, Keeper::Team]
        };
        for keeper in keepers {
            if memory.undismiss(*keeper, &id)? {
                eprintln!("took back the dismissal {id} from {}", keeper.name());
                return Ok(Some(ExitCode::SUCCESS));
            }
        }
        return Err(UsageError(format!(
            "no dismissal {id}: `iris review --dismissed` lists them"
        ))
        .into());
    }
    if args.dismissed {
        let mut listed = Vec::new();
        for keeper in [Keeper::User, Keeper::Team] {
            for d in memory.dismissals(keeper)? {
                listed.push((keeper, d));
            }
        }
        if args.output.json {
            let json: Vec<serde_json::Value> = listed
                .iter()
                .map(|(keeper, d)| {
                    let mut value = serde_json::to_value(d).unwrap_or_default();
                    value["store"] = serde_json::json!(match keeper {
                        Keeper::User => "user",
                        Keeper::Team => "team",
                    });
                    value
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&json)?);
        } else if listed.is_empty() {
            println!("No finding is dismissed.");
        } else {
            for (keeper, d) in &listed {
                let reason = if d.reason.is_empty() {
                    "no reason given"
                } else {
                    &d.reason
                };
                println!(
                    "{} {} \"{}\" ({}, {}): {reason}",
                    d.id,
                    d.file,
                    d.title,
                    d.date,
                    keeper.name()
                );
            }
        }
        return Ok(Some(ExitCode::SUCCESS));
    }
    Ok(None)
}

/// What a review reads: the change being made (the staged change, or with
/// --include-unstaged every uncommitted change; jj's `@`), the commit --commit names, or
/// the commits after --from up to --to.
fn scope_of(ws: &Workspace, args: &ReviewArgs) -> Result<Scope> {
    let (vcs, repo) = (&ws.vcs, &ws.repo);
    Ok(match (&args.commit, &args.from) {
        (Some(rev), _) => Scope::Commit(vcs.commit(repo, rev)?),
        (None, Some(from)) => {
            let (from, to) = vcs.range(repo, Some(from), args.to.as_deref(), Base::Parent)?;
            UsageError::unless_commits(repo, &from, &to)?;
            Scope::range(&from, &to)
        }
        (None, None) => {
            let asked = ChangeAsked {
                unstaged: args.include_unstaged,
                nothing_staged: Some(if args.include_unstaged {
                    "nothing has changed to review: no tracked file differs from HEAD; use \
                     --commit or --from to review what is committed"
                } else {
                    "nothing is staged to review: stage changes, or use --include-unstaged, \
                     --commit or --from"
                }),
                ..ChangeAsked::default()
            };
            vcs.change(repo, &asked)?.scope
        }
    })
}
