//! `git status`: what is staged, unstaged, untracked, renamed and conflicted.

use git2::{Status, StatusOptions};
use serde::Serialize;

use super::git_command::{Git, WHOLE_TREE_DEADLINE};
use super::{GitRepo, HeadState, Result, lossy};
use iris_studio_core::change::ChangeKind;

/// One path of `git status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusEntry {
    /// Relative to the repository root, with `/` separators (the new path of a rename).
    pub path: String,
    /// The path before a rename (staged or unstaged).
    pub old_path: Option<String>,
    /// The change in the index against HEAD.
    pub staged: Option<ChangeKind>,
    /// The change in the working tree against the index.
    pub unstaged: Option<ChangeKind>,
    /// Neither tracked nor ignored; an untracked directory is one entry.
    pub untracked: bool,
    /// An unmerged path of a merge, rebase or other operation in progress.
    pub conflicted: bool,
}

/// The repository's state as `git status` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoStatus {
    /// Where HEAD points.
    pub head: HeadState,
    /// Every path that is changed, untracked or conflicted.
    pub entries: Vec<StatusEntry>,
    /// A merge, rebase, cherry-pick, revert or bisect in progress.
    pub operation: Option<String>,
}

impl RepoStatus {
    /// The entries with a change in the index.
    pub fn staged(&self) -> impl Iterator<Item = &StatusEntry> {
        self.entries.iter().filter(|e| e.staged.is_some())
    }
}

impl GitRepo {
    /// The status of the repository, as `git status` reports it (untracked directories
    /// collapsed, ignored files left out, renames detected). Asked of git itself when it is
    /// on PATH: it checks the working tree's files on every core and skips the directories
    /// its cache tree vouches for, twice as quick as libgit2 on a large repository, and it
    /// is the status the user sees. libgit2 answers when git cannot.
    pub fn status(&self) -> Result<RepoStatus> {
        let entries = match self.git_status_entries() {
            Some(entries) => entries,
            None => self.libgit2_status_entries()?,
        };
        Ok(RepoStatus {
            head: self.head_state()?,
            entries,
            operation: operation_name(self.repo.state()),
        })
    }

    /// `git status --porcelain=v2 -z`, read; `None` when git is missing or fails.
    fn git_status_entries(&self) -> Option<Vec<StatusEntry>> {
        let root = self.repo.workdir()?;
        let ran = Git::plumbing()
            .ok()?
            .deadline(WHOLE_TREE_DEADLINE)
            .arg("-C")
            .arg(root)
            // A status must not take the index's lock to refresh it while the user works,
            // nor start a file-system monitor the repository's config names.
            .args(["--no-optional-locks", "-c", "core.fsmonitor=false"])
            .args(["status", "--porcelain=v2", "-z"])
            .args(["--untracked-files=normal", "--ignored=no"])
            .output()
            .ok()?;
        if !ran.success() {
            return None;
        }
        let mut entries = porcelain_v2(&ran.stdout)?;
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        Some(entries)
    }

    fn libgit2_status_entries(&self) -> Result<Vec<StatusEntry>> {
        let mut opts = StatusOptions::new();
        opts.include_untracked(true)
            .recurse_untracked_dirs(false)
            .include_ignored(false)
            .renames_head_to_index(true)
            .renames_index_to_workdir(true)
            .exclude_submodules(false);
        let statuses = self.repo.statuses(Some(&mut opts))?;
        let entries = statuses
            .iter()
            .filter_map(|entry| {
                let s = entry.status();
                let staged_rename = entry.head_to_index();
                let unstaged_rename = entry.index_to_workdir();
                let rename = if s.contains(Status::INDEX_RENAMED) {
                    staged_rename
                } else if s.contains(Status::WT_RENAMED) {
                    unstaged_rename
                } else {
                    None
                };
                let old_path = rename
                    .as_ref()
                    .and_then(|d| d.old_file().path_bytes().map(lossy));
                let path = rename
                    .as_ref()
                    .and_then(|d| d.new_file().path_bytes().map(lossy))
                    .unwrap_or_else(|| lossy(entry.path_bytes()));
                let item = StatusEntry {
                    path,
                    old_path,
                    staged: index_change(s),
                    unstaged: worktree_change(s),
                    untracked: s.contains(Status::WT_NEW),
                    conflicted: s.contains(Status::CONFLICTED),
                };
                let interesting = item.staged.is_some()
                    || item.unstaged.is_some()
                    || item.untracked
                    || item.conflicted;
                interesting.then_some(item)
            })
            .collect();
        Ok(entries)
    }
}

/// The entries of `git status --porcelain=v2 -z`: changed (`1`), renamed or copied (`2`, its
/// old path in the next field), unmerged (`u`) and untracked (`?`) paths; `None` for a line
/// this reader does not know.
fn porcelain_v2(out: &[u8]) -> Option<Vec<StatusEntry>> {
    let mut fields = out.split(|&b| b == 0).filter(|f| !f.is_empty());
    let mut entries = Vec::new();
    while let Some(field) = fields.next() {
        let line = String::from_utf8_lossy(field);
        let entry = |xy: &str, path: &str, old_path: Option<String>| {
            let mut codes = xy.chars();
            let (x, y) = (codes.next()?, codes.next()?);
            Some(StatusEntry {
                path: path.to_owned(),
                old_path,
                staged: change_code(x),
                unstaged: change_code(y),
                untracked: false,
                conflicted: false,
            })
        };
        let item = match line.split_at_checked(2)? {
            ("1 ", rest) => {
                let parts: Vec<&str> = rest.splitn(8, ' ').collect();
                entry(parts.first()?, parts.get(7)?, None)?
            }
            ("2 ", rest) => {
                let parts: Vec<&str> = rest.splitn(9, ' ').collect();
                let old = fields
                    .next()
                    .map(|f| String::from_utf8_lossy(f).into_owned());
                entry(parts.first()?, parts.get(8)?, old)?
            }
            ("u ", rest) => StatusEntry {
                path: rest.splitn(10, ' ').nth(9)?.to_owned(),
                old_path: None,
                staged: None,
                unstaged: None,
                untracked: false,
                conflicted: true,
            },
            ("? ", path) => StatusEntry {
                path: path.to_owned(),
                old_path: None,
                staged: None,
                unstaged: None,
                untracked: true,
                conflicted: false,
            },
            ("! ", _) => continue,
            _ => return None,
        };
        entries.push(item);
    }
    Some(entries)
}

/// One letter of porcelain's `XY`: what changed in the index or the working tree.
fn change_code(code: char) -> Option<ChangeKind> {
    match code {
        'A' => Some(ChangeKind::Added),
        'M' => Some(ChangeKind::Modified),
        'D' => Some(ChangeKind::Deleted),
        'R' => Some(ChangeKind::Renamed),
        'C' => Some(ChangeKind::Copied),
        'T' => Some(ChangeKind::TypeChanged),
        _ => None,
    }
}

impl GitRepo {
    /// Whether one path is untracked (a single-file status, not a walk of the working tree).
    pub fn is_untracked(&self, path: &str) -> Result<bool> {
        let clean = super::check_relative_path(path)?;
        match self.repo.status_file(&clean) {
            Ok(status) => Ok(status.contains(Status::WT_NEW)),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
}

fn index_change(s: Status) -> Option<ChangeKind> {
    if s.contains(Status::INDEX_NEW) {
        Some(ChangeKind::Added)
    } else if s.contains(Status::INDEX_DELETED) {
        Some(ChangeKind::Deleted)
    } else if s.contains(Status::INDEX_RENAMED) {
        Some(ChangeKind::Renamed)
    } else if s.contains(Status::INDEX_TYPECHANGE) {
        Some(ChangeKind::TypeChanged)
    } else if s.contains(Status::INDEX_MODIFIED) {
        Some(ChangeKind::Modified)
    } else {
        None
    }
}

/// Untracked files are reported through `untracked`, not as a working-tree change.
fn worktree_change(s: Status) -> Option<ChangeKind> {
    if s.contains(Status::WT_DELETED) {
        Some(ChangeKind::Deleted)
    } else if s.contains(Status::WT_RENAMED) {
        Some(ChangeKind::Renamed)
    } else if s.contains(Status::WT_TYPECHANGE) {
        Some(ChangeKind::TypeChanged)
    } else if s.contains(Status::WT_MODIFIED) {
        Some(ChangeKind::Modified)
    } else {
        None
    }
}

fn operation_name(state: git2::RepositoryState) -> Option<String> {
    use git2::RepositoryState as S;
    let name = match state {
        S::Clean => return None,
        S::Merge => "merge",
        S::Revert | S::RevertSequence => "revert",
        S::CherryPick | S::CherryPickSequence => "cherry-pick",
        S::Bisect => "bisect",
        S::Rebase | S::RebaseInteractive | S::RebaseMerge => "rebase",
        S::ApplyMailbox | S::ApplyMailboxOrRebase => "am",
    };
    Some(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_testkit::TestRepo;

    /// Git's status and libgit2's agree, entry for entry.
    fn both(test: &TestRepo) -> Vec<StatusEntry> {
        let repo = GitRepo::discover(&test.path()).expect("repository");
        let git = repo.git_status_entries().expect("git answers");
        let mut libgit2 = repo.libgit2_status_entries().expect("libgit2 answers");
        libgit2.sort_by(|a, b| a.path.cmp(&b.path));
        assert_eq!(git, libgit2);
        git
    }

    #[test]
    fn git_and_libgit2_see_the_same_status() {
        let repo = TestRepo::new();
        for (path, text) in [
            ("a.txt", "a\n"),
            ("b.txt", "b\n"),
            ("dir/c.txt", "c\n"),
            ("dir/d.txt", "d\n"),
            ("with space/é.txt", "é\n"),
            (".gitignore", "*.log\n"),
        ] {
            repo.write(path, text);
        }
        repo.commit_all("base");
        assert!(both(&repo).is_empty());

        repo.write("a.txt", "a staged\n");
        repo.git(&["add", "a.txt"]);
        repo.write("a.txt", "a staged, then changed\n");
        repo.write("dir/c.txt", "c unstaged\n");
        std::fs::remove_file(repo.path().join("b.txt")).expect("rm");
        repo.git(&["mv", "dir/d.txt", "dir/moved.txt"]);
        repo.write("new/inside.txt", "untracked dir\n");
        repo.write("loose.txt", "untracked file\n");
        repo.write("noise.log", "ignored\n");
        repo.write("with space/é.txt", "changed\n");
        repo.git(&["add", "with space/é.txt"]);
        let entries = both(&repo);
        let find = |path: &str| entries.iter().find(|e| e.path == path).cloned();
        let a = find("a.txt").expect("a");
        assert_eq!(
            (a.staged, a.unstaged),
            (Some(ChangeKind::Modified), Some(ChangeKind::Modified))
        );
        assert_eq!(
            find("b.txt").and_then(|e| e.unstaged),
            Some(ChangeKind::Deleted)
        );
        let moved = find("dir/moved.txt").expect("renamed");
        assert_eq!(moved.old_path.as_deref(), Some("dir/d.txt"));
        assert!(find("new/").is_some_and(|e| e.untracked), "{entries:?}");
        assert!(find("loose.txt").is_some_and(|e| e.untracked));
        assert!(find("noise.log").is_none());
        assert!(find("with space/é.txt").is_some());
    }

    #[test]
    fn a_conflict_reads_the_same_both_ways() {
        let repo = TestRepo::new();
        assert!(!repo.conflicting_merge("f.txt").status.success());
        let entries = both(&repo);
        assert!(entries.iter().any(|e| e.path == "f.txt" && e.conflicted));
    }

    #[test]
    fn porcelain_v2_lines_are_read_and_strangers_refused() {
        let out = b"1 M. N... 100644 100644 100644 aaa bbb src/a file.rs\0\
                    2 R. N... 100644 100644 100644 aaa bbb R100 new name.rs\0old.rs\0\
                    ? untracked/\0! ignored.log\0";
        let entries = porcelain_v2(out).expect("read");
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0].path, "src/a file.rs");
        assert_eq!(entries[1].old_path.as_deref(), Some("old.rs"));
        assert!(entries[2].untracked);
        assert!(porcelain_v2(b"# branch.oid abc\0").is_none());
        assert!(porcelain_v2(b"").is_some_and(|e| e.is_empty()));
    }
}
