//! Iris, the agent: one [`IrisAgent`] runs every capability on any provider, with the tools it
//! gathers evidence with, and reports what it does as [`AgentEvent`]s.

pub mod capability;
pub mod chat;
pub mod events;
pub mod generate;
pub mod iris;
pub mod output;
pub mod progress;
pub mod provider;
pub mod requests;
mod retry;
mod stream_end;
pub mod style;
pub mod tools;
pub mod write;

use std::time::Duration;

use futures::StreamExt;
use rig_core::agent::{AgentBuilder, MultiTurnStreamItem, StreamingError};
use rig_core::completion::{CompletionModel, Prompt, PromptError};
use rig_core::message::Message;
use rig_core::streaming::StreamingPrompt;
use rig_core::tool::ToolDyn;
use thiserror::Error;

pub use events::{AgentEvent, EventHook, EventSink};
pub use iris::IrisAgent;
pub use provider::{ProviderKind, ProviderSpec};

use provider::with_completion_model;

/// A provider failure, naming the provider, the model and what the server said (exit code 4).
#[derive(Debug, Error)]
#[error("{provider}: {message}")]
pub struct ProviderError {
    pub provider: String,
    pub message: String,
}

impl ProviderError {
    /// Builds the error, making sure the API key never appears in it.
    pub fn new(spec: &ProviderSpec, message: impl Into<String>) -> Self {
        let mut message: String = message.into();
        if let Some(key) = spec.api_key.as_deref().filter(|k| k.len() >= 4) {
            message = message.replace(key, "****");
        }
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        Self {
            provider: spec.label(),
            message: readable(without_wrappers(&message)),
        }
    }

    /// Whether the provider refused the request for being longer than the model's context.
    pub fn is_context_length(&self) -> bool {
        let m = self.message.to_ascii_lowercase();
        [
            "context length",
            "context_length",
            "maximum context",
            "too many tokens",
            "prompt is too long",
            "context window",
        ]
        .iter()
        .any(|needle| m.contains(needle))
    }
}

/// What the server or the network said, without the names of the error types rig wraps it
/// in ("CompletionError: ProviderError: Http client error: could not connect to ...").
fn without_wrappers(message: &str) -> &str {
    const WRAPPERS: [&str; 9] = [
        "PromptError: ",
        "CompletionError: ",
        "ProviderError: ",
        "HttpError: ",
        "Http client error: ",
        "Http error: ",
        "RequestError: ",
        "ResponseError: ",
        "SSE Error: ",
    ];
    let mut rest = message;
    while let Some(inner) = WRAPPERS.iter().find_map(|w| rest.strip_prefix(w)) {
        rest = inner;
    }
    rest
}

/// An HTTP error as the status and the server's own words: OpenAI, Anthropic and Gemini all
/// answer `{"error": {"message": ...}}`, which rig passes on whole after "Invalid status code".
fn readable(message: &str) -> String {
    let Some((status, body)) = message
        .strip_prefix("Invalid status code ")
        .and_then(|rest| rest.split_once(" with message: "))
    else {
        return message.to_string();
    };
    let said = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string));
    match said {
        Some(said) => format!("{status}: {said}"),
        None => format!("{status}: {body}"),
    }
}

/// The reply budget given to Anthropic models when none is configured.
const ANTHROPIC_MAX_TOKENS: u64 = 8192;

/// Limits every run shares.
#[derive(Debug, Clone)]
pub struct AgentSettings {
    /// Turns (model replies) the main agent may take.
    pub max_turns: usize,
    /// Output token budget of one reply (None: the provider's default).
    pub max_tokens: Option<u64>,
    pub subagent_max_turns: usize,
    pub subagent_timeout: Duration,
    /// Output token budget of a subagent's reply.
    pub subagent_max_tokens: u64,
}

impl Default for AgentSettings {
    fn default() -> Self {
        Self {
            max_turns: 50,
            max_tokens: None,
            subagent_max_turns: 20,
            subagent_timeout: Duration::from_secs(120),
            subagent_max_tokens: 4096,
        }
    }
}

/// One request to a model: instructions, history, the new message and the tools it may use.
pub struct Run {
    pub preamble: String,
    pub history: Vec<Message>,
    pub prompt: String,
    pub tools: Vec<Box<dyn ToolDyn>>,
    pub max_turns: usize,
    pub max_tokens: Option<u64>,
    /// Stream the reply (events carry text as it is written) or take it whole.
    pub stream: bool,
}

/// What a run produced: the final turn's text and the tokens spent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOutput {
    pub text: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Runs one conversation on `spec`'s model, reporting through `sink`.
pub async fn run(
    spec: &ProviderSpec,
    mut request: Run,
    sink: EventSink,
) -> anyhow::Result<RunOutput> {
    // Anthropic refuses a request without max_tokens, and rig knows a default only for the
    // model names it was built with.
    if spec.kind == ProviderKind::Anthropic && request.max_tokens.is_none() {
        request.max_tokens = Some(ANTHROPIC_MAX_TOKENS);
    }
    let outcome: Result<RunOutput, String> =
        with_completion_model!(spec, |model| run_with_model(model, request, sink).await);
    outcome.map_err(|message| ProviderError::new(spec, explain_cut(message)).into())
}

/// rig words a reply body that could not be read to its end (the connection dropped, or
/// `stream_end` refused a stream without its final event) as "error decoding response body"
/// and drops the cause: say what happened first.
fn explain_cut(message: String) -> String {
    if message.contains("error decoding response body") {
        format!("the reply was cut off before it was complete ({message})")
    } else {
        message
    }
}

async fn run_with_model<M: CompletionModel + 'static>(
    model: M,
    request: Run,
    sink: EventSink,
) -> Result<RunOutput, String> {
    let mut builder = AgentBuilder::new(model).preamble(&request.preamble);
    if let Some(max_tokens) = request.max_tokens {
        builder = builder.max_tokens(max_tokens);
    }
    let agent = builder.tools(request.tools).build();
    let hook = EventHook { sink: sink.clone() };
    let turns = request.max_turns;
    if !request.stream {
        let response = agent
            .prompt(request.prompt)
            .with_history(request.history)
            .max_turns(rig_turns(turns))
            .with_hook(hook)
            .extended_details()
            .await
            .map_err(|e| describe_prompt_error(&e, turns))?;
        return Ok(RunOutput {
            text: response.output,
            input_tokens: response.usage.input_tokens,
            output_tokens: response.usage.output_tokens,
        });
    }
    let mut stream = agent
        .stream_prompt(request.prompt)
        .with_history(request.history)
        .multi_turn(rig_turns(turns))
        .with_hook(hook)
        .await;
    while let Some(item) = stream.next().await {
        match item {
            Ok(MultiTurnStreamItem::FinalResponse(last)) => {
                let usage = last.usage();
                sink.send(AgentEvent::Usage {
                    input: usage.input_tokens,
                    output: usage.output_tokens,
                });
                return Ok(RunOutput {
                    text: last.response().to_string(),
                    input_tokens: usage.input_tokens,
                    output_tokens: usage.output_tokens,
                });
            }
            Ok(_) => {}
            Err(e) => return Err(describe_streaming_error(&e, turns)),
        }
    }
    Err("the reply stream ended before the model finished".to_string())
}

/// Our turns (model replies) as rig 0.37 counts them: given `n`, both its prompt loops send
/// up to `n + 2` requests before giving up. So `max_turns = 3` is three replies; the least rig
/// allows is two (one tool round and the answer).
fn rig_turns(model_replies: usize) -> usize {
    model_replies.saturating_sub(2)
}

/// A streamed run's failure, worded like the same failure of a whole reply.
fn describe_streaming_error(err: &StreamingError, turns: usize) -> String {
    match err {
        StreamingError::Prompt(prompt) => describe_prompt_error(prompt, turns),
        other => other.to_string(),
    }
}

fn describe_prompt_error(err: &PromptError, turns: usize) -> String {
    match err {
        PromptError::MaxTurnsError { .. } => format!(
            "the model was still calling tools after {turns} turns; stopped (raise max_turns, or ask for less)"
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rigs_error_type_names_are_left_out() {
        assert_eq!(
            without_wrappers(
                "CompletionError: ProviderError: Http client error: could not connect to http://h/v1"
            ),
            "could not connect to http://h/v1"
        );
        assert_eq!(
            without_wrappers("JsonError: expected value"),
            "JsonError: expected value"
        );
        assert_eq!(without_wrappers("rate limited"), "rate limited");
    }

    #[test]
    fn an_http_error_reads_as_its_status_and_the_servers_words() {
        let body =
            r#"{"error": {"message": "The model `m` does not exist.", "code": "model_not_found"}}"#;
        assert_eq!(
            readable(&format!(
                "Invalid status code 404 Not Found with message: {body}"
            )),
            "404 Not Found: The model `m` does not exist."
        );
        assert_eq!(
            readable("Invalid status code 502 Bad Gateway with message: <html>bad</html>"),
            "502 Bad Gateway: <html>bad</html>"
        );
        assert_eq!(readable("could not connect"), "could not connect");
    }
}
