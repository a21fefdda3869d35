//! `iris-agent`: Iris, the agent. One [`IrisAgent`] runs every capability on any provider,
//! with the tools it gathers evidence with, and reports what it does as
//! [`AgentEvent`](iris_core::protocol::AgentEvent)s on an [`EventSink`].
//!
//! - [`runtime`]: the providers and the wire, one bounded [`run`], retries, the runaway
//!   guard, redaction of every request, the run's events and the safety of tool calls.
//! - [`capability`]: what Iris is asked to do, one module each (write, candidates, chat, blame,
//!   intent), with [`style`] (how she writes) and [`output`] (reading a model's reply).
//! - [`tools`]: what the model calls to gather evidence and edit the artifact.
//! - [`iris`]: [`IrisAgent`], configured once: the models, the repository, the limits.
//!
//! It may import `iris-core`, `iris-git` and `iris-config`; never the studio or the binary.

// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod capability;
pub mod iris;
pub mod output;
pub mod runtime;
pub mod style;
pub mod tools;

use std::time::Duration;

use thiserror::Error;

pub use iris::IrisAgent;
pub use runtime::events::{EventHook, EventSink};
pub use runtime::provider::{ProviderKind, ProviderSpec};
pub use runtime::run::{Run, RunOutput, run};

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

    /// The HTTP status the provider answered with, when the failure was one.
    pub fn status(&self) -> Option<u16> {
        let code = self.message.get(..3)?.parse().ok()?;
        let rest = &self.message[3..];
        (rest.is_empty() || rest.starts_with(' ') || rest.starts_with(':')).then_some(code)
    }

    /// Whether the reply was cut for looping or making no progress (`runtime/runaway.rs`
    /// words it "the reply ...; stopped").
    pub fn is_runaway(&self) -> bool {
        self.message.starts_with("the reply ") && self.message.contains("; stopped")
    }

    /// Whether the model was still calling tools when its turns ran out (`runtime/run.rs`).
    pub fn is_out_of_turns(&self) -> bool {
        self.message.contains("still calling tools")
    }

    /// Whether the model repeated its instructions instead of writing, twice
    /// (`capability/generate.rs`).
    pub fn is_echo(&self) -> bool {
        self.message.starts_with(ECHOED)
    }

    /// Whether the reply came but did not hold the artifact (`capability/conversation.rs`).
    pub fn is_unreadable(&self) -> bool {
        self.message.starts_with(UNREADABLE)
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

/// How a reply that repeated its instructions instead of writing is reported.
pub(crate) const ECHOED: &str = "the model repeated the instructions instead of writing";

/// How an artifact that could not be read from a reply is reported.
pub(crate) const UNREADABLE: &str = "could not read the artifact from the model's reply";

/// Why a run gave no artifact, in the classes `iris eval` counts.
pub fn failure_of(err: &anyhow::Error) -> iris_core::eval::Failure {
    use iris_core::eval::Failure;
    for cause in err.chain() {
        if cause.is::<capability::conversation::RunTimedOut>() {
            return Failure::Deadline;
        }
        if let Some(provider) = cause.downcast_ref::<ProviderError>() {
            return if provider.is_runaway() || provider.is_out_of_turns() {
                Failure::Runaway
            } else if provider.is_echo() {
                Failure::Echo
            } else if provider.is_unreadable() {
                Failure::Schema
            } else {
                Failure::Provider
            };
        }
    }
    Failure::Other
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

/// Limits every run shares.
#[derive(Debug, Clone)]
pub struct AgentSettings {
    /// Turns (model replies) the main agent may take.
    pub max_turns: usize,
    /// Output token budget of one reply of the main agent (a capability may ask for less).
    pub max_tokens: u64,
    pub subagent_max_turns: usize,
    pub subagent_timeout: Duration,
    /// Output token budget of a subagent's reply.
    pub subagent_max_tokens: u64,
    /// Longest a whole run may take: every request, tool call and the critic.
    pub run_timeout: Duration,
    /// Ask the provider to keep answers to their JSON schema.
    pub structured_output: bool,
    /// Source reads one file explanation may make.
    pub explain_max_reads: usize,
}

impl Default for AgentSettings {
    fn default() -> Self {
        Self {
            max_turns: 50,
            max_tokens: 16_384,
            subagent_max_turns: 20,
            subagent_timeout: Duration::from_secs(120),
            subagent_max_tokens: 4_096,
            run_timeout: Duration::from_secs(300),
            structured_output: true,
            explain_max_reads: 30,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_run_is_classed_by_why() {
        use iris_core::eval::Failure;
        let provider = |message: &str| -> anyhow::Error {
            ProviderError {
                provider: "openai".into(),
                message: message.into(),
            }
            .into()
        };
        let cases = [
            (
                "the reply repeats itself (\"x\" over and over); stopped",
                Failure::Runaway,
            ),
            (
                "the model was still calling tools after 8 turns; stopped",
                Failure::Runaway,
            ),
            (
                &format!("{UNREADABLE}: the reply is empty"),
                Failure::Schema,
            ),
            ("401: invalid key", Failure::Provider),
            (&format!("{ECHOED} (twice)"), Failure::Echo),
        ];
        for (message, class) in cases {
            assert_eq!(failure_of(&provider(message)), class, "{message}");
        }
        let late = anyhow::Error::new(capability::conversation::RunTimedOut(
            std::time::Duration::from_secs(3),
        ))
        .context("writing the commit");
        assert_eq!(failure_of(&late), Failure::Deadline);
        assert_eq!(failure_of(&anyhow::anyhow!("disk full")), Failure::Other);
    }

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
