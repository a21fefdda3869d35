//! The generation commands: `iris gen`, `review`, `pr`, `changelog`, `release-notes`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::config::ConfigFlags;
use super::exit::UsageError;
use super::progress::ProgressLine;
use super::prompt::Prompter;
use crate::publish::{
    PrAction, PublishError, Published, ReviewPost, forge_of_repo, post_review, publish_pr, split_pr,
};
use iris_agent::IrisAgent;
use iris_agent::capability::candidates::Candidate;
use iris_agent::capability::requests::Scope;
use iris_agent::capability::review::{Aspect, ReviewOptions};
use iris_agent::capability::write::Written;
use iris_agent::runtime::dry_run::DryRun;
use iris_config::Config;
use iris_core::artifact::review::report;
use iris_core::artifact::{ArtifactKind, Review, Severity, insert_into_changelog};
use iris_git::{CommitOptions, GitRepo};

/// How the artifact is printed.
#[derive(Debug, Args, Clone, Copy)]
pub struct OutputFlags {
    /// Print plain markdown (the default output, without any decoration).
    #[arg(long, global = true)]
    pub raw: bool,
    /// Print the structured artifact as JSON.
    #[arg(long, global = true, conflicts_with = "raw")]
    pub json: bool,
    /// Take each reply whole instead of streaming it.
    #[arg(long, global = true)]
    pub no_stream: bool,
    /// Also copy the artifact, as printed, to the clipboard: through the terminal (OSC 52), so
    /// it works over ssh; stdout is unchanged. Without a terminal it only warns.
    #[arg(long, global = true)]
    pub copy: bool,
    /// Send nothing: gather the evidence and print the first request exactly as it would go
    /// out (secrets withheld), its size by part in characters and tokens, and what it would
    /// cost (--json: as JSON).
    #[arg(long, global = true)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Print the message (the default when not committing).
    #[arg(short = 'p', long)]
    pub print: bool,
    /// Commit the staged changes with the message (through `git commit`, hooks included).
    #[arg(short = 'a', long)]
    pub auto_commit: bool,
    /// Write a message for amending HEAD (commits with --amend when used with --auto-commit).
    #[arg(long)]
    pub amend: bool,
    /// Skip the pre-commit and commit-msg hooks when committing.
    #[arg(long)]
    pub no_verify: bool,
    /// Have the critic check the message and revise it once if needed.
    #[arg(long)]
    pub critic: bool,
    /// Write nothing: check a message against the repository's commitlint or commitizen
    /// rules (stdin's when piped, else the last commit's) and exit 1 on an error-level
    /// violation. Needs no provider.
    #[arg(long, conflicts_with_all = ["print", "auto_commit", "amend", "no_verify", "critic"])]
    pub check: bool,
    /// Write N messages to choose from (at most 6): on a terminal you pick one; with --print,
    /// --json or without a terminal all are printed, numbered.
    #[arg(
        short = 'n',
        long = "candidates",
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::value_parser!(u8).range(1..=6),
        conflicts_with = "check"
    )]
    pub candidates: u8,
    /// Have each of these models of the selected provider write the message (N each with
    /// -n), labelled with its name: `--models gpt-5,gpt-5-mini`.
    #[arg(
        long,
        value_name = "MODEL,...",
        value_delimiter = ',',
        conflicts_with = "check"
    )]
    pub models: Vec<String>,
    /// With --check: check this commit's message, or with A..B every commit of the range,
    /// naming each that fails (stdin is not read).
    #[arg(long, value_name = "REV", requires = "check")]
    pub rev: Option<String>,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

#[derive(Debug, Args)]
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
    /// diff, pinned to the head commit, the rest in the review's body; posting again
    /// replaces Iris' earlier review.
    #[arg(long)]
    pub post: bool,
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
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
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
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

/// The commits FROM..TO an artifact covers, and the version they ship in.
#[derive(Debug, Args)]
pub struct RangeArgs {
    /// Start of the range (exclusive), e.g. the previous release tag.
    #[arg(long, value_name = "REF")]
    pub from: String,
    /// End of the range (default HEAD).
    #[arg(long, value_name = "REF")]
    pub to: Option<String>,
    /// The version these changes ship in.
    #[arg(long, value_name = "NAME")]
    pub version_name: Option<String>,
}

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
}

#[derive(Debug, Args)]
pub struct ReleaseNotesArgs {
    #[command(flatten)]
    pub range: RangeArgs,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

/// The repository, the configuration and Iris, ready to work.
struct Session {
    repo: GitRepo,
    config: Config,
    iris: IrisAgent,
    /// `--dry-run`: where the first request is kept instead of being sent.
    dry_run: Option<DryRun>,
    json: bool,
}

impl Session {
    fn open(flags: &ConfigFlags, output: OutputFlags) -> Result<Self> {
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        let repo = GitRepo::discover(&cwd)?;
        let root = repo.root();
        let config = Config::load(Some(&root), &flags.overrides())?;
        let iris = IrisAgent::from_config(&config, &root, repo.git_dir(), !output.no_stream)?;
        let (iris, dry_run) = super::dry_run::prepare(iris, output.dry_run);
        Ok(Self {
            repo,
            config,
            iris,
            dry_run,
            json: output.json,
        })
    }

    /// Writes an artifact with the progress line on stderr.
    async fn write(&self, kind: ArtifactKind, scope: &Scope, ask_critic: bool) -> Result<Written> {
        let progress = ProgressLine::start().priced(self.price());
        let result = self
            .iris
            .write(kind, scope, ask_critic, &progress.sink())
            .await;
        progress.finish().await;
        let written = self.finish(result)?;
        warn_about(&written);
        Ok(written)
    }

    /// Several versions of the commit message to choose from, with the progress line.
    async fn candidates(&self, scope: &Scope, args: &GenArgs) -> Result<Vec<Candidate>> {
        let progress = ProgressLine::start().priced(self.price());
        let result = self
            .iris
            .write_candidates(
                ArtifactKind::Commit,
                scope,
                usize::from(args.candidates),
                &args.models,
                args.critic,
                &progress.sink(),
            )
            .await;
        progress.finish().await;
        let candidates = self.finish(result)?;
        for candidate in &candidates {
            warn_about(&candidate.written);
        }
        Ok(candidates)
    }

    /// The selected model's prices, when known.
    fn price(&self) -> Option<iris_config::prices::Price> {
        self.config.model_price().map(|(price, _)| price)
    }

    /// A run's result, or with `--dry-run` the request it kept, shown.
    fn finish<T>(&self, result: Result<T>) -> Result<T> {
        super::dry_run::finish(self.dry_run.as_ref(), result, &self.config, self.json)
    }

    /// Fails with a usage error when nothing is staged.
    fn require_staged(&self, what: &str) -> Result<()> {
        require_staged(&self.repo, what)
    }
}

/// Fails with a usage error (saying `what`) when nothing is staged in `repo`.
pub(crate) fn require_staged(repo: &GitRepo, what: &str) -> Result<()> {
    if repo.status()?.staged().count() == 0 {
        return Err(UsageError(what.to_string()).into());
    }
    Ok(())
}

/// What a written artifact warns about on stderr: a critic that could not run, the commit
/// rules it still breaks.
fn warn_about(written: &Written) {
    for warning in warnings_of(written) {
        eprintln!("warning: {warning}");
    }
}

/// What a written artifact warns about, a sentence each.
pub(crate) fn warnings_of(written: &Written) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(warning) = &written.critic_warning {
        warnings.push(format!(
            "the critic could not check the draft ({warning}); keeping it as written"
        ));
    }
    if let Some(source) = &written.rules_source {
        for v in &written.rule_violations {
            let level = if v.error { "" } else { ", a warning" };
            warnings.push(format!(
                "the message breaks {} ({source}{level}): {}",
                v.rule, v.message
            ));
        }
    }
    warnings
}

/// The artifact as the flags ask for it: markdown, or its JSON with --json.
fn rendered(written: &Written, output: OutputFlags) -> Result<String> {
    let text = if output.json {
        serde_json::to_string_pretty(&written.json)?
    } else {
        written.text.clone()
    };
    Ok(text.trim_end().to_string())
}

/// Prints the artifact on stdout, and copies it too with --copy.
fn print_artifact(written: &Written, output: OutputFlags) -> Result<()> {
    let text = rendered(written, output)?;
    println!("{}", super::shown(&text));
    if output.copy {
        copy(&text);
    }
    Ok(())
}

/// Copies `text` to the clipboard through the terminal; a failure only warns (the text is on
/// stdout).
fn copy(text: &str) {
    match crate::clipboard::copy_to_terminal(text) {
        Ok(()) => eprintln!("copied to the clipboard ({} chars)", text.chars().count()),
        Err(err) => eprintln!("warning: not copied to the clipboard: {err}"),
    }
}

/// Runs a blocking publish off the async runtime; says what was published on stderr. A
/// failure is an error saying the artifact is on stdout anyway.
async fn publish<F>(what: &str, job: F) -> Result<()>
where
    F: FnOnce() -> std::result::Result<Published, PublishError> + Send + 'static,
{
    let published = tokio::task::spawn_blocking(job)
        .await
        .context("the publishing task failed")?
        .with_context(|| format!("not published (the {what} is on stdout above)"))?;
    eprintln!("{}", published.summary);
    Ok(())
}

pub async fn gen_command(args: GenArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    if !args.amend {
        session.require_staged("nothing is staged: stage your changes with `git add` first")?;
    }
    let scope = if args.amend {
        Scope::Amend
    } else {
        Scope::Staged
    };
    let several = args.candidates > 1 || !args.models.is_empty();
    let written = if several {
        let pick = can_pick(&args);
        if args.auto_commit && !pick {
            return Err(UsageError(
                "--auto-commit with several candidates needs a terminal to pick one on, and no \
                 --print or --json"
                    .to_string(),
            )
            .into());
        }
        let candidates = session.candidates(&scope, &args).await?;
        if !pick {
            print_candidates(&candidates, args.output)?;
            return Ok(ExitCode::SUCCESS);
        }
        match super::pick::pick(&candidates, &mut Prompter::stdio())? {
            Some(written) => written,
            None => {
                eprintln!("no message picked; nothing was committed");
                return Ok(ExitCode::from(super::exit::GENERAL));
            }
        }
    } else {
        session
            .write(ArtifactKind::Commit, &scope, args.critic)
            .await?
    };
    // Remembered with the change it was written for: `iris eval --accepted` later finds
    // the commit that carries it, however it was committed.
    crate::eval::accepted::remember(&session.repo, &written.text, "gen", args.amend);
    if args.auto_commit {
        let options = CommitOptions {
            amend: args.amend,
            no_verify: args.no_verify,
        };
        match session.repo.commit(&written.text, options) {
            Ok(summary) => {
                eprintln!("{summary}");
                if args.print {
                    print_artifact(&written, args.output)?;
                } else if args.output.copy {
                    copy(&rendered(&written, args.output)?);
                }
            }
            Err(err) => {
                // Nothing is lost: the message goes to stdout for the user to reuse.
                println!("{}", written.text.trim_end());
                return Err(err.into());
            }
        }
    } else {
        print_artifact(&written, args.output)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether the user can pick one of several candidates: stdin and stderr are a terminal, and
/// the output is not asked for whole (--print, --json).
fn can_pick(args: &GenArgs) -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
        && !args.print
        && !args.output.json
}

/// Every candidate on stdout, numbered (with --json, an array of labelled artifacts); copied
/// too with --copy.
fn print_candidates(candidates: &[Candidate], output: OutputFlags) -> Result<()> {
    let text = if output.json {
        let all: Vec<serde_json::Value> = candidates
            .iter()
            .enumerate()
            .map(|(i, c)| {
                serde_json::json!({
                    "number": i + 1,
                    "model": (!c.label.is_empty()).then_some(&c.label),
                    "message": c.written.json,
                })
            })
            .collect();
        serde_json::to_string_pretty(&all)?
    } else {
        super::pick::numbered(candidates)
    };
    println!("{}", super::shown(text.trim_end()));
    if output.copy {
        copy(&text);
    }
    Ok(())
}

pub async fn review_command(args: ReviewArgs) -> Result<ExitCode> {
    if args.format.is_some() && (args.output.json || args.output.raw) {
        return Err(UsageError(
            "--format prints its own output: leave out --json and --raw".into(),
        )
        .into());
    }
    let mut session = Session::open(&args.config, args.output)?;
    let mut aspects: Vec<Aspect> = Vec::new();
    for aspect in &args.aspects {
        if !aspects.contains(aspect) {
            aspects.push(*aspect);
        }
    }
    session.iris = session.iris.with_review(ReviewOptions {
        aspects,
        verify: args.verify || session.config.review_verify,
    });
    let to = args.to.as_deref().unwrap_or("HEAD");
    let revs: Vec<&str> = match (&args.commit, &args.from) {
        (Some(rev), _) => vec![rev.as_str()],
        (None, Some(from)) => vec![from.as_str(), to],
        (None, None) => Vec::new(),
    };
    UsageError::unless_revisions(&session.repo, &revs)?;
    let scope = match (&args.commit, &args.from) {
        (Some(rev), _) => Scope::Commit(rev.clone()),
        (None, Some(from)) => Scope::range(from, args.to.as_deref().unwrap_or("HEAD")),
        (None, None) if args.include_unstaged => Scope::Uncommitted,
        (None, None) => {
            session.require_staged(
                "nothing is staged to review: stage changes, or use --include-unstaged, --commit or --from",
            )?;
            Scope::Staged
        }
    };
    if args.post {
        forge_of_repo(&session.repo, "review")?;
    }
    let written = session.write(ArtifactKind::Review, &scope, false).await?;
    let min = args
        .min_confidence
        .unwrap_or(session.config.review_min_confidence);
    let written = confident(written, min)?;
    let kept: Review = serde_json::from_value(written.json.clone())?;
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
        let root = session.repo.root();
        let body = written.text.clone();
        let how = if args.no_inline {
            ReviewPost::Comment
        } else {
            ReviewPost::Inline
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
            return Ok(ExitCode::from(super::exit::GENERAL));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The review as printed: without the findings the reviewer is less sure of than `min`
/// percent, and a closing line saying how many were left out and how to see them.
pub(crate) fn confident(mut written: Written, min: u8) -> Result<Written> {
    let review: Review = serde_json::from_value(written.json.clone())?;
    let (kept, left_out) = review.confident(min);
    if left_out > 0 {
        written.text = review.to_markdown_confident(min, "`iris review --min-confidence 0`");
        written.json = serde_json::to_value(&kept)?;
    }
    Ok(written)
}

pub async fn pr_command(args: PrArgs) -> Result<ExitCode> {
    let mut session = Session::open(&args.config, args.output)?;
    session.iris = session.iris.with_pr_template(args.template.clone());
    let from = match args.from.clone() {
        Some(from) => from,
        None => session.repo.default_branch().ok_or_else(|| {
            UsageError(
                "no default branch (main, master or the remote's HEAD) was found: pass --from"
                    .into(),
            )
        })?,
    };
    let to = args.to.as_deref().unwrap_or("HEAD");
    UsageError::unless_revisions(&session.repo, &[&from, to])?;
    if args.create || args.update {
        forge_of_repo(&session.repo, "description")?;
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
    let root = session.repo.root();
    let text =
        split_pr(&written.text).context("not published (the description is on stdout above)")?;
    publish("description", move || {
        publish_pr(&root, &text, action, base.as_deref())
    })
    .await?;
    Ok(ExitCode::SUCCESS)
}

impl RangeArgs {
    /// The range, its revisions checked first.
    fn checked_scope(&self, repo: &GitRepo) -> Result<Scope> {
        let to = self.to.as_deref().unwrap_or("HEAD");
        UsageError::unless_revisions(repo, &[&self.from, to])?;
        Ok(Scope::Range {
            from: self.from.clone(),
            to: to.to_string(),
            version: self.version_name.clone(),
        })
    }
}

pub async fn changelog_command(args: ChangelogArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    let written = session
        .write(
            ArtifactKind::Changelog,
            &args.range.checked_scope(&session.repo)?,
            false,
        )
        .await?;
    if args.update {
        let path = session.repo.root().join(&args.file);
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

pub async fn release_notes_command(args: ReleaseNotesArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    let written = session
        .write(
            ArtifactKind::ReleaseNotes,
            &args.range.checked_scope(&session.repo)?,
            false,
        )
        .await?;
    print_artifact(&written, args.output)?;
    Ok(ExitCode::SUCCESS)
}
