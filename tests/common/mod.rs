//! What the end-to-end tests of the `iris` binary share: the workspace's [`TestRepo`] with
//! [`Iris`], the real binary run in it; the fake provider; scripted agent runs; a pseudo-terminal.
#![allow(dead_code)] // each test binary uses a different part of this module
#![allow(clippy::disallowed_methods)] // it runs the real binary (benchmarks include it too)

pub mod agent;
pub mod pty;

use std::path::Path;
use std::process::{Command, Output};

#[allow(unused_imports)] // each test binary uses a different part
pub use iris_studio_testkit::{
    IRIS_ENV_PREFIXES, TestRepo, fake_bin, fake_provider, path_with, secrets, stderr, stdout,
    still_runs,
};

/// The `iris` binary these tests drive.
pub const IRIS: &str = env!("CARGO_BIN_EXE_iris");

/// The real `iris` binary, run in a [`TestRepo`].
pub trait Iris {
    fn iris_in(&self, dir: &Path, args: &[&str]) -> Output;
    fn isolated_iris(&self, args: &[&str]) -> Command;
    fn iris(&self, args: &[&str]) -> Output;
    fn iris_env(&self, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output;
    fn iris_env_within(
        &self,
        args: &[&str],
        env: &[(&str, &str)],
        limit: std::time::Duration,
    ) -> Output;
    fn iris_bin_env(&self, bin: &Path, args: &[&str], env: &[(&str, &str)]) -> Output;
    fn tool(&self, name: &str, args: &str) -> String;
}

impl Iris for TestRepo {
    /// Runs the real `iris` binary in `dir` (the repository root unless a subdirectory is given).
    fn iris_in(&self, dir: &Path, args: &[&str]) -> Output {
        self.in_env(Command::new(IRIS).args(args), dir)
            .output()
            .expect("run iris")
    }

    /// `iris ARGS` in the repository with only this environment: the test's PATH, the
    /// repository's HOME, `XDG_CONFIG_HOME` and git config, an xterm's TERM and `NO_COLOR`
    /// (nothing of the developer's configures iris, git or a provider).
    fn isolated_iris(&self, args: &[&str]) -> Command {
        let mut command = Command::new(IRIS);
        command
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color");
        self.in_env(&mut command, &self.path());
        command
    }

    fn iris(&self, args: &[&str]) -> Output {
        self.iris_in(&self.path(), args)
    }

    /// `iris ARGS` in the repository with these environment variables, every other variable
    /// that configures iris unset (so the developer's own keys never reach a test), and
    /// `stdin` as its standard input.
    fn iris_env(&self, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
        let child = self.spawn_bin(Path::new(IRIS), args, env, stdin);
        child.wait_with_output().expect("wait for iris")
    }

    /// [`Iris::iris_env`] that must finish within `limit`: a run still going then is
    /// killed and the test fails saying it hung (instead of hanging the test suite).
    fn iris_env_within(
        &self,
        args: &[&str],
        env: &[(&str, &str)],
        limit: std::time::Duration,
    ) -> Output {
        use std::io::Read;
        let mut child = self.spawn_bin(Path::new(IRIS), args, env, "");
        // Drain both pipes on their own threads so a chatty child never blocks on a full pipe.
        let mut out_pipe = child.stdout.take().expect("stdout");
        let mut err_pipe = child.stderr.take().expect("stderr");
        let out_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = out_pipe.read_to_end(&mut buf);
            buf
        });
        let err_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = err_pipe.read_to_end(&mut buf);
            buf
        });
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("poll iris") {
                break status;
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                let stderr = err_reader.join().unwrap_or_default();
                panic!(
                    "iris {args:?} hung: still running after {limit:?}; stderr so far:\n{}",
                    String::from_utf8_lossy(&stderr)
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        Output {
            status,
            stdout: out_reader.join().unwrap_or_default(),
            stderr: err_reader.join().unwrap_or_default(),
        }
    }

    /// Runs another build of `iris` (a benchmark's baseline) like [`Iris::iris_env`].
    fn iris_bin_env(&self, bin: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
        self.spawn_bin(bin, args, env, "")
            .wait_with_output()
            .expect("wait for iris")
    }

    /// `iris tool NAME ARGS`, which must succeed; returns what the model would read.
    fn tool(&self, name: &str, args: &str) -> String {
        let out = self.iris(&["tool", name, args]);
        assert!(
            out.status.success(),
            "iris tool {name} {args} failed ({:?}):\nstdout: {}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}
