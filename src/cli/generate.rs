//! `iris gen`: the commit message for the staged change (or the commit to amend), printed,
//! picked from several candidates, or committed.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::config::ConfigFlags;
use super::pick;
use super::progress::ProgressLine;
use super::prompt::Prompter;
use super::session::{
    AgentSessionFlags, OutputFlags, Session, copy, print_artifact, rendered, warn_about,
};
use crate::app::stores::{accepted, last_message};
use crate::app::vcs::{ChangeAsked, How, Recording};
use crate::output::exit::{self, UsageError};
use crate::output::said::shown;
use iris_studio_agent::capability::candidates::Candidate;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::capability::write::Written;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::commit_rules::carry_trailers;

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Print the message (the default when not committing).
    #[arg(short = 'p', long)]
    pub print: bool,
    /// Commit the staged changes with the message (through `git commit`, hooks included).
    #[arg(short = 'a', long)]
    pub auto_commit: bool,
    /// Stage every tracked file's changes first, as `git commit -a` does (untracked files
    /// stay out; `-a` is --auto-commit's).
    #[arg(long, conflicts_with = "check")]
    pub all: bool,
    /// Write a message for amending HEAD (commits with --amend when used with --auto-commit).
    #[arg(long)]
    pub amend: bool,
    /// In a jj repository: set the change's description (`jj describe`) and stay on it,
    /// where --auto-commit also starts a new change on top (`jj commit`).
    #[arg(long, conflicts_with_all = ["auto_commit", "amend"])]
    pub describe: bool,
    /// Run by the git hook on `git commit --amend`: write nothing unless `hook_on_amend` is
    /// set.
    #[arg(long, hide = true, requires = "amend")]
    pub hook_amend: bool,
    /// Write a new message even when the one you last tried to commit for this change is
    /// remembered (the hook: `IRIS_FRESH=1 git commit`).
    #[arg(long)]
    pub fresh: bool,
    /// Run by the git hook: offer the message last written or tried for this change again,
    /// with comment lines saying so, instead of a new request.
    #[arg(long, hide = true, conflicts_with = "amend")]
    pub hook: bool,
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
    /// naming each that fails (stdin is not read). In a jj repository: the change to write
    /// for (default `@`, the working copy).
    #[arg(short = 'r', long, value_name = "REV")]
    pub rev: Option<String>,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
    #[command(flatten)]
    pub sessions: AgentSessionFlags,
}

pub async fn run(args: GenArgs) -> Result<ExitCode> {
    let ws = args.config.workspace_with(args.sessions)?;
    // The hook on `git commit --amend` writes nothing unless the configuration asks it to.
    if args.hook_amend && !ws.config.hook_on_amend {
        return Ok(ExitCode::SUCCESS);
    }
    let session = Session::on(&ws, args.output)?.unattended(args.hook || args.hook_amend);
    let how = match (args.auto_commit, args.describe) {
        (true, _) if args.amend => Some(How::Amend),
        (true, _) => Some(How::Commit),
        (false, true) => Some(How::Describe),
        (false, false) => None,
    };
    let asked = ChangeAsked {
        rev: args.rev.as_deref(),
        amend: args.amend,
        stage_tracked: args.all,
        by_hook: args.hook || args.hook_amend,
        recording: how,
        nothing_staged: Some(if args.all {
            "nothing to commit: no tracked file has changed (new files are left to `git add`)"
        } else {
            "nothing is staged: stage your changes with `git add` first, or pass --all to \
             stage every tracked file's changes"
        }),
        keyed: true,
        ..ChangeAsked::default()
    };
    // Staging (--all) and reading the change are the version control's blocking work.
    let change = tokio::task::block_in_place(|| ws.vcs.change(&ws.repo, &asked))?;
    if let Some(last) = change
        .key
        .as_ref()
        .and_then(|key| offered_again(&session, key, &args))
    {
        println!("{}", shown(&last.message));
        if args.hook {
            print!("\n{}", last_message::hook_comments(&ws.repo, &last));
        } else {
            eprintln!(
                "iris: {}; --fresh writes a new one",
                last_message::origin(&last)
            );
        }
        if args.output.copy {
            copy(&last.message);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut written = match write_message(&session, &change.scope, &args).await? {
        Message::Written(written) => written,
        Message::Ended(code) => return Ok(code),
    };
    if let Some(old) = &change.message {
        // The same change, its message written anew: who signed it off and its other
        // trailers stay.
        written.text = carry_trailers(old, &written.text);
    }
    // Remembered with the change it was written for: `iris eval --accepted` later finds
    // the commit that carries it, however it was committed.
    if let Some(key) = &change.key {
        tokio::task::block_in_place(|| {
            accepted::remember(&ws.stores, key, &written.text, "gen");
            if !args.amend {
                last_message::remember(&ws.stores, key, &written.text, false);
            }
        });
    }
    let Some(how) = how else {
        print_artifact(&written, args.output)?;
        return Ok(ExitCode::SUCCESS);
    };
    let scanner = session.iris.secret_scanner();
    let recording = Recording {
        how,
        no_verify: args.no_verify,
        scanner: scanner.as_deref(),
    };
    let recorded =
        tokio::task::block_in_place(|| ws.vcs.record(&ws.repo, &change, &written.text, &recording));
    match recorded {
        Ok(said) => {
            eprintln!("{said}");
            if args.print {
                print_artifact(&written, args.output)?;
            } else if args.output.copy {
                copy(&rendered(&written, args.output)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            // Nothing is lost: the message goes to stdout for the user to reuse.
            println!("{}", written.text.trim_end());
            Err(err)
        }
    }
}

/// What writing the message came to.
enum Message {
    /// One message to print or commit.
    Written(Written),
    /// The run is over: its candidates were printed, or none was picked.
    Ended(ExitCode),
}

/// The message for `scope`: written once, or with several candidates (`-n`, `--models`)
/// picked on the terminal or all printed.
async fn write_message(session: &Session<'_>, scope: &Scope, args: &GenArgs) -> Result<Message> {
    let several = args.candidates > 1 || !args.models.is_empty();
    if !several {
        let written = session
            .write(ArtifactKind::Commit, scope, args.critic)
            .await?;
        return Ok(Message::Written(written));
    }
    let pick = can_pick(args);
    if (args.auto_commit || args.describe) && !pick {
        return Err(UsageError(
            "--auto-commit or --describe with several candidates needs a terminal to pick one \
             on, and no --print or --json"
                .to_string(),
        )
        .into());
    }
    let candidates = candidates(session, scope, args).await?;
    if !pick {
        print_candidates(&candidates, args.output)?;
        return Ok(Message::Ended(ExitCode::SUCCESS));
    }
    match pick::pick(&candidates, &mut Prompter::stdio())? {
        Some(written) => Ok(Message::Written(written)),
        None => {
            eprintln!("no message picked; nothing was committed");
            Ok(Message::Ended(ExitCode::from(exit::GENERAL)))
        }
    }
}

/// The message remembered for the staged change that this run offers instead of a new
/// request: the one the user last tried to commit (any run that prints one message), or for
/// the hook also the one Iris last wrote. Never with --fresh or `IRIS_FRESH=1`, an amend,
/// several candidates, --auto-commit (it would commit what was turned down), --json or
/// --dry-run.
fn offered_again(
    session: &Session<'_>,
    change: &crate::app::stores::ChangeKey,
    args: &GenArgs,
) -> Option<iris_studio_core::last_message::LastMessage> {
    let fresh =
        args.fresh || std::env::var_os("IRIS_FRESH").is_some_and(|v| !v.is_empty() && v != "0");
    let one = args.candidates == 1 && args.models.is_empty();
    if fresh || args.amend || !one || args.auto_commit || args.output.json || args.output.dry_run {
        return None;
    }
    last_message::recall(&session.ws.repo, &session.ws.stores, change, args.hook)
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
        pick::numbered(candidates)
    };
    println!("{}", shown(text.trim_end()));
    if output.copy {
        copy(&text);
    }
    Ok(())
}

/// Several versions of the commit message to choose from, with the progress line.
async fn candidates(
    session: &Session<'_>,
    scope: &Scope,
    args: &GenArgs,
) -> Result<Vec<Candidate>> {
    let iris = session.iris_for(scope);
    let progress = ProgressLine::start().priced(session.price());
    let result = iris
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
    let candidates = session.finish(result)?;
    for candidate in &candidates {
        warn_about(&candidate.written);
    }
    Ok(candidates)
}
