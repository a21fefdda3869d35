//! The fake provider (tests/common/fake_provider.rs) against rig 0.37's real clients: each API, as
//! JSON and as server-sent events, with a tool round trip, errors and faults. Where rig's behaviour
//! is surprising, the test that shows it says so, so that a rig upgrade that changes it fails here.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::fake_provider::{
    Api, FAKE_API_KEY, FakeProvider, INPUT_TOKENS, Need, OUTPUT_TOKENS, Recorded, Step,
};
use futures::StreamExt;
use rig_core::agent::{Agent, MultiTurnStreamItem, PromptResponse};
use rig_core::client::CompletionClient;
use rig_core::completion::{CompletionModel, Prompt, PromptError, ToolDefinition, Usage};
use rig_core::providers::{anthropic, gemini, ollama, openai};
use rig_core::streaming::{StreamedAssistantContent, StreamedUserContent, StreamingPrompt};
use rig_core::tool::Tool;
use serde::Deserialize;
use serde_json::{Value, json};

const PREAMBLE: &str = "You are the Iris test agent. Style: terse, no emoji.";
const PROMPT: &str = "What is 1 + 2? Use the add tool.";
/// Nothing here should take long: a hang is a failure, not a stuck test run.
const LIMIT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------------------------
// A tool and five agents

#[derive(Clone, Default)]
struct Add {
    calls: Arc<Mutex<Vec<(i64, i64)>>>,
}

#[derive(Deserialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Debug)]
struct AddError;

impl std::fmt::Display for AddError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("add failed")
    }
}

impl std::error::Error for AddError {}

impl Tool for Add {
    const NAME: &'static str = "add";
    type Error = AddError;
    type Args = AddArgs;
    type Output = i64;

    async fn definition(&self, _prompt: String) -> ToolDefinition {
        ToolDefinition {
            name: Self::NAME.into(),
            description: "Adds two integers.".into(),
            parameters: json!({
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
            }),
        }
    }

    async fn call(&self, args: AddArgs) -> Result<i64, AddError> {
        self.calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((args.a, args.b));
        Ok(args.a + args.b)
    }
}

impl Add {
    fn calls(&self) -> Vec<(i64, i64)> {
        self.calls.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

fn responses_agent(
    base_url: &str,
    add: &Add,
) -> Agent<openai::responses_api::ResponsesCompletionModel> {
    openai::Client::builder()
        .api_key(FAKE_API_KEY)
        .base_url(base_url)
        .build()
        .expect("openai client")
        .agent("gpt-fake")
        .preamble(PREAMBLE)
        .tool(add.clone())
        .build()
}

fn chat_agent(base_url: &str, add: &Add) -> Agent<openai::CompletionModel> {
    openai::CompletionsClient::builder()
        .api_key(FAKE_API_KEY)
        .base_url(base_url)
        .build()
        .expect("openai completions client")
        .agent("gpt-fake")
        .preamble(PREAMBLE)
        .tool(add.clone())
        .build()
}

fn anthropic_agent(base_url: &str, add: &Add) -> Agent<anthropic::completion::CompletionModel> {
    anthropic::Client::builder()
        .api_key(FAKE_API_KEY)
        .base_url(base_url)
        .build()
        .expect("anthropic client")
        .agent("claude-fake")
        // rig only knows a default max_tokens for claude-{opus,sonnet}-4* and haiku-4-5 names;
        // any other model name fails with "`max_tokens` must be set for Anthropic".
        .max_tokens(1024)
        .preamble(PREAMBLE)
        .tool(add.clone())
        .build()
}

fn gemini_agent(base_url: &str, add: &Add) -> Agent<gemini::CompletionModel> {
    gemini::Client::builder()
        .api_key(FAKE_API_KEY)
        .base_url(base_url)
        .build()
        .expect("gemini client")
        .agent("gemini-fake")
        .preamble(PREAMBLE)
        .tool(add.clone())
        .build()
}

fn ollama_agent(base_url: &str, add: &Add) -> Agent<ollama::CompletionModel> {
    ollama::Client::builder()
        .api_key(FAKE_API_KEY)
        .base_url(base_url)
        .build()
        .expect("ollama client")
        .agent("llama-fake")
        .preamble(PREAMBLE)
        .tool(add.clone())
        .build()
}

// ---------------------------------------------------------------------------------------------
// Running an agent

async fn prompt<M: CompletionModel + 'static>(
    agent: &Agent<M>,
    turns: usize,
) -> Result<PromptResponse, PromptError> {
    tokio::time::timeout(
        LIMIT,
        agent.prompt(PROMPT).max_turns(turns).extended_details(),
    )
    .await
    .expect("rig's prompt hung against the fake")
}

/// What a streamed multi-turn prompt produced.
#[derive(Debug, Default)]
struct Streamed {
    text_deltas: Vec<String>,
    tool_calls: Vec<String>,
    tool_results: usize,
    final_text: Option<String>,
    usage: Option<Usage>,
    errors: Vec<String>,
}

async fn stream<M: CompletionModel + 'static>(agent: &Agent<M>, turns: usize) -> Streamed {
    let run = async {
        let mut out = Streamed::default();
        let mut items = agent.stream_prompt(PROMPT).multi_turn(turns).await;
        while let Some(item) = items.next().await {
            match item {
                Ok(MultiTurnStreamItem::StreamAssistantItem(StreamedAssistantContent::Text(t))) => {
                    out.text_deltas.push(t.text)
                }
                Ok(MultiTurnStreamItem::StreamAssistantItem(
                    StreamedAssistantContent::ToolCall { tool_call, .. },
                )) => out.tool_calls.push(tool_call.function.name),
                Ok(MultiTurnStreamItem::StreamUserItem(StreamedUserContent::ToolResult {
                    ..
                })) => out.tool_results += 1,
                Ok(MultiTurnStreamItem::FinalResponse(fin)) => {
                    out.final_text = Some(fin.response().to_owned());
                    out.usage = Some(fin.usage());
                }
                Ok(_) => {}
                Err(e) => out.errors.push(e.to_string()),
            }
        }
        out
    };
    tokio::time::timeout(LIMIT, run)
        .await
        .expect("rig's stream hung against the fake")
}

// ---------------------------------------------------------------------------------------------
// The tool round trip, for each API, as JSON and as server-sent events

fn round_trip_script() -> Vec<Step> {
    vec![
        Step::tool_call("add", json!({"a": 1, "b": 2})),
        Step::text("3"),
    ]
}

/// What every round trip must have sent: the tools and the preamble first, the tool's result
/// (for the call id the fake made up) second, the key in the right header each time.
fn assert_round_trip_requests(fake: &FakeProvider, api: Api, stream: bool) {
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "{requests:#?}");
    assert_eq!(fake.remaining(), 0);
    for r in &requests {
        assert_eq!(r.method, "POST");
        assert_eq!(r.api, api, "{}", r.path);
        assert_eq!(r.stream, stream, "{}", r.raw_body);
        assert_auth(r);
    }
    let first = &requests[0];
    assert_eq!(first.tool_names(), ["add"], "{}", first.raw_body);
    let schema = first.tool_schema("add").expect("add's schema offered");
    assert_eq!(schema["properties"]["a"]["type"], "integer", "{schema}");
    assert!(
        first.system_text().contains("Style: terse"),
        "{}",
        first.raw_body
    );
    assert_eq!(first.user_texts(), [PROMPT]);
    assert!(first.tool_results().is_empty());

    let second = &requests[1];
    let results = second.tool_results();
    assert_eq!(results.len(), 1, "{}", second.raw_body);
    let (call_id, output) = &results[0];
    match api {
        Api::AnthropicMessages => assert!(call_id.starts_with("toolu_fake_"), "{call_id}"),
        // No call ids on these wires: rig answers under the function's name (Gemini's
        // `functionResponse.name`, Ollama's `tool_name`), except for a streamed Ollama call,
        // whose result goes back with an empty `tool_name`.
        Api::Ollama if stream => assert_eq!(call_id, "", "{}", second.raw_body),
        Api::Gemini | Api::Ollama => assert_eq!(call_id, "add", "{}", second.raw_body),
        _ => assert!(call_id.starts_with("call_fake_"), "{call_id}"),
    }
    assert_eq!(output, "3");
    // The model's own tool call goes back with it, under the same id.
    assert!(second.raw_body.contains(call_id.as_str()));
    assert!(second.system_text().contains("Style: terse"));
    // The schema is offered again on every turn.
    assert_eq!(second.tool_names(), ["add"]);
}

fn assert_auth(r: &Recorded) {
    match r.api {
        Api::AnthropicMessages => {
            assert_eq!(r.header("x-api-key"), Some(FAKE_API_KEY));
            assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
            assert_eq!(r.header("authorization"), None);
        }
        Api::Gemini => {
            // rig 0.37 puts the Gemini key in the URL (`?key=`), not in `x-goog-api-key`.
            assert_eq!(r.query("key"), Some(FAKE_API_KEY), "{}", r.path);
            assert_eq!(r.header("x-goog-api-key"), None);
            assert_eq!(r.header("authorization"), None);
        }
        _ => {
            let bearer = format!("Bearer {FAKE_API_KEY}");
            assert_eq!(r.header("Authorization"), Some(bearer.as_str()));
        }
    }
}

fn assert_usage_of_two_replies(usage: Usage) {
    assert_eq!(usage.input_tokens, 2 * INPUT_TOKENS, "{usage:?}");
    assert_eq!(usage.output_tokens, 2 * OUTPUT_TOKENS, "{usage:?}");
}

async fn json_round_trip<M: CompletionModel + 'static>(
    fake: &FakeProvider,
    agent: Agent<M>,
    add: &Add,
    api: Api,
) {
    let answer = prompt(&agent, 5).await.expect("round trip");
    assert_eq!(answer.output, "3");
    assert_eq!(add.calls(), [(1, 2)]);
    assert_usage_of_two_replies(answer.usage);
    assert_round_trip_requests(fake, api, false);
}

async fn sse_round_trip<M: CompletionModel + 'static>(
    fake: &FakeProvider,
    agent: Agent<M>,
    add: &Add,
    api: Api,
) {
    let out = stream(&agent, 5).await;
    assert!(out.errors.is_empty(), "{out:#?}");
    assert_eq!(out.final_text.as_deref(), Some("3"), "{out:#?}");
    assert_eq!(out.text_deltas.concat(), "3");
    assert_eq!(out.tool_calls, ["add"]);
    assert_eq!(out.tool_results, 1);
    assert_eq!(add.calls(), [(1, 2)]);
    assert_usage_of_two_replies(out.usage.expect("usage"));
    assert_round_trip_requests(fake, api, true);
}

#[tokio::test]
async fn responses_json_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = responses_agent(&fake.openai_base_url(), &add);
    json_round_trip(&fake, agent, &add, Api::Responses).await;
    assert_eq!(fake.requests()[0].path, "/v1/responses");
}

#[tokio::test]
async fn responses_sse_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = responses_agent(&fake.openai_base_url(), &add);
    sse_round_trip(&fake, agent, &add, Api::Responses).await;
}

#[tokio::test]
async fn chat_completions_json_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = chat_agent(&fake.openai_base_url(), &add);
    json_round_trip(&fake, agent, &add, Api::ChatCompletions).await;
    assert_eq!(fake.requests()[0].path, "/v1/chat/completions");
}

#[tokio::test]
async fn chat_completions_sse_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = chat_agent(&fake.openai_base_url(), &add);
    sse_round_trip(&fake, agent, &add, Api::ChatCompletions).await;
    // rig asks for the usage chunk, which is where streamed token counts come from.
    assert_eq!(
        fake.requests()[0].body["stream_options"]["include_usage"],
        true
    );
}

#[tokio::test]
async fn anthropic_json_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = anthropic_agent(&fake.base_url(), &add);
    json_round_trip(&fake, agent, &add, Api::AnthropicMessages).await;
    let first = &fake.requests()[0];
    assert_eq!(first.path, "/v1/messages");
    assert_eq!(first.body["max_tokens"], 1024);
}

#[tokio::test]
async fn anthropic_sse_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = anthropic_agent(&fake.base_url(), &add);
    sse_round_trip(&fake, agent, &add, Api::AnthropicMessages).await;
}

#[tokio::test]
async fn two_tool_calls_in_one_reply_each_get_an_id_and_a_result() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        for streaming in [false, true] {
            let fake = FakeProvider::start(vec![
                Step::ToolCalls(vec![
                    ("add".into(), json!({"a": 1, "b": 2})),
                    ("add".into(), json!({"a": 10, "b": 20})),
                ]),
                Step::text("3 and 30"),
            ]);
            let add = Add::default();
            let text = match api {
                Api::Responses => {
                    run(responses_agent(&fake.openai_base_url(), &add), streaming).await
                }
                Api::ChatCompletions => {
                    run(chat_agent(&fake.openai_base_url(), &add), streaming).await
                }
                _ => run(anthropic_agent(&fake.base_url(), &add), streaming).await,
            };
            assert_eq!(text, "3 and 30", "{api:?} streaming={streaming}");
            let mut calls = add.calls();
            calls.sort();
            assert_eq!(calls, [(1, 2), (10, 20)], "{api:?} streaming={streaming}");
            let results = fake.requests()[1].tool_results();
            assert_eq!(results.len(), 2, "{api:?} streaming={streaming}");
            assert_ne!(results[0].0, results[1].0, "call ids must differ");
            let mut outputs: Vec<_> = results.iter().map(|(_, out)| out.as_str()).collect();
            outputs.sort();
            assert_eq!(outputs, ["3", "30"]);
        }
    }
}

#[tokio::test]
async fn a_careful_model_at_once_calls_for_all_it_lacks_in_one_reply() {
    let need = |a: i64, b: i64| Need {
        marker: format!("\"{}\"", a + b),
        tool: "add".into(),
        args: json!({"a": a, "b": b}),
    };
    let fake = FakeProvider::start(vec![Step::CarefulAtOnce {
        needs: vec![need(1, 2), need(10, 20), need(1, 2)],
        answer: "3 and 30".into(),
    }]);
    let add = Add::default();
    let text = run(chat_agent(&fake.openai_base_url(), &add), false).await;
    assert_eq!(text, "3 and 30");
    let mut calls = add.calls();
    calls.sort();
    assert_eq!(calls, [(1, 2), (10, 20)], "the same call once");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "one reply of calls, then the answer");
    assert_eq!(fake.remaining(), 0);
}

/// Runs the usual prompt, as JSON or streamed, and returns the final text.
async fn run<M: CompletionModel + 'static>(agent: Agent<M>, streaming: bool) -> String {
    if streaming {
        let out = stream(&agent, 5).await;
        assert!(out.errors.is_empty(), "{out:#?}");
        out.final_text.expect("a final response")
    } else {
        prompt(&agent, 5).await.expect("prompt").output
    }
}

// ---------------------------------------------------------------------------------------------
// Base URL forms

#[tokio::test]
async fn each_client_reaches_the_fake_with_every_documented_base_url_form() {
    let add = Add::default();
    let fake = FakeProvider::start(vec![Step::text("ok"); 7]);
    let base = fake.base_url();
    let openai_forms = [format!("{base}/v1"), base.clone(), format!("{base}/v1/")];
    for url in &openai_forms {
        assert_eq!(
            prompt(&responses_agent(url, &add), 1)
                .await
                .expect(url)
                .output,
            "ok"
        );
    }
    assert_eq!(
        prompt(&chat_agent(&base, &add), 1)
            .await
            .expect("chat")
            .output,
        "ok"
    );
    for url in [
        base.clone(),
        format!("{base}/v1"),
        format!("{base}/v1/messages"),
    ] {
        assert_eq!(
            prompt(&anthropic_agent(&url, &add), 1)
                .await
                .expect(&url)
                .output,
            "ok"
        );
    }
    let paths: Vec<_> = fake.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        [
            "/v1/responses",
            "/responses",
            "/v1//responses", // a trailing slash is kept by rig: real servers may 404 on this
            "/chat/completions",
            "/v1/messages",
            "/v1/messages",
            "/v1/messages",
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Errors and faults

#[tokio::test]
async fn rate_limit_then_success_rig_does_not_retry_by_itself() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        let fake = FakeProvider::start(vec![Step::rate_limited(2), Step::text("ok")]);
        let add = Add::default();
        let base = fake.base_url();
        let (first, second) = match api {
            Api::Responses => {
                let agent = responses_agent(&base, &add);
                (
                    prompt(&agent, 1).await.map(|r| r.output),
                    prompt(&agent, 1).await,
                )
            }
            Api::ChatCompletions => {
                let agent = chat_agent(&base, &add);
                (
                    prompt(&agent, 1).await.map(|r| r.output),
                    prompt(&agent, 1).await,
                )
            }
            _ => {
                let agent = anthropic_agent(&base, &add);
                (
                    prompt(&agent, 1).await.map(|r| r.output),
                    prompt(&agent, 1).await,
                )
            }
        };
        // rig turns the 429 into an error carrying the status and the body, but neither retries
        // nor exposes the Retry-After header: the app has to retry (and cannot honour the header
        // through rig's reqwest client).
        let err = first.expect_err("a 429 is an error").to_string();
        assert!(err.contains("429"), "{api:?}: {err}");
        assert!(err.contains("scripted 429"), "{api:?}: {err}");
        assert_eq!(second.expect("then success").output, "ok");
        assert_eq!(fake.requests().len(), 2);
    }
}

#[tokio::test]
async fn rate_limit_reply_has_the_api_shape_and_retry_after() {
    let fake = FakeProvider::start(vec![Step::rate_limited(7), Step::rate_limited(3)]);
    let reply = raw_post(&fake, "/v1/chat/completions", &json!({"model": "m"}));
    assert_eq!(reply.status, 429);
    assert_eq!(reply.header("retry-after"), Some("7"));
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_str(&reply.body).expect("JSON error body");
    assert_eq!(body["error"]["code"], "rate_limit_exceeded");
    assert!(body["error"]["message"].is_string());

    let reply = raw_post(
        &fake,
        "/v1/messages",
        &json!({"model": "m", "stream": true}),
    );
    assert_eq!(reply.status, 429);
    assert_eq!(reply.header("retry-after"), Some("3"));
    let body: Value = serde_json::from_str(&reply.body).expect("JSON error body");
    assert_eq!(body["type"], "error");
    assert_eq!(body["error"]["type"], "rate_limit_error");
}

#[tokio::test]
async fn server_error_fails_the_prompt_for_each_api_and_mode() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        for streaming in [false, true] {
            let fake = FakeProvider::start(vec![Step::Error {
                status: 500,
                body: r#"{"error":{"message":"the fake is down","type":"server_error"}}"#.into(),
                retry_after: None,
            }]);
            let err = fail(&fake, api, streaming).await;
            assert!(err.contains("500"), "{api:?} streaming={streaming}: {err}");
            assert!(
                err.contains("the fake is down"),
                "{api:?} streaming={streaming}: {err}"
            );
            assert_eq!(
                fake.requests().len(),
                1,
                "{api:?} streaming={streaming}: no retry"
            );
        }
    }
}

#[tokio::test]
async fn cut_stream_is_an_error_not_a_hang() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        for streaming in [false, true] {
            let fake = FakeProvider::start(vec![Step::CutStream(
                "Once upon a time there was a diff".into(),
            )]);
            let err = fail(&fake, api, streaming).await;
            assert!(!err.is_empty(), "{api:?} streaming={streaming}");
            // Give rig's event source a moment: it must not reconnect and post again.
            tokio::time::sleep(Duration::from_millis(700)).await;
            assert_eq!(
                fake.requests().len(),
                1,
                "{api:?} streaming={streaming}: {err}"
            );
        }
    }
}

#[tokio::test]
async fn stream_that_ends_early_but_cleanly_passes_for_complete_in_rig() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        let fake = FakeProvider::start(vec![
            Step::StreamEndsEarly("one two three four".into()),
            Step::StreamEndsEarly("one two three four".into()),
        ]);
        let add = Add::default();
        let base = fake.base_url();
        async fn both<M: CompletionModel + 'static>(agent: Agent<M>) -> (String, Streamed) {
            let err = prompt(&agent, 1).await.expect_err("half a JSON body");
            (err.to_string(), stream(&agent, 1).await)
        }
        let (err, out) = match api {
            Api::Responses => both(responses_agent(&base, &add)).await,
            Api::ChatCompletions => both(chat_agent(&base, &add)).await,
            _ => both(anthropic_agent(&base, &add)).await,
        };
        assert!(err.contains("JsonError"), "{api:?}: {err}");
        // rig 0.37 quirk: a stream that stops before its final event (`response.completed`,
        // `finish_reason` + `[DONE]`, `message_delta` + `message_stop`) without a transport
        // error is taken as a finished answer. The only trace is the usage: all zero.
        assert!(out.errors.is_empty(), "{api:?}: {out:#?}");
        assert_eq!(out.final_text.as_deref(), Some("one two"), "{api:?}");
        let usage = out.usage.expect("usage");
        assert_eq!((usage.input_tokens, usage.output_tokens), (0, 0), "{api:?}");
    }
}

#[tokio::test]
async fn malformed_tool_arguments_are_an_error_or_silently_dropped() {
    let raw = || Step::RawToolCall {
        name: "add".into(),
        arguments: r#"{"a": 1, "b":"#.into(),
    };
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        // Anthropic's JSON run takes two steps (the call, then the answer); the others' one.
        let script = if api == Api::AnthropicMessages {
            vec![raw(), Step::text("after"), raw()]
        } else {
            vec![raw(), raw()]
        };
        let fake = FakeProvider::start(script);
        let add = Add::default();
        let base = fake.base_url();
        async fn both<M: CompletionModel + 'static>(
            agent: Agent<M>,
        ) -> (Result<String, PromptError>, Streamed) {
            let json = prompt(&agent, 3).await.map(|r| r.output);
            (json, stream(&agent, 3).await)
        }
        let (json, streamed) = match api {
            Api::Responses => both(responses_agent(&base, &add)).await,
            Api::ChatCompletions => both(chat_agent(&base, &add)).await,
            _ => both(anthropic_agent(&base, &add)).await,
        };
        assert!(add.calls().is_empty());
        match api {
            Api::AnthropicMessages => {
                // The non-streaming format has no arguments string, so the fake sends the
                // broken text as a JSON string value: rig hands it to the tool, whose error goes
                // back to the model, which then answers.
                assert_eq!(json.expect("answered").as_str(), "after");
                let results = fake.requests()[1].tool_results();
                assert!(results[0].1.contains("JsonError"), "{results:?}");
                // Streamed, the broken `input_json_delta`s are a JSON error.
                assert_eq!(streamed.final_text, None);
                assert!(streamed.errors[0].contains("JsonError"), "{streamed:#?}");
                assert_eq!(fake.requests().len(), 3);
            }
            _ => {
                assert!(
                    json.expect_err("broken arguments")
                        .to_string()
                        .contains("JsonError"),
                    "{api:?}"
                );
                // rig 0.37 quirk: streamed, the tool call is dropped without a word and the
                // turn ends with an empty answer.
                assert!(streamed.errors.is_empty(), "{api:?}: {streamed:#?}");
                assert!(streamed.tool_calls.is_empty(), "{api:?}: {streamed:#?}");
                assert_eq!(streamed.final_text.as_deref(), Some(""), "{api:?}");
                assert_eq!(fake.requests().len(), 2, "{api:?}");
            }
        }
    }
}

#[tokio::test]
async fn cut_stream_sends_part_of_the_text_first() {
    let fake = FakeProvider::start(vec![Step::CutStream("one two three four".into())]);
    let add = Add::default();
    let out = stream(&chat_agent(&fake.base_url(), &add), 1).await;
    assert_eq!(out.text_deltas, ["one", " two"], "{out:#?}");
    assert_eq!(out.errors.len(), 1, "{out:#?}");
    assert_eq!(out.final_text, None);
}

#[tokio::test]
async fn malformed_json_fails_the_prompt() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        let fake = FakeProvider::start(vec![Step::malformed_json()]);
        let err = fail(&fake, api, false).await;
        assert!(err.contains("JsonError"), "{api:?}: {err}");
    }
}

#[tokio::test]
async fn exhausted_script_answers_500_and_says_so() {
    let fake = FakeProvider::start(vec![Step::text("only one")]);
    let add = Add::default();
    let agent = chat_agent(&fake.base_url(), &add);
    assert_eq!(prompt(&agent, 1).await.expect("first").output, "only one");
    let err = prompt(&agent, 1)
        .await
        .expect_err("nothing left")
        .to_string();
    assert!(err.contains("500"), "{err}");
    assert!(err.contains("script exhausted after 1 steps"), "{err}");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].step, Some(Step::text("only one")));
    assert_eq!(requests[1].step, None);
    assert_eq!(fake.remaining(), 0);
}

#[tokio::test]
async fn unknown_paths_get_404_and_use_no_step() {
    let fake = FakeProvider::start(vec![Step::text("kept")]);
    let reply = raw_post(&fake, "/v1/embeddings", &json!({}));
    assert_eq!(reply.status, 404);
    assert_eq!(fake.remaining(), 1);
    assert_eq!(fake.requests()[0].api, Api::Unknown);
}

/// Runs the usual prompt, which must fail; returns rig's error message.
async fn fail(fake: &FakeProvider, api: Api, streaming: bool) -> String {
    let add = Add::default();
    let base = fake.base_url();
    async fn go<M: CompletionModel + 'static>(agent: Agent<M>, streaming: bool) -> String {
        if streaming {
            let out = stream(&agent, 1).await;
            assert_eq!(out.final_text, None, "{out:#?}");
            out.errors.join("\n")
        } else {
            prompt(&agent, 1)
                .await
                .map(|r| r.output)
                .expect_err("must fail")
                .to_string()
        }
    }
    match api {
        Api::Responses => go(responses_agent(&base, &add), streaming).await,
        Api::ChatCompletions => go(chat_agent(&base, &add), streaming).await,
        Api::Gemini => go(gemini_agent(&base, &add), streaming).await,
        Api::Ollama => go(ollama_agent(&base, &add), streaming).await,
        _ => go(anthropic_agent(&base, &add), streaming).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Bad tool calls: rig hands the problem back to the model as the tool's result

#[tokio::test]
async fn unknown_tool_name_goes_back_to_the_model_as_the_result() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        for streaming in [false, true] {
            let fake = FakeProvider::start(vec![
                Step::tool_call("delete_everything", json!({})),
                Step::text("sorry"),
            ]);
            let add = Add::default();
            let base = fake.base_url();
            let text = match api {
                Api::Responses => run(responses_agent(&base, &add), streaming).await,
                Api::ChatCompletions => run(chat_agent(&base, &add), streaming).await,
                _ => run(anthropic_agent(&base, &add), streaming).await,
            };
            assert_eq!(text, "sorry");
            let results = fake.requests()[1].tool_results();
            assert_eq!(results.len(), 1, "{api:?} streaming={streaming}");
            assert!(
                results[0]
                    .1
                    .contains("ToolNotFoundError: delete_everything"),
                "{api:?} streaming={streaming}: {}",
                results[0].1
            );
        }
    }
}

#[tokio::test]
async fn arguments_of_the_wrong_shape_go_back_to_the_model_as_the_result() {
    for api in [Api::Responses, Api::ChatCompletions, Api::AnthropicMessages] {
        for streaming in [false, true] {
            let fake = FakeProvider::start(vec![
                Step::tool_call("add", json!({"a": "one", "b": 2})),
                Step::text("fixed"),
            ]);
            let add = Add::default();
            let base = fake.base_url();
            let text = match api {
                Api::Responses => run(responses_agent(&base, &add), streaming).await,
                Api::ChatCompletions => run(chat_agent(&base, &add), streaming).await,
                _ => run(anthropic_agent(&base, &add), streaming).await,
            };
            assert_eq!(text, "fixed");
            assert!(add.calls().is_empty());
            let results = fake.requests()[1].tool_results();
            assert_eq!(results.len(), 1, "{api:?} streaming={streaming}");
            assert!(
                results[0].1.contains("JsonError") && results[0].1.contains("invalid type"),
                "{api:?} streaming={streaming}: {}",
                results[0].1
            );
        }
    }
}

#[tokio::test]
async fn a_model_that_never_stops_calling_tools_hits_max_turns() {
    let fake = FakeProvider::start(vec![Step::repeat(Step::tool_call(
        "add",
        json!({"a": 1, "b": 1}),
    ))]);
    let add = Add::default();
    let agent = responses_agent(&fake.base_url(), &add);
    let err = prompt(&agent, 3).await.expect_err("never ends");
    assert!(
        matches!(err, PromptError::MaxTurnsError { max_turns: 3, .. }),
        "{err}"
    );
    // rig's loop allows max_turns + 2 completion calls before giving up (and with no
    // max_turns at all, 2: one tool round trip).
    assert_eq!(fake.requests().len(), 5);
    assert_eq!(add.calls().len(), 5);
    assert_eq!(fake.remaining(), 1, "a Repeat is never used up");

    let fake = FakeProvider::start(vec![Step::repeat(Step::tool_call(
        "add",
        json!({"a": 1, "b": 1}),
    ))]);
    let out = stream(&anthropic_agent(&fake.base_url(), &add), 3).await;
    assert_eq!(out.final_text, None);
    assert!(
        out.errors.iter().any(|e| e.contains("MaxTurnError")),
        "{out:#?}"
    );
    assert_eq!(fake.requests().len(), 5);
}

// ---------------------------------------------------------------------------------------------
// The key stays out of the logs

#[derive(Clone, Default)]
struct SharedLog(Arc<Mutex<Vec<u8>>>);

impl Write for SharedLog {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Everything rig, reqwest and hyper trace at TRACE level (what `--debug` can show) during a round
/// trip with each API, both ways, holds the prompt and the preamble but never the key (Gemini's
/// rides in the URL, `?key=`, but only the host is traced, never the path).
///
/// It runs alone, in a process of its own: tracing caches for each callsite whether anyone
/// listens, and another test's thread could cache "nobody" for hyper's connection events
/// between this test's subscriber and its first connection (it failed so, by chance).
#[test]
fn traces_hold_the_requests_but_never_the_key() {
    const ALONE: &str = "IRIS_TEST_TRACES_ALONE";
    if std::env::var_os(ALONE).is_some() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(traces_of_every_api());
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "--exact",
            "fake_provider::traces_hold_the_requests_but_never_the_key",
            "--test-threads",
            "1",
        ])
        .env(ALONE, "1")
        .output()
        .expect("run the test alone");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("1 passed"),
        "the test did not run alone: {said}"
    );
}

async fn traces_of_every_api() {
    let log = SharedLog::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    // Scoped to this thread, which runs every task of this single-threaded runtime.
    let _guard = tracing::subscriber::set_default(subscriber);
    // Another test of this binary may have registered a callsite (hyper's "connecting to")
    // while no subscriber wanted it, leaving it cached as never enabled: ask again.
    tracing::callsite::rebuild_interest_cache();

    let mut script = Vec::new();
    for _ in 0..10 {
        script.extend(round_trip_script());
    }
    let fake = FakeProvider::start(script);
    let add = Add::default();
    let base = fake.base_url();
    for streaming in [false, true] {
        assert_eq!(run(responses_agent(&base, &add), streaming).await, "3");
        assert_eq!(run(chat_agent(&base, &add), streaming).await, "3");
        assert_eq!(run(anthropic_agent(&base, &add), streaming).await, "3");
        assert_eq!(run(gemini_agent(&base, &add), streaming).await, "3");
        assert_eq!(run(ollama_agent(&base, &add), streaming).await, "3");
    }
    assert_eq!(fake.remaining(), 0);

    let log =
        String::from_utf8_lossy(&log.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
    assert!(
        log.contains("Style: terse"),
        "the capture saw no request bodies"
    );
    assert!(log.contains("127.0.0.1"), "the capture saw no connections");
    assert!(!log.contains(FAKE_API_KEY), "the key is in the traces");
    assert!(
        !log.contains("x-api-key: sk-"),
        "an auth header is in the traces"
    );
}

// ---------------------------------------------------------------------------------------------
// Timing: slow replies, paced streams, parallel requests

#[tokio::test]
async fn parallel_requests_are_served_at_once() {
    let delay = 600;
    let fake = FakeProvider::start(vec![
        Step::slow(delay, Step::text("a")),
        Step::slow(delay, Step::text("b")),
        Step::slow(delay, Step::text("c")),
        Step::slow(delay, Step::text("d")),
    ]);
    let add = Add::default();
    let agent = chat_agent(&fake.base_url(), &add);
    let started = Instant::now();
    let (a, b, c, d) = tokio::join!(
        prompt(&agent, 1),
        prompt(&agent, 1),
        prompt(&agent, 1),
        prompt(&agent, 1)
    );
    let elapsed = started.elapsed();
    let mut texts: Vec<_> = [a, b, c, d]
        .into_iter()
        .map(|r| r.expect("answer").output)
        .collect();
    texts.sort();
    assert_eq!(texts, ["a", "b", "c", "d"]);
    assert!(
        elapsed < Duration::from_millis(3 * delay),
        "served one at a time? {elapsed:?}"
    );
    assert!(elapsed >= Duration::from_millis(delay));
}

#[tokio::test]
async fn paced_stream_arrives_in_pieces() {
    let fake = FakeProvider::start(vec![Step::paced(
        20,
        Step::text("the quick brown fox jumps"),
    )]);
    let add = Add::default();
    let out = stream(&responses_agent(&fake.base_url(), &add), 1).await;
    assert_eq!(
        out.text_deltas,
        ["the", " quick", " brown", " fox", " jumps"]
    );
    assert_eq!(out.final_text.as_deref(), Some("the quick brown fox jumps"));
}

// ---------------------------------------------------------------------------------------------
// The wire formats, checked with rig's own types and by hand

#[tokio::test]
async fn responses_wire_format() {
    use openai::responses_api::streaming::{ItemChunkKind, StreamingCompletionChunk};
    let fake = FakeProvider::start(vec![
        Step::tool_call("add", json!({"a": 1, "b": 2})),
        Step::text("hi there"),
        Step::text("plain"),
    ]);
    let body = json!({"model": "gpt-fake", "input": "x", "stream": true});

    let reply = raw_post(&fake, "/v1/responses", &body);
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.header("content-type"),
        Some("text/event-stream; charset=utf-8")
    );
    let events = sse_events(&reply.body);
    let names: Vec<_> = events
        .iter()
        .map(|(n, _)| n.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.done",
            "response.output_item.done",
            "response.completed",
        ]
    );
    let mut arg_deltas = String::new();
    for (name, data) in &events {
        let value: Value = serde_json::from_str(data).expect("JSON event");
        assert_eq!(
            Some(value["type"].as_str().unwrap_or_default()),
            name.as_deref()
        );
        let parsed = serde_json::from_str::<StreamingCompletionChunk>(data);
        if name
            .as_deref()
            .is_some_and(|n| n.starts_with("response.function_call_arguments."))
        {
            // rig 0.37 quirk: it reads neither argument event as the real API sends them (its
            // `ItemChunk` keeps `item_id` for itself, and it wants a `content_index` on `.done`),
            // so a streamed Responses tool call shows no argument progress; rig takes the call
            // from `response.output_item.done`.
            assert!(parsed.is_err(), "rig now reads {data}");
            arg_deltas.push_str(value["delta"].as_str().unwrap_or_default());
            continue;
        }
        let chunk = parsed.unwrap_or_else(|e| panic!("rig rejects {data}: {e}"));
        if let StreamingCompletionChunk::Delta(item) = chunk {
            let known = !matches!(item.data, ItemChunkKind::Unknown);
            assert!(known, "{data}");
        }
    }
    assert_eq!(arg_deltas, r#"{"a":1,"b":2}"#);
    let done: Value = serde_json::from_str(&events[7].1).expect("completed");
    assert_eq!(done["response"]["usage"]["input_tokens"], INPUT_TOKENS);
    assert_eq!(done["response"]["output"][0]["type"], "function_call");

    let reply = raw_post(&fake, "/responses", &body);
    let names: Vec<_> = sse_events(&reply.body)
        .into_iter()
        .filter_map(|(n, _)| n)
        .collect();
    assert!(names.contains(&"response.output_text.delta".to_owned()));
    assert!(names.contains(&"response.content_part.added".to_owned()));

    let reply = raw_post(
        &fake,
        "/v1/responses",
        &json!({"model": "gpt-fake", "input": "x"}),
    );
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let parsed: openai::responses_api::CompletionResponse =
        serde_json::from_str(&reply.body).expect("rig parses the JSON reply");
    assert_eq!(parsed.output.len(), 1);
    assert_eq!(parsed.usage.expect("usage").output_tokens, OUTPUT_TOKENS);
}

#[tokio::test]
async fn chat_completions_wire_format() {
    let fake = FakeProvider::start(vec![
        Step::tool_call("add", json!({"a": 1, "b": 2})),
        Step::text("hi"),
        Step::text("no usage chunk"),
    ]);
    let body = json!({"model": "gpt-fake", "messages": [], "stream": true,
                      "stream_options": {"include_usage": true}});
    let reply = raw_post(&fake, "/v1/chat/completions", &body);
    let events = sse_events(&reply.body);
    assert!(
        events.iter().all(|(name, _)| name.is_none()),
        "no event: lines"
    );
    assert_eq!(events.last().map(|(_, d)| d.as_str()), Some("[DONE]"));
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|(_, d)| serde_json::from_str(d).expect("JSON chunk"))
        .collect();
    assert!(
        chunks
            .iter()
            .all(|c| c["object"] == "chat.completion.chunk")
    );
    let first_call = &chunks[0]["choices"][0]["delta"]["tool_calls"][0];
    assert_eq!(first_call["function"]["name"], "add");
    assert!(
        first_call["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("call_fake_"))
    );
    let args: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"].as_str())
        .collect();
    assert_eq!(args, r#"{"a":1,"b":2}"#);
    let finish = &chunks[chunks.len() - 2];
    assert_eq!(finish["choices"][0]["finish_reason"], "tool_calls");
    let usage = &chunks[chunks.len() - 1];
    assert_eq!(usage["choices"], json!([]));
    assert_eq!(usage["usage"]["prompt_tokens"], INPUT_TOKENS);

    let reply = raw_post(
        &fake,
        "/chat/completions",
        &json!({"model": "m", "messages": []}),
    );
    let parsed: openai::completion::CompletionResponse =
        serde_json::from_str(&reply.body).expect("rig parses the JSON reply");
    assert_eq!(parsed.choices[0].finish_reason, "stop");
    assert_eq!(
        parsed.usage.expect("usage").prompt_tokens as u64,
        INPUT_TOKENS
    );

    let no_usage = json!({"model": "m", "messages": [], "stream": true});
    let reply = raw_post(&fake, "/v1/chat/completions", &no_usage);
    assert!(
        !reply.body.contains("prompt_tokens"),
        "usage only when asked for"
    );
}

#[tokio::test]
async fn anthropic_wire_format() {
    use anthropic::streaming::{ContentDelta, StreamingEvent};
    let fake = FakeProvider::start(vec![
        Step::tool_call("add", json!({"a": 1, "b": 2})),
        Step::tool_call("add", json!({"a": 1, "b": 2})),
    ]);
    let reply = raw_post(
        &fake,
        "/v1/messages",
        &json!({"model": "c", "stream": true}),
    );
    let events = sse_events(&reply.body);
    let names: Vec<_> = events
        .iter()
        .map(|(n, _)| n.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        [
            "message_start",
            "ping",
            "content_block_start",
            "content_block_delta",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
        ]
    );
    let mut partial = String::new();
    for (_, data) in &events {
        let event: StreamingEvent =
            serde_json::from_str(data).unwrap_or_else(|e| panic!("rig rejects {data}: {e}"));
        assert!(!matches!(event, StreamingEvent::Unknown), "{data}");
        if let StreamingEvent::ContentBlockDelta {
            delta: ContentDelta::InputJsonDelta { partial_json },
            ..
        } = event
        {
            partial.push_str(&partial_json);
        }
    }
    assert_eq!(partial, r#"{"a":1,"b":2}"#);
    let delta: Value = serde_json::from_str(&events[6].1).expect("message_delta");
    assert_eq!(delta["delta"]["stop_reason"], "tool_use");
    assert_eq!(delta["usage"]["output_tokens"], OUTPUT_TOKENS);

    let reply = raw_post(&fake, "/v1/messages", &json!({"model": "c"}));
    let body: Value = serde_json::from_str(&reply.body).expect("JSON");
    assert_eq!(body["type"], "message");
    assert_eq!(body["content"][0]["input"], json!({"a": 1, "b": 2}));
    let parsed: anthropic::completion::CompletionResponse =
        serde_json::from_str(&reply.body).expect("rig parses the JSON reply");
    assert_eq!(parsed.stop_reason.as_deref(), Some("tool_use"));
    assert_eq!(parsed.usage.input_tokens, INPUT_TOKENS);
}

#[test]
fn chunked_request_bodies_are_read() {
    let fake = FakeProvider::start(vec![Step::text("ok")]);
    let port = fake
        .base_url()
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .to_owned();
    let mut conn = TcpStream::connect(format!("127.0.0.1:{port}")).expect("connect");
    let body = r#"{"model":"m","messages":[{"role":"user","content":"hello"}]}"#;
    let (a, b) = body.split_at(10);
    let request = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\
         {:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n",
        a.len(),
        b.len()
    );
    conn.write_all(request.as_bytes()).expect("send");
    let mut reply = String::new();
    conn.read_to_string(&mut reply).expect("read");
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert_eq!(fake.requests()[0].user_texts(), ["hello"]);
}

// ---------------------------------------------------------------------------------------------
// Gemini and Ollama

#[tokio::test]
async fn gemini_json_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = gemini_agent(&fake.base_url(), &add);
    json_round_trip(&fake, agent, &add, Api::Gemini).await;
    let first = &fake.requests()[0];
    let key = format!("?key={FAKE_API_KEY}");
    assert_eq!(
        first.path,
        format!("/v1beta/models/gemini-fake:generateContent{key}")
    );
    assert_eq!(first.model().as_deref(), Some("gemini-fake"));
}

#[tokio::test]
async fn gemini_sse_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = gemini_agent(&fake.base_url(), &add);
    sse_round_trip(&fake, agent, &add, Api::Gemini).await;
    let first = &fake.requests()[0];
    let query = format!("?alt=sse&key={FAKE_API_KEY}");
    assert_eq!(
        first.path,
        format!("/v1beta/models/gemini-fake:streamGenerateContent{query}")
    );
    // Nothing in the body says "stream": the method and `alt=sse` do.
    assert_eq!(first.body.get("stream"), None);
}

#[tokio::test]
async fn ollama_json_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = ollama_agent(&fake.base_url(), &add);
    json_round_trip(&fake, agent, &add, Api::Ollama).await;
    let first = &fake.requests()[0];
    assert_eq!(first.path, "/api/chat");
    assert_eq!(first.model().as_deref(), Some("llama-fake"));
    // rig always says which it wants: the server's default would be to stream.
    assert_eq!(first.body["stream"], false);
}

#[tokio::test]
async fn ollama_ndjson_round_trip() {
    let fake = FakeProvider::start(round_trip_script());
    let add = Add::default();
    let agent = ollama_agent(&fake.base_url(), &add);
    sse_round_trip(&fake, agent, &add, Api::Ollama).await;
    assert_eq!(fake.requests()[0].body["stream"], true);
}

#[tokio::test]
async fn gemini_and_ollama_text_replies_json_and_streamed() {
    for api in [Api::Gemini, Api::Ollama] {
        for streaming in [false, true] {
            let fake = FakeProvider::start(vec![Step::text("the quick brown fox")]);
            let add = Add::default();
            let base = fake.base_url();
            let (text, usage, deltas) = match (api, streaming) {
                (Api::Gemini, false) => text_reply(&gemini_agent(&base, &add)).await,
                (Api::Gemini, true) => streamed_text(&gemini_agent(&base, &add)).await,
                (_, false) => text_reply(&ollama_agent(&base, &add)).await,
                (_, true) => streamed_text(&ollama_agent(&base, &add)).await,
            };
            let what = format!("{api:?} streaming={streaming}");
            assert_eq!(text, "the quick brown fox", "{what}");
            assert_eq!(usage.input_tokens, INPUT_TOKENS, "{what}");
            assert_eq!(usage.output_tokens, OUTPUT_TOKENS, "{what}");
            if streaming {
                assert_eq!(deltas, ["the", " quick", " brown", " fox"], "{what}");
            }
            let requests = fake.requests();
            assert_eq!(requests.len(), 1, "{what}");
            assert_eq!(requests[0].api, api, "{what}");
            assert_eq!(requests[0].stream, streaming, "{what}");
            assert_eq!(requests[0].user_texts(), [PROMPT], "{what}");
            assert_auth(&requests[0]);
        }
    }
}

async fn text_reply<M: CompletionModel + 'static>(
    agent: &Agent<M>,
) -> (String, Usage, Vec<String>) {
    let answer = prompt(agent, 1).await.expect("a text reply");
    (answer.output, answer.usage, Vec::new())
}

async fn streamed_text<M: CompletionModel + 'static>(
    agent: &Agent<M>,
) -> (String, Usage, Vec<String>) {
    let out = stream(agent, 1).await;
    assert!(out.errors.is_empty(), "{out:#?}");
    let usage = out.usage.expect("usage");
    (
        out.final_text.expect("a final text"),
        usage,
        out.text_deltas,
    )
}

#[tokio::test]
async fn gemini_and_ollama_400_is_an_error_json_and_streamed() {
    for api in [Api::Gemini, Api::Ollama] {
        for streaming in [false, true] {
            let fake = FakeProvider::start(vec![Step::error(400)]);
            let err = fail(&fake, api, streaming).await;
            let what = format!("{api:?} streaming={streaming}");
            assert!(err.contains("400"), "{what}: {err}");
            // The body comes through every way (streamed Ollama as an `HttpError`, rig's
            // transport refusing the status before its own "Got error status code" check).
            assert!(err.contains("scripted 400"), "{what}: {err}");
            if api == Api::Gemini {
                assert!(err.contains("INVALID_ARGUMENT"), "{what}: {err}");
            }
            assert_eq!(fake.requests().len(), 1, "{what}: no retry");
        }
    }
}

/// Where rig 0.37 puts an agent's max_tokens, temperature and output schema in each body.
#[tokio::test]
async fn gemini_and_ollama_request_settings_land_where_rig_puts_them() {
    let schema = schemars::json_schema!({
        "type": "object",
        "properties": {"sum": {"type": "integer"}},
        "required": ["sum"],
    });
    let fake = FakeProvider::start(vec![Step::text(r#"{"sum": 3}"#); 4]);
    let base = fake.base_url();
    let gemini = gemini::Client::builder()
        .api_key(FAKE_API_KEY)
        .base_url(&base)
        .build()
        .expect("gemini client");
    let ollama = ollama::Client::builder()
        .api_key(FAKE_API_KEY)
        .base_url(&base)
        .build()
        .expect("ollama client");
    for agent in [
        gemini
            .agent("gemini-fake")
            .max_tokens(256)
            .temperature(0.5)
            .build(),
        gemini
            .agent("gemini-fake")
            .max_tokens(256)
            .temperature(0.5)
            .output_schema_raw(schema.clone())
            .build(),
    ] {
        prompt(&agent, 1).await.expect("gemini answer");
    }
    for agent in [
        ollama
            .agent("llama-fake")
            .max_tokens(256)
            .temperature(0.5)
            .build(),
        ollama
            .agent("llama-fake")
            .max_tokens(256)
            .temperature(0.5)
            .output_schema_raw(schema.clone())
            .build(),
    ] {
        prompt(&agent, 1).await.expect("ollama answer");
    }
    let requests = fake.requests();
    let bodies: Vec<&Value> = requests.iter().map(|r| &r.body).collect();

    // Gemini: rig 0.37 quirk: max_tokens and temperature only land in an existing
    // `generationConfig`; without one (no output schema, no `generationConfig` in the
    // additional params) they are silently dropped and `generationConfig` is sent as null.
    assert_eq!(bodies[0]["generationConfig"], Value::Null, "{}", bodies[0]);
    assert!(!requests[0].raw_body.contains("256"), "{}", bodies[0]);
    let config = &bodies[1]["generationConfig"];
    assert_eq!(config["maxOutputTokens"], 256, "{config}");
    assert_eq!(config["temperature"], 0.5, "{config}");
    assert_eq!(config["responseMimeType"], "application/json", "{config}");
    assert_eq!(
        config["responseJsonSchema"]["properties"]["sum"]["type"], "integer",
        "{config}"
    );
    assert_eq!(config.get("responseSchema"), None, "{config}");
    // The preamble-less agents send no system instruction; null fields are sent, not left out.
    assert_eq!(bodies[0]["systemInstruction"], Value::Null);
    assert_eq!(bodies[0]["toolConfig"], Value::Null);

    // Ollama: max_tokens goes to a top-level `max_tokens` (not `options.num_predict`, which is
    // what the Ollama server reads); temperature both at the top level and in `options`; the
    // schema in `format`; `think` is always sent (false).
    for body in &bodies[2..] {
        assert_eq!(body["max_tokens"], 256, "{body}");
        assert_eq!(body["options"].get("num_predict"), None, "{body}");
        assert_eq!(body["temperature"], 0.5, "{body}");
        assert_eq!(body["options"]["temperature"], 0.5, "{body}");
        assert_eq!(body["think"], false, "{body}");
    }
    assert_eq!(bodies[2].get("format"), None, "{}", bodies[2]);
    assert_eq!(
        bodies[3]["format"]["properties"]["sum"]["type"], "integer",
        "{}",
        bodies[3]
    );
}

#[tokio::test]
async fn gemini_and_ollama_paced_slow_raw_and_repeat() {
    for api in [Api::Gemini, Api::Ollama] {
        let fake = FakeProvider::start(vec![
            Step::paced(5, Step::text("one two three")),
            Step::slow(5, Step::text("slow")),
            Step::malformed_json(),
            Step::repeat(Step::tool_call("add", json!({"a": 1, "b": 1}))),
        ]);
        let add = Add::default();
        let base = fake.base_url();
        async fn go<M: CompletionModel + 'static>(agent: Agent<M>) -> (Streamed, String, String) {
            let paced = stream(&agent, 1).await;
            let slow = prompt(&agent, 1).await.expect("slow answer").output;
            let malformed = prompt(&agent, 1).await.expect_err("malformed").to_string();
            let err = prompt(&agent, 1).await.expect_err("never ends");
            assert!(
                matches!(err, PromptError::MaxTurnsError { max_turns: 1, .. }),
                "{err}"
            );
            (paced, slow, malformed)
        }
        let (paced, slow, malformed) = match api {
            Api::Gemini => go(gemini_agent(&base, &add)).await,
            _ => go(ollama_agent(&base, &add)).await,
        };
        assert_eq!(paced.text_deltas, ["one", " two", " three"], "{api:?}");
        assert_eq!(slow, "slow", "{api:?}");
        assert!(malformed.contains("JsonError"), "{api:?}: {malformed}");
        // max_turns 1 allows 3 completion calls; the Repeat is never used up.
        assert_eq!(add.calls().len(), 3, "{api:?}");
        assert_eq!(fake.requests().len(), 6, "{api:?}");
        assert_eq!(fake.remaining(), 1, "{api:?}");
    }
}

#[tokio::test]
async fn gemini_wire_format() {
    use gemini::completion::gemini_api_types::GenerateContentResponse;
    use gemini::streaming::StreamGenerateContentResponse;
    let fake = FakeProvider::start(vec![
        Step::text("hi there"),
        Step::tool_call("add", json!({"a": 1, "b": 2})),
        Step::text("as an array"),
        Step::error(429),
    ]);
    let stream_path = "/v1beta/models/g:streamGenerateContent?alt=sse&key=k";
    let reply = raw_post(&fake, stream_path, &json!({"contents": []}));
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.header("content-type"),
        Some("text/event-stream; charset=utf-8")
    );
    let events = sse_events(&reply.body);
    assert!(events.iter().all(|(name, _)| name.is_none()), "data only");
    assert_eq!(events.len(), 2);
    for (i, (_, data)) in events.iter().enumerate() {
        let chunk: StreamGenerateContentResponse =
            serde_json::from_str(data).unwrap_or_else(|e| panic!("rig rejects {data}: {e}"));
        let finished = chunk.candidates[0].finish_reason.is_some();
        assert_eq!(finished, i == 1, "{data}");
        let usage = chunk.usage_metadata.expect("usage on every chunk");
        assert_eq!(usage.prompt_token_count as u64, INPUT_TOKENS);
        let output = usage.candidates_token_count.map(|n| n as u64);
        assert_eq!(output, finished.then_some(OUTPUT_TOKENS), "{data}");
        assert_eq!(chunk.model_version.as_deref(), Some("g"));
    }

    let reply = raw_post(
        &fake,
        "/v1beta/models/g:generateContent?key=k",
        &json!({"contents": []}),
    );
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_str(&reply.body).expect("JSON");
    let part = &body["candidates"][0]["content"]["parts"][0];
    assert_eq!(part["functionCall"]["args"], json!({"a": 1, "b": 2}));
    assert_eq!(part["functionCall"]["name"], "add");
    assert_eq!(body["candidates"][0]["finishReason"], "STOP");
    let parsed: GenerateContentResponse =
        serde_json::from_str(&reply.body).expect("rig parses the JSON reply");
    let usage = parsed.usage_metadata.expect("usage");
    assert_eq!(usage.candidates_token_count, Some(OUTPUT_TOKENS as i32));

    // Without alt=sse the real API streams one JSON array of the same chunks.
    let reply = raw_post(
        &fake,
        "/v1beta/models/g:streamGenerateContent",
        &json!({"contents": []}),
    );
    let chunks: Vec<StreamGenerateContentResponse> =
        serde_json::from_str(&reply.body).expect("a JSON array of chunks");
    assert_eq!(chunks.len(), 3);

    let reply = raw_post(&fake, "/v1beta/models/g:generateContent", &json!({}));
    assert_eq!(reply.status, 429);
    let body: Value = serde_json::from_str(&reply.body).expect("JSON error body");
    assert_eq!(body["error"]["code"], 429);
    assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED");
    assert!(body["error"]["message"].is_string());

    // A base URL with the version in it doubles it: no route.
    let reply = raw_post(&fake, "/v1beta/v1beta/models/g:generateContent", &json!({}));
    assert_eq!(reply.status, 404);
    assert_eq!(fake.requests().len(), 5);
    assert_eq!(fake.requests()[4].api, Api::Unknown);
}

#[tokio::test]
async fn ollama_wire_format() {
    let fake = FakeProvider::start(vec![
        Step::text("hi there"),
        Step::tool_call("add", json!({"a": 1, "b": 2})),
        Step::text("streamed by default"),
        Step::error(400),
    ]);
    let reply = raw_post(&fake, "/api/chat", &json!({"model": "m", "stream": true}));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/x-ndjson"));
    let lines: Vec<ollama::CompletionResponse> = reply
        .body
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("rig rejects {line}: {e}"))
        })
        .collect();
    let done: Vec<bool> = lines.iter().map(|l| l.done).collect();
    assert_eq!(done, [false, false, true]);
    let last = &lines[2];
    assert_eq!(last.prompt_eval_count, Some(INPUT_TOKENS));
    assert_eq!(last.eval_count, Some(OUTPUT_TOKENS));
    assert_eq!(last.done_reason.as_deref(), Some("stop"));
    assert_eq!(lines[0].prompt_eval_count, None);
    assert!(last.created_at.ends_with('Z') && last.created_at.len() == 30);

    let reply = raw_post(&fake, "/api/chat", &json!({"model": "m", "stream": false}));
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_str(&reply.body).expect("JSON");
    let call = &body["message"]["tool_calls"][0]["function"];
    assert_eq!(call["name"], "add");
    assert_eq!(call["arguments"], json!({"a": 1, "b": 2}));
    let parsed: ollama::CompletionResponse =
        serde_json::from_str(&reply.body).expect("rig parses the JSON reply");
    assert!(parsed.done);
    assert_eq!(parsed.model, "m");

    // No "stream" field: the real server streams, and so does the fake.
    let reply = raw_post(&fake, "/api/chat", &json!({"model": "m"}));
    assert_eq!(reply.header("content-type"), Some("application/x-ndjson"));
    assert!(fake.requests()[2].stream);

    let reply = raw_post(&fake, "/api/chat", &json!({"model": "m", "stream": false}));
    assert_eq!(reply.status, 400);
    let body: Value = serde_json::from_str(&reply.body).expect("JSON error body");
    assert!(body["error"].is_string(), "{body}");
}

// ---------------------------------------------------------------------------------------------
// A minimal HTTP client, to see what rig hides (headers, raw events)

struct RawReply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl RawReply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn raw_post(fake: &FakeProvider, path: &str, body: &Value) -> RawReply {
    let addr = fake.base_url().trim_start_matches("http://").to_owned();
    let mut conn = TcpStream::connect(&addr).expect("connect");
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    conn.write_all(request.as_bytes()).expect("send");
    let mut raw = Vec::new();
    conn.read_to_end(&mut raw).expect("read reply");
    let raw = String::from_utf8(raw).expect("UTF-8 reply");
    let (head, rest) = raw.split_once("\r\n\r\n").expect("head");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v == "chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    RawReply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").expect("chunk size");
        let size = usize::from_str_radix(size.trim(), 16).expect("hex size");
        if size == 0 {
            return body;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
}

/// (event name, data) of each server-sent event.
fn sse_events(body: &str) -> Vec<(Option<String>, String)> {
    body.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut name = None;
            let mut data = String::new();
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_owned());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push_str(d);
                }
            }
            (name, data)
        })
        .collect()
}
