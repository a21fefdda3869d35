//! Faults end to end: the real binary against a fake provider that misbehaves. Each one must
//! end in recovery or in one clear error line (exit 4 for the provider), never in a hang or a
//! panic (`run` fails the test for either, and for the API key in any output).

use std::time::{Duration, Instant};

use crate::common::agent::{
    Wire, commit_json, failure, model_of, openai_env, run, staged_repo, success, write_user_config,
};
use crate::common::fake_provider::{FAKE_API_KEY, FakeProvider, Step, trickle_server};
use crate::common::{TestRepo, stderr};
use serde_json::json;

const MESSAGE: &str = "Add two()\n\nAdds a second constant function.";

fn final_message() -> Step {
    Step::text(commit_json("Add two()", "Adds a second constant function."))
}

fn gen_print(repo: &TestRepo, fake: &FakeProvider, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["gen", "--print"];
    args.extend_from_slice(extra);
    run(repo, &args, &openai_env(fake))
}

#[test]
fn a_429_is_retried_after_the_delay_the_server_asks_for() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::rate_limited(1), final_message()]);
    let started = Instant::now();
    let out = gen_print(&repo, &fake, &[]);
    let elapsed = started.elapsed();
    assert_eq!(success(&out).trim(), MESSAGE);
    assert_eq!(fake.requests().len(), 2);
    assert!(
        elapsed >= Duration::from_millis(950),
        "Retry-After: 1 was honoured: {elapsed:?}"
    );
}

#[test]
fn a_500_is_retried_and_the_run_recovers() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "summary"})),
        Step::error(500),
        final_message(),
    ]);
    let out = gen_print(&repo, &fake, &[]);
    assert_eq!(success(&out).trim(), MESSAGE);
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    // The retry resends the same turn, tool results included.
    assert_eq!(requests[1].raw_body, requests[2].raw_body);
    assert_eq!(requests[2].tool_results().len(), 1);
}

#[test]
fn a_500_that_persists_ends_after_three_tries_with_exit_4_and_one_line() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::repeat(Step::error(500))]);
    let out = gen_print(&repo, &fake, &[]);
    let line = failure(&out, 4);
    assert!(line.starts_with("error: openai gpt-5: "), "{line}");
    assert!(line.contains("fake provider: scripted 500"), "{line}");
    assert_eq!(fake.requests().len(), 3, "MAX_TRIES");
}

#[test]
fn a_provider_error_is_exit_4_naming_provider_model_and_what_the_server_said() {
    for wire in Wire::ALL {
        let repo = staged_repo();
        let fake = FakeProvider::start(vec![Step::Error {
            status: 400,
            body: String::new(),
            retry_after: None,
        }]);
        let out = run(&repo, &["gen", "--print"], &wire.env(&fake));
        let line = failure(&out, 4);
        assert!(
            line.starts_with(&format!("error: {}: ", wire.label())),
            "{wire:?}: {line}"
        );
        assert!(
            line.contains("fake provider: scripted 400"),
            "{wire:?}: {line}"
        );
        // The server's own words, not its JSON or rig's wording around it.
        assert!(
            !line.contains("\"error\"") && !line.contains("Invalid status code"),
            "{wire:?}: {line}"
        );
        assert_eq!(fake.requests().len(), 1, "a 400 is not retried");
        assert!(crate::common::stdout(&out).is_empty());
    }
}

#[test]
fn a_server_that_echoes_the_key_does_not_get_it_printed() {
    let repo = staged_repo();
    let body = json!({"error": {
        "message": format!("Incorrect API key provided: {FAKE_API_KEY}. See your dashboard."),
        "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}});
    let fake = FakeProvider::start(vec![Step::Error {
        status: 401,
        body: body.to_string(),
        retry_after: None,
    }]);
    // `run` fails the test if the key is in stdout or stderr, --debug trace included.
    let out = run(&repo, &["--debug", "gen", "--print"], &openai_env(&fake));
    let line = failure(&out, 4);
    assert!(line.contains("Incorrect API key provided: ****"), "{line}");
}

#[test]
fn a_stream_cut_in_the_middle_is_a_clear_error() {
    for wire in Wire::ALL {
        for no_stream in [false, true] {
            let repo = staged_repo();
            let fake = FakeProvider::start(vec![
                Step::tool_call("git_diff", json!({"detail": "summary"})),
                Step::CutStream(commit_json("Add two()", "Adds a second constant function.")),
            ]);
            let mut args = vec!["gen", "--print"];
            if no_stream {
                args.push("--no-stream");
            }
            let out = run(&repo, &args, &wire.env(&fake));
            let line = failure(&out, 4);
            assert!(
                line.starts_with(&format!("error: {}: ", wire.label())),
                "{wire:?} no_stream={no_stream}: {line}"
            );
            assert!(
                line.contains("the reply was cut off before it was complete"),
                "{wire:?} no_stream={no_stream}: {line}"
            );
            assert!(
                crate::common::stdout(&out).is_empty(),
                "{wire:?} {no_stream}"
            );
            assert_eq!(fake.requests().len(), 2);
        }
    }
}

/// A stream that ends cleanly before the API's final event (a proxy giving up politely).
/// Its first half here is `{"emoji":null,"message":"x","title":"Add`, which JSON repair would
/// happily turn into a message titled "Add": it must be an error, not that artifact.
#[test]
fn a_stream_that_ends_early_is_a_clear_error_not_half_an_artifact() {
    for wire in Wire::ALL {
        for no_stream in [false, true] {
            let repo = staged_repo();
            let fake =
                FakeProvider::start(vec![Step::StreamEndsEarly(commit_json("Add two()", "x"))]);
            let mut args = vec!["gen", "--print"];
            if no_stream {
                args.push("--no-stream");
            }
            let out = run(&repo, &args, &wire.env(&fake));
            let line = failure(&out, 4);
            assert!(
                line.starts_with(&format!("error: {}: ", wire.label())),
                "{wire:?} no_stream={no_stream}: {line}"
            );
            // A whole reply that stops short fails to parse instead.
            let cut = if no_stream {
                "EOF while parsing"
            } else {
                "the reply was cut off before it was complete"
            };
            assert!(line.contains(cut), "{wire:?} no_stream={no_stream}: {line}");
            assert!(
                crate::common::stdout(&out).is_empty(),
                "{wire:?} {no_stream}"
            );
        }
    }
}

#[test]
fn a_malformed_json_body_is_a_clear_error() {
    for wire in Wire::ALL {
        for no_stream in [false, true] {
            let repo = staged_repo();
            let fake = FakeProvider::start(vec![Step::malformed_json()]);
            let mut args = vec!["gen", "--print"];
            if no_stream {
                args.push("--no-stream");
            }
            let out = run(&repo, &args, &wire.env(&fake));
            let line = failure(&out, 4);
            assert!(
                line.starts_with(&format!("error: {}: ", wire.label())),
                "{wire:?} no_stream={no_stream}: {line}"
            );
        }
    }
}

#[test]
fn tool_arguments_of_the_wrong_type_go_back_to_the_model_and_the_run_goes_on() {
    for wire in Wire::ALL {
        for no_stream in [false, true] {
            let repo = staged_repo();
            let fake = FakeProvider::start(vec![
                Step::tool_call("file_read", json!({"path": 42})),
                Step::tool_call("git_diff", json!({"detail": "everything"})),
                Step::tool_call("git_diff", json!({"detail": "standard"})),
                final_message(),
            ]);
            let mut args = vec!["gen", "--print"];
            if no_stream {
                args.push("--no-stream");
            }
            let out = run(&repo, &args, &wire.env(&fake));
            let case = format!("{wire:?} no_stream={no_stream}");
            assert_eq!(success(&out).trim(), MESSAGE, "{case}");
            let requests = fake.requests();
            assert_eq!(requests.len(), 4, "{case}");
            let results = requests[3].tool_results();
            assert_eq!(results.len(), 3, "{case}: {results:?}");
            assert!(
                results[0].1.contains("JsonError") && results[0].1.contains("expected a string"),
                "{case}: the model reads what was wrong: {results:?}"
            );
            assert!(
                results[1].1.contains("everything"),
                "{case}: an unknown variant is named: {results:?}"
            );
            assert!(results[2].1.contains("+pub fn two() -> u32 {"), "{case}");
        }
    }
}

/// Arguments that are not JSON at all: rig 0.37 handles them differently per wire format
/// (only Anthropic without streaming hands them to the tool, which rejects them; the others
/// drop the call or refuse the whole reply). Whatever happens, it is recovery or exit 4 with
/// one line naming the provider, never a hang or a panic.
#[test]
fn tool_arguments_that_are_not_json_end_in_recovery_or_one_clear_line() {
    for wire in Wire::ALL {
        for no_stream in [false, true] {
            let repo = staged_repo();
            let fake = FakeProvider::start(vec![
                Step::RawToolCall {
                    name: "git_diff".into(),
                    arguments: r#"{"detail": "standard""#.into(),
                },
                final_message(),
            ]);
            let mut args = vec!["gen", "--print"];
            if no_stream {
                args.push("--no-stream");
            }
            let out = run(&repo, &args, &wire.env(&fake));
            let case = format!("{wire:?} no_stream={no_stream}");
            if out.status.success() {
                assert_eq!(crate::common::stdout(&out).trim(), MESSAGE, "{case}");
                let results = fake.requests()[1].tool_results();
                assert!(
                    results.len() == 1 && results[0].1.contains("JsonError"),
                    "{case}: {results:?}"
                );
            } else {
                let line = failure(&out, 4);
                assert!(
                    line.starts_with(&format!("error: {}: ", wire.label())),
                    "{case}: {line}"
                );
            }
        }
    }
}

#[test]
fn an_unknown_tool_goes_back_to_the_model_and_the_run_goes_on() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("delete_everything", json!({"really": true})),
        final_message(),
    ]);
    let out = gen_print(&repo, &fake, &[]);
    assert_eq!(success(&out).trim(), MESSAGE);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let results = requests[1].tool_results();
    assert_eq!(results.len(), 1);
    assert!(
        results[0].1.contains("delete_everything") && results[0].1.contains("NotFound"),
        "{results:?}"
    );
}

#[test]
fn a_model_that_never_stops_calling_tools_is_stopped_at_max_turns() {
    for no_stream in [false, true] {
        let repo = staged_repo();
        write_user_config(&repo, "max_turns = 3\n");
        let fake =
            FakeProvider::start(vec![Step::repeat(Step::tool_call("git_status", json!({})))]);
        let extra: &[&str] = if no_stream { &["--no-stream"] } else { &[] };
        let out = gen_print(&repo, &fake, extra);
        let line = failure(&out, 4);
        assert!(
            line.contains("still calling tools after 3 turns"),
            "no_stream={no_stream}: {line}"
        );
        let requests = fake.requests().len();
        assert!(
            requests == 3,
            "no_stream={no_stream}: one request per turn, {requests} requests"
        );
    }
}

#[test]
fn max_turns_allows_exactly_that_many_model_replies() {
    for no_stream in [false, true] {
        let repo = staged_repo();
        write_user_config(&repo, "max_turns = 3\n");
        let fake = FakeProvider::start(vec![
            Step::tool_call("git_status", json!({})),
            Step::tool_call("git_diff", json!({"detail": "summary"})),
            final_message(),
        ]);
        let extra: &[&str] = if no_stream { &["--no-stream"] } else { &[] };
        let out = gen_print(&repo, &fake, extra);
        assert_eq!(success(&out).trim(), MESSAGE, "no_stream={no_stream}");
        assert_eq!(fake.requests().len(), 3);
    }
}

#[test]
fn an_unreadable_final_reply_is_exit_4_and_saved_for_the_user() {
    let repo = staged_repo();
    let raw = "I would call it \"Add two\", but I am not sure {about the rest";
    let fake = FakeProvider::start(vec![Step::text(raw)]);
    let out = gen_print(&repo, &fake, &[]);
    let line = failure(&out, 4);
    let saved = repo.path().join(".git/iris/iris-commit-reply.txt");
    assert!(
        line.contains("could not read the artifact") && line.contains(&saved.display().to_string()),
        "{line}"
    );
    let kept = std::fs::read_to_string(&saved).expect("the raw reply is saved");
    assert_eq!(kept, raw);
}

#[test]
fn a_reply_without_a_title_is_exit_4_and_saved_for_the_user() {
    let repo = staged_repo();
    let raw = r#"{"emoji": null, "title": "", "message": "Something."}"#;
    let fake = FakeProvider::start(vec![Step::text(raw)]);
    let out = gen_print(&repo, &fake, &[]);
    let line = failure(&out, 4);
    assert!(
        line.contains("does not fit the expected shape: it lacks a title"),
        "{line}"
    );
    let saved = repo.path().join(".git/iris/iris-commit-reply.txt");
    assert_eq!(std::fs::read_to_string(saved).expect("saved"), raw);
}

#[test]
fn a_context_overflow_is_retried_once_with_summaries_only() {
    let repo = staged_repo();
    let overflow = json!({"error": {
        "message": "This model's maximum context length is 128000 tokens.",
        "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}});
    let fake = FakeProvider::start(vec![
        Step::Error {
            status: 400,
            body: overflow.to_string(),
            retry_after: None,
        },
        final_message(),
    ]);
    let out = gen_print(&repo, &fake, &[]);
    assert_eq!(success(&out).trim(), MESSAGE);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(!requests[0].system_text().contains("## Context budget"));
    assert!(requests[1].system_text().contains("## Context budget"));
    // The evidence up front is what most likely did not fit: the retry goes without it.
    assert!(requests[0].user_texts()[0].contains("## Evidence gathered up front"));
    let retry = &requests[1].user_texts()[0];
    assert!(!retry.contains("## Evidence gathered up front"), "{retry}");
    assert!(retry.starts_with("Write the commit message for the staged changes."));
}

#[test]
fn parallel_subagents_report_each_result_when_one_of_them_fails() {
    let repo = staged_repo();
    // A commit offers no subagents; this model calls them all the same.
    repo.offer_every_tool("commit");
    let tasks = [
        "Explain what one() does",
        "Explain what two() does",
        "Check the README",
    ];
    let fake = FakeProvider::start(vec![
        Step::tool_call("parallel_analyze", json!({"tasks": tasks})),
        // The three subagents, served in arrival order, whichever task each one has.
        Step::text("FINDINGS-ALPHA: looked at src/lib.rs:1."),
        Step::Error {
            status: 400,
            body: String::new(),
            retry_after: None,
        },
        Step::text("FINDINGS-BETA: looked at src/lib.rs:5."),
        final_message(),
    ]);
    let out = gen_print(&repo, &fake, &[]);
    assert_eq!(success(&out).trim(), MESSAGE);
    let requests = fake.requests();
    assert_eq!(requests.len(), 5);
    for sub in &requests[1..4] {
        assert_eq!(
            model_of(sub),
            "gpt-5-mini",
            "subagents run on the fast model"
        );
        assert!(
            sub.system_text().contains("focused analysis subagent"),
            "{}",
            sub.system_text()
        );
        let names = sub.tool_names();
        assert!(
            names.iter().any(|n| n == "git_diff")
                && !names
                    .iter()
                    .any(|n| n == "parallel_analyze" || n == "analyze_subagent"),
            "subagents cannot delegate: {names:?}"
        );
    }
    let mut asked: Vec<String> = requests[1..4]
        .iter()
        .map(|r| r.user_texts().join(""))
        .collect();
    asked.sort();
    let mut expected: Vec<String> = tasks.iter().map(|t| t.to_string()).collect();
    expected.sort();
    assert_eq!(asked, expected);

    let results = requests[4].tool_results();
    assert_eq!(results.len(), 1);
    let report = &results[0].1;
    assert!(
        report.starts_with("2 of 3 subagent task(s) succeeded, 1 failed"),
        "{report}"
    );
    assert!(
        report.contains("FINDINGS-ALPHA") && report.contains("FINDINGS-BETA"),
        "{report}"
    );
    assert!(
        report.contains("FAILED: openai gpt-5-mini: ")
            && report.contains("fake provider: scripted 400"),
        "{report}"
    );
    assert!(!report.contains(FAKE_API_KEY));
    for task in tasks {
        assert!(report.contains(&format!(": {task}\n")), "{report}");
    }
    assert!(stderr(&out).is_empty() || !stderr(&out).contains("error"));
}

#[test]
fn a_server_that_stalls_is_abandoned_after_request_timeout_secs() {
    let repo = staged_repo();
    write_user_config(&repo, "request_timeout_secs = 1\n");
    let fake = FakeProvider::start(vec![Step::slow(2_500, final_message())]);
    let started = Instant::now();
    let out = gen_print(&repo, &fake, &[]);
    let elapsed = started.elapsed();
    let line = failure(&out, 4);
    assert!(line.starts_with("error: openai gpt-5: "), "{line}");
    assert!(
        line.contains("no answer from http://127.0.0.1:")
            && line.contains("within 1s (request_timeout_secs)"),
        "{line}"
    );
    assert!(
        elapsed < Duration::from_millis(2_400),
        "gave up before the reply came: {elapsed:?}"
    );
    assert_eq!(fake.requests().len(), 1, "a timeout is not retried");
}

/// A server that answers a streamed request at once and then sends only keep-alive
/// comments, every 100 ms, for `for_how_long`: bytes without text, as llama.cpp was seen to.
fn keepalive_server(for_how_long: Duration) -> String {
    let port = trickle_server("", ": keep-alive\n\n", for_how_long);
    format!("http://127.0.0.1:{port}/v1")
}

#[test]
fn a_stream_of_bytes_without_text_is_stopped_after_request_timeout_secs() {
    let repo = staged_repo();
    write_user_config(&repo, "request_timeout_secs = 1\n");
    let base = keepalive_server(Duration::from_secs(30));
    let env = vec![
        ("IRIS_PROVIDER", "openai-compatible".to_string()),
        ("IRIS_MODEL", "local-model".to_string()),
        ("OPENAI_API_KEY", FAKE_API_KEY.to_string()),
        ("OPENAI_BASE_URL", base),
    ];
    let started = Instant::now();
    let out = run(&repo, &["gen", "--print"], &env);
    let elapsed = started.elapsed();
    let line = failure(&out, 4);
    assert!(
        line.contains(
            "sent nothing readable (no text, tool call or reasoning) for 1s (request_timeout_secs)"
        ),
        "{line}"
    );
    assert!(
        elapsed < Duration::from_secs(10),
        "stopped only after {elapsed:?}"
    );
}

/// Anthropic's stream passes empty text deltas through (Chat Completions' keep-alives never
/// reach Iris): a server that sends only those is stalled all the same.
#[test]
fn a_stream_of_empty_text_deltas_is_stopped_after_request_timeout_secs() {
    const START: &str = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n";
    const EMPTY: &str = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\"}}\n\n";
    let repo = staged_repo();
    write_user_config(&repo, "request_timeout_secs = 1\n");
    let port = trickle_server(START, EMPTY, Duration::from_secs(30));
    let env = vec![
        ("IRIS_PROVIDER", "anthropic".to_string()),
        ("ANTHROPIC_API_KEY", FAKE_API_KEY.to_string()),
        ("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}")),
    ];
    let started = Instant::now();
    let out = run(&repo, &["gen", "--print"], &env);
    let elapsed = started.elapsed();
    let line = failure(&out, 4);
    assert!(
        line.contains("sent nothing readable (no text, tool call or reasoning) for 1s"),
        "{line}"
    );
    assert!(
        elapsed < Duration::from_secs(10),
        "stopped only after {elapsed:?}"
    );
}

#[test]
fn an_unreachable_server_is_exit_4_saying_so() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let repo = staged_repo();
    let env = vec![
        ("IRIS_PROVIDER", "openai".to_string()),
        ("OPENAI_API_KEY", FAKE_API_KEY.to_string()),
        ("OPENAI_BASE_URL", format!("http://127.0.0.1:{closed}/v1")),
    ];
    let out = run(&repo, &["gen", "--print"], &env);
    let line = failure(&out, 4);
    // The provider, the model, then what went wrong: no names of rig's error types between.
    assert!(
        line.contains(&format!(
            "openai gpt-5: could not connect to http://127.0.0.1:{closed}/v1/responses"
        )),
        "{line}"
    );
}

/// A tool call's arguments reach Iris only through the hook: while they stream, slowly but
/// steadily, the stall watchdog is re-armed and the run goes on past request_timeout_secs.
#[test]
fn tool_arguments_that_stream_slowly_keep_the_run_alive() {
    let repo = staged_repo();
    write_user_config(&repo, "request_timeout_secs = 1\n");
    // Each piece of the call 400 ms after the last: the whole call takes seconds.
    let call = Step::tool_call(
        "git_diff",
        json!({"detail": "standard", "files": ["src/lib.rs"], "include_unstaged": false}),
    );
    let fake = FakeProvider::start(vec![
        Step::paced(400, call),
        Step::text(commit_json("Add two()", "Add `two()`.")),
    ]);
    let started = Instant::now();
    let out = run(&repo, &["gen", "--print"], &Wire::Chat.env(&fake));
    let printed = success(&out);
    assert!(printed.starts_with("Add two()"), "{printed}");
    assert!(
        started.elapsed() > Duration::from_millis(1_500),
        "the call streamed faster than the stall limit: the test shows nothing"
    );
    assert_eq!(fake.requests().len(), 2);
}
