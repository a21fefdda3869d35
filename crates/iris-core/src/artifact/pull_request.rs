//! The pull request description artifact.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::markdown::{finish, push_list, push_section};

/// A pull request: its title and the description reviewers read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct PullRequest {
    /// The PR title: imperative, specific, at most about 72 characters, no trailing period.
    pub title: String,
    /// What the PR does and why, in two to four sentences a reviewer reads first.
    pub summary: String,
    /// The detailed description in markdown: the motivation, the approach and the design
    /// decisions a reviewer needs to judge the change. No headings of level 1 or 2.
    pub description: String,
    /// The notable changes, one per item, grouped by area when that helps ("git: ...").
    pub changes: Vec<String>,
    /// How the change was or can be tested: tests added or run, manual steps. Only what the
    /// evidence shows.
    pub testing: Vec<String>,
    /// Changes that break users or callers, each with what they must do. Empty if none.
    pub breaking_changes: Vec<String>,
    /// Where reviewers should look closely, open questions, known limitations.
    pub reviewer_notes: Vec<String>,
    /// Issues this PR closes or relates to, as written in the commits or branch ("Closes #12").
    pub related_issues: Vec<String>,
    /// Only when the request carries the repository's pull request template: that template
    /// filled in from the evidence, in markdown, without the title. Every heading and every
    /// checkbox line kept as written (tick a box, `- [x]`, only when the evidence shows it
    /// holds), each section written as its HTML comments ask, the comments themselves left
    /// out. Otherwise null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filled_template: Option<String>,
}

impl PullRequest {
    /// The description body (for the PR's body field): the filled template when there is
    /// one, else every non-empty section under a `##` heading.
    pub fn body_markdown(&self) -> String {
        if let Some(filled) = self
            .filled_template
            .as_deref()
            .filter(|t| !t.trim().is_empty())
        {
            return finish(filled.trim().to_string());
        }
        let mut out = String::new();
        push_section(&mut out, "Summary", &self.summary);
        push_section(&mut out, "Details", &self.description);
        push_list(&mut out, "Changes", &self.changes);
        push_list(&mut out, "Testing", &self.testing);
        push_list(&mut out, "Breaking changes", &self.breaking_changes);
        push_list(&mut out, "Notes for reviewers", &self.reviewer_notes);
        push_list(&mut out, "Related issues", &self.related_issues);
        finish(out)
    }

    /// The title as a level-1 heading, then the body.
    pub fn to_markdown(&self) -> String {
        finish(format!(
            "# {}\n\n{}",
            self.title.trim(),
            self.body_markdown()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_has_the_title_and_only_the_filled_sections_in_order() {
        let pr = PullRequest {
            title: "Rank changed files by relevance".into(),
            summary: "Sorts the diff.".into(),
            description: "The engine scores each file.".into(),
            changes: vec!["context: add relevance scores".into()],
            testing: vec!["cargo test".into()],
            breaking_changes: vec![],
            reviewer_notes: vec!["Check the weights".into()],
            related_issues: vec!["Closes #4".into()],
            filled_template: None,
        };
        let md = pr.to_markdown();
        assert!(
            md.starts_with("# Rank changed files by relevance\n\n## Summary\n\nSorts the diff.\n")
        );
        let order = [
            "## Summary",
            "## Details",
            "## Changes",
            "## Testing",
            "## Notes for reviewers",
            "## Related issues",
        ];
        let positions: Vec<usize> = order
            .iter()
            .map(|h| md.find(h).unwrap_or(usize::MAX))
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{md}");
        assert!(!md.contains("Breaking"));
        assert!(md.ends_with("- Closes #4\n"));
        assert!(!pr.body_markdown().contains("# Rank"));
    }

    #[test]
    fn a_filled_template_is_the_body_under_the_title() {
        let mut pr = PullRequest {
            title: "Add two()".into(),
            summary: "Not shown.".into(),
            filled_template: Some("\n## What?\nAdds two().\n\n- [x] Tests\n\n".into()),
            ..PullRequest::default()
        };
        assert_eq!(
            pr.to_markdown(),
            "# Add two()\n\n## What?\nAdds two().\n\n- [x] Tests\n"
        );
        pr.filled_template = Some(" \n".into());
        assert!(pr.to_markdown().contains("## Summary\n\nNot shown."));
    }

    #[test]
    fn an_empty_body_is_a_single_newline() {
        assert_eq!(PullRequest::default().body_markdown(), "\n");
    }
}
