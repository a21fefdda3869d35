//! The review's findings, read from its markdown (as Iris writes it, or as the user or a chat
//! edit left it), so the list always matches the editor.

use iris_core::artifact::Severity;
use iris_core::artifact::{CONFIDENCE_MARK, left_out_line};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingRow {
    pub severity: Severity,
    pub title: String,
    pub file: String,
    pub line: Option<u32>,
    /// How sure the reviewer is (0-100), when the heading says.
    pub confidence: Option<u8>,
}

impl FindingRow {
    /// Whether the reviewer is less sure of it than `min` percent.
    pub fn unsure(&self, min: u8) -> bool {
        self.confidence.is_some_and(|c| c < min)
    }
}

/// The findings the list shows: all of them with `show_unsure`, else those the reviewer is at
/// least `min` percent sure of; and how many are folded away.
pub fn visible_findings(markdown: &str, min: u8, show_unsure: bool) -> (Vec<FindingRow>, usize) {
    let rows = findings_in(markdown);
    if show_unsure {
        return (rows, 0);
    }
    let total = rows.len();
    let shown: Vec<FindingRow> = rows.into_iter().filter(|r| !r.unsure(min)).collect();
    let folded = total - shown.len();
    (shown, folded)
}

/// The findings of the review in the editor as the list shows them, and how many it folds.
pub fn shown_findings(state: &super::state::State) -> (Vec<FindingRow>, usize) {
    let text = state.artifact().map(|a| a.text()).unwrap_or_default();
    visible_findings(&text, state.review_min_confidence, state.show_unsure)
}

/// The review's markdown as it is posted while the less certain findings are folded: the
/// finding blocks under `min` percent taken out, each severity's count (`## High (2)`) made
/// right again, a severity left without findings dropped, and a closing line saying how many
/// were left out. Everything else stays as the user wrote it. The text, unchanged, when none
/// is under `min`.
pub fn without_unsure(markdown: &str, min: u8) -> String {
    // Each line, with the severity section it is in and whether it is dropped.
    let mut kept: Vec<&str> = Vec::new();
    let mut counts: Vec<(usize, usize)> = Vec::new(); // (index of the `## ` line, findings)
    let mut dropping = false;
    let mut left_out = 0;
    for line in markdown.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            dropping = false;
            let word = heading.split_whitespace().next().unwrap_or_default();
            if Severity::ALL
                .iter()
                .any(|s| s.label().eq_ignore_ascii_case(word))
            {
                counts.push((kept.len(), 0));
            } else {
                counts.push((usize::MAX, 0));
            }
        } else if let Some(heading) = line.strip_prefix("### ") {
            let in_severity = counts.last().is_some_and(|(at, _)| *at != usize::MAX);
            dropping = in_severity && confidence_of(heading).1.is_some_and(|c| c < min);
            if dropping {
                left_out += 1;
                continue;
            }
            if let Some((_, n)) = counts.last_mut() {
                *n += 1;
            }
        } else if line.starts_with("# ") {
            dropping = false;
        }
        if !dropping {
            kept.push(line);
        }
    }
    if left_out == 0 {
        return markdown.to_string();
    }
    let mut out: Vec<String> = kept.iter().map(|l| l.to_string()).collect();
    // Recount from the last section back, so removing a line leaves earlier indexes valid.
    for (at, n) in counts.into_iter().rev().filter(|(at, _)| *at != usize::MAX) {
        let label = out[at]
            .trim_start_matches("## ")
            .split(" (")
            .next()
            .unwrap_or_default()
            .to_string();
        if n == 0 {
            out.remove(at);
            if out.get(at).is_some_and(|l| l.trim().is_empty()) {
                out.remove(at);
            }
        } else {
            out[at] = format!("## {label} ({n})");
        }
    }
    format!(
        "{}\n\n{}\n",
        out.join("\n").trim_end(),
        left_out_line(left_out, min, None)
    )
}

/// A heading's confidence suffix (` · 55%`) taken off: the rest, and the confidence.
fn confidence_of(heading: &str) -> (&str, Option<u8>) {
    heading
        .rsplit_once(CONFIDENCE_MARK)
        .and_then(|(rest, tail)| {
            let percent = tail.trim().strip_suffix('%')?.parse().ok()?;
            Some((rest, Some(percent)))
        })
        .unwrap_or((heading, None))
}

/// Findings under `## <Severity> (n)` headings, each `### title (`file:line`)`.
pub fn findings_in(markdown: &str) -> Vec<FindingRow> {
    let mut severity = None;
    let mut rows = Vec::new();
    for line in markdown.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            let word = heading.split_whitespace().next().unwrap_or_default();
            severity = Severity::ALL
                .into_iter()
                .find(|s| s.label().eq_ignore_ascii_case(word));
        } else if let (Some(severity), Some(heading)) = (severity, line.strip_prefix("### ")) {
            let (rest, confidence) = confidence_of(heading);
            let (title, location) = match rest.rsplit_once(" (`") {
                Some((title, loc)) => (title, loc.trim_end_matches(")").trim_end_matches('`')),
                None => (rest, ""),
            };
            let (file, line) = match location.split_once(':') {
                Some((file, range)) => {
                    let first = range.split('-').next().unwrap_or_default();
                    (file.to_string(), first.parse().ok())
                }
                None => (location.to_string(), None),
            };
            rows.push(FindingRow {
                severity,
                title: title.trim().to_string(),
                file,
                line,
                confidence,
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_core::artifact::{Finding, Review};

    #[test]
    fn findings_are_read_back_from_the_reviews_markdown() {
        let review = Review {
            summary: "Looks fine.".into(),
            findings: vec![
                Finding {
                    severity: Severity::High,
                    file: "src/app.rs".into(),
                    line: Some(12),
                    end_line: Some(14),
                    title: "Unchecked unwrap".into(),
                    body: "It panics.".into(),
                    suggestion: None,
                    confidence: Some(55),
                },
                Finding {
                    severity: Severity::Low,
                    file: "README.md".into(),
                    line: None,
                    end_line: None,
                    title: "Typo".into(),
                    body: "teh".into(),
                    suggestion: None,
                    confidence: None,
                },
            ],
            strengths: vec!["Small".into()],
        };
        let rows = findings_in(&review.to_markdown());
        assert_eq!(
            rows,
            vec![
                FindingRow {
                    severity: Severity::High,
                    title: "Unchecked unwrap".into(),
                    file: "src/app.rs".into(),
                    line: Some(12),
                    confidence: Some(55),
                },
                FindingRow {
                    severity: Severity::Low,
                    title: "Typo".into(),
                    file: "README.md".into(),
                    line: None,
                    confidence: None,
                },
            ]
        );
        let markdown = review.to_markdown();
        let (shown, folded) = visible_findings(&markdown, 70, false);
        assert_eq!(
            (shown.len(), shown[0].title.as_str(), folded),
            (1, "Typo", 1)
        );
        assert_eq!(visible_findings(&markdown, 70, true), (rows, 0));
        assert_eq!(visible_findings(&markdown, 50, false).1, 0);

        // Posting while folded leaves the hunch out and counts again.
        let posted = without_unsure(&markdown, 70);
        assert!(!posted.contains("Unchecked unwrap"), "{posted}");
        assert!(!posted.contains("## High"), "{posted}");
        assert!(
            posted.contains("## Low (1)\n\n### Typo (`README.md`)"),
            "{posted}"
        );
        assert!(posted.contains("## Strengths\n\n- Small"), "{posted}");
        assert!(
            posted.ends_with("\n\n_1 less certain finding (under 70% confidence) left out._\n"),
            "{posted}"
        );
        assert_eq!(without_unsure(&markdown, 50), markdown);
    }
}
