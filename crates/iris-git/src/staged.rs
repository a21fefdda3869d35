//! The staged changes (HEAD's tree against the index) found as git finds them: the index read
//! directly, and every directory its cache tree vouches for, unchanged since HEAD, skipped
//! without reading its tree. On a large repository this is several times quicker than
//! libgit2's walk of every entry; whatever the direct reader does not handle (see
//! `index_file`), and changes that may hold renames, go to libgit2.

use std::collections::HashMap;

use git2::{Delta, ObjectType, Oid, Repository};

use super::index_file::{self, CacheTree, Entry, IndexFile};
use super::patch::FileChange;
use super::{GitRepo, Result};

const TREE_MODE: u32 = 0o040000;

impl GitRepo {
    /// The staged changes in path order, or `None` when libgit2 must find them.
    pub(super) fn staged_changes(&self) -> Result<Option<Vec<FileChange>>> {
        // An index named by the environment (a hook's) is libgit2's to read.
        if std::env::var_os("GIT_INDEX_FILE").is_some_and(|v| !v.is_empty()) {
            return Ok(None);
        }
        // The reader knows SHA-1 ids only.
        if self.repo.object_format() != git2::ObjectFormat::Sha1 {
            return Ok(None);
        }
        let Some(bytes) = index_file::Bytes::map(&self.repo.path().join("index")) else {
            return Ok(None);
        };
        let Some(index) = index_file::parse(bytes) else {
            return Ok(None);
        };
        let head = self.head_tree()?.map(|tree| tree.id());
        let mut changes = Vec::new();
        let dir = Dir {
            prefix: Vec::new(),
            head,
            entries: &index.entries,
            cache: index.tree.as_ref(),
        };
        let index = &index;
        compare(&self.repo, index, dir, &mut changes)?;
        // A file deleted and another added may be a rename: libgit2 measures similarity.
        let added = changes.iter().any(|c| c.status() == Delta::Added);
        let deleted = changes.iter().any(|c| c.status() == Delta::Deleted);
        if added && deleted {
            return Ok(None);
        }
        changes.sort_by(|a, b| path_of(a).cmp(path_of(b)));
        Ok(Some(changes))
    }
}

fn path_of(change: &FileChange) -> &[u8] {
    let (old, new) = change.paths();
    new.or(old).unwrap_or_default()
}

/// One directory: its path with a trailing `/` (empty at the root), HEAD's tree of it, the
/// index entries under it and its node of the cache tree.
struct Dir<'a> {
    prefix: Vec<u8>,
    head: Option<Oid>,
    entries: &'a [Entry],
    cache: Option<&'a CacheTree>,
}

/// What HEAD's tree holds at one name.
struct HeadEntry {
    id: Oid,
    mode: u32,
    seen: bool,
}

fn compare(
    repo: &Repository,
    index: &IndexFile,
    dir: Dir<'_>,
    out: &mut Vec<FileChange>,
) -> Result<()> {
    if let (Some(head), Some(cache)) = (dir.head, dir.cache)
        && cache.id == Some(head)
    {
        return Ok(());
    }
    let mut head: HashMap<Vec<u8>, HeadEntry> = HashMap::new();
    if let Some(id) = dir.head {
        for entry in repo.find_tree(id)?.iter() {
            let mode = u32::try_from(entry.filemode()).unwrap_or_default();
            head.insert(
                entry.name_bytes().to_vec(),
                HeadEntry {
                    id: entry.id(),
                    mode,
                    seen: false,
                },
            );
        }
    }
    let mut i = 0;
    while let Some(entry) = dir.entries.get(i) {
        let path = index.path(entry);
        let rest = &path[dir.prefix.len()..];
        match rest.iter().position(|&b| b == b'/') {
            None => {
                i += 1;
                let old = head.get_mut(rest).map(|h| {
                    h.seen = true;
                    (h.id, h.mode)
                });
                file_change(repo, path, old, Some((index.id(entry), entry.mode)), out)?;
            }
            Some(slash) => {
                let name = &rest[..slash];
                let mut prefix = path[..dir.prefix.len() + slash + 1].to_vec();
                let end = i + dir.entries[i..]
                    .iter()
                    .take_while(|e| index.path(e).starts_with(&prefix))
                    .count();
                let old = head.get_mut(name).map(|h| {
                    h.seen = true;
                    (h.id, h.mode)
                });
                let subtree = match old {
                    Some((id, TREE_MODE)) => Some(id),
                    Some((id, mode)) => {
                        // A file became a directory.
                        prefix.pop();
                        file_change(repo, &prefix, Some((id, mode)), None, out)?;
                        prefix.push(b'/');
                        None
                    }
                    None => None,
                };
                let sub = Dir {
                    prefix,
                    head: subtree,
                    entries: &dir.entries[i..end],
                    cache: dir.cache.and_then(|c| c.child(name)),
                };
                compare(repo, index, sub, out)?;
                i = end;
            }
        }
    }
    for (name, h) in head.into_iter().filter(|(_, h)| !h.seen) {
        let mut path = dir.prefix.clone();
        path.extend_from_slice(&name);
        file_change(repo, &path, Some((h.id, h.mode)), None, out)?;
    }
    Ok(())
}

/// The change at `path` from `old` to `new` (id and mode), a whole tree on either side read
/// as its files.
fn file_change(
    repo: &Repository,
    path: &[u8],
    old: Option<(Oid, u32)>,
    new: Option<(Oid, u32)>,
    out: &mut Vec<FileChange>,
) -> Result<()> {
    let side = |s: Option<(Oid, u32)>| s.map(|(id, mode)| (path, id, mode));
    match (old, new) {
        (Some((id, TREE_MODE)), new) => {
            // A directory became a file (or went): its files are deleted.
            deleted_tree(repo, path, id, out)?;
            if new.is_some() {
                out.push(FileChange::stored(Delta::Added, None, side(new)));
            }
        }
        (Some(o), Some(n)) if o != n => {
            let status = if kind(o.1) == kind(n.1) {
                Delta::Modified
            } else {
                Delta::Typechange
            };
            out.push(FileChange::stored(status, side(old), side(new)));
        }
        (Some(_), Some(_)) => {}
        (None, Some(_)) => out.push(FileChange::stored(Delta::Added, None, side(new))),
        (Some(_), None) => out.push(FileChange::stored(Delta::Deleted, side(old), None)),
        (None, None) => {}
    }
    Ok(())
}

fn deleted_tree(repo: &Repository, path: &[u8], id: Oid, out: &mut Vec<FileChange>) -> Result<()> {
    for entry in repo.find_tree(id)?.iter() {
        let mut child = path.to_vec();
        child.push(b'/');
        child.extend_from_slice(entry.name_bytes());
        let mode = u32::try_from(entry.filemode()).unwrap_or_default();
        if entry.kind() == Some(ObjectType::Tree) {
            deleted_tree(repo, &child, entry.id(), out)?;
        } else {
            out.push(FileChange::stored(
                Delta::Deleted,
                Some((&child, entry.id(), mode)),
                None,
            ));
        }
    }
    Ok(())
}

/// A regular file (any permission), a link or a submodule.
fn kind(mode: u32) -> u32 {
    mode & 0o170000
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DiffTarget;
    use iris_studio_testkit::TestRepo;

    fn libgit2(repo: &GitRepo) -> Vec<String> {
        let diff = repo.diff(&DiffTarget::Staged, &[]).expect("diff");
        diff.deltas()
            .map(|d| FileChange::from_delta(&d).describe())
            .collect()
    }

    /// The direct reading's changes, checked against libgit2's; `None` when it declined.
    fn direct(test: &TestRepo) -> Option<Vec<String>> {
        let repo = GitRepo::discover(&test.path()).expect("repository");
        let fast = repo.staged_changes().expect("staged changes")?;
        let fast: Vec<String> = fast.iter().map(FileChange::describe).collect();
        assert_eq!(fast, libgit2(&repo));
        Some(fast)
    }

    fn base() -> TestRepo {
        let repo = TestRepo::new();
        for (path, text) in [
            ("README.md", "# demo\n"),
            ("a.txt", "a\n"),
            ("a/b.txt", "b\n"),
            ("a/c/d.txt", "d\n"),
            ("src/lib.rs", "pub fn one() {}\n"),
            ("src/deep/x.rs", "x\n"),
            ("src/deep/y.rs", "y\n"),
            ("docs/guide.md", "guide\n"),
            ("dir with space/é.txt", "accent\n"),
            ("run.sh", "echo hi\n"),
        ] {
            repo.write(path, text);
        }
        repo.commit_all("base");
        repo
    }

    #[test]
    fn modifications_deep_and_shallow_skip_the_directories_the_cache_tree_vouches_for() {
        let repo = base();
        assert_eq!(direct(&repo), Some(vec![]), "nothing staged");
        repo.write("src/deep/x.rs", "x changed\n");
        repo.write("a.txt", "a changed\n");
        repo.write("dir with space/é.txt", "changed\n");
        repo.git(&["add", "-A"]);
        let changes = direct(&repo).expect("read directly");
        assert_eq!(changes.len(), 3);
    }

    #[test]
    fn the_cache_tree_is_read_with_the_entries() {
        let repo = base();
        let bytes = std::fs::read(repo.path().join(".git/index")).expect("index");
        let index = index_file::parse(bytes).expect("a plain index");
        assert_eq!(index.entries.len(), 10);
        let head = repo.git(&["rev-parse", "HEAD^{tree}"]);
        let tree = index
            .tree
            .as_ref()
            .expect("git writes a cache tree on commit");
        assert_eq!(
            tree.id.map(|id| id.to_string()),
            Some(head.trim().to_owned())
        );
        let src = repo.git(&["rev-parse", "HEAD:src"]);
        let cached = tree.child(b"src").and_then(|c| c.id);
        assert_eq!(cached.map(|id| id.to_string()), Some(src.trim().to_owned()));
        let paths: Vec<&[u8]> = index.entries.iter().map(|e| index.path(e)).collect();
        assert!(paths.contains(&"dir with space/é.txt".as_bytes()));
        // Staging a file invalidates its directories, not the others.
        repo.write("src/deep/x.rs", "x changed\n");
        repo.git(&["add", "src/deep/x.rs"]);
        let bytes = std::fs::read(repo.path().join(".git/index")).expect("index");
        let tree = index_file::parse(bytes)
            .and_then(|i| i.tree)
            .expect("cache tree");
        assert_eq!(tree.id, None);
        assert_eq!(tree.child(b"src").and_then(|c| c.id), None);
        assert!(tree.child(b"docs").and_then(|c| c.id).is_some());
    }

    #[test]
    fn additions_deletions_modes_links_and_submodules() {
        let repo = base();
        repo.write("src/deep/new.rs", "new\n");
        repo.write("brand/new/file.txt", "new\n");
        repo.git(&["add", "-A"]);
        assert_eq!(direct(&repo).map(|c| c.len()), Some(2), "added only");
        repo.commit_all("more");

        std::fs::remove_file(repo.path().join("a/c/d.txt")).expect("rm");
        std::fs::remove_dir_all(repo.path().join("docs")).expect("rm");
        repo.git(&["add", "-A"]);
        assert_eq!(direct(&repo).map(|c| c.len()), Some(2), "deleted only");
        repo.commit_all("fewer");

        use std::os::unix::fs::PermissionsExt;
        let script = repo.path().join("run.sh");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::remove_file(repo.path().join("README.md")).expect("rm");
        std::os::unix::fs::symlink("a.txt", repo.path().join("README.md")).expect("link");
        repo.git(&["add", "-A"]);
        let head = repo.git(&["rev-parse", "HEAD"]);
        repo.git(&[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{},vendor/sub", head.trim()),
        ]);
        let changes = direct(&repo).expect("read directly");
        assert_eq!(
            changes.len(),
            3,
            "a mode, a link for a file, a submodule: {changes:?}"
        );
    }

    #[test]
    fn a_type_change_and_a_mode_change_in_place() {
        let repo = base();
        repo.git(&["update-index", "--chmod=+x", "run.sh"]);
        std::fs::remove_file(repo.path().join("a.txt")).expect("rm");
        std::os::unix::fs::symlink("README.md", repo.path().join("a.txt")).expect("link");
        repo.git(&["add", "a.txt"]);
        let changes = direct(&repo).expect("read directly");
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert!(changes.iter().any(|c| c.starts_with("Typechange")));
    }

    #[test]
    fn an_unborn_branch_and_index_version_4() {
        let repo = TestRepo::new();
        repo.write("one.txt", "1\n");
        repo.write("nested/two.txt", "2\n");
        repo.git(&["add", "-A"]);
        assert_eq!(direct(&repo).map(|c| c.len()), Some(2), "all added");

        let repo = base();
        repo.git(&["update-index", "--index-version", "4"]);
        repo.write("src/deep/y.rs", "y changed\n");
        repo.write("dir with space/é.txt", "changed\n");
        repo.git(&["add", "-A"]);
        assert_eq!(direct(&repo).map(|c| c.len()), Some(2));
    }

    #[test]
    fn what_the_direct_reader_leaves_to_libgit2() {
        // A file deleted and another added: a rename, maybe.
        let repo = base();
        repo.git(&["mv", "docs/guide.md", "docs/manual.md"]);
        let git = GitRepo::discover(&repo.path()).expect("repository");
        assert!(git.staged_changes().expect("read").is_none());
        // Intent to add.
        let repo = base();
        repo.write("later.txt", "later\n");
        repo.git(&["add", "-N", "later.txt"]);
        let git = GitRepo::discover(&repo.path()).expect("repository");
        assert!(git.staged_changes().expect("read").is_none());
        // A split index.
        let repo = base();
        repo.write("a.txt", "split\n");
        repo.git(&["update-index", "--split-index"]);
        repo.git(&["add", "a.txt"]);
        let git = GitRepo::discover(&repo.path()).expect("repository");
        assert!(git.staged_changes().expect("read").is_none());
    }
}
