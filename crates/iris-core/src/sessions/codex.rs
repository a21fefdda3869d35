//! Codex's sessions: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, one
//! `RolloutLine` a line (`{"timestamp", "type", "payload"}`, codex-rs/protocol). The
//! `session_meta` and `turn_context` lines carry the `cwd`; an `event_msg` of type
//! `user_message` is what the user typed. Older rollouts have only the `response_item`
//! messages of role `user`, which also carry what Codex injects (`<environment_context>`,
//! `<user_instructions>`, AGENTS.md): those are left out. The files a turn touched are the
//! ones its `apply_patch` calls name.

use super::{Turn, When, content_text, json_lines, last_turns, parse_rfc3339, patch_files};
use serde_json::Value;

/// The user's turns in a rollout's `text`, while its `cwd` is `here`.
pub fn turns(text: &str, here: &dyn Fn(&str) -> bool) -> Vec<Turn> {
    // What the user typed (`user_message` events), and the same from the model's input for
    // rollouts without those events.
    let (mut typed, mut sent) = (Vec::<Turn>::new(), Vec::<Turn>::new());
    let mut in_here = false;
    for line in json_lines(text) {
        let payload = line.get("payload").unwrap_or(&Value::Null);
        let kind = line.get("type").and_then(Value::as_str);
        if matches!(kind, Some("session_meta" | "turn_context"))
            && let Some(cwd) = payload.get("cwd").and_then(Value::as_str)
        {
            in_here = here(cwd);
        }
        if !in_here {
            continue;
        }
        let when = line
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(parse_rfc3339);
        let item = payload.get("type").and_then(Value::as_str);
        match (kind, item) {
            (Some("event_msg"), Some("user_message")) => {
                let message = payload.get("message").and_then(Value::as_str);
                if let (Some(when), Some(message)) = (when, message)
                    && !message.trim().is_empty()
                {
                    typed.push(Turn::new(When::At(when), message));
                }
            }
            (Some("response_item"), Some("message"))
                if payload.get("role").and_then(Value::as_str) == Some("user") =>
            {
                let text = content_text(
                    payload.get("content").unwrap_or(&Value::Null),
                    &["input_text"],
                );
                if let Some(when) = when
                    && !injected(&text)
                {
                    sent.push(Turn::new(When::At(when), &text));
                }
            }
            (Some("response_item"), Some(_)) => {
                for file in call_files(payload) {
                    for turn in [typed.last_mut(), sent.last_mut()].into_iter().flatten() {
                        turn.named(&file);
                    }
                }
            }
            _ => {}
        }
    }
    last_turns(if typed.is_empty() { sent } else { typed })
}

/// What Codex puts in the model's input as the user's: its context, the user's instructions
/// and AGENTS.md.
fn injected(text: &str) -> bool {
    let text = text.trim_start();
    text.is_empty() || text.starts_with('<') || text.starts_with("# AGENTS.md")
}

/// The files a tool call's patch names: a `custom_tool_call`'s `input`, a `function_call`'s
/// `arguments` (JSON in a string), a `local_shell_call`'s command.
fn call_files(payload: &Value) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    if let Some(input) = payload.get("input").and_then(Value::as_str) {
        texts.push(input.to_string());
    }
    if let Some(arguments) = payload.get("arguments").and_then(Value::as_str) {
        match serde_json::from_str::<Value>(arguments) {
            Ok(value) => strings(&value, &mut texts),
            Err(_) => texts.push(arguments.to_string()),
        }
    }
    if let Some(command) = payload.get("action").and_then(|a| a.get("command")) {
        strings(command, &mut texts);
    }
    texts
        .iter()
        .flat_map(|t| patch_files(t))
        .map(str::to_string)
        .collect()
}

/// Every string inside `value`.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = include_str!("../../../../tests/fixtures/sessions/codex-rollout.jsonl");

    #[test]
    fn the_users_messages_in_this_directory_are_turns_and_patches_name_files() {
        let turns = turns(FIXTURE, &|cwd| cwd == "/home/ana/shop");
        let texts: Vec<&str> = turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Rate limit the login endpoint: we saw credential stuffing from one range of \
                 addresses",
                "Make the limit per account too, not only per address"
            ]
        );
        assert_eq!(turns[0].when, When::At(1_755_700_000));
        assert_eq!(turns[0].files, ["src/login.rs", "src/limits.rs"]);
        assert_eq!(turns[1].files, ["src/limits.rs"]);
    }

    #[test]
    fn an_older_rollout_without_events_gives_the_users_input_without_codexs_own() {
        let old = FIXTURE
            .lines()
            .filter(|l| !l.contains("\"user_message\""))
            .collect::<Vec<_>>()
            .join("\n");
        let turns = turns(&old, &|cwd| cwd == "/home/ana/shop");
        assert_eq!(turns.len(), 2, "{turns:?}");
        assert!(turns[0].text.starts_with("Rate limit the login endpoint"));
        assert_eq!(turns[0].files, ["src/login.rs", "src/limits.rs"]);
    }

    #[test]
    fn a_rollout_of_another_directory_gives_nothing() {
        assert!(turns(FIXTURE, &|cwd| cwd == "/home/ana/other").is_empty());
    }
}
