//! The code review artifact, its findings checked against the change (`check`) and read back
//! from its markdown (`blocks`).

mod aspect;
mod blocks;
mod check;
pub mod memory;
mod merge;
pub mod report;
mod second_look;

pub use aspect::{Aspect, ReviewOptions};
pub use blocks::{FindingBlock, finding_blocks, without_findings};
pub use check::{NEAR_LINES, check_findings};
pub use merge::merge_reviews;
pub use second_look::{SecondLook, Verdict, apply_second_look, second_look_request};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How much a finding matters: `critical` breaks correctness, security or data and must be
/// fixed before merging; `high` is a real bug or risk most users would hit; `medium` is a
/// problem worth fixing in this change; `low` is minor or about maintainability; `info` is an
/// observation or a question with nothing to fix.
// The meanings live in the enum's doc so the schema stays a plain string enum (providers
// handle `enum` better than `oneOf` with a description per value).
#[expect(
    missing_docs,
    reason = "a doc on a variant would turn the review schema's string enum into a oneOf"
)]
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

/// What kind of problem a finding is: a bug or wrong logic (`correctness`), a security
/// problem, a performance problem, missing or weak `tests`, a break of `compatibility` (an API,
/// a format, a platform), or code that is harder to keep up (`maintainability`).
#[expect(
    missing_docs,
    reason = "a doc on a variant would turn the review schema's string enum into a oneOf"
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Correctness,
    Security,
    Performance,
    Tests,
    Compatibility,
    Maintainability,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 6] = [
        Category::Correctness,
        Category::Security,
        Category::Performance,
        Category::Tests,
        Category::Compatibility,
        Category::Maintainability,
    ];

    /// The lowercase name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Category::Correctness => "correctness",
            Category::Security => "security",
            Category::Performance => "performance",
            Category::Tests => "tests",
            Category::Compatibility => "compatibility",
            Category::Maintainability => "maintainability",
        }
    }

    /// What findings of this kind are about, in a few words.
    pub fn about(self) -> &'static str {
        match self {
            Category::Correctness => "Bugs and wrong logic",
            Category::Security => "Security problems",
            Category::Performance => "Performance problems",
            Category::Tests => "Missing or weak tests",
            Category::Compatibility => "API and compatibility breaks",
            Category::Maintainability => "Code that will be hard to maintain",
        }
    }
}

/// A category as models write it; one that is not known is none (the finding stays).
fn category<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Category>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(value.as_str().and_then(|s| {
        serde_json::from_value(serde_json::Value::String(s.trim().to_lowercase())).ok()
    }))
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
    /// The kind of problem.
    #[serde(deserialize_with = "category", skip_serializing_if = "Option::is_none")]
    pub category: Option<Category>,
    /// How sure you are that this is a real problem, from 0 to 100: 90 and above when the
    /// code you read shows it, around 50 when it depends on code or callers you could not see,
    /// below 30 for a hunch.
    #[serde(deserialize_with = "confidence")]
    #[schemars(with = "Option<f64>", range(min = 0, max = 100))]
    pub confidence: Option<u8>,
    /// One line of the code the finding is about, copied exactly from the diff (without its
    /// +/- mark), or null.
    pub quote: Option<String>,
    /// What checking it against the change found (set by Iris, never by the model).
    #[schemars(skip)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
}

/// What checking a finding against the change found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Check {
    /// Its file, line and quoted code are in the change.
    Placed,
    /// It was moved from `from` to the line that holds the code it quotes.
    Moved {
        /// The line the finding named before it was moved.
        from: Option<u32>,
    },
    /// It could not be placed in the change: folded with the less certain findings.
    Unverified {
        /// Why, in a few words (`line 12 is not among the changed lines`).
        why: String,
    },
    /// A second look found it does not hold: folded, not deleted.
    Dropped {
        /// The second look's reason, or `no reason given`.
        why: String,
    },
}

impl Check {
    /// The mark a folded finding's heading ends with, and the words its body opens with.
    pub const UNVERIFIED: &str = "unverified";
    /// The same for a finding dropped on a second look.
    pub const DROPPED: &str = "dropped";

    /// Whether the finding is folded whatever its confidence.
    pub fn folds(&self) -> bool {
        matches!(self, Check::Unverified { .. } | Check::Dropped { .. })
    }

    /// The heading's mark and the body's opening line of a folded finding.
    fn mark(&self) -> Option<(&'static str, String)> {
        match self {
            Check::Unverified { why } => Some((
                Self::UNVERIFIED,
                format!("_Not found in the change: {why}._"),
            )),
            Check::Dropped { why } => {
                Some((Self::DROPPED, format!("_Dropped on a second look: {why}._")))
            }
            Check::Placed | Check::Moved { .. } => None,
        }
    }
}

/// A confidence as models write it: 85, 85.0, "85", "85%" or the fraction 0.85, clamped to
/// 0..=100; anything else is no confidence (the finding is then never hidden).
fn confidence<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u8>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    let number = match &value {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.trim().trim_end_matches('%').trim().parse().ok(),
        _ => None,
    };
    Ok(number.filter(|n| n.is_finite()).map(|n| {
        // A fraction (0.85) is a share of one; 1 itself is read as 1%, not 100%.
        let percent = if n > 0.0 && n < 1.0 { n * 100.0 } else { n };
        percent.round().clamp(0.0, 100.0) as u8
    }))
}

impl Finding {
    /// Whether the reviewer is less sure of it than `min` percent (an unknown confidence is
    /// never less sure).
    pub fn unsure(&self, min: u8) -> bool {
        self.confidence.is_some_and(|c| c < min)
    }

    /// Whether it is folded at threshold `min`: less sure than `min`, or not found in the
    /// change, or dropped on a second look; at 0 nothing is.
    pub fn folded(&self, min: u8) -> bool {
        min > 0 && (self.unsure(min) || self.check.as_ref().is_some_and(Check::folds))
    }

    /// `file:line` or `file:line-end_line`, or the file alone.
    pub fn location(&self) -> String {
        match (self.line, self.end_line) {
            (Some(line), Some(end)) if end > line => format!("{}:{line}-{end}", self.file),
            (Some(line), _) => format!("{}:{line}", self.file),
            _ => self.file.clone(),
        }
    }
}

/// What comes between a finding's heading and its confidence: `### Title (`a.rs:3`) · 55%`.
pub const CONFIDENCE_MARK: &str = " · ";

/// What a finding's heading ends with before its stable id: `### Title (`a.rs:3`) · id 3fa9c01b2e`.
pub const ID_MARK: &str = "id ";

/// How many findings are folded: those the reviewer is less sure of than the threshold, and
/// those not found in the change or dropped on a second look (whatever their confidence).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Folded {
    /// Folded for being less sure than the threshold.
    pub unsure: usize,
    /// Folded for not being found in the change, or dropped on a second look.
    pub unchecked: usize,
}

impl Folded {
    /// All the folded findings.
    pub fn total(self) -> usize {
        self.unsure + self.unchecked
    }
}

/// The closing line of a review some findings were left out of:
/// `_2 less certain findings (under 70% confidence) left out: HOW shows them._`, or, when
/// some were not found in the change, `_3 findings left out (1 under 70% confidence, 2 not
/// found in the change or dropped): HOW shows them._`.
pub fn left_out_line(folded: Folded, min: u8, how_to_see: Option<&str>) -> String {
    let how = how_to_see
        .map(|how| format!(": {how} shows them"))
        .unwrap_or_default();
    let plural = |n: usize, what: &str| match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    };
    if folded.unchecked == 0 {
        let findings = plural(folded.unsure, "less certain finding");
        return format!("_{findings} (under {min}% confidence) left out{how}._");
    }
    let findings = plural(folded.total(), "finding");
    let unsure = match folded.unsure {
        0 => String::new(),
        n => format!("{n} under {min}% confidence, "),
    };
    format!(
        "_{findings} left out ({unsure}{} not found in the change or dropped){how}._",
        folded.unchecked
    )
}

/// What a review without findings says.
const NO_ISSUES: &str = "No issues found.";

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

    /// The review without the findings the reviewer is less sure of than `min` percent, and
    /// how many were left out.
    pub fn confident(&self, min: u8) -> (Review, usize) {
        let mut kept = self.clone();
        kept.findings.retain(|f| !f.folded(min));
        let left_out = self.findings.len() - kept.findings.len();
        (kept, left_out)
    }

    /// How many findings threshold `min` folds, and why.
    pub fn folded(&self, min: u8) -> Folded {
        let folded = self.findings.iter().filter(|f| f.folded(min));
        let unchecked = folded
            .clone()
            .filter(|f| f.check.as_ref().is_some_and(Check::folds))
            .count();
        Folded {
            unsure: folded.count() - unchecked,
            unchecked,
        }
    }

    /// The review as printed with a threshold: the findings the reviewer is at least `min`
    /// percent sure of, and a closing line saying how many others were left out and how to
    /// see them (`show_all`, the user's way to ask for every finding).
    pub fn to_markdown_confident(&self, min: u8, show_all: &str) -> String {
        let (kept, left_out) = self.confident(min);
        if left_out == 0 {
            return kept.to_markdown();
        }
        // The check's counts are those of every finding, the folded ones too.
        let mut shown = kept.render(self.checked_line());
        // Not "No issues found." when some were only left out.
        if kept.findings.is_empty() {
            shown = shown.replacen(&format!("{NO_ISSUES}\n\n"), "", 1);
            shown = shown.replacen(&format!("{NO_ISSUES}\n"), "", 1);
        }
        format!(
            "{}\n\n{}\n",
            shown.trim_end(),
            left_out_line(self.folded(min), min, Some(show_all))
        )
    }

    /// The review in markdown: the summary, then the findings grouped by severity, most
    /// severe first, each with its `file:line`.
    pub fn to_markdown(&self) -> String {
        self.render(self.checked_line())
    }

    fn render(&self, checked_line: Option<String>) -> String {
        let mut out = String::from("# Code review\n\n");
        if !self.summary.trim().is_empty() {
            out.push_str(self.summary.trim());
            out.push_str("\n\n");
        }
        if let Some(line) = checked_line {
            out.push_str(&line);
            out.push_str("\n\n");
        }
        if self.findings.is_empty() {
            out.push_str(NO_ISSUES);
            out.push_str("\n\n");
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

impl Review {
    /// `_Checked against the change: 3 placed on their lines, 1 moved to the line it quotes,
    /// 2 not found in it._`, when the findings were checked.
    pub fn checked_line(&self) -> Option<String> {
        let checks: Vec<&Check> = self
            .findings
            .iter()
            .filter_map(|f| f.check.as_ref())
            .collect();
        if checks.is_empty() {
            return None;
        }
        let count = |pick: fn(&Check) -> bool| checks.iter().filter(|c| pick(c)).count();
        let parts = [
            (
                count(|c| matches!(c, Check::Placed)),
                "placed on their lines",
                "placed on its line",
            ),
            (
                count(|c| matches!(c, Check::Moved { .. })),
                "moved to the lines they quote",
                "moved to the line it quotes",
            ),
            (
                count(|c| matches!(c, Check::Unverified { .. })),
                "not found in it (folded)",
                "not found in it (folded)",
            ),
            (
                count(|c| matches!(c, Check::Dropped { .. })),
                "dropped on a second look (folded)",
                "dropped on a second look (folded)",
            ),
        ];
        let said: Vec<String> = parts
            .iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, many, one)| format!("{n} {}", if *n == 1 { one } else { many }))
            .collect();
        let total = checks.len();
        let findings = if total == 1 { "finding" } else { "findings" };
        Some(format!(
            "_{total} {findings} checked against the change: {}._",
            said.join(", ")
        ))
    }
}

fn push_finding(out: &mut String, finding: &Finding) {
    let sure = finding
        .confidence
        .map(|c| format!("{CONFIDENCE_MARK}{c}%"))
        .unwrap_or_default();
    let mark = finding.check.as_ref().and_then(Check::mark);
    let folded = mark
        .as_ref()
        .map(|(mark, _)| format!("{CONFIDENCE_MARK}{mark}"))
        .unwrap_or_default();
    out.push_str(&format!(
        "### {} (`{}`){sure}{folded}{CONFIDENCE_MARK}{}{}\n\n",
        finding.title.trim(),
        finding.location(),
        ID_MARK,
        memory::finding_id(finding)
    ));
    if let Some((_, why)) = mark {
        out.push_str(&why);
        out.push_str("\n\n");
    }
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

    fn sure(confidence: Option<u8>, title: &str) -> Finding {
        Finding {
            confidence,
            ..finding(Severity::High, "src/a.rs", Some(3), title)
        }
    }

    #[test]
    fn confidences_are_read_as_models_write_them() {
        let read = |value: serde_json::Value| {
            serde_json::from_value::<Finding>(serde_json::json!({ "confidence": value }))
                .map(|f| f.confidence)
                .ok()
                .flatten()
        };
        assert_eq!(read(serde_json::json!(85)), Some(85));
        assert_eq!(read(serde_json::json!(85.4)), Some(85));
        assert_eq!(read(serde_json::json!(0.85)), Some(85));
        assert_eq!(read(serde_json::json!("60%")), Some(60));
        assert_eq!(read(serde_json::json!(140)), Some(100));
        assert_eq!(read(serde_json::json!(-3)), Some(0));
        assert_eq!(read(serde_json::json!("high")), None);
        assert_eq!(read(serde_json::Value::Null), None);
        let missing: Finding = serde_json::from_str("{}").expect("a finding");
        assert_eq!(missing.confidence, None);
    }

    #[test]
    fn findings_under_the_threshold_are_left_out_and_counted() {
        let review = Review {
            findings: vec![
                sure(Some(95), "Sure"),
                sure(Some(40), "Hunch"),
                sure(None, "Unknown"),
            ],
            ..Review::default()
        };
        let (kept, left_out) = review.confident(70);
        let titles: Vec<&str> = kept.findings.iter().map(|f| f.title.as_str()).collect();
        assert_eq!((titles, left_out), (vec!["Sure", "Unknown"], 1));
        assert_eq!(review.confident(0).1, 0);
        let printed = review.to_markdown_confident(70, "`--all`");
        assert!(printed.contains("## High (2)"), "{printed}");
        assert!(
            printed.ends_with(
                "\n_1 less certain finding (under 70% confidence) left out: `--all` shows them._\n"
            ),
            "{printed}"
        );
        let only_unsure = Review {
            findings: vec![sure(Some(10), "Hunch")],
            ..Review::default()
        };
        let printed = only_unsure.to_markdown_confident(70, "`--all`");
        assert!(!printed.contains("No issues found"), "{printed}");
        assert_eq!(
            printed,
            "# Code review\n\n_1 less certain finding (under 70% confidence) left out: `--all` \
             shows them._\n"
        );
        assert_eq!(review.to_markdown_confident(0, "x"), review.to_markdown());
        let md = review.to_markdown();
        assert!(md.contains("### Sure (`src/a.rs:3`) · 95% · id "), "{md}");
        assert!(md.contains("### Unknown (`src/a.rs:3`) · id "), "{md}");
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
