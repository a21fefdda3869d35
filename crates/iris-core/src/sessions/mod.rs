//! What the user asked their coding agent while making a change, in their own words: the
//! sessions of Claude Code ([`claude_code`]), Codex ([`codex`]), Gemini CLI ([`gemini_cli`])
//! and aider ([`aider`]) read into [`Turn`]s, and the few that go in a request chosen and
//! bounded ([`choose`]). The turns are the user's own, never a tool's output or the agent's
//! reply; finding the files (the home directory, the dates) is the application's.

pub mod aider;
pub mod choose;
pub mod claude_code;
pub mod codex;
pub mod gemini_cli;
mod time;

pub use time::{parse_local, parse_rfc3339};

/// A coding agent whose sessions Iris reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    /// Anthropic's Claude Code (`~/.claude/projects/`).
    ClaudeCode,
    /// OpenAI's Codex CLI (`~/.codex/sessions/`).
    Codex,
    /// Google's Gemini CLI (`~/.gemini/tmp/`).
    GeminiCli,
    /// aider (`.aider.chat.history.md` in the repository).
    Aider,
}

impl Agent {
    /// The agent's name as the user knows it.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code",
            Agent::Codex => "Codex",
            Agent::GeminiCli => "Gemini CLI",
            Agent::Aider => "aider",
        }
    }
}

/// When a turn was said, in seconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// At this moment (the agent timed the turn).
    At(i64),
    /// Some time between these two (aider times its sessions, not their turns).
    Between(i64, i64),
}

impl When {
    /// Whether the turn may have been said within `window`.
    pub fn within(self, window: Window) -> bool {
        match self {
            When::At(t) => window.from <= t && t <= window.to,
            When::Between(start, end) => start <= window.to && end >= window.from,
        }
    }

    /// The latest it may have been said: what "newest first" orders by.
    pub fn latest(self) -> i64 {
        match self {
            When::At(t) | When::Between(_, t) => t,
        }
    }
}

/// The time a change was made in, seconds since the epoch, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Its start.
    pub from: i64,
    /// Its end.
    pub to: i64,
}

/// One turn of the user's: what they typed, when, and the files the agent's tool calls
/// named before the user's next turn (as the agent wrote them: absolute, or relative to
/// where it ran).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// When it was said.
    pub when: When,
    /// The user's words.
    pub text: String,
    /// The files the agent's tool calls named in answer.
    pub files: Vec<String>,
}

impl Turn {
    /// A turn said `when`, before any tool call.
    fn new(when: When, text: &str) -> Self {
        Self {
            when,
            text: text.trim().to_string(),
            files: Vec::new(),
        }
    }

    /// Notes that a tool call named `file` (once each).
    fn named(&mut self, file: &str) {
        let file = file.trim();
        if !file.is_empty() && !self.files.iter().any(|f| f == file) && self.files.len() < MAX_FILES
        {
            self.files.push(file.to_string());
        }
    }
}

/// The files one turn keeps at most.
const MAX_FILES: usize = 64;

/// The longest line of a session file that is read: a longer one is a tool's output (a whole
/// file read back), never a turn worth its parsing.
pub const MAX_LINE: usize = 256 * 1024;

/// The turns one session file gives at most: its last ones.
pub const MAX_TURNS: usize = 500;

/// Keeps the last [`MAX_TURNS`] of `turns`.
fn last_turns(mut turns: Vec<Turn>) -> Vec<Turn> {
    if turns.len() > MAX_TURNS {
        turns.drain(..turns.len() - MAX_TURNS);
    }
    turns
}

/// The lines of a JSONL file worth reading: not blank, not over [`MAX_LINE`], each parsed
/// (a line that is no JSON object, such as the first one of a file read from its middle, is
/// passed over).
fn json_lines(text: &str) -> impl Iterator<Item = serde_json::Value> + '_ {
    text.lines()
        .filter(|line| !line.trim().is_empty() && line.len() <= MAX_LINE)
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(serde_json::Value::is_object)
}

/// The files an `apply_patch` text names (`*** Update File: src/a.rs`, `*** Add File:`,
/// `*** Delete File:`, `*** Move to:`), the patch format Codex edits with.
fn patch_files(text: &str) -> impl Iterator<Item = &str> {
    const HEADERS: [&str; 4] = [
        "*** Update File: ",
        "*** Add File: ",
        "*** Delete File: ",
        "*** Move to: ",
    ];
    text.lines().filter_map(|line| {
        let line = line.trim_start();
        HEADERS.iter().find_map(|h| line.strip_prefix(h))
    })
}

/// The text of a message's content: a string, or the `text` of its blocks (`{"type":
/// "text", "text": ...}`, Gemini's parts `{"text": ...}`); blocks of any other type (a tool's
/// result, an image) are no words of the user's.
fn content_text(content: &serde_json::Value, text_types: &[&str]) -> String {
    match content {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Array(blocks) => blocks
            .iter()
            .filter(|b| match b.get("type").and_then(|t| t.as_str()) {
                Some(kind) => text_types.contains(&kind),
                None => true,
            })
            .filter_map(|b| b.get("text").and_then(|t| t.as_str()))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_is_within_a_window_when_it_may_have_been_said_in_it() {
        let window = Window { from: 100, to: 200 };
        assert!(When::At(100).within(window) && When::At(200).within(window));
        assert!(!When::At(99).within(window) && !When::At(201).within(window));
        assert!(When::Between(50, 150).within(window));
        assert!(When::Between(150, 250).within(window));
        assert!(!When::Between(10, 99).within(window));
        assert!(!When::Between(201, 300).within(window));
        assert_eq!(When::Between(1, 7).latest(), 7);
    }

    #[test]
    fn a_patch_names_its_files_and_content_keeps_only_text() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: b.md\n\
                     +hi\n*** Move to: c.rs\n*** End Patch";
        assert_eq!(
            patch_files(patch).collect::<Vec<_>>(),
            ["src/a.rs", "b.md", "c.rs"]
        );
        let blocks = serde_json::json!([
            {"type": "text", "text": "why"},
            {"type": "tool_result", "content": "output"},
            {"text": "part"}
        ]);
        assert_eq!(content_text(&blocks, &["text"]), "why\npart");
        assert_eq!(
            content_text(&serde_json::json!("plain"), &["text"]),
            "plain"
        );
    }
}
