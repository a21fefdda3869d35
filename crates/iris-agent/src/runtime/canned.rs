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

/// A server on 127.0.0.1 that reads one request and answers it with `response` (a whole
/// HTTP/1.1 response), or keeps the connection silent for ten seconds when `None`. Its URL,
/// and the request as it read it (head and body).
pub(crate) async fn serve_once(
    response: Option<&'static str>,
) -> (String, tokio::task::JoinHandle<String>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let served = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut read = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let n = socket.read(&mut buffer).await.unwrap();
            read.extend_from_slice(&buffer[..n]);
            let text = String::from_utf8_lossy(&read).into_owned();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                if body.len() >= length || n == 0 {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        match response {
            Some(response) => socket.write_all(response.as_bytes()).await.unwrap(),
            None => tokio::time::sleep(std::time::Duration::from_secs(10)).await,
        }
        String::from_utf8_lossy(&read).into_owned()
    });
    (url, served)
}
