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
    Artifact {
        /// The artifact opened.
        kind: ArtifactKind,
        /// Its text as the studio has it now.
        text: String,
    },
    /// A file of the repository (relative to its root), at a line (1-based).
    File {
        /// The file, relative to the repository's root.
        path: String,
        /// The line the editor opens at (1-based).
        line: u32,
    },
    /// The message of group `group` (0-based) of the split plan.
    SplitMessage {
        /// The group (0-based) whose message it is.
        group: usize,
        /// The message as the plan has it now.
        text: String,
    },
}

/// Work `update` asks of the shell: git, files, Iris, the terminal. Each result comes back as
/// an [`crate::action::Action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// The studio steps aside for the user's editor (the loop carries this out: it owns the
    /// terminal).
    EditExternally(EditTarget),
    /// Puts `text` on the clipboard through the terminal (OSC 52); the loop writes it, as it
    /// owns the terminal. `what` names it for the notice.
    CopyToClipboard {
        /// The text copied.
        text: String,
        /// What it is, for the notice (`commit message`, `src/lib.rs:3-9`).
        what: String,
    },
    /// The PR description published as the branch's pull/merge request (`base` its target,
    /// None: the tool's choice), or the review posted as a comment on it.
    Publish {
        /// The artifact published: the PR description or the review.
        kind: ArtifactKind,
        /// Its text as it is now (a review without the findings folded away).
        text: String,
        /// The branch the pull request goes into (the range's start).
        base: Option<String>,
        /// The range's end when one was picked: in a jj workspace, the change whose bookmark
        /// the pull request comes from (git's comes from the branch checked out).
        to: Option<String>,
    },
    /// Builds the first request Iris would send for `kind` (over `range` for the range
    /// modes) and sends nothing: its preview comes back as [`crate::action::Action::RequestShown`].
    ShowRequest {
        /// The artifact whose request is built.
        kind: ArtifactKind,
        /// (FROM, TO) for the range modes; `None`: the staged changes.
        range: Option<(String, String)>,
        /// For one layer of a stack: the stack and which layer, which the request carries.
        stack: Option<iris_core::stack::InStack>,
    },
    /// Reads the stack of branches the checked-out branch is in, over `base`.
    LoadStack {
        /// The branch the stack sits on (the PR range's start).
        base: String,
    },
    /// Publishes the stack: each layer's PR/MR opened into the one below where it has none,
    /// every one's stack list refreshed, a layer's text re-written where it has one here.
    PublishStack {
        /// The studio's id for the task, when Iris first writes the layers without a
        /// description (None: every layer has one, nothing is written).
        task: Option<u64>,
        /// The stack, bottom layer first.
        stack: iris_core::stack::Stack,
        /// Each layer's description as the studio has it ("" for one not written).
        texts: Vec<String>,
    },
    /// Looks for model servers on this machine (setup).
    ProbeServers,
    /// Writes setup's choice into the user's config file and starts Iris with it.
    WriteSetup {
        /// The provider and model the user chose, with its address and key if given.
        choice: Choice,
    },
    /// Reads the repository's status again: the staged files ranked first, then every
    /// changed path.
    LoadStatus,
    /// Reads a changed file's diff for the diff pane: its staged part, then its unstaged part.
    LoadDiff {
        /// The file, relative to the repository's root.
        path: String,
    },
    /// The repository's files, for explore mode.
    LoadTree,
    /// A file's content and history, for the code view.
    OpenFile {
        /// The file, relative to the repository's root.
        path: String,
    },
    /// The commits of the range; `from` None means the mode's default.
    LoadCommits {
        /// The range mode that shows them.
        mode: Mode,
        /// Where the range starts (a branch, tag or commit).
        from: Option<String>,
        /// Where it ends; `None` means HEAD.
        to: Option<String>,
    },
    /// One commit's changes, shown in the diff pane.
    LoadCommitDiff {
        /// The commit's id.
        id: String,
    },
    /// Iris explains lines of a file from their history.
    ExplainLines {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The file and the lines selected.
        asked: LinesAsked,
    },
    /// Iris reads a file for its intent and responsibility blocks.
    ExplainFile {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The file open in the code view, relative to the repository's root.
        path: String,
    },
    /// One commit's changes, shown in explore's code view.
    ShowCommit {
        /// The commit's id.
        id: String,
    },
    /// Iris writes an artifact; `range` is (FROM, TO) for the range modes.
    Generate {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The artifact to write.
        kind: ArtifactKind,
        /// (FROM, TO) for the range modes; `None`: the staged changes.
        range: Option<(String, String)>,
        /// For one layer of a stack: the stack and which layer, which the request carries.
        stack: Option<iris_core::stack::InStack>,
    },
    /// `count` alternatives to the artifact, written in parallel.
    Alternatives {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The artifact they are alternatives to.
        kind: ArtifactKind,
        /// How many to write.
        count: usize,
    },
    /// A chat turn about the artifact; Iris may replace it through her update tool.
    Chat {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The artifact talked about.
        kind: ArtifactKind,
        /// The conversation before this message.
        history: Vec<ChatMessage>,
        /// What the user just wrote.
        message: String,
        /// The artifact's text as it stands in the editor.
        artifact: String,
    },
    /// Stops Iris' task (Esc); its late result is dropped.
    Cancel {
        /// The task to stop.
        task: u64,
    },
    /// Stages a file's changes.
    Stage {
        /// The file, relative to the repository's root.
        path: String,
    },
    /// Takes a file's changes out of the index.
    Unstage {
        /// The file, relative to the repository's root.
        path: String,
    },
    /// Stages every change of the working tree.
    StageAll,
    /// Takes everything out of the index.
    UnstageAll,
    /// Hunk `hunk` (0-based, counted in the file's unstaged diff) goes into the index.
    StageHunk {
        /// The file, relative to the repository's root.
        path: String,
        /// The hunk's place among the file's unstaged hunks (0-based).
        hunk: usize,
    },
    /// Hunk `hunk` (0-based, counted in the file's staged diff) leaves the index.
    UnstageHunk {
        /// The file, relative to the repository's root.
        path: String,
        /// The hunk's place among the file's staged hunks (0-based).
        hunk: usize,
    },
    /// Commits the staged changes with `message`; `written` is the text Iris last wrote for
    /// the commit (the shell remembers it for `iris eval --accepted`).
    Commit {
        /// The commit message, as the user left it.
        message: String,
        /// The message as Iris last wrote it, if she did.
        written: Option<String>,
        /// Whether to amend the last commit and skip the hooks.
        flags: CommitFlags,
    },
    /// Saves an artifact's text and versions.
    SaveDraft {
        /// The artifact saved.
        kind: ArtifactKind,
        /// Its text and versions.
        draft: Draft,
    },
    /// Removes an artifact's saved draft (after its commit).
    ClearDraft {
        /// The artifact whose draft goes.
        kind: ArtifactKind,
    },
    /// Reads the change (the index's and the working tree's) and has Iris plan its split.
    PlanSplit {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
    },
    /// A chat turn about the split plan; Iris may replace it through `update_split`.
    SplitChat {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The units (hunks, files) the change was cut into.
        units: Vec<iris_core::split::Unit>,
        /// The change's diff, file by file, that the units come from.
        files: Vec<iris_core::change::FileDiff>,
        /// The plan as it stands.
        plan: iris_core::split::SplitPlan,
        /// The conversation about the plan before this message.
        history: Vec<ChatMessage>,
        /// What the user just wrote.
        message: String,
    },
    /// Commits the plan's groups in order, if the change still has exactly `units`.
    ApplySplit {
        /// The units the plan was made for.
        units: Vec<iris_core::split::Unit>,
        /// The groups to commit, each with its message.
        plan: iris_core::split::SplitPlan,
    },
    /// Restores the state from before the last split.
    UndoSplit,
    /// Has Iris write commit `commit`'s message anew from its own change (replayed over its
    /// parent).
    WriteReword {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The commit's full id.
        commit: String,
    },
    /// Gives commit `commit` the message `message`, nothing else changed (`iris reword`).
    ApplyReword {
        /// The commit's full id.
        commit: String,
        /// Its new message.
        message: String,
    },
    /// The user's answer to a tool call waiting for approval.
    Answer {
        /// Where the answer goes: the call waiting for it.
        reply: Reply,
        /// Allowed once, for the session, or denied.
        decision: Decision,
    },
}
