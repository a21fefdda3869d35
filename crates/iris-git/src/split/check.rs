//! `--check`: a command run on each group's tree before it is committed, in a temporary
//! worktree of its own so the user's files are never touched.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use git2::Oid;

use crate::git_command::Git;
use crate::{GitError, GitRepo, Result};

/// Characters of a failed check's output kept for the message.
const OUTPUT_TAIL: usize = 2000;

/// A detached temporary worktree at HEAD, removed when dropped.
pub(super) struct CheckTree {
    root: PathBuf,
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl CheckTree {
    pub fn new(repo: &GitRepo) -> Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("iris-split-check-")
            .tempdir()
            .map_err(|e| GitError::Io {
                context: "creating a temporary directory".into(),
                source: e,
            })?;
        let path = dir.path().join("tree");
        let root = repo.root();
        git(
            &root,
            &["worktree", "add", "--detach", "--quiet"],
            Some(&path),
            Some("HEAD"),
        )?;
        Ok(Self {
            root,
            path,
            _dir: dir,
        })
    }

    /// Runs `command` (with `sh -c`) on `tree`'s files: `None` when it passes, else its exit
    /// status and the end of its output.
    pub fn run(&self, tree: Oid, command: &str) -> Result<Option<String>> {
        let id = tree.to_string();
        git(&self.path, &["read-tree", "-u", "--reset"], None, Some(&id))?;
        #[allow(clippy::disallowed_methods)] // the user's own check command
        let output = Command::new(iris_studio_process::shell())
            .arg("-c")
            .arg(command)
            .current_dir(&self.path)
            .env_remove("GIT_INDEX_FILE")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                GitError::Unsupported(format!("could not run the check `{command}`: {e}"))
            })?;
        if output.status.success() {
            return Ok(None);
        }
        let mut said = String::from_utf8_lossy(&output.stdout).into_owned();
        said.push_str(&String::from_utf8_lossy(&output.stderr));
        let said = iris_studio_core::controls::escape(said.trim()).into_owned();
        let start = said
            .char_indices()
            .rev()
            .nth(OUTPUT_TAIL)
            .map_or(0, |(i, _)| i);
        let status = match output.status.code() {
            Some(code) => format!("exit status {code}"),
            None => "killed by a signal".to_string(),
        };
        Ok(Some(if said.is_empty() {
            status
        } else {
            format!("{status}\n{}", &said[start..])
        }))
    }
}

impl Drop for CheckTree {
    fn drop(&mut self) {
        let path = self.path.to_string_lossy().into_owned();
        if let Ok(mut git) = Git::plumbing() {
            let _ = git
                .arg("-C")
                .arg(&self.root)
                .args(["worktree", "remove", "--force", &path])
                .output();
        }
    }
}

/// `git -C dir ARGS [path] [rev]`, its stderr in the error when it fails. In the foreground:
/// a checkout runs the user's post-checkout hook and smudge filters (Git LFS's may download).
fn git(dir: &PathBuf, args: &[&str], path: Option<&PathBuf>, rev: Option<&str>) -> Result<()> {
    let mut git = Git::foreground()?;
    git.arg("-C").arg(dir).args(args);
    if let Some(path) = path {
        git.arg(path);
    }
    if let Some(rev) = rev {
        git.arg(rev);
    }
    let ran = git.env_remove("GIT_INDEX_FILE").output()?;
    if ran.success() {
        Ok(())
    } else {
        Err(GitError::Unsupported(format!(
            "git {} failed: {}",
            args.join(" "),
            ran.stderr().trim()
        )))
    }
}
