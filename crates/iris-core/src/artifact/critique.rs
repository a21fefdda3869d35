//! The critic's verdict on an artifact.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::markdown::{finish, push_section};
use super::review::Severity;

/// One thing wrong with the artifact under review.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct CritiqueIssue {
    /// The problem in a few words.
    pub title: String,
    /// What is wrong, citing the evidence it contradicts or misses.
    pub body: String,
    /// `critical`: the artifact is wrong or misleading; `high`: an important claim is
    /// unsupported or an important change is missing; `medium`/`low`: accuracy or style
    /// worth fixing; `info`: a remark.
    pub severity: Severity,
}

/// Whether an artifact is true to the evidence, and what to change if not.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Critique {
    /// True when the artifact states something the evidence does not support, misses
    /// something important, or breaks the requested style.
    pub requires_revision: bool,
    /// The problems found; empty when there are none.
    pub issues: Vec<CritiqueIssue>,
    /// Instructions for the writer to fix every issue; empty when no revision is needed.
    pub revision_prompt: String,
    /// How sure the critic is of its verdict, from 0.0 to 1.0.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: f32,
}

impl Critique {
    /// The confidence within 0.0..=1.0 (a model may answer out of range).
    pub fn confidence(&self) -> f32 {
        if self.confidence.is_nan() {
            0.0
        } else {
            self.confidence.clamp(0.0, 1.0)
        }
    }

    /// The verdict, the issues with their severity, and the revision prompt.
    pub fn to_markdown(&self) -> String {
        let verdict = if self.requires_revision {
            "Revision needed"
        } else {
            "No revision needed"
        };
        let mut out = format!(
            "# Critique\n\n**{verdict}** (confidence {:.0}%)\n\n",
            self.confidence() * 100.0
        );
        if !self.issues.is_empty() {
            out.push_str("## Issues\n\n");
            for issue in &self.issues {
                out.push_str(&format!(
                    "- **[{}] {}**",
                    issue.severity.name(),
                    issue.title.trim()
                ));
                if !issue.body.trim().is_empty() {
                    out.push_str(&format!(": {}", issue.body.trim()));
                }
                out.push('\n');
            }
            out.push('\n');
        }
        push_section(&mut out, "Revision prompt", &self.revision_prompt);
        finish(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_shows_verdict_issues_and_prompt() {
        let critique = Critique {
            requires_revision: true,
            issues: vec![CritiqueIssue {
                title: "Invented test".into(),
                body: "No test file changed.".into(),
                severity: Severity::High,
            }],
            revision_prompt: "Remove the testing claim.".into(),
            confidence: 0.85,
        };
        assert_eq!(
            critique.to_markdown(),
            "# Critique\n\n**Revision needed** (confidence 85%)\n\n## Issues\n\n\
             - **[high] Invented test**: No test file changed.\n\n\
             ## Revision prompt\n\nRemove the testing claim.\n"
        );
    }

    #[test]
    fn confidence_is_clamped() {
        let mut critique = Critique {
            confidence: 7.0,
            ..Default::default()
        };
        assert_eq!(critique.confidence(), 1.0);
        critique.confidence = f32::NAN;
        assert_eq!(critique.confidence(), 0.0);
        assert!(
            critique
                .to_markdown()
                .contains("**No revision needed** (confidence 0%)")
        );
    }
}
