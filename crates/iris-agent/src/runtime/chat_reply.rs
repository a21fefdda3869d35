//! Chat Completions replies as the services write them, made into what rig 0.37 reads.
//!
//! Reasoning models think before they answer, and each server puts the thinking somewhere
//! else: `reasoning_content` (DeepSeek, llama.cpp), `reasoning` (OpenRouter, Groq, newer
//! vLLM), or a `<think>` block at the start of the text (Qwen3, R1 distills served raw). rig
//! reads only `reasoning_content`, so a `reasoning` field would be lost and a `<think>` block
//! would become part of the artifact. Here every form becomes `reasoning_content`, which rig
//! yields as reasoning (shown as thinking, never written into the artifact).
//!
//! A provider that reports what a request cost (OpenRouter's `usage.cost`, in US dollars) has
//! that figure passed on: it is worth more than a price table.

use std::sync::Arc;

use futures::StreamExt;
use reqwest::{Request, Response};
use reqwest_middleware::{Middleware, Next, Result};
use serde_json::Value;

use crate::runtime::rebody::{BoxError, head_of, with_body};

/// Where a reported cost goes (the run's events and its budget).
pub type CostReport = Arc<dyn Fn(f64) + Send + Sync>;

/// The middleware, for a Chat Completions wire (one client, one run).
#[derive(Clone)]
pub struct ChatReplies {
    /// Where a reported cost goes.
    pub cost: CostReport,
    /// Leave rig's `stream_options` out of requests: the service refuses it (Mistral).
    pub without_stream_options: bool,
    /// A reply's thinking was made `reasoning_content` here: the run's requests leave it out
    /// of the history they send back (Groq refuses the field).
    pub introduced: Arc<std::sync::atomic::AtomicBool>,
}

impl ChatReplies {
    /// The middleware reporting costs to `cost`.
    pub fn new(cost: CostReport, without_stream_options: bool) -> Self {
        Self {
            cost,
            without_stream_options,
            introduced: Arc::default(),
        }
    }

    /// Passes on what `normalizer` found so far: the costs reported, and whether it made
    /// thinking `reasoning_content`.
    fn settle(&self, normalizer: &mut Normalizer) {
        normalizer
            .costs
            .drain(..)
            .for_each(|cost| (self.cost)(cost));
        if normalizer.introduced {
            self.introduced
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// `body` without its `stream_options` (`options`) and its messages' `reasoning_content`
/// (`reasoning`), when it is a JSON object that has any of them.
fn without(body: &[u8], options: bool, reasoning: bool) -> Option<Vec<u8>> {
    let mut request = serde_json::from_slice::<Value>(body).ok()?;
    let object = request.as_object_mut()?;
    let mut changed = options && object.remove("stream_options").is_some();
    if reasoning && let Some(Value::Array(messages)) = object.get_mut("messages") {
        for message in messages.iter_mut().filter_map(Value::as_object_mut) {
            changed |= message.remove("reasoning_content").is_some();
        }
    }
    changed.then(|| serde_json::to_vec(&request).ok()).flatten()
}

/// Where a stream is in its `<think>` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Think {
    /// No text yet: a `<think>` may still open.
    #[default]
    Before,
    /// Inside the block: text is thinking.
    Inside,
    /// The answer: text is text.
    After,
}

/// One reply's state across its events.
#[derive(Default)]
pub(crate) struct Normalizer {
    think: Think,
    /// Bytes of an event line not complete yet.
    pending: Vec<u8>,
    /// Costs reported so far in this reply.
    pub(crate) costs: Vec<f64>,
    /// Thinking was put in `reasoning_content` here, where the server did not: rig sends it
    /// back on the next turn, which such a server may refuse.
    pub(crate) introduced: bool,
    /// The end of a thought that may be the start of `</think>`, held for the next piece.
    held: String,
}

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

impl Normalizer {
    /// The bytes of `chunk` as rig should read them; an incomplete last line waits for the
    /// next chunk.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Vec<u8> {
        self.pending.extend_from_slice(chunk);
        // An event stream may end its lines with LF, CRLF or a bare CR.
        let ends = |b: &u8| *b == b'\n' || *b == b'\r';
        let Some(last_end) = self.pending.iter().rposition(ends) else {
            return Vec::new();
        };
        let complete: Vec<u8> = self.pending.drain(..=last_end).collect();
        let mut out = Vec::with_capacity(complete.len());
        for line in complete.split_inclusive(ends) {
            out.extend_from_slice(&self.line(line));
        }
        out
    }

    /// What is left at the end of the stream.
    pub(crate) fn finish(&mut self) -> Vec<u8> {
        let rest = std::mem::take(&mut self.pending);
        self.line(&rest)
    }

    /// One line of the event stream: a `data:` line with a JSON object is rewritten.
    fn line(&mut self, line: &[u8]) -> Vec<u8> {
        let Some(data) = line.strip_prefix(b"data:") else {
            return line.to_vec();
        };
        let text = String::from_utf8_lossy(data);
        let Ok(mut event) = serde_json::from_str::<Value>(text.trim()) else {
            return line.to_vec();
        };
        if !self.reply(&mut event, "delta") {
            return line.to_vec();
        }
        // Lines are split at each LF or CR, so a line ends with at most one of them.
        let ending = match line.last() {
            Some(b'\n') => "\n",
            Some(b'\r') => "\r",
            _ => "",
        };
        format!("data: {event}{ending}").into_bytes()
    }

    /// Normalizes one chunk (`part` = "delta") or a whole reply (`part` = "message"); true
    /// when anything changed.
    pub(crate) fn reply(&mut self, event: &mut Value, part: &str) -> bool {
        if let Some(cost) = event.pointer("/usage/cost").and_then(Value::as_f64)
            && cost.is_finite()
            && cost >= 0.0
        {
            self.costs.push(cost);
        }
        let mut changed = false;
        // Groq reports a stream's usage beside the chunk, in `x_groq`.
        if event.get("usage").is_none_or(Value::is_null)
            && let Some(usage) = event.pointer("/x_groq/usage").cloned()
            && let Some(object) = event.as_object_mut()
        {
            object.insert("usage".into(), usage);
            changed = true;
        }
        let Some(choices) = event.get_mut("choices").and_then(Value::as_array_mut) else {
            return false;
        };
        for choice in choices {
            let Some(message) = choice.get_mut(part).and_then(Value::as_object_mut) else {
                continue;
            };
            let mut thinking = String::new();
            // `reasoning` (OpenRouter, Groq, vLLM) is what rig calls `reasoning_content`; a
            // server sending both says the same thing twice.
            if let Some(Value::String(reasoning)) = message.remove("reasoning") {
                let has_content = message
                    .get("reasoning_content")
                    .and_then(Value::as_str)
                    .is_some_and(|r| !r.is_empty());
                if !has_content {
                    thinking.push_str(&reasoning);
                }
                changed = true;
            }
            if let Some(Value::String(text)) = message.get("content").cloned() {
                let (thought, answer) = self.split_think(&text);
                if !thought.is_empty() || answer != text {
                    thinking.push_str(&thought);
                    message.insert("content".into(), Value::String(answer));
                    changed = true;
                }
            }
            if !thinking.is_empty() {
                self.introduced = true;
                let before = message
                    .get("reasoning_content")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                message.insert(
                    "reasoning_content".into(),
                    Value::String(before + &thinking),
                );
            }
        }
        changed
    }

    /// `text` (the next piece of a reply's text) as thinking and answer, by where it is in a
    /// `<think>` block. The opening tag comes whole (one token to the models that write it);
    /// a closing one split across pieces is put together.
    fn split_think(&mut self, text: &str) -> (String, String) {
        match self.think {
            Think::After => (String::new(), text.to_string()),
            Think::Before => {
                let trimmed = text.trim_start();
                if let Some(rest) = trimmed.strip_prefix(OPEN) {
                    self.think = Think::Inside;
                    self.split_think(rest)
                } else {
                    if !trimmed.is_empty() {
                        self.think = Think::After;
                    }
                    (String::new(), text.to_string())
                }
            }
            Think::Inside => {
                let text = std::mem::take(&mut self.held) + text;
                match text.split_once(CLOSE) {
                    Some((thought, answer)) => {
                        self.think = Think::After;
                        (thought.to_string(), answer.trim_start().to_string())
                    }
                    None => {
                        // `</th` now, `ink>` in the next piece.
                        let keep = (1..CLOSE.len())
                            .rev()
                            .find(|&n| text.ends_with(&CLOSE[..n]))
                            .unwrap_or(0);
                        let (thought, held) = text.split_at(text.len() - keep);
                        self.held = held.to_string();
                        (thought.to_string(), String::new())
                    }
                }
            }
        }
    }
}

#[async_trait::async_trait]
impl Middleware for ChatReplies {
    async fn handle(
        &self,
        req: Request,
        extensions: &mut http::Extensions,
        next: Next<'_>,
    ) -> Result<Response> {
        let mut req = req;
        let introduced = self.introduced.load(std::sync::atomic::Ordering::Relaxed);
        if let Some(body) = req.body().and_then(|b| b.as_bytes())
            && let Some(body) = without(body, self.without_stream_options, introduced)
        {
            *req.body_mut() = Some(reqwest::Body::from(body));
        }
        let response = next.run(req, extensions).await?;
        if !response.status().is_success() {
            return Ok(response);
        }
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let head = head_of(&response);
        let body = if content_type.starts_with("text/event-stream") {
            reqwest::Body::wrap_stream(normalized(response.bytes_stream(), self.clone()))
        } else if content_type.starts_with("application/json") {
            let bytes = response.bytes().await?;
            let mut normalizer = Normalizer::default();
            let body = match serde_json::from_slice::<Value>(&bytes) {
                Ok(mut reply) => match normalizer.reply(&mut reply, "message") {
                    true => reply.to_string().into_bytes(),
                    false => bytes.to_vec(),
                },
                Err(_) => bytes.to_vec(),
            };
            self.settle(&mut normalizer);
            reqwest::Body::from(body)
        } else {
            return Ok(response);
        };
        with_body(head, body)
    }
}

/// The event stream with each event normalized, costs reported as they come.
fn normalized<S, B>(
    body: S,
    replies: ChatReplies,
) -> impl futures::Stream<Item = std::result::Result<Vec<u8>, BoxError>>
where
    S: futures::Stream<Item = reqwest::Result<B>>,
    B: AsRef<[u8]>,
{
    let state = (Box::pin(body), Normalizer::default(), replies, false);
    futures::stream::unfold(state, |(mut body, mut n, replies, done)| async move {
        if done {
            return None;
        }
        let next = body.next().await;
        let (item, done) = match next {
            Some(Ok(chunk)) => (Ok(n.feed(chunk.as_ref())), false),
            Some(Err(e)) => (Err(e.into()), true),
            None => (Ok(n.finish()), true),
        };
        replies.settle(&mut n);
        Some((item, (body, n, replies, done)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: &[&str]) -> (Vec<Value>, Vec<f64>) {
        let mut n = Normalizer::default();
        let mut out = Vec::new();
        for event in events {
            // Split each event in two chunks, to cross a chunk boundary.
            let line = format!("data: {event}\n\n");
            let (a, b) = line.split_at(line.len() / 2);
            out.extend(n.feed(a.as_bytes()));
            out.extend(n.feed(b.as_bytes()));
        }
        out.extend(n.finish());
        let text = String::from_utf8(out).expect("utf-8");
        let values = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str(d).ok())
            .collect();
        (values, n.costs)
    }

    fn delta(text: &str, field: &str) -> String {
        serde_json::json!({"choices": [{"index": 0, "delta": {field: text}}]}).to_string()
    }

    fn field(v: &Value, f: &str) -> String {
        v.pointer(&format!("/choices/0/delta/{f}"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    }

    #[test]
    fn a_reasoning_field_becomes_reasoning_content() {
        let (out, _) = run(&[
            &delta("Let me see", "reasoning"),
            &delta("{\"title\"", "content"),
        ]);
        assert_eq!(field(&out[0], "reasoning_content"), "Let me see");
        assert_eq!(field(&out[0], "reasoning"), "");
        assert_eq!(field(&out[1], "content"), "{\"title\"");
    }

    #[test]
    fn a_think_block_is_thinking_and_the_rest_is_the_answer() {
        let (out, _) = run(&[
            &delta("\n<think>", "content"),
            &delta("The diff adds", "content"),
            &delta(" a flag.</think>\n\n{\"ti", "content"),
            &delta("tle\": \"<think> stays\"}", "content"),
        ]);
        let thought: String = out.iter().map(|v| field(v, "reasoning_content")).collect();
        let answer: String = out.iter().map(|v| field(v, "content")).collect();
        assert_eq!(thought, "The diff adds a flag.");
        assert_eq!(answer, "{\"title\": \"<think> stays\"}");
    }

    #[test]
    fn a_think_block_opens_only_before_the_answer_s_first_text() {
        let thought_and_answer = |pieces: &[&str]| {
            let events: Vec<String> = pieces.iter().map(|p| delta(p, "content")).collect();
            let (out, _) = run(&events.iter().map(String::as_str).collect::<Vec<_>>());
            let thought: String = out.iter().map(|v| field(v, "reasoning_content")).collect();
            let answer: String = out.iter().map(|v| field(v, "content")).collect();
            (thought, answer)
        };
        // Blank pieces first: the block may still open.
        assert_eq!(
            thought_and_answer(&["\n", " ", "<think>hm</think>ok"]),
            ("hm".to_string(), "\n ok".to_string())
        );
        // Text first: a later tag is the answer's.
        assert_eq!(
            thought_and_answer(&["Fix", " <think>x</think>"]),
            (String::new(), "Fix <think>x</think>".to_string())
        );
    }

    #[test]
    fn text_without_a_think_block_and_other_lines_pass_unchanged() {
        let mut n = Normalizer::default();
        // Spaced as no serializer writes it: a line rewritten would lose them.
        let stream = ": keep-alive\n\ndata: {\"choices\": [{\"delta\": {\"content\": \"Fix <think>\"}}]}\n\ndata: [DONE]\n\n";
        assert_eq!(
            String::from_utf8(n.feed(stream.as_bytes())).unwrap(),
            stream
        );
    }

    #[test]
    fn lines_ended_by_crlf_or_a_bare_cr_are_read_and_keep_their_endings() {
        for end in ["\n", "\r\n", "\r"] {
            let mut n = Normalizer::default();
            let stream = format!(
                "data: {}{end}{end}data: [DONE]{end}{end}",
                delta("hm", "reasoning")
            );
            let out = String::from_utf8(n.feed(stream.as_bytes())).unwrap();
            assert!(out.contains("\"reasoning_content\":\"hm\""), "{out:?}");
            assert!(out.ends_with(&format!("data: [DONE]{end}{end}")), "{out:?}");
            assert_eq!(out.matches(end).count(), 4, "{out:?}");
        }
    }

    #[test]
    fn a_last_line_without_an_ending_is_read_when_the_stream_ends() {
        let mut n = Normalizer::default();
        let last = format!("data: {}", delta("hm", "reasoning"));
        assert!(n.feed(last.as_bytes()).is_empty(), "it may go on");
        let out = String::from_utf8(n.finish()).unwrap();
        assert!(out.starts_with("data: {"), "{out:?}");
        assert!(out.contains("\"reasoning_content\":\"hm\""), "{out:?}");
        assert!(n.finish().is_empty(), "read once");
    }

    #[test]
    fn groq_usage_beside_the_chunk_is_read_as_usage() {
        let chunk =
            r#"{"choices":[],"x_groq":{"usage":{"prompt_tokens":7,"completion_tokens":3}}}"#;
        let (out, _) = run(&[chunk]);
        assert_eq!(out[0]["usage"]["prompt_tokens"], 7);
    }

    #[test]
    fn stream_options_and_introduced_reasoning_can_be_left_out_of_a_request() {
        let body = br#"{"model":"m","stream":true,"stream_options":{"include_usage":true},
            "messages":[{"role":"assistant","content":"","reasoning_content":"hm"}]}"#;
        let out: Value = serde_json::from_slice(&without(body, true, false).unwrap()).unwrap();
        assert!(out.get("stream_options").is_none());
        assert_eq!(out["messages"][0]["reasoning_content"], "hm");
        let out: Value = serde_json::from_slice(&without(body, false, true).unwrap()).unwrap();
        assert!(out["stream_options"].is_object());
        assert!(out["messages"][0].get("reasoning_content").is_none());
        assert!(without(br#"{"model":"m"}"#, true, true).is_none());
    }

    #[test]
    fn a_closing_tag_split_across_pieces_is_put_together() {
        let (out, _) = run(&[
            &delta("<think>", "content"),
            &delta("weighing</th", "content"),
            &delta("ink>Fix it", "content"),
        ]);
        let thought: String = out.iter().map(|v| field(v, "reasoning_content")).collect();
        let answer: String = out.iter().map(|v| field(v, "content")).collect();
        assert_eq!((thought.as_str(), answer.as_str()), ("weighing", "Fix it"));
    }

    #[test]
    fn a_server_sending_both_fields_is_read_once() {
        let both = serde_json::json!({"choices": [{"delta": {"reasoning": "hm", "reasoning_content": "hm"}}]});
        let (out, _) = run(&[&both.to_string()]);
        assert_eq!(field(&out[0], "reasoning_content"), "hm");
    }

    #[tokio::test]
    async fn a_stream_passes_on_its_costs_and_the_thinking_it_introduced() {
        let costs = Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = costs.clone();
        let replies = ChatReplies::new(Arc::new(move |c| sink.lock().unwrap().push(c)), false);
        let usage =
            r#"{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"cost":0.5}}"#;
        let chunks: Vec<reqwest::Result<Vec<u8>>> =
            [delta("<think>hm</think>ok", "content"), usage.to_string()]
                .iter()
                .map(|event| Ok(format!("data: {event}\n\n").into_bytes()))
                .collect();
        let out: Vec<_> = normalized(futures::stream::iter(chunks), replies.clone())
            .collect()
            .await;
        assert!(out.iter().all(|piece| piece.is_ok()));
        assert_eq!(*costs.lock().unwrap(), vec![0.5]);
        assert!(
            replies
                .introduced
                .load(std::sync::atomic::Ordering::Relaxed)
        );
    }

    #[tokio::test]
    async fn a_reply_is_normalized_when_it_succeeds_and_passed_as_it_is_when_it_fails() {
        const REPLY: &str = r#"{"choices": [{"message": {"content": "<think>hm</think>ok"}}], "usage": {"cost": 0.25}}"#;
        let costs = Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = costs.clone();
        let replies = ChatReplies::new(Arc::new(move |c| sink.lock().unwrap().push(c)), true);
        let request = r#"{"model":"m","stream_options":{"include_usage":true},"messages":[{"role":"assistant","content":"ok","reasoning_content":"hm"}]}"#;
        let send = |client: reqwest_middleware::ClientWithMiddleware| async move {
            let response = client
                .post("http://provider.invalid/v1/chat/completions")
                .body(request)
                .send()
                .await
                .unwrap();
            // The head is kept, rewritten or not.
            let kind = &response.headers()[reqwest::header::CONTENT_TYPE];
            assert_eq!(kind, "application/json");
            response.text().await.unwrap()
        };

        let failing = crate::runtime::canned::Canned::new(400, "application/json", REPLY);
        assert_eq!(send(failing.behind(replies.clone())).await, REPLY);
        assert!(costs.lock().unwrap().is_empty());
        let sent = failing.sent.lock().unwrap()[0].clone();
        assert!(!sent.contains("stream_options"), "{sent}");
        assert!(
            sent.contains("reasoning_content"),
            "nothing introduced yet: {sent}"
        );

        let answering = crate::runtime::canned::Canned::new(200, "application/json", REPLY);
        let reply: Value =
            serde_json::from_str(&send(answering.behind(replies.clone())).await).unwrap();
        assert_eq!(reply["choices"][0]["message"]["reasoning_content"], "hm");
        assert_eq!(reply["choices"][0]["message"]["content"], "ok");
        assert_eq!(*costs.lock().unwrap(), vec![0.25]);

        // Thinking made `reasoning_content` here is not sent back.
        send(answering.behind(replies.clone())).await;
        let sent = answering.sent.lock().unwrap()[1].clone();
        assert!(!sent.contains("reasoning_content"), "{sent}");
    }

    #[test]
    fn a_reported_cost_is_kept() {
        let usage =
            r#"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":2,"cost":0.0012}}"#;
        let (_, costs) = run(&[usage]);
        assert_eq!(costs, vec![0.0012]);
    }
}
