//! Retries for provider requests: 429 and 5xx answers are tried again with backoff, honouring
//! `Retry-After`, at most [`MAX_TRIES`] times in all. It sits in the HTTP client every provider
//! uses, so each request of a multi-turn conversation is retried on its own.

use std::time::Duration;

use reqwest::{Request, Response, StatusCode};
use reqwest_middleware::{Middleware, Next, Result};

/// Tries per request, the first one included.
pub const MAX_TRIES: u32 = 3;

/// Longest wait between tries, whatever the server asks for.
const MAX_WAIT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
pub struct RetryTransient {
    /// The first backoff; doubled for each later try.
    pub base_delay: Duration,
}

impl Default for RetryTransient {
    fn default() -> Self {
        Self {
            base_delay: Duration::from_millis(500),
        }
    }
}

#[async_trait::async_trait]
impl Middleware for RetryTransient {
    async fn handle(
        &self,
        req: Request,
        extensions: &mut http::Extensions,
        next: Next<'_>,
    ) -> Result<Response> {
        let mut attempt = 1;
        loop {
            // A request whose body cannot be cloned (a stream) is sent once.
            let Some(copy) = req.try_clone() else {
                return next.run(req, extensions).await;
            };
            let response = next.clone().run(copy, extensions).await?;
            if attempt >= MAX_TRIES || !is_transient(response.status()) {
                return Ok(response);
            }
            let wait = retry_after(&response)
                .unwrap_or(self.base_delay * 2u32.pow(attempt - 1))
                .min(MAX_WAIT);
            tracing::debug!(status = %response.status(), attempt, wait_ms = wait.as_millis() as u64, "retrying provider request");
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }
}

fn is_transient(status: StatusCode) -> bool {
    status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()
}

/// `Retry-After` in seconds (the HTTP-date form is rare from APIs and is ignored).
fn retry_after(response: &Response) -> Option<Duration> {
    let value = response.headers().get(reqwest::header::RETRY_AFTER)?;
    let seconds: f64 = value.to_str().ok()?.trim().parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rate_limits_and_server_errors_are_retried() {
        assert!(is_transient(StatusCode::TOO_MANY_REQUESTS));
        assert!(is_transient(StatusCode::BAD_GATEWAY));
        assert!(!is_transient(StatusCode::BAD_REQUEST));
        assert!(!is_transient(StatusCode::UNAUTHORIZED));
    }

    #[test]
    fn retry_after_is_a_number_of_seconds_not_below_zero() {
        let after = |value: &str| {
            let response = http::Response::builder()
                .status(429)
                .header(reqwest::header::RETRY_AFTER, value)
                .body(reqwest::Body::from(""))
                .unwrap();
            retry_after(&Response::from(response))
        };
        assert_eq!(after("2.5"), Some(Duration::from_millis(2500)));
        assert_eq!(after("0"), Some(Duration::ZERO));
        assert_eq!(after("-1"), None);
        assert_eq!(after("inf"), None);
        assert_eq!(after("Wed, 21 Oct 2026 07:28:00 GMT"), None);
    }

    /// A provider answering with `statuses` in turn (a `Retry-After` with a 429), then 200.
    struct Flaky {
        statuses: Vec<u16>,
        calls: std::sync::atomic::AtomicUsize,
    }

    #[async_trait::async_trait]
    impl Middleware for Flaky {
        async fn handle(
            &self,
            req: Request,
            _extensions: &mut http::Extensions,
            _next: Next<'_>,
        ) -> Result<Response> {
            let call = self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let status = self.statuses.get(call).copied().unwrap_or(200);
            let mut response = http::Response::builder().status(status);
            if status == 429 {
                response = response.header(reqwest::header::RETRY_AFTER, "7");
            }
            Ok(Response::from(
                response
                    .body(reqwest::Body::from(req.url().to_string()))
                    .unwrap(),
            ))
        }
    }

    /// The status the client ends with, the tries it made and the time they took.
    async fn tried(statuses: &[u16]) -> (u16, usize, Duration) {
        let flaky = std::sync::Arc::new(Flaky {
            statuses: statuses.to_vec(),
            calls: Default::default(),
        });
        let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
            .with(RetryTransient::default())
            .with_arc(flaky.clone())
            .build();
        let started = tokio::time::Instant::now();
        let response = client.get("http://provider.invalid/").send().await.unwrap();
        let calls = flaky.calls.load(std::sync::atomic::Ordering::SeqCst);
        (response.status().as_u16(), calls, started.elapsed())
    }

    #[tokio::test(start_paused = true)]
    async fn a_transient_failure_is_tried_again_with_backoff_three_times_at_most() {
        assert_eq!(tried(&[]).await, (200, 1, Duration::ZERO));
        assert_eq!(tried(&[400]).await, (400, 1, Duration::ZERO));
        // 0.5 s, then 1 s.
        assert_eq!(
            tried(&[503, 502]).await,
            (200, 3, Duration::from_millis(1500))
        );
        assert_eq!(
            tried(&[503, 503, 503, 503]).await,
            (503, 3, Duration::from_millis(1500))
        );
        // The server's word, when it gives one.
        assert_eq!(tried(&[429]).await, (200, 2, Duration::from_secs(7)));
    }
}
