//! `iris split`'s git side: the change as units with the bytes of both sides of each file
//! ([`SplitChange`]), each group of a plan staged and committed through `git commit`
//! ([`apply`]), the state before saved under `refs/iris/split/` and restored ([`state`]), and
//! a command run on each group's tree in a temporary worktree ([`check`]); and in a jj
//! workspace, what each path holds after a plan's first groups, for jj to split by
//! ([`after`]).
//!
//! The working tree is never written while a split is applied: each group is built in the
//! index from HEAD's version of its files with the hunks of the groups so far taken from the
//! new side, byte for byte.

mod absorb;
mod after;
mod apply;
mod check;
mod state;

use std::collections::HashMap;

use git2::{Delta, DiffFindOptions, DiffOptions, IndexEntry, Oid, Patch};

use super::{GitError, GitRepo, Result, lossy};
use iris_studio_core::change::{ChangeKind, FileDiff, parse_unified_diff};
use iris_studio_core::split::{Span, Unit, compose, units, whole_why};

pub use absorb::{AbsorbPlan, AbsorbTarget, LeftHunk};
pub use after::PathState;
pub use apply::{Applied, ApplyOptions, Progress, SplitStop};
pub use state::Undone;

/// Which command builds commits from a change's units: each keeps its own saved state, so
/// undoing one never undoes the other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Rewrite {
    /// `iris split`: the change in atomic commits.
    #[default]
    Split,
    /// `iris absorb`: staged hunks as fixups of the commits they fix.
    Absorb,
}

impl Rewrite {
    /// The command's name (`split`).
    pub fn name(self) -> &'static str {
        match self {
            Rewrite::Split => "split",
            Rewrite::Absorb => "absorb",
        }
    }

    /// Where the state before is saved.
    fn state_ref(self) -> String {
        format!("refs/iris/{}/state", self.name())
    }

    /// Where its last commit is named.
    fn top_ref(self) -> String {
        format!("refs/iris/{}/top", self.name())
    }
}

/// The change a split takes apart.
pub struct SplitChange {
    /// Only what is staged (`--staged`); else the working tree's and the index's changes,
    /// untracked files included.
    pub staged: bool,
    /// The changed files, parsed, in git's order.
    pub files: Vec<FileDiff>,
    /// The hunks and whole files a plan groups, numbered from `h1`.
    pub units: Vec<Unit>,
    sides: Vec<Sides>,
    head: Oid,
}

/// What a file is before and after, as the index needs it.
struct Sides {
    /// The path in HEAD (`None` for a new file).
    old_path: Option<String>,
    /// The path after (`None` for a deleted file).
    new_path: Option<String>,
    /// For a file cut into hunks: HEAD's entry, both sides' bytes and the hunks' spans.
    cut: Option<Cut>,
    /// For a staged change: the index entry of the new side.
    staged_entry: Option<IndexEntry>,
}

struct Cut {
    head_entry: IndexEntry,
    old: Vec<u8>,
    new: Vec<u8>,
    spans: Vec<Span>,
}

impl SplitChange {
    /// The paths a split of this change writes in the index (old paths of renames too).
    pub fn paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = self
            .sides
            .iter()
            .flat_map(|s| s.old_path.iter().chain(s.new_path.iter()).cloned())
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }

    /// Whether there is nothing to split.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }
}

impl GitRepo {
    /// The change to split: the index's and the working tree's changes against HEAD, or
    /// (`staged`) only the index's. Refused in a repository with no commit, in the middle of
    /// a merge, rebase or other operation, or with conflicts.
    pub fn split_change(&self, staged: bool) -> Result<SplitChange> {
        let refuse = |why: &str| Err(GitError::Unsupported(why.to_string()));
        if self.repo.is_bare() {
            return refuse("a bare repository has no working tree to split");
        }
        self.no_operation_in_progress()?;
        let Some(head) = self.head_commit()? else {
            return refuse("the repository has no commit yet: make the first one, then try again");
        };
        let index = self.repo.index()?;
        if index.has_conflicts() {
            return refuse("the index has conflicts; resolve them before splitting");
        }
        let tree = head.tree()?;
        let mut opts = diff_options();
        if !staged {
            opts.include_untracked(true)
                .recurse_untracked_dirs(true)
                .show_untracked_content(true);
        }
        let mut diff = if staged {
            self.repo
                .diff_tree_to_index(Some(&tree), None, Some(&mut opts))?
        } else {
            self.repo
                .diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts))?
        };
        let mut find = DiffFindOptions::new();
        find.renames(true).for_untracked(!staged);
        diff.find_similar(Some(&mut find))?;
        let staged_entries: HashMap<Vec<u8>, IndexEntry> = if staged {
            index.iter().map(|e| (e.path.clone(), e)).collect()
        } else {
            HashMap::new()
        };
        self.change_of_diff(Some(&tree), &diff, staged, staged_entries, head.id())
    }

    /// A commit's own change to split (in a jj workspace, where the change is a commit):
    /// against its first parent, or against nothing for a root; both sides read from the
    /// repository's objects, nothing written.
    pub fn split_change_of(&self, commit: &str) -> Result<SplitChange> {
        let commit = self.resolve_commit(commit)?;
        let parent = commit.parent(0).ok();
        let parent_tree = parent.as_ref().map(|p| p.tree()).transpose()?;
        let mut opts = diff_options();
        let mut diff = self.repo.diff_tree_to_tree(
            parent_tree.as_ref(),
            Some(&commit.tree()?),
            Some(&mut opts),
        )?;
        diff.find_similar(Some(DiffFindOptions::new().renames(true)))?;
        // The new side of each file, as the index would hold it.
        let entries = diff
            .deltas()
            .filter(|d| d.status() != Delta::Deleted)
            .filter_map(|d| {
                let file = d.new_file();
                let path = file.path_bytes()?;
                let entry = index_entry(&lossy(path), file.id(), u32::from(file.mode()));
                Some((path.to_vec(), entry))
            })
            .collect();
        let base = parent.map_or(commit.id(), |p| p.id());
        self.change_of_diff(parent_tree.as_ref(), &diff, true, entries, base)
    }

    /// The change `diff` makes from `tree` as units and sides; the new side of a file is
    /// `staged_entries`' blob when `staged`, else the working tree's file.
    fn change_of_diff(
        &self,
        tree: Option<&git2::Tree<'_>>,
        diff: &git2::Diff<'_>,
        staged: bool,
        mut staged_entries: HashMap<Vec<u8>, IndexEntry>,
        head: Oid,
    ) -> Result<SplitChange> {
        let refuse = |why: &str| Err(GitError::Unsupported(why.to_string()));
        let root = self.root();
        let mut files = Vec::new();
        let mut sides = Vec::new();
        for (i, delta) in diff.deltas().enumerate() {
            if matches!(
                delta.status(),
                Delta::Unmodified | Delta::Ignored | Delta::Unreadable
            ) {
                continue;
            }
            // Paths are written back into the index and the saved state as text.
            for side in [delta.old_file(), delta.new_file()] {
                if let Some(raw) = side.path_bytes()
                    && std::str::from_utf8(raw).is_err()
                {
                    return refuse(&format!(
                        "{} is not a UTF-8 file name, which a split cannot rewrite; commit it \
                         on its own first",
                        lossy(raw)
                    ));
                }
            }
            if !staged && let Some(driver) = self.filter_driver(delta.new_file().path())? {
                return refuse(&format!(
                    "{} goes through the `{driver}` filter (.gitattributes), which a split of \
                     the working tree cannot run: stage the change with git add, then `iris \
                     split --staged`",
                    lossy(delta.new_file().path_bytes().unwrap_or_default())
                ));
            }
            let old_path = (delta.status() != Delta::Added && delta.status() != Delta::Untracked)
                .then(|| delta.old_file().path_bytes().map(lossy))
                .flatten();
            let new_path = (delta.status() != Delta::Deleted)
                .then(|| delta.new_file().path_bytes().map(lossy))
                .flatten();
            let file = self.file_diff(diff, i, &old_path, &new_path)?;
            let staged_entry = new_path
                .as_ref()
                .and_then(|p| staged_entries.remove(p.as_bytes()));
            let cut = if let Some((path, tree)) = new_path
                .as_deref()
                .filter(|_| whole_why(&file).is_none())
                .zip(tree)
            {
                let head_entry = entry_of(tree, path)?;
                let old = self.repo.find_blob(head_entry.id)?.content().to_vec();
                let new = match &staged_entry {
                    Some(entry) => self.repo.find_blob(entry.id)?.content().to_vec(),
                    None => {
                        let id = self.repo.blob_path(&root.join(path))?;
                        self.repo.find_blob(id)?.content().to_vec()
                    }
                };
                let spans: Vec<Span> = file.hunks.iter().map(Span::from).collect();
                // Hunks that do not give the new side back whole are not cut.
                (compose(&old, &new, &spans, |_| true).as_deref() == Some(&new[..])).then_some(
                    Cut {
                        head_entry,
                        old,
                        new,
                        spans,
                    },
                )
            } else {
                None
            };
            files.push(file);
            sides.push(Sides {
                old_path,
                new_path,
                cut,
                staged_entry,
            });
        }
        let units = units(&files, |i| sides[i].cut.is_none());
        Ok(SplitChange {
            staged,
            files,
            units,
            sides,
            head,
        })
    }

    /// The clean/smudge driver `.gitattributes` names for `path` (`filter=lfs`), if any:
    /// libgit2 runs none, so content read here would skip it.
    fn filter_driver(&self, path: Option<&std::path::Path>) -> Result<Option<String>> {
        let Some(path) = path else {
            return Ok(None);
        };
        let value = self
            .repo
            .get_attr(path, "filter", git2::AttrCheckFlags::FILE_THEN_INDEX)?;
        // Set without a value, or unset with `-filter`, libgit2 answers with an internal marker.
        Ok(value
            .filter(|v| !v.is_empty() && !v.starts_with("[internal]"))
            .map(str::to_string))
    }

    /// Delta `i` of `diff` as one parsed file (a file the patch text does not describe
    /// becomes one without hunks, which moves whole).
    fn file_diff(
        &self,
        diff: &git2::Diff<'_>,
        i: usize,
        old_path: &Option<String>,
        new_path: &Option<String>,
    ) -> Result<FileDiff> {
        let text = match Patch::from_diff(diff, i)? {
            Some(mut patch) => String::from_utf8_lossy(&patch.to_buf()?).into_owned(),
            None => String::new(),
        };
        let parsed = parse_unified_diff(&text).into_iter().next();
        Ok(parsed.unwrap_or_else(|| {
            let kind = match (old_path, new_path) {
                (None, _) => ChangeKind::Added,
                (_, None) => ChangeKind::Deleted,
                (Some(a), Some(b)) if a != b => ChangeKind::Renamed,
                _ => ChangeKind::Modified,
            };
            FileDiff {
                path: new_path
                    .clone()
                    .or_else(|| old_path.clone())
                    .unwrap_or_default(),
                old_path: (kind == ChangeKind::Renamed)
                    .then(|| old_path.clone())
                    .flatten(),
                kind,
                binary: false,
                large: None,
                hunks: Vec::new(),
                additions: 0,
                deletions: 0,
                old_mode: None,
                new_mode: None,
            }
        }))
    }
}

/// How a split diffs a change: blobs up to the patch layer's size, submodules left alone,
/// a file turned into a link (or back) as a change of its own.
fn diff_options() -> DiffOptions {
    let mut opts = DiffOptions::new();
    opts.max_size(super::patch::MAX_DIFF_BLOB_BYTES as i64)
        .ignore_submodules(true)
        .include_typechange(true);
    opts
}

/// HEAD's entry for `path`, as an index entry.
fn entry_of(tree: &git2::Tree<'_>, path: &str) -> Result<IndexEntry> {
    let entry = tree.get_path(std::path::Path::new(path))?;
    Ok(index_entry(path, entry.id(), entry.filemode() as u32))
}

/// An index entry with no stat data (git refreshes it).
fn index_entry(path: &str, id: Oid, mode: u32) -> IndexEntry {
    IndexEntry {
        ctime: git2::IndexTime::new(0, 0),
        mtime: git2::IndexTime::new(0, 0),
        dev: 0,
        ino: 0,
        mode,
        uid: 0,
        gid: 0,
        file_size: 0,
        id,
        flags: 0,
        flags_extended: 0,
        path: path.as_bytes().to_vec(),
    }
}

#[cfg(test)]
mod tests;
