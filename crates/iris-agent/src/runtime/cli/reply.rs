//! The agent's answer written back as a Chat Completions reply, which rig reads as it reads
//! any server's: a JSON object, or a stream of events ending in `[DONE]`.

use serde_json::{Value, json};

use super::output::Reply;

fn usage(reply: &Reply) -> Value {
    let mut usage = json!({
        "prompt_tokens": reply.input,
        "completion_tokens": reply.output,
        "total_tokens": reply.input + reply.output,
    });
    if let Some(cost) = reply.cost {
        usage["cost"] = json!(cost);
    }
    usage
}

/// The whole reply as one JSON object.
pub(crate) fn whole(model: &str, reply: &Reply) -> Value {
    json!({
        "id": "cli",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": reply.text},
            "finish_reason": "stop"
        }],
        "usage": usage(reply),
    })
}

/// One event of a stream carrying `text`.
pub(crate) fn chunk(model: &str, text: &str) -> String {
    event(&json!({
        "id": "cli",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{
            "index": 0,
            "delta": {"role": "assistant", "content": text},
            "finish_reason": null
        }],
    }))
}

/// The stream's last events: the end of the reply, its usage, `[DONE]`.
pub(crate) fn end(model: &str, reply: &Reply) -> String {
    let stop = json!({
        "id": "cli",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    });
    let usage = json!({
        "id": "cli",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [],
        "usage": usage(reply),
    });
    format!("{}{}data: [DONE]\n\n", event(&stop), event(&usage))
}

fn event(value: &Value) -> String {
    format!("data: {value}\n\n")
}

/// What is left to stream of `whole` after `streamed`: all of it when the CLI streamed
/// nothing, the rest when it streamed a beginning, nothing when it streamed it all or
/// streamed something else (the stream stands).
pub(crate) fn rest<'a>(whole: &'a str, streamed: &str) -> &'a str {
    whole.strip_prefix(streamed).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply() -> Reply {
        Reply {
            text: "Add two".into(),
            input: 10,
            output: 3,
            cost: Some(0.01),
        }
    }

    #[test]
    fn a_whole_reply_and_a_stream_read_as_chat_completions() {
        let whole = whole("sonnet", &reply());
        assert_eq!(whole["choices"][0]["message"]["content"], "Add two");
        assert_eq!(whole["usage"]["prompt_tokens"], 10);
        assert_eq!(whole["usage"]["cost"], 0.01);
        let chunk = chunk("sonnet", "Add");
        assert!(chunk.starts_with("data: {") && chunk.ends_with("}\n\n"));
        let end = end("sonnet", &reply());
        assert!(end.contains(r#""finish_reason":"stop""#));
        assert!(end.contains(r#""completion_tokens":3"#));
        assert!(end.ends_with("data: [DONE]\n\n"));
        assert_eq!(rest("Add two", ""), "Add two");
        assert_eq!(rest("Add two", "Add"), " two");
        assert_eq!(rest("Add two", "Add two"), "");
        assert_eq!(rest("Add two", "Other"), "");
    }
}
