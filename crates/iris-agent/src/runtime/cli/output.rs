//! Reading what an agent prints: the reply's text as it forms (where the CLI streams it), then
//! the whole text, the tokens and the cost it reports, or why it failed.

use serde_json::Value;

use iris_studio_config::CliAgent;

/// The end of a run: the whole reply and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reply {
    /// The reply's whole text.
    pub text: String,
    /// Input tokens, as the CLI reported them.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
    /// The cost in US dollars, when the CLI reports one (Claude Code's `total_cost_usd`).
    pub cost: Option<f64>,
}

/// Reads an agent's standard output line by line.
#[derive(Debug)]
pub(crate) struct Reader {
    agent: CliAgent,
    stream: bool,
    /// Standard output whole, for a CLI that prints one JSON object at the end.
    whole: String,
    /// The final text, once the CLI said it.
    text: Option<String>,
    /// The text streamed so far (the reply, for a CLI that does not repeat it whole).
    streamed: String,
    input: u64,
    output: u64,
    cost: Option<f64>,
    /// Why the run failed, as the CLI said.
    failure: Option<String>,
    /// The last error the CLI reported on its way (it may have recovered).
    last_error: Option<String>,
}

impl Reader {
    pub fn new(agent: CliAgent, stream: bool) -> Self {
        Self {
            agent,
            stream,
            whole: String::new(),
            text: None,
            streamed: String::new(),
            input: 0,
            output: 0,
            cost: None,
            failure: None,
            last_error: None,
        }
    }

    /// Whether the CLI prints events a line each (else one JSON object at its end).
    fn events(&self) -> bool {
        self.stream || self.agent == CliAgent::Codex
    }

    /// One line of standard output; the text it adds to the reply, if any.
    pub fn line(&mut self, line: &str) -> Option<String> {
        let delta = self.event_text(line)?;
        self.streamed.push_str(&delta);
        Some(delta)
    }

    fn event_text(&mut self, line: &str) -> Option<String> {
        if !self.events() {
            self.whole.push_str(line);
            self.whole.push('\n');
            return None;
        }
        let event: Value = serde_json::from_str(line.trim()).ok()?;
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match (self.agent, kind) {
            (CliAgent::ClaudeCode, "stream_event") => {
                let delta = event.pointer("/event/delta")?;
                (delta.get("type").and_then(Value::as_str) == Some("text_delta"))
                    .then(|| delta.get("text").and_then(Value::as_str))
                    .flatten()
                    .map(str::to_string)
            }
            (CliAgent::ClaudeCode, "result") => {
                self.claude_result(&event);
                None
            }
            (CliAgent::Codex, "item.completed") => {
                if event.pointer("/item/type").and_then(Value::as_str) == Some("agent_message") {
                    self.text = event
                        .pointer("/item/text")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                }
                None
            }
            (CliAgent::Codex, "turn.completed") => {
                self.input += number(&event, "/usage/input_tokens");
                self.output += number(&event, "/usage/output_tokens");
                None
            }
            (CliAgent::Codex, "turn.failed") => {
                self.failure = Some(message(&event, "/error/message"));
                None
            }
            // Codex says "Reconnecting... 1/5" this way too: only a failed turn ends the run.
            (CliAgent::Codex | CliAgent::GeminiCli, "error") => {
                self.last_error = Some(message(&event, "/message"));
                None
            }
            (CliAgent::GeminiCli, "message") => (event.get("role").and_then(Value::as_str)
                == Some("assistant"))
            .then(|| event.get("content").and_then(Value::as_str))
            .flatten()
            .map(str::to_string),
            (CliAgent::GeminiCli, "result") => {
                if event.get("status").and_then(Value::as_str) == Some("error") {
                    self.failure = Some(message(&event, "/error/message"));
                }
                self.input += number(&event, "/stats/input_tokens");
                self.output += number(&event, "/stats/output_tokens");
                None
            }
            _ => None,
        }
    }

    fn claude_result(&mut self, result: &Value) {
        let is_error = result.get("is_error").and_then(Value::as_bool) == Some(true);
        let subtype = result
            .get("subtype")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let text = result
            .get("result")
            .and_then(Value::as_str)
            .map(str::to_string);
        if is_error || subtype.starts_with("error") {
            let errors = result.get("errors").and_then(Value::as_array).map(|e| {
                e.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("; ")
            });
            self.failure = Some(
                text.or(errors.filter(|e| !e.is_empty()))
                    .unwrap_or_else(|| format!("the run ended with {subtype}")),
            );
            return;
        }
        self.text = text;
        self.input += number(result, "/usage/input_tokens")
            + number(result, "/usage/cache_read_input_tokens")
            + number(result, "/usage/cache_creation_input_tokens");
        self.output += number(result, "/usage/output_tokens");
        self.cost = result.get("total_cost_usd").and_then(Value::as_f64);
    }

    fn gemini_whole(&mut self, stderr: &str) {
        if let Ok(json) = serde_json::from_str::<Value>(self.whole.trim()) {
            self.text = json
                .get("response")
                .and_then(Value::as_str)
                .map(str::to_string);
            for model in json
                .pointer("/stats/models")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|m| m.values())
            {
                self.input += number(model, "/tokens/prompt");
                self.output += number(model, "/tokens/candidates");
            }
            if json.get("error").is_some() {
                self.failure = Some(message(&json, "/error/message"));
            }
        }
        // Its errors are printed as JSON on standard error, after whatever else it said there.
        if self.text.is_none()
            && self.failure.is_none()
            && let Some(error) = last_json(stderr).filter(|e| e.get("error").is_some())
        {
            self.failure = Some(message(&error, "/error/message"));
        }
    }

    /// The reply once the command ended with `code` and printed `stderr`; why not, in words.
    pub fn finish(mut self, code: Option<i32>, stderr: &str) -> Result<Reply, String> {
        if !self.events() {
            match self.agent {
                CliAgent::ClaudeCode => {
                    if let Ok(result) = serde_json::from_str::<Value>(self.whole.trim()) {
                        self.claude_result(&result);
                    }
                }
                _ => self.gemini_whole(stderr),
            }
        }
        let stderr_tail = last_line(stderr);
        if let Some(failure) = self.failure {
            return Err(failure);
        }
        let streamed = Some(self.streamed).filter(|s| !s.is_empty());
        match (self.text.or(streamed), code) {
            (Some(text), Some(0)) => Ok(Reply {
                text,
                input: self.input,
                output: self.output,
                cost: self.cost,
            }),
            (_, code) => Err(self
                .last_error
                .or(stderr_tail)
                .unwrap_or_else(|| match code {
                    Some(code) => format!("it exited with {code} and no answer"),
                    None => "it was stopped before it answered".to_string(),
                })),
        }
    }
}

/// The JSON object `text` ends with (printed whole, or pretty over several lines).
fn last_json(text: &str) -> Option<Value> {
    let text = text.trim_end();
    text.match_indices('{')
        .filter(|(at, _)| *at == 0 || text[..*at].ends_with('\n'))
        .find_map(|(at, _)| serde_json::from_str(&text[at..]).ok())
}

fn number(value: &Value, pointer: &str) -> u64 {
    value.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}

fn message(value: &Value, pointer: &str) -> String {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or("an error it did not describe")
        .to_string()
}

/// The last line of standard error with words in it, cut to a sentence's length.
fn last_line(stderr: &str) -> Option<String> {
    let line = stderr.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    Some(line.chars().take(300).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(agent: CliAgent, stream: bool, lines: &[&str]) -> (String, Reader) {
        let mut reader = Reader::new(agent, stream);
        let streamed = lines.iter().filter_map(|l| reader.line(l)).collect();
        (streamed, reader)
    }

    #[test]
    fn claude_code_streams_text_deltas_and_ends_with_its_result() {
        let (streamed, reader) = read(
            CliAgent::ClaudeCode,
            true,
            &[
                r#"{"type":"system","subtype":"init","tools":[]}"#,
                r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"{\"title\":"}}}"#,
                r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}}"#,
                r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\"Add\"}"}}}"#,
                r#"{"type":"result","subtype":"success","is_error":false,"result":"{\"title\":\"Add\"}","total_cost_usd":0.0123,"usage":{"input_tokens":10,"cache_read_input_tokens":90,"output_tokens":7}}"#,
            ],
        );
        assert_eq!(streamed, r#"{"title":"Add"}"#);
        let reply = reader.finish(Some(0), "").unwrap();
        assert_eq!(reply.text, r#"{"title":"Add"}"#);
        assert_eq!(
            (reply.input, reply.output, reply.cost),
            (100, 7, Some(0.0123))
        );
    }

    #[test]
    fn claude_code_not_logged_in_is_its_words() {
        let (_, reader) = read(
            CliAgent::ClaudeCode,
            false,
            &[
                r#"{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login","total_cost_usd":0}"#,
            ],
        );
        assert_eq!(
            reader.finish(Some(1), "").unwrap_err(),
            "Invalid API key · Please run /login"
        );
    }

    #[test]
    fn codex_answers_with_its_last_agent_message_and_survives_reconnects() {
        let (streamed, reader) = read(
            CliAgent::Codex,
            true,
            &[
                r#"{"type":"thread.started","thread_id":"t"}"#,
                r#"{"type":"error","message":"Reconnecting... 1/5"}"#,
                r#"{"type":"item.completed","item":{"id":"i0","type":"reasoning","text":"thinking"}}"#,
                r#"{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"{\"title\":\"Add\"}"}}"#,
                r#"{"type":"turn.completed","usage":{"input_tokens":50,"cached_input_tokens":40,"output_tokens":5}}"#,
            ],
        );
        assert_eq!(streamed, "");
        let reply = reader.finish(Some(0), "").unwrap();
        assert_eq!(reply.text, r#"{"title":"Add"}"#);
        assert_eq!((reply.input, reply.output, reply.cost), (50, 5, None));

        let (_, failed) = read(
            CliAgent::Codex,
            false,
            &[r#"{"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized"}}"#],
        );
        assert_eq!(
            failed.finish(Some(1), "").unwrap_err(),
            "unexpected status 401 Unauthorized"
        );
    }

    #[test]
    fn a_run_without_an_answer_says_its_last_error_event() {
        let (_, reader) = read(
            CliAgent::Codex,
            true,
            &[r#"{"type":"error","message":"Reconnecting... 5/5"}"#],
        );
        assert_eq!(
            reader.finish(Some(1), "a log line").unwrap_err(),
            "Reconnecting... 5/5"
        );
    }

    #[test]
    fn claude_code_s_errors_and_its_cache_writes_are_read() {
        let (_, failed) = read(
            CliAgent::ClaudeCode,
            false,
            &[
                r#"{"type":"result","subtype":"error_during_execution","is_error":true,"errors":[]}"#,
            ],
        );
        assert_eq!(
            failed.finish(Some(1), "").unwrap_err(),
            "the run ended with error_during_execution"
        );
        let (_, failed) = read(
            CliAgent::ClaudeCode,
            false,
            &[
                r#"{"type":"result","subtype":"error_max_turns","is_error":true,"errors":["a","b"]}"#,
            ],
        );
        assert_eq!(failed.finish(Some(1), "").unwrap_err(), "a; b");
        let (_, reader) = read(
            CliAgent::ClaudeCode,
            false,
            &[
                r#"{"type":"result","subtype":"success","is_error":false,"result":"ok","usage":{"input_tokens":10,"cache_read_input_tokens":90,"cache_creation_input_tokens":5,"output_tokens":7}}"#,
            ],
        );
        assert_eq!(reader.finish(Some(0), "").unwrap().input, 105);
    }

    #[test]
    fn gemini_cli_streams_assistant_messages_or_prints_one_object() {
        let (streamed, reader) = read(
            CliAgent::GeminiCli,
            true,
            &[
                r#"{"type":"init","session_id":"s","model":"gemini-2.5-flash"}"#,
                r#"{"type":"message","role":"user","content":"Write it."}"#,
                r#"{"type":"message","role":"assistant","content":"Add ","delta":true}"#,
                r#"{"type":"message","role":"assistant","content":"two","delta":true}"#,
                r#"{"type":"result","status":"success","stats":{"input_tokens":30,"output_tokens":4}}"#,
            ],
        );
        assert_eq!(streamed, "Add two");
        // The streamed text is the reply when no whole text is given.
        let reply = reader.finish(Some(0), "").unwrap();
        assert_eq!(
            (reply.text.as_str(), reply.input, reply.output),
            ("Add two", 30, 4)
        );

        let (_, whole) = read(
            CliAgent::GeminiCli,
            false,
            &[
                r#"{"session_id":"s","response":"Add two","#,
                r#""stats":{"models":{"m":{"tokens":{"prompt":30,"candidates":4}}}}}"#,
            ],
        );
        let reply = whole.finish(Some(0), "").unwrap();
        assert_eq!(
            (reply.text.as_str(), reply.input, reply.output),
            ("Add two", 30, 4)
        );

        let (_, failed) = read(CliAgent::GeminiCli, false, &[]);
        let pretty = "Loaded cached credentials.\n{\n  \"session_id\": \"s\",\n  \"error\": {\n    \"type\": \"Error\",\n    \"message\": \"quota exceeded\",\n    \"code\": 1\n  }\n}\n";
        assert_eq!(
            failed.finish(Some(1), pretty).unwrap_err(),
            "quota exceeded"
        );

        // Its error alone on standard error.
        let (_, failed) = read(CliAgent::GeminiCli, false, &[]);
        let alone = r#"{"error": {"message": "quota exceeded"}}"#;
        assert_eq!(failed.finish(Some(1), alone).unwrap_err(), "quota exceeded");

        let (_, unsigned) = read(CliAgent::GeminiCli, false, &[]);
        let err = unsigned
            .finish(Some(41), "Please set an Auth method in your settings.json")
            .unwrap_err();
        assert!(err.starts_with("Please set an Auth method"), "{err}");
    }
}
