//! Claude Code's sessions: `~/.claude/projects/<the working directory, every character that
//! is not a letter or digit turned into '->/<session>.jsonl`, one record a line (`type`,
//! `cwd`, `timestamp`, `message.content`). A `user` record is the user's turn unless it is a
//! tool's result (content blocks of type `tool_result`), a subagent's (`isSidechain`),
//! Claude Code's own (`isMeta`, a compacted summary, a slash command's wrapper); an
//! `assistant` record's `tool_use` blocks name the files the agent read and edited.

use super::{Turn, When, content_text, json_lines, last_turns, parse_rfc3339};
use serde_json::Value;

/// The folder name Claude Code keeps the sessions of the working directory `cwd` in.
pub fn folder_name(cwd: &str) -> String {
    cwd.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The user's turns in a session file's `text`, of records whose `cwd` is `here` (another
/// directory can share the folder name). A record without a `cwd` is of the last one seen.
pub fn turns(text: &str, here: &dyn Fn(&str) -> bool) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    let mut in_here = false;
    for record in json_lines(text) {
        if let Some(cwd) = record.get("cwd").and_then(Value::as_str) {
            in_here = here(cwd);
        }
        if !in_here || flag(&record, "isSidechain") {
            continue;
        }
        match record.get("type").and_then(Value::as_str) {
            Some("user") => {
                if let Some(turn) = user_turn(&record) {
                    turns.push(turn);
                }
            }
            Some("assistant") => {
                if let Some(turn) = turns.last_mut() {
                    for file in tool_files(&record) {
                        turn.named(file);
                    }
                }
            }
            _ => {}
        }
    }
    last_turns(turns)
}

/// A `user` record as the user's turn; `None` for what Claude Code or a tool put there.
fn user_turn(record: &Value) -> Option<Turn> {
    if flag(record, "isMeta")
        || flag(record, "isCompactSummary")
        || record.get("toolUseResult").is_some()
    {
        return None;
    }
    let when = parse_rfc3339(record.get("timestamp")?.as_str()?)?;
    let content = record.get("message")?.get("content")?;
    let text = content_text(content, &["text"]);
    let text = text.trim();
    let wrapper = [
        "<command-",
        "<local-command-",
        "<system-reminder>",
        "<bash-",
        "[Request interrupted",
        "Caveat: The messages below",
    ];
    if text.is_empty() || wrapper.iter().any(|w| text.starts_with(w)) {
        return None;
    }
    Some(Turn::new(When::At(when), text))
}

/// The paths an `assistant` record's `tool_use` blocks name (`file_path`, `path`,
/// `notebook_path`).
fn tool_files(record: &Value) -> Vec<&str> {
    let blocks = record
        .get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array);
    blocks
        .into_iter()
        .flatten()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        .filter_map(|b| b.get("input"))
        .flat_map(|input| {
            ["file_path", "path", "notebook_path"]
                .into_iter()
                .filter_map(|key| input.get(key).and_then(Value::as_str))
        })
        .collect()
}

fn flag(record: &Value, name: &str) -> bool {
    record.get(name).and_then(Value::as_bool) == Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = include_str!("../../../../tests/fixtures/sessions/claude-code.jsonl");

    #[test]
    fn the_folder_name_turns_every_other_character_into_a_dash() {
        assert_eq!(folder_name("/home/ana/my_app.v2"), "-home-ana-my-app-v2");
        assert_eq!(folder_name("/tmp/x/repo"), folder_name("/tmp/x-repo"));
    }

    #[test]
    fn only_the_users_own_words_in_this_directory_are_turns() {
        let here = |cwd: &str| cwd == "/home/ana/shop" || cwd.starts_with("/home/ana/shop/");
        let turns = turns(FIXTURE, &here);
        let texts: Vec<&str> = turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "The checkout times out when the payment provider is slow: give it a retry with \
                 backoff, customers were charged twice last week",
                "Also keep the retry count in the config, ops wants to tune it"
            ]
        );
        assert_eq!(turns[0].when, When::At(1_755_700_000));
        assert_eq!(
            turns[0].files,
            [
                "/home/ana/shop/src/checkout.rs",
                "/home/ana/shop/src/retry.rs"
            ]
        );
        assert_eq!(turns[1].files, ["/home/ana/shop/config/default.toml"]);
    }

    #[test]
    fn a_line_that_is_no_record_is_passed_over() {
        let text = "{\"type\":\"user\",\"cwd\":\"/r\"\nnot json\n{\"type\":\"user\",\"cwd\":\"/r\",\
                    \"timestamp\":\"2025-08-20T14:26:40Z\",\"message\":{\"role\":\"user\",\
                    \"content\":\"why it matters\"}}";
        let turns = turns(text, &|cwd| cwd == "/r");
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].text, "why it matters");
    }
}
