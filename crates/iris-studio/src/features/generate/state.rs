//! Versions of the commit message to choose from, side by side: the one in the editor and the
//! alternatives Iris wrote for it (`a`).

use iris_studio_core::artifact::ArtifactKind;

/// How many alternatives one `a` asks Iris for.
pub const ALTERNATIVES: usize = 3;

/// One version shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The editor's own text, not one Iris just wrote.
    pub current: bool,
    /// The whole message, as it would go into the editor.
    pub text: String,
}

/// The overlay of versions to pick from, while it is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alternatives {
    /// The artifact whose editor the picked version goes into.
    pub kind: ArtifactKind,
    /// The editor's text first (if any), then Iris' alternatives, no two the same.
    pub versions: Vec<Version>,
    /// The highlighted version.
    pub selected: usize,
}

impl Alternatives {
    /// The editor's `current` text first (when there is one), then Iris' `written` ones that
    /// differ from it and from each other.
    pub fn new(kind: ArtifactKind, current: &str, written: Vec<String>) -> Self {
        let mut versions: Vec<Version> = Vec::new();
        if !current.trim().is_empty() {
            versions.push(Version {
                current: true,
                text: current.to_string(),
            });
        }
        for text in written {
            if !versions.iter().any(|v| v.text.trim() == text.trim()) {
                versions.push(Version {
                    current: false,
                    text,
                });
            }
        }
        Self {
            kind,
            versions,
            selected: 0,
        }
    }

    /// How many of the versions are new (not the editor's own).
    pub fn new_count(&self) -> usize {
        self.versions.iter().filter(|v| !v.current).count()
    }
}
