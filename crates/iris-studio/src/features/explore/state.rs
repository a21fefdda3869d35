//! Explore mode's state: the repository's file tree, the open file with its heat margin, the
//! lines selected in it, and what Iris said about them.

use std::collections::HashMap;

use crate::state::{CommitRow, DiffView};
use iris_studio_core::artifact::intent::FileIntent;
use iris_studio_core::protocol::Explained;

/// One row of the explore tree: a directory or a file, indented by depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRow {
    /// Relative to the repository root, with `/` separators (a directory's has no trailing `/`).
    pub path: String,
    /// How many directories it sits in; 0 at the top level.
    pub depth: usize,
    /// A directory, which enter expands or folds, rather than a file to open.
    pub is_dir: bool,
}

/// The repository's files for explore mode, and the file open in the code view.
#[derive(Debug, Clone, Default)]
pub struct Explore {
    /// Every file the repository tracks or would (ignored files left out), sorted.
    pub files: Vec<String>,
    /// Directories whose contents are shown.
    pub expanded: std::collections::BTreeSet<String>,
    /// The tree row under the cursor, an index into [`Explore::rows`].
    pub selected: usize,
    /// The repository's files have been listed (until then the status line says so).
    pub loaded: bool,
    /// The open file: its path, its lines (None when binary or too large) and its history.
    pub open: Option<String>,
    /// The open file's lines; `None` when it is binary or too large to show.
    pub lines: Option<Vec<String>>,
    /// The last commits that touched the open file, newest first (shown under the code).
    pub history: Vec<CommitRow>,
    /// Each line's age as a heat level (see [`Heat`]), once the blame has been read.
    pub heat: Option<Vec<Heat>>,
    /// A digest of the open file's text: an answer about it holds while the text does.
    pub digest: u64,
    /// The first line of the open file shown in the code view.
    pub scroll: usize,
    /// Columns scrolled past on the left, for long lines.
    pub hscroll: usize,
    /// The line the cursor is on (0-based).
    pub cursor: usize,
    /// Where the selection started (`v`); the cursor is its other end.
    pub anchor: Option<usize>,
    /// The answer beside the code: being written, or written.
    pub why: Option<WhyView>,
    /// Every answer of the session, so asking again is instant.
    pub answers: HashMap<WhyKey, Explained>,
    /// A commit's diff shown in place of the code (enter on a commit of the answer).
    pub commit: Option<ShownCommit>,
    /// The open file's intent and responsibility blocks, beside the code.
    pub intent: Option<IntentView>,
    /// Every file intent of the session, by file text.
    pub intents: HashMap<IntentKey, FileIntent>,
}

/// A commit shown in place of the code: its id and its diff.
#[derive(Debug, Clone, Default)]
pub struct ShownCommit {
    /// The commit's full hash.
    pub id: String,
    /// Its diff, scrolled like the diff pane's.
    pub view: DiffView,
}

/// What a file intent is about: a file's text (its history does not change it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IntentKey {
    /// The file, relative to the repository root.
    pub path: String,
    /// A hash of the file's text when Iris read it.
    pub digest: u64,
}

/// The blocks pane.
#[derive(Debug, Clone)]
pub struct IntentView {
    /// The file and text the blocks are about.
    pub key: IntentKey,
    /// `None` while Iris reads the file.
    pub intent: Option<FileIntent>,
    /// The block whose ranges the code view highlights.
    pub block: usize,
    /// The first row shown.
    pub scroll: usize,
}

impl Explore {
    /// The line ranges (0-based, inclusive) of the chosen block, while the open file is the
    /// text it was read from.
    pub fn block_ranges(&self) -> Vec<(usize, usize)> {
        let Some(view) = &self.intent else {
            return Vec::new();
        };
        let (Some(intent), true) = (&view.intent, self.shows(&view.key.path, view.key.digest))
        else {
            return Vec::new();
        };
        intent.blocks.get(view.block).map_or(Vec::new(), |block| {
            block
                .ranges
                .iter()
                .map(|[start, end]| (start.saturating_sub(1), end.saturating_sub(1)))
                .collect()
        })
    }

    /// The selected lines (0-based, inclusive): from the anchor to the cursor, or the cursor's
    /// line alone; `None` without a file's text.
    pub fn selection(&self) -> Option<(usize, usize)> {
        let last = self.lines.as_ref().filter(|l| !l.is_empty())?.len() - 1;
        let cursor = self.cursor.min(last);
        let anchor = self.anchor.unwrap_or(cursor).min(last);
        Some((anchor.min(cursor), anchor.max(cursor)))
    }

    /// The visible rows: top-level entries and the contents of expanded directories.
    pub fn rows(&self) -> Vec<TreeRow> {
        let mut rows = Vec::new();
        let mut seen_dirs = std::collections::BTreeSet::new();
        for file in &self.files {
            let parts: Vec<&str> = file.split('/').collect();
            let mut prefix = String::new();
            for (depth, part) in parts.iter().enumerate() {
                if !prefix.is_empty() {
                    prefix.push('/');
                }
                prefix.push_str(part);
                let is_dir = depth + 1 < parts.len();
                if is_dir {
                    if seen_dirs.insert(prefix.clone()) {
                        rows.push(TreeRow {
                            path: prefix.clone(),
                            depth,
                            is_dir: true,
                        });
                    }
                    if !self.expanded.contains(&prefix) {
                        break; // a closed directory hides the rest of the path
                    }
                } else {
                    rows.push(TreeRow {
                        path: prefix.clone(),
                        depth,
                        is_dir: false,
                    });
                }
            }
        }
        rows
    }

    /// Whether the code view shows `path` with this text.
    pub fn shows(&self, path: &str, digest: u64) -> bool {
        self.open.as_deref() == Some(path) && self.digest == digest && self.commit.is_none()
    }
}

/// What an answer is about: lines of a file's text, at a HEAD. The same question about the
/// same text at the same HEAD has the same answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WhyKey {
    /// The file, relative to the repository root.
    pub path: String,
    /// A hash of the file's text when the question was asked.
    pub digest: u64,
    /// The commit HEAD pointed at, whose history the answer reads.
    pub head: String,
    /// 1-based, inclusive.
    pub start: usize,
    /// The last line asked about: 1-based, inclusive.
    pub end: usize,
}

/// The answer pane.
#[derive(Debug, Clone)]
pub struct WhyView {
    /// The lines the answer is about.
    pub key: WhyKey,
    /// `None` while Iris answers (the pane shows what she has streamed).
    pub answer: Option<Explained>,
    /// The first row shown.
    pub scroll: usize,
    /// The commit of the answer that enter opens (n / p move it).
    pub commit: usize,
}

/// How recently a line of the open file changed, within the file's own history: the heat
/// margin of the code view shows recent changes bright and old ones dim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heat {
    /// Not committed yet.
    Uncommitted,
    /// In the newest quarter of the file's history.
    Hot,
    /// In the second newest quarter.
    Warm,
    /// In the second oldest quarter.
    Cool,
    /// In the oldest quarter.
    Cold,
}

impl Heat {
    /// Levels from commit times: each line placed between the file's oldest and newest
    /// commit.
    pub fn of_times(times: &[Option<i64>]) -> Vec<Heat> {
        let known = times.iter().flatten();
        let (Some(oldest), Some(newest)) = (known.clone().min(), known.max()) else {
            return vec![Heat::Uncommitted; times.len()];
        };
        let span = (newest - oldest).max(1) as f64;
        times
            .iter()
            .map(|time| match time {
                None => Heat::Uncommitted,
                Some(t) => match (*t - oldest) as f64 / span {
                    x if x >= 0.75 => Heat::Hot,
                    x if x >= 0.5 => Heat::Warm,
                    x if x >= 0.25 => Heat::Cool,
                    _ => Heat::Cold,
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_shows_top_level_entries_and_expanded_directories() {
        let mut explorer = Explore {
            files: vec![
                "Cargo.toml".into(),
                "src/lib.rs".into(),
                "src/ui/pane.rs".into(),
            ],
            ..Explore::default()
        };
        let paths = |e: &Explore| {
            e.rows()
                .into_iter()
                .map(|r| (r.path, r.depth, r.is_dir))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            paths(&explorer),
            vec![("Cargo.toml".into(), 0, false), ("src".into(), 0, true)]
        );
        explorer.expanded.insert("src".into());
        assert_eq!(
            paths(&explorer),
            vec![
                ("Cargo.toml".into(), 0, false),
                ("src".into(), 0, true),
                ("src/lib.rs".into(), 1, false),
                ("src/ui".into(), 1, true),
            ]
        );
    }
}
