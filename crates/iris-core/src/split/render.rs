//! The plan as the user reads it, and the units as the model reads them.

use std::fmt::Write as _;

use super::plan::SplitPlan;
use super::units::{Unit, UnitKind};
use crate::change::{FileDiff, Hunk};

/// Lines one unit shows at least and at most.
const UNIT_LINES_MIN: usize = 6;
const UNIT_LINES_MAX: usize = 120;

/// The plan as text: each group numbered with its message, its reason and its units'
/// places.
pub fn plan_text(plan: &SplitPlan, units: &[Unit]) -> String {
    let mut out = String::new();
    let count = plan.groups.len();
    for (i, group) in plan.groups.iter().enumerate() {
        let _ = writeln!(out, "── Commit {} of {count} ──", i + 1);
        for line in group.message.lines() {
            let _ = writeln!(out, "  {line}");
        }
        if !group.reason.is_empty() {
            let _ = writeln!(out, "  (why: {})", group.reason);
        }
        for id in &group.hunks {
            let place = units.iter().find(|u| &u.id == id).map(Unit::place);
            let _ = writeln!(out, "    {id:<4} {}", place.unwrap_or_default());
        }
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// The units as the model reads them: the id, where it is, and its lines with their diff
/// marks, each unit within its share of `lines` diff lines in all.
pub fn units_for_model(units: &[Unit], files: &[FileDiff], lines: usize) -> String {
    let share = (lines / units.len().max(1)).clamp(UNIT_LINES_MIN, UNIT_LINES_MAX);
    let mut out = String::new();
    for unit in units {
        let _ = writeln!(out, "### {} {}", unit.id, unit.place());
        match &unit.kind {
            UnitKind::Hunk { hunk, .. } => hunk_lines(&mut out, hunk, share),
            UnitKind::Whole { .. } => {
                let Some(file) = files.get(unit.file) else {
                    continue;
                };
                if let Some(old) = &file.old_path {
                    let _ = writeln!(out, "(from {old})");
                }
                let mut left = share;
                for hunk in &file.hunks {
                    if left == 0 {
                        break;
                    }
                    let take = left.min(hunk.lines.len());
                    hunk_lines(&mut out, hunk, take);
                    left -= take;
                }
            }
        }
        out.push('\n');
    }
    out
}

fn hunk_lines(out: &mut String, hunk: &Hunk, max: usize) {
    let _ = writeln!(out, "{}", hunk.header);
    for line in hunk.lines.iter().take(max) {
        let _ = writeln!(out, "{}{}", line.kind.mark(), line.content);
    }
    if hunk.lines.len() > max {
        let _ = writeln!(out, "… {} more lines", hunk.lines.len() - max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::parse_unified_diff;
    use crate::split::{PlanGroup, units};

    const DIFF: &str = "\
diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
-one
+ONE
 two
diff --git a/b.txt b/b.txt
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/b.txt
@@ -0,0 +1 @@
+bee
";

    #[test]
    fn the_plan_lists_each_commit_with_its_places() {
        let files = parse_unified_diff(DIFF);
        let units = units(&files, |_| false);
        let plan = SplitPlan {
            groups: vec![PlanGroup {
                message: "fix: one\n\nLouder.".into(),
                hunks: vec!["h1".into(), "h2".into()],
                reason: "same idea".into(),
                left_out: false,
            }],
        };
        assert_eq!(
            plan_text(&plan, &units),
            "── Commit 1 of 1 ──\n  fix: one\n  \n  Louder.\n  (why: same idea)\n    h1   \
             a.txt:1-2\n    h2   b.txt (new file)"
        );
    }

    #[test]
    fn the_model_reads_every_unit_with_its_lines() {
        let files = parse_unified_diff(DIFF);
        let text = units_for_model(&units(&files, |_| false), &files, 100);
        assert!(
            text.contains("### h1 a.txt:1-2\n@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n"),
            "{text}"
        );
        assert!(
            text.contains("### h2 b.txt (new file)\n@@ -0,0 +1 @@\n+bee\n"),
            "{text}"
        );
    }

    #[test]
    fn each_unit_gets_its_share_of_the_lines() {
        let body: String = (0..40).map(|i| format!("+line {i}\n")).collect();
        let diff = format!(
            "diff --git a/c.txt b/c.txt\nnew file mode 100644\nindex 0000000..4444444\n--- \
             /dev/null\n+++ b/c.txt\n@@ -0,0 +1,40 @@\n{body}"
        );
        let files = parse_unified_diff(&format!("{DIFF}{diff}"));
        let units = units(&files, |_| false);
        // 30 lines for 3 units: 10 each; the 40-line file is cut and says so.
        let text = units_for_model(&units, &files, 30);
        assert!(text.contains("+line 9\n… 30 more lines\n"), "{text}");
        assert!(!text.contains("+line 10\n"), "{text}");
    }
}
