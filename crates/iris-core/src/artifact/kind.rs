//! The artifacts Iris writes, each defined once: its names, what it works from, how chat
//! edits it and whether the critic checks it. The command line, the agent and the studio all
//! read this table; adding an artifact is one row here, one capability TOML and one type.

use std::fmt;

use super::{GeneratedMessage, OutputType};

/// One artifact Iris writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArtifactKind {
    /// The commit message for the staged change.
    Commit,
    /// A code review: findings with severity, file and line.
    Review,
    /// A pull request description for a range of commits.
    Pr,
    /// A changelog entry for a range of commits.
    Changelog,
    /// Release notes for a range of commits.
    ReleaseNotes,
}

/// What an artifact is written from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The staged change.
    Staged,
    /// The commits of a range FROM..TO.
    Range,
}

/// Everything that differs between artifacts.
#[derive(Debug, Clone, Copy)]
pub struct Descriptor {
    /// The name on the command line (`--mode release-notes`), of its capability file and of
    /// its draft.
    pub name: &'static str,
    /// The studio's tab.
    pub title: &'static str,
    /// What the artifact is called in a sentence ("the pull request description").
    pub noun: &'static str,
    /// The reply the model is asked for.
    pub output: OutputType,
    /// The chat tool that replaces it in the editor.
    pub update_tool: &'static str,
    /// The staged change or a range of commits.
    pub input: Input,
    /// Whether the critic checks it unless asked (and only when `critic_enabled`).
    pub critic: bool,
    /// Puts a text the model wrote through the update tool in the artifact's shape.
    pub tidy: fn(&str) -> String,
}

fn as_written(text: &str) -> String {
    text.to_string()
}

const COMMIT: Descriptor = Descriptor {
    name: "commit",
    title: "Commit",
    noun: "commit message",
    output: OutputType::Commit,
    update_tool: "update_commit",
    input: Input::Staged,
    critic: false,
    tidy: GeneratedMessage::tidy_commit_text,
};

const REVIEW: Descriptor = Descriptor {
    name: "review",
    title: "Review",
    noun: "review",
    output: OutputType::Review,
    update_tool: "update_review",
    input: Input::Staged,
    critic: true,
    tidy: as_written,
};

const PR: Descriptor = Descriptor {
    name: "pr",
    title: "PR",
    noun: "pull request description",
    output: OutputType::PullRequest,
    update_tool: "update_pr",
    input: Input::Range,
    critic: true,
    tidy: as_written,
};

const CHANGELOG: Descriptor = Descriptor {
    name: "changelog",
    title: "Changelog",
    noun: "changelog entry",
    output: OutputType::Changelog,
    update_tool: "update_changelog",
    input: Input::Range,
    critic: true,
    tidy: as_written,
};

const RELEASE_NOTES: Descriptor = Descriptor {
    name: "release-notes",
    title: "Release notes",
    noun: "release notes",
    output: OutputType::ReleaseNotes,
    update_tool: "update_release_notes",
    input: Input::Range,
    critic: true,
    tidy: as_written,
};

impl ArtifactKind {
    /// Every artifact, one per row of the table.
    pub const ALL: [ArtifactKind; 5] = [
        ArtifactKind::Commit,
        ArtifactKind::Review,
        ArtifactKind::Pr,
        ArtifactKind::Changelog,
        ArtifactKind::ReleaseNotes,
    ];

    /// The artifact's row in the table.
    pub const fn describe(self) -> &'static Descriptor {
        match self {
            ArtifactKind::Commit => &COMMIT,
            ArtifactKind::Review => &REVIEW,
            ArtifactKind::Pr => &PR,
            ArtifactKind::Changelog => &CHANGELOG,
            ArtifactKind::ReleaseNotes => &RELEASE_NOTES,
        }
    }

    /// Its name on the command line and in capability files (`release-notes`).
    pub fn name(self) -> &'static str {
        self.describe().name
    }

    /// The artifact whose reply has this output type (a critique or a file intent is none).
    pub fn of_output(output: OutputType) -> Option<ArtifactKind> {
        Self::ALL
            .into_iter()
            .find(|k| k.describe().output == output)
    }

    /// The artifact a chat's update tool (`update_commit`, ...) replaces.
    pub fn edited_by(tool: &str) -> Option<ArtifactKind> {
        Self::ALL
            .into_iter()
            .find(|k| k.describe().update_tool == tool)
    }

    /// The title of its tab in the studio.
    pub fn title(self) -> &'static str {
        self.describe().title
    }

    /// What it is called in a sentence ("the pull request description").
    pub fn noun(self) -> &'static str {
        self.describe().noun
    }

    /// Whether it is written from a range of commits rather than the staged change.
    pub fn uses_range(self) -> bool {
        self.describe().input == Input::Range
    }

    /// The artifact with this command-line name, if any.
    pub fn from_name(name: &str) -> Option<ArtifactKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for ArtifactKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_tools_and_outputs_are_each_used_once() {
        let distinct = |f: fn(&Descriptor) -> String| {
            let all: std::collections::BTreeSet<String> =
                ArtifactKind::ALL.iter().map(|k| f(k.describe())).collect();
            all.len() == ArtifactKind::ALL.len()
        };
        assert!(distinct(|d| d.name.to_string()));
        assert!(distinct(|d| d.update_tool.to_string()));
        assert!(distinct(|d| d.output.name().to_string()));
        for kind in ArtifactKind::ALL {
            assert_eq!(ArtifactKind::from_name(kind.name()), Some(kind));
        }
    }

    #[test]
    fn only_a_commit_is_tidied() {
        let ragged = "Title.\n\nword ".to_string() + &"word ".repeat(30);
        assert_ne!((ArtifactKind::Commit.describe().tidy)(&ragged), ragged);
        assert_eq!((ArtifactKind::Pr.describe().tidy)(&ragged), ragged);
    }
}
