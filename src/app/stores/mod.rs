//! What Iris keeps in a repository, under `.git/iris/` ([`IrisDir`], the one owner of its
//! layout): the messages she wrote ([`accepted`]), the last message for a change
//! ([`last_message`]), the studio's drafts ([`DraftStore`]), the hooks told they lost Iris'
//! step ([`hook_steps`]), the findings dismissed and the last review's ([`review_memory`]),
//! the user's answer about their coding agent's sessions ([`agent_sessions`]); each written
//! so that a crash loses nothing, none ever failing a command. A change is keyed by [`ChangeKey`].

pub mod accepted;
pub mod agent_sessions;
mod drafts;
pub mod hook_steps;
mod iris_dir;
pub mod last_message;
pub mod review_memory;

pub use drafts::DraftStore;
pub use iris_dir::IrisDir;

use iris_studio_git::GitRepo;

/// A change as the stores key it: the commit it goes on and the tree it makes, so what was
/// written for it is found again however it is committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeKey {
    /// The commit the change goes on; `None` for a repository's first commit.
    pub parent: Option<String>,
    /// The tree the change makes.
    pub tree: String,
}

/// `PARENT:TREE` (`root:TREE` for a first commit): how a draft records its change.
impl std::fmt::Display for ChangeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parent = self.parent.as_deref().unwrap_or("root");
        write!(f, "{parent}:{}", self.tree)
    }
}

impl ChangeKey {
    /// The change staged in `repo` (`amend`: replacing HEAD). Writes the index's tree.
    pub fn staged(repo: &GitRepo, amend: bool) -> iris_studio_git::Result<Self> {
        let (parent, tree) = repo.staged_change(amend)?;
        Ok(Self { parent, tree })
    }
}

/// Seconds since the epoch, as the stores date what they keep.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
