//! `iris split` in a jj workspace: Iris plans how a change (`@`, or `-r REV`) splits, and jj
//! applies the plan, one change a group in order. Each group is a `jj split` whose diff
//! editor is this binary (`iris jj-split-tool`): it leaves jj's right side as the change
//! stands after the groups so far, byte for byte, so hunks of one file go to different
//! changes. jj keeps every operation: the one before the split is named for `jj op restore`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use clap::Args;
use serde::{Deserialize, Serialize};

use super::prompt::Prompter;
use super::split::{SplitArgs, plan_for};
use crate::shared::exit::UsageError;
use crate::shared::jj::change_to_describe;
use iris_core::split::{SplitPlan, plan_text};
use iris_git::GitRepo;
use iris_git::jj::Jj;
use iris_git::split::PathState;

/// The hidden diff editor jj runs for each group.
#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The folder holding what the first part should be (`manifest.json` and the bytes).
    pub state: PathBuf,
    /// jj's right side, left as the first part should be.
    pub right: PathBuf,
}

/// One path of a group's state, as the diff editor reads it.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    path: String,
    /// The file with its bytes in the state folder, and its git mode; none when the path
    /// holds nothing.
    content: Option<(String, u32)>,
}

pub async fn run(args: SplitArgs, repo: GitRepo, jj: Jj) -> Result<ExitCode> {
    let refusal = if args.undo {
        Some(
            "in a jj repository, `jj op restore OP` undoes a split (the operation is named when \
             it is applied; `jj op log` lists them)",
        )
    } else if args.staged {
        Some("jj has no staging area: the change split is @ (or the one -r names)")
    } else if args.check.is_some() {
        Some("--check runs on git's index, which a jj split does not use")
    } else {
        None
    };
    if let Some(why) = refusal {
        return Err(UsageError(why.into()).into());
    }
    let rev = args.revision.as_deref().unwrap_or("@");
    let found = tokio::task::block_in_place(|| change_to_describe(&jj, rev))?;
    let change = repo.split_change_of(&found.commit_id)?;
    let plan = plan_for(&args, &change).await?;
    if args.output.json {
        println!("{}", serde_json::to_string_pretty(&plan)?);
    } else {
        println!(
            "{}",
            crate::shared::said::shown(&plan_text(&plan, &change.units))
        );
    }
    if !args.apply {
        return Ok(ExitCode::SUCCESS);
    }
    let count = plan.groups.len();
    if !args.yes {
        let question = format!("Make these {count} changes with jj? [y/N] ");
        if !Prompter::stdio().confirm(&question, false)? {
            eprintln!("Nothing was changed.");
            return Ok(ExitCode::SUCCESS);
        }
    }
    let before =
        tokio::task::block_in_place(|| apply(&repo, &jj, &found.change_id, &change, &plan))?;
    let s = if count == 1 { "" } else { "s" };
    eprintln!("Made {count} change{s}; `jj op restore {before}` puts the change back as it was.");
    Ok(ExitCode::SUCCESS)
}

/// Splits change `target` by `plan`, group by group; the operation before, for undoing.
fn apply(
    repo: &GitRepo,
    jj: &Jj,
    target: &str,
    change: &iris_git::split::SplitChange,
    plan: &SplitPlan,
) -> Result<String> {
    let before = jj.operation()?;
    let undo = format!("`jj op restore {before}` undoes what was made");
    let exe = std::env::current_exe().context("cannot find this program for jj to run")?;
    let of = plan.groups.len();
    let mut target = target.to_string();
    for (k, group) in plan.groups.iter().enumerate() {
        let number = k + 1;
        let message = group.message.trim_end();
        if number == of {
            // What is left is the last group.
            jj.describe(&target, message, false)
                .map_err(|e| anyhow!("stopped at change {number} of {of}: {e}; {undo}"))?;
        } else {
            let state = tempfile::tempdir().context("cannot make a folder for the split")?;
            write_state(state.path(), &repo.split_states(change, plan, number)?)?;
            let args = [
                "jj-split-tool".to_string(),
                state.path().display().to_string(),
            ];
            jj.split_with(&target, message, &exe, &args)
                .map_err(|e| anyhow!("stopped at change {number} of {of}: {e}; {undo}"))?;
            // The rest is the split change's one child: what came after moved onto it.
            let rest = jj.changes(&format!("children({target})"))?;
            target = match rest.as_slice() {
                [one] => one.change_id.clone(),
                _ => {
                    return Err(anyhow!(
                        "stopped after change {number} of {of}: jj left no single change with \
                         the rest; {undo}"
                    ));
                }
            };
        }
        eprintln!(
            "[{number}/{of}] {}",
            crate::shared::said::shown(group.title())
        );
    }
    Ok(before)
}

/// Writes a group's state where the diff editor reads it.
fn write_state(dir: &Path, states: &[PathState]) -> Result<()> {
    let mut entries = Vec::new();
    for (i, state) in states.iter().enumerate() {
        let content = match &state.content {
            Some((bytes, mode)) => {
                let name = format!("{i}");
                std::fs::write(dir.join(&name), bytes).context("cannot write the split's state")?;
                Some((name, *mode))
            }
            None => None,
        };
        entries.push(Entry {
            path: state.path.clone(),
            content,
        });
    }
    std::fs::write(dir.join("manifest.json"), serde_json::to_vec(&entries)?)
        .context("cannot write the split's state")
}

/// `iris jj-split-tool STATE RIGHT`: jj's diff editor for one group. Each path of the
/// state gets its bytes and mode in RIGHT, or is removed from it; nothing else is touched.
pub fn tool(args: ToolArgs) -> Result<ExitCode> {
    let manifest =
        std::fs::read(args.state.join("manifest.json")).context("cannot read the split's state")?;
    let entries: Vec<Entry> = serde_json::from_slice(&manifest)?;
    for entry in entries {
        let relative = iris_git::check_relative_path(&entry.path)?;
        let target = args.right.join(relative);
        if target.is_dir() {
            std::fs::remove_dir_all(&target)?;
        } else if target.symlink_metadata().is_ok() {
            std::fs::remove_file(&target)?;
        }
        let Some((name, mode)) = entry.content else {
            continue;
        };
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let bytes = std::fs::read(args.state.join(&name))?;
        write_file(&target, &bytes, mode)
            .with_context(|| format!("cannot write {}", entry.path))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `bytes` at `target` as git's `mode` says: a link (its target), a program, a file.
#[cfg(unix)]
fn write_file(target: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if mode == 0o120000 {
        let link = String::from_utf8_lossy(bytes).into_owned();
        return std::os::unix::fs::symlink(link, target);
    }
    std::fs::write(target, bytes)?;
    let bits = if mode == 0o100755 { 0o755 } else { 0o644 };
    std::fs::set_permissions(target, std::fs::Permissions::from_mode(bits))
}

#[cfg(not(unix))]
fn write_file(target: &Path, bytes: &[u8], _mode: u32) -> std::io::Result<()> {
    std::fs::write(target, bytes)
}
