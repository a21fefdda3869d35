//! Where a jj workspace is and where its git store lives.

use std::path::{Path, PathBuf};

use crate::{GitError, Result};

/// A jj workspace: its root (the folder holding `.jj`) and how its git store sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JjWorkspace {
    /// The workspace's root, where jj's working copy is.
    pub root: PathBuf,
    /// Whether a `.git` beside `.jj` is the store (`jj git init`'s default since jj 0.3x):
    /// git's command line works there too.
    pub colocated: bool,
}

/// The jj workspace holding `start` and its git store's directory, when a `.jj` folder is
/// met walking up before a `.git`. `GIT_DIR` set (a git hook's environment) means git's.
pub(crate) fn find(start: &Path) -> Result<Option<(JjWorkspace, PathBuf)>> {
    if std::env::var_os("GIT_DIR").is_some_and(|v| !v.is_empty()) {
        return Ok(None);
    }
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    for dir in start.ancestors() {
        let dot_jj = dir.join(".jj");
        if dot_jj.is_dir() {
            let git_dir = git_store(&dot_jj)?;
            let colocated = same_dir(&git_dir, &dir.join(".git"));
            let workspace = JjWorkspace {
                root: dir.to_path_buf(),
                colocated,
            };
            return Ok(Some((workspace, git_dir)));
        }
        if dir.join(".git").exists() {
            return Ok(None);
        }
    }
    Ok(None)
}

/// The git directory a `.jj` folder's store keeps its commits in: `.jj/repo` (a folder, or
/// in a secondary workspace a file naming it), then `store/git_target` (a path from the
/// store's folder).
fn git_store(dot_jj: &Path) -> Result<PathBuf> {
    let unreadable = |what: &Path, e: std::io::Error| GitError::Io {
        context: format!("reading jj's {}", what.display()),
        source: e,
    };
    let repo_entry = dot_jj.join("repo");
    let repo = if repo_entry.is_file() {
        let named = std::fs::read_to_string(&repo_entry).map_err(|e| unreadable(&repo_entry, e))?;
        dot_jj.join(named.trim())
    } else {
        repo_entry
    };
    let target_file = repo.join("store").join("git_target");
    let target = match std::fs::read_to_string(&target_file) {
        Ok(target) => target,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(GitError::Unsupported(format!(
                "the jj repository at {} does not keep its commits in git (no {}); Iris reads \
                 jj repositories backed by git, as `jj git init` makes them",
                dot_jj.parent().unwrap_or(dot_jj).display(),
                target_file.display()
            )));
        }
        Err(e) => return Err(unreadable(&target_file, e)),
    };
    Ok(repo.join("store").join(target.trim()))
}

/// Whether two paths name the same folder (either may not exist).
fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(root: &Path, target: &str) {
        std::fs::create_dir_all(root.join(".jj/repo/store")).unwrap();
        std::fs::write(root.join(".jj/repo/store/git_target"), target).unwrap();
    }

    #[test]
    fn a_jj_folder_is_found_walking_up_and_its_store_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        store(&root, "git");
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        let (workspace, git_dir) = find(&root.join("src/deep")).unwrap().unwrap();
        assert_eq!(workspace.root, root);
        assert!(!workspace.colocated);
        assert_eq!(git_dir, root.join(".jj/repo/store/git"));
    }

    #[test]
    fn a_store_beside_the_workspace_is_colocated() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        store(&root, "../../../.git");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let (workspace, _) = find(&root).unwrap().unwrap();
        assert!(workspace.colocated);
    }

    #[test]
    fn a_git_repository_met_first_is_git_s_and_a_secondary_workspace_follows_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        store(&root, "git");
        std::fs::create_dir_all(root.join(".jj/repo/store/git")).unwrap();
        std::fs::create_dir_all(root.join("vendor/lib/.git")).unwrap();
        assert_eq!(find(&root.join("vendor/lib")).unwrap(), None);
        // `jj workspace add`: `.jj/repo` is a file naming the main workspace's repo.
        std::fs::create_dir_all(root.join("second/.jj")).unwrap();
        std::fs::write(root.join("second/.jj/repo"), "../../.jj/repo").unwrap();
        let (workspace, git_dir) = find(&root.join("second")).unwrap().unwrap();
        assert_eq!(workspace.root, root.join("second"));
        assert!(same_dir(&git_dir, &root.join(".jj/repo/store/git")));
    }

    #[test]
    fn a_store_that_is_not_git_is_said() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".jj/repo/store")).unwrap();
        let err = find(dir.path()).unwrap_err().to_string();
        assert!(err.contains("does not keep its commits in git"), "{err}");
    }
}
