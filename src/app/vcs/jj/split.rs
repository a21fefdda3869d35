//! A split applied with jj (`Jj::split_by_plan` makes it), and its undo: jj's operation from before, restored while
//! jj has done nothing since.

use std::path::Path;

use anyhow::{Result, anyhow};

use iris_studio_core::split::SplitPlan;
use iris_studio_git::GitRepo;
use iris_studio_git::jj::Jj;
use iris_studio_git::split::SplitChange;

/// Splits change `target` by `plan`, group by group, `step` told of each (its number and
/// title) as it is made; `iris` is this program, which jj runs as the diff editor. The
/// operation before, for undoing.
pub(super) fn apply(
    repo: &GitRepo,
    jj: &Jj,
    (target, change): (&str, &SplitChange),
    plan: &SplitPlan,
    iris: &Path,
    mut step: impl FnMut(usize, usize, &str),
) -> Result<String> {
    let before = jj.operation()?;
    let undo = format!("`jj op restore {before}` undoes what was made");
    let split = jj.split_by_plan(repo, (target, change), (plan, iris), &undo, &mut step);
    // The undo restores `before` while jj is still where the split left it (a failure to
    // remember only loses the shortcut).
    if let Ok(after) = jj.operation()
        && after != before
    {
        let saved = crate::app::stores::IrisDir::of(&repo.state_dir()).jj_split_undo();
        if let Some(dir) = saved.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(&saved, format!("{before}\n{after}\n"));
    }
    split.map(|()| before).map_err(anyhow::Error::from)
}

/// Puts the repository back as it was before the last split (`jj op restore`), while jj
/// has done nothing since (a restore would undo that too: edits in the working copy, other
/// commands); what jj said.
pub(super) fn undo(repo: &GitRepo, jj: &Jj) -> Result<String> {
    let saved = crate::app::stores::IrisDir::of(&repo.state_dir()).jj_split_undo();
    let text = std::fs::read_to_string(&saved).unwrap_or_default();
    let mut ids = text.split_whitespace();
    let (Some(before), Some(after)) = (ids.next(), ids.next()) else {
        return Err(anyhow!(
            "there is no split to undo here (`jj op log` lists jj's operations)"
        ));
    };
    // Reading `@` snapshots the working copy: an edit since the split is an operation too.
    jj.change("@")?;
    let now = jj.operation()?;
    if now != after {
        return Err(anyhow!(
            "jj has done more since the split (it was at operation {after}, it is at {now}): \
             restoring {before} would undo that too; `jj op log` shows what, and `jj op \
             restore {before}` does it if you mean to"
        ));
    }
    let said = jj.restore(before)?;
    let _ = std::fs::remove_file(&saved);
    Ok(format!(
        "Undid the split: jj is back at operation {before}. {said}"
    ))
}
