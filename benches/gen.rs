//! Benchmark: `iris gen --print`, the whole process, against the fake provider answering at once.
//!
//! Builds a repository with a Medium staged change (6 files, about 240 changed lines), then
//! runs the release binary against a fresh script each time: six tool rounds (git_diff
//! summary, git_diff standard, file_read, code_search, git_log, repo_map) and the final JSON.
//! For comparison, in the same run, the same command with the final JSON alone (no tool).
//! Prints min / median / max wall time of the whole process and the share of it the fake
//! provider spent answering. Target (issue 4): under 300 ms. Asserts nothing about time.
//! Run: `cargo bench --bench gen` (it builds the release binary).

#[path = "../tests/common/mod.rs"]
mod common;
use common::Iris;

use std::time::{Duration, Instant};

use common::TestRepo;
use common::agent::{commit_json, openai_env};
use common::fake_provider::{FakeProvider, Step};
use serde_json::json;

const RUNS: usize = 25;
const FILES: usize = 6;
const ADDED_PER_FILE: usize = 8; // functions of 5 lines each: 40 lines per file

fn main() {
    let repo = medium_repo();
    let numstat = repo.git(&["diff", "--cached", "--numstat"]);
    let lines: usize = numstat
        .lines()
        .filter_map(|l| {
            let mut cols = l.split_whitespace();
            let added: usize = cols.next()?.parse().ok()?;
            let removed: usize = cols.next()?.parse().ok()?;
            Some(added + removed)
        })
        .sum();
    println!(
        "repository: {} staged files, {lines} changed lines; {RUNS} runs of each, after one warm-up\n",
        numstat.lines().count()
    );

    // One checked run first: the conversation is what it should be, the change is Medium.
    let first = run_once(&repo, six_rounds());
    assert!(
        first.tool_results[0].contains("Size: medium"),
        "the change is not Medium:\n{}",
        first.tool_results[0]
    );

    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>9} {:>13}",
        "scenario", "requests", "min ms", "median ms", "max ms", "provider share"
    );
    let mut six = Vec::new();
    let mut none = Vec::new();
    // Interleaved, so machine noise hits both scenarios alike.
    for _ in 0..RUNS {
        six.push(run_once(&repo, six_rounds()));
        none.push(run_once(&repo, vec![final_json()]));
    }
    report("6 tool rounds + answer", &six);
    report("answer only (no tool)", &none);
    let (a, b) = (median(&six), median(&none));
    println!(
        "\nthe six tool rounds add {:.1} ms to the median ({:.2}x the answer-only run)",
        ms(a.saturating_sub(b)),
        a.as_secs_f64() / b.as_secs_f64()
    );
    println!("target: the 6-round run under 300 ms for the whole process");

    // Where the tool rounds go: one more run with --debug, which traces each tool call.
    let traced = run_traced(&repo, six_rounds());
    println!("\ntool calls of one --debug run (time inside the tool):");
    for (tool, elapsed) in tool_times(&traced) {
        println!("  {tool:<12} {elapsed:>7} ms");
    }
}

struct Measured {
    wall: Duration,
    provider: Duration,
    requests: usize,
    tool_results: Vec<String>,
}

fn run_once(repo: &TestRepo, script: Vec<Step>) -> Measured {
    run_with(repo, script, &["gen", "--print"]).0
}

/// The stderr of a `--debug` run.
fn run_traced(repo: &TestRepo, script: Vec<Step>) -> String {
    run_with(repo, script, &["--debug", "gen", "--print"]).1
}

fn run_with(repo: &TestRepo, script: Vec<Step>, args: &[&str]) -> (Measured, String) {
    let steps = script.len();
    let fake = FakeProvider::start(script);
    let env = openai_env(&fake);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let started = Instant::now();
    let out = repo.iris_env(args, &env, "");
    let wall = started.elapsed();
    assert!(
        out.status.success(),
        "iris gen failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Add the shapes module\n\nSix new modules of small geometry functions."
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), steps, "one request per step");
    // The fake records an answer's time after closing its connection: let the last one land.
    let wait = Instant::now();
    while fake.answer_times().len() < steps && wait.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let measured = Measured {
        wall,
        provider: fake.answer_times().iter().sum(),
        requests: requests.len(),
        tool_results: requests
            .last()
            .map(|r| r.tool_results().into_iter().map(|(_, t)| t).collect())
            .unwrap_or_default(),
    };
    (measured, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// (tool, elapsed_ms) of each `tool call` line of a --debug trace, colours or not.
fn tool_times(trace: &str) -> Vec<(String, String)> {
    let field = |line: &str, name: &str| {
        let at = line.find(&format!("{name}=\""))? + name.len() + 2;
        let rest = &line[at..];
        Some(rest[..rest.find('"')?].to_string())
    };
    trace
        .lines()
        .map(strip_ansi)
        .filter(|line| line.contains("tool call"))
        .filter_map(|line| Some((field(&line, "tool")?, field(&line, "elapsed_ms")?)))
        .collect()
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn six_rounds() -> Vec<Step> {
    vec![
        Step::tool_call("git_diff", json!({"detail": "summary"})),
        Step::tool_call(
            "git_diff",
            json!({"detail": "standard", "files": ["src/shape_0.rs", "src/shape_1.rs"]}),
        ),
        Step::tool_call("file_read", json!({"path": "src/shape_2.rs"})),
        Step::tool_call(
            "code_search",
            json!({"query": "area", "search_type": "function"}),
        ),
        Step::tool_call("git_log", json!({"count": 10})),
        Step::tool_call("repo_map", json!({"token_budget": 2000})),
        final_json(),
    ]
}

fn final_json() -> Step {
    Step::text(commit_json(
        "Add the shapes module",
        "Six new modules of small geometry functions.",
    ))
}

/// A small crate with history, then 6 files changed by 40 added lines each.
fn medium_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"shapes\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    repo.write("README.md", "# Shapes\n\nSmall geometry functions.\n");
    for f in 0..FILES {
        repo.write(&format!("src/shape_{f}.rs"), base_file(f));
    }
    repo.write(
        "src/lib.rs",
        (0..FILES)
            .map(|f| format!("pub mod shape_{f};\n"))
            .collect::<String>(),
    );
    repo.commit_all("Initial commit");
    for i in 0..5 {
        repo.write("README.md", format!("# Shapes\n\nRevision {i}.\n"));
        repo.commit_all(&format!("Update the README ({i})"));
    }
    for f in 0..FILES {
        let mut text = base_file(f);
        for k in 0..ADDED_PER_FILE {
            text.push_str(&format!(
                "\n/// The area of shape {f}, variant {k}.\npub fn area_{f}_{k}(w: f64, h: f64) -> f64 {{\n    w * h * {k}.0\n}}\n"
            ));
        }
        repo.write(&format!("src/shape_{f}.rs"), text);
    }
    repo.git(&["add", "-A"]);
    repo
}

fn base_file(f: usize) -> String {
    format!("//! Shape {f}.\n\npub fn name() -> &'static str {{\n    \"shape {f}\"\n}}\n")
}

fn report(name: &str, runs: &[Measured]) {
    let mut walls: Vec<Duration> = runs.iter().map(|m| m.wall).collect();
    walls.sort();
    let total: Duration = runs.iter().map(|m| m.wall).sum();
    let provider: Duration = runs.iter().map(|m| m.provider).sum();
    println!(
        "{name:<28} {:>9} {:>9.1} {:>9.1} {:>9.1} {:>12.2}%",
        runs[0].requests,
        ms(walls[0]),
        ms(walls[walls.len() / 2]),
        ms(walls[walls.len() - 1]),
        100.0 * provider.as_secs_f64() / total.as_secs_f64()
    );
}

fn median(runs: &[Measured]) -> Duration {
    let mut walls: Vec<Duration> = runs.iter().map(|m| m.wall).collect();
    walls.sort();
    walls[walls.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
