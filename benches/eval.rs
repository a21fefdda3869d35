//! Benchmark (issue 23): `iris eval --last 20` on this repository with the fake provider's
//! careful model, which reads the change's summary, the full diffs of its most relevant files
//! and the recent commit messages before it answers (fetching with a tool whatever the
//! request does not hold yet). Prints requests, input tokens (a request body's characters / 4)
//! and seconds per message. The answer is the same fixed message for every commit, so the
//! distances say nothing here: run `iris eval` against your own model for those.
//!
//! Run: `cargo bench --bench eval` (in a clone with at least 20 commits of history).
//! `IRIS_BENCH_REPO=DIR` evaluates another repository (bots' commits skipped),
//! `IRIS_BENCH_BIN=PATH` another build of iris (an earlier one, to compare).
#![allow(clippy::disallowed_methods)] // benchmarks run the real binary and git

#[path = "support/careful.rs"]
mod careful;
#[path = "../tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::Command;

use common::agent::commit_json;
use common::fake_provider::{FakeProvider, Need, Step};
use iris_studio_git::{DiffTarget, GitRepo};
use serde_json::{Value, json};

fn main() {
    let root = std::env::var_os("IRIS_BENCH_REPO")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let root = root.as_path();
    let home = tempfile::tempdir().expect("home");
    // The first run only learns which commits eval chooses, in its order.
    let probe = FakeProvider::start(vec![Step::Repeat(Box::new(Step::text(answer())))]);
    let (lines, _) = eval(root, home.path(), &probe);
    let commits: Vec<String> = lines
        .iter()
        .filter_map(|l| l["commit"].as_str().map(str::to_string))
        .collect();
    let repo = GitRepo::discover(root).expect("the repository");
    let script: Vec<Step> = commits
        .iter()
        .map(|id| Step::Careful {
            needs: needs(&repo, id),
            answer: answer(),
        })
        .collect();
    let fake = FakeProvider::start(script);
    let (lines, seconds) = eval(root, home.path(), &fake);
    let summary = &lines.last().expect("a summary")["summary"];
    let written = summary["written"].as_u64().unwrap_or(0).max(1) as f64;
    let requests = fake.requests().len() as f64;
    println!(
        "iris eval --last 20 on {}, the fake's careful model",
        root.display()
    );
    println!("  commits evaluated      {}", commits.len());
    println!("  messages written       {}", summary["written"]);
    println!("  requests per message   {:.2}", requests / written);
    println!(
        "  input tokens / message {:.0} (request characters / 4)",
        fake.estimated_input_tokens() as f64 / written
    );
    println!(
        "  seconds per message    p50 {:.2}, p90 {:.2} (the whole run {seconds:.1} s)",
        summary["p50_seconds"].as_f64().unwrap_or(0.0),
        summary["p90_seconds"].as_f64().unwrap_or(0.0),
    );
}

fn answer() -> String {
    commit_json("Change the code", "What changed and why.")
}

/// Runs `iris eval --last 20 --json` here against `fake`: its JSON lines and seconds.
fn eval(root: &Path, home: &Path, fake: &FakeProvider) -> (Vec<Value>, f64) {
    let started = std::time::Instant::now();
    let bin = std::env::var("IRIS_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_iris").into());
    let out = Command::new(bin)
        .args([
            "eval",
            "--last",
            "20",
            "--json",
            "--skip-authors",
            r"\[bot\]",
        ])
        .current_dir(root)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("xdg"))
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", "sk-bench")
        .env("OPENAI_BASE_URL", fake.openai_base_url())
        .env("IRIS_LOCAL", "false")
        .output()
        .expect("run iris eval");
    assert!(
        out.status.success(),
        "iris eval: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    (lines, started.elapsed().as_secs_f64())
}

/// What a careful model reads before writing commit `id`'s message: the change's summary,
/// the full diffs of the files that matter, the recent messages.
fn needs(repo: &GitRepo, id: &str) -> Vec<Need> {
    let target = DiffTarget::Range {
        from: format!("{id}^"),
        to: id.to_string(),
    };
    let mut needs = vec![Need {
        marker: "Files by relevance".into(),
        tool: "git_diff".into(),
        args: json!({"detail": "summary"}),
    }];
    needs.extend(careful::diff_needs(repo, &target, json!({})));
    needs.push(Need {
        marker: "newest first".into(),
        tool: "git_log".into(),
        args: json!({"count": 10}),
    });
    needs
}
