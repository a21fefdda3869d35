//! Runs a forge tool (the effect at the edge): found on PATH, in the repository, stdin piped,
//! prompts off, within a deadline after which its whole process group is killed.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::commands::Invocation;
use super::{Forge, PublishError};
use iris_studio_process::{self as process, DRAIN_GRACE};

/// Longest a forge tool may run (it talks to the network).
pub(crate) const TOOL_TIMEOUT: Duration = Duration::from_secs(120);
/// What is kept of a tool's output: its stdout, and the tail of its stderr for an error.
const STDOUT_BYTES: usize = 1 << 20;
const STDERR_LINES: usize = 8;
const STDERR_CHARS: usize = 800;

/// Where and how the forge tools run: the repository, the PATH they are looked up on, the
/// deadline. The public functions use the process' own PATH; tests give their own.
#[derive(Debug, Clone)]
pub(crate) struct Runner {
    pub dir: PathBuf,
    pub path: OsString,
    pub timeout: Duration,
}

impl Runner {
    /// Runs in `dir` with this process' PATH and the usual deadline.
    pub fn in_repo(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            path: std::env::var_os("PATH").unwrap_or_default(),
            timeout: TOOL_TIMEOUT,
        }
    }

    /// The forge's tool on PATH, or an error naming it and where to get it.
    pub fn require(&self, forge: Forge) -> Result<PathBuf, PublishError> {
        process::find_on_path(forge.cli(), &self.path).ok_or_else(|| {
            PublishError(format!(
                "`{}` (the {} CLI) is not installed or not on PATH: {}",
                forge.cli(),
                forge.name(),
                forge.install_hint()
            ))
        })
    }

    /// Runs `invocation` and returns its stdout; a failure carries the tail of its stderr.
    pub fn run(&self, forge: Forge, invocation: &Invocation) -> Result<String, PublishError> {
        let program = self.require(forge)?;
        #[allow(clippy::disallowed_methods)] // found by find_on_path, run to a deadline below
        let mut command = Command::new(&program);
        command
            .args(&invocation.args)
            .current_dir(&self.dir)
            .env("PATH", &self.path)
            // Never a prompt, a colour code or an update notice: nobody is there to answer.
            .env("GH_PROMPT_DISABLED", "1")
            .env("GLAB_NO_PROMPT", "1")
            .env("GH_NO_UPDATE_NOTIFIER", "1")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = process::in_own_group(&mut command).spawn().map_err(|e| {
            PublishError(format!(
                "could not run {} ({}): {e}",
                invocation.what,
                program.display()
            ))
        })?;
        let stdin = child.stdin.take();
        let input = invocation.stdin.clone().unwrap_or_default();
        std::thread::spawn(move || {
            if let Some(mut stdin) = stdin {
                // A tool that does not read its stdin closes the pipe: not our error.
                let _ = stdin.write_all(input.as_bytes());
            }
        });
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());

        let status = process::wait_or_kill(&mut child, self.timeout)
            .map_err(|e| PublishError(format!("could not wait for {}: {e}", invocation.what)))?;
        let out = stdout.recv_timeout(DRAIN_GRACE).unwrap_or_default();
        let err = stderr.recv_timeout(DRAIN_GRACE).unwrap_or_default();
        let out = String::from_utf8_lossy(&out).into_owned();
        match status {
            None => Err(PublishError(format!(
                "{} did not finish within {} s and was stopped",
                invocation.what,
                self.timeout.as_secs_f32()
            ))),
            Some(status) if status.success() => Ok(out),
            Some(status) => {
                let code = status
                    .code()
                    .map_or_else(|| "a signal".to_string(), |c| c.to_string());
                let said = tail(&String::from_utf8_lossy(&err))
                    .or_else(|| tail(&out))
                    .map(|t| format!(": {t}"))
                    .unwrap_or_default();
                Err(PublishError(format!(
                    "{} failed (exit {code}){said}",
                    invocation.what
                )))
            }
        }
    }
}

/// Reads a pipe to its end on a thread (at most STDOUT_BYTES kept); the bytes arrive on the
/// channel.
fn drain(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        if let Some(mut pipe) = pipe {
            let mut chunk = [0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                let room = STDOUT_BYTES.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&chunk[..room]);
            }
        }
        let _ = send.send(kept);
    });
    receive
}

/// The last lines of what a tool said, bounded, on one line; None when it said nothing.
fn tail(text: &str) -> Option<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let start = lines.len().saturating_sub(STDERR_LINES);
    let joined = lines[start..].join(" / ");
    if joined.is_empty() {
        return None;
    }
    let count = joined.chars().count();
    Some(if count > STDERR_CHARS {
        let skip = count - STDERR_CHARS;
        format!("...{}", joined.chars().skip(skip).collect::<String>())
    } else {
        joined
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_within_bounds() {
        assert_eq!(tail("\n\n"), None);
        assert_eq!(
            tail("warning: x\n\nGraphQL: Not Found\n").as_deref(),
            Some("warning: x / GraphQL: Not Found")
        );
        let many: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let kept = tail(&many).unwrap_or_default();
        assert!(
            kept.starts_with("line 13 /") && kept.ends_with("line 20"),
            "{kept}"
        );
        let long = "x".repeat(5000);
        let kept = tail(&long).unwrap_or_default();
        assert_eq!(kept.chars().count(), STDERR_CHARS + 3);
    }
}
