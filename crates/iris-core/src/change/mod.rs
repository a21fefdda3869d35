//! The change model and relevance engine: pure functions over diffs, no IO.
//!
//! - [`diff`]: parse unified diff text into files, hunks and lines.
//! - [`semantic`]: detect what added/removed lines do (adds function, adds type, ...).
//! - [`relevance`]: score each changed file in [0, 1] with its reasons.
//! - [`ranking`]: the changed files, most relevant first.
//! - [`operation`]: a merge, cherry-pick, revert or rebase in progress, told for its message.
//! - [`sides`]: both versions of a changed file, as text, for the parsers that read whole files.
//! - [`size`]: the size bucket of a change and the advice that goes with it.
//! - [`stat`]: `git show --stat`'s summary of a diff.

pub mod diff;
pub mod operation;
pub mod ranking;
pub mod relevance;
pub mod semantic;
pub mod sides;
pub mod size;
pub mod stat;

pub use diff::{
    ChangeKind, DiffLine, FileDiff, Hunk, LargeText, LineKind, parse_unified_diff, quote_path,
};
pub use ranking::{ScoredFile, most_relevant_first, rank_files, score_lines};
pub use relevance::{
    FileCategory, Relevance, file_category, is_lock_or_generated, is_test_path, score_file,
};
pub use semantic::{SemanticChange, detect_semantic_changes};
pub use sides::{SideText, Sides};
pub use size::{SizeBucket, guidance, size_bucket};
