//! Gemini CLI's sessions, under `~/.gemini/tmp/<project>/` (the project is a short name
//! `~/.gemini/projects.json` gives the project root, or, before that registry, the SHA-256 of
//! the root's path): `chats/session-*.jsonl` (a metadata line, then one message record a line,
//! `$set` and `$rewindTo` lines that change them), `chats/session-*.json` (the older whole
//! `ConversationRecord`) and `logs.json` (the user's prompts alone). A message of type `user`
//! is the user's turn; a `gemini` message's `toolCalls` name the files.

use super::{Turn, When, content_text, json_lines, last_turns, parse_rfc3339};
use serde_json::Value;

/// The folder under `~/.gemini/tmp/` that Gemini CLI kept the project at `root` in before its
/// project registry: the SHA-256 of the path, in hex.
pub fn hashed_folder(root: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(root.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The short names `~/.gemini/projects.json` (`{"projects": {"/path": "name"}}`) gives the
/// project paths `here` takes.
pub fn registered_folders(registry: &str, here: &dyn Fn(&str) -> bool) -> Vec<String> {
    let Ok(registry) = serde_json::from_str::<Value>(registry) else {
        return Vec::new();
    };
    registry
        .get("projects")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(path, _)| here(path))
        .filter_map(|(_, name)| name.as_str())
        // A name is a folder's, never a path.
        .filter(|name| !name.is_empty() && !name.contains(['/', '\\']) && *name != "..")
        .map(str::to_string)
        .collect()
}

/// The user's turns in one of Gemini CLI's files, whichever of the three it is.
pub fn turns(text: &str) -> Vec<Turn> {
    let messages = match serde_json::from_str::<Value>(text) {
        // logs.json: the prompts alone.
        Ok(Value::Array(entries)) => entries,
        // An older session: the whole record.
        Ok(Value::Object(record)) => record
            .get("messages")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        _ => replayed(text),
    };
    let mut turns: Vec<Turn> = Vec::new();
    for message in &messages {
        match message.get("type").and_then(Value::as_str) {
            Some("user") => {
                if let Some(turn) = user_turn(message) {
                    turns.push(turn);
                }
            }
            Some("gemini") => {
                if let Some(turn) = turns.last_mut() {
                    for file in tool_files(message) {
                        turn.named(file);
                    }
                }
            }
            _ => {}
        }
    }
    last_turns(turns)
}

/// The messages of a JSONL session as Gemini CLI replays it: records in order, a `$set` of
/// `messages` replacing them all, a `$rewindTo` dropping the message it names and the rest.
fn replayed(text: &str) -> Vec<Value> {
    let mut messages: Vec<Value> = Vec::new();
    for record in json_lines(text) {
        if let Some(id) = record.get("$rewindTo").and_then(Value::as_str) {
            let at = messages
                .iter()
                .position(|m| m.get("id").and_then(Value::as_str) == Some(id));
            messages.truncate(at.unwrap_or(0));
        } else if let Some(set) = record.get("$set") {
            if let Some(all) = set.get("messages").and_then(Value::as_array) {
                messages = all.clone();
            }
        } else if record.get("id").and_then(Value::as_str).is_some() {
            messages.push(record);
        } else if let Some(all) = record.get("messages").and_then(Value::as_array) {
            // A metadata line that carries the whole record.
            messages.extend(all.iter().cloned());
        }
    }
    messages
}

/// A `user` message (or a logs.json entry) as the user's turn; a slash command is none.
fn user_turn(message: &Value) -> Option<Turn> {
    let when = parse_rfc3339(message.get("timestamp")?.as_str()?)?;
    let text = match (message.get("content"), message.get("message")) {
        (Some(Value::Object(part)), _) => part
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        (Some(content), _) => content_text(content, &["text"]),
        (None, Some(Value::String(text))) => text.clone(),
        _ => return None,
    };
    let text = text.trim();
    (!text.is_empty() && !text.starts_with('/')).then(|| Turn::new(When::At(when), text))
}

/// The paths a `gemini` message's tool calls name (`file_path`, `absolute_path`, `path`).
fn tool_files(message: &Value) -> Vec<&str> {
    message
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|call| call.get("args"))
        .flat_map(|args| {
            ["file_path", "absolute_path", "path"]
                .into_iter()
                .filter_map(|key| args.get(key).and_then(Value::as_str))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAT: &str = include_str!(
        "../../../../tests/fixtures/sessions/gemini-cli/chats/session-2025-08-20T14-26-a1b2c3d4.jsonl"
    );
    const LOGS: &str = include_str!("../../../../tests/fixtures/sessions/gemini-cli/logs.json");

    #[test]
    fn a_chat_gives_the_users_turns_after_its_rewind_with_the_files_they_touched() {
        let turns = turns(CHAT);
        let texts: Vec<&str> = turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Cache the exchange rates for an hour, the rates API bills us per call",
                "Invalidate the cache when the currency list changes"
            ]
        );
        assert_eq!(turns[0].when, When::At(1_755_700_000));
        assert_eq!(turns[0].files, ["/home/ana/shop/src/rates.rs"]);
        assert_eq!(turns[1].files, ["src/currencies.rs"]);
    }

    #[test]
    fn the_project_folder_is_the_registrys_name_or_the_paths_hash() {
        assert_eq!(
            hashed_folder("/home/ana/shop"),
            "549df1e2e63b588ddd2563983ddfa9ff29a133ae610f24e9f73048e8cd15c502"
        );
        let registry = r#"{"projects": {"/home/ana/shop": "shop", "/home/ana/shop/web": "web",
            "/home/ana/other": "other", "/home/ana/shop/x": "../escape"}}"#;
        let here = |p: &str| p == "/home/ana/shop" || p.starts_with("/home/ana/shop/");
        assert_eq!(registered_folders(registry, &here), ["shop", "web"]);
        assert!(registered_folders("not json", &here).is_empty());
    }

    #[test]
    fn logs_json_gives_the_prompts_and_an_older_whole_record_reads_too() {
        let texts: Vec<String> = turns(LOGS).into_iter().map(|t| t.text).collect();
        assert_eq!(
            texts,
            ["Cache the exchange rates for an hour, the rates API bills us per call"]
        );
        let whole = serde_json::json!({
            "sessionId": "s", "projectHash": "h", "startTime": "2025-08-20T14:26:40Z",
            "messages": [
                {"id": "1", "type": "user", "timestamp": "2025-08-20T14:26:40Z",
                 "content": [{"text": "Keep the old API working for one more release"}]},
                {"id": "2", "type": "gemini", "timestamp": "2025-08-20T14:26:45Z",
                 "content": "Sure.", "toolCalls": [{"name": "write_file", "args": {"file_path": "api.rs"}}]}
            ]
        });
        let turns = turns(&whole.to_string());
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].files, ["api.rs"]);
    }
}
