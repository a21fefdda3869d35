//! Benchmark: `iris tool git_diff '{"detail":"summary"}'` against `git diff --cached --numstat`.
//!
//! Generates a repository of 20,000 tracked files, stages changes touching 200, 2,000 and
//! 20,000 of them (50 changed lines each), and prints for each: the median wall time of both
//! commands (measured interleaved in the same run), their ratio, the peak memory of each
//! process, and the size of our summary against the full unified diff.
//! Run: `cargo bench --bench git_diff` (it builds the release binary). Prints; asserts nothing.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const TRACKED_FILES: usize = 20_000;
const FUNCTIONS_PER_FILE: usize = 20;
const RUNS: usize = 5;

fn main() {
    let iris = env!("CARGO_BIN_EXE_iris");
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path();
    let started = Instant::now();
    generate(repo);
    println!(
        "generated {TRACKED_FILES} tracked files in {:.1}s\n",
        started.elapsed().as_secs_f64()
    );
    println!(
        "{:>8} {:>9} {:>10} {:>10} {:>6} {:>10} {:>10} {:>11} {:>11} {:>7}",
        "changed",
        "lines",
        "git ms",
        "iris ms",
        "ratio",
        "git MB",
        "iris MB",
        "full diff",
        "summary",
        "share"
    );
    for changed in [200, 2_000, 20_000] {
        stage_changes(repo, changed);
        let lines = numstat_lines(repo);
        let full_diff = run(repo, "git", &["diff", "--cached"]).stdout.len();
        let mut git_times = Vec::new();
        let mut iris_times = Vec::new();
        let (mut git_rss, mut iris_rss, mut summary) = (0, 0, 0);
        for _ in 0..RUNS {
            let git = measured(repo, "git", &["diff", "--cached", "--numstat"]);
            let ours = measured(repo, iris, &["tool", "git_diff", r#"{"detail":"summary"}"#]);
            git_times.push(git.elapsed);
            iris_times.push(ours.elapsed);
            git_rss = git_rss.max(git.max_rss_kb);
            iris_rss = iris_rss.max(ours.max_rss_kb);
            summary = ours.stdout_len;
        }
        let (g, i) = (median(&mut git_times), median(&mut iris_times));
        println!(
            "{changed:>8} {lines:>9} {:>10.1} {:>10.1} {:>6.2} {:>10.1} {:>10.1} {:>11} {:>11} {:>6.2}%",
            ms(g),
            ms(i),
            i.as_secs_f64() / g.as_secs_f64(),
            git_rss as f64 / 1024.0,
            iris_rss as f64 / 1024.0,
            full_diff,
            summary,
            100.0 * summary as f64 / full_diff as f64
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Source files in 200 directories, with some docs and config among them, committed once.
fn generate(repo: &Path) {
    run(repo, "git", &["init", "-q", "-b", "main"]);
    for i in 0..TRACKED_FILES {
        let path = repo.join(file_path(i));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, content(i, false)).expect("write");
    }
    run(repo, "git", &["add", "-A"]);
    run(repo, "git", &["commit", "-q", "-m", "Generated base"]);
}

fn file_path(i: usize) -> String {
    let dir = format!("src/area_{:03}", i % 200);
    match i % 20 {
        0 => format!("docs/area_{:03}/notes_{i}.md", i % 200),
        1 => format!("{dir}/settings_{i}.toml"),
        2 => format!("tests/area_{:03}/test_{i}.rs", i % 200),
        _ => format!("{dir}/module_{i}.rs"),
    }
}

/// 20 small functions; the changed version rewrites every body and adds a function,
/// 50 changed lines in all.
fn content(i: usize, changed: bool) -> String {
    let mut out = format!("//! Module {i}.\n\n");
    for j in 0..FUNCTIONS_PER_FILE {
        let body = if changed {
            format!("x * {j} + {i}")
        } else {
            format!("x + {j}")
        };
        let _ = write!(out, "pub fn f_{i}_{j}(x: u64) -> u64 {{\n    {body}\n}}\n");
    }
    if changed {
        out.push_str("\npub fn added(x: u64) -> u64 {\n    let y = x + 1;\n    let z = y * 2;\n    let w = z - 3;\n    let v = w / 4;\n    let u = v % 5;\n    let t = u + 6;\n    t\n}\n");
    }
    out
}

/// Resets to the base commit, then rewrites `count` files spread evenly over the tree and stages them.
fn stage_changes(repo: &Path, count: usize) {
    run(repo, "git", &["reset", "-q", "--hard"]);
    let step = TRACKED_FILES / count;
    for i in (0..TRACKED_FILES).step_by(step).take(count) {
        std::fs::write(repo.join(file_path(i)), content(i, true)).expect("write");
    }
    run(repo, "git", &["add", "-A"]);
}

fn numstat_lines(repo: &Path) -> usize {
    let out = run(repo, "git", &["diff", "--cached", "--numstat"]);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            let a: usize = f.next()?.parse().ok()?;
            let d: usize = f.next()?.parse().ok()?;
            Some(a + d)
        })
        .sum()
}

fn run(repo: &Path, program: &str, args: &[&str]) -> std::process::Output {
    let out = Command::new(program)
        .args(args)
        .current_dir(repo)
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

struct Measured {
    elapsed: Duration,
    max_rss_kb: i64,
    stdout_len: usize,
}

/// Runs a command with stdout to a pipe we drain, and reads its peak resident memory from
/// the kernel's accounting of the waited-for child (`wait4`).
#[allow(clippy::zombie_processes)] // reaped by wait4 below, which std's Child cannot see
fn measured(repo: &Path, program: &str, args: &[&str]) -> Measured {
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
