//! `iris gen --check`: a commit message checked against the repository's commitlint or
//! commitizen rules, for CI and hooks. No model, no provider, no agent.
//!
//! The message is stdin's when stdin is not a terminal and holds one (an empty stdin, as CI
//! gives, counts as none), else the commit `--rev` names (default HEAD); `--rev A..B` checks
//! every commit of the range, naming each that fails. Exit 0 when it follows the rules
//! (warnings are printed but pass) or when the repository has no rules, 1 on an error-level
//! violation, 2 when the configuration cannot be read.

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::app::vcs::Base;
use crate::output::commit_rules::{NO_RULES, report};
use crate::output::exit::UsageError;
use iris_studio_core::commit_rules::{self, CommitRules, MAX_INPUT_BYTES};

/// The most commits one range check reads.
const MAX_RANGE: usize = 10_000;

pub fn run(rev: Option<&str>) -> Result<ExitCode> {
    let repo = super::current_repo()?;
    let vcs = crate::app::vcs::open(&repo);
    // The revisions as git's store reads them (jj's as their commits), checked first.
    let (rev, range) = match rev.map(range_of).transpose()?.flatten() {
        Some((from, to)) => {
            let range = vcs.range(&repo, Some(from), Some(to), Base::Parent)?;
            (None, Some(range))
        }
        None => (rev.map(|rev| vcs.commit(&repo, rev)).transpose()?, None),
    };
    let Some(rules) = iris_studio_config::project::commit_rules(&repo.root())? else {
        eprintln!("{NO_RULES}");
        return Ok(ExitCode::SUCCESS);
    };
    for note in &rules.notes {
        eprintln!("note: {}: {note}", rules.source);
    }
    if let Some((from, to)) = range {
        return check_range(&repo, &rules, &from, &to);
    }
    let piped = match rev {
        Some(_) => None,
        None => read_stdin()?,
    };
    let message = match piped {
        Some(message) => {
            eprintln!("checking the message on stdin against {}", rules.source);
            message
        }
        None => {
            // Without a revision, the newest message written (HEAD's; jj's `@` once
            // described, else `@-`).
            let rev = match rev {
                Some(rev) => rev,
                None => vcs.newest_message(&repo)?.ok_or_else(|| {
                    UsageError("there is no commit to check yet: pipe a message on stdin".into())
                })?,
            };
            let info = repo.commit_info(&rev)?;
            eprintln!("checking commit {} against {}", info.short_id, rules.source);
            info.message
        }
    };
    let violations = rules.check(&message);
    let (report, failed) = report(&rules, &violations);
    print!("{report}");
    Ok(if failed {
        ExitCode::from(crate::output::exit::GENERAL)
    } else {
        ExitCode::SUCCESS
    })
}

/// `A..B` as its two ends (`A..` ends at HEAD); None for a single revision.
fn range_of(rev: &str) -> Result<Option<(&str, &str)>> {
    let Some((from, to)) = rev.split_once("..") else {
        return Ok(None);
    };
    if to.starts_with('.') {
        return Err(UsageError(format!(
            "'{rev}': a symmetric range (A...B) is not checked: give A..B"
        ))
        .into());
    }
    if from.is_empty() {
        return Err(UsageError(format!("'{rev}': the range needs its start (A..B)")).into());
    }
    Ok(Some((from, if to.is_empty() { "HEAD" } else { to })))
}

/// Every commit of `from..to`, oldest first: a line each (✔ or ✖, its id and subject), the
/// violations of those that break a rule under it, and a closing line naming the failing ones.
fn check_range(
    repo: &iris_studio_git::GitRepo,
    rules: &CommitRules,
    from: &str,
    to: &str,
) -> Result<ExitCode> {
    let mut commits = repo.log_range(from, to, MAX_RANGE)?;
    commits.reverse();
    eprintln!(
        "checking the {} commits of {from}..{to} against {}",
        commits.len(),
        rules.source
    );
    if commits.is_empty() {
        println!("no commits in {from}..{to}: nothing to check");
        return Ok(ExitCode::SUCCESS);
    }
    let mut failing = Vec::new();
    for commit in &commits {
        let violations = rules.check(&commit.message);
        let errors = commit_rules::error_count(&violations);
        let mark = if errors > 0 { "✖" } else { "✔" };
        println!("{mark} {} {}", commit.short_id, commit.summary);
        for v in &violations {
            println!("    {v}");
        }
        if errors > 0 {
            failing.push(commit.short_id.clone());
        }
    }
    if failing.is_empty() {
        match commits.len() {
            1 => println!("✔ the commit follows the rules of {}", rules.source),
            n => println!("✔ all {n} commits follow the rules of {}", rules.source),
        }
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "✖ {} of {} commits break the rules of {}: {}",
        failing.len(),
        commits.len(),
        rules.source,
        failing.join(", ")
    );
    Ok(ExitCode::from(crate::output::exit::GENERAL))
}

/// stdin's message when stdin is not a terminal and is not empty (comment lines aside);
/// at most [`MAX_INPUT_BYTES`] + 1 bytes are read, so a larger one fails the size check.
fn read_stdin() -> Result<Option<String>> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    stdin
        .lock()
        .take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the message from stdin")?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let empty = commit_rules::ParsedMessage::parse(&text).lines.is_empty();
    Ok((!empty).then_some(text))
}
