//! The generation commands: `iris gen`, `review`, `pr`, `changelog`, `release-notes`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::config::ConfigFlags;
use super::progress::Progress;
use crate::agent::generate::{Generated, IrisAgent};
use crate::agent::requests;
use crate::config::Config;
use crate::error::UsageError;
use crate::git::{CommitOptions, GitRepo};
use crate::types::{
    Artifact, Changelog, GeneratedMessage, PullRequest, ReleaseNotes, Review, insert_into_changelog,
};

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
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

#[derive(Debug, Args)]
pub struct PrArgs {
    /// The base (default: the repository's default branch).
    #[arg(long, value_name = "REF")]
    pub from: Option<String>,
    /// The head (default HEAD).
    #[arg(long, value_name = "REF")]
    pub to: Option<String>,
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
}

impl Session {
    fn open(flags: &ConfigFlags, output: OutputFlags) -> Result<Self> {
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        let repo = GitRepo::discover(&cwd)?;
        let root = repo.root();
        let config = Config::load(Some(&root), &flags.overrides())?;
        let iris = IrisAgent::from_config(&config, &root, repo.git_dir(), !output.no_stream)?;
        Ok(Self { repo, config, iris })
    }

    /// Runs a capability with the progress line on stderr.
    async fn generate<T: Artifact + Send + 'static>(
        &self,
        capability: &str,
        request: &str,
        critic: bool,
    ) -> Result<Generated<T>> {
        let progress = Progress::start();
        let result = self
            .iris
            .generate::<T>(capability, request, critic, &progress.sink())
            .await;
        progress.finish().await;
        let generated = result?;
        if let Some(warning) = &generated.critic_warning {
            eprintln!(
                "warning: the critic could not check the draft ({warning}); keeping it as written"
            );
        }
        Ok(generated)
    }
}

fn print_artifact<T: Artifact>(artifact: &T, output: OutputFlags) -> Result<()> {
    let text = if output.json {
        serde_json::to_string_pretty(artifact)?
    } else {
        artifact.to_markdown()
    };
    println!("{}", text.trim_end());
    Ok(())
}

pub async fn gen_command(args: GenArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    let staged = session.repo.status()?.staged().count();
    if staged == 0 && !args.amend {
        return Err(UsageError(
            "nothing is staged: stage your changes with `git add` first".to_string(),
        )
        .into());
    }
    let request = if args.amend {
        "Write the commit message for amending HEAD: it replaces HEAD's message and describes \
         HEAD's own changes (git_diff with to=HEAD, git_show HEAD) together with any staged \
         changes (git_diff)."
    } else {
        requests::COMMIT_STAGED
    };
    let critic = args.critic && session.config.critic_enabled;
    let mut generated = session
        .generate::<GeneratedMessage>("commit", request, critic)
        .await?;
    // Without gitmoji (and always with conventional commits) no emoji reaches the message.
    if !session.config.gitmoji || session.config.preset == "conventional" {
        generated.artifact.emoji = None;
    }
    let message = generated.artifact.to_commit_text();
    if args.auto_commit {
        let options = CommitOptions {
            amend: args.amend,
            no_verify: args.no_verify,
        };
        match session.repo.commit(&message, options) {
            Ok(summary) => {
                eprintln!("{summary}");
                if args.print {
                    print_artifact(&generated.artifact, args.output)?;
                }
            }
            Err(err) => {
                // Nothing is lost: the message goes to stdout for the user to reuse.
                println!("{}", message.trim_end());
                return Err(err.into());
            }
        }
    } else {
        print_artifact(&generated.artifact, args.output)?;
    }
    Ok(ExitCode::SUCCESS)
}

pub async fn review_command(args: ReviewArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    let request = match (&args.commit, &args.from) {
        (Some(rev), _) => format!("Review commit {rev}: its changes are git_diff with to={rev}."),
        (None, Some(from)) => {
            let to = args.to.as_deref().unwrap_or("HEAD");
            format!("Review the changes in {from}..{to} (git_diff and git_log with from={from}, to={to}).")
        }
        (None, None) if args.include_unstaged => {
            "Review all uncommitted changes, staged and unstaged (git_diff with include_unstaged=true)."
                .to_string()
        }
        (None, None) => {
            if session.repo.status()?.staged().count() == 0 {
                return Err(UsageError(
                    "nothing is staged to review: stage changes, or use --include-unstaged, --commit or --from"
                        .to_string(),
                )
                .into());
            }
            requests::REVIEW_STAGED.to_string()
        }
    };
    let critic = session.config.critic_enabled;
    let generated = session
        .generate::<Review>("review", &request, critic)
        .await?;
    print_artifact(&generated.artifact, args.output)?;
    Ok(ExitCode::SUCCESS)
}

pub async fn pr_command(args: PrArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    let from = match args.from {
        Some(from) => from,
        None => session.repo.default_branch().ok_or_else(|| {
            UsageError(
                "no default branch (main, master or the remote's HEAD) was found: pass --from"
                    .into(),
            )
        })?,
    };
    let range = RangeArgs {
        from,
        to: args.to,
        version_name: None,
    };
    let pr = session
        .range_artifact::<PullRequest>("pr", "pull request description", &range, |_, _| {})
        .await?;
    print_artifact(&pr, args.output)?;
    Ok(ExitCode::SUCCESS)
}

impl Session {
    /// A range capability's artifact for FROM..TO (TO defaults to HEAD), with the version the
    /// user named when the model gave none.
    async fn range_artifact<T: Artifact + Send + 'static>(
        &self,
        capability: &str,
        what: &str,
        range: &RangeArgs,
        set_version: impl FnOnce(&mut T, Option<String>),
    ) -> Result<T> {
        let (from, to) = (&range.from, range.to.as_deref().unwrap_or("HEAD"));
        let version = range.version_name.as_deref();
        let request = requests::range(what, from, to, version);
        let critic = self.config.critic_enabled;
        let mut artifact = self
            .generate::<T>(capability, &request, critic)
            .await?
            .artifact;
        set_version(&mut artifact, version.map(str::to_string));
        Ok(artifact)
    }
}

pub async fn changelog_command(args: ChangelogArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    let changelog = session
        .range_artifact::<Changelog>("changelog", "changelog entry", &args.range, |c, version| {
            c.version = c.version.take().or(version)
        })
        .await?;
    if args.update {
        let path = session.repo.root().join(&args.file);
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let updated = insert_into_changelog(&existing, &changelog.to_markdown());
        std::fs::write(&path, updated)
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("updated {}", path.display());
    }
    print_artifact(&changelog, args.output)?;
    Ok(ExitCode::SUCCESS)
}

pub async fn release_notes_command(args: ReleaseNotesArgs) -> Result<ExitCode> {
    let session = Session::open(&args.config, args.output)?;
    let notes = session
        .range_artifact::<ReleaseNotes>(
            "release_notes",
            "release notes",
            &args.range,
            |n, version| n.version = n.version.take().or(version),
        )
        .await?;
    print_artifact(&notes, args.output)?;
    Ok(ExitCode::SUCCESS)
}
