//! A fake LLM provider on 127.0.0.1 for the agent tests: the end-to-end tests of the binary
//! and iris-agent's own.
//!
//! It speaks five wire formats, as JSON and streamed, and answers every request with the next
//! [`Step`] of a script, whatever the endpoint:
//!
//! | API                    | path served                                             | rig 0.37 client                                  |
//! |------------------------|---------------------------------------------------------|--------------------------------------------------|
//! | OpenAI Responses       | `POST [/v1]/responses`                                  | `rig_core::providers::openai::Client`            |
//! | OpenAI Chat Completions| `POST [/v1]/chat/completions`                           | `rig_core::providers::openai::CompletionsClient` |
//! | Azure OpenAI           | `POST /openai/deployments/NAME/chat/completions`         | `rig_core::providers::azure::Client` |
//! | Anthropic Messages     | `POST [/v1]/messages`                                   | `rig_core::providers::anthropic::Client`         |
//! | Google Gemini          | `POST /v1beta/models/{model}:generateContent`           | `rig_core::providers::gemini::Client`            |
//! |                        | `POST /v1beta/models/{model}:streamGenerateContent`     |                                                  |
//! | Ollama                 | `POST /api/chat` (and `GET /api/tags`, its model list)  | `rig_core::providers::ollama::Client`            |
//! | Model lists            | `GET [/v1]/models` (OpenAI's and Anthropic's)            | `iris doctor`                                    |
//!
//! (`/v1/models/...` is served as Gemini too: Google's stable API version.)
//!
//! Base URLs, as rig 0.37 builds them (`client/mod.rs`: `base_url + "/" + path`):
//! - OpenAI clients (both APIs) append `/responses` or `/chat/completions` to the base URL as given
//!   (their default is `https://api.openai.com/v1`, and `OPENAI_BASE_URL` is read by `from_env`).
//!   Use [`FakeProvider::openai_base_url`] (`http://127.0.0.1:PORT/v1`, the form real
//!   OpenAI-compatible servers expect); the bare [`FakeProvider::base_url`] works here too. A trailing
//!   slash gives `//responses`: the fake accepts it, a real server may not.
//! - The Anthropic client strips a trailing `/`, `/v1/messages`, `/messages` or `/v1` from the base
//!   URL and then appends `/v1/messages` (default `https://api.anthropic.com`). So
//!   [`FakeProvider::base_url`], `.../v1` and `.../v1/messages` all reach `POST /v1/messages`.
//!   Its `from_env` reads only `ANTHROPIC_API_KEY`, never a base URL: the app has to pass
//!   `ANTHROPIC_BASE_URL` to `.base_url()` itself.
//! - The Gemini client (`gemini/client.rs`) builds
//!   `{base_url}/v1beta/models/{model}:generateContent?key=KEY`, and for streaming
//!   `{base_url}/v1beta/models/{model}:streamGenerateContent?alt=sse&key=KEY` (default
//!   `https://generativelanguage.googleapis.com`, no version: rig adds `v1beta`). Pass
//!   [`FakeProvider::base_url`]; a base URL ending in `/v1beta` doubles it and gets a 404 here. Its
//!   `from_env` reads only `GEMINI_API_KEY`.
//! - The Ollama client appends `/api/chat` to the base URL (default `http://localhost:11434`). Pass
//!   [`FakeProvider::base_url`] (a trailing slash gives `//api/chat`, which the fake accepts). Its
//!   `from_env` reads `OLLAMA_API_BASE_URL` and `OLLAMA_API_KEY`.
//!
//! Auth sent by rig: OpenAI `authorization: Bearer KEY`; Anthropic `x-api-key: KEY` plus
//! `anthropic-version: 2023-06-01`; Gemini no header at all but a `key=KEY` query parameter (the
//! key is in the URL, see [`Recorded::query`]; rig's traces show the host, not the path); Ollama
//! `authorization: Bearer KEY` when a non-empty key is given, nothing otherwise. Use
//! [`FAKE_API_KEY`] as the key so a test can search logs for it.
//!
//! Streaming: OpenAI and Anthropic request bodies with `"stream": true` get server-sent events;
//! Gemini streams on `:streamGenerateContent?alt=sse` (`data:` events only, each a whole
//! `GenerateContentResponse`; without `alt=sse` the reply is those chunks as one JSON array, as the
//! real API does); Ollama streams newline-delimited JSON (`application/x-ndjson`) unless the body
//! says `"stream": false` (the real server's default is to stream; rig always sends the field).
//! Streams use chunked transfer encoding, one event or line a chunk; anything else gets a JSON body
//! with `Content-Length`. Every response carries `Connection: close` and the socket is closed after
//! it. Each connection has its own thread, so parallel requests (subagents) are served at once; the
//! script is shared behind a mutex. Every reply reports [`INPUT_TOKENS`] input and
//! [`OUTPUT_TOKENS`] output tokens (Gemini `usageMetadata.promptTokenCount`/`candidatesTokenCount`,
//! Ollama `prompt_eval_count`/`eval_count`).
//!
//! The events and bodies follow the real APIs field for field. (rig 0.37 cannot parse the Responses
//! `response.function_call_arguments.delta`/`.done` events, real or fake: its `ItemChunk` takes
//! `item_id` for itself before the flattened delta sees it, and it wants a `content_index` the API
//! does not send. It builds the call from `response.output_item.done` instead.) Gemini and Ollama
//! send no tool call ids: rig uses the function name as the call id (and, for streamed Ollama
//! calls, an empty string).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

/// A distinctive dummy key: give it to the clients and assert it never shows up in a log.
pub const FAKE_API_KEY: &str = "sk-iris-fake-key-7f3a9c-never-log-me";
/// Input tokens reported by every reply (usage is per request, so N requests report N times this).
pub const INPUT_TOKENS: u64 = 21;
/// Output tokens reported by every reply.
pub const OUTPUT_TOKENS: u64 = 7;

/// Which wire format a request was addressed to (from its path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// OpenAI Responses: `POST [/v1]/responses`.
    Responses,
    /// OpenAI Chat Completions: `POST [/v1]/chat/completions`.
    ChatCompletions,
    /// Anthropic Messages: `POST [/v1]/messages`.
    AnthropicMessages,
    /// Google Gemini: `POST /v1beta/models/{model}:generateContent` or `:streamGenerateContent`.
    Gemini,
    /// Ollama: `POST /api/chat`.
    Ollama,
    /// Any other method or path: answered 404, consumes no step.
    Unknown,
}

/// One scripted reply. Each request to a known endpoint consumes the next step.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A final assistant text reply.
    Text(String),
    /// One reply with one or more tool calls (name, arguments); each call gets a unique id.
    ToolCalls(Vec<(String, Value)>),
    /// One tool call whose arguments string is sent verbatim (for malformed-argument tests). Where
    /// arguments are a JSON value rather than a string (Anthropic's non-streaming format, Gemini's
    /// `args`, Ollama's `arguments`), text that does not parse is sent as a JSON string.
    RawToolCall { name: String, arguments: String },
    /// An HTTP error. An empty `body` gets the API's own error shape (`{"error":{...}}` for OpenAI,
    /// `{"type":"error","error":{...}}` for Anthropic, `{"error":{"code","message","status"}}` for
    /// Gemini, `{"error":"..."}` for Ollama); `retry_after` sets the `Retry-After` header.
    Error {
        status: u16,
        body: String,
        retry_after: Option<u64>,
    },
    /// Streaming: the opening events and the first half of this text's deltas, then the connection
    /// closes in the middle of the chunked body (no final event, no terminating chunk). Gemini's
    /// cut stream never holds the chunk with `finishReason`, Ollama's never the `"done"` line.
    /// Non-streaming: announces the full JSON body's length, sends half of it and closes.
    CutStream(String),
    /// Like `CutStream`, but the body ends cleanly (terminating chunk sent) before the API's final
    /// events: what a proxy that gives up politely looks like. Non-streaming: a complete HTTP body
    /// holding the first half of the JSON.
    StreamEndsEarly(String),
    /// A 200 (or any status) with this content type and body, sent verbatim: malformed JSON,
    /// malformed server-sent events...
    Raw {
        status: u16,
        content_type: String,
        body: String,
    },
    /// Waits before answering with `then` (the request is recorded at once).
    Slow { delay_ms: u64, then: Box<Step> },
    /// Streaming only: waits between server-sent events or NDJSON lines (not in JSON replies).
    Paced { every_ms: u64, then: Box<Step> },
    /// Serves its step for this and every later request, and is never used up: a model that
    /// never stops calling tools is `Repeat(Box::new(Step::tool_call(...)))`.
    Repeat(Box<Step>),
    /// A careful model: it reads the request and calls the first tool of `needs` whose
    /// evidence (the marker text) the conversation does not hold yet; when it holds all of
    /// it, it answers `answer`. Used up only by the answer.
    Careful { needs: Vec<Need>, answer: String },
    /// A careful model that asks for everything it lacks at once: one reply calling the tool of
    /// every missing piece of evidence (the same call once), then, when the conversation holds
    /// it all, `answer`. Used up only by the answer.
    CarefulAtOnce { needs: Vec<Need>, answer: String },
}

/// What a [`Step::Careful`] model wants to have read before it answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Need {
    /// Text that shows the evidence is in the conversation (searched in the raw request body,
    /// so without quotes or line breaks).
    pub marker: String,
    /// The tool call that fetches it.
    pub tool: String,
    pub args: Value,
}

impl Step {
    /// What a [`Step::Careful`] model does with this request body: the call for the first
    /// missing evidence, or its answer (`true`: the step is used up).
    fn decide(needs: &[Need], answer: &str, raw_body: &str) -> (Step, bool) {
        match needs.iter().find(|n| !raw_body.contains(&n.marker)) {
            Some(need) => (Step::tool_call(need.tool.clone(), need.args.clone()), false),
            None => (Step::text(answer), true),
        }
    }

    /// What a [`Step::CarefulAtOnce`] model does with this request body.
    fn decide_at_once(needs: &[Need], answer: &str, raw_body: &str) -> (Step, bool) {
        let mut calls: Vec<(String, Value)> = Vec::new();
        for need in needs.iter().filter(|n| !raw_body.contains(&n.marker)) {
            let call = (need.tool.clone(), need.args.clone());
            if !calls.contains(&call) {
                calls.push(call);
            }
        }
        if calls.is_empty() {
            (Step::text(answer), true)
        } else {
            (Step::ToolCalls(calls), false)
        }
    }
}

impl Step {
    pub fn text(text: impl Into<String>) -> Self {
        Step::Text(text.into())
    }

    pub fn tool_call(name: impl Into<String>, args: Value) -> Self {
        Step::ToolCalls(vec![(name.into(), args)])
    }

    /// An error in the API's own shape.
    pub fn error(status: u16) -> Self {
        Step::Error {
            status,
            body: String::new(),
            retry_after: None,
        }
    }

    /// 429 with `Retry-After: secs` in the API's own shape.
    pub fn rate_limited(secs: u64) -> Self {
        Step::Error {
            status: 429,
            body: String::new(),
            retry_after: Some(secs),
        }
    }

    /// A 200 whose JSON body is cut off (`{"id": "broken`).
    pub fn malformed_json() -> Self {
        Step::Raw {
            status: 200,
            content_type: "application/json".into(),
            body: r#"{"id": "broken"#.into(),
        }
    }

    pub fn slow(delay_ms: u64, then: Step) -> Self {
        Step::Slow {
            delay_ms,
            then: Box::new(then),
        }
    }

    pub fn paced(every_ms: u64, then: Step) -> Self {
        Step::Paced {
            every_ms,
            then: Box::new(then),
        }
    }

    pub fn repeat(step: Step) -> Self {
        Step::Repeat(Box::new(step))
    }
}

/// One request as the fake received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// The path as sent (query string included).
    pub path: String,
    /// Header names lowercased, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON (`Value::Null` if it is not JSON).
    pub body: Value,
    pub raw_body: String,
    pub api: Api,
    /// The reply was streamed: `"stream": true` (OpenAI, Anthropic), `:streamGenerateContent` with
    /// `alt=sse` (Gemini), anything but `"stream": false` (Ollama).
    pub stream: bool,
    /// The step that answered it (a `Repeat` shows its inner step); `None` for a 404 or when the
    /// script had run out (answered 500).
    pub step: Option<Step>,
}

impl Recorded {
    /// The first header with this name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A query parameter of the path, as sent (not percent-decoded): Gemini's `key` and `alt`.
    pub fn query(&self, name: &str) -> Option<&str> {
        query_param(&self.path, name)
    }

    /// The model asked for: the body's `model`, or for Gemini the `{model}` of the path.
    pub fn model(&self) -> Option<String> {
        match self.api {
            Api::Gemini => gemini_target(&self.path).map(|(model, _)| model.to_owned()),
            _ => self
                .body
                .get("model")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }

    /// Names of the function tools offered to the model.
    pub fn tool_names(&self) -> Vec<String> {
        self.tools()
            .iter()
            .filter_map(|tool| {
                tool.get("name")
                    .or_else(|| tool.pointer("/function/name"))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .collect()
    }

    /// The JSON schema of a tool's parameters as offered to the model.
    pub fn tool_schema(&self, name: &str) -> Option<Value> {
        self.tools().into_iter().find_map(|tool| {
            let (tool_name, schema) = match self.api {
                Api::ChatCompletions | Api::Ollama => (
                    tool.pointer("/function/name"),
                    tool.pointer("/function/parameters"),
                ),
                Api::AnthropicMessages => (tool.get("name"), tool.get("input_schema")),
                Api::Gemini => (
                    tool.get("name"),
                    tool.get("parameters")
                        .or_else(|| tool.get("parametersJsonSchema")),
                ),
                _ => (tool.get("name"), tool.get("parameters")),
            };
            (tool_name.and_then(Value::as_str) == Some(name))
                .then(|| schema.cloned())
                .flatten()
        })
    }

    /// The tools offered, one entry a function (Gemini's `tools[].functionDeclarations[]` are
    /// flattened).
    fn tools(&self) -> Vec<Value> {
        let tools = self
            .body
            .get("tools")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if self.api != Api::Gemini {
            return tools;
        }
        tools
            .iter()
            .filter_map(|tool| tool.get("functionDeclarations").and_then(Value::as_array))
            .flatten()
            .cloned()
            .collect()
    }

    /// The system prompt / instructions, all parts joined with newlines.
    pub fn system_text(&self) -> String {
        let mut parts = Vec::new();
        match self.api {
            Api::AnthropicMessages => {
                if let Some(system) = self.body.get("system") {
                    parts.push(content_text(system));
                }
            }
            Api::Responses => {
                if let Some(Value::String(s)) = self.body.get("instructions") {
                    parts.push(s.clone());
                }
                for item in self.items("input") {
                    if matches!(role(&item), Some("system" | "developer")) {
                        parts.push(content_text(item.get("content").unwrap_or(&Value::Null)));
                    }
                }
            }
            Api::Gemini => {
                let instruction = self
                    .body
                    .get("systemInstruction")
                    .or_else(|| self.body.get("system_instruction"));
                if let Some(instruction) = instruction {
                    parts.push(content_text(
                        instruction.get("parts").unwrap_or(&Value::Null),
                    ));
                }
            }
            _ => {
                for item in self.items("messages") {
                    if matches!(role(&item), Some("system" | "developer")) {
                        parts.push(content_text(item.get("content").unwrap_or(&Value::Null)));
                    }
                }
            }
        }
        parts.retain(|p| !p.is_empty());
        parts.join("\n")
    }

    /// Tool results sent back to the model: (call id, result text), in request order. Gemini and
    /// Ollama have no call ids on the wire: there the id is the `functionResponse`'s `id` or else
    /// its `name`, and the tool message's `tool_call_id` or else its `tool_name`. A Gemini result
    /// is the `result` of its `response` object (what rig sends), or else the whole object as JSON.
    pub fn tool_results(&self) -> Vec<(String, String)> {
        let text_of = |v: Option<&Value>| content_text(v.unwrap_or(&Value::Null));
        let id_of = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut results = Vec::new();
        match self.api {
            Api::Responses => {
                for item in self.items("input") {
                    if item.get("type").and_then(Value::as_str) == Some("function_call_output") {
                        results.push((id_of(item.get("call_id")), text_of(item.get("output"))));
                    }
                }
            }
            Api::ChatCompletions | Api::Ollama => {
                for item in self.items("messages") {
                    if role(&item) == Some("tool") {
                        let id = item.get("tool_call_id").or_else(|| item.get("tool_name"));
                        results.push((id_of(id), text_of(item.get("content"))));
                    }
                }
            }
            Api::AnthropicMessages => {
                for message in self.items("messages") {
                    let blocks = message.get("content").and_then(Value::as_array);
                    for block in blocks.into_iter().flatten() {
                        if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                            results.push((
                                id_of(block.get("tool_use_id")),
                                text_of(block.get("content")),
                            ));
                        }
                    }
                }
            }
            Api::Gemini => {
                for content in self.items("contents") {
                    let parts = content.get("parts").and_then(Value::as_array);
                    for part in parts.into_iter().flatten() {
                        let Some(response) = part.get("functionResponse") else {
                            continue;
                        };
                        let id = response.get("id").or_else(|| response.get("name"));
                        let output = response.get("response").unwrap_or(&Value::Null);
                        let text = match output.get("result") {
                            Some(Value::String(s)) => s.clone(),
                            Some(result) => result.to_string(),
                            None => output.to_string(),
                        };
                        results.push((id_of(id), text));
                    }
                }
            }
            Api::Unknown => {}
        }
        results
    }

    /// The text of the user messages (tool results excluded), in order.
    pub fn user_texts(&self) -> Vec<String> {
        let (key, content) = match self.api {
            Api::Responses => ("input", "content"),
            Api::Gemini => ("contents", "parts"),
            _ => ("messages", "content"),
        };
        self.items(key)
            .iter()
            .filter(|item| role(item) == Some("user"))
            .map(|item| content_text(item.get(content).unwrap_or(&Value::Null)))
            .filter(|text| !text.is_empty())
            .collect()
    }

    fn items(&self, key: &str) -> Vec<Value> {
        match self.body.get(key) {
            Some(Value::Array(items)) => items.clone(),
            // The Responses API also accepts a bare string as the input.
            Some(Value::String(s)) => vec![json!({"role": "user", "content": s})],
            _ => Vec::new(),
        }
    }
}

/// A query parameter of a request path, as sent.
fn query_param<'a>(path: &'a str, name: &str) -> Option<&'a str> {
    let (_, query) = path.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| match pair.split_once('=') {
            Some((key, value)) if key == name => Some(value),
            None if pair == name => Some(""),
            _ => None,
        })
}

/// The `(model, method)` of a Gemini path, `/v1beta/models/{model}:{method}` (query ignored),
/// for the two methods served.
fn gemini_target(path: &str) -> Option<(&str, &str)> {
    let path = path.split('?').next().unwrap_or_default();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let ["v1beta" | "v1", "models", call] = segments[..] else {
        return None;
    };
    let (model, method) = call.rsplit_once(':')?;
    let known = matches!(method, "generateContent" | "streamGenerateContent");
    (known && !model.is_empty()).then_some((model, method))
}

fn role(item: &Value) -> Option<&str> {
    item.get("role").and_then(Value::as_str)
}

/// The text of a message content: a string, or the `text` of each part of an array.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| match part {
                Value::String(s) => Some(s.clone()),
                _ => part.get("text").and_then(Value::as_str).map(str::to_owned),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

struct State {
    script: VecDeque<Step>,
    served: usize,
    requests: Vec<Recorded>,
}

struct Shared {
    state: Mutex<State>,
    next_id: AtomicU64,
    stop: AtomicBool,
    /// How long each answer took, from the request read to the connection closed.
    answer_times: Mutex<Vec<Duration>>,
    /// Slow answers whose client hung up before they were sent.
    abandoned: AtomicUsize,
    /// Requests read and not yet answered, and the most there ever were at once.
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking connection thread must not hide the requests from the test.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
    }
}

/// The fake server: listens on 127.0.0.1 on a free port until dropped.
pub struct FakeProvider {
    port: u16,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

impl FakeProvider {
    pub fn start(script: Vec<Step>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().expect("local addr").port();
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                script: script.into(),
                served: 0,
                requests: Vec::new(),
            }),
            next_id: AtomicU64::new(1),
            stop: AtomicBool::new(false),
            answer_times: Mutex::new(Vec::new()),
            abandoned: AtomicUsize::new(0),
            in_flight: AtomicUsize::new(0),
            most_in_flight: AtomicUsize::new(0),
        });
        let acceptor = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name("fake-provider".into())
                .spawn(move || accept_loop(listener, shared))
                .expect("spawn fake provider")
        };
        Self {
            port,
            shared,
            acceptor: Some(acceptor),
        }
    }

    /// `http://127.0.0.1:PORT`: what the Anthropic (it adds `/v1/messages`), Gemini (it adds
    /// `/v1beta/models/...`) and Ollama (it adds `/api/chat`) clients want.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// `http://127.0.0.1:PORT/v1`: the usual form of an OpenAI base URL (rig adds `/responses` or
    /// `/chat/completions`).
    pub fn openai_base_url(&self) -> String {
        format!("{}/v1", self.base_url())
    }

    /// Every request received so far, in the order the steps were handed out.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.lock().requests.clone()
    }

    /// The most requests that were ever being answered at once: 2 or more shows a client
    /// asked in parallel.
    pub fn most_in_flight(&self) -> usize {
        self.shared.most_in_flight.load(Ordering::SeqCst)
    }

    /// How many slow answers were never sent because their client hung up first.
    pub fn abandoned(&self) -> usize {
        self.shared.abandoned.load(Ordering::SeqCst)
    }

    /// How long the fake took to answer each request (scripted delays included), from the
    /// request read to the connection closed, in the order the answers finished: the
    /// provider's share of a run's wall time.
    pub fn answer_times(&self) -> Vec<Duration> {
        self.shared
            .answer_times
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Steps not yet served (a `Repeat` counts as one and never runs out).
    /// Input tokens of every request so far, estimated as its body's characters / 4 (what
    /// the benchmarks compare).
    pub fn estimated_input_tokens(&self) -> usize {
        self.requests()
            .iter()
            .map(|r| r.raw_body.chars().count() / 4)
            .sum()
    }

    pub fn remaining(&self) -> usize {
        self.shared.lock().script.len()
    }
}

impl Drop for FakeProvider {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept() so the thread sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    for conn in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(conn) = conn else { continue };
        let shared = Arc::clone(&shared);
        let _ = thread::Builder::new()
            .name("fake-provider-conn".into())
            .spawn(move || {
                // Errors here are the client going away (e.g. rig stops reading after the
                // Anthropic `message_delta`); nothing to report.
                let _ = handle_connection(conn, &shared);
            });
    }
}

struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

fn read_request(conn: &TcpStream) -> std::io::Result<Option<Request>> {
    let mut reader = BufReader::new(conn);
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None); // connected and closed (the drop wake-up)
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();

    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            break;
        }
        if let Some((name, value)) = trimmed.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };

    let mut body = Vec::new();
    if header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked")) {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size_text = line.trim().split(';').next().unwrap_or_default();
            let size = usize::from_str_radix(size_text, 16)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            if size == 0 {
                // Trailers, up to the empty line.
                loop {
                    line.clear();
                    if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
                        break;
                    }
                }
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..])?;
            line.clear();
            reader.read_line(&mut line)?; // CRLF after the chunk
        }
    } else if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(len, 0);
        reader.read_exact(&mut body)?;
    }

    Ok(Some(Request {
        method,
        path,
        headers,
        body,
    }))
}

/// The API a path belongs to: query dropped, repeated slashes collapsed, optional `/v1` prefix
/// for the OpenAI and Anthropic paths.
fn route(method: &str, path: &str) -> Api {
    if method != "POST" {
        return Api::Unknown;
    }
    if gemini_target(path).is_some() {
        return Api::Gemini;
    }
    let path = path.split('?').next().unwrap_or_default();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments == ["api", "chat"] {
        return Api::Ollama;
    }
    let segments = match segments.split_first() {
        Some((&"v1", rest)) => rest,
        _ => &segments[..],
    };
    match segments {
        ["responses"] => Api::Responses,
        ["chat", "completions"] => Api::ChatCompletions,
        // Azure OpenAI: a deployment's Chat Completions.
        ["openai", "deployments", _, "chat", "completions"] => Api::ChatCompletions,
        ["messages"] => Api::AnthropicMessages,
        _ => Api::Unknown,
    }
}

fn handle_connection(conn: TcpStream, shared: &Shared) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(30)))?;
    let Some(request) = read_request(&conn)? else {
        return Ok(());
    };
    let started = std::time::Instant::now();
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.most_in_flight.fetch_max(now, Ordering::SeqCst);
    let answered = answer_request(conn, request, shared);
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    shared
        .answer_times
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(started.elapsed());
    answered
}

fn answer_request(conn: TcpStream, request: Request, shared: &Shared) -> std::io::Result<()> {
    // Ollama lists its models here (what setup probes): answered, not recorded, no step used.
    if request.method == "GET" && request.path.split('?').next() == Some("/api/tags") {
        let mut out = Out { conn, pace: None };
        return out.json(200, &[], &json!({"models": [{"name": "fake-model"}]}));
    }
    // OpenAI's and Anthropic's model lists (what `iris doctor` asks), in one body both read:
    // answered, not recorded, no step used.
    if request.method == "GET"
        && matches!(
            request.path.split('?').next(),
            Some("/models" | "/v1/models")
        )
    {
        let mut out = Out { conn, pace: None };
        let model = json!({
            "id": "fake-model", "object": "model", "created": 1_700_000_000u64,
            "owned_by": "iris-testkit", "type": "model", "display_name": "Fake model",
        });
        let list = json!({
            "object": "list", "data": [model], "has_more": false,
            "first_id": "fake-model", "last_id": "fake-model",
        });
        return out.json(200, &[], &list);
    }
    let raw_body = String::from_utf8_lossy(&request.body).into_owned();
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let api = route(&request.method, &request.path);
    let gemini = gemini_target(&request.path);
    let gemini_streams = gemini.is_some_and(|(_, method)| method == "streamGenerateContent");
    let sse = query_param(&request.path, "alt") == Some("sse");
    let stream = match api {
        Api::Gemini => gemini_streams && sse,
        // Ollama streams unless told not to.
        Api::Ollama => body.get("stream").and_then(Value::as_bool) != Some(false),
        _ => body.get("stream").and_then(Value::as_bool) == Some(true),
    };

    // Hand out the step and record the request under one lock, so the record order is the
    // script order even with parallel requests.
    let (step, served_before) = {
        let mut state = shared.lock();
        let step = if api == Api::Unknown {
            None
        } else {
            match state.script.front() {
                Some(Step::Repeat(inner)) => Some((**inner).clone()),
                Some(Step::Careful { needs, answer }) => {
                    let (step, used_up) = Step::decide(needs, answer, &raw_body);
                    if used_up {
                        state.script.pop_front();
                    }
                    Some(step)
                }
                Some(Step::CarefulAtOnce { needs, answer }) => {
                    let (step, used_up) = Step::decide_at_once(needs, answer, &raw_body);
                    if used_up {
                        state.script.pop_front();
                    }
                    Some(step)
                }
                Some(_) => state.script.pop_front(),
                None => None,
            }
        };
        let served_before = state.served;
        if step.is_some() {
            state.served += 1;
        }
        state.requests.push(Recorded {
            method: request.method.clone(),
            path: request.path.clone(),
            headers: request.headers.clone(),
            body: body.clone(),
            raw_body,
            api,
            stream,
            step: step.clone(),
        });
        (step, served_before)
    };

    let mut out = Out { conn, pace: None };
    let model = gemini
        .map(|(model, _)| model)
        .or_else(|| body.get("model").and_then(Value::as_str))
        .unwrap_or("fake-model")
        .to_owned();
    let ctx = Ctx {
        api,
        stream,
        gemini_array: gemini_streams && !sse,
        model,
        include_usage: body.pointer("/stream_options/include_usage") == Some(&Value::Bool(true)),
        shared,
    };

    match (api, step) {
        (Api::Unknown, _) => {
            let msg = format!(
                "fake provider: no route for {} {}",
                request.method, request.path
            );
            out.json(
                404,
                &[],
                &json!({"error": {"message": msg, "type": "not_found"}}),
            )
        }
        (_, None) => {
            let msg = format!(
                "fake provider: script exhausted after {served_before} steps; this request was not scripted"
            );
            out.json(500, &[], &error_body(api, 500, &msg))
        }
        (_, Some(step)) => serve(&ctx, &mut out, step),
    }
}

struct Ctx<'a> {
    api: Api,
    stream: bool,
    /// Gemini `:streamGenerateContent` without `alt=sse`: the chunks as one JSON array.
    gemini_array: bool,
    model: String,
    include_usage: bool,
    shared: &'a Shared,
}

impl Ctx<'_> {
    fn id(&self, prefix: &str) -> String {
        format!("{prefix}{}", self.shared.id())
    }
}

/// What the model "said" in one reply.
struct Reply {
    text: Option<String>,
    calls: Vec<Call>,
}

struct Call {
    /// The provider's id for the call (`call_…` / `toolu_…`; Gemini and Ollama send none).
    call_id: String,
    /// The Responses API's separate item id (`fc_…`).
    item_id: String,
    name: String,
    arguments: String,
}

fn serve(ctx: &Ctx, out: &mut Out, step: Step) -> std::io::Result<()> {
    match step {
        Step::Slow { delay_ms, then } => {
            // Waits in small steps, watching for a client that hangs up (a cancelled run).
            let until = Instant::now() + Duration::from_millis(delay_ms);
            while Instant::now() < until {
                if hung_up(&out.conn) {
                    ctx.shared.abandoned.fetch_add(1, Ordering::SeqCst);
                    return Ok(());
                }
                thread::sleep(Duration::from_millis(20).min(until - Instant::now()));
            }
            serve(ctx, out, *then)
        }
        Step::Paced { every_ms, then } => {
            out.pace = Some(Duration::from_millis(every_ms));
            serve(ctx, out, *then)
        }
        Step::Repeat(inner) => serve(ctx, out, *inner),
        // Decided when it was handed out; served whole here only if reached some other way.
        Step::Careful { answer, .. } | Step::CarefulAtOnce { answer, .. } => {
            serve(ctx, out, Step::text(answer))
        }
        Step::Error {
            status,
            body,
            retry_after,
        } => {
            let retry = retry_after.map(|s| s.to_string());
            let mut extra = Vec::new();
            if let Some(retry) = &retry {
                extra.push(("Retry-After", retry.as_str()));
            }
            let body = if body.is_empty() {
                error_body(
                    ctx.api,
                    status,
                    &format!("fake provider: scripted {status}"),
                )
                .to_string()
            } else {
                body
            };
            out.raw(status, "application/json", &extra, body.as_bytes())
        }
        Step::Raw {
            status,
            content_type,
            body,
        } => out.raw(status, &content_type, &[], body.as_bytes()),
        Step::Text(text) => answer(ctx, out, reply_text(text), Ending::Complete),
        Step::CutStream(text) => answer(ctx, out, reply_text(text), Ending::Cut),
        Step::StreamEndsEarly(text) => answer(ctx, out, reply_text(text), Ending::Early),
        Step::ToolCalls(calls) => {
            let calls = calls
                .into_iter()
                .map(|(name, args)| new_call(ctx, name, args.to_string()))
                .collect();
            answer(ctx, out, Reply { text: None, calls }, Ending::Complete)
        }
        Step::RawToolCall { name, arguments } => {
            let calls = vec![new_call(ctx, name, arguments)];
            answer(ctx, out, Reply { text: None, calls }, Ending::Complete)
        }
    }
}

fn reply_text(text: String) -> Reply {
    Reply {
        text: Some(text),
        calls: Vec::new(),
    }
}

fn new_call(ctx: &Ctx, name: String, arguments: String) -> Call {
    let n = ctx.shared.id();
    let call_id = match ctx.api {
        Api::AnthropicMessages => format!("toolu_fake_{n}"),
        _ => format!("call_fake_{n}"),
    };
    Call {
        call_id,
        item_id: format!("fc_fake_{n}"),
        name,
        arguments,
    }
}

/// How a reply ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    Complete,
    /// The connection drops in the middle of the body.
    Cut,
    /// The body ends cleanly, early.
    Early,
}

fn answer(ctx: &Ctx, out: &mut Out, reply: Reply, ending: Ending) -> std::io::Result<()> {
    if ctx.stream && ctx.api == Api::Ollama {
        let (lines, cut_at) = ollama_lines(ctx, &reply);
        let lines = match ending {
            Ending::Complete => &lines[..],
            _ => &lines[..cut_at],
        };
        out.ndjson(lines, ending == Ending::Cut)
    } else if ctx.stream {
        let (events, cut_at) = match ctx.api {
            Api::Responses => responses_events(ctx, &reply),
            Api::ChatCompletions => chat_events(ctx, &reply),
            Api::Gemini => {
                let (chunks, cut_at) = gemini_chunks(ctx, &reply);
                (chunks.into_iter().map(Event::data).collect(), cut_at)
            }
            _ => anthropic_events(ctx, &reply),
        };
        let events = match ending {
            Ending::Complete => &events[..],
            _ => &events[..cut_at],
        };
        out.sse(events, ending == Ending::Cut)
    } else {
        let body = match ctx.api {
            Api::Responses => responses_body(ctx, &reply),
            Api::ChatCompletions => chat_body(ctx, &reply),
            Api::Gemini if ctx.gemini_array => Value::Array(gemini_chunks(ctx, &reply).0),
            Api::Gemini => gemini_body(ctx, &reply),
            Api::Ollama => ollama_body(ctx, &reply),
            _ => anthropic_body(ctx, &reply),
        };
        let text = body.to_string();
        let half = &text.as_bytes()[..text.len() / 2];
        match ending {
            Ending::Complete => out.json(200, &[], &body),
            // Announces the whole body, sends half of it and hangs up.
            Ending::Cut => out.truncated(text.len(), half),
            Ending::Early => out.raw(200, "application/json", &[], half),
        }
    }
}

/// The error body each API sends.
fn error_body(api: Api, status: u16, message: &str) -> Value {
    if api == Api::Gemini {
        // google.rpc.Status, as the Gemini API sends it.
        let code = match status {
            400 => "INVALID_ARGUMENT",
            401 => "UNAUTHENTICATED",
            403 => "PERMISSION_DENIED",
            404 => "NOT_FOUND",
            429 => "RESOURCE_EXHAUSTED",
            499 => "CANCELLED",
            503 => "UNAVAILABLE",
            504 => "DEADLINE_EXCEEDED",
            _ => "INTERNAL",
        };
        json!({"error": {"code": status, "message": message, "status": code}})
    } else if api == Api::Ollama {
        json!({"error": message})
    } else if api == Api::AnthropicMessages {
        let kind = match status {
            400 => "invalid_request_error",
            401 => "authentication_error",
            403 => "permission_error",
            404 => "not_found_error",
            429 => "rate_limit_error",
            529 => "overloaded_error",
            _ => "api_error",
        };
        json!({"type": "error", "error": {"type": kind, "message": message}})
    } else {
        let (kind, code) = match status {
            400 => ("invalid_request_error", Value::Null),
            401 => ("invalid_request_error", json!("invalid_api_key")),
            429 => ("requests", json!("rate_limit_exceeded")),
            _ => ("server_error", Value::Null),
        };
        json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Text deltas: one per word, each word with the whitespace before it.
fn text_pieces(text: &str) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    let mut after_word = false;
    for c in text.chars() {
        let space = c.is_whitespace();
        match pieces.last_mut() {
            Some(last) if !(space && after_word) => last.push(c),
            _ => pieces.push(c.to_string()),
        }
        after_word = !space;
    }
    pieces
}

/// Argument deltas: pieces of at most 8 characters.
fn arg_pieces(arguments: &str) -> Vec<String> {
    let chars: Vec<char> = arguments.chars().collect();
    chars.chunks(8).map(|c| c.iter().collect()).collect()
}

/// How many text pieces a cut stream still sends: the first half, at least one.
fn cut_count(pieces: usize) -> usize {
    pieces.div_ceil(2).max(1)
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

fn responses_usage() -> Value {
    json!({
        "input_tokens": INPUT_TOKENS,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": OUTPUT_TOKENS,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS,
    })
}

fn responses_envelope(
    id: &str,
    model: &str,
    status: &str,
    output: Vec<Value>,
    usage: Value,
) -> Value {
    json!({
        "id": id,
        "object": "response",
        "created_at": now(),
        "status": status,
        "error": null,
        "incomplete_details": null,
        "instructions": null,
        "max_output_tokens": null,
        "model": model,
        "output": output,
        "parallel_tool_calls": true,
        "previous_response_id": null,
        "store": false,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage,
        "metadata": {},
    })
}

fn responses_message(id: &str, status: &str, text: Option<&str>) -> Value {
    let content = match text {
        Some(text) => json!([{"type": "output_text", "text": text, "annotations": []}]),
        None => json!([]),
    };
    json!({"type": "message", "id": id, "status": status, "role": "assistant", "content": content})
}

fn responses_call(call: &Call, status: &str, arguments: &str) -> Value {
    json!({
        "type": "function_call",
        "id": call.item_id,
        "call_id": call.call_id,
        "name": call.name,
        "arguments": arguments,
        "status": status,
    })
}

fn responses_output(reply: &Reply, msg_id: &str) -> Vec<Value> {
    let mut output = Vec::new();
    if let Some(text) = &reply.text {
        output.push(responses_message(msg_id, "completed", Some(text)));
    }
    for call in &reply.calls {
        output.push(responses_call(call, "completed", &call.arguments));
    }
    output
}

fn responses_body(ctx: &Ctx, reply: &Reply) -> Value {
    let msg_id = ctx.id("msg_fake_");
    let output = responses_output(reply, &msg_id);
    responses_envelope(
        &ctx.id("resp_fake_"),
        &ctx.model,
        "completed",
        output,
        responses_usage(),
    )
}

/// The events of a streamed Responses reply, and where a cut stream stops.
fn responses_events(ctx: &Ctx, reply: &Reply) -> (Vec<Event>, usize) {
    let resp_id = ctx.id("resp_fake_");
    let msg_id = ctx.id("msg_fake_");
    let mut seq = 0u64;
    let mut events = Vec::new();
    let mut push = |events: &mut Vec<Event>, mut data: Value| {
        data["sequence_number"] = json!(seq);
        seq += 1;
        let name = data["type"].as_str().unwrap_or_default().to_owned();
        events.push(Event::named(&name, data));
    };
    let in_progress = responses_envelope(&resp_id, &ctx.model, "in_progress", vec![], Value::Null);
    push(
        &mut events,
        json!({"type": "response.created", "response": in_progress.clone()}),
    );
    push(
        &mut events,
        json!({"type": "response.in_progress", "response": in_progress}),
    );

    let mut cut_at = events.len();
    let mut index = 0;
    if let Some(text) = &reply.text {
        push(
            &mut events,
            json!({"type": "response.output_item.added", "output_index": index,
                   "item": responses_message(&msg_id, "in_progress", None)}),
        );
        push(
            &mut events,
            json!({"type": "response.content_part.added", "item_id": msg_id, "output_index": index,
                   "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}),
        );
        let pieces = text_pieces(text);
        let keep = cut_count(pieces.len());
        for (i, piece) in pieces.iter().enumerate() {
            push(
                &mut events,
                json!({"type": "response.output_text.delta", "item_id": msg_id, "output_index": index,
                       "content_index": 0, "delta": piece, "logprobs": []}),
            );
            if i + 1 == keep {
                cut_at = events.len();
            }
        }
        push(
            &mut events,
            json!({"type": "response.output_text.done", "item_id": msg_id, "output_index": index,
                   "content_index": 0, "text": text, "logprobs": []}),
        );
        push(
            &mut events,
            json!({"type": "response.content_part.done", "item_id": msg_id, "output_index": index,
                   "content_index": 0, "part": {"type": "output_text", "text": text, "annotations": []}}),
        );
        push(
            &mut events,
            json!({"type": "response.output_item.done", "output_index": index,
                   "item": responses_message(&msg_id, "completed", Some(text))}),
        );
        index += 1;
    }
    for call in &reply.calls {
        push(
            &mut events,
            json!({"type": "response.output_item.added", "output_index": index,
                   "item": responses_call(call, "in_progress", "")}),
        );
        for piece in arg_pieces(&call.arguments) {
            push(
                &mut events,
                json!({"type": "response.function_call_arguments.delta", "item_id": call.item_id,
                       "output_index": index, "delta": piece}),
            );
        }
        push(
            &mut events,
            json!({"type": "response.function_call_arguments.done", "item_id": call.item_id,
                   "output_index": index, "arguments": call.arguments}),
        );
        push(
            &mut events,
            json!({"type": "response.output_item.done", "output_index": index,
                   "item": responses_call(call, "completed", &call.arguments)}),
        );
        index += 1;
    }
    let done = responses_envelope(
        &resp_id,
        &ctx.model,
        "completed",
        responses_output(reply, &msg_id),
        responses_usage(),
    );
    push(
        &mut events,
        json!({"type": "response.completed", "response": done}),
    );
    (events, cut_at)
}

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

fn chat_usage() -> Value {
    json!({
        "prompt_tokens": INPUT_TOKENS,
        "completion_tokens": OUTPUT_TOKENS,
        "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS,
        "prompt_tokens_details": {"cached_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0},
    })
}

fn chat_body(ctx: &Ctx, reply: &Reply) -> Value {
    let mut message = json!({
        "role": "assistant",
        "content": reply.text,
        "refusal": null,
    });
    let finish = if reply.calls.is_empty() {
        "stop"
    } else {
        message["tool_calls"] = reply
            .calls
            .iter()
            .map(|call| {
                json!({"id": call.call_id, "type": "function",
                       "function": {"name": call.name, "arguments": call.arguments}})
            })
            .collect();
        "tool_calls"
    };
    json!({
        "id": ctx.id("chatcmpl-fake-"),
        "object": "chat.completion",
        "created": now(),
        "model": ctx.model,
        "system_fingerprint": null,
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish}],
        "usage": chat_usage(),
    })
}

fn chat_events(ctx: &Ctx, reply: &Reply) -> (Vec<Event>, usize) {
    let id = ctx.id("chatcmpl-fake-");
    let created = now();
    let chunk = |delta: Value, finish: Value| {
        Event::data(json!({
            "id": id, "object": "chat.completion.chunk", "created": created, "model": ctx.model,
            "system_fingerprint": null,
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
            "usage": null,
        }))
    };
    let mut events = Vec::new();
    let mut cut_at = 0;
    if let Some(text) = &reply.text {
        events.push(chunk(
            json!({"role": "assistant", "content": "", "refusal": null}),
            Value::Null,
        ));
        let pieces = text_pieces(text);
        let keep = cut_count(pieces.len());
        cut_at = events.len();
        for (i, piece) in pieces.iter().enumerate() {
            events.push(chunk(json!({"content": piece}), Value::Null));
            if i + 1 == keep {
                cut_at = events.len();
            }
        }
    }
    for (index, call) in reply.calls.iter().enumerate() {
        let mut first = json!({"tool_calls": [{"index": index, "id": call.call_id, "type": "function",
                                               "function": {"name": call.name, "arguments": ""}}]});
        if index == 0 && reply.text.is_none() {
            first["role"] = json!("assistant");
            first["content"] = Value::Null;
        }
        events.push(chunk(first, Value::Null));
        for piece in arg_pieces(&call.arguments) {
            events.push(chunk(
                json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}),
                Value::Null,
            ));
        }
    }
    let finish = if reply.calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    events.push(chunk(json!({}), json!(finish)));
    if ctx.include_usage {
        events.push(Event::data(json!({
            "id": id, "object": "chat.completion.chunk", "created": created, "model": ctx.model,
            "system_fingerprint": null, "choices": [], "usage": chat_usage(),
        })));
    }
    events.push(Event {
        name: None,
        data: "[DONE]".into(),
    });
    (events, cut_at)
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

fn anthropic_usage(output_tokens: u64) -> Value {
    json!({
        "input_tokens": INPUT_TOKENS,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": output_tokens,
    })
}

fn anthropic_body(ctx: &Ctx, reply: &Reply) -> Value {
    let mut content = Vec::new();
    if let Some(text) = &reply.text {
        content.push(json!({"type": "text", "text": text}));
    }
    for call in &reply.calls {
        content.push(
            json!({"type": "tool_use", "id": call.call_id, "name": call.name,
                            "input": arguments_value(&call.arguments)}),
        );
    }
    let stop = if reply.calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    json!({
        "id": ctx.id("msg_fake_"),
        "type": "message",
        "role": "assistant",
        "model": ctx.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": null,
        "usage": anthropic_usage(OUTPUT_TOKENS),
    })
}

fn anthropic_events(ctx: &Ctx, reply: &Reply) -> (Vec<Event>, usize) {
    let mut events = Vec::new();
    let ev = |data: Value| {
        let name = data["type"].as_str().unwrap_or_default().to_owned();
        Event::named(&name, data)
    };
    events.push(ev(json!({"type": "message_start", "message": {
        "id": ctx.id("msg_fake_"), "type": "message", "role": "assistant", "model": ctx.model,
        "content": [], "stop_reason": null, "stop_sequence": null, "usage": anthropic_usage(1),
    }})));
    events.push(ev(json!({"type": "ping"})));
    let mut cut_at = events.len();
    let mut index = 0;
    if let Some(text) = &reply.text {
        events.push(ev(json!({"type": "content_block_start", "index": index,
                              "content_block": {"type": "text", "text": ""}})));
        let pieces = text_pieces(text);
        let keep = cut_count(pieces.len());
        cut_at = events.len();
        for (i, piece) in pieces.iter().enumerate() {
            events.push(ev(json!({"type": "content_block_delta", "index": index,
                                  "delta": {"type": "text_delta", "text": piece}})));
            if i + 1 == keep {
                cut_at = events.len();
            }
        }
        events.push(ev(json!({"type": "content_block_stop", "index": index})));
        index += 1;
    }
    for call in &reply.calls {
        events.push(ev(json!({"type": "content_block_start", "index": index,
                              "content_block": {"type": "tool_use", "id": call.call_id,
                                                "name": call.name, "input": {}}})));
        for piece in arg_pieces(&call.arguments) {
            events.push(ev(json!({"type": "content_block_delta", "index": index,
                                  "delta": {"type": "input_json_delta", "partial_json": piece}})));
        }
        events.push(ev(json!({"type": "content_block_stop", "index": index})));
        index += 1;
    }
    let stop = if reply.calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    events.push(ev(json!({"type": "message_delta",
                          "delta": {"stop_reason": stop, "stop_sequence": null},
                          "usage": {"output_tokens": OUTPUT_TOKENS}})));
    events.push(ev(json!({"type": "message_stop"})));
    (events, cut_at)
}

// ---------------------------------------------------------------------------------------------
// Google Gemini

/// A tool call's `args` (Gemini) or `arguments` (Ollama): a JSON value, or the text as a string
/// when it does not parse.
fn arguments_value(arguments: &str) -> Value {
    serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_owned()))
}

/// `usageMetadata`: every chunk counts the prompt, the last one the candidates too.
fn gemini_usage(finished: bool) -> Value {
    let mut usage = json!({
        "promptTokenCount": INPUT_TOKENS,
        "totalTokenCount": INPUT_TOKENS,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": INPUT_TOKENS}],
    });
    if finished {
        usage["candidatesTokenCount"] = json!(OUTPUT_TOKENS);
        usage["totalTokenCount"] = json!(INPUT_TOKENS + OUTPUT_TOKENS);
    }
    usage
}

/// One `GenerateContentResponse`: a whole reply, or one chunk of a stream.
fn gemini_response(ctx: &Ctx, response_id: &str, parts: Vec<Value>, finished: bool) -> Value {
    let mut candidate = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
    if finished {
        // Gemini ends a function call turn with STOP too.
        candidate["finishReason"] = json!("STOP");
    }
    json!({
        "candidates": [candidate],
        "usageMetadata": gemini_usage(finished),
        "modelVersion": ctx.model,
        "responseId": response_id,
    })
}

fn gemini_call_parts(reply: &Reply) -> Vec<Value> {
    reply
        .calls
        .iter()
        .map(|call| {
            json!({"functionCall": {"name": call.name, "args": arguments_value(&call.arguments)}})
        })
        .collect()
}

fn gemini_body(ctx: &Ctx, reply: &Reply) -> Value {
    let mut parts = Vec::new();
    if let Some(text) = &reply.text {
        parts.push(json!({"text": text}));
    }
    parts.extend(gemini_call_parts(reply));
    gemini_response(ctx, &ctx.id("resp_fake_"), parts, true)
}

/// The chunks of a streamed reply (one per text piece, the calls in one), the last with
/// `finishReason` and the full usage; and how many a cut stream sends (never the last).
fn gemini_chunks(ctx: &Ctx, reply: &Reply) -> (Vec<Value>, usize) {
    let response_id = ctx.id("resp_fake_");
    let mut groups: Vec<Vec<Value>> = Vec::new();
    let mut keep = 0;
    if let Some(text) = &reply.text {
        let pieces = text_pieces(text);
        keep = cut_count(pieces.len());
        groups.extend(pieces.into_iter().map(|piece| vec![json!({"text": piece})]));
    }
    if !reply.calls.is_empty() {
        groups.push(gemini_call_parts(reply));
    }
    if groups.is_empty() {
        groups.push(vec![json!({"text": ""})]);
    }
    let last = groups.len() - 1;
    let chunks = groups
        .into_iter()
        .enumerate()
        .map(|(i, parts)| gemini_response(ctx, &response_id, parts, i == last))
        .collect();
    (chunks, keep.min(last))
}

// ---------------------------------------------------------------------------------------------
// Ollama

/// One `/api/chat` object; the `done` one carries the statistics, token counts included.
fn ollama_object(ctx: &Ctx, message: Value, done: bool) -> Value {
    let mut object = json!({
        "model": ctx.model,
        "created_at": rfc3339_now(),
        "message": message,
        "done": done,
    });
    if done {
        object["done_reason"] = json!("stop");
        object["total_duration"] = json!(412_000_000u64);
        object["load_duration"] = json!(11_000_000u64);
        object["prompt_eval_count"] = json!(INPUT_TOKENS);
        object["prompt_eval_duration"] = json!(95_000_000u64);
        object["eval_count"] = json!(OUTPUT_TOKENS);
        object["eval_duration"] = json!(301_000_000u64);
    }
    object
}

fn ollama_message(content: &str, reply: Option<&Reply>) -> Value {
    let mut message = json!({"role": "assistant", "content": content});
    if let Some(reply) = reply.filter(|r| !r.calls.is_empty()) {
        message["tool_calls"] = reply
            .calls
            .iter()
            .map(|call| {
                json!({"function": {"name": call.name,
                                    "arguments": arguments_value(&call.arguments)}})
            })
            .collect();
    }
    message
}

fn ollama_body(ctx: &Ctx, reply: &Reply) -> Value {
    let text = reply.text.as_deref().unwrap_or_default();
    ollama_object(ctx, ollama_message(text, Some(reply)), true)
}

/// The lines of a streamed reply (one per text piece, the calls in one, then the `done` line),
/// and how many a cut stream sends.
fn ollama_lines(ctx: &Ctx, reply: &Reply) -> (Vec<Value>, usize) {
    let mut lines = Vec::new();
    let mut cut_at = 0;
    if let Some(text) = &reply.text {
        let pieces = text_pieces(text);
        let keep = cut_count(pieces.len());
        for (i, piece) in pieces.iter().enumerate() {
            lines.push(ollama_object(ctx, ollama_message(piece, None), false));
            if i + 1 == keep {
                cut_at = lines.len();
            }
        }
    }
    if !reply.calls.is_empty() {
        lines.push(ollama_object(ctx, ollama_message("", Some(reply)), false));
    }
    lines.push(ollama_object(ctx, ollama_message("", None), true));
    (lines, cut_at)
}

/// Now in RFC 3339 (UTC), the form of Ollama's `created_at`.
fn rfc3339_now() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs();
    let (year, month, day) = civil_date(secs / 86_400);
    let time = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:09}Z",
        time / 3600,
        time / 60 % 60,
        time % 60,
        since.subsec_nanos()
    )
}

/// (year, month, day) of a count of days since 1970-01-01, walked year by year.
fn civil_date(mut days: u64) -> (u64, u64, u64) {
    let leap = |year: u64| {
        (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
    };
    let mut year = 1970;
    loop {
        let length = if leap(year) { 366 } else { 365 };
        if days < length {
            break;
        }
        days -= length;
        year += 1;
    }
    let february = if leap(year) { 29 } else { 28 };
    let mut month = 1;
    for length in [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] {
        if days < length {
            break;
        }
        days -= length;
        month += 1;
    }
    (year, month, days + 1)
}

// ---------------------------------------------------------------------------------------------
// Writing HTTP

struct Event {
    name: Option<String>,
    data: String,
}

impl Event {
    fn named(name: &str, data: Value) -> Self {
        Self {
            name: Some(name.to_owned()),
            data: data.to_string(),
        }
    }

    fn data(data: Value) -> Self {
        Self {
            name: None,
            data: data.to_string(),
        }
    }

    fn wire(&self) -> String {
        match &self.name {
            Some(name) => format!("event: {name}\ndata: {}\n\n", self.data),
            None => format!("data: {}\n\n", self.data),
        }
    }
}

struct Out {
    conn: TcpStream,
    pace: Option<Duration>,
}

/// Whether the client closed its end: a read finds the end of the stream at once.
fn hung_up(conn: &TcpStream) -> bool {
    if conn.set_nonblocking(true).is_err() {
        return false;
    }
    let mut byte = [0u8; 1];
    let closed = matches!(conn.peek(&mut byte), Ok(0));
    let _ = conn.set_nonblocking(false);
    closed
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        529 => "Overloaded",
        _ => "Status",
    }
}

impl Out {
    fn head(
        &mut self,
        status: u16,
        content_type: &str,
        extra: &[(&str, &str)],
        length: Option<usize>,
    ) -> std::io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {status} {}\r\ncontent-type: {content_type}\r\nconnection: close\r\n",
            reason(status)
        );
        match length {
            Some(len) => head.push_str(&format!("content-length: {len}\r\n")),
            None => head.push_str("transfer-encoding: chunked\r\ncache-control: no-cache\r\n"),
        }
        for (name, value) in extra {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        self.conn.write_all(head.as_bytes())
    }

    fn raw(
        &mut self,
        status: u16,
        content_type: &str,
        extra: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<()> {
        self.head(status, content_type, extra, Some(body.len()))?;
        self.conn.write_all(body)?;
        self.conn.flush()?;
        self.close()
    }

    fn json(&mut self, status: u16, extra: &[(&str, &str)], body: &Value) -> std::io::Result<()> {
        self.raw(
            status,
            "application/json",
            extra,
            body.to_string().as_bytes(),
        )
    }

    /// Announces `length` bytes, sends `part` and hangs up.
    fn truncated(&mut self, length: usize, part: &[u8]) -> std::io::Result<()> {
        self.head(200, "application/json", &[], Some(length))?;
        self.conn.write_all(part)?;
        self.conn.flush()?;
        self.close()
    }

    /// Server-sent events, one per chunk; `cut` hangs up after the last one without the
    /// terminating chunk.
    fn sse(&mut self, events: &[Event], cut: bool) -> std::io::Result<()> {
        let pieces: Vec<String> = events.iter().map(Event::wire).collect();
        self.chunked("text/event-stream; charset=utf-8", &pieces, cut)
    }

    /// Newline-delimited JSON (Ollama), one line per chunk; `cut` as for [`Out::sse`].
    fn ndjson(&mut self, lines: &[Value], cut: bool) -> std::io::Result<()> {
        let pieces: Vec<String> = lines.iter().map(|line| format!("{line}\n")).collect();
        self.chunked("application/x-ndjson", &pieces, cut)
    }

    /// A chunked 200 body, one piece per chunk, paced if asked.
    fn chunked(&mut self, content_type: &str, pieces: &[String], cut: bool) -> std::io::Result<()> {
        self.head(200, content_type, &[], None)?;
        self.conn.flush()?;
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0
                && let Some(pace) = self.pace
            {
                thread::sleep(pace);
            }
            self.conn
                .write_all(format!("{:x}\r\n{piece}\r\n", piece.len()).as_bytes())?;
            self.conn.flush()?;
        }
        if !cut {
            self.conn.write_all(b"0\r\n\r\n")?;
            self.conn.flush()?;
        }
        self.close()
    }

    fn close(&mut self) -> std::io::Result<()> {
        self.conn.shutdown(Shutdown::Both)
    }
}

/// A server that answers a streamed request with `prelude`, then `every` each 100 ms for
/// `for_how_long`; its port.
pub fn trickle_server(prelude: &'static str, every: &'static str, for_how_long: Duration) -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        while let Ok((mut socket, _)) = listener.accept() {
            std::thread::spawn(move || {
                let mut request = Vec::new();
                let mut buf = [0u8; 8192];
                // The headers and the body (the body's length is in the headers).
                loop {
                    let Ok(n) = socket.read(&mut buf) else { return };
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&request);
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text[..end]
                            .lines()
                            .find_map(|l| {
                                let (name, value) = l.split_once(':')?;
                                name.eq_ignore_ascii_case("content-length")
                                    .then(|| value.trim().parse::<usize>().ok())?
                            })
                            .unwrap_or(0);
                        if request.len() >= end + 4 + length {
                            break;
                        }
                    }
                }
                let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";
                if socket.write_all(head.as_bytes()).is_err()
                    || socket.write_all(prelude.as_bytes()).is_err()
                {
                    return;
                }
                let started = Instant::now();
                while started.elapsed() < for_how_long {
                    if socket.write_all(every.as_bytes()).is_err() {
                        return;
                    }
                    let _ = socket.flush();
                    std::thread::sleep(Duration::from_millis(100));
                }
            });
        }
    });
    port
}
