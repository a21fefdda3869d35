//! Everything that can happen to the studio, as one type: keys and mouse from the terminal,
//! commands, and the results of git and agent work coming back from the effects runner.

use crossterm::event::{KeyEvent, MouseEvent};

use super::command::Command;
use super::state::{CommitRow, FileEntry};
use crate::features::msgs::*;

use iris_studio_core::protocol::AgentEvent;

/// A file opened in the code view: its lines (None when binary or too large), its history and
/// a digest of its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenedFile {
    /// The file's lines; `None` when it is binary or too large to show.
    pub lines: Option<Vec<String>>,
    /// The last commits that touched the file, newest first.
    pub history: Vec<CommitRow>,
    /// A hash of the text: what Iris said about the file holds while it is the same.
    pub digest: u64,
}

/// Something that happened to the studio; [`crate::update::update`] turns each into a new
/// state and the effects it asks for.
#[derive(Debug, Clone)]
pub enum Action {
    /// A key no command is bound to here, or one a question on screen takes (typed text,
    /// an answer).
    Key(KeyEvent),
    /// A click, a drag or the wheel.
    Mouse(MouseEvent),
    /// The terminal's new size (columns, rows).
    ResizeTo(u16, u16),
    /// Time passes (the spinner turns while Iris works): the time now.
    Tick(std::time::Instant),
    /// The syntax patterns of lines drawn plain are compiled: they can be drawn in colour.
    SyntaxCompiled,
    /// A key the keymap bound to a command.
    Command(Command),
    /// Something changed outside the studio (a file saved, `git add` in another window), or
    /// the terminal came back into focus: what is shown is read again.
    ChangedOutside,
    /// Watching for changes could not cover the working tree: why (`r` still refreshes).
    WatchLimited(String),
    /// Progress of a running task.
    Agent {
        /// The task it comes from.
        task: u64,
        /// What she is doing: a phase, streamed text, a tool call, a question for approval.
        event: AgentEvent,
    },
    /// What came back for changes (see [`crate::features::changes`]).
    Changes(ChangesMsg),
    /// What came back for diff (see [`crate::features::diff`]).
    Diff(DiffMsg),
    /// What came back for explore (see [`crate::features::explore`]).
    Explore(ExploreMsg),
    /// What came back for why (see [`crate::features::why`]).
    Why(WhyMsg),
    /// What came back for intent (see [`crate::features::intent`]).
    Intent(IntentMsg),
    /// What came back for range (see [`crate::features::range`]).
    Range(RangeMsg),
    /// What came back for generate (see [`crate::features::generate`]).
    Generate(GenerateMsg),
    /// What came back for chat (see [`crate::features::chat`]).
    Chat(ChatMsg),
    /// What came back for editor (see [`crate::features::editor`]).
    Editor(EditorMsg),
    /// What came back for split (see [`crate::features::split`]).
    Split(SplitMsg),
    /// What came back for reword (see [`crate::features::reword`]).
    Reword(RewordMsg),
    /// What came back for stack (see [`crate::features::stack`]).
    Stack(StackMsg),
    /// What came back for publish (see [`crate::features::publish`]).
    Publish(PublishMsg),
    /// What came back for sessions (see [`crate::features::sessions`]).
    Sessions(SessionsMsg),
    /// What came back for findings (see [`crate::features::findings`]).
    Findings(FindingsMsg),
    /// What came back for setup (see [`crate::features::setup`]).
    Setup(SetupMsg),
    /// What came back for external (see [`crate::features::external`]).
    External(ExternalMsg),
}

/// A staged file's relevance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedFile {
    /// The file, relative to the repository's root.
    pub path: String,
    /// How it is staged (added, modified, deleted, renamed, ...).
    pub kind: iris_studio_core::change::ChangeKind,
    /// How much the file matters to the change, in percent.
    pub relevance: u32,
    /// The kind of secret its added lines hold, if any.
    pub secret: Option<std::sync::Arc<str>>,
}

/// What the file list needs from `git status`.
#[derive(Debug, Clone, Default)]
pub struct RepoSnapshot {
    /// Where HEAD is, as the status bar says it: the branch, or `HEAD detached at <id>`.
    pub branch: String,
    /// The commit HEAD points at (`None` before the first commit).
    pub head: Option<String>,
    /// Every changed path: staged, unstaged, untracked or in conflict.
    pub files: Vec<FileEntry>,
    /// In a jj workspace, the working-copy change (`@`) the files are, by its short change
    /// id: jj has no staging area, every file of `@` is in the change (marked staged).
    pub jj_change: Option<String>,
    /// The change being made, as drafts are keyed by it (git: the index's tree on its
    /// parent; jj: `@`'s change id); `None` when it cannot be read.
    pub change_key: Option<String>,
}

/// How a chat turn about an artifact ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChatOutcome {
    /// Iris' reply, for the conversation.
    pub reply: String,
}
