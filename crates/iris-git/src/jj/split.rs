//! A plan split with jj, one `jj split` a group. jj's diff editor for each is the `iris`
//! program (`iris jj-split-tool STATE RIGHT`, which calls [`write_right`]): it leaves jj's
//! right side as the change stands after the groups so far (`GitRepo::split_states`), byte
//! for byte, with modes and links, and marks the state done so Iris knows it ran.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Jj;
use crate::split::{PathState, SplitChange};
use crate::{GitError, GitRepo, Result};
use iris_studio_core::split::SplitPlan;

/// One path of a group's state, as the diff editor reads it.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    path: String,
    /// The file with its bytes in the state folder, and its git mode; none when the path
    /// holds nothing.
    content: Option<(String, u32)>,
}

/// Left in the state folder by the diff editor once it has written jj's right side.
const DONE: &str = "done";

impl Jj {
    /// Splits change `target` (a change id) by `plan`, whose units are `change`'s: each group
    /// but the last split off in order, the selected part keeping the id and the rest a new
    /// child; the last group describes that rest. `iris` is the program jj runs as the diff
    /// editor (`iris jj-split-tool`); `step` hears of each group made (its number, how many,
    /// its title). `undo` is said with a stop (how to go back).
    pub fn split_by_plan(
        &self,
        repo: &GitRepo,
        (target, change): (&str, &SplitChange),
        (plan, iris): (&SplitPlan, &Path),
        undo: &str,
        step: &mut impl FnMut(usize, usize, &str),
    ) -> Result<()> {
        let of = plan.groups.len();
        let stop = |number: usize, why: String| {
            GitError::Unsupported(format!("stopped at change {number} of {of}: {why}; {undo}"))
        };
        let mut target = target.to_string();
        for (k, group) in plan.groups.iter().enumerate() {
            let number = k + 1;
            let message = group.message.trim_end();
            if number == of {
                // What is left is the last group.
                self.describe(&target, message, false)
                    .map_err(|e| stop(number, e.to_string()))?;
            } else {
                let state = tempfile::tempdir().map_err(|e| GitError::Io {
                    context: "making a folder for the split".into(),
                    source: e,
                })?;
                write_state(state.path(), &repo.split_states(change, plan, number)?)?;
                let args = [
                    "jj-split-tool".to_string(),
                    state.path().display().to_string(),
                ];
                self.split_with(&target, message, iris, &args)
                    .map_err(|e| stop(number, e.to_string()))?;
                if !state.path().join(DONE).exists() {
                    let why = format!(
                        "jj's diff editor ({}) did not run `iris jj-split-tool`",
                        iris.display()
                    );
                    return Err(stop(number, why));
                }
                // The rest is the split change's one child: what came after moved onto it.
                let rest = self.changes(&format!("children({target})"))?;
                target = match rest.as_slice() {
                    [one] => one.change_id.clone(),
                    _ => {
                        return Err(stop(
                            number + 1,
                            "jj left no single change with the rest".into(),
                        ));
                    }
                };
            }
            step(number, of, group.title());
        }
        Ok(())
    }
}

/// Writes a group's state where the diff editor reads it.
fn write_state(dir: &Path, states: &[PathState]) -> Result<()> {
    let io = |context: &str| {
        let context = context.to_string();
        move |source| GitError::Io { context, source }
    };
    let mut entries = Vec::new();
    for (i, state) in states.iter().enumerate() {
        let content = match &state.content {
            Some((bytes, mode)) => {
                let name = format!("{i}");
                std::fs::write(dir.join(&name), bytes).map_err(io("writing the split's state"))?;
                Some((name, *mode))
            }
            None => None,
        };
        entries.push(Entry {
            path: state.path.clone(),
            content,
        });
    }
    let manifest = serde_json::to_vec(&entries).unwrap_or_default();
    std::fs::write(dir.join("manifest.json"), manifest).map_err(io("writing the split's state"))
}

/// `iris jj-split-tool STATE RIGHT`: jj's diff editor for one group. Each path of the
/// state gets its bytes and mode in `right`, or is removed from it; nothing else is touched.
pub fn write_right(state: &Path, right: &Path) -> Result<()> {
    let io = |context: String| move |source| GitError::Io { context, source };
    let manifest = std::fs::read(state.join("manifest.json"))
        .map_err(io("reading the split's state".into()))?;
    let entries: Vec<Entry> = serde_json::from_slice(&manifest)
        .map_err(|e| GitError::Unsupported(format!("the split's state is not readable: {e}")))?;
    for entry in entries {
        let target = right.join(crate::check_relative_path(&entry.path)?);
        let writing = || io(format!("writing {}", entry.path));
        if target.is_dir() {
            std::fs::remove_dir_all(&target).map_err(writing())?;
        } else if target.symlink_metadata().is_ok() {
            std::fs::remove_file(&target).map_err(writing())?;
        }
        let Some((name, mode)) = &entry.content else {
            continue;
        };
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(writing())?;
        }
        let bytes = std::fs::read(state.join(name)).map_err(writing())?;
        write_file(&target, &bytes, *mode).map_err(writing())?;
    }
    std::fs::write(state.join(DONE), "").map_err(io("marking the split's state done".into()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_editor_leaves_each_path_as_the_state_says_and_marks_it_done() {
        let state = tempfile::tempdir().unwrap();
        let right = tempfile::tempdir().unwrap();
        std::fs::write(right.path().join("gone.txt"), "old").unwrap();
        std::fs::write(right.path().join("kept.txt"), "untouched").unwrap();
        write_state(
            state.path(),
            &[
                PathState {
                    path: "gone.txt".into(),
                    content: None,
                },
                PathState {
                    path: "deep/new.sh".into(),
                    content: Some((b"#!/bin/sh\n".to_vec(), 0o100755)),
                },
                PathState {
                    path: "link".into(),
                    content: Some((b"deep/new.sh".to_vec(), 0o120000)),
                },
            ],
        )
        .unwrap();
        write_right(state.path(), right.path()).unwrap();
        assert!(!right.path().join("gone.txt").exists());
        assert_eq!(
            std::fs::read_to_string(right.path().join("kept.txt")).unwrap(),
            "untouched"
        );
        let new = right.path().join("deep/new.sh");
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "#!/bin/sh\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&new).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o755);
            let link = std::fs::read_link(right.path().join("link")).unwrap();
            assert_eq!(link, std::path::Path::new("deep/new.sh"));
        }
        assert!(state.path().join(DONE).exists());
    }

    #[test]
    fn a_state_naming_a_path_outside_the_right_side_is_refused() {
        let state = tempfile::tempdir().unwrap();
        let right = tempfile::tempdir().unwrap();
        write_state(
            state.path(),
            &[PathState {
                path: "../escape.txt".into(),
                content: Some((b"x".to_vec(), 0o100644)),
            }],
        )
        .unwrap();
        assert!(write_right(state.path(), right.path()).is_err());
        assert!(!state.path().join(DONE).exists());
    }
}
