//! A reword in a jj workspace: the changes a revset names (`@-`, `trunk()..@`, a change
//! id), each written from its own diff with the history before it (the same replay as
//! git's), and applied with `jj describe`: jj rebases what comes after. jj keeps every operation, so the operation before the reword is named for
//! `jj op restore`.

use anyhow::Result;

use crate::output::exit::UsageError;
use iris_studio_git::RewordCommit;
use iris_studio_git::jj::{Jj, JjChange};

/// The changes `revset` names (jj's root left out), oldest first, as the reword's plan reads
/// them. A merge, an empty change (nothing to write from), a conflicted one (its tree holds
/// jj's conflict files) and a change on jj's root (no parent to write against) keep their
/// descriptions; an immutable change is refused with `guard` (how to reword it anyway).
pub(super) fn commits(jj: &Jj, revset: &str, guard: Option<&str>) -> Result<Vec<RewordCommit>> {
    let mut changes = jj.changes(revset)?;
    changes.retain(|change| !change.is_root());
    if changes.is_empty() {
        return Err(UsageError(format!(
            "'{revset}' names no change to reword in this jj repository (`jj log -r '{revset}'`)"
        ))
        .into());
    }
    let fixed: Vec<&JjChange> = changes.iter().filter(|c| c.immutable).collect();
    if let (Some(anyway), Some(first)) = (guard, fixed.last()) {
        return Err(UsageError(format!(
            "{} change(s) of '{revset}' are immutable in jj (trunk or a tag has them), {} \
             first: {anyway}",
            fixed.len(),
            first.short_id
        ))
        .into());
    }
    changes.reverse();
    Ok(changes
        .into_iter()
        .map(|change| {
            let keeps =
                change.parents.len() > 1 || change.empty || change.conflict || change.on_root();
            RewordCommit {
                merge: keeps,
                id: change.commit_id,
                short_id: change.short_id,
                message: change.description,
            }
        })
        .collect())
}

/// Sets each `(commit id, message)`'s change description, oldest first, each change found by
/// its change id (commit ids go stale as jj rebases what follows). Returns the operation
/// to restore to undo it all.
pub(super) fn apply(
    jj: &Jj,
    commits: &[RewordCommit],
    messages: &[(String, String)],
    force: bool,
) -> Result<String> {
    // Every change found before the first is described: describing rebases what follows.
    let mut changes = Vec::new();
    for (id, message) in messages {
        let change = jj.change(id)?;
        let short = commits
            .iter()
            .find(|c| &c.id == id)
            .map_or(change.short_id.clone(), |c| c.short_id.clone());
        changes.push((change.change_id, short, message));
    }
    let before = jj.operation()?;
    for (change_id, short, message) in changes {
        jj.describe(&change_id, message.trim_end(), force)
            .map_err(|e| {
                anyhow::anyhow!("{short}: {e} (`jj op restore {before}` undoes the reword)")
            })?;
    }
    Ok(before)
}
