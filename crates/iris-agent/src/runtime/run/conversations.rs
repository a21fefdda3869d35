//! Whole runs against the fake provider: the reply, the turns, the stall watchdog and how a
//! failure is classed.

use std::time::{Duration, Instant};

use iris_studio_testkit::fake_provider::{
    FAKE_API_KEY, FakeProvider, INPUT_TOKENS, OUTPUT_TOKENS, Step, trickle_server,
};
use rig_core::completion::ToolDefinition;

use super::*;
use crate::runtime::budget::Budget;
use crate::runtime::dry_run::DryRun;
use crate::runtime::error::ProviderError;
use crate::runtime::run_context::RunContext;

/// A tool that takes as long as it holds to answer.
struct Wait(Duration);

impl rig_core::tool::Tool for Wait {
    const NAME: &'static str = "wait";
    type Error = std::io::Error;
    type Args = Value;
    type Output = String;

    async fn definition(&self, _prompt: String) -> ToolDefinition {
        ToolDefinition {
            name: "wait".into(),
            description: "Waits.".into(),
            parameters: json!({"type": "object", "properties": {}}),
        }
    }

    async fn call(&self, _args: Value) -> Result<String, std::io::Error> {
        tokio::time::sleep(self.0).await;
        Ok("waited".into())
    }
}

/// A Chat Completions server at `base` (an OpenAI-compatible one).
fn spec_of(base: String, stall: Duration) -> ProviderSpec {
    ProviderSpec {
        kind: ProviderKind::OpenAiCompatible,
        model: "local-model".into(),
        base_url: Some(base),
        local: true,
        reasoning_effort: None,
        api_key: Some(FAKE_API_KEY.into()),
        stall_timeout: stall,
        secrets: None,
    }
}

fn request(stream: bool, max_turns: usize, tool_takes: Duration) -> Run {
    Run {
        preamble: "You are Iris.".into(),
        history: Vec::new(),
        prompt: "Describe the change.".into(),
        tools: vec![Box::new(Wait(tool_takes)) as Box<dyn rig_core::tool::ToolDyn>],
        max_turns,
        max_tokens: 500,
        schema: None,
        stream,
    }
}

/// The run's output, or its error's kind and message.
async fn ran(spec: &ProviderSpec, request: Run) -> Result<RunOutput, (ErrorKind, String)> {
    ran_in(spec, &RunContext::default(), request).await
}

/// The same, within the command's run `context`.
async fn ran_in(
    spec: &ProviderSpec,
    context: &RunContext,
    request: Run,
) -> Result<RunOutput, (ErrorKind, String)> {
    run(spec, context, request, EventSink::none())
        .await
        .map_err(|e| {
            let error = e.downcast::<ProviderError>().expect("a provider error");
            (error.kind, error.message)
        })
}

fn wait_call() -> Step {
    Step::tool_call("wait", json!({}))
}

#[tokio::test]
async fn a_whole_reply_and_a_streamed_one_are_the_text_and_its_tokens() {
    for stream in [false, true] {
        let fake = FakeProvider::start(vec![Step::text("Add two")]);
        let spec = spec_of(fake.openai_base_url(), Duration::from_secs(10));
        let out = ran(&spec, request(stream, 3, Duration::ZERO))
            .await
            .unwrap();
        let streamed = fake.requests()[0].stream;
        assert_eq!(streamed, stream);
        assert_eq!(
            out,
            RunOutput {
                text: "Add two".into(),
                requests: 1,
                input_tokens: INPUT_TOKENS,
                output_tokens: OUTPUT_TOKENS,
            }
        );
    }
}

#[tokio::test]
async fn max_turns_is_the_number_of_replies_a_run_may_take() {
    for stream in [false, true] {
        let script = || vec![wait_call(), wait_call(), wait_call(), Step::text("Add two")];
        let fake = FakeProvider::start(script());
        let spec = spec_of(fake.openai_base_url(), Duration::from_secs(10));
        let out = ran(&spec, request(stream, 4, Duration::ZERO))
            .await
            .unwrap();
        assert_eq!((out.text.as_str(), out.requests), ("Add two", 4));
        let fake = FakeProvider::start(script());
        let spec = spec_of(fake.openai_base_url(), Duration::from_secs(10));
        let (kind, message) = ran(&spec, request(stream, 3, Duration::ZERO))
            .await
            .unwrap_err();
        assert_eq!(kind, ErrorKind::OutOfTurns, "{message}");
        assert!(
            message.contains("still calling tools after 3 turns"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn a_failure_is_classed_by_what_stopped_it() {
    // The provider's refusal is the provider's.
    let fake = FakeProvider::start(vec![Step::error(400)]);
    let spec_400 = spec_of(fake.openai_base_url(), Duration::from_secs(10));
    let (kind, message) = ran(&spec_400, request(true, 3, Duration::ZERO))
        .await
        .unwrap_err();
    assert!(
        !matches!(
            kind,
            ErrorKind::NotSent | ErrorKind::OverBudget | ErrorKind::Transport
        ),
        "{kind:?}: {message}"
    );
    // A dry run's request was kept, not sent.
    let fake = FakeProvider::start(vec![Step::text("Add two")]);
    let spec = spec_of(fake.openai_base_url(), Duration::from_secs(10));
    let dry = RunContext::dry(DryRun::default());
    let (kind, _) = ran_in(&spec, &dry, request(true, 3, Duration::ZERO))
        .await
        .unwrap_err();
    assert_eq!(kind, ErrorKind::NotSent);
    assert!(fake.requests().is_empty());
    // The cap held the request back.
    let price = iris_studio_config::prices::Price {
        input: 1_000_000.0,
        cached_input: 1_000_000.0,
        output: 1_000_000.0,
    };
    let capped = RunContext::new(Some(Budget::new(price, 0.01)));
    let (kind, message) = ran_in(&spec, &capped, request(true, 3, Duration::ZERO))
        .await
        .unwrap_err();
    assert_eq!(kind, ErrorKind::OverBudget, "{message}");
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn a_reply_cut_off_is_said_so() {
    let fake = FakeProvider::start(vec![Step::CutStream("Add two and more".into())]);
    let spec = spec_of(fake.openai_base_url(), Duration::from_secs(10));
    let (_, message) = ran(&spec, request(true, 3, Duration::ZERO))
        .await
        .unwrap_err();
    assert!(
        message.contains("cut off before it was complete"),
        "{message}"
    );
}

#[tokio::test]
async fn a_stream_of_keep_alives_is_stopped_half_a_timeout_after_the_timeout() {
    let port = trickle_server("", ": keep-alive\n\n", Duration::from_secs(8));
    let spec = spec_of(
        format!("http://127.0.0.1:{port}/v1"),
        Duration::from_secs(2),
    );
    let started = Instant::now();
    let (kind, message) = ran(&spec, request(true, 3, Duration::ZERO))
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert_eq!(kind, ErrorKind::Transport, "{message}");
    assert!(message.contains("sent nothing readable"), "{message}");
    assert!(
        message.contains("for 2s (request_timeout_secs)"),
        "{message}"
    );
    // 2 s and half of it, not 2 s twice over.
    assert!(took >= Duration::from_secs(3), "{took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// An Anthropic stream that opens a block of `kind` (`text` or `thinking`), then sends empty
/// deltas of it for eight seconds; its base URL.
fn empty_deltas(kind: &str) -> String {
    let start: &'static str = Box::leak(format!(
        "event: message_start\ndata: {{\"type\":\"message_start\",\"message\":{{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{{\"input_tokens\":1,\"output_tokens\":1}}}}}}\n\n\
         event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"{kind}\",\"{kind}\":\"\"}}}}\n\n"
    ).into_boxed_str());
    let empty: &'static str = Box::leak(format!(
        "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"{kind}_delta\",\"{kind}\":\"\"}}}}\n\n"
    ).into_boxed_str());
    let port = trickle_server(start, empty, Duration::from_secs(8));
    format!("http://127.0.0.1:{port}")
}

#[tokio::test]
async fn empty_text_or_reasoning_is_no_progress() {
    let stalled = |kind: &'static str| async move {
        let mut spec = spec_of(empty_deltas(kind), Duration::from_secs(1));
        spec.kind = ProviderKind::Anthropic;
        let (_, message) = ran(&spec, request(true, 3, Duration::ZERO))
            .await
            .unwrap_err();
        assert!(
            message.contains("sent nothing readable"),
            "{kind}: {message}"
        );
    };
    tokio::join!(stalled("text"), stalled("thinking"));
}

#[tokio::test]
async fn a_stream_slower_than_the_timeout_but_within_its_half_goes_on() {
    // An event every 0.7 s against a 2 s timeout: the opening and closing events carry no
    // text, so 2.1 s pass without any (within 3 s), and 1.4 s before the first.
    let fake = FakeProvider::start(vec![Step::paced(700, Step::text("Add two"))]);
    let spec = spec_of(fake.openai_base_url(), Duration::from_secs(2));
    let out = ran(&spec, request(true, 3, Duration::ZERO)).await.unwrap();
    assert_eq!(out.text, "Add two");
}

#[tokio::test]
async fn the_time_iris_tools_take_is_not_the_server_s_silence() {
    // A tool of 2 s against a 1 s timeout (its watchdog 1.5 s), streamed or not.
    let with_a_slow_tool = |stream: bool| async move {
        let fake = FakeProvider::start(vec![wait_call(), Step::text("Add two")]);
        let spec = spec_of(fake.openai_base_url(), Duration::from_secs(1));
        let out = ran(&spec, request(stream, 3, Duration::from_secs(2))).await;
        assert_eq!(out.unwrap().text, "Add two", "stream: {stream}");
    };
    tokio::join!(with_a_slow_tool(true), with_a_slow_tool(false));
}

#[tokio::test]
async fn tool_arguments_written_slowly_keep_the_run_alive() {
    // Each piece of the call 400 ms after the last, against a 1 s timeout.
    let call = Step::tool_call(
        "wait",
        json!({"why": "a long reason, written in many pieces by a slow model"}),
    );
    let fake = FakeProvider::start(vec![Step::paced(400, call), Step::text("Add two")]);
    let spec = spec_of(fake.openai_base_url(), Duration::from_secs(1));
    let out = ran(&spec, request(true, 3, Duration::ZERO)).await.unwrap();
    assert_eq!(out.text, "Add two");
}

#[tokio::test]
async fn a_server_gone_silent_mid_reply_is_said_so() {
    const BEGUN: &str = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Add\"},\"finish_reason\":null}]}\n\n";
    let port = trickle_server(BEGUN, "", Duration::from_secs(8));
    let spec = spec_of(
        format!("http://127.0.0.1:{port}/v1"),
        Duration::from_secs(1),
    );
    let (kind, message) = ran(&spec, request(true, 3, Duration::ZERO))
        .await
        .unwrap_err();
    assert_eq!(kind, ErrorKind::Transport, "{message}");
    assert_eq!(
        message,
        "the server sent nothing for 1s while the reply was awaited (request_timeout_secs)"
    );
}
