//! A run's failure: the provider and model, what the server or the run said, and a typed
//! [`ErrorKind`] decided where the failure happened. Callers (a retry without the schema
//! option, a narrower request, eval's classes, the exit code) match on the kind; none reads
//! the words.

use thiserror::Error;

use crate::runtime::provider::ProviderSpec;
use crate::runtime::rig_words::{status_and_body, without_wrappers};

/// What kind of failure ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request could not be built: a schema that is no object, a client that would not
    /// start.
    Request,
    /// No answer came whole: no connection, a stream that broke, stalled or ended early, a
    /// body that could not be decoded.
    Transport,
    /// The server answered with an HTTP error status not classed below.
    Status(u16),
    /// The server said there were too many requests (429).
    RateLimited,
    /// The request is longer than the model's context.
    ContextLength,
    /// The output budget is above the model's maximum, `max`, which the server named.
    BudgetRefused {
        /// The most output tokens the model takes.
        max: u64,
    },
    /// The server refused the structured-output option (the JSON schema).
    OptionRefused,
    /// The server refused the tools (no tool or function calling for this model).
    ToolsRefused,
    /// The next request would take the run past `max_cost_per_run`.
    OverBudget,
    /// A dry run kept the request instead of sending it.
    NotSent,
    /// The reply was cut for looping or making no progress.
    Runaway,
    /// The model was still calling tools when its turns ran out.
    OutOfTurns,
    /// The model repeated its instructions instead of writing, twice.
    Echo,
    /// The model wrote no title, twice: a line of the evidence, or no words at all.
    NoTitle,
    /// The reply came but did not hold the artifact.
    Unreadable,
    /// The run took longer than `run_timeout_secs` (see [`crate::runtime::deadline`]).
    Deadline,
}

impl ErrorKind {
    /// The kind of `err`: the first provider failure or deadline in its chain.
    pub fn of(err: &anyhow::Error) -> Option<ErrorKind> {
        err.chain().find_map(ErrorKind::of_cause)
    }

    /// The kind of one cause of a failure, when it is a provider failure or the deadline.
    pub fn of_cause(cause: &(dyn std::error::Error + 'static)) -> Option<ErrorKind> {
        if cause.is::<crate::runtime::deadline::RunTimedOut>() {
            Some(ErrorKind::Deadline)
        } else {
            cause.downcast_ref::<ProviderError>().map(|e| e.kind)
        }
    }

    /// The model never gave an answer to read: it looped, or kept calling tools.
    pub fn never_answered(self) -> bool {
        matches!(self, ErrorKind::Runaway | ErrorKind::OutOfTurns)
    }
}

/// A provider failure, naming the provider, the model and what the server said (exit code 4).
#[derive(Debug, Error)]
#[error("{provider}: {message}")]
pub struct ProviderError {
    /// The provider and model, as [`ProviderSpec::label`] names them.
    pub provider: String,
    /// What the server or the run said, on one line, the API key masked.
    pub message: String,
    /// What kind of failure it is; callers match on this, never on the words.
    pub kind: ErrorKind,
}

impl ProviderError {
    /// Builds the error, making sure the API key never appears in it and that rig's wrapping
    /// of the server's words is left out.
    pub fn new(spec: &ProviderSpec, kind: ErrorKind, message: impl Into<String>) -> Self {
        let mut message: String = message.into();
        if let Some(key) = spec.api_key.as_deref().filter(|k| k.len() >= 4) {
            message = message.replace(key, "****");
        }
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        Self {
            provider: spec.label(),
            message: readable(without_wrappers(&message)).1,
            kind,
        }
    }

    /// A failure rig reported (its error's text is all it gives), worded for people and
    /// classed: `asked` is the output budget the request asked for, `schema` whether it
    /// carried the structured-output option.
    pub fn from_rig(spec: &ProviderSpec, raw: &str, asked: u64, schema: bool) -> Self {
        let flat = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        let (status, message) = readable(without_wrappers(&flat));
        Self::new(spec, classify(status, &message, asked, schema), raw)
    }
}

/// The kind of a failure the server or the network reported, from its status and its words
/// (the only thing a provider gives): read once, here.
fn classify(status: Option<u16>, message: &str, asked: u64, schema: bool) -> ErrorKind {
    let m = message.to_ascii_lowercase();
    let says = |words: &[&str]| words.iter().any(|w| m.contains(w));
    if status == Some(429) {
        return ErrorKind::RateLimited;
    }
    // A budget the model cannot give comes first: asking within it may well fit the context.
    if matches!(status, Some(400 | 422))
        && let Some(max) = budget_named(&m, asked)
    {
        return ErrorKind::BudgetRefused { max };
    }
    if says(&[
        "context length",
        "context_length",
        "maximum context",
        "too many tokens",
        "prompt is too long",
        "context window",
    ]) {
        return ErrorKind::ContextLength;
    }
    let Some(code) = status else {
        return ErrorKind::Transport;
    };
    if !matches!(code, 400 | 422) {
        return ErrorKind::Status(code);
    }
    // What a server says to an output option it does not know ("response_format is not
    // supported", "Invalid schema for response_format ...", "Function calling with a response
    // mime type ..."); a tool's own `input_schema` is not the option's doing.
    const ABOUT_THE_OPTION: [&str; 10] = [
        "response_format",
        "json_schema",
        "output_config",
        "output_format",
        "text.format",
        "mime",
        "responsejsonschema",
        "response_json_schema",
        "structured output",
        "invalid format",
    ];
    if schema && !m.contains("input_schema") && says(&ABOUT_THE_OPTION) {
        return ErrorKind::OptionRefused;
    }
    if says(&["tool", "function"]) {
        return ErrorKind::ToolsRefused;
    }
    ErrorKind::Status(code)
}

/// The most output tokens a refusal names ("max_tokens: 16384 > 8192, which is the maximum
/// allowed ..."): the largest number below `asked` in a message about the output budget.
fn budget_named(message: &str, asked: u64) -> Option<u64> {
    let about_budget = [
        "max_tokens",
        "max_output_tokens",
        "maxoutputtokens",
        "num_predict",
        "output tokens",
        "completion tokens",
    ]
    .iter()
    .any(|w| message.contains(w));
    if !about_budget {
        return None;
    }
    message
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|digits| digits.parse::<u64>().ok())
        .filter(|n| (256..asked).contains(n))
        .max()
}

/// An HTTP error as its status and the server's own words: OpenAI, Anthropic and Gemini all
/// answer `{"error": {"message": ...}}`, which rig passes on whole in its status error.
fn readable(message: &str) -> (Option<u16>, String) {
    let Some((status, body)) = status_and_body(message) else {
        return (None, message.to_string());
    };
    let code = status.get(..3).and_then(|c| c.parse().ok());
    let said = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string));
    match said {
        Some(said) => (code, format!("{status}: {said}")),
        None => (code, format!("{status}: {body}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_http_error_reads_as_its_status_and_the_servers_words() {
        let body =
            r#"{"error": {"message": "The model `m` does not exist.", "code": "model_not_found"}}"#;
        assert_eq!(
            readable(&format!(
                "Invalid status code 404 Not Found with message: {body}"
            )),
            (
                Some(404),
                "404 Not Found: The model `m` does not exist.".to_string()
            )
        );
        assert_eq!(
            readable("Invalid status code 502 Bad Gateway with message: <html>bad</html>"),
            (Some(502), "502 Bad Gateway: <html>bad</html>".to_string())
        );
        assert_eq!(
            readable("could not connect"),
            (None, "could not connect".to_string())
        );
    }

    #[test]
    fn each_failure_the_server_names_gets_its_kind() {
        let kind = |status, message: &str| classify(status, message, 16_384, true);
        assert_eq!(kind(Some(429), "slow down"), ErrorKind::RateLimited);
        assert_eq!(
            kind(Some(400), "This model's maximum context length is 8192"),
            ErrorKind::ContextLength
        );
        assert_eq!(
            kind(
                Some(400),
                "max_tokens: 16384 > 8192, which is the maximum allowed"
            ),
            ErrorKind::BudgetRefused { max: 8192 }
        );
        assert_eq!(
            kind(
                Some(400),
                "max_tokens is too large: 16384. This model's maximum context length is 8192"
            ),
            ErrorKind::BudgetRefused { max: 8192 },
            "the budget is asked within first, as before the kinds"
        );
        assert_eq!(
            kind(Some(400), "response_format is not supported"),
            ErrorKind::OptionRefused
        );
        assert_eq!(
            classify(Some(400), "response_format is not supported", 900, false),
            ErrorKind::Status(400),
            "no option sent, none refused"
        );
        assert_eq!(
            kind(Some(400), "tools.0.input_schema: invalid"),
            ErrorKind::ToolsRefused
        );
        assert_eq!(
            kind(Some(422), "function calling is unavailable"),
            ErrorKind::ToolsRefused
        );
        assert_eq!(kind(Some(401), "invalid key"), ErrorKind::Status(401));
        assert_eq!(kind(Some(400), "bad request"), ErrorKind::Status(400));
        assert_eq!(kind(None, "could not connect"), ErrorKind::Transport);
    }

    #[test]
    fn a_budget_refusal_names_a_number_below_the_one_asked() {
        assert_eq!(
            budget_named("max_tokens: 16384 > 8192, which is the maximum", 16_384),
            Some(8192)
        );
        assert_eq!(budget_named("max_tokens is too large", 16_384), None);
        assert_eq!(budget_named("model has 8192 parameters", 16_384), None);
        assert_eq!(
            budget_named("max_tokens must be below 100", 16_384),
            None,
            "below any useful budget"
        );
    }
}
