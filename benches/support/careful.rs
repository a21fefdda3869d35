//! What the fake provider's careful model reads of a change before it writes: the full diffs
//! of the files that matter (every file of a Small change, else the five most relevant; never
//! a lock or generated file), fetched in one `git_diff` call.

use iris_studio_core::change::relevance::is_lock_or_generated;
use iris_studio_core::change::{SizeBucket, rank_files, size_bucket};
use iris_studio_git::{DiffTarget, GitRepo};
use serde_json::{Value, json};

use crate::common::fake_provider::Need;

/// Files whose diffs a careful model reads on a change that is not Small.
const TOP_FILES: usize = 5;

/// The needs for the full diffs of `target`'s files that matter; `range` (`from`, `to`) goes
/// into the tool call's arguments.
pub fn diff_needs(git: &GitRepo, target: &DiffTarget, range: Value) -> Vec<Need> {
    let diff = git.diff_files(target, &[]).expect("diff");
    let lines = diff.iter().map(|f| f.additions + f.deletions).sum();
    let small = size_bucket(diff.len(), lines, false) == SizeBucket::Small;
    let top: Vec<String> = rank_files(&diff)
        .iter()
        .map(|s| s.file.path.clone())
        .filter(|p| !is_lock_or_generated(p))
        .take(if small { usize::MAX } else { TOP_FILES })
        .collect();
    let mut args = json!({"detail": "standard", "files": top});
    if let (Some(args), Some(range)) = (args.as_object_mut(), range.as_object()) {
        args.extend(range.clone());
    }
    top.iter()
        .map(|path| Need {
            marker: format!("diff --git a/{path}"),
            tool: "git_diff".into(),
            args: args.clone(),
        })
        .collect()
}
