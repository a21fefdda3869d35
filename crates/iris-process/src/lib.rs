//! `iris-process`: child processes that may start their own (git, linters, gh, glab): found
//! only where PATH names a real directory, started in a group of their own, and waited for until a deadline
//! that stops everything they started, not only them.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// The tests start programs to run them; the code starts none itself.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often a running child is asked whether it has ended.
const POLL: Duration = Duration::from_millis(10);

/// How long the readers of a stopped child's output may take to hand over what they have.
pub const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// The executable `name` in the first directory of `path` that has it. Relative entries (`.`,
/// an empty one) are skipped: the child runs inside the repository, which must not be able
/// to supply its own program.
///
/// On Windows a program's file has an extension: `name` is looked for under each name
/// [`windows_candidates`] gives for the PATHEXT variable (`claude` finds `claude.cmd`).
pub fn find_on_path(name: &str, path: &OsStr) -> Option<PathBuf> {
    #[cfg(windows)]
    let names = windows_candidates(name, std::env::var("PATHEXT").ok().as_deref());
    #[cfg(not(windows))]
    let names = [name];
    std::env::split_paths(path)
        .filter(|dir| dir.is_absolute())
        .find_map(|dir| {
            names
                .iter()
                .map(|name| dir.join(name))
                .find(|candidate| is_executable(candidate))
        })
}

/// The extensions Windows runs a program by when PATHEXT is unset or empty.
pub const DEFAULT_PATHEXT: &str = ".COM;.EXE;.BAT;.CMD";

/// The file names Windows would run for the command `name`, in order, given the PATHEXT
/// variable (`None`: unset): `name` itself when it already ends with one of its extensions
/// (`git.exe`), else `name` with each extension appended (`claude` → `claude.COM`,
/// `claude.EXE`, ...; Windows' file names ignore case). Pure, so it is tested everywhere.
pub fn windows_candidates(name: &str, pathext: Option<&str>) -> Vec<String> {
    let pathext = pathext
        .filter(|p| !p.trim().is_empty())
        .unwrap_or(DEFAULT_PATHEXT);
    let extensions: Vec<&str> = pathext
        .split(';')
        .map(str::trim)
        .filter(|ext| ext.len() > 1 && ext.starts_with('.'))
        .collect();
    let lower = name.to_ascii_lowercase();
    if extensions
        .iter()
        .any(|ext| lower.ends_with(&ext.to_ascii_lowercase()))
    {
        return vec![name.to_string()];
    }
    extensions
        .iter()
        .map(|ext| format!("{name}{ext}"))
        .collect()
}

/// The shell a user's command line runs in (`sh`), found as [`find_on_path`] finds programs,
/// else `/bin/sh`: never one the repository supplies.
pub fn shell() -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|path| find_on_path("sh", &path))
        .unwrap_or_else(|| PathBuf::from("/bin/sh"))
}

/// Whether `path` is a file its owner, group or anyone may run.
#[cfg(unix)]
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether `path` is a file (where no mode says whether it runs).
#[cfg(not(unix))]
pub fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// Windows' `CREATE_NEW_PROCESS_GROUP` process creation flag: the child leads a process group
/// of its own (for `creation_flags`, on std's and tokio's `Command`).
#[cfg(windows)]
pub const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;

/// Starts the child `command` makes in a process group of its own, so [`wait_or_kill`] can
/// stop whatever it starts too (on Windows: `CREATE_NEW_PROCESS_GROUP`; its tree is killed).
pub fn in_own_group(command: &mut Command) -> &mut Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        command.creation_flags(CREATE_NEW_PROCESS_GROUP);
    }
    command
}

/// Has the child `command` makes killed when the thread that starts it ends (Linux), as a
/// killed or hung-up Iris ends. A child in a group of its own is out of the terminal's
/// foreground group, so closing the terminal no longer stops it; without this it would run on
/// to its deadline, an orphan. Only for a child waited for on the thread that starts it.
fn ends_with_caller(command: &mut Command) -> &mut Command {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Signal, set_parent_process_death_signal};
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the forked child before exec and only makes a system
        // call, which allocates nothing and takes no lock.
        unsafe {
            command.pre_exec(|| {
                set_parent_process_death_signal(Some(Signal::KILL)).map_err(std::io::Error::from)
            });
        }
    }
    command
}

/// Waits for `child` until `timeout`: its exit status, or `None` when the deadline came
/// first. Either way its process group is killed afterwards (after a timeout that stops it;
/// after an exit, anything it left running, which could hold its pipes open), and it is
/// reaped. A failure to wait kills the group too.
pub fn wait_or_kill(child: &mut Child, timeout: Duration) -> std::io::Result<Option<ExitStatus>> {
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => break None,
            Ok(None) => std::thread::sleep(POLL),
            Err(e) => {
                kill_group(child);
                return Err(e);
            }
        }
    };
    kill_group(child);
    let _ = child.wait();
    Ok(status)
}

/// What a child run by [`output_or_kill`] left: how it ended and all it printed.
#[derive(Debug)]
pub struct Captured {
    /// Its exit status; `None` when the deadline came first and its group was killed.
    pub status: Option<ExitStatus>,
    /// Its standard output (until the deadline, when it was stopped).
    pub stdout: Vec<u8>,
    /// Its standard error (until the deadline, when it was stopped).
    pub stderr: Vec<u8>,
}

/// Runs `command` in a process group of its own ([`in_own_group`]) until `timeout`, as
/// [`wait_or_kill`] waits: `input` on its standard input (none: stdin is null), its stdout and
/// stderr captured. The pipes are written and read on threads, so a child that prints more
/// than a pipe holds, or prints before it reads, never blocks the wait.
pub fn output_or_kill(
    command: &mut Command,
    input: Option<&[u8]>,
    timeout: Duration,
) -> std::io::Result<Captured> {
    let deadline = Instant::now() + timeout;
    let mut child = spawn_fed(ends_with_caller(in_own_group(command)), input)?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    // Its output ends when it does (unless something it started holds the pipe): waiting on
    // the output is woken at once, where polling its status alone waits a poll's length.
    let left = || deadline.saturating_duration_since(Instant::now());
    let mut ended = |pipe: &mpsc::Receiver<Vec<u8>>| {
        while !left().is_zero() {
            match pipe.recv_timeout(left().min(POLL)) {
                Ok(bytes) => return Some(bytes),
                Err(mpsc::RecvTimeoutError::Timeout) if matches!(child.try_wait(), Ok(None)) => {}
                Err(_) => return None,
            }
        }
        None
    };
    let out = ended(&stdout);
    let err = out.as_ref().and_then(|_| ended(&stderr));
    let status = wait_or_kill(&mut child, left())?;
    // The group is gone; only a process that left it could still hold a pipe open.
    Ok(Captured {
        status,
        stdout: out.unwrap_or_else(|| stdout.recv_timeout(DRAIN_GRACE).unwrap_or_default()),
        stderr: err.unwrap_or_else(|| stderr.recv_timeout(DRAIN_GRACE).unwrap_or_default()),
    })
}

/// Starts `command` with its stdout and stderr piped, and `input` written to its standard
/// input on a thread (none: stdin is null), so a child that prints before it reads all of it
/// never blocks; the caller reads the output.
pub fn spawn_fed(command: &mut Command, input: Option<&[u8]>) -> std::io::Result<Child> {
    command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn()?;
    if let (Some(input), Some(mut pipe)) = (input, child.stdin.take()) {
        let input = input.to_vec();
        // A child that ends without reading closes the pipe: its status says why.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    Ok(child)
}

/// Reads `pipe` to its end on a thread; the bytes arrive on the channel.
fn drain(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        let _ = send.send(bytes);
    });
    receive
}

/// Kills `child` and the process group it leads (it was started by [`in_own_group`]).
#[cfg(unix)]
pub fn kill_group(child: &mut Child) {
    use rustix::process::{Pid, Signal, kill_process_group};
    // The group's id is the child's pid; an empty group is no error here.
    let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    let _ = child.kill();
}

/// Kills `child` and the processes it started (Windows: its process tree, [`kill_tree`]).
#[cfg(not(unix))]
pub fn kill_group(child: &mut Child) {
    #[cfg(windows)]
    kill_tree(child.id());
    let _ = child.kill();
}

/// Kills the process group led by `pid` (a child started in a group of its own, such as a
/// tokio child with `process_group(0)`, or on Windows `CREATE_NEW_PROCESS_GROUP`: its tree);
/// nothing where groups are not known.
pub fn kill_group_of(pid: u32) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal, kill_process_group};
        if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    #[cfg(windows)]
    kill_tree(pid);
    #[cfg(not(any(unix, windows)))]
    let _ = pid;
}

/// Kills the process `pid` and every process it started, as Windows knows them (its tree by
/// parent id): `taskkill /T /F /PID pid`, the taskkill of the system directory, never one
/// found on PATH. A process whose parent has already ended is no longer in the tree.
#[cfg(windows)]
fn kill_tree(pid: u32) {
    let system = std::env::var_os("SystemRoot").unwrap_or_else(|| "C:\\Windows".into());
    let taskkill = Path::new(&system).join("System32").join("taskkill.exe");
    #[allow(clippy::disallowed_methods)] // the system's own taskkill, which ends promptly
    let mut command = Command::new(taskkill);
    let _ = command
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_gets_each_pathext_extension_in_order() {
        assert_eq!(
            windows_candidates("claude", Some(".COM;.EXE;.BAT;.CMD")),
            ["claude.COM", "claude.EXE", "claude.BAT", "claude.CMD"]
        );
        // Empty entries and stray spaces are skipped.
        assert_eq!(
            windows_candidates("gh", Some(" .exe;;.Cmd ;")),
            ["gh.exe", "gh.Cmd"]
        );
    }

    #[test]
    fn a_name_with_a_pathext_extension_is_taken_as_it_is() {
        assert_eq!(
            windows_candidates("git.exe", Some(".COM;.EXE")),
            ["git.exe"]
        );
        // Windows' names ignore case.
        assert_eq!(windows_candidates("RUN.Cmd", Some(".cmd")), ["RUN.Cmd"]);
        // Another extension is part of the name.
        assert_eq!(
            windows_candidates("tool.v2", Some(".EXE;.CMD")),
            ["tool.v2.EXE", "tool.v2.CMD"]
        );
    }

    #[test]
    fn no_pathext_is_windows_default() {
        let default = ["jj.COM", "jj.EXE", "jj.BAT", "jj.CMD"];
        assert_eq!(windows_candidates("jj", None), default);
        assert_eq!(windows_candidates("jj", Some("")), default);
    }

    #[cfg(unix)]
    #[test]
    fn the_shell_is_a_program_from_an_absolute_directory() {
        let sh = shell();
        assert!(sh.is_absolute() && is_executable(&sh), "{}", sh.display());
    }

    #[cfg(unix)]
    #[test]
    fn output_larger_than_a_pipe_is_read_whole_with_the_input_given() {
        // 1 MiB of output, far more than a pipe holds, after reading its input.
        let mut command = Command::new("sh");
        command.args(["-c", "cat; head -c 1048576 /dev/zero; echo done >&2"]);
        let captured =
            output_or_kill(&mut command, Some(b"in\n"), Duration::from_secs(30)).expect("run");
        assert!(captured.status.is_some_and(|s| s.success()));
        assert_eq!(captured.stdout.len(), 3 + (1 << 20));
        assert!(captured.stdout.starts_with(b"in\n"));
        assert_eq!(captured.stderr, b"done\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_child_past_its_deadline_is_stopped_with_what_it_printed() {
        let started = Instant::now();
        // The shell's own child (sleep) holds the pipes too: the whole group goes.
        let mut command = Command::new("sh");
        command.args(["-c", "echo started; sleep 30; echo never"]);
        let captured = output_or_kill(&mut command, None, Duration::from_millis(200)).expect("run");
        assert!(captured.status.is_none());
        assert_eq!(captured.stdout, b"started\n");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[cfg(unix)]
    #[test]
    fn a_program_is_found_only_in_absolute_path_entries() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let tool = dir.path().join("gh");
        std::fs::write(&tool, "#!/bin/sh\n").expect("write");
        let path = std::env::join_paths([dir.path()]).expect("path");
        // Not executable yet.
        assert_eq!(find_on_path("gh", &path), None);
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        assert_eq!(find_on_path("gh", &path), Some(tool));
        assert_eq!(find_on_path("glab", &path), None);
        // The same directory named relative to the current one is not searched.
        let cwd = std::env::current_dir().expect("cwd");
        let up = "../".repeat(cwd.components().count().saturating_sub(1));
        let relative = PathBuf::from(up).join(dir.path().strip_prefix("/").expect("absolute"));
        assert!(relative.join("gh").exists(), "{}", relative.display());
        let path = std::env::join_paths([relative.as_path(), Path::new("")]).expect("path");
        assert_eq!(find_on_path("gh", &path), None);
    }
}
