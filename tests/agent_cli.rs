//! The generation commands end to end: the real binary on a temporary repository, talking to
//! the fake provider on 127.0.0.1. What the app sent is checked as well as what it printed.
//! The faults (errors, cut streams, bad replies, runaway tools) are in agent_faults.rs.

use std::collections::BTreeSet;

use crate::common::agent::{
    MAIN_AGENT_TOOLS, Wire, approval, asks_schema_once, commit_json, failure, model_of, openai_env,
    released_repo, run, staged_repo, success, write_user_config,
};
use crate::common::fake_provider::{Api, FAKE_API_KEY, FakeProvider, Step};
use crate::common::{TestRepo, stderr};
use iris_studio_core::artifact::OutputType;
use serde_json::{Value, json};

const REQUEST_GEN: &str = "Write the commit message for the staged changes.";

fn tool_set(names: Vec<String>) -> BTreeSet<String> {
    names.into_iter().collect()
}

fn main_tools() -> BTreeSet<String> {
    MAIN_AGENT_TOOLS.iter().map(|s| s.to_string()).collect()
}

/// The tools the built-in capability `name` offers.
fn offered(name: &str) -> BTreeSet<String> {
    let capability =
        iris_studio_agent::capability::Capability::load(name, None).expect("capability");
    assert!(!capability.offers_every_tool(), "{name} names its tools");
    capability.tools.into_iter().collect()
}

#[test]
fn gen_prints_a_message_after_a_tool_round() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "standard"})),
        Step::text(commit_json("Add two()", "Adds a second constant function.")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(
        success(&out).trim(),
        "Add two()\n\nAdds a second constant function."
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].tool_names().iter().any(|t| t == "git_diff"));
    let results = requests[1].tool_results();
    assert!(
        results
            .iter()
            .any(|(_, text)| text.contains("+pub fn two() -> u32 {")),
        "{results:?}"
    );
}

#[test]
fn gen_runs_a_conversation_of_several_tool_rounds_and_sends_what_the_tools_found() {
    let repo = staged_repo();
    // Its model calls tools beyond the three a commit offers.
    repo.offer_every_tool("commit");
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "summary"})),
        Step::tool_call("file_read", json!({"path": "src/lib.rs"})),
        Step::tool_call(
            "code_search",
            json!({"query": "two", "search_type": "function"}),
        ),
        // Two calls in one reply.
        Step::ToolCalls(vec![
            ("git_log".into(), json!({})),
            ("git_status".into(), json!({})),
        ]),
        Step::text(commit_json("Add two()", "Adds a second constant function.")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(
        success(&out).trim(),
        "Add two()\n\nAdds a second constant function."
    );

    let requests = fake.requests();
    assert_eq!(requests.len(), 5, "four tool rounds, then the answer");
    let system = requests[0].system_text();
    for (i, request) in requests.iter().enumerate() {
        assert_eq!(request.api, Api::Responses);
        assert_eq!(model_of(request), "gpt-5");
        assert_eq!(
            tool_set(request.tool_names()),
            main_tools(),
            "request {i} offers the main agent's tools"
        );
        assert_eq!(
            request.system_text(),
            system,
            "the instructions never change"
        );
        let asked = request.user_texts();
        assert_eq!(asked.len(), 1, "one request message, whatever the round");
        assert!(asked[0].starts_with(REQUEST_GEN), "{asked:?}");
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {FAKE_API_KEY}").as_str())
        );
    }
    // The history grows by each round's results: 0, 1, 2, 3, then 5.
    let counts: Vec<usize> = requests.iter().map(|r| r.tool_results().len()).collect();
    assert_eq!(counts, vec![0, 1, 2, 3, 5]);

    let results: Vec<String> = requests[4]
        .tool_results()
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert!(
        results[0].contains("src/lib.rs") && !results[0].contains("+pub fn two"),
        "git_diff summary lists the file without its diff: {}",
        results[0]
    );
    assert!(
        results[1].contains("pub fn two() -> u32"),
        "file_read: {}",
        results[1]
    );
    assert!(
        results[2].contains("src/lib.rs") && results[2].contains("two"),
        "code_search: {}",
        results[2]
    );
    assert!(
        results[3].contains("Initial commit"),
        "git_log: {}",
        results[3]
    );
    assert!(
        results[4].contains("src/lib.rs"),
        "git_status: {}",
        results[4]
    );
    // Every call id the model used came back with its result.
    let ids: BTreeSet<String> = requests[4]
        .tool_results()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(ids.len(), 5, "{ids:?}");
}

#[test]
fn the_prompt_holds_the_persona_the_task_the_style_and_the_schema() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let requests = fake.requests();
    let system = requests[0].system_text();
    assert!(system.starts_with("You are Iris"), "{system}");
    assert!(system.contains("## Task\n"), "{system}");
    assert!(
        system.contains("## Style\n")
            && system.contains("Follow the style of the repository's recent history"),
        "the default preset's instructions: {system}"
    );
    assert!(
        asks_schema_once(&requests[0], &OutputType::Commit.schema()),
        "the commit schema, whole and once: {system}"
    );
    assert!(!system.contains("Conventional Commits"), "{system}");
}

#[test]
fn preset_conventional_puts_its_instructions_in_the_system_prompt() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("feat: add two()", ""))]);
    let out = run(
        &repo,
        &["gen", "--print", "--preset", "conventional"],
        &openai_env(&fake),
    );
    assert_eq!(success(&out).trim(), "feat: add two()");
    let system = fake.requests()[0].system_text();
    assert!(
        system.contains("Follow Conventional Commits 1.0.0"),
        "{system}"
    );
    assert!(
        !system.contains("Follow the style of the repository's recent history"),
        "only the chosen preset: {system}"
    );
}

#[test]
fn instructions_from_the_user_config_file_reach_the_prompt() {
    let repo = staged_repo();
    let config = repo.user_config_path();
    std::fs::create_dir_all(config.parent().unwrap_or(&config)).expect("config dir");
    std::fs::write(
        &config,
        "instructions = \"Always name the ticket IRIS-4242 in the body.\"\n",
    )
    .expect("write user config");
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", "IRIS-4242"))]);
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let system = fake.requests()[0].system_text();
    assert!(
        system.contains("Always name the ticket IRIS-4242 in the body."),
        "{system}"
    );
}

#[test]
fn streaming_and_non_streaming_give_the_same_artifact() {
    for wire in Wire::ALL {
        let script = || {
            vec![
                Step::tool_call("git_diff", json!({"detail": "standard"})),
                Step::text(commit_json(
                    "Add two()",
                    "Adds a second constant function,\nnext to one().",
                )),
            ]
        };
        let repo = staged_repo();
        let streamed = FakeProvider::start(script());
        let whole = FakeProvider::start(script());
        let a = success(&run(&repo, &["gen", "--print"], &wire.env(&streamed)));
        let b = success(&run(
            &repo,
            &["gen", "--print", "--no-stream"],
            &wire.env(&whole),
        ));
        assert_eq!(a, b, "{wire:?}");
        assert_eq!(
            a.trim(),
            "Add two()\n\nAdds a second constant function,\nnext to one()."
        );
        assert_eq!(streamed.requests().len(), 2);
        assert_eq!(whole.requests().len(), 2);
        assert!(streamed.requests().iter().all(|r| r.stream), "{wire:?}");
        assert!(whole.requests().iter().all(|r| !r.stream), "{wire:?}");
    }
}

#[test]
fn the_anthropic_provider_goes_to_anthropic_base_url_with_its_key() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "standard"})),
        Step::text(commit_json("Add two()", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &Wire::Anthropic.env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    // The stable part (tools, then the instructions) ends at a cache breakpoint.
    let system = &requests[0].body["system"];
    let last = system
        .as_array()
        .and_then(|blocks| blocks.last())
        .cloned()
        .unwrap_or_default();
    assert_eq!(last["cache_control"]["type"], "ephemeral", "{system}");
    for request in &requests {
        assert_eq!(request.api, Api::AnthropicMessages);
        assert_eq!(request.path, "/v1/messages");
        assert_eq!(model_of(request), "claude-sonnet-4-5");
        assert_eq!(request.header("x-api-key"), Some(FAKE_API_KEY));
        assert_eq!(request.header("authorization"), None);
        assert_eq!(tool_set(request.tool_names()), offered("commit"));
    }
    assert!(asks_schema_once(&requests[0], &OutputType::Commit.schema()));
    let results = requests[1].tool_results();
    assert!(
        results
            .iter()
            .any(|(id, text)| id.starts_with("toolu_") && text.contains("+pub fn two() -> u32 {")),
        "{results:?}"
    );
}

#[test]
fn the_openai_compatible_provider_speaks_chat_completions_with_iris_model() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("file_read", json!({"path": "src/lib.rs"})),
        Step::text(commit_json("Add two()", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &Wire::Chat.env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(request.api, Api::ChatCompletions);
        assert_eq!(request.path, "/v1/chat/completions");
        assert_eq!(model_of(request), "local-model");
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {FAKE_API_KEY}").as_str())
        );
        assert_eq!(tool_set(request.tool_names()), offered("commit"));
    }
    let results = requests[1].tool_results();
    assert!(
        results
            .iter()
            .any(|(_, text)| text.contains("pub fn two() -> u32")),
        "{results:?}"
    );
}

#[test]
fn gen_json_prints_the_structured_message() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json(
        "Add two()",
        "Adds a second constant function.",
    ))]);
    let out = success(&run(&repo, &["gen", "--json"], &openai_env(&fake)));
    let value: Value = serde_json::from_str(&out).expect("stdout is JSON");
    assert_eq!(
        value,
        json!({"emoji": null, "title": "Add two()", "message": "Adds a second constant function."})
    );
}

#[test]
fn gen_auto_commit_commits_with_the_message() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json(
        "Add two()",
        "Adds a second constant function.",
    ))]);
    let out = run(&repo, &["gen", "--auto-commit"], &openai_env(&fake));
    success(&out);
    assert_eq!(
        repo.git(&["log", "-1", "--format=%B"]).trim(),
        "Add two()\n\nAdds a second constant function."
    );
    assert_eq!(repo.git(&["rev-list", "--count", "HEAD"]).trim(), "2");
    assert_eq!(repo.git(&["status", "--porcelain"]).trim(), "");
    assert!(stderr(&out).contains("Add two()"), "{}", stderr(&out));
}

#[test]
fn a_failing_commit_msg_hook_keeps_the_message_and_fails() {
    use std::os::unix::fs::PermissionsExt;
    let repo = staged_repo();
    let hook = repo.path().join(".git/hooks/commit-msg");
    std::fs::create_dir_all(hook.parent().unwrap_or(&hook)).expect("hooks dir");
    std::fs::write(
        &hook,
        "#!/bin/sh\necho 'commit-msg: tickets required' >&2\nexit 1\n",
    )
    .expect("write hook");
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let head = repo.git(&["rev-parse", "HEAD"]);
    let fake = FakeProvider::start(vec![Step::text(commit_json(
        "Add two()",
        "Adds a second constant function.",
    ))]);
    let out = run(&repo, &["gen", "--auto-commit"], &openai_env(&fake));
    assert!(!out.status.success());
    assert_eq!(
        crate::common::stdout(&out).trim(),
        "Add two()\n\nAdds a second constant function.",
        "the message is printed for reuse"
    );
    let err = stderr(&out);
    assert!(
        err.contains("git commit failed") && err.contains("tickets required"),
        "{err}"
    );
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head, "nothing committed");
    assert_eq!(
        repo.git(&["diff", "--cached", "--name-only"]).trim(),
        "src/lib.rs"
    );
}

#[test]
fn gen_with_nothing_staged_fails_with_a_clear_line_and_asks_nothing() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("Initial commit");
    let fake = FakeProvider::start(vec![Step::text(commit_json("Never", ""))]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    let line = failure(&out, 2);
    assert!(line.contains("nothing is staged"), "{line}");
    assert!(fake.requests().is_empty());
}

#[test]
fn a_missing_api_key_exits_2_naming_the_variable() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Never", ""))]);
    let env = vec![
        ("IRIS_PROVIDER", "openai".to_string()),
        ("OPENAI_BASE_URL", fake.openai_base_url()),
    ];
    let out = run(&repo, &["gen", "--print"], &env);
    let line = failure(&out, 2);
    assert!(line.contains("OPENAI_API_KEY"), "{line}");
    assert!(fake.requests().is_empty());
}

#[test]
fn the_api_key_stays_out_of_debug_output() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "summary"})),
        Step::text(commit_json("Add two()", "")),
    ]);
    let out = run(&repo, &["--debug", "gen", "--print"], &openai_env(&fake));
    success(&out);
    let err = stderr(&out);
    // The trace is really on: the configuration and the tool call are in it.
    assert!(err.contains("configuration loaded"), "{err}");
    assert!(
        err.contains("tool call") && err.contains("git_diff"),
        "{err}"
    );
    assert!(err.contains("****"), "the key shows masked: {err}");
    // Readable: a line a setting with its source, not one line of Rust's Debug.
    assert!(
        err.lines()
            .any(|l| l.starts_with("provider = \"openai\"") && l.contains("# env IRIS_PROVIDER")),
        "{err}"
    );
    assert!(!err.contains("Config {"), "{err}");
    // `run` checked stdout and stderr for the key; it did reach the server.
    assert_eq!(
        fake.requests()[0].header("authorization"),
        Some(format!("Bearer {FAKE_API_KEY}").as_str())
    );
}

fn review_json(summary: &str, findings: Value) -> String {
    json!({"summary": summary, "findings": findings, "strengths": []}).to_string()
}

#[test]
fn review_prints_the_revision_the_critic_asked_for() {
    let repo = staged_repo();
    let critique = json!({
        "requires_revision": true,
        "issues": [{"title": "Missed the missing test", "body": "two() has no test.",
                    "severity": "high"}],
        "revision_prompt": "Add a finding: two() is untested.",
        "confidence": 0.9,
    });
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "standard"})),
        Step::text(review_json("DRAFT: adds two().", json!([]))),
        Step::text(critique.to_string()),
        Step::text(review_json(
            "REVISED: adds two() without a test.",
            json!([{"severity": "low", "file": "src/lib.rs", "line": 5, "end_line": null,
                    "title": "two() is untested", "body": "No test calls two().",
                    "suggestion": null}]),
        )),
    ]);
    let out = success(&run(&repo, &["review"], &openai_env(&fake)));
    assert!(out.starts_with("# Code review"), "{out}");
    assert!(out.contains("REVISED: adds two() without a test."), "{out}");
    assert!(
        out.contains("### two() is untested (`src/lib.rs:5`)"),
        "{out}"
    );
    assert!(!out.contains("DRAFT"), "{out}");

    let requests = fake.requests();
    assert_eq!(requests.len(), 4);
    let writer = requests[0].system_text();
    assert!(
        asks_schema_once(&requests[0], &OutputType::Review.schema()),
        "{writer}"
    );
    let asked = requests[0].user_texts().join("\n");
    assert!(asked.starts_with("Review the staged changes."), "{asked}");
    assert!(
        asked.contains("## Evidence gathered up front"),
        "the first request carries the change: {asked}"
    );
    // The critic: its own instructions, schema and tools, and the draft to check.
    let critic = requests[2].system_text();
    assert!(critic.contains("You are the critic"), "{critic}");
    assert!(
        asks_schema_once(&requests[2], &OutputType::Critique.schema()),
        "{critic}"
    );
    let asked = requests[2].user_texts().join("\n");
    assert!(
        asked.contains("Review the staged changes.") && asked.contains("DRAFT: adds two()."),
        "{asked}"
    );
    assert_eq!(tool_set(requests[2].tool_names()), offered("verify"));
    assert_eq!(tool_set(requests[0].tool_names()), offered("review"));
    // The revision: the writer again, with the draft and the critic's findings.
    assert_eq!(requests[3].system_text(), writer);
    let revision = requests[3].user_texts().join("\n");
    for needed in [
        "asked for a revision",
        "DRAFT: adds two().",
        "Missed the missing test",
        "Add a finding: two() is untested.",
    ] {
        assert!(revision.contains(needed), "{needed:?} in {revision}");
    }
}

#[test]
fn an_unreadable_critic_reply_only_warns_and_the_draft_stands() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(review_json("DRAFT: adds two().", json!([]))),
        Step::text("Looks fine to me, I suppose?"),
    ]);
    let out = run(&repo, &["review"], &openai_env(&fake));
    let printed = success(&out);
    assert!(printed.contains("DRAFT: adds two()."), "{printed}");
    let err = stderr(&out);
    assert!(
        err.lines()
            .any(|l| l.starts_with("warning") && l.contains("critic")),
        "{err}"
    );
    assert_eq!(fake.requests().len(), 2, "no revision without a verdict");
}

/// A critic's reply of another shape (a commit message where a critique belongs) is no
/// approval: it warns as an unreadable one does, and the reply is saved.
#[test]
fn a_critic_reply_of_another_shape_warns_as_an_unreadable_one() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(review_json("DRAFT: adds two().", json!([]))),
        Step::text(commit_json("Add two()", "Adds it.")),
    ]);
    let out = run(&repo, &["review"], &openai_env(&fake));
    assert!(success(&out).contains("DRAFT: adds two()."));
    let err = stderr(&out);
    let warning = err
        .lines()
        .find(|l| l.starts_with("warning") && l.contains("critic"))
        .unwrap_or_else(|| panic!("no warning about the critic: {err}"));
    assert!(
        warning.contains("it is no critique: none of its fields (emoji, message, title) is one")
            && warning.contains(".git/iris/"),
        "{warning}"
    );
    assert_eq!(fake.requests().len(), 2, "no revision without a verdict");
}

#[test]
fn review_of_a_commit_names_it_in_the_request() {
    let repo = released_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"to": "HEAD~1", "detail": "standard"})),
        Step::text(review_json("Adds two().", json!([]))),
        Step::text(approval()),
    ]);
    let out = success(&run(
        &repo,
        &["review", "--commit", "HEAD~1"],
        &openai_env(&fake),
    ));
    assert!(
        out.contains("Adds two().") && out.contains("No issues found."),
        "{out}"
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    assert!(requests[0].user_texts()[0].contains("Review commit HEAD~1"));
    let results = requests[1].tool_results();
    assert!(
        results[0].1.contains("+pub fn two() -> u32 {"),
        "the commit's diff: {results:?}"
    );
}

#[test]
fn pr_defaults_from_to_the_default_branch() {
    let repo = TestRepo::feature_branch();
    let pr = json!({
        "title": "Add two()", "summary": "Adds two().", "description": "",
        "changes": ["src/lib.rs: add two()"], "testing": [], "breaking_changes": [],
        "reviewer_notes": [], "related_issues": [],
    });
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_log", json!({"from": "main", "to": "HEAD"})),
        Step::text(pr.to_string()),
        Step::text(approval()),
    ]);
    let out = success(&run(&repo, &["pr"], &openai_env(&fake)));
    assert!(
        out.starts_with("# Add two()\n\n## Summary\n\nAdds two().\n"),
        "{out}"
    );
    assert!(out.contains("- src/lib.rs: add two()"), "{out}");
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    let asked = requests[0].user_texts().join("\n");
    assert!(
        asked.contains("from main to HEAD") && asked.contains("FROM=main"),
        "{asked}"
    );
    assert!(asks_schema_once(
        &requests[0],
        &OutputType::PullRequest.schema()
    ));
    let log = &requests[1].tool_results()[0].1;
    assert!(
        log.contains("Add two()") && !log.contains("Initial commit"),
        "git_log of main..HEAD: {log}"
    );
}

fn changelog_json() -> String {
    json!({
        "version": null, "date": null,
        "added": [{"description": "two(), the second constant", "commit": null}],
        "changed": [], "deprecated": [], "removed": [],
        "fixed": [{"description": "one() has its doc comment", "commit": null}],
        "security": [],
    })
    .to_string()
}

#[test]
fn changelog_update_inserts_the_section_before_the_previous_release() {
    let repo = released_repo();
    let before = "# Changelog\n\nAll notable changes to this project are documented here.\n\n\
                  ## [0.1.0] - 2024-01-01\n\n### Added\n\n- one()\n";
    repo.write("CHANGELOG.md", before);
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_log", json!({"from": "v0.1.0", "to": "HEAD"})),
        Step::text(changelog_json()),
        Step::text(approval()),
    ]);
    let out = run(
        &repo,
        &[
            "changelog",
            "--from",
            "v0.1.0",
            "--version-name",
            "0.2.0",
            "--update",
            "--file",
            "CHANGELOG.md",
        ],
        &openai_env(&fake),
    );
    let printed = success(&out);
    let section = "## [0.2.0]\n\n### Added\n\n- two(), the second constant\n\n\
                   ### Fixed\n\n- one() has its doc comment\n";
    assert_eq!(printed, section);
    let after = std::fs::read_to_string(repo.path().join("CHANGELOG.md")).expect("read");
    assert_eq!(
        after,
        format!(
            "# Changelog\n\nAll notable changes to this project are documented here.\n\n\
             {section}\n## [0.1.0] - 2024-01-01\n\n### Added\n\n- one()\n"
        )
    );
    assert!(stderr(&out).contains("updated"), "{}", stderr(&out));
    let requests = fake.requests();
    let asked = requests[0].user_texts().join("\n");
    assert!(
        asked.contains("for version 0.2.0") && asked.contains("v0.1.0..HEAD"),
        "{asked}"
    );
    let log = &requests[1].tool_results()[0].1;
    assert!(
        log.contains("Add two()") && log.contains("Fix one() doc"),
        "{log}"
    );
}

#[test]
fn release_notes_are_printed_for_a_range() {
    let repo = released_repo();
    let notes = json!({
        "version": null, "title": "", "summary": "Two is here.",
        "highlights": [{"title": "two()", "description": "A second constant."}],
        "sections": [{"title": "Fixes", "items": ["one() is documented"]}],
        "breaking_changes": [], "upgrade_notes": [], "contributors": ["Test Author"],
    });
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_log", json!({"from": "v0.1.0", "to": "HEAD"})),
        Step::text(notes.to_string()),
        Step::text(approval()),
    ]);
    let out = success(&run(
        &repo,
        &[
            "release-notes",
            "--from",
            "v0.1.0",
            "--version-name",
            "0.2.0",
        ],
        &openai_env(&fake),
    ));
    assert!(
        out.starts_with("# Release 0.2.0\n\nTwo is here.\n\n## Highlights\n\n### two()\n"),
        "{out}"
    );
    assert!(out.contains("## Fixes\n\n- one() is documented"), "{out}");
    assert!(out.contains("Test Author"), "{out}");
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    assert!(asks_schema_once(
        &requests[0],
        &OutputType::ReleaseNotes.schema()
    ));
    let json_out = {
        let fake = FakeProvider::start(vec![Step::text(notes.to_string()), Step::text(approval())]);
        success(&run(
            &repo,
            &["release-notes", "--from", "v0.1.0", "--json"],
            &openai_env(&fake),
        ))
    };
    let value: Value = serde_json::from_str(&json_out).expect("JSON");
    assert_eq!(value["summary"], "Two is here.");
}

#[test]
fn blame_explains_lines_from_their_history_citing_commits() {
    let repo = staged_repo();
    repo.commit_all("Add two()");
    let head = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let fake = FakeProvider::start(vec![Step::text(format!(
        "`two()` returns 2. It came in {} (Add two()), next to `one()`.",
        &head[..10]
    ))]);
    let out = run(
        &repo,
        &["blame", "src/lib.rs:5-7", "--json"],
        &openai_env(&fake),
    );
    let json: Value = serde_json::from_str(&success(&out)).expect("JSON");
    assert_eq!(json["path"], "src/lib.rs");
    assert_eq!(
        (json["start_line"].as_u64(), json["end_line"].as_u64()),
        (Some(5), Some(7))
    );
    assert!(
        json["explanation"]
            .as_str()
            .unwrap_or_default()
            .contains("two()")
    );
    let commits = json["commits"].as_array().expect("commits");
    assert_eq!(commits.len(), 1, "{commits:?}");
    assert_eq!(commits[0]["id"], head.as_str());
    assert_eq!(commits[0]["summary"], "Add two()");
    assert_eq!(json["cited"], json!([commits[0]["short_id"]]));
    // The first request already carries each line with its commit, and the commit's message.
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let asked = requests[0].user_texts().join("\n");
    assert!(
        asked.starts_with("Explain why lines 5-7 of src/lib.rs"),
        "{asked}"
    );
    assert!(asked.contains("pub fn two() -> u32 {"), "{asked}");
    assert!(asked.contains("Add two()"), "{asked}");
    assert!(requests[0].tool_names().iter().any(|t| t == "git_show"));

    // Plain: the explanation as markdown.
    let fake = FakeProvider::start(vec![Step::text("It returns 1.")]);
    let out = run(&repo, &["blame", "src/lib.rs:2"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "It returns 1.");
}

#[test]
fn blame_says_clearly_what_it_cannot_explain() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![]);
    let err = failure(&run(&repo, &["blame", "src/lib.rs"], &openai_env(&fake)), 2);
    assert!(
        err.contains("expected FILE:START-END or FILE:LINE"),
        "{err}"
    );
    let out = run(&repo, &["blame", "src/new.rs:1"], &openai_env(&fake));
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        err.contains("src/new.rs") && err.contains("not a file committed"),
        "{err}"
    );
    assert_eq!(fake.requests().len(), 0, "nothing to explain, nothing sent");
}

/// A proxy in the environment (as many offices set one) is not asked for a model server on
/// this machine: it would not reach it. Here the proxy is a closed port, so going through it
/// would fail the run.
#[test]
fn a_local_model_server_is_asked_directly_not_through_the_proxy() {
    let repo = staged_repo();
    let reply = Step::text(commit_json("Add two()", ""));
    let fake = FakeProvider::start(vec![reply.clone(), reply]);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let proxy = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    for wire in [Wire::Chat, Wire::Ollama] {
        let mut env = wire.env(&fake);
        env.push(("HTTP_PROXY", proxy.clone()));
        env.push(("ALL_PROXY", proxy.clone()));
        let out = run(&repo, &["gen", "--print", "--no-stream"], &env);
        assert_eq!(success(&out).trim(), "Add two()", "{wire:?}");
    }
}

#[test]
fn gen_all_writes_for_the_tracked_files_changes_and_leaves_the_index_as_git_commit_a_does() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.write("old.txt", "old\n");
    repo.commit_all("Initial commit");
    // Nothing staged, nothing changed: the error names what there is to do.
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    let err = failure(&run(&repo, &["gen", "--print"], &openai_env(&fake)), 2);
    assert!(err.contains("or pass --all"), "{err}");
    let err = failure(
        &run(&repo, &["gen", "--print", "--all"], &openai_env(&fake)),
        2,
    );
    assert!(err.contains("no tracked file has changed"), "{err}");
    // A change, a deletion and a new file: the first two are staged, the new file is not.
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    std::fs::remove_file(repo.path().join("old.txt")).expect("remove");
    repo.write("notes.txt", "scratch\n");
    repo.git(&["add", "src/lib.rs"]);
    let index = std::fs::read(repo.path().join(".git/index")).expect("the index");
    let out = run(&repo, &["gen", "--print", "--all"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let sent = &fake.requests()[0].raw_body;
    assert!(
        sent.contains("pub fn two()") && sent.contains("old.txt") && !sent.contains("scratch"),
        "{sent}"
    );
    // Nothing was committed: the index is as it was, as `git commit -a` leaves it then.
    let status = repo.git(&["status", "--porcelain"]);
    assert!(status.contains("M  src/lib.rs"), "{status}");
    assert!(status.contains(" D old.txt"), "{status}");
    assert!(status.contains("?? notes.txt"), "{status}");
    let after = std::fs::read(repo.path().join(".git/index")).expect("the index");
    assert_eq!(after, index, "the index changed");
    // With --auto-commit the staged files are what is committed.
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    success(&run(
        &repo,
        &["gen", "--all", "--auto-commit"],
        &openai_env(&fake),
    ));
    let status = repo.git(&["status", "--porcelain"]);
    assert_eq!(status.trim(), "?? notes.txt");
}

#[test]
fn the_attribution_trailer_follows_the_config_or_the_projects_guide() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("Add two()", "Adds two().")),
        Step::text(commit_json("Add two()", "Adds two().")),
        Step::text(commit_json("Add two()", "Adds two().")),
        Step::text(commit_json("Add two()", "Adds two().")),
    ]);
    let write = |repo: &TestRepo| success(&run(repo, &["gen", "--print"], &openai_env(&fake)));
    // Nothing says so: no trailer.
    assert_eq!(write(&repo).trim(), "Add two()\n\nAdds two().");
    // The project's guide names one for AI-assisted commits.
    repo.write(
        "AGENTS.md",
        "# Agents\n\nCommits written with an AI tool end with `Assisted-by: TOOL (MODEL)`.\n",
    );
    assert_eq!(
        write(&repo).trim(),
        "Add two()\n\nAdds two().\n\nAssisted-by: Iris (gpt-5)"
    );
    // The project's config names another; `none` in the user's config wins over the guide.
    repo.write(".irisconfig", "attribution_trailer = \"Generated-by\"\n");
    assert!(
        write(&repo)
            .trim()
            .ends_with("\n\nGenerated-by: Iris (gpt-5)")
    );
    repo.write(".irisconfig", "");
    write_user_config(&repo, "attribution_trailer = \"none\"\n");
    assert_eq!(write(&repo).trim(), "Add two()\n\nAdds two().");
}

#[test]
fn the_scope_the_staged_files_suggest_is_said_where_the_project_writes_scopes() {
    let repo = TestRepo::new();
    repo.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
    repo.write(
        "crates/core/Cargo.toml",
        "[package]\nname = \"acme-core\"\n",
    );
    repo.write("crates/core/src/lib.rs", "pub fn one() {}\n");
    repo.write("crates/cli/Cargo.toml", "[package]\nname = \"acme\"\n");
    repo.write("crates/cli/src/main.rs", "fn main() {}\n");
    repo.commit_all("feat(core): start");
    repo.write("crates/cli/src/main.rs", "fn main() { println!(); }\n");
    repo.commit_all("fix(cli): print a line");
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("fix(core): add two", "")),
        Step::text(commit_json("feat: both", "")),
        Step::text(commit_json("Add three", "")),
        Step::text(commit_json("fix(core): add four", "")),
    ]);
    // One member: its scope.
    repo.write(
        "crates/core/src/lib.rs",
        "pub fn one() {}\npub fn two() {}\n",
    );
    repo.git(&["add", "-A"]);
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let sent = &fake.requests()[0].raw_body;
    assert!(
        sent.contains("## Scope\\nThe change's files are all in the workspace member `acme-core` (crates/core): its scope is `acme-core`."),
        "{sent}"
    );
    // Two members: said as such.
    repo.write("crates/cli/src/main.rs", "fn main() { println!(\"x\"); }\n");
    repo.git(&["add", "-A"]);
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let sent = &fake.requests()[1].raw_body;
    assert!(
        sent.contains("spans the workspace members `acme` (crates/cli), `acme-core` (crates/core)"),
        "{sent}"
    );
    // A history without scopes and no rules: nothing said.
    let plain = staged_repo();
    success(&run(&plain, &["gen", "--print"], &openai_env(&fake)));
    assert!(!fake.requests()[2].raw_body.contains("## Scope"));
    // commitlint's scope-enum names folders: the member's folder is its scope.
    repo.git(&["reset", "-q", "crates/cli"]);
    repo.write(
        ".commitlintrc.json",
        r#"{"rules": {"scope-enum": [2, "always", ["core", "cli"]]}}"#,
    );
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let sent = &fake.requests()[3].raw_body;
    assert!(sent.contains("its scope is `core`."), "{sent}");
}
