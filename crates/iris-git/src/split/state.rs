//! The state before a split (or an absorb), saved under `refs/iris/split/state` (or
//! `refs/iris/absorb/state`) before its first commit, and restored by `iris split --undo` (or
//! `iris absorb --undo`): the index file byte for byte, the working tree's files it touches
//! byte for byte (with their modes), and the commits it made removed when they are still on
//! top.
//!
//! The saved commit's tree holds `index` (the index file's bytes, when there was one), `staged`
//! (the index as a tree, so the objects it names are kept), `files/` (each touched path that
//! existed), `paths` (every touched path, NUL-separated) and `meta` (`head <id>` and
//! `branch <ref>` lines). `refs/iris/split/top` names the split's last commit.

use std::fs;
use std::path::Path;

use git2::{Index, Oid, Repository, Signature};

use super::{Rewrite, SplitChange};
use crate::{GitError, GitRepo, Result};

const MODE_LINK: i32 = 0o120000;
const MODE_EXEC: i32 = 0o100755;
const MODE_FILE: i32 = 0o100644;

/// What the split keeps in memory of the state it saved.
pub(super) struct Saved {
    pub index: Option<Vec<u8>>,
}

/// What an undo did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    /// What was undone.
    pub what: Rewrite,
    /// Commits of the split removed from the branch.
    pub removed: usize,
    /// Files of the working tree written back or removed.
    pub files: usize,
    /// The commit HEAD is at again.
    pub head: String,
}

impl std::fmt::Display for Undone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        if self.what == Rewrite::Absorb {
            return write!(
                f,
                "Undid the absorb: the branch is back where it was and the index as it was \
                 (the working tree was never changed); HEAD is at {}.",
                &self.head[..12.min(self.head.len())]
            );
        }
        write!(
            f,
            "Undid the {}: {} commit{} removed, {} file{} and the index restored; HEAD is at {}.",
            self.what.name(),
            self.removed,
            s(self.removed),
            self.files,
            s(self.files),
            &self.head[..12.min(self.head.len())]
        )
    }
}

impl GitRepo {
    pub(super) fn save_split_state(&self, change: &SplitChange, what: Rewrite) -> Result<Saved> {
        let repo = &self.repo;
        let mut index = repo.index()?;
        let index_path = index.path().map(Path::to_path_buf);
        let index_bytes = match &index_path {
            Some(path) if path.exists() => {
                Some(fs::read(path).map_err(|e| io("reading the index", e))?)
            }
            _ => None,
        };
        let staged_tree = index.write_tree()?;
        let root = self.root();
        let paths = change.paths();
        let mut files = Index::new_ext(repo.object_format())?;
        for path in &paths {
            if let Some((bytes, mode)) = read_worktree_file(&root.join(path))? {
                let id = repo.blob(&bytes)?;
                files.add(&super::index_entry(path, id, mode as u32))?;
            }
        }
        let files_tree = files.write_tree_to(repo)?;
        let mut tree = repo.treebuilder(None)?;
        if let Some(bytes) = &index_bytes {
            tree.insert("index", repo.blob(bytes)?, MODE_FILE)?;
        }
        tree.insert("staged", staged_tree, 0o040000)?;
        tree.insert("files", files_tree, 0o040000)?;
        tree.insert("paths", repo.blob(paths.join("\0").as_bytes())?, MODE_FILE)?;
        let head = repo.head()?;
        let branch = if head.is_branch() {
            head.name().unwrap_or("-").to_string()
        } else {
            "-".into()
        };
        let meta = format!("head {}\nbranch {branch}\n", change.head);
        tree.insert("meta", repo.blob(meta.as_bytes())?, MODE_FILE)?;
        let tree = repo.find_tree(tree.write()?)?;
        let who = Signature::now(&format!("iris {}", what.name()), "iris@localhost")?;
        let parent = repo.find_commit(change.head)?;
        let state = repo.commit(
            None,
            &who,
            &who,
            "iris: the state before",
            &tree,
            &[&parent],
        )?;
        repo.reference(
            &what.state_ref(),
            state,
            true,
            "iris: saved the state before",
        )?;
        if let Ok(mut top) = repo.find_reference(&what.top_ref()) {
            top.delete()?;
        }
        Ok(Saved { index: index_bytes })
    }

    pub(super) fn mark_split_top(&self, commit: &str, what: Rewrite) -> Result<()> {
        let id = self.oid(commit)?;
        self.repo
            .reference(&what.top_ref(), id, true, "iris: committed a group")?;
        Ok(())
    }

    /// Writes the index file back as it was (removes it when there was none).
    pub(super) fn write_index_bytes(&self, bytes: Option<&[u8]>) -> Result<()> {
        let Some(path) = self.repo.index()?.path().map(Path::to_path_buf) else {
            return Ok(());
        };
        match bytes {
            Some(bytes) => write_atomically(&path, bytes),
            None if path.exists() => {
                fs::remove_file(&path).map_err(|e| io("removing the index", e))
            }
            None => Ok(()),
        }
    }

    /// Restores the state saved before the last split: the branch back to where it was when
    /// the split's commits are still on top of it, then the index and the touched files as
    /// they were. Refused, with nothing changed, when there is nothing to undo or HEAD moved
    /// past the split's commits.
    pub fn undo_split(&self) -> Result<Undone> {
        self.undo_rewrite(Rewrite::Split)
    }

    /// Restores the state saved before the last absorb, as [`GitRepo::undo_split`] does a
    /// split's.
    pub fn undo_absorb(&self) -> Result<Undone> {
        self.undo_rewrite(Rewrite::Absorb)
    }

    fn undo_rewrite(&self, what: Rewrite) -> Result<Undone> {
        let repo = &self.repo;
        let name = what.name();
        let state = repo
            .find_reference(&what.state_ref())
            .and_then(|r| r.peel_to_commit())
            .map_err(|_| GitError::Unsupported(format!("there is no {name} to undo")))?;
        let tree = state.tree()?;
        let text = |name: &str| -> Result<Vec<u8>> {
            let entry = tree
                .get_name(name)
                .ok_or_else(|| GitError::Unsupported(format!("the saved state has no {name}")))?;
            Ok(repo.find_blob(entry.id())?.content().to_vec())
        };
        let meta = String::from_utf8_lossy(&text("meta")?).into_owned();
        let field = |key: &str| {
            meta.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ').map(str::to_string))
        };
        let before = self.oid(&field("head").unwrap_or_default())?;
        let branch = field("branch").filter(|b| b != "-");
        let head = self.head_commit()?.map(|c| c.id());
        let top = repo
            .find_reference(&what.top_ref())
            .ok()
            .and_then(|r| r.target());
        let removed = match (head, top) {
            (Some(head), _) if head == before => 0,
            (Some(head), Some(top)) if head == top => count_commits(repo, before, top)?,
            _ => {
                return Err(GitError::Unsupported(format!(
                    "HEAD moved since the {name} (it is at {}, the {name} left it at {}): undoing \
                     would remove commits the {name} did not make, so nothing was changed",
                    head.map(|h| short(&h))
                        .unwrap_or_else(|| "no commit".into()),
                    top.map(|t| short(&t)).unwrap_or_else(|| short(&before)),
                )));
            }
        };
        if removed > 0 {
            match &branch {
                Some(branch) if repo.head()?.name().ok() == Some(branch.as_str()) => {
                    repo.reference(branch, before, true, &format!("iris {name} --undo"))?;
                }
                _ => repo.set_head_detached(before)?,
            }
        }
        // An absorb never writes the working tree: what the user edited since stays.
        let files = match what {
            Rewrite::Absorb => 0,
            Rewrite::Split => self.restore_files(&tree)?,
        };
        let index = tree
            .get_name("index")
            .map(|e| repo.find_blob(e.id()))
            .transpose()?;
        self.write_index_bytes(index.as_ref().map(|b| b.content()))?;
        for refname in [what.top_ref(), what.state_ref()] {
            if let Ok(mut reference) = repo.find_reference(&refname) {
                reference.delete()?;
            }
        }
        Ok(Undone {
            what,
            removed,
            files,
            head: before.to_string(),
        })
    }

    /// Writes back each saved path (removing those that did not exist); how many.
    fn restore_files(&self, state: &git2::Tree<'_>) -> Result<usize> {
        let repo = &self.repo;
        let paths_blob = state
            .get_name("paths")
            .ok_or_else(|| GitError::Unsupported("the saved state has no paths".into()))?;
        let paths = repo.find_blob(paths_blob.id())?.content().to_vec();
        let files = match state.get_name("files") {
            Some(entry) => Some(repo.find_tree(entry.id())?),
            None => None,
        };
        let root = self.root();
        let mut count = 0;
        for raw in paths.split(|&b| b == 0).filter(|p| !p.is_empty()) {
            let path = String::from_utf8_lossy(raw).into_owned();
            crate::check_relative_path(&path)?;
            let target = root.join(&path);
            let saved = files
                .as_ref()
                .and_then(|t| t.get_path(Path::new(&path)).ok());
            remove_file_or_link(&target)?;
            if let Some(entry) = saved {
                let bytes = repo.find_blob(entry.id())?.content().to_vec();
                write_worktree_file(&target, &bytes, entry.filemode())?;
            }
            count += 1;
        }
        Ok(count)
    }
}

fn count_commits(repo: &Repository, from: Oid, to: Oid) -> Result<usize> {
    let mut walk = repo.revwalk()?;
    walk.push(to)?;
    walk.hide(from)?;
    Ok(walk.count())
}

fn short(id: &Oid) -> String {
    id.to_string()[..8].to_string()
}

fn io(context: &str, source: std::io::Error) -> GitError {
    GitError::Io {
        context: context.to_string(),
        source,
    }
}

/// A working-tree file's bytes and mode (a symlink's target as its bytes); `None` when it
/// does not exist or is not a file.
fn read_worktree_file(path: &Path) -> Result<Option<(Vec<u8>, i32)>> {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(None);
    };
    if meta.file_type().is_symlink() {
        let target = fs::read_link(path).map_err(|e| io("reading a link", e))?;
        return Ok(Some((
            target.to_string_lossy().into_owned().into_bytes(),
            MODE_LINK,
        )));
    }
    if !meta.is_file() {
        return Ok(None);
    }
    let bytes = fs::read(path).map_err(|e| io(&format!("reading {}", path.display()), e))?;
    Ok(Some((
        bytes,
        if is_executable(&meta) {
            MODE_EXEC
        } else {
            MODE_FILE
        },
    )))
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    false
}

fn remove_file_or_link(path: &Path) -> Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => Err(GitError::Unsupported(format!(
            "{} is a directory now; move it away and undo again",
            path.display()
        ))),
        Ok(_) => fs::remove_file(path).map_err(|e| io(&format!("removing {}", path.display()), e)),
        Err(_) => Ok(()),
    }
}

fn write_worktree_file(path: &Path, bytes: &[u8], mode: i32) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| io(&format!("creating {}", parent.display()), e))?;
    }
    if mode == MODE_LINK {
        #[cfg(unix)]
        {
            let target = String::from_utf8_lossy(bytes).into_owned();
            return std::os::unix::fs::symlink(target, path)
                .map_err(|e| io(&format!("linking {}", path.display()), e));
        }
    }
    fs::write(path, bytes).map_err(|e| io(&format!("writing {}", path.display()), e))?;
    #[cfg(unix)]
    if mode == MODE_EXEC {
        use std::os::unix::fs::PermissionsExt;
        let mut perms = fs::metadata(path)
            .map_err(|e| io("reading a mode", e))?
            .permissions();
        perms.set_mode(perms.mode() | 0o111);
        fs::set_permissions(path, perms).map_err(|e| io("setting a mode", e))?;
    }
    Ok(())
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(|e| io("writing the index", e))?;
    std::io::Write::write_all(&mut file, bytes).map_err(|e| io("writing the index", e))?;
    file.persist(path)
        .map_err(|e| io("writing the index", e.error))?;
    Ok(())
}
