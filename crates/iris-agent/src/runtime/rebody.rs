//! A reply given a new body, its status, version, URL and headers kept: what the middlewares
//! that watch or rewrite a reply's body (`stream_end`, `chat_reply`) share.

use reqwest::{Response, ResponseBuilderExt};

/// An error of a body's stream.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The head of `response`, to build the same reply with another body. Its length is dropped:
/// a rewritten body has another.
pub(crate) fn head_of(response: &Response) -> http::response::Builder {
    let mut builder = http::Response::builder()
        .status(response.status())
        .version(response.version())
        .url(response.url().clone());
    if let Some(headers) = builder.headers_mut() {
        *headers = response.headers().clone();
        headers.remove(reqwest::header::CONTENT_LENGTH);
    }
    builder
}

/// The reply of `head` with `body`.
pub(crate) fn with_body(
    head: http::response::Builder,
    body: reqwest::Body,
) -> reqwest_middleware::Result<Response> {
    let rebuilt = head
        .body(body)
        .map_err(|e| reqwest_middleware::Error::Middleware(e.into()))?;
    Ok(Response::from(rebuilt))
}
