//! `--dry-run`: the first request of a run taken at the very end of the HTTP stack (after
//! the secret scan, exactly as it would go out) and not sent; the run then stops. What it
//! holds is reported by part: the instructions, the request, the evidence, the history (the
//! history sample, a chat's earlier turns), the tool definitions and the answer's schema.

use std::sync::{Arc, Mutex};

use reqwest::Response;
use reqwest_middleware::{Middleware, Next};
use serde_json::Value;

use crate::runtime::request::{Request, Section};

/// Where a dry run keeps the request it stopped; shared by every client of a command.
#[derive(Debug, Clone, Default)]
pub struct DryRun {
    captured: Arc<Mutex<Option<Captured>>>,
    /// The first conversation's request, by section, as its capability handed it over.
    handed: Arc<Mutex<Option<Sections>>>,
}

/// A request's texts by part (`request`, `evidence`, `history`), as they were handed to the
/// runtime: what the dry run reports, without reading the wire's body back.
pub type Handed = Vec<(&'static str, String)>;

/// A request's texts by section, as they were handed to the runtime.
pub type Sections = Vec<(Section, String)>;

/// A request that was not sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Captured {
    /// The endpoint it was going to.
    pub url: String,
    /// The body as it would have gone out.
    pub body: Vec<u8>,
    /// Its last message by section, as its capability handed it over (what `iris eval
    /// --evidence` weighs source by source).
    pub sections: Option<Sections>,
}

impl Captured {
    /// The same message by part (sections of one part run together in order).
    pub fn handed(&self) -> Option<Handed> {
        self.sections.as_ref().map(|sections| {
            sections
                .iter()
                .map(|(kind, text)| (kind.part(), text.clone()))
                .collect()
        })
    }
}

/// The error a dry run stops a run with.
pub const NOT_SENT: &str = "dry run: the request was not sent";

impl DryRun {
    /// The first request the run would have sent, if it got that far.
    pub fn captured(&self) -> Option<Captured> {
        self.captured.lock().ok().and_then(|slot| slot.clone())
    }

    /// The conversation about to send the first request hands over its request's parts
    /// (the later conversations' do not count: only the first request is kept).
    pub fn note_request(&self, request: &Request) {
        if let Ok(mut noted) = self.handed.lock()
            && noted.is_none()
        {
            *noted = Some(
                request
                    .sections()
                    .map(|(kind, text)| (kind, text.to_string()))
                    .collect(),
            );
        }
    }
}

#[async_trait::async_trait]
impl Middleware for DryRun {
    async fn handle(
        &self,
        req: reqwest::Request,
        _extensions: &mut http::Extensions,
        _next: Next<'_>,
    ) -> reqwest_middleware::Result<Response> {
        if let Ok(mut slot) = self.captured.lock()
            && slot.is_none()
        {
            let sections = self.handed.lock().ok().and_then(|h| h.clone());
            let body = req
                .body()
                .and_then(|b| b.as_bytes())
                .map(<[u8]>::to_vec)
                .unwrap_or_default();
            *slot = Some(Captured {
                url: req.url().to_string(),
                body,
                sections,
            });
        }
        Err(reqwest_middleware::Error::Middleware(anyhow::anyhow!(
            NOT_SENT
        )))
    }
}

/// One part of a request, and its size.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Part {
    /// Which part: one of [`PARTS`].
    pub name: &'static str,
    /// Its length in characters.
    pub chars: usize,
    /// Its length in tokens, as the caller's count estimates it.
    pub tokens: usize,
}

/// The parts a request's body is read into, in the order they are shown.
pub const PARTS: [&str; 6] = [
    "instructions",
    "request",
    "evidence",
    "history",
    "tool definitions",
    "schema",
];

/// The texts of each part of a request body, whatever the provider's wire: OpenAI's
/// Responses (`instructions`, `input`, `text.format`) and Chat Completions (`messages`,
/// `response_format`), Anthropic's (`system`, `messages`), Gemini's (`systemInstruction`,
/// `contents`, `generationConfig`) and Ollama's (`messages`, `format`). The instructions'
/// output section (the schema in words) counts as schema. The last message is read by the
/// parts it was `handed` over in, when known; else it is all request.
pub fn parts_of(body: &Value, handed: Option<&Handed>) -> Vec<(&'static str, String)> {
    let mut texts: Vec<(&'static str, String)> = Vec::new();
    let mut add = |part: &'static str, text: String| {
        if !text.is_empty() {
            texts.push((part, text));
        }
    };
    let mut system = String::new();
    for key in ["instructions", "system", "systemInstruction"] {
        if let Some(value) = body.get(key) {
            system.push_str(&strings(value).join("\n"));
        }
    }
    let messages: Vec<&Value> = ["input", "messages", "contents"]
        .iter()
        .filter_map(|k| body.get(*k))
        .flat_map(|v| match v {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        })
        .collect();
    let mut turns: Vec<String> = Vec::new();
    for message in &messages {
        let role = message["role"].as_str().unwrap_or_default();
        let text = strings(message).join("\n");
        if role == "system" || role == "developer" {
            system.push_str(&text);
        } else {
            turns.push(text);
        }
    }
    // The instructions' output section is the schema in words.
    let (instructions, output) = match system.find("## Output") {
        Some(at) => (system[..at].to_string(), system[at..].to_string()),
        None => (system, String::new()),
    };
    add("instructions", instructions);
    add("schema", output);
    // The last turn is the request, by the parts it was handed in; earlier turns are history.
    if let Some(last) = turns.pop() {
        match handed {
            Some(parts) => {
                for (part, text) in parts {
                    add(part, text.clone());
                }
            }
            None => add("request", last),
        }
    }
    add("history", turns.join(""));
    if let Some(tools) = body.get("tools") {
        add(
            "tool definitions",
            serde_json::to_string(tools).unwrap_or_default(),
        );
    }
    for key in ["text", "response_format", "format", "generationConfig"] {
        if let Some(schema) = body.get(key) {
            add("schema", serde_json::to_string(schema).unwrap_or_default());
        }
    }
    texts
}

/// Every text inside a JSON value, in order: its strings, the API's own labels (a part's
/// type, a message's role, ids) left out.
fn strings(value: &Value) -> Vec<String> {
    const LABELS: [&str; 6] = ["type", "role", "id", "call_id", "status", "cache_control"];
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(map) => map
            .iter()
            .filter(|(key, _)| !LABELS.contains(&key.as_str()))
            .flat_map(|(_, v)| strings(v))
            .collect(),
        _ => Vec::new(),
    }
}

/// The size of each part, tokens counted by `count`.
pub fn sizes(body: &Value, handed: Option<&Handed>, count: &dyn Fn(&str) -> usize) -> Vec<Part> {
    let texts = parts_of(body, handed);
    PARTS
        .iter()
        .map(|name| {
            let joined: String = texts
                .iter()
                .filter(|(part, _)| part == name)
                .map(|(_, text)| text.as_str())
                .collect();
            Part {
                name,
                chars: joined.chars().count(),
                tokens: count(&joined),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chars(text: &str) -> usize {
        text.chars().count()
    }

    #[test]
    fn a_responses_request_is_read_into_its_parts() {
        let body = json!({
            "model": "gpt-5",
            "instructions": "You are Iris.\n\n## Output\nOne JSON object.",
            "input": [
                {"role": "user", "content": [{"type": "input_text", "text": "Earlier."}]},
                {"role": "assistant", "content": [{"type": "output_text", "text": "Sure."}]},
                {"role": "user", "content": [{"type": "input_text",
                    "text": "Write the commit message.\n\n## Evidence\n\ndiff --git a b"}]},
            ],
            "tools": [{"type": "function", "name": "git_diff", "parameters": {}}],
            "text": {"format": {"type": "json_schema", "schema": {"type": "object"}}},
        });
        let handed: Handed = vec![
            ("request", "Write the commit message.".into()),
            ("evidence", "## Evidence\n\ndiff --git a b".into()),
            ("history", "How this repository writes its messages".into()),
        ];
        let parts = parts_of(&body, Some(&handed));
        let text = |name: &str| -> String {
            parts
                .iter()
                .filter(|(p, _)| *p == name)
                .map(|(_, t)| t.as_str())
                .collect()
        };
        assert_eq!(text("instructions"), "You are Iris.\n\n");
        assert!(text("schema").starts_with("## Output\nOne JSON object.{\"format\""));
        assert!(
            text("request").contains("Write the commit message.")
                && !text("request").contains("diff --git")
        );
        assert!(text("evidence").contains("diff --git a b"));
        assert!(text("history").contains("Earlier.") && text("history").contains("Sure."));
        assert!(text("history").starts_with("How this repository writes"));
        assert!(text("tool definitions").contains("git_diff"));
        let sizes = sizes(&body, Some(&handed), &chars);
        assert_eq!(sizes.iter().map(|p| p.name).collect::<Vec<_>>(), PARTS);
        assert!(sizes.iter().all(|p| p.tokens == p.chars));
        let evidence = sizes.iter().find(|p| p.name == "evidence").unwrap();
        assert_eq!(evidence.chars, chars("## Evidence\n\ndiff --git a b"));
    }

    #[tokio::test]
    async fn the_first_request_is_kept_with_its_parts_and_none_is_sent() {
        let dry_run = DryRun::default();
        let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
            .with(dry_run.clone())
            .build();
        assert_eq!(dry_run.captured(), None);
        use crate::runtime::request::Section;
        let first = Request::ask("Write it.").with(Section::Evidence, "diff");
        dry_run.note_request(&first);
        dry_run.note_request(&Request::ask("later")); // a later conversation's does not count
        for body in ["first", "second"] {
            let err = client
                .post("http://provider.invalid/v1/responses")
                .body(body)
                .send()
                .await
                .expect_err("not sent");
            assert!(format!("{err:#}").contains(NOT_SENT), "{err:#}");
        }
        let captured = dry_run.captured().expect("the first request");
        assert_eq!(
            captured,
            Captured {
                url: "http://provider.invalid/v1/responses".into(),
                body: b"first".to_vec(),
                sections: Some(vec![
                    (Section::Ask, "Write it.".into()),
                    (Section::Evidence, "diff".into())
                ]),
            }
        );
        assert_eq!(
            captured.handed(),
            Some(vec![
                ("request", "Write it.".into()),
                ("evidence", "diff".into())
            ])
        );
    }

    #[test]
    fn chat_and_anthropic_bodies_too() {
        let chat = json!({"messages": [
            {"role": "system", "content": "Be brief.\n## Output\nJSON."},
            {"role": "user", "content": "Review it."}],
            "response_format": {"type": "json_schema"}});
        let parts = parts_of(&chat, None);
        assert!(parts.contains(&("instructions", "Be brief.\n".to_string())));
        assert!(
            parts
                .iter()
                .any(|(p, t)| *p == "request" && t.contains("Review it."))
        );
        let anthropic = json!({"system": [{"type": "text", "text": "Be brief."}],
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Go."}]}]});
        let parts = parts_of(&anthropic, None);
        assert_eq!(parts[0], ("instructions", "Be brief.".to_string()));
    }
}
