//! A review's findings checked against the change they are about, without a model: each
//! finding's file must be in the change, its line on the new side within a hunk or near it,
//! and the code it quotes on that line. A finding whose quote sits on another line is moved
//! there; one that cannot be placed is marked unverified (and folded).

use super::{Check, Finding, Review};
use crate::change::{FileDiff, LineKind};

/// How many lines beyond a hunk (which already carries git's context lines) still count as
/// its nearby context.
pub const NEAR_LINES: u32 = 3;

/// Checks every finding of `review` against `diffs` (the reviewed change), setting each
/// finding's `check` and moving those whose quote is on another line.
pub fn check_findings(review: &mut Review, diffs: &[FileDiff]) {
    for finding in &mut review.findings {
        let check = place(finding, diffs);
        finding.check = Some(check);
    }
}

fn place(finding: &mut Finding, diffs: &[FileDiff]) -> Check {
    let Some(diff) = file_of(finding, diffs) else {
        return unverified(format!("{} is not part of the change", finding.file.trim()));
    };
    finding.file = diff.path.clone();
    let quote = finding.quote.as_deref().and_then(quoted_line);
    let Some(line) = finding.line else {
        // About the whole file: a quote, when given, must still be in it.
        return match quote {
            Some(quote) if !quoted_in(diff, &quote) => not_quoted(),
            _ => Check::Placed,
        };
    };
    if diff.binary {
        return unverified(format!("{} is a binary file, without lines", diff.path));
    }
    let Some(quote) = quote else {
        return if near_a_hunk(diff, line) {
            Check::Placed
        } else {
            unverified(format!("line {line} is not among the changed lines"))
        };
    };
    let end = finding.end_line.filter(|&end| end >= line).unwrap_or(line);
    let holding: Vec<u32> = new_side(diff)
        .filter(|(_, text)| text.contains(&quote))
        .map(|(number, _)| number)
        .collect();
    if holding.iter().any(|n| (line..=end).contains(n)) {
        return Check::Placed;
    }
    if let Some(&to) = holding.iter().min_by_key(|&&n| n.abs_diff(line)) {
        finding.line = Some(to);
        finding.end_line = finding.end_line.map(|_| to + (end - line));
        return Check::Moved { from: Some(line) };
    }
    // Code the change removes has no line on the new side: it stands where the hunk is.
    if removes(diff, &quote) && near_a_hunk(diff, line) {
        Check::Placed
    } else {
        not_quoted()
    }
}

fn unverified(why: String) -> Check {
    Check::Unverified { why }
}

fn not_quoted() -> Check {
    unverified("the code it quotes is not there".into())
}

/// The changed file a finding names, as the diff names it or with the `a/`, `b/` or `./` a
/// model may add.
fn file_of<'a>(finding: &Finding, diffs: &'a [FileDiff]) -> Option<&'a FileDiff> {
    let named = finding.file.trim();
    let bare = ["./", "a/", "b/"]
        .iter()
        .find_map(|prefix| named.strip_prefix(prefix))
        .unwrap_or(named);
    [named, bare]
        .iter()
        .find_map(|name| diffs.iter().find(|d| d.path == *name))
}

/// Whether `line` is within one of the file's hunks on the new side, or NEAR_LINES of it.
fn near_a_hunk(diff: &FileDiff, line: u32) -> bool {
    diff.hunks.iter().any(|h| {
        let first = h.new_start.saturating_sub(NEAR_LINES);
        let last = h.new_start + h.new_lines.max(1) - 1 + NEAR_LINES;
        (first..=last).contains(&line)
    })
}

/// The file's lines on the new side (context and added), numbered, whitespace normalised.
fn new_side(diff: &FileDiff) -> impl Iterator<Item = (u32, String)> + '_ {
    diff.hunks
        .iter()
        .flat_map(|hunk| hunk.numbered())
        .filter(|(l, _, _)| l.kind != LineKind::Removed)
        .map(|(l, _, new)| (new, normalised(&l.content)))
}

/// Whether the quote is in the file's change, on either side.
fn quoted_in(diff: &FileDiff, quote: &str) -> bool {
    new_side(diff).any(|(_, text)| text.contains(quote)) || removes(diff, quote)
}

/// Whether a line the change removes holds the quote.
fn removes(diff: &FileDiff, quote: &str) -> bool {
    diff.removed_lines()
        .any(|text| normalised(text).contains(quote))
}

/// The first line of a quote that says something, without a diff's mark, normalised; None
/// for an empty quote or one of only punctuation (`}`, `...`).
fn quoted_line(quote: &str) -> Option<String> {
    quote.lines().find_map(|line| {
        let line = line.trim();
        let line = match line.strip_prefix(['+', '-']) {
            Some(rest) if !rest.starts_with(['+', '-', '=']) => rest,
            _ => line,
        };
        let line = normalised(line);
        line.chars().any(char::is_alphanumeric).then_some(line)
    })
}

/// Runs of whitespace as one space, and no whitespace at either end.
fn normalised(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::Severity;
    use crate::change::parse_unified_diff;

    const DIFF: &str = "\
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -10,6 +10,8 @@ fn top() {
 fn parse(input: &str) -> u32 {
     let trimmed = input.trim();
-    trimmed.parse().unwrap_or(0)
+    let value = trimmed.parse().unwrap();
+    value * 2
+        + 1
 }
 
 fn other() {}
diff --git a/logo.png b/logo.png
Binary files a/logo.png and b/logo.png differ
";

    fn finding(file: &str, line: Option<u32>, quote: Option<&str>) -> Finding {
        Finding {
            severity: Severity::High,
            file: file.into(),
            line,
            title: "Panics on bad input".into(),
            quote: quote.map(str::to_string),
            ..Finding::default()
        }
    }

    fn checked(findings: Vec<Finding>) -> Vec<Finding> {
        let mut review = Review {
            findings,
            ..Review::default()
        };
        check_findings(&mut review, &parse_unified_diff(DIFF));
        review.findings
    }

    #[test]
    fn a_finding_on_its_quoted_line_is_placed() {
        let found = checked(vec![finding(
            "src/lib.rs",
            Some(12),
            Some("+    let value = trimmed.parse().unwrap();"),
        )]);
        assert_eq!(found[0].check, Some(Check::Placed));
        assert_eq!(found[0].line, Some(12));
    }

    #[test]
    fn a_finding_a_few_lines_off_moves_to_its_quote() {
        let mut off = finding("./src/lib.rs", Some(16), Some("value   * 2"));
        off.end_line = Some(17);
        let found = checked(vec![off]);
        assert_eq!(found[0].check, Some(Check::Moved { from: Some(16) }));
        assert_eq!((found[0].line, found[0].end_line), (Some(13), Some(14)));
        assert_eq!(found[0].file, "src/lib.rs");
    }

    #[test]
    fn findings_that_cannot_be_placed_are_unverified_and_fold() {
        let found = checked(vec![
            finding("src/main.rs", Some(3), None),
            finding(
                "src/lib.rs",
                Some(12),
                Some("let value = input.parse::<i64>()?;"),
            ),
            finding("src/lib.rs", Some(80), None),
            finding("logo.png", Some(1), None),
        ]);
        let whys: Vec<String> = found
            .iter()
            .map(|f| match &f.check {
                Some(Check::Unverified { why }) => why.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            whys,
            [
                "src/main.rs is not part of the change",
                "the code it quotes is not there",
                "line 80 is not among the changed lines",
                "logo.png is a binary file, without lines",
            ]
        );
        assert!(
            found
                .iter()
                .all(|f| f.folded(70) && f.folded(1) && !f.folded(0))
        );
    }

    #[test]
    fn lines_near_a_hunk_and_removed_code_stand() {
        let found = checked(vec![
            finding("src/lib.rs", Some(20), None),
            finding("src/lib.rs", Some(7), None),
            finding(
                "src/lib.rs",
                Some(12),
                Some("-    trimmed.parse().unwrap_or(0)"),
            ),
            finding("src/lib.rs", None, Some("fn other() {}")),
            finding("logo.png", None, None),
            finding("src/lib.rs", Some(21), None),
        ]);
        let checks: Vec<Option<Check>> = found.iter().map(|f| f.check.clone()).collect();
        assert_eq!(checks[..5], vec![Some(Check::Placed); 5]);
        assert!(matches!(checks[5], Some(Check::Unverified { .. })));
    }

    #[test]
    fn quotes_lose_their_marks_and_punctuation_lines() {
        assert_eq!(
            quoted_line("  }\n+  let  x = 1;"),
            Some("let x = 1;".into())
        );
        assert_eq!(quoted_line("--flag"), Some("--flag".into()));
        assert_eq!(quoted_line("...\n}"), None);
    }

    #[test]
    fn the_summary_counts_what_the_check_did() {
        let review = Review {
            summary: "Doubles values.".into(),
            findings: checked(vec![
                finding("src/lib.rs", Some(12), Some("trimmed.parse().unwrap()")),
                finding("src/lib.rs", Some(15), Some("value * 2")),
                finding("src/gone.rs", Some(1), None),
            ]),
            ..Review::default()
        };
        let md = review.to_markdown();
        assert!(
            md.contains(
                "_3 findings checked against the change: 1 placed on its line, 1 moved to \
                 the line it quotes, 1 not found in it (folded)._"
            ),
            "{md}"
        );
        assert!(md.contains("(`src/gone.rs:1`) · unverified · id "), "{md}");
        assert!(
            md.contains("\n\n_Not found in the change: src/gone.rs is not part of the change._"),
            "{md}"
        );
        let printed = review.to_markdown_confident(70, "`--min-confidence 0`");
        assert!(!printed.contains("src/gone.rs:1"), "{printed}");
        assert!(printed.contains("1 not found in it (folded)"), "{printed}");
        assert!(
            printed.ends_with(
                "_1 finding left out (1 not found in the change or dropped): \
                 `--min-confidence 0` shows them._\n"
            ),
            "{printed}"
        );
    }
}
