//! Timing a command and comparing the git layer with git: what the git_diff and footprint
//! benchmarks share.
#![allow(dead_code)] // each benchmark uses part of it
#![allow(clippy::disallowed_methods)] // it times the real git and iris

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Medians of 9 moved by a tenth between runs of the same build on this 2-core machine.
pub const LAYER_RUNS: usize = 21;

pub struct LayerRow {
    pub tool: &'static str,
    pub git: &'static [&'static str],
    pub ours: Duration,
    pub theirs: Duration,
}

/// Each tool and its git command, run in turn `LAYER_RUNS` times.
pub fn git_layer(repo: &Path, iris: &str) -> Vec<LayerRow> {
    let pairs: [(&'static str, &'static str, &'static [&'static str]); 3] = [
        (
            "git_diff",
            r#"{"detail":"summary"}"#,
            &["git", "diff", "--cached", "--numstat"],
        ),
        ("git_status", "{}", &["git", "status", "--porcelain"]),
        (
            "git_changed_files",
            "{}",
            &["git", "diff", "--cached", "--name-status"],
        ),
    ];
    let mut times: Vec<(Vec<Duration>, Vec<Duration>)> = vec![Default::default(); pairs.len()];
    for _ in 0..LAYER_RUNS {
        for ((tool, args, git), (ours, theirs)) in pairs.iter().zip(&mut times) {
            theirs.push(measured(repo, git[0], &git[1..]).elapsed);
            ours.push(measured(repo, iris, &["tool", tool, args]).elapsed);
        }
    }
    pairs
        .iter()
        .zip(times)
        .map(|((tool, _, git), (mut ours, mut theirs))| LayerRow {
            tool,
            git,
            ours: median(&mut ours),
            theirs: median(&mut theirs),
        })
        .collect()
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The git layer's table: each tool beside its git command, with the ratio.
pub fn print_layer(rows: &[LayerRow]) {
    println!(
        "{:<20} {:>8} {:<36} {:>8} {:>6}",
        "iris tool", "ms", "git", "ms", "ratio"
    );
    for row in rows {
        println!(
            "{:<20} {:>8.1} {:<36} {:>8.1} {:>6.2}",
            row.tool,
            ms(row.ours),
            row.git.join(" "),
            ms(row.theirs),
            row.ours.as_secs_f64() / row.theirs.as_secs_f64()
        );
    }
}

pub struct Measured {
    pub elapsed: Duration,
    pub max_rss_kb: i64,
    pub stdout_len: usize,
}

/// Runs a command with stdout to a pipe we drain, and reads its peak resident memory from
/// the kernel's accounting of the waited-for child (`wait4`).
#[allow(clippy::zombie_processes)] // reaped by wait4 below, which std's Child cannot see
pub fn measured(repo: &Path, program: &str, args: &[&str]) -> Measured {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(repo)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_end(&mut stdout)
        .expect("read");
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; `status` and `usage` are valid for writes.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    assert_eq!(pid, child.id() as i32, "wait4 failed");
    let status = std::process::ExitStatus::from_raw(status);
    assert!(status.success(), "{program} {args:?} failed: {status}");
    Measured {
        elapsed,
        max_rss_kb: usage.ru_maxrss,
        stdout_len: stdout.len(),
    }
}
