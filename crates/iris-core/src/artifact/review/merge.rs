//! Reviews of one change written in separate passes (one per aspect), merged into one: the
//! same finding found twice (same file, a near line, a similar title) is kept once.

use super::{Finding, Review};
use crate::suggest::levenshtein;

/// Lines apart two findings may be and still be the same one.
const NEAR: u32 = 3;

/// The passes' reviews as one: each summary under its aspect's name, every finding once (of
/// two alike, the more severe, then the surer), every strength once.
pub fn merge_reviews(passes: &[(String, Review)]) -> Review {
    let summary = passes
        .iter()
        .filter(|(_, r)| !r.summary.trim().is_empty())
        .map(|(aspect, r)| format!("**{aspect}:** {}", r.summary.trim()))
        .collect::<Vec<_>>()
        .join("\n\n");
    let mut findings: Vec<Finding> = Vec::new();
    for finding in passes.iter().flat_map(|(_, r)| &r.findings) {
        match findings.iter_mut().find(|kept| alike(kept, finding)) {
            Some(kept) => {
                let rank = |f: &Finding| (std::cmp::Reverse(f.severity), f.confidence);
                if rank(finding) > rank(kept) {
                    *kept = finding.clone();
                }
            }
            None => findings.push(finding.clone()),
        }
    }
    let mut strengths: Vec<String> = Vec::new();
    for strength in passes.iter().flat_map(|(_, r)| &r.strengths) {
        if !strengths
            .iter()
            .any(|s| s.trim().eq_ignore_ascii_case(strength.trim()))
        {
            strengths.push(strength.clone());
        }
    }
    Review {
        summary,
        findings,
        strengths,
    }
}

/// Whether two findings are the same one: the same file, lines at most NEAR apart (or both
/// about the whole file), and titles at most half different word for word.
fn alike(a: &Finding, b: &Finding) -> bool {
    let near = match (a.line, b.line) {
        (Some(x), Some(y)) => x.abs_diff(y) <= NEAR,
        (None, None) => true,
        _ => false,
    };
    a.file == b.file && near && similar(&a.title, &b.title)
}

fn similar(a: &str, b: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (a, b) = (words(a), words(b));
    let longest = a.len().max(b.len());
    longest > 0 && levenshtein(&a, &b) * 2 <= longest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::Severity;

    fn finding(title: &str, line: u32, severity: Severity) -> Finding {
        Finding {
            severity,
            file: "src/a.rs".into(),
            line: Some(line),
            title: title.into(),
            ..Finding::default()
        }
    }

    #[test]
    fn the_same_finding_from_two_passes_is_kept_once_at_its_most_severe() {
        let correctness = Review {
            summary: "Parses input.".into(),
            findings: vec![
                finding("Unchecked unwrap on input", 12, Severity::Medium),
                finding("Off-by-one in the loop", 30, Severity::High),
            ],
            strengths: vec!["Small change".into()],
        };
        let security = Review {
            summary: "No new attack surface.".into(),
            findings: vec![
                finding("Unchecked unwrap on user input", 13, Severity::High),
                finding("Unchecked unwrap on input", 40, Severity::Low),
                finding("Path traversal", 12, Severity::Critical),
            ],
            strengths: vec!["small change".into(), "Tests".into()],
        };
        let merged = merge_reviews(&[
            ("Correctness".into(), correctness),
            ("Security".into(), security),
        ]);
        let kept: Vec<(&str, u32, Severity)> = merged
            .findings
            .iter()
            .map(|f| (f.title.as_str(), f.line.unwrap_or(0), f.severity))
            .collect();
        assert_eq!(
            kept,
            [
                ("Unchecked unwrap on user input", 13, Severity::High),
                ("Off-by-one in the loop", 30, Severity::High),
                ("Unchecked unwrap on input", 40, Severity::Low),
                ("Path traversal", 12, Severity::Critical),
            ]
        );
        assert_eq!(
            merged.summary,
            "**Correctness:** Parses input.\n\n**Security:** No new attack surface."
        );
        assert_eq!(merged.strengths, ["Small change", "Tests"]);
    }
}
