//! `iris reword REV` / `iris reword A..B`: Iris writes a new message for each commit from
//! that commit's own change, with the history before it as the style sample (each commit is
//! replayed as a staged change over its parent in a throwaway repository, so nothing later is
//! seen). The old and new messages print side by side (`--json`: as JSON, which `--plan`
//! takes back edited); `--apply` rewrites the messages and nothing else; `--undo` puts the
//! branch back.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use serde::{Deserialize, Serialize};

use super::config::ConfigFlags;
use super::interrupt::Interrupt;
use super::progress::ProgressLine;
use super::prompt::Prompter;
use super::session::OutputFlags;
use crate::app::Workspace;
use crate::app::replayed::{replay_of, staged_for};
use crate::output::exit::UsageError;
use crate::output::said::shown;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::commit_rules::carry_trailers;
use iris_studio_core::text::{width, wrap_line};
use iris_studio_git::RewordCommit;

#[derive(Debug, Args)]
pub struct RewordArgs {
    /// The commit (REV) or the commits (A..B: what B has and A has not) to reword; they must
    /// be on HEAD's history.
    #[arg(value_name = "REV|A..B", required_unless_present = "undo")]
    pub range: Option<String>,
    /// Rewrite the messages (asks first on a terminal): trees, authors, author dates and
    /// parents stay; the commits after the first reworded one are made again on top.
    #[arg(long)]
    pub apply: bool,
    /// Apply without asking (needed without a terminal).
    #[arg(short = 'y', long, requires = "apply")]
    pub yes: bool,
    /// Reword commits a remote-tracking branch already has (others may have built on them).
    #[arg(long)]
    pub force: bool,
    /// Take the new messages from FILE (the JSON `--json` prints, edited) instead of asking
    /// Iris.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Put the branch back where the last reword found it.
    #[arg(long, conflicts_with_all = ["range", "apply", "plan", "force"])]
    pub undo: bool,
    #[command(flatten)]
    pub config: ConfigFlags,
    #[command(flatten)]
    pub output: OutputFlags,
}

/// One commit's old and new message, as `--json` prints it and `--plan` reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rewording {
    /// The commit's full id.
    pub id: String,
    /// Its message as recorded.
    #[serde(default)]
    pub old: String,
    /// The message it gets; `None` keeps it (a merge keeps its message).
    pub new: Option<String>,
}

/// The plan `--json` prints and `--plan` reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewordPlan {
    /// Oldest first.
    pub commits: Vec<Rewording>,
}

pub async fn run(args: RewordArgs) -> Result<ExitCode> {
    let ws = args.config.workspace()?;
    let (repo, vcs) = (&ws.repo, &ws.vcs);
    if args.undo {
        eprintln!("{}", tokio::task::block_in_place(|| vcs.undo_reword(repo))?);
        return Ok(ExitCode::SUCCESS);
    }
    let range = args.range.clone().unwrap_or_default();
    // Others may have built on what a remote has (jj: what is immutable): refused when
    // applying without --force.
    let guard = (args.apply && !args.force).then_some("--force rewords them anyway");
    let commits = tokio::task::block_in_place(|| vcs.reword_commits(repo, &range, guard))?;
    if args.apply && !args.yes && !args.output.dry_run && !std::io::stdin().is_terminal() {
        return Err(UsageError(
            "--apply asks before rewriting, and there is no terminal to ask on: add --yes".into(),
        )
        .into());
    }
    let plan = match &args.plan {
        Some(file) => read_plan(file, &commits)?,
        None => ask_iris(&args, &ws, &commits).await?,
    };
    if args.output.json {
        println!("{}", serde_json::to_string_pretty(&plan)?);
    } else {
        println!("{}", shown(&plan_text(&plan, &commits, columns())));
    }
    if !args.apply {
        return Ok(ExitCode::SUCCESS);
    }
    let messages: Vec<(String, String)> = plan
        .commits
        .iter()
        .filter_map(|c| Some((c.id.clone(), c.new.clone()?)))
        .collect();
    if messages.is_empty() {
        eprintln!("No message to change.");
        return Ok(ExitCode::SUCCESS);
    }
    if !args.yes {
        let n = messages.len();
        let question = format!("Reword {n} commit{}? [y/N] ", if n == 1 { "" } else { "s" });
        if !Prompter::stdio().confirm(&question, false)? {
            eprintln!("Nothing was changed.");
            return Ok(ExitCode::SUCCESS);
        }
    }
    let interrupt = Interrupt::listen();
    let done = tokio::task::block_in_place(|| {
        vcs.apply_reword(
            repo,
            &commits,
            &messages,
            args.force,
            Some(interrupt.flag()),
        )
    })?;
    drop(interrupt);
    eprintln!("{}", done.said);
    if let Some(warning) = done.warning {
        eprintln!("warning: {warning}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Iris' message for each commit that is not a merge, written in a replay of the history
/// before it.
async fn ask_iris(
    args: &RewordArgs,
    ws: &Workspace,
    commits: &[RewordCommit],
) -> Result<RewordPlan> {
    let config = &ws.config;
    let (iris, dry_run) = ws.iris_run(!args.output.no_stream, args.output.dry_run)?;
    let replay = replay_of(&ws.repo)?;
    let price = config.model_price().map(|(price, _)| price);
    let writable = commits.iter().filter(|c| !c.merge).count();
    let mut plan = RewordPlan {
        commits: Vec::new(),
    };
    let mut n = 0;
    let mut failed = None;
    for commit in commits {
        let mut rewording = Rewording {
            id: commit.id.clone(),
            old: commit.message.trim_end().to_string(),
            new: None,
        };
        if !commit.merge {
            n += 1;
            eprintln!("[{n}/{writable}] {}", commit.short_id);
            let progress = ProgressLine::start().priced(price);
            let there = staged_for(&iris, &replay, &commit.id)?;
            let result = there
                .write(
                    ArtifactKind::Commit,
                    &Scope::Staged,
                    false,
                    &progress.sink(),
                )
                .await;
            progress.finish().await;
            let result =
                crate::output::preview::finish(dry_run.as_ref(), result, config, args.output.json);
            match result {
                Ok(written) => {
                    for warning in crate::output::written::warnings_of(&written) {
                        eprintln!("warning: {}: {warning}", commit.short_id);
                    }
                    rewording.new = Some(carry_trailers(&commit.message, &written.text));
                }
                // The dry run's preview ends the command; a failed commit keeps its message.
                Err(err) if dry_run.is_some() => return Err(err),
                Err(err) => {
                    eprintln!(
                        "warning: {}: no message was written ({}); it keeps its own",
                        commit.short_id,
                        crate::output::exit::one_line(&err)
                    );
                    failed = Some(err);
                }
            }
        }
        plan.commits.push(rewording);
    }
    // Nothing written at all is the run's failure, not a plan that changes nothing.
    match failed {
        Some(err) if plan.commits.iter().all(|c| c.new.is_none()) => Err(err),
        _ => Ok(plan),
    }
}

/// A plan from a file, matched with the range's commits (a commit it leaves out keeps its
/// message; one outside the range is refused).
fn read_plan(file: &std::path::Path, commits: &[RewordCommit]) -> Result<RewordPlan> {
    let text = super::session::plan_text(file)?;
    let read: RewordPlan = serde_json::from_str(&text)
        .map_err(|e| UsageError(format!("{} is not a reword plan: {e}", file.display())))?;
    let mut plan = RewordPlan {
        commits: Vec::new(),
    };
    for entry in read.commits {
        let Some(commit) = commits
            .iter()
            .find(|c| c.id == entry.id || (entry.id.len() >= 7 && c.id.starts_with(&entry.id)))
        else {
            return Err(UsageError(format!(
                "the plan in {} names {}, which is not in the range",
                file.display(),
                entry.id
            ))
            .into());
        };
        let new = entry
            .new
            .map(|m| iris_studio_core::controls::strip(m.trim()).into_owned())
            .filter(|m| !m.is_empty() && !commit.merge);
        plan.commits.push(Rewording {
            id: commit.id.clone(),
            old: commit.message.trim_end().to_string(),
            new,
        });
    }
    Ok(plan)
}

/// The terminal's width, or 100 columns when stdout is no terminal.
fn columns() -> usize {
    if std::io::stdout().is_terminal()
        && let Ok((cols, _)) = crossterm::terminal::size()
    {
        return usize::from(cols).max(40);
    }
    100
}

/// Each commit's old message beside its new one, in two columns of `total` width.
fn plan_text(plan: &RewordPlan, commits: &[RewordCommit], total: usize) -> String {
    let column = (total.saturating_sub(3) / 2).max(16);
    let mut out = String::new();
    for entry in &plan.commits {
        let short = commits
            .iter()
            .find(|c| c.id == entry.id)
            .map_or(entry.id.as_str(), |c| c.short_id.as_str());
        out.push_str(short);
        let merge = commits.iter().any(|c| c.id == entry.id && c.merge);
        match &entry.new {
            None if merge => out.push_str("  (kept: a merge keeps its message)\n"),
            None => out.push_str("  (kept)\n"),
            Some(_) => out.push('\n'),
        }
        let new = entry.new.as_deref().unwrap_or(&entry.old);
        let wrap = |text: &str| -> Vec<String> {
            text.lines()
                .flat_map(|line| wrap_line(line, column))
                .collect()
        };
        let (left, right) = (wrap(&entry.old), wrap(new));
        for i in 0..left.len().max(right.len()) {
            let l = left.get(i).map_or("", String::as_str);
            let r = right.get(i).map_or("", String::as_str);
            let pad = " ".repeat(column.saturating_sub(width(l)));
            out.push_str(format!("  {l}{pad} │ {r}").trim_end());
            out.push('\n');
        }
        out.push('\n');
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(id: &str, message: &str, merge: bool) -> RewordCommit {
        RewordCommit {
            id: id.into(),
            short_id: id[..7].into(),
            message: message.into(),
            merge,
        }
    }

    #[test]
    fn old_and_new_stand_side_by_side() {
        let commits = [
            commit("aaaaaaa111", "fix stuff", false),
            commit("bbbbbbb222", "Merge branch 'x'", true),
        ];
        let plan = RewordPlan {
            commits: vec![
                Rewording {
                    id: "aaaaaaa111".into(),
                    old: "fix stuff".into(),
                    new: Some("Fix the parser's off-by-one\n\nThe last line was dropped.".into()),
                },
                Rewording {
                    id: "bbbbbbb222".into(),
                    old: "Merge branch 'x'".into(),
                    new: None,
                },
            ],
        };
        // Two columns of 28 cells, "  " before the old one and " │ " between.
        let row = |l: &str, r: &str| format!("  {l:<28} │ {r}").trim_end().to_string();
        let expected = [
            "aaaaaaa".to_string(),
            row("fix stuff", "Fix the parser's off-by-one"),
            row("", ""),
            row("", "The last line was dropped."),
            String::new(),
            "bbbbbbb  (kept: a merge keeps its message)".to_string(),
            row("Merge branch 'x'", "Merge branch 'x'"),
        ];
        assert_eq!(plan_text(&plan, &commits, 60), expected.join("\n"));
    }
}
