//! Benchmark: rewriting history's prose, the whole process.
//!
//! - `iris reword BASE..HEAD --apply --yes` over 20 commits, each replayed and written by Iris
//!   (the fake provider answering at once), then the 20 made again; and the same rewrite from
//!   a `--plan` file, which asks no model (the git side alone).
//! - `iris absorb` of a 40-hunk staged change (8 files x 5 places) into the 5 commits of the
//!   branch that last touched those places: the plan alone, then `--apply --yes` (5 fixups),
//!   then `--apply --yes --squash` (and the rebase that folds them in).
//!
//! Each run builds a fresh repository (not timed). Prints min / median / max; asserts what was
//! made, nothing about time. Run: `cargo bench --bench history` (it builds the release binary).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::TestRepo;
use common::agent::{commit_json, openai_env};
use common::fake_provider::{FakeProvider, Step};

const RUNS: usize = 7;
/// A scenario's name, and one timed run of it on a fresh repository.
type Scenario = (&'static str, fn() -> Duration);
const COMMITS: usize = 20;
const FILES: usize = 8;
const PLACES: usize = 5;
const LINES: usize = 200;

fn main() {
    println!("{RUNS} runs of each, after one warm-up\n");
    println!(
        "{:<34} {:>9} {:>9} {:>9}",
        "scenario", "min ms", "median ms", "max ms"
    );
    let scenarios: [Scenario; 5] = [
        ("reword 20 commits (Iris, fake)", || reword(false)),
        ("reword 20 commits (--plan)", || reword(true)),
        ("absorb 40 hunks: plan", || absorb(&[])),
        ("absorb 40 hunks: 5 fixups", || {
            absorb(&["--apply", "--yes"])
        }),
        ("absorb 40 hunks: fixups + squash", || {
            absorb(&["--apply", "--yes", "--squash"])
        }),
    ];
    for (name, scenario) in scenarios {
        scenario();
        let mut runs: Vec<Duration> = (0..RUNS).map(|_| scenario()).collect();
        report(name, &mut runs);
    }
}

/// base, then 20 commits each adding its own file.
fn twenty_commits() -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write("README.md", "# Bench\n");
    let base = repo.commit_all("Start");
    for i in 0..COMMITS {
        repo.write(&format!("src/m{i}.rs"), format!("pub fn f{i}() {{}}\n"));
        repo.commit_all(&format!("wip {i}"));
    }
    (repo, base)
}

fn reword(from_plan: bool) -> Duration {
    let (repo, base) = twenty_commits();
    let range = format!("{base}..HEAD");
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(commit_json(
        "Add a module",
        "",
    )))]);
    let env = openai_env(&fake);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut args = vec!["reword", range.as_str(), "--apply", "--yes"];
    let plan_file = repo.path().join(".git/plan.json");
    if from_plan {
        let ids = repo.git(&["rev-list", "--reverse", &range]);
        let commits: Vec<_> = ids
            .lines()
            .map(|id| serde_json::json!({"id": id, "new": "Add a module"}))
            .collect();
        std::fs::write(
            &plan_file,
            serde_json::json!({ "commits": commits }).to_string(),
        )
        .expect("plan");
        args.extend(["--plan", plan_file.to_str().expect("path")]);
    }
    let started = Instant::now();
    let out = common::Iris::iris_env(&repo, &args, &env, "");
    let wall = started.elapsed();
    assert!(
        out.status.success(),
        "iris {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let titles = repo.git(&["log", "--format=%s", &range]);
    assert_eq!(
        titles.lines().filter(|t| *t == "Add a module").count(),
        COMMITS
    );
    assert_eq!(fake.requests().len(), if from_plan { 0 } else { COMMITS });
    wall
}

/// Line `line` of a file, as the base, a commit of the branch, or the staged fix has it.
fn text(file: usize, edit: impl Fn(usize) -> Option<&'static str>) -> String {
    (1..=LINES)
        .map(|i| match edit(i) {
            Some(how) => format!("line {i} of file {file}, {how}\n"),
            None => format!("line {i} of file {file}\n"),
        })
        .collect()
}

/// Place k of a file is its line 10 + 40k.
fn place(line: usize) -> Option<usize> {
    (line % 40 == 10).then_some(line / 40)
}

/// main: 8 files of 200 lines; feature: commit k changes place k of every file; staged: a fix
/// of every place (40 hunks).
fn absorb(args: &[&str]) -> Duration {
    let repo = TestRepo::new();
    for file in 0..FILES {
        repo.write(&format!("src/f{file}.txt"), text(file, |_| None));
    }
    repo.commit_all("base");
    repo.git(&["branch", "-M", "main"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    for k in 0..PLACES {
        for file in 0..FILES {
            let changed = move |i| place(i).filter(|p| *p <= k).map(|_| "changed");
            repo.write(&format!("src/f{file}.txt"), text(file, changed));
        }
        repo.commit_all(&format!("Change place {k}"));
    }
    for file in 0..FILES {
        repo.write(
            &format!("src/f{file}.txt"),
            text(file, |i| place(i).map(|_| "fixed")),
        );
    }
    repo.git(&["add", "-A"]);
    let mut full = vec!["absorb"];
    full.extend_from_slice(args);
    let started = Instant::now();
    let out = common::Iris::iris_env(&repo, &full, &[], "");
    let wall = started.elapsed();
    assert!(
        out.status.success(),
        "iris {full:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let commits: usize = repo
        .git(&["rev-list", "--count", "main..HEAD"])
        .trim()
        .parse()
        .expect("count");
    let expected = match args {
        [] => PLACES,
        [_, _] => 2 * PLACES,
        _ => PLACES,
    };
    assert_eq!(commits, expected, "{args:?}");
    if !args.is_empty() {
        assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "");
    }
    wall
}

fn report(name: &str, runs: &mut [Duration]) {
    runs.sort();
    println!(
        "{name:<34} {:>9.1} {:>9.1} {:>9.1}",
        ms(runs[0]),
        ms(runs[runs.len() / 2]),
        ms(runs[runs.len() - 1])
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
