//! The changes list of commit and review modes: the changed files, the one selected, and
//! what ranking and the secret scan found in the staged ones.

use std::collections::HashMap;

use iris_studio_core::change::ChangeKind;

/// The changed files for commit and review modes, and the one whose diff is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changes {
    /// Every path `git status` reports, most relevant first, then by path.
    pub files: Vec<FileEntry>,
    /// The index in `files` of the file under the cursor, whose diff is shown.
    pub selected: usize,
    /// The status is being read: nothing to list yet.
    pub loading: bool,
    /// Whether the relevance weighs the changed lines too (not only paths and kinds).
    pub ranking_complete: bool,
    /// Relevance of the staged files, in percent, by path.
    pub relevance: HashMap<String, u32>,
    /// The kind of secret each staged file adds, by path (only those that add one).
    pub secrets: HashMap<String, std::sync::Arc<str>>,
    /// Whether the staged change is known to have content (so generating makes sense).
    pub has_staged: bool,
    /// The staged change as drafts are keyed by it (its parent and tree; jj's change), once
    /// the status is read.
    pub key: Option<String>,
}

/// One changed file in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// Relative to the repository root, as git reports it.
    pub path: String,
    /// The change in the index against HEAD, if any.
    pub staged: Option<ChangeKind>,
    /// The change in the working tree against the index, if any.
    pub unstaged: Option<ChangeKind>,
    /// A new file git does not track yet.
    pub untracked: bool,
    /// The file has unresolved merge conflicts.
    pub conflicted: bool,
    /// Relevance in percent, once the staged diff has been scored.
    pub relevance: Option<u32>,
    /// The kind of secret its staged lines add (withheld from Iris), once scanned.
    pub secret: Option<std::sync::Arc<str>>,
}

impl Changes {
    /// The file under the cursor; `None` when nothing has changed.
    pub fn selected_file(&self) -> Option<&FileEntry> {
        self.files.get(self.selected)
    }
}

impl Default for Changes {
    /// Nothing read yet: the status is still loading.
    fn default() -> Self {
        Self {
            files: Vec::new(),
            selected: 0,
            loading: true,
            ranking_complete: false,
            relevance: HashMap::new(),
            secrets: HashMap::new(),
            has_staged: false,
            key: None,
        }
    }
}
