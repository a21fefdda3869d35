//! The one way iris-git starts git (clippy's `disallowed_methods`, in the workspace's
//! clippy.toml, keeps it so). git is found only in PATH's absolute directories
//! ([`iris_studio_process::find_on_path`]): git runs in the repository, and with `.` or an empty
//! entry in PATH a repository could otherwise supply its own `git`.
//!
//! Two kinds of launch, both with stdout and stderr captured and stdin null unless input is
//! given:
//! - [`Git::plumbing`]: git reading or writing its own data (status, rev-parse, var, log,
//!   a sparse index's expansion, a promisor fetch). In a process group of its own, stopped
//!   with everything it started at a deadline; never prompting (`GIT_TERMINAL_PROMPT=0`).
//! - [`Git::foreground`]: git running what the user set up (hooks, clean and smudge filters,
//!   signing, a credential helper) or changing the user's branch, index or working tree
//!   (commit, rebase, add, checkout). It stays in the terminal's process group, so Ctrl-C
//!   reaches it and a pinentry or a prompt can use the terminal, and gets no deadline:
//!   stopping it half-way would leave a lock file or half an operation behind.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Duration;

use crate::{GitError, Result};

/// How long a plumbing command may run: each reads what it needs of one repository.
pub(crate) const PLUMBING_DEADLINE: Duration = Duration::from_secs(60);

/// How long a plumbing command that looks at every file of the working tree may run (status,
/// a sparse index's refresh): minutes on a cold cache of a very large checkout.
pub(crate) const WHOLE_TREE_DEADLINE: Duration = Duration::from_secs(300);

/// Global options of git's that take a value (before the subcommand).
const GLOBAL_WITH_VALUE: &[&str] = &["-C", "-c", "--git-dir", "--work-tree", "--namespace"];

/// A git command line about to run; see the module's documentation for the two kinds.
#[derive(Debug)]
pub(crate) struct Git {
    command: Command,
    /// `None` for a foreground command.
    deadline: Option<Duration>,
    /// The subcommand (the first argument that is no global option), for messages.
    name: Option<String>,
    /// The last argument was a global option that takes a value.
    value_next: bool,
}

/// What a git command ended with and printed.
#[derive(Debug)]
pub(crate) struct Ran {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Ran {
    pub fn success(&self) -> bool {
        self.status.success()
    }

    pub fn stdout(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.stdout)
    }

    pub fn stderr(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.stderr)
    }
}

impl Git {
    /// git plumbing, stopped at [`PLUMBING_DEADLINE`] unless [`Git::deadline`] says otherwise.
    pub fn plumbing() -> Result<Self> {
        Self::on_path(&path(), Some(PLUMBING_DEADLINE))
    }

    /// git that runs the user's own programs or changes their work: no deadline, the terminal's.
    pub fn foreground() -> Result<Self> {
        Self::on_path(&path(), None)
    }

    fn on_path(path: &OsStr, deadline: Option<Duration>) -> Result<Self> {
        let program =
            iris_studio_process::find_on_path("git", path).ok_or(GitError::GitNotFound)?;
        #[allow(clippy::disallowed_methods)] // the launcher itself
        let mut command = Command::new(program);
        if deadline.is_some() {
            // It is not in the terminal's foreground group, where a prompt would only stop it.
            command.env("GIT_TERMINAL_PROMPT", "0");
        }
        Ok(Self {
            command,
            deadline,
            name: None,
            value_next: false,
        })
    }

    /// A plumbing command's own deadline.
    pub fn deadline(&mut self, deadline: Duration) -> &mut Self {
        debug_assert!(self.deadline.is_some(), "a foreground git has no deadline");
        self.deadline = self.deadline.map(|_| deadline);
        self
    }

    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Self {
        let arg = arg.as_ref();
        if self.name.is_none() && !std::mem::take(&mut self.value_next) {
            let text = arg.to_string_lossy();
            if GLOBAL_WITH_VALUE.contains(&text.as_ref()) {
                self.value_next = true;
            } else if !text.starts_with('-') {
                self.name = Some(text.into_owned());
            }
        }
        self.command.arg(arg);
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(&mut self, args: I) -> &mut Self {
        for arg in args {
            self.arg(arg);
        }
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Self {
        self.command.env(key, value);
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Self {
        self.command.env_remove(key);
        self
    }

    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.command.current_dir(dir);
        self
    }

    /// Runs git to its end (or its deadline) with stdin null.
    pub fn output(&mut self) -> Result<Ran> {
        self.run(None)
    }

    /// Runs git to its end (or its deadline) with `input` on its stdin.
    pub fn output_with(&mut self, input: &[u8]) -> Result<Ran> {
        self.run(Some(input))
    }

    fn run(&mut self, input: Option<&[u8]>) -> Result<Ran> {
        let what = format!("git {}", self.name.as_deref().unwrap_or_default());
        let failed = |source| GitError::Io {
            context: format!("running `{what}`"),
            source,
        };
        let Some(deadline) = self.deadline else {
            return foreground(&mut self.command, input).map_err(failed);
        };
        let captured = iris_studio_process::output_or_kill(&mut self.command, input, deadline)
            .map_err(failed)?;
        let status = captured.status.ok_or(GitError::TimedOut {
            command: what.clone(),
            seconds: deadline.as_secs_f32(),
        })?;
        Ok(Ran {
            status,
            stdout: captured.stdout,
            stderr: captured.stderr,
        })
    }
}

/// The git Iris runs (found as every launch finds it) and what `git --version` says
/// (`git version 2.47.3`), asked within `deadline`.
pub fn git_version(deadline: Duration) -> Result<(PathBuf, String)> {
    let mut git = Git::plumbing()?;
    let program = PathBuf::from(git.command.get_program());
    let ran = git.deadline(deadline).arg("--version").output()?;
    if !ran.success() {
        return Err(GitError::Unsupported(format!(
            "`git --version` failed: {}",
            ran.stderr().trim()
        )));
    }
    Ok((program, ran.stdout().trim().to_string()))
}

fn path() -> OsString {
    std::env::var_os("PATH").unwrap_or_default()
}

/// A child in this process' own group, waited for with no deadline.
fn foreground(command: &mut Command, input: Option<&[u8]>) -> std::io::Result<Ran> {
    let output = iris_studio_process::spawn_fed(command, input)?.wait_with_output()?;
    Ok(Ran {
        status: output.status,
        stdout: output.stdout,
        stderr: output.stderr,
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A directory holding an executable `git` that runs `body`.
    fn fake_git(body: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        iris_studio_testkit::write_executable(
            &dir.path().join("git"),
            &format!("#!/bin/sh\n{body}\n"),
        );
        dir
    }

    #[test]
    fn git_is_found_only_in_absolute_path_entries() {
        let dir = fake_git("echo fake");
        // The directory named relatively, as `.` names it from inside.
        let cwd = std::env::current_dir().unwrap();
        let up = "../".repeat(cwd.components().count().saturating_sub(1));
        let relative = Path::new(&up).join(dir.path().strip_prefix("/").unwrap());
        assert!(relative.join("git").exists());
        for path in [relative.as_os_str(), OsStr::new("")] {
            assert!(
                matches!(Git::on_path(path, None), Err(GitError::GitNotFound)),
                "{path:?}"
            );
        }
        let path = std::env::join_paths([relative.as_path(), dir.path()]).unwrap();
        let ran = Git::on_path(&path, Some(PLUMBING_DEADLINE))
            .unwrap()
            .output()
            .unwrap();
        assert_eq!(ran.stdout(), "fake\n");
        let error = Git::on_path(OsStr::new(""), None).unwrap_err().to_string();
        assert!(error.contains("git is not installed"), "{error}");
    }

    #[test]
    fn plumbing_that_hangs_is_stopped_at_its_deadline() {
        let dir = fake_git("echo started; sleep 30");
        let started = std::time::Instant::now();
        let error = Git::on_path(dir.path().as_os_str(), Some(PLUMBING_DEADLINE))
            .unwrap()
            .deadline(Duration::from_millis(200))
            .args(["-C", "/", "status", "--porcelain"])
            .output()
            .unwrap_err();
        assert!(
            matches!(&error, GitError::TimedOut { command, .. } if command == "git status"),
            "{error}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(
            error.to_string(),
            "`git status` did not finish within 0.2 s and was stopped"
        );
    }

    #[test]
    fn input_reaches_git_and_its_output_comes_back_whole() {
        // More output than a pipe holds, in both kinds.
        let dir = fake_git("cat; head -c 1048576 /dev/zero; echo said >&2; exit 3");
        for deadline in [None, Some(PLUMBING_DEADLINE)] {
            let ran = Git::on_path(dir.path().as_os_str(), deadline)
                .unwrap()
                .output_with(b"message\n")
                .unwrap();
            assert_eq!(ran.status.code(), Some(3));
            assert_eq!(ran.stdout.len(), 8 + (1 << 20));
            assert!(ran.stdout.starts_with(b"message\n"));
            assert_eq!(ran.stderr(), "said\n");
        }
    }

    #[test]
    fn the_subcommand_is_named_past_the_global_options() {
        let mut git = Git::on_path(&path(), None).unwrap();
        git.args(["-C", "/r", "--no-optional-locks", "-c", "a=b"])
            .args(["status", "-z"]);
        assert_eq!(git.name.as_deref(), Some("status"));
    }
}
