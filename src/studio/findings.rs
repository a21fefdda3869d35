//! The review's findings, read from its markdown (as Iris writes it, or as the user or a chat
//! edit left it), so the list always matches the editor.

use crate::types::Severity;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingRow {
    pub severity: Severity,
    pub title: String,
    pub file: String,
    pub line: Option<u32>,
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
        } else if let (Some(severity), Some(rest)) = (severity, line.strip_prefix("### ")) {
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
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Finding, Review};

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
                },
                Finding {
                    severity: Severity::Low,
                    file: "README.md".into(),
                    line: None,
                    end_line: None,
                    title: "Typo".into(),
                    body: "teh".into(),
                    suggestion: None,
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
                },
                FindingRow {
                    severity: Severity::Low,
                    title: "Typo".into(),
                    file: "README.md".into(),
                    line: None,
                },
            ]
        );
    }
}
