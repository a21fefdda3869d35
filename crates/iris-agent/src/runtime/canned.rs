//! For the middlewares' tests: the last middleware of a client, answering every request
//! with one canned response (no network) and keeping the bodies it was sent.

use std::sync::{Arc, Mutex};

use reqwest::{Request, Response, ResponseBuilderExt};
use reqwest_middleware::{ClientWithMiddleware, Middleware, Next};

#[derive(Clone, Default)]
pub(crate) struct Canned {
    status: u16,
    content_type: &'static str,
    body: &'static str,
    /// The bodies of the requests it answered, in order.
    pub(crate) sent: Arc<Mutex<Vec<String>>>,
}

impl Canned {
    pub(crate) fn new(status: u16, content_type: &'static str, body: &'static str) -> Self {
        Self {
            status,
            content_type,
            body,
            sent: Arc::default(),
        }
    }

    /// A client of `first` then this.
    pub(crate) fn behind(&self, first: impl Middleware) -> ClientWithMiddleware {
        reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
            .with(first)
            .with(self.clone())
            .build()
    }
}

#[async_trait::async_trait]
impl Middleware for Canned {
    async fn handle(
        &self,
        req: Request,
        _extensions: &mut http::Extensions,
        _next: Next<'_>,
    ) -> reqwest_middleware::Result<Response> {
        let body = req.body().and_then(|b| b.as_bytes()).unwrap_or_default();
        self.sent
            .lock()
            .unwrap()
            .push(String::from_utf8_lossy(body).into_owned());
        let response = http::Response::builder()
            .status(self.status)
            .url(req.url().clone())
            .header(reqwest::header::CONTENT_TYPE, self.content_type)
            .body(reqwest::Body::from(self.body))
            .expect("a response");
        Ok(Response::from(response))
    }
}
