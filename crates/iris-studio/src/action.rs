//! Everything that can happen to the studio, as one type: keys and mouse from the terminal,
//! commands, and the results of git and agent work coming back from the effects runner.

use crossterm::event::{KeyEvent, MouseEvent};

use super::command::Command;
use super::state::{CommitRow, FileEntry, Mode};
use crate::failure::{Done, Failure, Outcome};
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
    /// The staged files ranked by relevance (before the full status, which takes longer).
    /// A first ranking from paths and kinds of change arrives at once; `complete` marks the
    /// one that also weighs changed lines and new functions and types.
    RankingLoaded {
        /// The staged files, most relevant first, or why they could not be ranked.
        result: Outcome<Vec<RankedFile>>,
        /// Whether this is the final ranking, from the changed lines too.
        complete: bool,
    },
    /// The status of the repository, the branch, and whether anything is staged.
    StatusLoaded(Outcome<RepoSnapshot>),
    /// The diff of the selected file (its staged part, then its unstaged part) or of a commit.
    DiffLoaded {
        /// The file the diff is of, or `commit <short id>`: a diff the user has since left
        /// is dropped.
        path: String,
        /// The diff's files, or why git could not make it.
        result: Outcome<Vec<FileDiff>>,
        /// How many of the files are the staged part; `None` for a commit's diff.
        staged: Option<usize>,
    },
    /// The repository's files (explore mode).
    TreeLoaded(Outcome<Vec<String>>),
    /// A file's content and history (explore mode).
    FileOpened {
        /// The file, relative to the repository's root.
        path: String,
        /// What the code view shows of it, or why it could not be read.
        result: Outcome<OpenedFile>,
    },
    /// When each line of the open file was last committed (`None`: not yet), for the heat
    /// margin.
    LinesAged {
        /// The file, relative to the repository's root.
        path: String,
        /// Per line, the author's time in seconds of its last commit, or why git's blame
        /// failed.
        result: Outcome<Vec<Option<i64>>>,
    },
    /// Iris' answer about the selected lines of the open file (explore), or why none came.
    LinesExplained {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// Her answer, with the commits behind it.
        result: Outcome<Explained>,
    },
    /// The open file's intent and responsibility blocks (explore), or why none came.
    FileExplained {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// What the file is for, and its blocks.
        result: Outcome<FileIntent>,
    },
    /// A commit's diff, shown in place of the code (explore).
    CommitShown {
        /// The commit's id.
        id: String,
        /// Its diff, or why git could not make it.
        result: Outcome<Vec<FileDiff>>,
    },
    /// The commits of a range, with what its start resolved to.
    CommitsLoaded {
        /// The range mode that asked.
        mode: Mode,
        /// The range's start as resolved (a tag or the default branch when none was given)
        /// and its commits, or why git could not list them.
        result: Outcome<(String, Vec<CommitRow>)>,
    },
    /// Progress of a running task.
    Agent {
        /// The task it comes from.
        task: u64,
        /// What she is doing: a phase, streamed text, a tool call, a question for approval.
        event: AgentEvent,
    },
    /// A generation finished: the artifact's text, or why not.
    Generated {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The artifact written.
        kind: ArtifactKind,
        /// Its new text, or why Iris could not write it.
        result: Outcome<String>,
    },
    /// Alternatives to the artifact were written: their texts, or why not.
    AlternativesWritten {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The artifact they are alternatives to.
        kind: ArtifactKind,
        /// The texts to pick from, or why none came.
        result: Outcome<Vec<String>>,
    },
    /// A chat reply finished.
    ChatReplied {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// Her reply, or why none came.
        result: Outcome<ChatOutcome>,
    },
    /// Iris replaced the artifact through her update tool (lands in the editor at once).
    ArtifactUpdated {
        /// The chat task in which she replaced it.
        task: u64,
        /// The artifact replaced.
        kind: ArtifactKind,
        /// Its new text.
        text: String,
    },
    /// A git operation (stage, unstage, commit) finished.
    GitDone {
        /// What was done (`staged src/lib.rs`, git's summary line of the commit), or why not.
        result: Outcome<Done>,
        /// The work asked (a commit's message is cleared once it is made; locked, it can be
        /// tried again).
        tried: Box<crate::effect::Effect>,
    },
    /// The user's editor closed on an artifact: its text as saved, or why it could not run.
    ArtifactEdited {
        /// The artifact edited.
        kind: ArtifactKind,
        /// The text saved in the editor, or why the editor could not run.
        result: Outcome<String>,
    },
    /// The user's editor closed on a file of the repository (or could not run).
    FileEdited {
        /// The file, relative to the repository's root (read again if it is open).
        path: String,
        /// Nothing, or why the editor could not run.
        result: Outcome<()>,
    },
    /// Text went to the clipboard (what the notice says), or why not.
    Copied(Outcome<Done>),
    /// The artifact was published (the tool's summary and the link), or why not.
    Published(Outcome<Done>),
    /// The stack the branch is in (None: it is in none, or is the only layer), or why it
    /// could not be read.
    StackLoaded(Outcome<Option<iris_core::stack::Stack>>),
    /// Iris wrote the description of a stack's layer that had none, on the way to publishing.
    StackLayerWritten {
        /// The publishing task.
        task: u64,
        /// The layer (0 is the bottom one).
        index: usize,
        /// The description.
        text: String,
    },
    /// The stack was published: what happened to each layer, a line each, or why not.
    StackPublished {
        /// The publishing task, when Iris wrote layers for it.
        task: Option<u64>,
        /// What happened to each layer, or why publishing stopped.
        result: Outcome<Vec<String>>,
    },
    /// The request Iris would send for an artifact, as the preview shows it (`$`).
    RequestShown(Outcome<String>),
    /// The repository's commit rules (commitlint, commitizen), none, or why they cannot be read.
    RulesLoaded(Outcome<Option<Box<iris_core::commit_rules::CommitRules>>>),
    /// The model servers that answered on this machine (setup).
    ServersFound(Vec<iris_config::setup::LocalServer>),
    /// Setup's choice was written and Iris started with it (what to tell the user), or why not.
    SetupWritten(Outcome<Done>),
    /// Iris planned how to split the change into commits (the change and her plan), or why
    /// not.
    SplitPlanned {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The change read and Iris' plan for it, or why there is none.
        result: Outcome<Box<crate::state::PlannedChange>>,
    },
    /// Iris replaced the split plan through `update_split` (checked already).
    SplitUpdated {
        /// The split chat's task in which she replaced it.
        task: u64,
        /// The new plan.
        plan: iris_core::split::SplitPlan,
    },
    /// A chat reply about the split plan finished.
    SplitChatReplied {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// Her reply, or why none came.
        result: Outcome<String>,
    },
    /// A step of applying the split: commits made so far, of how many, and what happens.
    SplitStep {
        /// Commits made so far.
        done: usize,
        /// Commits the plan makes in all.
        of: usize,
        /// What is being done now, as the split view says it.
        step: String,
    },
    /// Applying the split ended: what to say, and whether the state before was saved (so
    /// `u` can undo it).
    SplitApplied {
        /// What was committed, or why applying stopped or was refused.
        result: Outcome<Done>,
        /// Whether the state from before was saved, so the split can be undone.
        undoable: bool,
    },
    /// The last split was undone (what to say), or why not.
    SplitUndone(Outcome<Done>),
    /// The user's editor closed on a split group's message: its text, or why it could not run.
    SplitMessageEdited {
        /// The group (0-based) whose message it is.
        group: usize,
        /// The message saved in the editor, or why the editor could not run.
        result: Outcome<String>,
    },
    /// Iris wrote a commit's message anew (`r`), or why not.
    RewordWritten {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The commit's old and new message, or why there is none.
        result: Outcome<crate::state::Rewording>,
    },
    /// The commit was reworded (what to say), or why not.
    Reworded(Outcome<Done>),
    /// Drafts saved by an earlier session, offered back.
    DraftsLoaded(Vec<(ArtifactKind, Draft)>),
    /// A merge, cherry-pick, revert or rebase is in progress (its name), and git prepared
    /// this message for the commit that concludes it.
    GitPrepared {
        /// `merge`, `cherry-pick`, `revert` or `rebase`.
        operation: String,
        /// `.git/MERGE_MSG` without its comment lines.
        message: String,
    },
    /// A draft could not be written.
    DraftFailed(Failure),
}

/// A staged file's relevance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedFile {
    /// The file, relative to the repository's root.
    pub path: String,
    /// How it is staged (added, modified, deleted, renamed, ...).
    pub kind: iris_core::change::ChangeKind,
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
