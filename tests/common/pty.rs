//! A program in a pseudo-terminal, its screen read through a vt100 emulator: for the studio's
//! pty test and the start-up benchmark.
#![cfg(target_os = "linux")]

use std::ffi::CStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A pseudo-terminal pair of `cols` x `rows`: (master, slave).
pub fn open_pty(cols: u16, rows: u16) -> (OwnedFd, OwnedFd) {
    // SAFETY: plain libc calls on descriptors this function owns; each result is checked.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
        assert!(
            master >= 0,
            "posix_openpt: {}",
            std::io::Error::last_os_error()
        );
        let master = OwnedFd::from_raw_fd(master);
        assert_eq!(libc::grantpt(master.as_raw_fd()), 0, "grantpt");
        assert_eq!(libc::unlockpt(master.as_raw_fd()), 0, "unlockpt");
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(
            libc::ptsname_r(master.as_raw_fd(), name.as_mut_ptr(), name.len()),
            0,
            "ptsname_r"
        );
        let slave = libc::open(
            CStr::from_ptr(name.as_ptr()).as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        assert!(
            slave >= 0,
            "open slave: {}",
            std::io::Error::last_os_error()
        );
        let slave = OwnedFd::from_raw_fd(slave);
        let size = libc::winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        assert_eq!(
            libc::ioctl(master.as_raw_fd(), libc::TIOCSWINSZ, &size),
            0,
            "TIOCSWINSZ"
        );
        (master, slave)
    }
}

/// Everything a program wrote, and the screen it makes.
struct Output {
    bytes: Vec<u8>,
    parser: vt100::Parser,
    /// The program's side of the terminal is closed (it exited).
    closed: bool,
}

/// A program running in a pseudo-terminal; killed when dropped if still running.
pub struct PtyProgram {
    pub child: Child,
    pub started: Instant,
    /// The terminal's master side (on Linux it reports the program's terminal settings).
    pub master: OwnedFd,
    input: File,
    output: Arc<Mutex<Output>>,
}

impl PtyProgram {
    /// Runs `command` (its program, args, directory and environment already set) on a new
    /// `cols` x `rows` terminal that becomes its controlling terminal.
    pub fn spawn(mut command: Command, cols: u16, rows: u16) -> PtyProgram {
        let (master, slave) = open_pty(cols, rows);
        command
            .stdin(Stdio::from(slave.try_clone().expect("dup slave")))
            .stdout(Stdio::from(slave.try_clone().expect("dup slave")))
            .stderr(Stdio::from(slave));
        // SAFETY: only async-signal-safe calls between fork and exec: a new session whose
        // controlling terminal is the pseudo-terminal on stdin.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let started = Instant::now();
        let child = command.spawn().expect("spawn in a pseudo-terminal");
        // The parent's copies of the slave are closed with `command`, so the master reads end
        // of file (EIO) when the program exits.
        drop(command);
        let mut reader = File::from(master.try_clone().expect("dup master"));
        let input = File::from(master.try_clone().expect("dup master"));
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a terminal has a size");
        let output = Arc::new(Mutex::new(Output {
            bytes: Vec::new(),
            parser: vt100::Parser::new(size(rows), size(cols), 0),
            closed: false,
        }));
        let sink = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 65536];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                let mut out = sink.lock().unwrap_or_else(|e| e.into_inner());
                out.bytes.extend_from_slice(&buffer[..n]);
                out.parser.process(&buffer[..n]);
            }
            sink.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        });
        PtyProgram {
            child,
            started,
            master,
            input,
            output,
        }
    }

    /// The screen's text now.
    pub fn text(&self) -> String {
        self.screen(|screen| screen.contents())
    }

    /// `look` at the screen now.
    pub fn screen<R>(&self, look: impl FnOnce(&vt100::Screen) -> R) -> R {
        let out = self.output.lock().unwrap_or_else(|e| e.into_inner());
        look(out.parser.screen())
    }

    /// Whether the program's side of the terminal is closed.
    pub fn closed(&self) -> bool {
        self.output.lock().unwrap_or_else(|e| e.into_inner()).closed
    }

    /// Everything written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.output
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .bytes
            .clone()
    }

    /// Time since the start when `ready` first held for the screen, polling every millisecond;
    /// None if it did not within `timeout`.
    pub fn wait_for(&self, timeout: Duration, ready: impl Fn(&str) -> bool) -> Option<Duration> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if ready(&self.text()) {
                return Some(self.started.elapsed());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        None
    }

    /// Waits until the program has exited and everything it wrote has been read (its side of
    /// the terminal closed, so the screen is whole); `None` if that takes over `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        self.wait_for(timeout, |_| self.closed())?;
        self.child.wait().ok()
    }

    pub fn send(&mut self, bytes: &[u8]) {
        let _ = self.input.write_all(bytes);
        let _ = self.input.flush();
    }

    /// The program's resident memory and the anonymous part of it (its heap and stacks, not
    /// the binary's mapped pages), in KiB, from /proc.
    pub fn memory_kb(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| {
                    l.strip_prefix(name)?
                        .trim()
                        .strip_suffix("kB")?
                        .trim()
                        .parse()
                        .ok()
                })
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("RssAnon:"))
    }

    /// User plus system CPU time the program has used so far (from /proc).
    pub fn cpu_time(&self) -> Duration {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the parenthesised name; utime and stime are the 14th and 15th fields.
        let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 = [11, 12]
            .iter()
            .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
            .sum();
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
        Duration::from_millis(ticks * 1000 / per_second)
    }
}

impl Drop for PtyProgram {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
