//! A merge, cherry-pick, revert or rebase that stopped for the user: git's prepared message,
//! the incoming commits and how each conflict was resolved (see
//! [`iris_studio_core::change::operation`]).

use std::path::Path;

use git2::{Oid, RepositoryState as S, Tree};
use iris_studio_core::change::operation::{Operation, Resolution, parse_prepared};

use super::patch::text_change;
use super::{GitRepo, Result};

/// Incoming commits listed for a merge.
const MAX_INCOMING: usize = 20;

impl GitRepo {
    /// The operation in progress that a commit concludes, if any (a bisect or `git am` is
    /// not one).
    pub fn operation(&self) -> Result<Option<Operation>> {
        let Some((kind, head_file)) = self.operation_kind() else {
            return Ok(None);
        };
        let git_dir = self.repo.path();
        let (prepared, mut conflicts) = match self.read_prepared() {
            Some((message, conflicts)) => (Some(message), conflicts),
            None => (None, Vec::new()),
        };
        let index = self.repo.index()?;
        for conflict in index.conflicts()? {
            let conflict = conflict?;
            let entry = conflict.our.or(conflict.their).or(conflict.ancestor);
            if let Some(entry) = entry {
                let path = String::from_utf8_lossy(&entry.path).into_owned();
                if !conflicts.contains(&path) {
                    conflicts.push(path);
                }
            }
        }
        // MERGE_HEAD lists every head of an octopus merge; the others name one commit.
        let heads: Vec<Oid> = std::fs::read_to_string(git_dir.join(head_file))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| self.oid(l.trim()).ok())
            .collect();
        let incoming = self.incoming(kind, &heads)?;
        // The incoming side of a file: the picked or replayed commit's, the merged branch's,
        // and for a revert the version before the reverted commit.
        let theirs = match (kind, heads.first()) {
            (_, None) => None,
            ("revert", Some(id)) => self.repo.find_commit(*id)?.parent(0).ok(),
            (_, Some(id)) => Some(self.repo.find_commit(*id)?),
        };
        let ours = self.head_tree()?;
        let theirs = theirs.map(|c| c.tree()).transpose()?;
        let resolutions = conflicts
            .into_iter()
            .map(|path| self.resolution(&index, ours.as_ref(), theirs.as_ref(), path))
            .collect::<Result<_>>()?;
        Ok(Some(Operation {
            kind: kind.to_string(),
            incoming,
            prepared,
            resolutions,
        }))
    }

    /// The operation in progress and git's prepared message for its commit, read from git's
    /// files alone (no index, no blob): what the studio's editor starts from.
    pub fn prepared_message(&self) -> Option<(String, String)> {
        let (kind, _) = self.operation_kind()?;
        let (message, _) = self.read_prepared()?;
        Some((kind.to_string(), message))
    }

    /// The operation's name and the file naming its incoming commit(s).
    fn operation_kind(&self) -> Option<(&'static str, &'static str)> {
        let kind = self.in_progress()?;
        let head_file = match kind {
            "merge" => "MERGE_HEAD",
            "cherry-pick" => "CHERRY_PICK_HEAD",
            "revert" => "REVERT_HEAD",
            "rebase" => "REBASE_HEAD",
            _ => return None,
        };
        Some((kind, head_file))
    }

    /// What git is in the middle of, by its command's name: `merge`, `cherry-pick`, `revert`,
    /// `rebase`, `bisect` or `am`; `None` when nothing is.
    pub fn in_progress(&self) -> Option<&'static str> {
        match self.repo.state() {
            S::Clean => None,
            S::Merge => Some("merge"),
            S::CherryPick | S::CherryPickSequence => Some("cherry-pick"),
            S::Revert | S::RevertSequence => Some("revert"),
            S::Rebase | S::RebaseInteractive | S::RebaseMerge => Some("rebase"),
            S::Bisect => Some("bisect"),
            S::ApplyMailbox | S::ApplyMailboxOrRebase => Some("am"),
        }
    }

    /// `MERGE_MSG` without its comment lines, and the paths of its conflicts list.
    fn read_prepared(&self) -> Option<(String, Vec<String>)> {
        let bytes = std::fs::read(self.repo.path().join("MERGE_MSG")).ok()?;
        Some(parse_prepared(&String::from_utf8_lossy(&bytes)))
    }

    /// The commits an operation brings: for a merge those of its heads not on HEAD yet
    /// (newest first), else the one commit.
    fn incoming(&self, kind: &str, heads: &[Oid]) -> Result<Vec<(String, String)>> {
        let ids: Vec<Oid> = match (kind, self.head_commit()?) {
            ("merge", Some(head)) => {
                let mut walk = self.history_walk()?;
                for id in heads {
                    walk.push(*id)?;
                }
                walk.hide(head.id())?;
                walk.take(MAX_INCOMING)
                    .collect::<std::result::Result<_, _>>()?
            }
            _ => heads.to_vec(),
        };
        ids.into_iter()
            .map(|id| {
                let commit = super::CommitInfo::from_commit(&self.repo.find_commit(id)?);
                Ok((commit.short_id, commit.summary))
            })
            .collect()
    }

    /// How `path` stands: still conflicting, or its staged version against each side.
    fn resolution(
        &self,
        index: &git2::Index,
        ours: Option<&Tree<'_>>,
        theirs: Option<&Tree<'_>>,
        path: String,
    ) -> Result<Resolution> {
        let unresolved = (1..=3).any(|stage| index.get_path(Path::new(&path), stage).is_some());
        let mut resolution = Resolution {
            path,
            unresolved,
            against_ours: String::new(),
            against_theirs: String::new(),
        };
        if unresolved {
            return Ok(resolution);
        }
        let at = Path::new(&resolution.path);
        let resolved = index.get_path(at, 0).map(|e| e.id);
        let side = |tree: Option<&Tree<'_>>| tree.and_then(|t| t.get_path(at).ok()).map(|e| e.id());
        let (ours, theirs) = (side(ours), side(theirs));
        self.fill_holes([resolved, ours, theirs].into_iter().flatten())?;
        let bytes = |id: Option<Oid>| -> Result<Vec<u8>> {
            Ok(match id {
                Some(id) => self.repo.find_blob(id)?.content().to_vec(),
                None => Vec::new(),
            })
        };
        let resolved = bytes(resolved)?;
        resolution.against_ours = text_change(&bytes(ours)?, &resolved)?;
        resolution.against_theirs = text_change(&bytes(theirs)?, &resolved)?;
        Ok(resolution)
    }
}
