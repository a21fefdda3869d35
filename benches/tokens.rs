//! Benchmark (issue 10): requests and input tokens per artifact, before and after the evidence
//! went up front, on the same scenarios in the same run.
//!
//! The model is the fake provider's careful model (`Step::Careful`): before it answers it
//! wants the change's summary, the full diffs of the most relevant files (all of them on a
//! Small change, the top five otherwise), and the recent commit messages (a commit) or the
//! branch's commits (a PR). Whatever the conversation does not hold yet, it fetches with the
//! tool a careful model would call. "Before" is the release before this change, built from
//! git (`BASELINE`) into `target/baseline`; "after" is this tree's release build.
//! Input tokens are estimated as a request body's characters / 4 (the same for both).
//!
//! Run: `cargo bench --bench tokens` (the first run also builds the baseline, ~6 minutes).
#![allow(clippy::disallowed_methods)] // benchmarks run the real binary, git and cargo

#[path = "../tests/common/mod.rs"]
mod common;
use common::Iris;
#[path = "support/careful.rs"]
mod careful;
use careful::diff_needs;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::TestRepo;
use common::agent::commit_json;
use common::fake_provider::{FakeProvider, Need, Step};
use iris_studio_git::{DiffTarget, GitRepo};
use serde_json::json;

/// The release before issue 10.
const BASELINE: &str = "cf3ab60";

fn main() {
    let baseline = baseline_binary();
    let current = PathBuf::from(env!("CARGO_BIN_EXE_iris"));
    println!(
        "{:<16} {:>16} {:>16} {:>18} {:>18} {:>10}",
        "scenario",
        "requests before",
        "requests after",
        "input tok before",
        "input tok after",
        "saved"
    );
    let mut before_total = 0;
    let mut after_total = 0;
    let mut savings = Vec::new();
    let mut shares = Vec::new();
    for scenario in scenarios() {
        let before = measure(&scenario, &baseline);
        let after = measure(&scenario, &current);
        shares.push((scenario.name, before.tools_share, after.tools_share));
        let saved = 1.0 - after.tokens as f64 / before.tokens as f64;
        println!(
            "{:<16} {:>16} {:>16} {:>18} {:>18} {:>9.0}%",
            scenario.name,
            before.requests,
            after.requests,
            before.tokens,
            after.tokens,
            saved * 100.0
        );
        before_total += before.tokens;
        after_total += after.tokens;
        savings.push(saved);
    }
    let mean = savings.iter().sum::<f64>() / savings.len() as f64;
    println!(
        "\nall scenarios: {before_total} -> {after_total} input tokens ({:.0}% fewer); mean saving per artifact {:.0}%",
        (1.0 - after_total as f64 / before_total as f64) * 100.0,
        mean * 100.0
    );
    println!("goal: a Small commit in one request; at least 40% fewer input tokens per artifact");
    println!("\ntool definitions in the first request (before -> after):");
    for (name, before, after) in shares {
        println!(
            "{name:<16} {:>5.1}% -> {:>5.1}%",
            before * 100.0,
            after * 100.0
        );
    }
    println!("goal (issue 26): at most 25% of a Small commit's first request");
}

struct Scenario {
    name: &'static str,
    repo: TestRepo,
    args: Vec<&'static str>,
    needs: Vec<Need>,
    answer: String,
}

struct Measured {
    requests: usize,
    tokens: usize,
    /// The share of the first request's body that is tool definitions.
    tools_share: f64,
}

fn measure(scenario: &Scenario, bin: &Path) -> Measured {
    let fake = FakeProvider::start(vec![Step::Careful {
        needs: scenario.needs.clone(),
        answer: scenario.answer.clone(),
    }]);
    let url = fake.openai_base_url();
    // The fake is on loopback: marked hosted, it stands for OpenAI's own servers (the
    // baseline, which took every `openai` for hosted, ignores the variable).
    let env = [
        ("IRIS_PROVIDER", "openai"),
        ("OPENAI_API_KEY", "sk-bench"),
        ("OPENAI_BASE_URL", url.as_str()),
        ("IRIS_LOCAL", "false"),
    ];
    let out = scenario.repo.iris_bin_env(bin, &scenario.args, &env);
    assert!(
        out.status.success(),
        "{} with {}: {}",
        scenario.name,
        bin.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = fake.requests();
    let first = &requests[0];
    let body: serde_json::Value = serde_json::from_str(&first.raw_body).unwrap_or_default();
    let tools = body.get("tools").map_or(0, |t| t.to_string().len());
    Measured {
        requests: requests.len(),
        tokens: fake.estimated_input_tokens(),
        tools_share: tools as f64 / first.raw_body.len().max(1) as f64,
    }
}

fn scenarios() -> Vec<Scenario> {
    let commit = |name, files, functions| {
        let repo = repo_with_change(files, functions);
        let needs = commit_needs(&repo);
        Scenario {
            name,
            repo,
            args: vec!["gen", "--print"],
            needs,
            answer: commit_json("Add the shapes", "New geometry functions."),
        }
    };
    vec![
        commit("small commit", 2, 3),
        commit("medium commit", 6, 8),
        commit("large commit", 14, 12),
        pr_scenario(),
    ]
}

/// A repository whose staged change adds `functions` functions to each of `files` modules.
fn repo_with_change(files: usize, functions: usize) -> TestRepo {
    let repo = TestRepo::new();
    for f in 0..files {
        repo.write(&format!("src/shape_{f}.rs"), base_file(f));
    }
    repo.write("README.md", "# Shapes\n");
    repo.commit_all("Initial commit");
    repo.write("README.md", "# Shapes\n\nGeometry.\n");
    repo.commit_all("Describe the project");
    add_functions(&repo, files, functions, 0);
    repo.git(&["add", "-A"]);
    without_critic(&repo);
    repo
}

/// The critic's request is the same before and after: leave it out of the comparison.
fn without_critic(repo: &TestRepo) {
    let path = repo.user_config_path();
    std::fs::create_dir_all(path.parent().expect("config dir")).expect("config dir");
    std::fs::write(path, "critic_enabled = false\n").expect("config");
}

fn add_functions(repo: &TestRepo, files: usize, functions: usize, round: usize) {
    for f in 0..files {
        let mut text = std::fs::read_to_string(repo.path().join(format!("src/shape_{f}.rs")))
            .unwrap_or_else(|_| base_file(f));
        for k in 0..functions {
            text.push_str(&format!(
                "\n/// The area of shape {f}, variant {round}.{k}.\npub fn area_{f}_{round}_{k}(w: f64, h: f64) -> f64 {{\n    w * h * {k}.0\n}}\n"
            ));
        }
        repo.write(&format!("src/shape_{f}.rs"), &text);
    }
}

fn base_file(f: usize) -> String {
    format!("//! Shape {f}.\n\npub fn name() -> &'static str {{\n    \"shape {f}\"\n}}\n")
}

/// What a careful model reads before writing a commit message.
fn commit_needs(repo: &TestRepo) -> Vec<Need> {
    let mut needs = vec![Need {
        marker: "Files by relevance".into(),
        tool: "git_diff".into(),
        args: json!({"detail": "summary"}),
    }];
    let git = GitRepo::discover(&repo.path()).expect("repository");
    needs.extend(diff_needs(&git, &DiffTarget::Staged, json!({})));
    needs.push(Need {
        marker: "newest first".into(),
        tool: "git_log".into(),
        args: json!({"count": 10}),
    });
    needs
}

/// A branch of three commits over six modules, described as a pull request against `base`.
fn pr_scenario() -> Scenario {
    let repo = TestRepo::new();
    for f in 0..6 {
        repo.write(&format!("src/shape_{f}.rs"), base_file(f));
    }
    repo.commit_all("Initial commit");
    repo.git(&["tag", "base"]);
    for round in 0..3 {
        add_functions(&repo, 2 + 2 * round, 4, round);
        repo.commit_all(&format!("Add the round {round} areas"));
    }
    without_critic(&repo);
    let range = json!({"from": "base", "to": "HEAD"});
    let target = DiffTarget::Range {
        from: "base".into(),
        to: "HEAD".into(),
    };
    let mut needs = vec![
        Need {
            marker: "commit(s) in base..HEAD".into(),
            tool: "git_log".into(),
            args: range.clone(),
        },
        Need {
            marker: "Changes in base..HEAD".into(),
            tool: "git_diff".into(),
            args: json!({"detail": "summary", "from": "base", "to": "HEAD"}),
        },
    ];
    let git = GitRepo::discover(&repo.path()).expect("repository");
    needs.extend(diff_needs(&git, &target, range));
    let answer = json!({
        "title": "Add the shape areas", "summary": "Area functions for six shapes.",
        "description": "", "changes": ["Area functions"], "testing": [],
        "breaking_changes": [], "reviewer_notes": [], "related_issues": [],
    })
    .to_string();
    Scenario {
        name: "pr range",
        repo,
        args: vec!["pr", "--from", "base", "--raw"],
        needs,
        answer,
    }
}

/// The baseline release binary, built from git the first time.
fn baseline_binary() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = root.join("target").join("baseline");
    let bin = target.join("release").join("iris");
    if bin.exists() {
        return bin;
    }
    let tree = target.join("src");
    if !tree.exists() {
        let status = Command::new("git")
            .args(["worktree", "add", "--detach", "-f"])
            .arg(&tree)
            .arg(BASELINE)
            .current_dir(root)
            .status()
            .expect("git worktree");
        assert!(
            status.success(),
            "could not check out the baseline {BASELINE}"
        );
    }
    println!("building the baseline {BASELINE} (once) ...");
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--target-dir"])
        .arg(&target)
        .current_dir(&tree)
        .status()
        .expect("cargo build");
    assert!(status.success(), "the baseline did not build");
    bin
}
