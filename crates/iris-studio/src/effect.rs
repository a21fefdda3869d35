//! What `update` asks the outside world to do; the runner carries it out off the UI thread.

use super::state::{ChatMessage, CommitFlags, Mode};
use crate::state::Draft;
use iris_config::setup::Choice;
use iris_core::artifact::ArtifactKind;
use iris_core::protocol::LinesAsked;
use iris_core::protocol::{Decision, Reply};

/// What the user's own editor opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditTarget {
    /// An artifact's text, which comes back as its new version.
    Artifact { kind: ArtifactKind, text: String },
    /// A file of the repository (relative to its root), at a line (1-based).
    File { path: String, line: u32 },
    /// The message of group `group` (0-based) of the split plan.
    SplitMessage { group: usize, text: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// The studio steps aside for the user's editor (the loop carries this out: it owns the
    /// terminal).
    EditExternally(EditTarget),
    /// Puts `text` on the clipboard through the terminal (OSC 52); the loop writes it, as it
    /// owns the terminal. `what` names it for the notice.
    CopyToClipboard {
        text: String,
        what: String,
    },
    /// The PR description published as the branch's pull/merge request (`base` its target,
    /// None: the tool's choice), or the review posted as a comment on it.
    Publish {
        kind: ArtifactKind,
        text: String,
        base: Option<String>,
    },
    /// Builds the first request Iris would send for `kind` (over `range` for the range
    /// modes) and sends nothing: its preview comes back as [`crate::action::Action::RequestShown`].
    ShowRequest {
        kind: ArtifactKind,
        range: Option<(String, String)>,
    },
    /// Looks for model servers on this machine (setup).
    ProbeServers,
    /// Writes setup's choice into the user's config file and starts Iris with it.
    WriteSetup {
        choice: Choice,
    },
    LoadStatus,
    LoadDiff {
        path: String,
    },
    /// The repository's files, for explore mode.
    LoadTree,
    /// A file's content and history, for the code view.
    OpenFile {
        path: String,
    },
    /// The commits of the range; `from` None means the mode's default.
    LoadCommits {
        mode: Mode,
        from: Option<String>,
        to: Option<String>,
    },
    /// One commit's changes, shown in the diff pane.
    LoadCommitDiff {
        id: String,
    },
    /// Iris explains lines of a file from their history.
    ExplainLines {
        task: u64,
        asked: LinesAsked,
    },
    /// Iris reads a file for its intent and responsibility blocks.
    ExplainFile {
        task: u64,
        path: String,
    },
    /// One commit's changes, shown in explore's code view.
    ShowCommit {
        id: String,
    },
    /// `range` is (FROM, TO) for the range modes.
    Generate {
        task: u64,
        kind: ArtifactKind,
        range: Option<(String, String)>,
    },
    /// `count` alternatives to the artifact, written in parallel.
    Alternatives {
        task: u64,
        kind: ArtifactKind,
        count: usize,
    },
    Chat {
        task: u64,
        kind: ArtifactKind,
        history: Vec<ChatMessage>,
        message: String,
        artifact: String,
    },
    Cancel {
        task: u64,
    },
    Stage {
        path: String,
    },
    Unstage {
        path: String,
    },
    StageAll,
    UnstageAll,
    /// Hunk `hunk` (0-based, counted in the file's unstaged diff) goes into the index.
    StageHunk {
        path: String,
        hunk: usize,
    },
    /// Hunk `hunk` (0-based, counted in the file's staged diff) leaves the index.
    UnstageHunk {
        path: String,
        hunk: usize,
    },
    /// Commits the staged changes with `message`; `written` is the text Iris last wrote for
    /// the commit (the shell remembers it for `iris eval --accepted`).
    Commit {
        message: String,
        written: Option<String>,
        flags: CommitFlags,
    },
    /// Saves an artifact's text and versions.
    SaveDraft {
        kind: ArtifactKind,
        draft: Draft,
    },
    ClearDraft {
        kind: ArtifactKind,
    },
    /// Reads the change (the index's and the working tree's) and has Iris plan its split.
    PlanSplit {
        task: u64,
    },
    /// A chat turn about the split plan; Iris may replace it through `update_split`.
    SplitChat {
        task: u64,
        units: Vec<iris_core::split::Unit>,
        files: Vec<iris_core::change::FileDiff>,
        plan: iris_core::split::SplitPlan,
        history: Vec<ChatMessage>,
        message: String,
    },
    /// Commits the plan's groups in order, if the change still has exactly `units`.
    ApplySplit {
        units: Vec<iris_core::split::Unit>,
        plan: iris_core::split::SplitPlan,
    },
    /// Restores the state from before the last split.
    UndoSplit,
    /// The user's answer to a tool call waiting for approval.
    Answer {
        reply: Reply,
        decision: Decision,
    },
}
