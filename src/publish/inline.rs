//! A review laid out for inline posting (pure): which findings sit on a line of the pull
//! request's diff, what each comment says, and the review's body with the rest.

use iris_studio_core::artifact::{FindingBlock, finding_blocks, without_findings};
use iris_studio_core::change::{FileDiff, LineKind};

/// Ends the body of the review Iris posts, so a later post finds it and replaces it.
pub(crate) const SUMMARY_MARKER: &str = "<!-- iris-review -->";
/// Starts the marker that ends each finding Iris posts on a line (then its id), so a later
/// post finds it: to remove it, or to know the finding is on the pull request already.
pub(crate) const FINDING_MARKER: &str = "<!-- iris-review-finding";
/// The marker that ends the comment of the finding `id`.
pub(crate) fn finding_marker(id: &str) -> String {
    format!("{FINDING_MARKER} {id} -->")
}

/// A finding's comment without the marker that ends it (its id with it).
pub(crate) fn without_finding_marker(body: &str) -> &str {
    body.rfind(FINDING_MARKER)
        .map_or(body, |at| &body[..at])
        .trim()
}

/// What an earlier review's body becomes once a newer one is posted (GitHub keeps reviews).
pub(crate) const REPLACED: &str = "_Replaced by a newer review from Iris._";

/// A finding on a line of the pull request's diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InlineComment {
    pub path: String,
    /// The path before a rename (GitLab's position names both).
    pub old_path: String,
    /// The line on the new side; for a span, its last line.
    pub line: u32,
    /// The first line of a span within one hunk.
    pub start_line: Option<u32>,
    /// The line's number on the old side when it is unchanged context (GitLab needs both).
    pub old_line: Option<u32>,
    pub body: String,
}

/// What is posted: the review's body and its comments on lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InlineReview {
    pub body: String,
    pub comments: Vec<InlineComment>,
}

/// The review `markdown` laid out over `diff` (the pull request's): each finding whose line
/// is on the new side of a hunk becomes a comment there; the others stay in the body.
pub(crate) fn lay_out(markdown: &str, diff: &[FileDiff]) -> InlineReview {
    let blocks = finding_blocks(markdown);
    let comments: Vec<InlineComment> = blocks.iter().filter_map(|b| comment(b, diff)).collect();
    let (rest, moved) = without_findings(markdown, |b| comment(b, diff).is_some());
    let mut body = rest.trim_end().to_string();
    if moved > 0 {
        let findings = if moved == 1 {
            "finding is"
        } else {
            "findings are"
        };
        body.push_str(&format!(
            "\n\n_{moved} {findings} on the lines of the diff._"
        ));
    }
    body.push_str(&format!("\n\n{SUMMARY_MARKER}"));
    InlineReview { body, comments }
}

fn comment(block: &FindingBlock, diff: &[FileDiff]) -> Option<InlineComment> {
    let file = diff.iter().find(|d| d.path == block.file)?;
    let first = block.line?;
    let last = block.end_line.filter(|&end| end > first).unwrap_or(first);
    // The span when it is within one hunk, else its first line alone.
    let (start_line, line, old_line) = file.hunks.iter().find_map(|hunk| {
        let lines = new_side(hunk);
        let at = lines.iter().find(|(new, _)| *new == first)?;
        match lines.iter().find(|(new, _)| *new == last) {
            Some(end) if last > first => Some((Some(first), last, end.1)),
            _ => Some((None, first, at.1)),
        }
    })?;
    let sure = block
        .confidence
        .map(|c| format!(" · {c}%"))
        .unwrap_or_default();
    let text = if block.text.is_empty() {
        String::new()
    } else {
        format!("\n\n{}", block.text)
    };
    let id = block.id.as_deref().unwrap_or_default();
    Some(InlineComment {
        path: file.path.clone(),
        old_path: file.old_path.clone().unwrap_or_else(|| file.path.clone()),
        line,
        start_line,
        old_line,
        body: format!(
            "**{}** · {}{sure}{text}\n\n{}",
            block.severity.label(),
            block.title,
            finding_marker(id)
        ),
    })
}

/// A hunk's lines on the new side: each new line number, with its old one when unchanged.
fn new_side(hunk: &iris_studio_core::change::Hunk) -> Vec<(u32, Option<u32>)> {
    hunk.numbered()
        .filter_map(|(line, old, new)| match line.kind {
            LineKind::Context => Some((new, Some(old))),
            LineKind::Added => Some((new, None)),
            LineKind::Removed => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::artifact::review::memory::finding_id;
    use iris_studio_core::artifact::{Finding, Review, Severity};
    use iris_studio_core::change::parse_unified_diff;

    const DIFF: &str = "\
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,4 +1,6 @@
 pub fn one() -> u32 {
-    1
+    let x = 1;
+    x
 }
+
+pub fn two() -> u32 { 2 }
";

    fn finding(title: &str, file: &str, line: Option<u32>, end: Option<u32>) -> Finding {
        Finding {
            severity: Severity::High,
            file: file.into(),
            line,
            end_line: end,
            title: title.into(),
            body: format!("About {title}."),
            confidence: Some(90),
            ..Finding::default()
        }
    }

    #[test]
    fn findings_on_the_diff_become_comments_and_the_rest_stay_in_the_body() {
        let review = Review {
            summary: "Adds two().".into(),
            findings: vec![
                finding("On an added line", "src/lib.rs", Some(2), None),
                finding("A span", "src/lib.rs", Some(2), Some(3)),
                finding("On context", "src/lib.rs", Some(4), None),
                finding("Past the hunk", "src/lib.rs", Some(40), None),
                finding("Whole file", "src/lib.rs", None, None),
                finding("Elsewhere", "src/other.rs", Some(1), None),
            ],
            strengths: vec![],
        };
        let laid = lay_out(&review.to_markdown(), &parse_unified_diff(DIFF));
        let placed: Vec<(u32, Option<u32>, Option<u32>)> = laid
            .comments
            .iter()
            .map(|c| (c.line, c.start_line, c.old_line))
            .collect();
        assert_eq!(
            placed,
            [(2, None, None), (3, Some(2), None), (4, None, Some(3))]
        );
        assert_eq!(
            laid.comments[0].body,
            format!(
                "**High** · On an added line · 90%\n\nAbout On an added line.\n\n\
                 {FINDING_MARKER} {} -->",
                finding_id(&review.findings[0])
            )
        );
        for stays in ["Past the hunk", "Whole file", "Elsewhere"] {
            assert!(laid.body.contains(stays), "{}", laid.body);
        }
        assert!(!laid.body.contains("On an added line"), "{}", laid.body);
        assert!(laid.body.contains("## High (3)"), "{}", laid.body);
        assert!(
            laid.body.ends_with(&format!(
                "_3 findings are on the lines of the diff._\n\n{SUMMARY_MARKER}"
            )),
            "{}",
            laid.body
        );
    }
}
