//! The change as units the plan groups: each hunk of a changed text file, and each file that
//! can only move whole (new, deleted, renamed, binary, a change of mode or type). Numbered
//! `h1`, `h2`, ... in the order `git diff` lists them.

use serde::Serialize;

use crate::change::{ChangeKind, FileDiff, Hunk};

/// One unit of the change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unit {
    /// `h1`, `h2`, ...
    pub id: String,
    /// The file it belongs to (the new path; the old one for a deletion).
    pub path: String,
    /// Its place in the list of files the units were made from.
    pub file: usize,
    /// A hunk of the file, or the whole file.
    pub kind: UnitKind,
}

/// What a unit holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// Hunk number `index` (0-based) of its file.
    Hunk {
        /// The hunk's place among its file's hunks, from 0.
        index: usize,
        /// The hunk as the diff gives it: its counts and its lines.
        hunk: Hunk,
    },
    /// The whole file, and why it cannot be cut.
    Whole {
        /// Why the file cannot be cut into hunks.
        why: WholeWhy,
    },
}

/// Why a file is one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WholeWhy {
    /// A new file.
    New,
    /// A deleted file.
    Deleted,
    /// A renamed file (git applies a rename at once).
    Renamed,
    /// A copied file.
    Copied,
    /// A binary file, which has no lines to cut.
    Binary,
    /// Its mode changed (made executable, say).
    ModeChange,
    /// It became another kind of file (a symlink, say).
    TypeChange,
    /// Its hunks could not be taken apart exactly (see [`units`]'s `whole`).
    Uncuttable,
}

impl WholeWhy {
    /// What happened to the file, in a few words (`renamed file`).
    pub fn describe(self) -> &'static str {
        match self {
            WholeWhy::New => "new file",
            WholeWhy::Deleted => "deleted file",
            WholeWhy::Renamed => "renamed file",
            WholeWhy::Copied => "copied file",
            WholeWhy::Binary => "binary file",
            WholeWhy::ModeChange => "mode change",
            WholeWhy::TypeChange => "type change",
            WholeWhy::Uncuttable => "whole file",
        }
    }
}

impl Unit {
    /// Where it is, as `file:lines` (the new side's lines; the old side's for lines that
    /// were only removed), or the file and what happened to it.
    pub fn place(&self) -> String {
        match &self.kind {
            UnitKind::Hunk { hunk, .. } => {
                let (start, lines, removed) = if hunk.new_lines == 0 {
                    (hunk.old_start, hunk.old_lines, " (removed)")
                } else {
                    (hunk.new_start, hunk.new_lines, "")
                };
                let end = start + lines.saturating_sub(1);
                if end > start {
                    format!("{}:{start}-{end}{removed}", self.path)
                } else {
                    format!("{}:{start}{removed}", self.path)
                }
            }
            UnitKind::Whole { why } => format!("{} ({})", self.path, why.describe()),
        }
    }
}

/// The number an id names: `h7`, `H7` and `7` all name 7.
pub fn number_of(id: &str) -> Option<usize> {
    let id = id.trim();
    let digits = id.strip_prefix(['h', 'H']).unwrap_or(id);
    digits.parse().ok().filter(|&n| n > 0)
}

/// Why `file` can only move whole, if it can (`None`: its hunks can be taken apart).
pub fn whole_why(file: &FileDiff) -> Option<WholeWhy> {
    let mode_changed =
        file.old_mode.is_some() && file.new_mode.is_some() && file.old_mode != file.new_mode;
    Some(match file.kind {
        ChangeKind::Added => WholeWhy::New,
        ChangeKind::Deleted => WholeWhy::Deleted,
        ChangeKind::Renamed => WholeWhy::Renamed,
        ChangeKind::Copied => WholeWhy::Copied,
        ChangeKind::TypeChanged => WholeWhy::TypeChange,
        ChangeKind::Modified if file.binary => WholeWhy::Binary,
        ChangeKind::Modified if mode_changed => WholeWhy::ModeChange,
        ChangeKind::Modified if file.hunks.is_empty() => WholeWhy::Uncuttable,
        ChangeKind::Modified => return None,
    })
}

/// The units of `files` (in their order), numbered from `h1`. A file for which `whole` says
/// yes is one unit even when it has hunks (its hunks did not apply exactly to its sides).
pub fn units(files: &[FileDiff], whole: impl Fn(usize) -> bool) -> Vec<Unit> {
    let mut out = Vec::new();
    for (file_index, file) in files.iter().enumerate() {
        let why = whole_why(file).or_else(|| whole(file_index).then_some(WholeWhy::Uncuttable));
        let mut push = |kind| {
            out.push(Unit {
                id: format!("h{}", out.len() + 1),
                path: file.path.clone(),
                file: file_index,
                kind,
            })
        };
        match why {
            Some(why) => push(UnitKind::Whole { why }),
            None => {
                for (index, hunk) in file.hunks.iter().enumerate() {
                    push(UnitKind::Hunk {
                        index,
                        hunk: hunk.clone(),
                    });
                }
            }
        }
    }
    out
}

/// The ids of `units`, in order.
pub fn unit_ids(units: &[Unit]) -> Vec<String> {
    units.iter().map(|u| u.id.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::parse_unified_diff;

    const DIFF: &str = "\
diff --git a/src/a.rs b/src/a.rs
index 1111111..2222222 100644
--- a/src/a.rs
+++ b/src/a.rs
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
@@ -10,2 +10,0 @@ fn x
-ten
-eleven
diff --git a/src/b.rs b/src/b.rs
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/src/b.rs
@@ -0,0 +1,2 @@
+fn b() {}
+fn c() {}
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/logo.png b/logo.png
index 4444444..5555555 100644
Binary files a/logo.png and b/logo.png differ
";

    #[test]
    fn hunks_are_numbered_in_order_and_whole_files_are_one_unit() {
        let files = parse_unified_diff(DIFF);
        let units = units(&files, |_| false);
        let places: Vec<(String, String)> =
            units.iter().map(|u| (u.id.clone(), u.place())).collect();
        assert_eq!(
            places,
            vec![
                ("h1".into(), "src/a.rs:1-3".into()),
                ("h2".into(), "src/a.rs:10-11 (removed)".into()),
                ("h3".into(), "src/b.rs (new file)".into()),
                ("h4".into(), "run.sh (mode change)".into()),
                ("h5".into(), "logo.png (binary file)".into()),
            ]
        );
        assert_eq!(units[1].file, 0);
        assert_eq!(units[4].file, 3);
    }

    #[test]
    fn a_file_said_to_be_whole_is_one_unit() {
        let files = parse_unified_diff(DIFF);
        let units = units(&files, |i| i == 0);
        assert_eq!(units[0].place(), "src/a.rs (whole file)");
        assert_eq!(units[1].id, "h2");
        assert_eq!(units[1].path, "src/b.rs");
    }

    #[test]
    fn ids_are_read_leniently() {
        assert_eq!(number_of("h12"), Some(12));
        assert_eq!(number_of(" H3 "), Some(3));
        assert_eq!(number_of("4"), Some(4));
        assert_eq!(number_of("h0"), None);
        assert_eq!(number_of("hunk1"), None);
    }
}
