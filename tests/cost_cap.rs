//! `max_cost_per_run` holds for everything one command spends: its candidates, the critic
//! after a generation, review passes and subagents. Each request reserves its input and its
//! output budget before it goes, so requests sent together cannot pass the cap together.

use serde_json::{Value, json};

use crate::common::agent::{commit_json, openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, stderr};

/// Dollars per million tokens, input and output: a request costs about $1 per 4,000
/// characters.
const PRICE: f64 = 1000.0;
/// The output budget of every reply (`max_output_tokens`, `subagent_max_output_tokens`):
/// what a request reserves on top of its input, $0.10 at [`PRICE`].
const OUTPUT_BUDGET: u64 = 100;

/// The user's configuration: the prices, the output budgets, and the cap when one is set.
fn configure(repo: &TestRepo, cap: Option<f64>) {
    let cap = cap
        .map(|c| format!("max_cost_per_run = {c}\n"))
        .unwrap_or_default();
    std::fs::create_dir_all(repo.user_config_path().parent().expect("dir")).expect("config dir");
    std::fs::write(
        repo.user_config_path(),
        format!(
            "{cap}max_output_tokens = {OUTPUT_BUDGET}\nsubagent_max_output_tokens = \
             {OUTPUT_BUDGET}\n[providers.openai]\nprice_input = {PRICE}\nprice_output = {PRICE}\n"
        ),
    )
    .expect("user config");
}

/// What a request body of `chars` characters costs as the cap counts it, with its output
/// budget reserved.
fn reserved(chars: usize) -> f64 {
    (chars.div_ceil(4) as u64 + OUTPUT_BUDGET) as f64 * PRICE / 1e6
}

/// The size of the first request `args` sends, from a dry run.
fn first_request(repo: &TestRepo, args: &[&str]) -> usize {
    let fake = FakeProvider::start(Vec::new());
    let mut args = args.to_vec();
    args.extend(["--dry-run", "--json"]);
    let out = success(&run(repo, &args, &openai_env(&fake)));
    let preview: Value = serde_json::from_str(&out).expect("JSON");
    preview["total"]["chars"].as_u64().unwrap_or_default() as usize
}

#[test]
fn candidates_written_together_stay_under_one_cap() {
    let repo = staged_repo();
    repo.write(".irisconfig", "critic_enabled = false\n");
    configure(&repo, None);
    let first = first_request(&repo, &["gen"]);
    // Room for one request (and half of another): three candidates at once may send one.
    configure(&repo, Some(reserved(first) * 1.5));
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(commit_json("Add two()", "")))]);
    let out = run(&repo, &["gen", "-n", "3", "--print"], &openai_env(&fake));
    let printed = success(&out);
    assert!(printed.contains("Add two()"), "{printed}");
    assert_eq!(
        fake.requests().len(),
        1,
        "one request, not one per candidate"
    );
    let err = stderr(&out);
    assert_eq!(
        err.matches("was stopped by max_cost_per_run").count(),
        2,
        "{err}"
    );
    assert!(err.contains(" of 3 was stopped by"), "{err}");

    // Room for none: nothing was written, and the run fails as a capped run does.
    configure(&repo, Some(reserved(first) * 0.5));
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(commit_json("Add two()", "")))]);
    let out = run(&repo, &["gen", "-n", "3", "--print"], &openai_env(&fake));
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("past max_cost_per_run"),
        "{}",
        stderr(&out)
    );
    assert!(fake.requests().is_empty());
}

#[test]
fn the_critic_after_a_generation_spends_from_the_same_cap() {
    let repo = staged_repo();
    configure(&repo, None);
    let first = first_request(&repo, &["gen", "--critic"]);
    configure(&repo, Some(reserved(first) * 1.5));
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("Add two()", "")),
        Step::text(
            json!({"requires_revision": false, "issues": [], "revision_prompt": ""}).to_string(),
        ),
    ]);
    let out = run(&repo, &["gen", "--critic", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    assert_eq!(
        fake.requests().len(),
        1,
        "the critic's request was held back"
    );
    let err = stderr(&out);
    assert!(
        err.contains("the critic could not check the draft")
            && err.contains("past max_cost_per_run"),
        "{err}"
    );
}

#[test]
fn review_passes_side_by_side_stay_under_one_cap() {
    let repo = staged_repo();
    repo.write(
        ".irisconfig",
        "critic_enabled = false\nreview_verify = false\n",
    );
    configure(&repo, None);
    let aspects = ["review", "--aspects", "correctness,security"];
    let first = first_request(&repo, &aspects);
    configure(&repo, Some(reserved(first) * 1.5));
    let pass = json!({"summary": "Adds two().", "findings": [], "strengths": ["Small"]});
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(pass.to_string()))]);
    let out = run(&repo, &aspects, &openai_env(&fake));
    success(&out);
    assert_eq!(fake.requests().len(), 1, "one pass was sent");
    let err = stderr(&out);
    assert!(
        err.contains("pass was stopped by max_cost_per_run"),
        "{err}"
    );
}

#[test]
fn subagents_spend_from_the_cap_of_the_run_that_started_them() {
    let repo = staged_repo();
    repo.write(".irisconfig", "critic_enabled = false\n");
    repo.offer_every_tool("commit");
    let script = || {
        let tasks = ["Explain one()", "Explain two()", "Check the README"];
        FakeProvider::start(vec![
            Step::tool_call("parallel_analyze", json!({"tasks": tasks})),
            Step::text("FINDINGS: looked at src/lib.rs:1."),
            Step::text("FINDINGS: looked at src/lib.rs:5."),
            Step::text("FINDINGS: looked at README.md:1."),
            Step::text(commit_json("Add two()", "")),
        ])
    };
    // The sizes of the requests, from a run without a cap.
    configure(&repo, None);
    let fake = script();
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let sizes: Vec<usize> = fake
        .requests()
        .iter()
        .map(|r| r.raw_body.chars().count())
        .collect();
    assert_eq!(sizes.len(), 5);
    let (main, subagents) = (sizes[0], &sizes[1..4]);
    let (least, most) = (
        *subagents.iter().min().expect("sizes"),
        *subagents.iter().max().expect("sizes"),
    );
    // Room for the first request and one subagent's, and half of another's.
    let cap = reserved(main) + reserved(most) + reserved(least) * 0.5;
    configure(&repo, Some(cap));
    let fake = script();
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("past max_cost_per_run"), "{err}");
    assert_eq!(
        fake.requests().len(),
        2,
        "the first request and one subagent's; the others and the answer were held back"
    );
}
