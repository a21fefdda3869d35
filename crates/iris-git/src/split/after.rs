//! What each path of a change holds after a plan's first groups, in bytes: what a jj split
//! hands jj's diff editor for each group (jj builds the commits; nothing is written here).

use std::collections::HashSet;
use std::path::Path;

use super::SplitChange;
use crate::{GitError, GitRepo, Result};
use iris_studio_core::split::SplitPlan;

/// One path of the change after some groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathState {
    /// Relative to the root, `/`-separated.
    pub path: String,
    /// Its bytes and git's file mode (`0o100644`, `0o100755`, `0o120000` for a link, whose
    /// bytes are its target); `None` when the path holds nothing then.
    pub content: Option<(Vec<u8>, u32)>,
}

impl GitRepo {
    /// Every path `change` touches as it stands once the units of `plan`'s first `upto`
    /// groups are taken (0: as before the change, all groups: as after it). The new side is
    /// read from the repository's objects, as [`GitRepo::split_change_of`] reads it.
    pub fn split_states(
        &self,
        change: &SplitChange,
        plan: &SplitPlan,
        upto: usize,
    ) -> Result<Vec<PathState>> {
        let taken: HashSet<&str> = plan.groups[..upto.min(plan.groups.len())]
            .iter()
            .flat_map(|g| g.hunks.iter().map(String::as_str))
            .collect();
        let base = self.repo.find_commit(change.head)?.tree()?;
        let mut states = Vec::new();
        for (file, sides) in change.sides.iter().enumerate() {
            let units: Vec<bool> = change
                .units
                .iter()
                .filter(|u| u.file == file)
                .map(|u| taken.contains(u.id.as_str()))
                .collect();
            if let (Some(cut), Some(path)) = (&sides.cut, &sides.new_path) {
                let bytes = iris_studio_core::split::compose(&cut.old, &cut.new, &cut.spans, |i| {
                    units.get(i).copied().unwrap_or(false)
                })
                .ok_or_else(|| {
                    GitError::Unsupported(format!("the hunks of {path} no longer apply"))
                })?;
                states.push(PathState {
                    path: path.clone(),
                    content: Some((bytes, cut.head_entry.mode)),
                });
                continue;
            }
            let moved = units.iter().any(|t| *t);
            if let Some(old) = &sides.old_path
                && sides.new_path.as_ref() != Some(old)
            {
                let content = if moved {
                    None
                } else {
                    let entry = base.get_path(Path::new(old))?;
                    let blob = self.repo.find_blob(entry.id())?;
                    Some((blob.content().to_vec(), entry.filemode() as u32))
                };
                states.push(PathState {
                    path: old.clone(),
                    content,
                });
            }
            if let Some(new) = &sides.new_path {
                let content = if moved {
                    let entry = sides.staged_entry.as_ref().ok_or_else(|| {
                        GitError::Unsupported(format!(
                            "{new}'s new side is not in the repository's objects"
                        ))
                    })?;
                    let blob = self.repo.find_blob(entry.id)?;
                    Some((blob.content().to_vec(), entry.mode))
                } else if sides.old_path.as_ref() == Some(new) {
                    let entry = base.get_path(Path::new(new))?;
                    let blob = self.repo.find_blob(entry.id())?;
                    Some((blob.content().to_vec(), entry.filemode() as u32))
                } else {
                    None
                };
                states.push(PathState {
                    path: new.clone(),
                    content,
                });
            }
        }
        Ok(states)
    }
}
