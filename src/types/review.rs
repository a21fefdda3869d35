//! The code review artifact.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How much a finding matters: `critical` breaks correctness, security or data and must be
/// fixed before merging; `high` is a real bug or risk most users would hit; `medium` is a
/// problem worth fixing in this change; `low` is minor or about maintainability; `info` is an
/// observation or a question with nothing to fix.
// The meanings live in the enum's doc so the schema stays a plain string enum (providers
// handle `enum` better than `oneOf` with a description per value).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Critical,
    High,
    #[default]
    Medium,
    Low,
    Info,
}

impl Severity {
    /// Every severity, most severe first.
    pub const ALL: [Severity; 5] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
        Severity::Info,
    ];

    /// The lowercase name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
            Severity::Info => "info",
        }
    }

    /// The heading of this severity's group in markdown.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Critical => "Critical",
            Severity::High => "High",
            Severity::Medium => "Medium",
            Severity::Low => "Low",
            Severity::Info => "Info",
        }
    }
}

/// One problem found in the change, tied to where it is.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Finding {
    /// `critical`: breaks correctness, security or data, must be fixed before merging;
    /// `high`: a real bug or risk most users would hit; `medium`: worth fixing in this change;
    /// `low`: minor, or about maintainability; `info`: an observation, nothing to fix.
    pub severity: Severity,
    /// The file, relative to the repository root, exactly as the diff names it.
    pub file: String,
    /// The first line concerned, in the new version of the file; null when the finding is
    /// about the whole file.
    pub line: Option<u32>,
    /// The last line concerned when it spans several lines, else null.
    pub end_line: Option<u32>,
    /// The problem in a few words.
    pub title: String,
    /// What is wrong and why it matters, with the evidence (code quoted from the diff or file).
    pub body: String,
    /// How to fix it (markdown, code allowed), or null.
    pub suggestion: Option<String>,
}

impl Finding {
    /// `file:line` or `file:line-end_line`, or the file alone.
    pub fn location(&self) -> String {
        match (self.line, self.end_line) {
            (Some(line), Some(end)) if end > line => format!("{}:{line}-{end}", self.file),
            (Some(line), _) => format!("{}:{line}", self.file),
            _ => self.file.clone(),
        }
    }
}

/// A code review of a change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Review {
    /// What the change does and the overall assessment, in two to five sentences.
    pub summary: String,
    /// The problems found, each backed by evidence from the diff or the files; empty when
    /// there are none.
    pub findings: Vec<Finding>,
    /// What the change does well, worth keeping (short sentences); may be empty.
    pub strengths: Vec<String>,
}

impl Review {
    /// The most severe finding's severity, if any (CI gates on it).
    pub fn highest_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).min()
    }

    /// The review in markdown: the summary, then the findings grouped by severity, most
    /// severe first, each with its `file:line`.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("# Code review\n\n");
        if !self.summary.trim().is_empty() {
            out.push_str(self.summary.trim());
            out.push_str("\n\n");
        }
        if self.findings.is_empty() {
            out.push_str("No issues found.\n\n");
        }
        for severity in Severity::ALL {
            let group: Vec<&Finding> = self
                .findings
                .iter()
                .filter(|f| f.severity == severity)
                .collect();
            if group.is_empty() {
                continue;
            }
            out.push_str(&format!("## {} ({})\n\n", severity.label(), group.len()));
            for finding in group {
                push_finding(&mut out, finding);
            }
        }
        if !self.strengths.is_empty() {
            out.push_str("## Strengths\n\n");
            for strength in &self.strengths {
                out.push_str(&format!("- {}\n", strength.trim()));
            }
            out.push('\n');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        out
    }
}

fn push_finding(out: &mut String, finding: &Finding) {
    out.push_str(&format!(
        "### {} (`{}`)\n\n",
        finding.title.trim(),
        finding.location()
    ));
    if !finding.body.trim().is_empty() {
        out.push_str(finding.body.trim());
        out.push_str("\n\n");
    }
    if let Some(suggestion) = finding.suggestion.as_deref().map(str::trim)
        && !suggestion.is_empty()
    {
        out.push_str("**Suggestion:** ");
        out.push_str(suggestion);
        out.push_str("\n\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(severity: Severity, file: &str, line: Option<u32>, title: &str) -> Finding {
        Finding {
            severity,
            file: file.into(),
            line,
            title: title.into(),
            body: format!("Body of {title}."),
            ..Default::default()
        }
    }

    #[test]
    fn markdown_groups_findings_by_severity_most_severe_first() {
        let review = Review {
            summary: "Adds a parser.".into(),
            findings: vec![
                finding(Severity::Low, "src/a.rs", Some(3), "Naming"),
                finding(Severity::Critical, "src/b.rs", Some(10), "Overflow"),
                Finding {
                    end_line: Some(14),
                    suggestion: Some("Use `checked_add`.".into()),
                    ..finding(Severity::Critical, "src/b.rs", Some(12), "Second")
                },
            ],
            strengths: vec!["Good tests".into()],
        };
        let md = review.to_markdown();
        let critical = md.find("## Critical (2)").unwrap_or(usize::MAX);
        let low = md.find("## Low (1)").unwrap_or(0);
        assert!(critical < low, "{md}");
        assert!(md.contains("### Overflow (`src/b.rs:10`)"));
        assert!(md.contains("### Second (`src/b.rs:12-14`)"));
        assert!(md.contains("**Suggestion:** Use `checked_add`."));
        assert!(md.contains("## Strengths\n\n- Good tests\n"));
        assert!(!md.contains("## High"));
        assert!(md.ends_with("Good tests\n"));
        assert_eq!(review.highest_severity(), Some(Severity::Critical));
    }

    #[test]
    fn an_empty_review_says_so() {
        let md = Review::default().to_markdown();
        assert!(md.contains("No issues found."));
        assert_eq!(Review::default().highest_severity(), None);
    }

    #[test]
    fn location_without_line_is_the_file() {
        assert_eq!(
            finding(Severity::Info, "a.rs", None, "t").location(),
            "a.rs"
        );
        let same = Finding {
            end_line: Some(4),
            ..finding(Severity::Info, "a.rs", Some(4), "t")
        };
        assert_eq!(same.location(), "a.rs:4");
    }

    #[test]
    fn severities_serialize_lowercase() {
        for severity in Severity::ALL {
            assert_eq!(
                serde_json::to_value(severity).ok(),
                Some(serde_json::Value::String(severity.name().into()))
            );
        }
    }
}
