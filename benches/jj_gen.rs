//! Benchmark: `iris gen --dry-run` in a jj workspace beside a git repository with the same
//! change (issue 43's figure).
//!
//! Builds one history of 40 commits and a change of 6 files (about 240 changed lines) three
//! times: a git repository with the change staged, a colocated jj workspace and a
//! non-colocated one with the change in `@` (both made with `jj git init`). Runs the release
//! binary's `iris gen --dry-run` (the evidence gathered and the first request built, nothing
//! sent) interleaved, and prints min / median / max wall time of the whole process and each
//! jj workspace's median against git's. In jj, Iris asks jj for `@` (which snapshots the
//! working copy) and reads the commit from jj's git store. Asserts nothing about time.
//! Run: `cargo bench --bench jj_gen` (it needs `jj` on PATH).

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/measure.rs"]
mod measure;
use common::Iris;
use measure::{median, ms};

use std::time::{Duration, Instant};

use common::TestRepo;

const RUNS: usize = 25;
const HISTORY: usize = 40;
const FILES: usize = 6;

fn main() {
    let git = TestRepo::new();
    let colocated = TestRepo::jj_workspace(true);
    let separate = TestRepo::jj_workspace(false);
    for (repo, jj) in [(&git, false), (&colocated, true), (&separate, true)] {
        history(repo, jj);
        change(repo);
    }
    git.git(&["add", "-A"]);
    println!(
        "{HISTORY} commits of history, a change of {FILES} files; {RUNS} interleaved runs of \
         each, after one warm-up\n"
    );
    let cases: [(&str, &TestRepo); 3] = [
        ("git (staged)", &git),
        ("jj colocated (@)", &colocated),
        ("jj non-colocated (@)", &separate),
    ];
    for (_, repo) in cases {
        dry_run(repo);
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); cases.len()];
    for _ in 0..RUNS {
        for (i, (_, repo)) in cases.iter().enumerate() {
            times[i].push(dry_run(repo));
        }
    }
    println!(
        "{:<24} {:>8} {:>10} {:>8} {:>9}",
        "repository", "min ms", "median ms", "max ms", "vs git"
    );
    let git_median = median(&mut times[0]);
    for ((name, _), runs) in cases.iter().zip(&mut times) {
        // `median` sorts the runs: the first and last are the min and max.
        let mid = median(runs);
        println!(
            "{name:<24} {:>8.1} {:>10.1} {:>8.1} {:>8.2}x",
            ms(runs[0]),
            ms(mid),
            ms(runs[runs.len() - 1]),
            mid.as_secs_f64() / git_median.as_secs_f64()
        );
    }
}

/// `HISTORY` commits of one file each, through git or jj.
fn history(repo: &TestRepo, jj: bool) {
    for n in 0..HISTORY {
        repo.write(
            &format!("src/history/h{n:02}.rs"),
            format!("pub fn h{n}() -> u32 {{\n    {n}\n}}\n"),
        );
        let message = format!("Add h{n}()");
        if jj {
            repo.jj(&["commit", "-m", &message]);
        } else {
            repo.commit_all(&message);
        }
    }
}

/// The change: `FILES` new modules of eight small functions each.
fn change(repo: &TestRepo) {
    for f in 0..FILES {
        let body: String = (0..8)
            .map(|i| {
                format!("pub fn f{f}_{i}(x: u32) -> u32 {{\n    // step {i}\n    x + {i}\n}}\n\n")
            })
            .collect();
        repo.write(&format!("src/shapes/s{f}.rs"), body);
    }
}

/// One `iris gen --dry-run`: its wall time (the run must succeed).
fn dry_run(repo: &TestRepo) -> Duration {
    let env = [("IRIS_PROVIDER", "openai"), ("OPENAI_API_KEY", "sk-bench")];
    let started = Instant::now();
    let out = repo.iris_env(&["gen", "--dry-run"], &env, "");
    let wall = started.elapsed();
    assert!(
        out.status.success(),
        "iris gen --dry-run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    wall
}
