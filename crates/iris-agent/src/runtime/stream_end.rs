//! A streamed reply must end with its API's final event. rig 0.37 takes a server-sent event
//! stream that simply stops (a proxy giving up, a server restarting) for a finished reply, and
//! the half of a JSON artifact it holds would then be repaired into a wrong, shorter artifact.
//! This middleware turns such an ending into a body error, so the run fails instead.

use futures::StreamExt;
use regex::bytes::Regex;
use reqwest::{Request, Response};
use reqwest_middleware::{Middleware, Next, Result};

use crate::runtime::rebody::{BoxError, head_of, with_body};
use iris_studio_config::Wire;

/// Why a stream was refused (the text reaches the user through the HTTP client's error).
#[derive(Debug, thiserror::Error)]
#[error("the reply stream ended before the model finished")]
pub struct EndedEarly;

#[derive(Debug, Clone)]
pub struct RequireStreamEnd {
    /// What marks the end of a reply; `None` for providers whose streams are not checked.
    end: Option<Regex>,
}

impl RequireStreamEnd {
    pub fn new(wire: Wire) -> Self {
        let pattern = match wire {
            Wire::Responses => Some(r"response\.(completed|incomplete|failed)"),
            // `[DONE]`, or a finish reason for servers that leave `[DONE]` out.
            Wire::ChatCompletions | Wire::Azure | Wire::Cli => {
                Some(r#"\[DONE\]|"finish_reason"\s*:\s*""#)
            }
            Wire::Anthropic => Some(r"message_(stop|delta)"),
            Wire::Gemini | Wire::Ollama => None,
        };
        Self {
            end: pattern.and_then(|p| Regex::new(p).ok()),
        }
    }
}

/// Bytes of one chunk kept to find an end marker split across two chunks.
const TAIL: usize = 64;

#[async_trait::async_trait]
impl Middleware for RequireStreamEnd {
    async fn handle(
        &self,
        req: Request,
        extensions: &mut http::Extensions,
        next: Next<'_>,
    ) -> Result<Response> {
        let response = next.run(req, extensions).await?;
        let is_stream = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let Some(end) = self.end.clone().filter(|_| is_stream) else {
            return Ok(response);
        };
        let head = head_of(&response);
        let body = checked(response.bytes_stream(), end);
        with_body(head, reqwest::Body::wrap_stream(body))
    }
}

/// The body as it comes, with an error in place of its end when no end marker was seen.
fn checked<S, B>(
    body: S,
    end: Regex,
) -> impl futures::Stream<Item = std::result::Result<B, BoxError>>
where
    S: futures::Stream<Item = reqwest::Result<B>>,
    B: AsRef<[u8]>,
{
    let state = (Box::pin(body), end, Vec::<u8>::new(), false, false);
    futures::stream::unfold(
        state,
        |(mut body, end, mut tail, mut seen, done)| async move {
            if done {
                return None;
            }
            match body.next().await {
                Some(Ok(chunk)) => {
                    if !seen {
                        tail.extend_from_slice(chunk.as_ref());
                        seen = end.is_match(&tail);
                        let keep = tail.len().saturating_sub(TAIL);
                        tail.drain(..keep);
                    }
                    Some((Ok(chunk), (body, end, tail, seen, false)))
                }
                Some(Err(e)) => Some((Err(e.into()), (body, end, tail, seen, true))),
                None if seen => None,
                None => Some((Err(EndedEarly.into()), (body, end, tail, seen, true))),
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(kind: Wire, chunks: &[&'static str]) -> Vec<std::result::Result<String, String>> {
        let end = RequireStreamEnd::new(kind).end.expect("checked");
        let body = futures::stream::iter(chunks.iter().copied().map(Ok::<_, reqwest::Error>));
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        rt.block_on(
            checked(body, end)
                .map(|r| r.map(str::to_string).map_err(|e| e.to_string()))
                .collect(),
        )
    }

    #[test]
    fn a_stream_with_its_final_event_passes_unchanged() {
        let chunks = [
            "event: response.created\n\n",
            "event: response.compl",
            "eted\n\n",
        ];
        let out = run(Wire::Responses, &chunks);
        assert_eq!(out.len(), 3);
        assert!(out.iter().all(|r| r.is_ok()));
        let chat = run(Wire::ChatCompletions, &["data: {}\n\n", "data: [DONE]\n\n"]);
        assert!(chat.iter().all(|r| r.is_ok()));
        let late = run(
            Wire::ChatCompletions,
            &[r#"data: {"choices":[{"finish_reason": "stop"}]}"#],
        );
        assert!(late.iter().all(|r| r.is_ok()));
        let anthropic = run(Wire::Anthropic, &["event: message_stop\n\n"]);
        assert!(anthropic.iter().all(|r| r.is_ok()));
    }

    #[test]
    fn a_stream_that_stops_early_ends_in_an_error() {
        for (kind, chunk) in [
            (Wire::Responses, "event: response.output_text.delta\n\n"),
            (
                Wire::ChatCompletions,
                r#"data: {"choices":[{"finish_reason":null}]}"#,
            ),
            (Wire::Anthropic, "event: content_block_delta\n\n"),
        ] {
            let out = run(kind, &[chunk]);
            assert_eq!(out.len(), 2, "{kind:?}");
            assert!(out[0].is_ok());
            assert_eq!(
                out[1],
                Err("the reply stream ended before the model finished".to_string())
            );
        }
    }
}
