//! What rig-core says in words, read in one place. rig hands a failed tool call to the model
//! (and to the hook) as text, and a failed request as its error's text: wherever Iris must
//! read those words, it reads them here, and the tests below pin them by making rig say them
//! (rig is pinned in Cargo.toml; its next release may word them otherwise, and these tests
//! are what tells).

/// The names of rig's error types it puts before the server's or the network's own words
/// ("CompletionError: ProviderError: Http client error: could not connect to ...").
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

/// How rig's HTTP client words an error status: "Invalid status code 404 Not Found with
/// message: {body}".
const STATUS: &str = "Invalid status code ";
const STATUS_BODY: &str = " with message: ";

/// How rig words a tool call that failed, in the result the model and the hook read.
const TOOL_FAILED: [&str; 2] = ["Toolset error", "ToolCallError"];

/// How a reply body that could not be read to its end reaches rig (reqwest's words).
const BODY_CUT: &str = "error decoding response body";

/// What the server or the network said, without the names of rig's error types.
pub(crate) fn without_wrappers(message: &str) -> &str {
    let mut rest = message;
    while let Some(inner) = WRAPPERS.iter().find_map(|w| rest.strip_prefix(w)) {
        rest = inner;
    }
    rest
}

/// An error status as rig words it, split: the status line ("404 Not Found") and the body
/// the server sent; `None` when `message` is no error status.
pub(crate) fn status_and_body(message: &str) -> Option<(&str, &str)> {
    message.strip_prefix(STATUS)?.split_once(STATUS_BODY)
}

/// Whether a tool call's result, as rig passes it on, is its failure.
pub(crate) fn tool_failed(result: &str) -> bool {
    TOOL_FAILED.iter().any(|words| result.starts_with(words))
}

/// Whether a failure is a reply body cut off before its end.
pub(crate) fn body_cut(message: &str) -> bool {
    message.contains(BODY_CUT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rig_core::completion::{CompletionError, PromptError, ToolDefinition};
    use rig_core::tool::Tool;

    /// A tool that always fails, as one of Iris' tools fails.
    struct Failing;

    #[derive(Debug, thiserror::Error)]
    #[error("no such file")]
    struct NoSuchFile;

    impl Tool for Failing {
        const NAME: &'static str = "failing";
        type Error = NoSuchFile;
        type Args = serde_json::Value;
        type Output = String;

        async fn definition(&self, _prompt: String) -> ToolDefinition {
            ToolDefinition {
                name: "failing".into(),
                description: "Fails.".into(),
                parameters: serde_json::json!({"type": "object", "properties": {}}),
            }
        }

        async fn call(&self, _args: serde_json::Value) -> Result<String, NoSuchFile> {
            Err(NoSuchFile)
        }
    }

    #[tokio::test]
    async fn a_failed_tool_call_reads_as_failed_as_rig_words_it() {
        let server = rig_core::tool::server::ToolServer::new()
            .tool(Failing)
            .run();
        let failed = server
            .call_tool("failing", "{}")
            .await
            .expect_err("the tool fails");
        // As rig's agent loop hands it to the hook and the model.
        let result = failed.to_string();
        assert!(tool_failed(&result), "{result}");
        assert!(result.ends_with("no such file"), "{result}");
        assert!(!tool_failed("no such file"));
        assert!(!tool_failed("src/lib.rs: 3 lines"));
    }

    #[test]
    fn rigs_error_wrappers_are_the_ones_left_out() {
        let provider = CompletionError::ProviderError("could not connect to http://h/v1".into());
        let prompt = PromptError::CompletionError(provider);
        assert_eq!(
            without_wrappers(&prompt.to_string()),
            "could not connect to http://h/v1"
        );
        assert_eq!(
            without_wrappers("JsonError: expected value"),
            "JsonError: expected value"
        );
        assert_eq!(without_wrappers("rate limited"), "rate limited");
    }

    #[test]
    fn an_error_status_is_read_as_rig_words_it() {
        let error = rig_core::http_client::Error::InvalidStatusCodeWithMessage(
            http::StatusCode::NOT_FOUND,
            r#"{"error": {"message": "no model"}}"#.into(),
        );
        assert_eq!(
            status_and_body(&error.to_string()),
            Some(("404 Not Found", r#"{"error": {"message": "no model"}}"#))
        );
        assert_eq!(status_and_body("could not connect"), None);
    }

    #[test]
    fn a_body_cut_off_is_known() {
        assert!(body_cut("CompletionError: error decoding response body"));
        assert!(!body_cut("400 Bad Request"));
    }
}
