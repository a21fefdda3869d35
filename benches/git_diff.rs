//! Benchmark: `iris tool git_diff '{"detail":"summary"}'` against `git diff --cached --numstat`.
//!
//! Generates a repository of 20,000 tracked files, stages changes touching 200, 2,000 and
//! 20,000 of them (50 changed lines each), and prints for each: the median wall time of both
//! commands (measured interleaved in the same run), their ratio, the peak memory of each
//! process, and the size of our summary against the full unified diff.
//!
//! Then, at 2,000 staged files, the git layer side by side with the git command that answers
//! the same question, medians of 9 interleaved runs each: `git_diff`'s summary against
//! `git diff --cached --numstat`, `git_status` against `git status --porcelain`,
//! `git_changed_files` against `git diff --cached --name-status`, and the ratios.
//! Run: `cargo bench --bench git_diff` (it builds the release binary). Prints; asserts nothing.

#[path = "support/generated.rs"]
mod generated;
#[path = "support/measure.rs"]
mod measure;

use std::path::Path;
use std::time::Instant;

use generated::{TRACKED_FILES, generate, run, stage_changes};
use measure::{LAYER_RUNS, git_layer, measured, median, ms, print_layer};

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
    let mut layer = Vec::new();
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
        if changed == 2_000 {
            layer = git_layer(repo, iris);
        }
    }
    println!("\nthe git layer at 2,000 staged files, median of {LAYER_RUNS} interleaved runs:");
    print_layer(&layer);
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
