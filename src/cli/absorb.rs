//! `iris absorb`: each staged hunk goes to the commit of the branch that last touched the
//! lines it changes (as git-absorb does); the plan is printed (`--json`: as JSON), `--apply`
//! makes one `fixup! <title>` commit per target, `--squash` folds them into their targets at
//! once, and `--undo` puts everything back. No model is asked.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use clap::Args;
use serde_json::json;

use super::config::ConfigFlags;
use super::interrupt::Interrupt;
use super::progress::ProgressLine;
use super::prompt::Prompter;
use crate::app::replayed::{replay_of, staged_for};
use crate::app::vcs::GitOnly;
use crate::output::exit::UsageError;
use crate::output::said::shown;
use iris_studio_agent::IrisAgent;
use iris_studio_agent::capability::chat::ChatTarget;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_git::split::{AbsorbPlan, Progress, SplitChange};
use iris_studio_git::{GitError, GitRepo};

#[derive(Debug, Args)]
pub struct AbsorbArgs {
    /// Commit one `fixup! <title>` per target commit (asks first on a terminal); what no
    /// commit takes stays staged.
    #[arg(long)]
    pub apply: bool,
    /// Apply without asking (needed without a terminal).
    #[arg(short = 'y', long, requires = "apply")]
    pub yes: bool,
    /// Then fold the fixups into their targets (`git rebase -i --autosquash`, no editor);
    /// needs everything absorbed and the working tree otherwise clean.
    #[arg(long, requires = "apply")]
    pub squash: bool,
    /// After --squash, Iris reads each commit that took a fixup and updates its message where
    /// the change now contradicts it (the message stays otherwise).
    #[arg(long, requires = "squash")]
    pub reword: bool,
    /// Squash into commits a remote-tracking branch already has (others may have built on
    /// them).
    #[arg(long, requires = "squash")]
    pub force: bool,
    /// Where the branch starts (default: its upstream, else the default branch).
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// Put back the branch and the index as they were before the last absorb (an absorb never
    /// changes the working tree).
    #[arg(long, conflicts_with_all = ["apply", "squash", "base", "json"])]
    pub undo: bool,
    #[command(flatten)]
    pub config: ConfigFlags,
}

pub async fn run(args: AbsorbArgs) -> Result<ExitCode> {
    let ws = args.config.workspace()?;
    let (repo, vcs) = (&ws.repo, &ws.vcs);
    if let Some(why) = vcs.refuses(GitOnly::Absorb) {
        return Err(UsageError(why).into());
    }
    if args.undo {
        println!("{}", tokio::task::block_in_place(|| repo.undo_absorb())?);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(base) = &args.base {
        vcs.commit(repo, base)?;
    }
    if args.apply && !args.yes && !std::io::stdin().is_terminal() {
        return Err(UsageError(
            "--apply asks before committing, and there is no terminal to ask on: add --yes".into(),
        )
        .into());
    }
    let change = repo.split_change(true)?;
    if change.is_empty() {
        return Err(UsageError(
            "nothing is staged to absorb: stage the fixes with `git add` first".into(),
        )
        .into());
    }
    let (base, base_name) = repo
        .absorb_base(args.base.as_deref())
        .map_err(usage_unless_git)?;
    let plan = repo.absorb_plan(&change, base, &base_name)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&plan_json(&plan, &change))?
        );
    } else {
        println!("{}", shown(&plan_text(&plan, &change)));
    }
    if !args.apply {
        return Ok(ExitCode::SUCCESS);
    }
    if plan.targets.is_empty() {
        eprintln!("No hunk goes to a commit of the branch; nothing was committed.");
        return Ok(ExitCode::SUCCESS);
    }
    if args.squash {
        squash_needs_clean(repo, &plan)?;
        if !args.force {
            let ids: Vec<String> = plan.targets.iter().map(|t| t.id.clone()).collect();
            repo.refuse_published(&ids, "--force squashes into them anyway")
                .map_err(|e| UsageError(e.to_string()))?;
        }
    }
    if !args.yes {
        let n = plan.targets.len();
        let what = if args.squash {
            "fold into their targets"
        } else {
            "commit"
        };
        let question = format!(
            "Make {n} fixup{} and {what}? [y/N] ",
            if n == 1 { "" } else { "s" }
        );
        if !Prompter::stdio().confirm(&question, false)? {
            eprintln!("Nothing was committed.");
            return Ok(ExitCode::SUCCESS);
        }
    }
    // Iris is checked before anything is committed: a missing key fails at once.
    let iris = if args.reword {
        Some(ws.iris(false)?)
    } else {
        None
    };
    let interrupt = Interrupt::listen();
    let applied = tokio::task::block_in_place(|| {
        repo.absorb_fixups(&change, &plan, Some(interrupt.flag()), report)
    });
    drop(interrupt);
    let applied = applied.map_err(|stop| anyhow!(stop))?;
    let made = applied.commits.len();
    let s = if made == 1 { "" } else { "s" };
    if args.squash {
        tokio::task::block_in_place(|| repo.squash_fixups(&plan.base))?;
        eprintln!("Folded {made} fixup{s} into their commits.");
        if let Some(iris) = iris {
            // ctrl-c while Iris reads: no message changes, the squash stands (and undoes).
            tokio::select! {
                checked = reword_contradicted(repo, &iris, &plan) => {
                    if let Err(err) = checked {
                        eprintln!("{UNCHECKED}");
                        return Err(err);
                    }
                }
                _ = tokio::signal::ctrl_c() => {
                    eprintln!("interrupted: {UNCHECKED}");
                    return Ok(ExitCode::from(crate::output::exit::GENERAL));
                }
            }
        }
        eprintln!("`iris absorb --undo` puts everything back.");
    } else {
        eprintln!(
            "Made {made} fixup commit{s}; `git rebase -i --autosquash {}` folds them in, \
             `iris absorb --undo` puts everything back.",
            &plan.base[..12.min(plan.base.len())]
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Said when the messages could not be checked after the squash.
const UNCHECKED: &str = "the fixups are folded in and no message was changed; `iris absorb --undo` puts everything back";

/// What Iris is asked of each commit that took a fixup.
const CHECK_MESSAGE: &str = "A fixup was just folded into this commit, so its change grew. Read \
the change. If the message above still describes it truly, keep it and say so in one sentence. \
Only if the change now contradicts the message, or does something the message leaves out that \
matters, call the update tool with the message corrected: keep its words where they are still \
true.";

/// After a squash: each commit that took a fixup is replayed, Iris reads its change beside
/// its message and corrects the message only where the change now contradicts it; those
/// commits are reworded.
async fn reword_contradicted(repo: &GitRepo, iris: &IrisAgent, plan: &AbsorbPlan) -> Result<()> {
    // A commit after the rebase is the one before it with the same author, author date and
    // message (a fixup keeps its target's).
    let identity = |id: &str| -> Result<(String, i64, String)> {
        let info = repo.commit_info(id)?;
        Ok((info.author_email, info.time, info.message))
    };
    let after: Vec<(String, (String, i64, String))> = repo
        .branch_commits(&plan.base)?
        .into_iter()
        .map(|id| identity(&id).map(|key| (id, key)))
        .collect::<Result<_>>()?;
    let replay = replay_of(repo)?;
    let mut updates = Vec::new();
    for target in &plan.targets {
        let key = identity(&target.id)?;
        let Some((id, _)) = after.iter().find(|(_, k)| *k == key) else {
            eprintln!(
                "  {}: not found after the rebase; its message was not checked",
                target.short_id
            );
            continue;
        };
        // Named as the branch has it now: the squash made every commit from the first target
        // on anew, so the ids the plan knew are gone.
        let now = repo.commit_info(id)?;
        let (old, short) = (now.message, now.short_id);
        eprintln!("checking {short}'s message…");
        let there = staged_for(iris, &replay, id)?;
        let updated = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
        let on_update: iris_studio_agent::capability::chat::OnUpdate = {
            let updated = updated.clone();
            std::sync::Arc::new(move |text: String| {
                if let Ok(mut slot) = updated.lock() {
                    *slot = Some(text);
                }
            })
        };
        let target_text = ChatTarget {
            kind: ArtifactKind::Commit,
            artifact: old.trim_end().to_string(),
        };
        let progress = ProgressLine::start();
        let reply = there
            .chat(
                &target_text,
                &[],
                CHECK_MESSAGE,
                on_update,
                &progress.sink(),
            )
            .await;
        progress.finish().await;
        let reply = reply.with_context(|| format!("checking {short}'s message"))?;
        let new = updated
            .lock()
            .ok()
            .and_then(|slot| slot.clone())
            .map(|new| iris_studio_core::commit_rules::carry_trailers(&old, &new));
        match new.filter(|new| new.trim() != old.trim()) {
            Some(new) => {
                eprintln!(
                    "  {short}: {} → {}",
                    shown(old.lines().next().unwrap_or_default()),
                    shown(new.lines().next().unwrap_or_default())
                );
                updates.push((id.clone(), new));
            }
            None => eprintln!("  {short}: kept ({})", shown(reply.trim())),
        }
    }
    if !updates.is_empty() {
        let done = tokio::task::block_in_place(|| repo.reword_absorbed(&updates))?;
        let s = if done.reworded == 1 { "" } else { "s" };
        eprintln!("Iris updated {} message{s}.", done.reworded);
        if let Some(warning) = done.unsigned_warning() {
            eprintln!("warning: {warning}");
        }
    }
    Ok(())
}

/// Where the branch starts, when it cannot be found, is the user's to say (`--base`).
fn usage_unless_git(err: GitError) -> anyhow::Error {
    match err {
        GitError::Unsupported(why) => UsageError(why).into(),
        other => other.into(),
    }
}

/// A rebase needs the working tree clean: every hunk absorbed, nothing unstaged.
fn squash_needs_clean(repo: &GitRepo, plan: &AbsorbPlan) -> Result<()> {
    let mut why = Vec::new();
    if !plan.left.is_empty() {
        let left: Vec<&str> = plan.left.iter().map(|l| l.hunk.as_str()).collect();
        why.push(format!("{} would stay staged", left.join(", ")));
    }
    let unstaged = repo
        .status()?
        .entries
        .iter()
        .filter(|e| e.unstaged.is_some())
        .count();
    if unstaged > 0 {
        why.push(format!(
            "{unstaged} file{} unstaged changes",
            if unstaged == 1 { " has" } else { "s have" }
        ));
    }
    if why.is_empty() {
        return Ok(());
    }
    Err(UsageError(format!(
        "--squash rebases the branch, which needs the working tree otherwise clean: {}; \
         commit or stash the rest first, or leave out --squash",
        why.join(" and ")
    ))
    .into())
}

/// Progress on stderr, a line a fixup.
fn report(progress: Progress) {
    if let Progress::Committed { group, of, summary } = progress {
        eprintln!("[{group}/{of}] {}", shown(&summary));
    }
}

/// The plan as the user reads it: each target with its hunks, then what stays staged.
fn plan_text(plan: &AbsorbPlan, change: &SplitChange) -> String {
    let mut out = format!("The branch since {}:\n", plan.base_name);
    if plan.targets.is_empty() {
        out.push_str("  no hunk goes to one of its commits\n");
    }
    for target in &plan.targets {
        out.push_str(&format!("  {} {}\n", target.short_id, target.title));
        for id in &target.hunks {
            let place = change
                .units
                .iter()
                .find(|u| &u.id == id)
                .map(|u| u.place())
                .unwrap_or_default();
            out.push_str(&format!("    {id:<4} {place}\n"));
        }
    }
    if !plan.left.is_empty() {
        out.push_str("Staying staged:\n");
        for left in &plan.left {
            out.push_str(&format!(
                "    {:<4} {}: {}\n",
                left.hunk, left.place, left.why
            ));
        }
    }
    out.trim_end().to_string()
}

fn plan_json(plan: &AbsorbPlan, change: &SplitChange) -> serde_json::Value {
    let place = |id: &str| {
        change
            .units
            .iter()
            .find(|u| u.id == id)
            .map(|u| u.place())
            .unwrap_or_default()
    };
    json!({
        "base": plan.base,
        "base_name": plan.base_name,
        "targets": plan.targets.iter().map(|t| json!({
            "commit": t.id,
            "title": t.title,
            "hunks": t.hunks.iter().map(|h| json!({"id": h, "place": place(h)})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "left": plan.left.iter().map(|l| json!({
            "hunk": l.hunk,
            "place": l.place,
            "why": l.why,
        })).collect::<Vec<_>>(),
    })
}
