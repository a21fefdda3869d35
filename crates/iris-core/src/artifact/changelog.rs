//! The changelog artifact, in the Keep a Changelog format, and how a new version section
//! goes into an existing CHANGELOG.md.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::markdown::finish;

/// The header a new CHANGELOG.md starts with.
pub const CHANGELOG_HEADER: &str = "# Changelog\n\n\
All notable changes to this project will be documented in this file.\n\n\
The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),\n\
and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).\n";

/// One line of a changelog section.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ChangelogEntry {
    /// The change as a user of the project sees it, in one sentence.
    pub description: String,
    /// The short hash of the commit that made the change, or null.
    pub commit: Option<String>,
}

/// The changes of one version, sorted into the Keep a Changelog kinds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Changelog {
    /// The version released ("1.4.0"), or null for unreleased changes.
    pub version: Option<String>,
    /// The release date as YYYY-MM-DD, or null.
    pub date: Option<String>,
    /// New features.
    pub added: Vec<ChangelogEntry>,
    /// Changes in existing functionality.
    pub changed: Vec<ChangelogEntry>,
    /// Features that will be removed in a coming release.
    pub deprecated: Vec<ChangelogEntry>,
    /// Features removed in this release.
    pub removed: Vec<ChangelogEntry>,
    /// Bug fixes.
    pub fixed: Vec<ChangelogEntry>,
    /// Fixed vulnerabilities.
    pub security: Vec<ChangelogEntry>,
}

impl Changelog {
    /// The kinds in Keep a Changelog order, with their headings.
    pub fn sections(&self) -> [(&'static str, &[ChangelogEntry]); 6] {
        [
            ("Added", &self.added),
            ("Changed", &self.changed),
            ("Deprecated", &self.deprecated),
            ("Removed", &self.removed),
            ("Fixed", &self.fixed),
            ("Security", &self.security),
        ]
    }

    /// The version section: `## [version] - date`, then one `###` list per non-empty kind.
    pub fn to_markdown(&self) -> String {
        let version = self
            .version
            .as_deref()
            .map(|v| v.trim().trim_start_matches('v'))
            .filter(|v| !v.is_empty())
            .unwrap_or("Unreleased");
        let mut out = format!("## [{version}]");
        if let Some(date) = self.date.as_deref().map(str::trim)
            && !date.is_empty()
        {
            out.push_str(&format!(" - {date}"));
        }
        out.push_str("\n\n");
        let mut any = false;
        for (heading, entries) in self.sections() {
            let lines: Vec<String> = entries.iter().filter_map(entry_line).collect();
            if lines.is_empty() {
                continue;
            }
            any = true;
            out.push_str(&format!("### {heading}\n\n"));
            for line in lines {
                out.push_str(&line);
            }
            out.push('\n');
        }
        if !any {
            out.push_str("No notable changes.\n");
        }
        finish(out)
    }
}

fn entry_line(entry: &ChangelogEntry) -> Option<String> {
    let description = entry
        .description
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let description = description.strip_prefix("- ").unwrap_or(&description);
    if description.is_empty() {
        return None;
    }
    Some(match entry.commit.as_deref().map(short_hash) {
        Some(hash) if !hash.is_empty() => format!("- {description} ({hash})\n"),
        _ => format!("- {description}\n"),
    })
}

/// A full hexadecimal commit hash cut to the usual seven characters; anything else as is.
fn short_hash(commit: &str) -> &str {
    let commit = commit.trim();
    if commit.len() > 7 && commit.chars().all(|c| c.is_ascii_hexdigit()) {
        &commit[..7]
    } else {
        commit
    }
}

/// `existing` CHANGELOG.md text with `new_section_md` put after the file's header and before
/// its first `## ` version heading (or at the end when it has none). An empty file gets the
/// standard Keep a Changelog header first. The file's line endings are kept.
pub fn insert_into_changelog(existing: &str, new_section_md: &str) -> String {
    let crlf = existing.contains("\r\n");
    let existing = existing.replace("\r\n", "\n");
    let section = new_section_md.replace("\r\n", "\n");
    let section = section.trim();
    let out = if existing.trim().is_empty() {
        format!("{CHANGELOG_HEADER}\n{section}\n")
    } else {
        match first_version_heading(&existing) {
            Some(at) => {
                let (head, rest) = existing.split_at(at);
                let head = head.trim_end();
                let head = if head.is_empty() {
                    String::new()
                } else {
                    format!("{head}\n\n")
                };
                format!("{head}{section}\n\n{rest}")
            }
            None => format!("{}\n\n{section}\n", existing.trim_end()),
        }
    };
    if crlf { out.replace('\n', "\r\n") } else { out }
}

/// Byte offset of the first line starting with `## ` outside fenced code blocks.
fn first_version_heading(text: &str) -> Option<usize> {
    let mut offset = 0;
    let mut in_fence = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        } else if !in_fence && line.starts_with("## ") {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(description: &str, commit: Option<&str>) -> ChangelogEntry {
        ChangelogEntry {
            description: description.into(),
            commit: commit.map(str::to_string),
        }
    }

    #[test]
    fn markdown_follows_keep_a_changelog_order_and_skips_empty_kinds() {
        let changelog = Changelog {
            version: Some("v1.2.0".into()),
            date: Some("2024-05-01".into()),
            fixed: vec![entry(
                "Fix the parser",
                Some("0123456789abcdef0123456789abcdef01234567"),
            )],
            added: vec![entry("Relevance scores", None), entry(" ", None)],
            ..Default::default()
        };
        assert_eq!(
            changelog.to_markdown(),
            "## [1.2.0] - 2024-05-01\n\n### Added\n\n- Relevance scores\n\n\
             ### Fixed\n\n- Fix the parser (0123456)\n"
        );
    }

    #[test]
    fn no_version_is_unreleased_and_no_entries_says_so() {
        assert_eq!(
            Changelog::default().to_markdown(),
            "## [Unreleased]\n\nNo notable changes.\n"
        );
    }

    #[test]
    fn short_hash_only_cuts_hexadecimal_hashes() {
        assert_eq!(short_hash("abcdef0123"), "abcdef0");
        assert_eq!(short_hash("HEAD~3"), "HEAD~3");
        assert_eq!(short_hash("abc"), "abc");
    }

    #[test]
    fn insertion_goes_after_the_header_and_before_the_first_version() {
        let existing = "# Changelog\n\nIntro.\n\n## [1.0.0] - 2024-01-01\n\n### Added\n\n- First\n";
        let out = insert_into_changelog(existing, "## [1.1.0]\n\n### Fixed\n\n- Bug\n");
        assert_eq!(
            out,
            "# Changelog\n\nIntro.\n\n## [1.1.0]\n\n### Fixed\n\n- Bug\n\n\
             ## [1.0.0] - 2024-01-01\n\n### Added\n\n- First\n"
        );
    }

    #[test]
    fn an_empty_file_gets_the_standard_header() {
        let out = insert_into_changelog("  \n", "## [1.0.0]\n\n- x\n");
        assert!(out.starts_with(CHANGELOG_HEADER));
        assert!(out.ends_with("\n\n## [1.0.0]\n\n- x\n"));
    }

    #[test]
    fn a_file_without_versions_gets_the_section_at_the_end() {
        let out = insert_into_changelog("# Changelog\n\nNothing yet.\n", "## [0.1.0]\n");
        assert_eq!(out, "# Changelog\n\nNothing yet.\n\n## [0.1.0]\n");
    }

    #[test]
    fn headings_inside_code_fences_and_crlf_files_are_handled() {
        let existing = "# Changelog\r\n\r\n```\r\n## not a version\r\n```\r\n\r\n## [1.0.0]\r\n";
        let out = insert_into_changelog(existing, "## [2.0.0]\n");
        assert_eq!(
            out,
            "# Changelog\r\n\r\n```\r\n## not a version\r\n```\r\n\r\n## [2.0.0]\r\n\r\n## [1.0.0]\r\n"
        );
    }

    #[test]
    fn a_file_starting_with_a_version_gets_the_section_first() {
        let out = insert_into_changelog("## [1.0.0]\n", "## [1.1.0]\n");
        assert_eq!(out, "## [1.1.0]\n\n## [1.0.0]\n");
    }
}
