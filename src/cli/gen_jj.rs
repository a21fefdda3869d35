//! `iris gen` in a jj workspace: the description of a change (`@`, the working copy, or `-r
//! REV`) written from that change's own diff with the history before it as the style sample,
//! printed, set with `jj describe` (`--describe`) or recorded with `jj commit`
//! (`--auto-commit`: `@` described and a new empty change started on top). jj runs no git
//! hooks, so the commit rules and the secret scan run here before a description is set.

use std::process::ExitCode;

use anyhow::{Result, anyhow};

use super::generate::{GenArgs, Message, write_message};
use super::session::{OutputFlags, Session, copy, print_artifact, rendered};
use crate::shared::exit::UsageError;
use crate::shared::jj::{change_to_describe, refused};
use iris_agent::capability::requests::Scope;
use iris_core::commit_rules::carry_trailers;
use iris_git::jj::Jj;

pub async fn run(session: Session, jj: Jj, args: GenArgs) -> Result<ExitCode> {
    refuse_git_flags(&args)?;
    let rev = args.rev.as_deref().unwrap_or("@");
    if args.auto_commit && rev != "@" {
        return Err(UsageError(
            "--auto-commit records the working copy (`jj commit` on @); to set another \
             change's description, use --describe with -r"
                .into(),
        )
        .into());
    }
    let change = tokio::task::block_in_place(|| change_to_describe(&jj, rev))?;
    let scope = Scope::Commit(change.commit_id.clone());
    let mut written = match write_message(&session, &scope, &args).await? {
        Message::Written(written) => written,
        Message::Ended(code) => return Ok(code),
    };
    if !change.description.trim().is_empty() {
        // Described anew: who signed it off and its other trailers stay.
        written.text = carry_trailers(&change.description, &written.text);
    }
    if !(args.auto_commit || args.describe) {
        print_artifact(&written, args.output)?;
        return Ok(ExitCode::SUCCESS);
    }
    // The change by its change id: a commit id goes stale when jj snapshots the working copy.
    let target = change.change_id.as_str();
    let message = written.text.trim_end().to_string();
    let checked = if args.no_verify {
        Ok(None)
    } else {
        let scanner = session.iris.secret_scanner();
        tokio::task::block_in_place(|| {
            refused(&session.repo, &jj, target, &message, scanner.as_deref())
        })
    };
    let done = checked.and_then(|refusal| match refusal {
        Some(why) => Err(anyhow!(
            "not described: {why} (jj runs no git hooks, so Iris checks; --no-verify skips \
             the checks)"
        )),
        None => tokio::task::block_in_place(|| {
            let said = if args.auto_commit {
                jj.commit(&message)
            } else {
                jj.describe(target, &message, false)
            };
            said.map_err(anyhow::Error::from)
        }),
    });
    match done {
        Ok(said) => {
            eprintln!("{said}");
            after_describe(&written, args.print, args.output)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            // Nothing is lost: the message goes to stdout for the user to reuse.
            println!("{message}");
            Err(err)
        }
    }
}

/// After the description is set: the message printed with --print, or copied with --copy.
fn after_describe(
    written: &iris_agent::capability::write::Written,
    print: bool,
    output: OutputFlags,
) -> Result<()> {
    if print {
        print_artifact(written, output)
    } else {
        if output.copy {
            copy(&rendered(written, output)?);
        }
        Ok(())
    }
}

/// The flags that speak of git's index and hooks, refused with what jj does instead.
fn refuse_git_flags(args: &GenArgs) -> Result<()> {
    let refusal = if args.amend {
        Some(
            "--amend is git's; in a jj repository a change's description is set anew with \
             --describe (-r REV for another change than @)",
        )
    } else if args.all {
        Some("--all stages files, and jj has no staging area: @ already holds every change")
    } else if args.hook || args.hook_amend {
        Some("jj runs no git hooks; run `iris gen --describe` or `--auto-commit` instead")
    } else {
        None
    };
    match refusal {
        Some(why) => Err(UsageError(why.into()).into()),
        None => Ok(()),
    }
}
