//! Everything that can happen to the studio, as one type: keys and mouse from the terminal,
//! commands, and the results of git and agent work coming back from the effects runner.

use crossterm::event::{KeyEvent, MouseEvent};

use super::command::Command;
use super::state::{CommitRow, FileEntry, Mode};
use crate::state::Draft;
use iris_core::artifact::ArtifactKind;

use iris_core::artifact::intent::FileIntent;
use iris_core::change::FileDiff;
use iris_core::protocol::AgentEvent;
use iris_core::protocol::Explained;

/// A file opened in the code view: its lines (None when binary or too large), its history and
/// a digest of its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenedFile {
    pub lines: Option<Vec<String>>,
    pub history: Vec<CommitRow>,
    pub digest: u64,
}

#[derive(Debug, Clone)]
pub enum Action {
    Key(KeyEvent),
    Mouse(MouseEvent),
    /// The terminal's new size (columns, rows).
    ResizeTo(u16, u16),
    /// Time passes (the spinner turns while Iris works): the time now.
    Tick(std::time::Instant),
    Command(Command),
    /// The staged files ranked by relevance (before the full status, which takes longer).
    /// A first ranking from paths and kinds of change arrives at once; `complete` marks the
    /// one that also weighs changed lines and new functions and types.
    RankingLoaded {
        result: Result<Vec<RankedFile>, String>,
        complete: bool,
    },
    /// The status of the repository, the branch, and whether anything is staged.
    StatusLoaded(Result<RepoSnapshot, String>),
    /// The diff of the selected file (its staged part, then its unstaged part) or of a commit.
    DiffLoaded {
        path: String,
        result: Result<Vec<FileDiff>, String>,
        /// How many of the files are the staged part; `None` for a commit's diff.
        staged: Option<usize>,
    },
    /// The repository's files (explore mode).
    TreeLoaded(Result<Vec<String>, String>),
    /// A file's content and history (explore mode).
    FileOpened {
        path: String,
        result: Result<OpenedFile, String>,
    },
    /// When each line of the open file was last committed (`None`: not yet), for the heat
    /// margin.
    LinesAged {
        path: String,
        result: Result<Vec<Option<i64>>, String>,
    },
    /// Iris' answer about the selected lines of the open file (explore), or why none came.
    LinesExplained {
        task: u64,
        result: Result<Explained, String>,
    },
    /// The open file's intent and responsibility blocks (explore), or why none came.
    FileExplained {
        task: u64,
        result: Result<FileIntent, String>,
    },
    /// A commit's diff, shown in place of the code (explore).
    CommitShown {
        id: String,
        result: Result<Vec<FileDiff>, String>,
    },
    /// The commits of a range, with what its start resolved to.
    CommitsLoaded {
        mode: Mode,
        result: Result<(String, Vec<CommitRow>), String>,
    },
    /// Progress of a running task.
    Agent {
        task: u64,
        event: AgentEvent,
    },
    /// A generation finished: the artifact's text, or why not.
    Generated {
        task: u64,
        kind: ArtifactKind,
        result: Result<String, String>,
    },
    /// Alternatives to the artifact were written: their texts, or why not.
    AlternativesWritten {
        task: u64,
        kind: ArtifactKind,
        result: Result<Vec<String>, String>,
    },
    /// A chat reply finished.
    ChatReplied {
        task: u64,
        result: Result<ChatOutcome, String>,
    },
    /// Iris replaced the artifact through her update tool (lands in the editor at once).
    ArtifactUpdated {
        task: u64,
        kind: ArtifactKind,
        text: String,
    },
    /// A git operation (stage, unstage, commit) finished with a message for the status bar.
    GitDone {
        result: Result<String, String>,
        committed: bool,
    },
    /// The user's editor closed on an artifact: its text as saved, or why it could not run.
    ArtifactEdited {
        kind: ArtifactKind,
        result: Result<String, String>,
    },
    /// The user's editor closed on a file of the repository (or could not run).
    FileEdited {
        path: String,
        result: Result<(), String>,
    },
    /// Text went to the clipboard (what the notice says), or why not.
    Copied(Result<String, String>),
    /// The artifact was published (the tool's summary and the link), or why not.
    Published(Result<String, String>),
    /// The request Iris would send for an artifact, as the preview shows it (`$`).
    RequestShown(Result<String, String>),
    /// The repository's commit rules (commitlint, commitizen), none, or why they cannot be read.
    RulesLoaded(Result<Option<Box<iris_core::commit_rules::CommitRules>>, String>),
    /// The model servers that answered on this machine (setup).
    ServersFound(Vec<iris_config::setup::LocalServer>),
    /// Setup's choice was written and Iris started with it (what to tell the user), or why not.
    SetupWritten(Result<String, String>),
    /// Iris planned how to split the change into commits (the change and her plan), or why
    /// not.
    SplitPlanned {
        task: u64,
        result: Result<Box<crate::state::PlannedChange>, String>,
    },
    /// Iris replaced the split plan through `update_split` (checked already).
    SplitUpdated {
        task: u64,
        plan: iris_core::split::SplitPlan,
    },
    /// A chat reply about the split plan finished.
    SplitChatReplied {
        task: u64,
        result: Result<String, String>,
    },
    /// A step of applying the split: commits made so far, of how many, and what happens.
    SplitStep {
        done: usize,
        of: usize,
        step: String,
    },
    /// Applying the split ended: what to say, and whether the state before was saved (so
    /// `u` can undo it).
    SplitApplied {
        result: Result<String, String>,
        undoable: bool,
    },
    /// The last split was undone (what to say), or why not.
    SplitUndone(Result<String, String>),
    /// The user's editor closed on a split group's message: its text, or why it could not run.
    SplitMessageEdited {
        group: usize,
        result: Result<String, String>,
    },
    /// Drafts saved by an earlier session, offered back.
    DraftsLoaded(Vec<(ArtifactKind, Draft)>),
    /// A draft could not be written.
    DraftFailed(String),
}

/// A staged file's relevance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedFile {
    pub path: String,
    pub kind: iris_core::change::ChangeKind,
    pub relevance: u32,
    /// The kind of secret its added lines hold, if any.
    pub secret: Option<std::sync::Arc<str>>,
}

/// What the file list needs from `git status`.
#[derive(Debug, Clone, Default)]
pub struct RepoSnapshot {
    pub branch: String,
    /// The commit HEAD points at (`None` before the first commit).
    pub head: Option<String>,
    pub files: Vec<FileEntry>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChatOutcome {
    pub reply: String,
}
