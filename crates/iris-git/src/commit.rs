//! Committing through `git commit` itself, so hooks (pre-commit, commit-msg,
//! prepare-commit-msg) and signing behave exactly as they do for the user.

use std::io::Write;
use std::process::{Command, Stdio};

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
    /// Returns git's own summary line.
    pub fn commit(&self, message: &str, options: CommitOptions) -> Result<String> {
        let mut command = Command::new("git");
        command
            .arg("-C")
            .arg(self.root())
            .args(["commit", "--cleanup=strip", "-F", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if options.amend {
            command.arg("--amend");
        }
        if options.no_verify {
            command.arg("--no-verify");
        }
        let mut child = command
            .spawn()
            .map_err(|e| GitError::Unsupported(format!("could not run git commit: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            let message = iris_core::controls::strip(message);
            stdin.write_all(message.as_bytes()).map_err(|e| {
                GitError::Unsupported(format!("could not pass the message to git: {e}"))
            })?;
        }
        let output = child
            .wait_with_output()
            .map_err(|e| GitError::Unsupported(format!("git commit did not finish: {e}")))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            let said = format!("{}\n{}", stdout.trim(), stderr.trim());
            return Err(GitError::Unsupported(format!(
                "git commit failed (the message was not lost): {}",
                said.trim()
            )));
        }
        Ok(stdout.lines().next().unwrap_or_default().to_string())
    }
}
