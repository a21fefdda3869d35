//! Iris with real models (issue 10), end to end on every wire the fake speaks: the first
//! request carries the evidence, the provider is asked to keep the answer to its schema (and
//! a server that refuses that is asked again without it), every request has an output budget,
//! a runaway stream is cut, and a run has a deadline.

use std::time::{Duration, Instant};

use crate::common::agent::{
    Wire, approval, commit_json, failure, released_repo, run, staged_repo, success,
    write_user_config,
};
use crate::common::fake_provider::{Api, FakeProvider, Recorded, Step};
use serde_json::{Value, json};

const MESSAGE: &str = "Add two()\n\nAdds a second constant function.";

fn answer() -> Step {
    Step::text(commit_json("Add two()", "Adds a second constant function."))
}

fn review_json() -> String {
    json!({"summary": "Adds two().", "findings": [], "strengths": []}).to_string()
}

/// The schema option as the request carries it on its wire, if it does.
fn schema_option(request: &Recorded) -> Option<&Value> {
    let body = &request.body;
    let found = match request.api {
        Api::Responses => body.pointer("/text/format/schema"),
        Api::ChatCompletions => body.pointer("/response_format/json_schema/schema"),
        Api::AnthropicMessages => body.pointer("/output_config/format/schema"),
        Api::Gemini => body.pointer("/generationConfig/responseJsonSchema"),
        Api::Ollama => body.get("format"),
        Api::Unknown => None,
    };
    found.filter(|v| !v.is_null())
}

/// The output budget as the request carries it on its wire.
fn budget(request: &Recorded) -> Option<u64> {
    let body = &request.body;
    match request.api {
        Api::Responses => body.get("max_output_tokens"),
        Api::ChatCompletions | Api::AnthropicMessages => body.get("max_tokens"),
        Api::Gemini => body.pointer("/generationConfig/maxOutputTokens"),
        Api::Ollama => body.pointer("/options/num_predict"),
        Api::Unknown => None,
    }
    .and_then(Value::as_u64)
}

#[test]
fn a_small_commit_is_written_in_one_request_carrying_the_whole_change() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![answer()]);
    let out = run(&repo, &["gen", "--print"], &Wire::Responses.env(&fake));
    assert_eq!(success(&out).trim(), MESSAGE);
    let requests = fake.requests();
    assert_eq!(
        requests.len(),
        1,
        "a model that answers at once: one request"
    );
    let asked = requests[0].user_texts().join("\n");
    assert!(asked.starts_with("Write the commit message for the staged changes."));
    for evidence in [
        "## Evidence gathered up front",
        "Size: small",
        "src/lib.rs",
        "+pub fn two() -> u32 {",
        "this is the whole change",
        "Initial commit",
    ] {
        assert!(asked.contains(evidence), "no `{evidence}` in:\n{asked}");
    }
    // The tools stay for what the evidence lacks.
    assert!(requests[0].tool_names().iter().any(|t| t == "git_diff"));
}

#[test]
fn ranges_carry_their_commits_and_a_pr_its_diff_too() {
    let repo = released_repo();
    let fake = FakeProvider::start(vec![
        Step::text(
            json!({"title": "Add two()", "summary": "Adds two().", "changes": [],
                   "testing": null, "breaking_changes": [], "notes": null})
            .to_string(),
        ),
        Step::text(approval()),
    ]);
    let out = run(
        &repo,
        &["pr", "--from", "v0.1.0"],
        &Wire::Responses.env(&fake),
    );
    // The artifact's sections are the PR tests' business; that the run wrote this PR is this
    // one's, with what it was asked.
    let printed = success(&out);
    assert!(printed.starts_with("# Add two()"), "{printed}");
    assert_eq!(fake.requests().len(), 2, "the PR and its critic");
    let asked = fake.requests()[0].user_texts().join("\n");
    for evidence in [
        "Changes in v0.1.0..HEAD",
        "+pub fn two() -> u32 {",
        "commit(s) in v0.1.0..HEAD",
        "Fix one() doc",
    ] {
        assert!(asked.contains(evidence), "no `{evidence}` in:\n{asked}");
    }
}

#[test]
fn every_wire_asks_for_the_schema_and_sets_an_output_budget() {
    for wire in Wire::EVERY {
        let repo = staged_repo();
        let fake = FakeProvider::start(vec![answer()]);
        let out = run(&repo, &["gen", "--print"], &wire.env(&fake));
        assert_eq!(success(&out).trim(), MESSAGE, "{wire:?}");
        let request = &fake.requests()[0];
        let schema = schema_option(request)
            .unwrap_or_else(|| panic!("{wire:?}: no schema option in {}", request.body));
        assert!(
            schema.to_string().contains("\"title\""),
            "{wire:?}: the commit schema: {schema}"
        );
        // The commit capability asks for less than the 16,384 default, and a local server
        // (no hidden reasoning to make room for) for a brief answer's budget.
        let expected = match wire {
            Wire::Chat | Wire::Ollama => 2048,
            _ => 8192,
        };
        assert_eq!(
            budget(request),
            Some(expected),
            "{wire:?}: {}",
            request.body
        );
    }
}

#[test]
fn the_budget_and_the_schema_follow_the_configuration() {
    let repo = staged_repo();
    write_user_config(
        &repo,
        "max_output_tokens = 1000\nstructured_output = false\n",
    );
    let fake = FakeProvider::start(vec![answer()]);
    success(&run(&repo, &["gen", "--print"], &Wire::Chat.env(&fake)));
    let request = &fake.requests()[0];
    assert_eq!(
        budget(request),
        Some(1000),
        "the configured budget is lower"
    );
    assert_eq!(schema_option(request), None);
}

#[test]
fn a_server_that_refuses_the_schema_is_asked_again_without_it_for_the_rest_of_the_run() {
    for wire in Wire::EVERY {
        let repo = staged_repo();
        let refusal = match wire {
            Wire::Gemini => {
                "Function calling with a response mime type: 'application/json' is unsupported"
            }
            _ => "response_format type json_schema is not supported",
        };
        let fake = FakeProvider::start(vec![
            Step::Error {
                status: 400,
                body: json!({"error": {"message": refusal, "code": 400}}).to_string(),
                retry_after: None,
            },
            Step::text(review_json()),
            Step::text(approval()),
        ]);
        let out = run(&repo, &["review"], &wire.env(&fake));
        assert!(success(&out).contains("Adds two()."), "{wire:?}");
        let requests = fake.requests();
        assert_eq!(requests.len(), 3, "{wire:?}: refused, answered, checked");
        assert!(schema_option(&requests[0]).is_some(), "{wire:?}");
        assert_eq!(
            schema_option(&requests[1]),
            None,
            "{wire:?}: asked again without"
        );
        assert_eq!(
            schema_option(&requests[2]),
            None,
            "{wire:?}: the critic is not asked with it either"
        );
    }
}

#[test]
fn a_model_that_takes_a_smaller_budget_is_asked_again_within_it() {
    let repo = staged_repo();
    let refusal = "max_tokens is too large: 16384. This model supports at most 4096 completion \
                   tokens, whereas you provided 16384.";
    let fake = FakeProvider::start(vec![
        Step::Error {
            status: 400,
            body: json!({"error": {"message": refusal}}).to_string(),
            retry_after: None,
        },
        Step::text(review_json()),
        Step::text(approval()),
    ]);
    // A hosted model: on a local server the critic asks for a brief answer's budget anyway.
    let out = run(&repo, &["review"], &Wire::Responses.env(&fake));
    assert!(success(&out).contains("Adds two()."));
    let budgets: Vec<Option<u64>> = fake.requests().iter().map(budget).collect();
    assert_eq!(
        budgets,
        [Some(16_384), Some(4096), Some(4096)],
        "the critic keeps to it too"
    );
    assert!(
        schema_option(&fake.requests()[1]).is_some(),
        "the schema was not the problem"
    );
}

#[test]
fn a_bad_request_about_something_else_is_not_mistaken_for_a_refused_schema() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::Error {
        status: 400,
        body: json!({"error": {"message": "model `x` does not exist"}}).to_string(),
        retry_after: None,
    }]);
    let line = failure(&run(&repo, &["gen", "--print"], &Wire::Chat.env(&fake)), 4);
    assert!(line.contains("model `x` does not exist"), "{line}");
    assert_eq!(fake.requests().len(), 1);
}

#[test]
fn a_reply_that_repeats_itself_is_cut_early_with_a_clear_message() {
    for wire in Wire::EVERY {
        let repo = staged_repo();
        // 3,000 words at one every 5 ms: 15 s if read to the end.
        let looping = format!(
            "{{\"title\": \"Add two()\", \"message\": \"{}",
            "This is the first version of the version. ".repeat(375)
        );
        let fake = FakeProvider::start(vec![Step::paced(5, Step::text(looping))]);
        let started = Instant::now();
        let line = failure(&run(&repo, &["gen", "--print"], &wire.env(&fake)), 4);
        assert!(line.contains("repeats itself"), "{wire:?}: {line}");
        assert!(line.contains("stopped"), "{wire:?}: {line}");
        assert!(
            started.elapsed() < Duration::from_secs(12),
            "{wire:?}: cut early, not read to the end ({:?})",
            started.elapsed()
        );
    }
}

#[test]
fn a_run_past_its_deadline_stops_with_a_clear_error() {
    let repo = staged_repo();
    write_user_config(&repo, "run_timeout_secs = 1\n");
    let fake = FakeProvider::start(vec![Step::slow(20_000, answer())]);
    let started = Instant::now();
    let line = failure(
        &run(&repo, &["gen", "--print"], &Wire::Responses.env(&fake)),
        4,
    );
    assert!(line.contains("stopped after 1s"), "{line}");
    assert!(line.contains("run_timeout_secs"), "{line}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "the deadline fired"
    );
}

#[test]
fn a_tool_call_whose_arguments_loop_is_cut_too() {
    let repo = staged_repo();
    let arguments = format!("{{\"files\": [{}", "\"src/a.rs\", ".repeat(2_000));
    let fake = FakeProvider::start(vec![Step::paced(
        1,
        Step::RawToolCall {
            name: "git_diff".into(),
            arguments,
        },
    )]);
    let line = failure(&run(&repo, &["gen", "--print"], &Wire::Chat.env(&fake)), 4);
    assert!(line.contains("repeats itself"), "{line}");
}

/// Every request's tokens reach the events, a streamed turn that only calls tools included
/// (rig reports those to no hook).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_and_its_tokens_reach_the_events() {
    use crate::common::agent::spec_at;
    use crate::common::fake_provider::{INPUT_TOKENS, OUTPUT_TOKENS};
    use iris_studio_agent::tools::ToolContext;
    use iris_studio_agent::tools::registry::core_tools;
    use iris_studio_agent::{EventSink, ProviderKind, ProviderSpec, Run, run};
    use iris_studio_core::protocol::AgentEvent;

    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_status", json!({})),
        Step::text("done"),
    ]);
    let spec = ProviderSpec {
        local: true,
        api_key: None,
        ..spec_at(
            ProviderKind::OpenAiCompatible,
            "local-model",
            fake.openai_base_url(),
        )
    };
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let request = Run {
        preamble: "Be brief.".into(),
        history: Vec::new(),
        prompt: "Look.".into(),
        tools: core_tools(&ToolContext::new(repo.path())),
        max_turns: 5,
        max_tokens: 100,
        schema: None,
        stream: true,
    };
    let output = run(&spec, &Default::default(), request, EventSink::new(tx))
        .await
        .expect("run");
    assert_eq!(output.text, "done");
    assert_eq!(output.requests, 2);
    let (mut requests, mut input, mut out) = (0, 0, 0);
    while let Ok(event) = rx.try_recv() {
        match event {
            AgentEvent::Request => requests += 1,
            AgentEvent::Usage {
                input: i,
                output: o,
                ..
            } => {
                input += i;
                out += o;
            }
            _ => {}
        }
    }
    assert_eq!(requests, 2);
    assert_eq!((input, out), (2 * INPUT_TOKENS, 2 * OUTPUT_TOKENS));
}

#[test]
fn a_model_that_loops_while_reasoning_is_cut_too() {
    let repo = staged_repo();
    let chunk = |delta: Value, finish: Value| {
        let chunk = json!({"id": "c1", "object": "chat.completion.chunk", "created": 0,
                           "model": "local-model",
                           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        format!("data: {chunk}\n\n")
    };
    let mut body = chunk(json!({"role": "assistant"}), Value::Null);
    for _ in 0..300 {
        body.push_str(&chunk(
            json!({"reasoning_content": "Let me think about it again. "}),
            Value::Null,
        ));
    }
    body.push_str(&chunk(json!({"content": "{}"}), json!("stop")));
    body.push_str("data: [DONE]\n\n");
    let fake = FakeProvider::start(vec![Step::Raw {
        status: 200,
        content_type: "text/event-stream".into(),
        body,
    }]);
    let line = failure(&run(&repo, &["gen", "--print"], &Wire::Chat.env(&fake)), 4);
    assert!(line.contains("in its reasoning"), "{line}");
}
