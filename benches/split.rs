//! Benchmark: `iris split --apply --yes` on a 40-hunk change, the whole process, against the
//! fake provider answering at once.
//!
//! Each run builds a fresh repository (not timed): 8 files of 200 lines, 5 changed places in
//! each far enough apart to be 5 hunks (40 in all), and a plan of 5 commits that each take
//! one hunk of every file (so every commit writes all 8 files, built from their hunks byte for
//! byte). Times, in the same runs: planning only (`iris split --json`), then planning and
//! applying (`--apply --yes`, 5 `git commit`s). Prints min / median / max and what applying
//! adds. Asserts the commits are made; nothing about time.
//! Run: `cargo bench --bench split` (it builds the release binary).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::TestRepo;
use common::agent::openai_env;
use common::fake_provider::{FakeProvider, Step};
use serde_json::json;

const RUNS: usize = 10;
const FILES: usize = 8;
const HUNKS_PER_FILE: usize = 5;
const LINES: usize = 200;

fn main() {
    println!(
        "{FILES} files x {HUNKS_PER_FILE} hunks = {} hunks, a plan of {HUNKS_PER_FILE} commits; \
         {RUNS} runs of each, after one warm-up\n",
        FILES * HUNKS_PER_FILE
    );
    run(&["split", "--json"]);
    run(&["split", "--apply", "--yes"]);
    let mut plan_only = Vec::new();
    let mut applied = Vec::new();
    for _ in 0..RUNS {
        plan_only.push(run(&["split", "--json"]));
        applied.push(run(&["split", "--apply", "--yes"]));
    }
    println!(
        "{:<24} {:>9} {:>9} {:>9}",
        "scenario", "min ms", "median ms", "max ms"
    );
    report("plan (--json)", &mut plan_only);
    report("plan + apply", &mut applied);
    let added = median(&applied).saturating_sub(median(&plan_only));
    println!(
        "\napplying the {HUNKS_PER_FILE} commits adds {:.1} ms to the median ({:.1} ms a commit)",
        ms(added),
        ms(added) / HUNKS_PER_FILE as f64
    );
}

/// One fresh repository and one timed `iris ARGS` on it.
fn run(args: &[&str]) -> Duration {
    let repo = tangled();
    let fake = FakeProvider::start(vec![Step::text(plan())]);
    let env = openai_env(&fake);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let started = Instant::now();
    let out = common::Iris::iris_env(&repo, args, &env, "");
    let wall = started.elapsed();
    assert!(
        out.status.success(),
        "iris {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let commits = repo.git(&["rev-list", "--count", "HEAD"]);
    let expected = if args.contains(&"--apply") {
        1 + HUNKS_PER_FILE
    } else {
        1
    };
    assert_eq!(commits.trim(), expected.to_string());
    if args.contains(&"--apply") {
        assert_eq!(repo.git(&["status", "--porcelain"]), "");
    }
    wall
}

/// Every file's lines 10, 50, 90, 130 and 170 changed.
fn tangled() -> TestRepo {
    let repo = TestRepo::new();
    let text = |changed: bool, file: usize| {
        (1..=LINES)
            .map(|i| {
                if changed && i % 40 == 10 {
                    format!("line {i} of file {file}, changed\n")
                } else {
                    format!("line {i} of file {file}\n")
                }
            })
            .collect::<String>()
    };
    for file in 0..FILES {
        repo.write(&format!("src/f{file}.txt"), text(false, file));
    }
    repo.commit_all("base");
    for file in 0..FILES {
        repo.write(&format!("src/f{file}.txt"), text(true, file));
    }
    repo
}

/// Commit k takes hunk k of every file (files are h1-h5, h6-h10, ...).
fn plan() -> String {
    let groups: Vec<_> = (0..HUNKS_PER_FILE)
        .map(|k| {
            let hunks: Vec<String> = (0..FILES)
                .map(|file| format!("h{}", file * HUNKS_PER_FILE + k + 1))
                .collect();
            json!({"message": format!("Change line {} of every file", 10 + 40 * k),
                   "hunks": hunks, "reason": "The same edit."})
        })
        .collect();
    json!({ "groups": groups }).to_string()
}

fn report(name: &str, runs: &mut [Duration]) {
    runs.sort();
    println!(
        "{name:<24} {:>9.1} {:>9.1} {:>9.1}",
        ms(runs[0]),
        ms(median(runs)),
        ms(runs[runs.len() - 1])
    );
}

fn median(runs: &[Duration]) -> Duration {
    let mut sorted = runs.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
