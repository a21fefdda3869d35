//! Committing through `git commit` itself, so hooks (pre-commit, commit-msg,
//! prepare-commit-msg) and signing behave exactly as they do for the user.

use super::git_command::Git;
use super::{GitError, GitRepo, Result};

/// How [`GitRepo::commit`] runs `git commit`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CommitOptions {
    /// Replace the last commit instead of adding one (`--amend`).
    pub amend: bool,
    /// Skip the pre-commit and commit-msg hooks (`--no-verify`).
    pub no_verify: bool,
}

impl GitRepo {
    /// Commits what is staged with `message`, without its control characters (a message
    /// carries no escape sequence into the log). Runs with no terminal input (a hook that asks
    /// for input gets end of file); when git or a hook fails, the error carries its output.
    /// Returns git's own summary line. In the foreground: hooks and signing are the user's.
    pub fn commit(&self, message: &str, options: CommitOptions) -> Result<String> {
        let mut git = Git::foreground()?;
        git.arg("-C")
            .arg(self.root())
            .args(["commit", "--cleanup=strip", "-F", "-"]);
        if options.amend {
            git.arg("--amend");
        }
        if options.no_verify {
            git.arg("--no-verify");
        }
        let message = iris_studio_core::controls::strip(message);
        let ran = git.output_with(message.as_bytes())?;
        let (stdout, stderr) = (ran.stdout(), ran.stderr());
        if !ran.success() {
            let said = format!("{}\n{}", stdout.trim(), stderr.trim());
            let said = said.trim().to_string();
            return Err(
                if said.contains("index.lock") && said.contains("File exists") {
                    GitError::IndexLocked(said)
                } else if !options.no_verify && !git_complained(&stderr) && self.has_commit_hooks()
                {
                    GitError::HookRefused(said)
                } else {
                    GitError::Unsupported(format!(
                        "git commit failed (the message was not lost): {said}"
                    ))
                },
            );
        }
        Ok(stdout.lines().next().unwrap_or_default().to_string())
    }

    /// Whether a hook that can refuse a commit is in place (executable where git looks).
    fn has_commit_hooks(&self) -> bool {
        let Ok(dir) = self.hooks_dir() else {
            return false;
        };
        ["pre-commit", "prepare-commit-msg", "commit-msg"]
            .iter()
            .any(|name| is_executable(&dir.join(name)))
    }
}

/// Whether git itself said why it stopped (`fatal:`, `error:`): a hook's refusal is the
/// hook's output alone.
fn git_complained(stderr: &str) -> bool {
    stderr
        .lines()
        .any(|line| line.starts_with("fatal:") || line.starts_with("error:"))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}
