//! A split applied with jj, shared by `iris split` and the studio's split view: one `jj split`
//! a group, whose diff editor is this binary (`iris jj-split-tool`, [`tool`]), leaving jj's
//! right side as the change stands after the groups so far.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use serde::{Deserialize, Serialize};

use iris_core::split::SplitPlan;
use iris_git::GitRepo;
use iris_git::jj::Jj;
use iris_git::split::{PathState, SplitChange};

/// One path of a group's state, as the diff editor reads it.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    path: String,
    /// The file with its bytes in the state folder, and its git mode; none when the path
    /// holds nothing.
    content: Option<(String, u32)>,
}

/// Splits change `target` by `plan`, group by group, `step` told of each (its number and
/// title) as it is made; `iris` is this program, which jj runs as the diff editor. The
/// operation before, for undoing.
pub fn apply(
    repo: &GitRepo,
    jj: &Jj,
    (target, change): (&str, &SplitChange),
    plan: &SplitPlan,
    iris: &Path,
    mut step: impl FnMut(usize, usize, &str),
) -> Result<String> {
    let before = jj.operation()?;
    let split = split_by_plan(repo, jj, (target, change), plan, iris, &before, &mut step);
    // The undo restores `before` while jj is still where the split left it (a failure to
    // remember only loses the shortcut).
    if let Ok(after) = jj.operation()
        && after != before
    {
        let saved = crate::shared::IrisDir::of(&repo.state_dir()).jj_split_undo();
        if let Some(dir) = saved.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(&saved, format!("{before}\n{after}\n"));
    }
    split.map(|()| before)
}

/// The groups of `plan` made one by one (see [`apply`]).
fn split_by_plan(
    repo: &GitRepo,
    jj: &Jj,
    (target, change): (&str, &SplitChange),
    plan: &SplitPlan,
    iris: &Path,
    before: &str,
    step: &mut impl FnMut(usize, usize, &str),
) -> Result<()> {
    let undo = format!("`jj op restore {before}` undoes what was made");
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
            jj.split_with(&target, message, iris, &args)
                .map_err(|e| anyhow!("stopped at change {number} of {of}: {e}; {undo}"))?;
            if !state.path().join(DONE).exists() {
                return Err(anyhow!(
                    "stopped at change {number} of {of}: jj's diff editor ({}) did not run \
                     `iris jj-split-tool`; {undo}",
                    iris.display()
                ));
            }
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
        step(number, of, group.title());
    }
    Ok(())
}

/// Puts the repository back as it was before the last split (`jj op restore`), while jj
/// has done nothing since (a restore would undo that too: edits in the working copy, other
/// commands); what jj said.
pub fn undo(repo: &GitRepo, jj: &Jj) -> Result<String> {
    let saved = crate::shared::IrisDir::of(&repo.state_dir()).jj_split_undo();
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
/// state gets its bytes and mode in `right`, or is removed from it; nothing else is touched.
pub fn tool(state: &Path, right: &Path) -> Result<()> {
    let manifest =
        std::fs::read(state.join("manifest.json")).context("cannot read the split's state")?;
    let entries: Vec<Entry> = serde_json::from_slice(&manifest)?;
    for entry in entries {
        let relative = iris_git::check_relative_path(&entry.path)?;
        let target = right.join(relative);
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
        let bytes = std::fs::read(state.join(&name))?;
        write_file(&target, &bytes, mode)
            .with_context(|| format!("cannot write {}", entry.path))?;
    }
    std::fs::write(state.join(DONE), "").context("cannot mark the split's state done")
}

/// Left in the state folder by the diff editor once it has written jj's right side.
const DONE: &str = "done";

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
