//! The release notes artifact.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::markdown::{finish, push_bullet, push_list};

/// A change worth leading the notes with.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Highlight {
    /// The feature or improvement in a few words.
    pub title: String,
    /// What it gives users and how to use it, in one to three sentences.
    pub description: String,
}

/// A group of related changes ("Features", "Fixes", "Performance", "Documentation").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ReleaseSection {
    /// The group's heading.
    pub title: String,
    /// One change per item, written for users.
    pub items: Vec<String>,
}

/// Release notes for one version, written for the project's users.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ReleaseNotes {
    /// The version released ("1.4.0"), or null when unknown.
    pub version: Option<String>,
    /// The headline of the release.
    pub title: String,
    /// What the release brings, in two to four sentences.
    pub summary: String,
    /// The few changes users care most about.
    pub highlights: Vec<Highlight>,
    /// The other changes, grouped.
    pub sections: Vec<ReleaseSection>,
    /// Changes that break users, each with what they must do. Empty if none.
    pub breaking_changes: Vec<String>,
    /// Steps to upgrade from the previous version (migrations, config changes). Empty if none.
    pub upgrade_notes: Vec<String>,
    /// The people who contributed, as the commits name them.
    pub contributors: Vec<String>,
}

impl ReleaseNotes {
    /// The notes in markdown: title, summary, highlights, the grouped changes, breaking
    /// changes, upgrade notes and contributors, skipping what is empty.
    pub fn to_markdown(&self) -> String {
        let version = self
            .version
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty());
        let title = match (self.title.trim(), version) {
            ("", Some(version)) => format!("Release {version}"),
            ("", None) => "Release notes".to_string(),
            (title, _) => title.to_string(),
        };
        let mut out = format!("# {title}\n\n");
        if !self.summary.trim().is_empty() {
            out.push_str(self.summary.trim());
            out.push_str("\n\n");
        }
        let highlights: Vec<&Highlight> = self
            .highlights
            .iter()
            .filter(|h| !h.title.trim().is_empty() || !h.description.trim().is_empty())
            .collect();
        if !highlights.is_empty() {
            out.push_str("## Highlights\n\n");
            for highlight in highlights {
                out.push_str(&format!("### {}\n\n", highlight.title.trim()));
                if !highlight.description.trim().is_empty() {
                    out.push_str(highlight.description.trim());
                    out.push_str("\n\n");
                }
            }
        }
        for section in &self.sections {
            if section.items.iter().all(|i| i.trim().is_empty()) {
                continue;
            }
            let heading = match section.title.trim() {
                "" => "Other changes",
                title => title,
            };
            out.push_str(&format!("## {heading}\n\n"));
            for item in section.items.iter().filter(|i| !i.trim().is_empty()) {
                push_bullet(&mut out, item);
            }
            out.push('\n');
        }
        push_list(&mut out, "Breaking changes", &self.breaking_changes);
        push_list(&mut out, "Upgrade notes", &self.upgrade_notes);
        push_list(&mut out, "Contributors", &self.contributors);
        finish(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_orders_the_parts_and_skips_empty_ones() {
        let notes = ReleaseNotes {
            version: Some("1.4.0".into()),
            title: "Faster diffs".into(),
            summary: "Diffs are faster.".into(),
            highlights: vec![Highlight {
                title: "Threaded diff".into(),
                description: "Large changes split across threads.".into(),
            }],
            sections: vec![
                ReleaseSection {
                    title: "Fixes".into(),
                    items: vec!["Blame on renamed files".into()],
                },
                ReleaseSection {
                    title: "Empty".into(),
                    items: vec![" ".into()],
                },
            ],
            breaking_changes: vec!["`--fast` is gone".into()],
            upgrade_notes: vec![],
            contributors: vec!["Ada".into()],
        };
        let md = notes.to_markdown();
        assert!(md.starts_with(
            "# Faster diffs\n\nDiffs are faster.\n\n## Highlights\n\n### Threaded diff\n"
        ));
        let order = [
            "## Highlights",
            "## Fixes",
            "## Breaking changes",
            "## Contributors",
        ];
        let positions: Vec<usize> = order
            .iter()
            .map(|h| md.find(h).unwrap_or(usize::MAX))
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{md}");
        assert!(!md.contains("## Empty") && !md.contains("Upgrade"));
        assert!(md.ends_with("- Ada\n"));
    }

    #[test]
    fn the_title_falls_back_to_the_version() {
        let notes = ReleaseNotes {
            version: Some("2.0.0".into()),
            ..Default::default()
        };
        assert_eq!(notes.to_markdown(), "# Release 2.0.0\n");
        assert_eq!(ReleaseNotes::default().to_markdown(), "# Release notes\n");
    }
}
