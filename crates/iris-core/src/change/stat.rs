//! `git show --stat`'s summary of a diff, from the files as parsed: a line a file with its
//! lines added and removed, then the totals. Made here rather than by libgit2, which counts a
//! text file too large to diff as binary with no lines; this counts it as [`LargeText`] says.
//!
//! [`LargeText`]: super::LargeText

use std::fmt::Write;

use super::{ChangeKind, FileDiff};

/// Columns a stat line fills at most, as `git show --stat` on an 80-column terminal.
const COLUMNS: usize = 80;

/// The stat of `files`: ` src/lib.rs | 3 ++-` a file (`Bin` for a binary one; one too large
/// to show is counted and says its size), then ` 2 files changed, 3 insertions(+), 1 deletion(-)`.
pub fn stat(files: &[FileDiff]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let names: Vec<String> = files.iter().map(name).collect();
    let name_width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let counts: Vec<String> = files.iter().map(count).collect();
    let count_width = counts.iter().map(String::len).max().unwrap_or(0);
    let most = files
        .iter()
        .filter(|f| !f.binary)
        .map(|f| f.additions + f.deletions)
        .max()
        .unwrap_or(0);
    let room = COLUMNS.saturating_sub(name_width + count_width + 4).max(10);
    let mut out = String::new();
    for ((file, name), count) in files.iter().zip(&names).zip(&counts) {
        let _ = write!(out, " {name:<name_width$} | {count:>count_width$}");
        if !file.binary {
            let (plus, minus) = bar(file.additions, file.deletions, most, room);
            let _ = write!(out, " {}{}", "+".repeat(plus), "-".repeat(minus));
        }
        if let Some(large) = &file.large {
            let _ = write!(out, " (large text, {} bytes, not shown)", large.bytes);
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    let added: usize = files.iter().map(|f| f.additions).sum();
    let removed: usize = files.iter().map(|f| f.deletions).sum();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let _ = writeln!(
        out,
        " {} changed, {}, {}",
        plural(files.len(), "file", "files"),
        plural(added, "insertion(+)", "insertions(+)"),
        plural(removed, "deletion(-)", "deletions(-)")
    );
    out
}

/// The file as the stat names it: `old => new` for a rename or copy.
fn name(file: &FileDiff) -> String {
    match (&file.old_path, file.kind) {
        (Some(old), ChangeKind::Renamed | ChangeKind::Copied) => format!("{old} => {}", file.path),
        _ => file.path.clone(),
    }
}

/// What the stat counts of a file: its lines changed, or `Bin`.
fn count(file: &FileDiff) -> String {
    match file.binary {
        true => "Bin".to_string(),
        false => (file.additions + file.deletions).to_string(),
    }
}

/// The `+` and `-` marks of a file, scaled so that the file with the `most` lines fills `room`.
fn bar(added: usize, removed: usize, most: usize, room: usize) -> (usize, usize) {
    if most <= room {
        return (added, removed);
    }
    let scale = |n: usize| match n {
        0 => 0,
        n => (n * room / most).max(1),
    };
    (scale(added), scale(removed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::parse_unified_diff;

    #[test]
    fn a_small_change_is_marked_a_line_a_mark() {
        let diff = "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1 +1,2 @@\n-x\n+y\n+z\n";
        assert_eq!(
            stat(&parse_unified_diff(diff)),
            " a.rs | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n"
        );
        assert_eq!(stat(&[]), "");
    }

    #[test]
    fn each_file_then_the_totals_as_git_counts_them() {
        let diff = "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
                    @@ -1,2 +1,3 @@\n-one\n+uno\n+dos\n two\n\
                    diff --git a/logo.png b/logo.png\nBinary files a/logo.png and b/logo.png differ\n\
                    diff --git a/data.csv b/data.csv\nnew file mode 100644\n\
                    Text too large to show: 0 -> 100000 lines, 3461905 bytes\n";
        assert_eq!(
            stat(&parse_unified_diff(diff)),
            format!(
                " src/lib.rs |      3 +-\n \
                 logo.png   |    Bin\n \
                 data.csv   | 100000 {} (large text, 3461905 bytes, not shown)\n \
                 3 files changed, 100002 insertions(+), 1 deletion(-)\n",
                "+".repeat(60)
            )
        );
    }
}
