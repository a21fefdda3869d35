//! Reviews scored on the bugs a repository later fixed (`iris eval --reviews`): a fix commit
//! points at lines that were wrong when they were written. The commit that wrote them is
//! reviewed as it was; a finding that lands on one of those lines, or within [`NEAR`] lines of
//! one in the same file, is a hit.

use serde::Serialize;

use crate::change::{ChangeKind, FileDiff, LineKind};

/// How far from a fixed line a finding may land and still hit.
pub const NEAR: u32 = 3;

/// The messages that say a commit fixes something, unless `--fixes` says otherwise.
pub const FIX_PATTERN: &str = r"(?i)\b(fix(e[sd])?|bug|bugs|regression|crash(es|ed)?|leak(s|ed)?)\b|\b(closes|fixes|resolves) #\d+";

/// `message` without the command-line flags it names (`--fixed-string`, `` `-f` ``): a word
/// inside a flag names an option, not a fix ("add --fixed-string cases" fixes nothing). What
/// [`FIX_PATTERN`], or the user's own, is matched against.
pub fn without_flags(message: &str) -> String {
    message
        .lines()
        .map(|line| {
            line.split_whitespace()
                .filter(|word| !is_flag(word))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `word` is a flag: a dash then a letter or a second dash, after any opening quote
/// or bracket (a list's lone `-` is none).
fn is_flag(word: &str) -> bool {
    let bare = word.trim_start_matches(['`', '\'', '"', '(', '[']);
    let mut chars = bare.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| c == '-' || c.is_alphabetic())
}

/// The lines a fix changed, by file, on the old side (the version it fixed): the lines it
/// removed or rewrote, and in a file where it only adds, the line each addition follows (the
/// first line, for one at the top). Files the fix created or deleted have none.
pub fn fixed_lines(diff: &[FileDiff]) -> Vec<(String, Vec<u32>)> {
    let mut out = Vec::new();
    for file in diff {
        // A file the fix created has no earlier line; one it deleted would blame every line.
        if file.binary || matches!(file.kind, ChangeKind::Added | ChangeKind::Deleted) {
            continue;
        }
        let path = file.old_path.clone().unwrap_or_else(|| file.path.clone());
        let mut removed = Vec::new();
        let mut before_additions = Vec::new();
        for hunk in &file.hunks {
            let mut old = hunk.old_start;
            let mut previous: Option<LineKind> = None;
            for line in &hunk.lines {
                match line.kind {
                    LineKind::Removed => {
                        removed.push(old);
                        old += 1;
                    }
                    // The line the addition follows; at the top of a file, its first line.
                    LineKind::Added => {
                        if previous != Some(LineKind::Added) && hunk.old_start > 0 {
                            before_additions.push(old.saturating_sub(1).max(1));
                        }
                    }
                    _ => old += 1,
                }
                previous = Some(line.kind);
            }
        }
        let mut lines = if removed.is_empty() {
            before_additions
        } else {
            removed
        };
        lines.sort_unstable();
        lines.dedup();
        if !lines.is_empty() {
            out.push((path, lines));
        }
    }
    out
}

/// A finding, as far as hitting goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placed {
    /// Its file.
    pub file: String,
    /// Its first line; `None` for a finding about a whole file (never a hit).
    pub line: Option<u32>,
    /// Its last line, for a span.
    pub end_line: Option<u32>,
}

/// Whether `finding` lands on one of `targets` (file, line) or within [`NEAR`] lines of it.
pub fn hits(finding: &Placed, targets: &[(String, u32)]) -> bool {
    let Some(start) = finding.line else {
        return false;
    };
    let end = finding.end_line.unwrap_or(start).max(start);
    targets.iter().any(|(file, line)| {
        same_file(file, &finding.file) && *line + NEAR >= start && *line <= end + NEAR
    })
}

/// The same file, however the model wrote its path (`./src/a.rs`, `a/src/a.rs`).
fn same_file(a: &str, b: &str) -> bool {
    let clean = |p: &str| {
        let p = p.trim().trim_start_matches("./");
        p.strip_prefix("a/")
            .or_else(|| p.strip_prefix("b/"))
            .unwrap_or(p)
            .to_string()
    };
    clean(a) == clean(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{DiffLine, Hunk};

    fn line(kind: LineKind, content: &str) -> DiffLine {
        DiffLine {
            kind,
            content: content.into(),
            no_newline: false,
        }
    }

    fn modified(path: &str, old_start: u32, lines: Vec<DiffLine>) -> FileDiff {
        FileDiff {
            path: path.into(),
            old_path: None,
            kind: ChangeKind::Modified,
            binary: false,
            large: None,
            hunks: vec![Hunk {
                header: String::new(),
                old_start,
                old_lines: 0,
                new_start: old_start,
                new_lines: 0,
                lines,
            }],
            additions: 0,
            deletions: 0,
            old_mode: None,
            new_mode: None,
        }
    }

    #[test]
    fn the_lines_a_fix_rewrote_or_followed_on_the_old_side() {
        use LineKind::{Added, Context, Removed};
        let rewrite = modified(
            "src/a.rs",
            10,
            vec![
                line(Context, "fn f() {"),
                line(Removed, "    x - 1"),
                line(Added, "    x + 1"),
                line(Context, "}"),
            ],
        );
        let addition = modified(
            "src/b.rs",
            4,
            vec![
                line(Context, "a"),
                line(Context, "b"),
                line(Added, "c"),
                line(Context, "d"),
            ],
        );
        assert_eq!(
            fixed_lines(&[rewrite, addition]),
            [
                ("src/a.rs".to_string(), vec![11]),
                ("src/b.rs".to_string(), vec![5])
            ]
        );
    }

    #[test]
    fn a_finding_hits_on_or_near_a_fixed_line_of_the_same_file() {
        let targets = [("src/a.rs".to_string(), 20)];
        let at = |file: &str, line: Option<u32>, end_line: Option<u32>| Placed {
            file: file.into(),
            line,
            end_line,
        };
        assert!(hits(&at("src/a.rs", Some(20), None), &targets));
        assert!(hits(&at("./src/a.rs", Some(17), None), &targets));
        assert!(hits(&at("src/a.rs", Some(23), None), &targets));
        assert!(!hits(&at("src/a.rs", Some(24), None), &targets));
        assert!(!hits(&at("src/a.rs", Some(16), None), &targets));
        assert!(hits(&at("src/a.rs", Some(5), Some(18)), &targets));
        assert!(!hits(&at("src/b.rs", Some(20), None), &targets));
        assert!(!hits(&at("src/a.rs", None, None), &targets));
    }

    #[test]
    fn fix_messages_are_recognised() {
        let pattern = regex::Regex::new(FIX_PATTERN).unwrap();
        for fix in [
            "Fix the parser",
            "fixes a crash on empty input",
            "Plug a leak",
            "Handle it (closes #12)",
        ] {
            assert!(pattern.is_match(fix), "{fix}");
        }
        for other in ["Add a prefix option", "Refactor the fixture loader"] {
            assert!(!pattern.is_match(other), "{other}");
        }
        for (message, fix) in [
            ("add --fixed-string cases", false),
            ("Document `--fix` and -fixes (the bug)", true),
            ("Test the -fix flag", false),
            ("- fix the walker\n- add tests", true),
        ] {
            assert_eq!(pattern.is_match(&without_flags(message)), fix, "{message}");
        }
    }
}
