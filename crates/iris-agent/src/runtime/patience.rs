//! How long a provider may keep Iris waiting: for the head of its reply, then for each next
//! piece of its body while Iris waits for it. reqwest's own read timeout also counted the
//! time Iris spent elsewhere between two reads: rig runs a tool call as soon as it is read,
//! before it reads the rest of the stream, so a tool that took longer than
//! `request_timeout_secs` (a linter, subagents) cut the reply off.

use std::time::Duration;

use futures::StreamExt;
use reqwest::{Request, Response};
use reqwest_middleware::{Middleware, Next, Result};

use crate::runtime::rebody::{BoxError, head_of, with_body};
use crate::runtime::transport_failure::TransportFailure;

/// The middleware: `stall` for the head of each reply (each try of a retried request), and
/// `stall` of silence while the body is awaited.
#[derive(Debug, Clone)]
pub struct Patience {
    pub stall: Duration,
    /// Where a silence mid-reply is said: rig passes on only "error decoding response body".
    pub failure: TransportFailure,
}

/// A body that stopped coming while Iris waited for it.
#[derive(Debug, thiserror::Error)]
#[error("the server sent nothing for {0}s while the reply was awaited (request_timeout_secs)")]
pub struct WentSilent(f64);

#[async_trait::async_trait]
impl Middleware for Patience {
    async fn handle(
        &self,
        req: Request,
        extensions: &mut http::Extensions,
        next: Next<'_>,
    ) -> Result<Response> {
        let url = req.url().clone();
        let Ok(response) = tokio::time::timeout(self.stall, next.run(req, extensions)).await else {
            return Err(reqwest_middleware::Error::Middleware(anyhow::anyhow!(
                "no answer from {url} within {}s (request_timeout_secs)",
                self.stall.as_secs_f64()
            )));
        };
        let response = response?;
        let head = head_of(&response);
        let body = awaited(response.bytes_stream(), self.stall, self.failure.clone());
        with_body(head, reqwest::Body::wrap_stream(body))
    }
}

/// The body as it comes, ended by an error when a piece awaited does not come within
/// `stall`. The clock runs only while the next piece is awaited: each wait is a new one.
fn awaited<S, B>(
    body: S,
    stall: Duration,
    failure: TransportFailure,
) -> impl futures::Stream<Item = std::result::Result<B, BoxError>>
where
    S: futures::Stream<Item = reqwest::Result<B>>,
{
    let state = (Box::pin(body), failure, false);
    futures::stream::unfold(state, move |(mut body, failure, done)| async move {
        if done {
            return None;
        }
        match tokio::time::timeout(stall, body.next()).await {
            Ok(Some(Ok(piece))) => Some((Ok(piece), (body, failure, false))),
            Ok(Some(Err(e))) => Some((Err(e.into()), (body, failure, true))),
            Ok(None) => None,
            Err(_) => {
                let silent = WentSilent(stall.as_secs_f64());
                failure.set(&silent.to_string());
                Some((Err(silent.into()), (body, failure, true)))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces that come `gaps` apart (the first after the first gap).
    fn paced(gaps: &[u64]) -> impl futures::Stream<Item = reqwest::Result<&'static str>> {
        let gaps = gaps.to_vec();
        futures::stream::iter(gaps).then(|ms| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok("piece")
        })
    }

    #[tokio::test(start_paused = true)]
    async fn only_the_time_the_body_is_awaited_counts() {
        let mut body = Box::pin(awaited(
            paced(&[900, 900]),
            Duration::from_secs(1),
            TransportFailure::default(),
        ));
        assert!(body.next().await.unwrap().is_ok());
        // Iris is busy elsewhere for longer than the limit: not the server's silence.
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(body.next().await.unwrap().is_ok());
        assert!(body.next().await.is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_silent_while_awaited_ends_in_an_error() {
        let failure = TransportFailure::default();
        let mut body = Box::pin(awaited(
            paced(&[900, 1_100, 10]),
            Duration::from_secs(1),
            failure.clone(),
        ));
        assert!(body.next().await.unwrap().is_ok());
        let err = body.next().await.unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            "the server sent nothing for 1s while the reply was awaited (request_timeout_secs)"
        );
        assert!(body.next().await.is_none(), "it ends there");
        assert_eq!(
            failure.take(),
            Some(err.to_string()),
            "kept for the run's error"
        );
    }
}
