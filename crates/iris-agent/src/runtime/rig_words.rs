//! What rig-core says in words, read in one place. rig hands a failed request over as its
//! error's text only: wherever Iris must read those words, it reads them here (a tool call's
//! success is its own result's, see `events::ToolOutcomes`), and the tests below pin them by making rig say them
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

/// Whether a failure is a reply body cut off before its end.
pub(crate) fn body_cut(message: &str) -> bool {
    message.contains(BODY_CUT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rig_core::completion::{CompletionError, PromptError};

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
