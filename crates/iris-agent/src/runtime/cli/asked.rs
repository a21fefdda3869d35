//! What a request asks, read back from the Chat Completions body rig wrote: the instructions,
//! the conversation as one text, the answer's schema and budget, whether to stream.

use serde_json::Value;

/// One request, as a command-line agent takes it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Asked {
    /// The system and developer messages.
    pub system: String,
    /// The conversation: the one message, or each turn under its speaker.
    pub prompt: String,
    /// The JSON schema the answer must match, when asked.
    pub schema: Option<Value>,
    /// Stream the reply as it forms.
    pub stream: bool,
    /// The model, as configured (`default`: the CLI's own).
    pub model: String,
    /// The output budget of the reply.
    pub max_tokens: Option<u64>,
    /// How hard a reasoning model thinks, when set.
    pub effort: Option<String>,
}

impl Asked {
    /// The request in `body`; an error when it is not a Chat Completions request.
    pub fn from_body(body: &Value) -> Result<Self, String> {
        let messages = body
            .get("messages")
            .and_then(Value::as_array)
            .ok_or("the request has no messages")?;
        let mut system = Vec::new();
        let mut turns: Vec<(String, String)> = Vec::new();
        for message in messages {
            let role = message
                .get("role")
                .and_then(Value::as_str)
                .unwrap_or("user");
            let text = content_text(message);
            match role {
                "system" | "developer" => system.push(text),
                _ if text.trim().is_empty() => {}
                _ => turns.push((role.to_string(), text)),
            }
        }
        let prompt = match turns.as_slice() {
            [] => return Err("the request has no message to answer".into()),
            [(_, only)] => only.clone(),
            _ => turns
                .iter()
                .map(|(role, text)| format!("## {}\n\n{text}", speaker(role)))
                .collect::<Vec<_>>()
                .join("\n\n"),
        };
        let schema = body.pointer("/response_format/json_schema/schema").cloned();
        Ok(Self {
            system: system.join("\n\n"),
            prompt,
            schema,
            stream: body.get("stream").and_then(Value::as_bool).unwrap_or(false),
            model: body
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            max_tokens: body
                .get("max_completion_tokens")
                .or_else(|| body.get("max_tokens"))
                .and_then(Value::as_u64),
            effort: body
                .get("reasoning_effort")
                .and_then(Value::as_str)
                .map(str::to_string),
        })
    }

    /// The instructions with what the CLI has no option for: the output budget. (The schema
    /// is in them already, in words, as for any provider without a native schema option.)
    pub fn instructions(&self) -> String {
        let mut parts = vec![self.system.clone()];
        if let Some(budget) = self.max_tokens {
            parts.push(format!(
                "Keep the whole answer within about {budget} tokens."
            ));
        }
        parts.retain(|p| !p.trim().is_empty());
        parts.join("\n\n")
    }

    /// The model to name on the command line; `None` leaves it to the CLI.
    pub fn model_flag(&self) -> Option<&str> {
        Some(self.model.as_str())
            .filter(|m| !m.is_empty() && *m != iris_studio_config::CLI_DEFAULT_MODEL)
    }
}

/// A message's text: a string, or its text parts (a tool call's arguments and a tool's result
/// are text too).
fn content_text(message: &Value) -> String {
    let mut text = match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = call.pointer("/function/name").and_then(Value::as_str);
        let args = call.pointer("/function/arguments").and_then(Value::as_str);
        text.push_str(&format!(
            "\n(called {} with {})",
            name.unwrap_or("a tool"),
            args.unwrap_or("{}")
        ));
    }
    text
}

fn speaker(role: &str) -> &str {
    match role {
        "assistant" => "Assistant",
        "tool" => "Tool result",
        _ => "User",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_message_is_the_prompt_and_the_rest_is_read_back() {
        let body = json!({
            "model": "sonnet",
            "stream": true,
            "max_completion_tokens": 900,
            "reasoning_effort": "low",
            "messages": [
                {"role": "system", "content": "You are Iris."},
                {"role": "user", "content": [{"type": "text", "text": "Write the message."}]}
            ],
            "response_format": {"type": "json_schema", "json_schema": {"name": "c", "schema": {"type": "object"}}},
            "tools": [{"type": "function", "function": {"name": "git_diff"}}]
        });
        let asked = Asked::from_body(&body).unwrap();
        assert_eq!(asked.system, "You are Iris.");
        assert_eq!(asked.prompt, "Write the message.");
        assert_eq!(asked.schema, Some(json!({"type": "object"})));
        assert!(asked.stream);
        assert_eq!(asked.model_flag(), Some("sonnet"));
        assert_eq!(asked.max_tokens, Some(900));
        assert_eq!(asked.effort.as_deref(), Some("low"));
        let instructions = asked.instructions();
        assert!(instructions.starts_with("You are Iris.\n\n"));
        assert!(instructions.ends_with("about 900 tokens."));
    }

    #[test]
    fn a_conversation_is_written_turn_by_turn() {
        let body = json!({"model": "default", "messages": [
            {"role": "user", "content": "Make it shorter."},
            {"role": "assistant", "content": "Done."},
            {"role": "user", "content": "Shorter still."}
        ]});
        let asked = Asked::from_body(&body).unwrap();
        assert_eq!(
            asked.prompt,
            "## User\n\nMake it shorter.\n\n## Assistant\n\nDone.\n\n## User\n\nShorter still."
        );
        assert_eq!(asked.model_flag(), None);
        assert!(Asked::from_body(&json!({"input": "x"})).is_err());
    }

    #[test]
    fn tool_results_are_said_as_such_and_empty_turns_left_out() {
        let body = json!({"model": "default", "messages": [
            {"role": "user", "content": "Describe it."},
            {"role": "assistant", "content": "  "},
            {"role": "tool", "content": "diff --git a/x b/x"}
        ]});
        let asked = Asked::from_body(&body).unwrap();
        assert_eq!(
            asked.prompt,
            "## User\n\nDescribe it.\n\n## Tool result\n\ndiff --git a/x b/x"
        );
        let only_system = json!({"messages": [{"role": "system", "content": "You are Iris."}]});
        assert_eq!(
            Asked::from_body(&only_system).unwrap_err(),
            "the request has no message to answer"
        );
    }
}
