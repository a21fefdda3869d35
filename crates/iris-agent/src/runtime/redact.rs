//! The last step before a request leaves the machine: every text in its body (instructions,
//! the first message, each tool result, the chat, the artifact) passes the secret scanner, and
//! each secret found is replaced by a marker that names its kind, file and line. Done on the
//! HTTP request itself, so nothing any part of Iris adds to a request can slip past it.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock, Mutex};

use reqwest::{Request, Response};
use reqwest_middleware::{Middleware, Next};
use serde_json::Value;

use crate::runtime::events::EventSink;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_core::secrets::{Finding, Scanner, SecretsIgnore};

/// The middleware: redacts each request's body and reports each secret once per run.
pub struct WithholdSecrets {
    scanner: Arc<Scanner>,
    sink: EventSink,
    /// What was reported already: every request of a run carries the history again.
    reported: Mutex<HashSet<Finding>>,
}

impl WithholdSecrets {
    /// Redacts with `scanner`, reporting each secret it withholds to `sink`.
    pub fn new(scanner: Arc<Scanner>, sink: EventSink) -> Self {
        Self {
            scanner,
            sink,
            reported: Mutex::new(HashSet::new()),
        }
    }

    fn report(&self, findings: Vec<Finding>) {
        let Ok(mut reported) = self.reported.lock() else {
            return;
        };
        for finding in findings {
            if reported.insert(finding.clone()) {
                tracing::debug!(%finding, "a secret was withheld from the request");
                self.sink.send(AgentEvent::SecretWithheld(finding));
            }
        }
    }
}

/// `text` with its secrets replaced, for traces (`--debug`, the studio's log): they never
/// show a secret, whatever `secret_scan` and `.irissecretsignore` say.
pub fn for_log(text: &str) -> String {
    static SCANNER: LazyLock<Scanner> = LazyLock::new(|| Scanner::new(SecretsIgnore::none()));
    SCANNER.redact(text).text
}

/// The body with every secret replaced, and what was found; `None` when nothing was.
pub fn redact_body(scanner: &Scanner, body: &[u8]) -> Option<(Vec<u8>, Vec<Finding>)> {
    let mut findings = Vec::new();
    let redacted = match serde_json::from_slice::<Value>(body) {
        Ok(mut json) => {
            redact_strings(scanner, &mut json, &mut findings);
            if findings.is_empty() {
                return None;
            }
            serde_json::to_vec(&json).ok()?
        }
        // Not JSON (no provider sends that today): scanned as text all the same.
        Err(_) => {
            let text = String::from_utf8_lossy(body);
            let redacted = scanner.redact(&text);
            findings = redacted.findings;
            if findings.is_empty() {
                return None;
            }
            redacted.text.into_bytes()
        }
    };
    Some((redacted, findings))
}

/// Redacts every string of a JSON value in place (object keys are the API's own names).
fn redact_strings(scanner: &Scanner, value: &mut Value, findings: &mut Vec<Finding>) {
    match value {
        Value::String(text) => {
            let redacted = scanner.redact(text);
            if !redacted.findings.is_empty() {
                *text = redacted.text;
                findings.extend(redacted.findings);
            }
        }
        Value::Array(items) => {
            for item in items {
                redact_strings(scanner, item, findings);
            }
        }
        Value::Object(fields) => {
            for item in fields.values_mut() {
                redact_strings(scanner, item, findings);
            }
        }
        _ => {}
    }
}

#[async_trait::async_trait]
impl Middleware for WithholdSecrets {
    async fn handle(
        &self,
        mut req: Request,
        extensions: &mut http::Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<Response> {
        let body = req.body().and_then(|body| body.as_bytes());
        if let Some((redacted, findings)) = body.and_then(|b| redact_body(&self.scanner, b)) {
            // The length changed: reqwest sets it again from the new body.
            req.headers_mut().remove(http::header::CONTENT_LENGTH);
            *req.body_mut() = Some(redacted.into());
            self.report(findings);
        }
        next.run(req, extensions).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn github_token() -> String {
        // Built at run time: no token-shaped literal in the source.
        format!("{}{}", "ghp_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5")
    }

    #[test]
    fn every_string_of_a_request_is_redacted_and_the_rest_kept() {
        let scanner = Scanner::new(SecretsIgnore::none());
        let diff = format!(
            "diff --git a/.env b/.env\n--- /dev/null\n+++ b/.env\n@@ -0,0 +1 @@\n+GITHUB_TOKEN={}\n",
            github_token()
        );
        let body = serde_json::json!({
            "model": "gpt-5",
            "input": [{"role": "user", "content": [{"type": "input_text", "text": diff}]}],
            "max_output_tokens": 100,
        });
        let bytes = serde_json::to_vec(&body).unwrap();
        let (redacted, findings) = redact_body(&scanner, &bytes).expect("a secret was found");
        let text = String::from_utf8(redacted).unwrap();
        assert!(!text.contains(&github_token()), "{text}");
        assert!(
            text.contains("GITHUB_TOKEN=[secret: github-token, .env:1]"),
            "{text}"
        );
        assert_eq!(findings.len(), 1);
        let json: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["model"], "gpt-5");
        assert_eq!(json["max_output_tokens"], 100);
        // A clean body is left as it is.
        assert!(redact_body(&scanner, br#"{"input": "fn main() {}"}"#).is_none());
    }

    #[tokio::test]
    async fn a_request_goes_out_redacted_and_each_secret_is_reported_once_a_run() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let withhold = WithholdSecrets::new(
            Arc::new(Scanner::new(SecretsIgnore::none())),
            EventSink::new(tx),
        );
        let provider = crate::runtime::canned::Canned::new(200, "application/json", "{}");
        let client = provider.behind(withhold);
        let body = serde_json::json!({"input": format!("GITHUB_TOKEN={}", github_token())});
        for _ in 0..2 {
            client
                .post("http://provider.invalid/v1/responses")
                .body(body.to_string())
                .send()
                .await
                .unwrap();
        }
        let sent = provider.sent.lock().unwrap().clone();
        assert_eq!(sent.len(), 2);
        assert!(
            sent.iter().all(|s| !s.contains(&github_token())),
            "{sent:?}"
        );
        let reported: Vec<AgentEvent> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        assert!(
            matches!(reported.as_slice(), [AgentEvent::SecretWithheld(f)] if &*f.rule == "github-token"),
            "{reported:?}"
        );
    }
}
