//! The studio's state: plain data that `update` changes and the panes draw.

use std::time::Instant;

use tui_textarea::TextArea;

mod rows;

// Each feature keeps its own state beside its messages and update; the whole is here.
pub use crate::features::changes::state::{Changes, FileEntry};
pub use crate::features::diff::state::{DiffRow, DiffView, HunkPlace};
pub use crate::features::editor::draft::Draft;
pub use crate::features::explore::state::{
    Explore, Heat, IntentKey, IntentView, ShownCommit, TreeRow, WhyKey, WhyView,
};
pub use crate::features::findings::state::{Dismissing, Reason};
pub use crate::features::generate::state::{ALTERNATIVES, Alternatives, Version};
pub use crate::features::setup::state::{Setup, SetupFacts, SetupOption, SetupStep};
pub use crate::features::split::state::{Pending, PlannedChange, SplitPhase, SplitView};
pub use crate::features::stack::state::StackView;
use iris_studio_core::artifact::{ArtifactKind, Input};
use iris_studio_core::commit_rules::CommitRules;
use iris_studio_core::protocol::ApprovalRequest;
use iris_studio_core::protocol::progress::Progress;
pub use rows::Rows;

/// What the studio is for at the moment: exploring the repository, or one artifact with its
/// panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Browsing the repository's files, their history and what Iris says about them.
    Explore,
    /// Writing one artifact (a commit message, a review, a PR...) with Iris.
    Artifact(ArtifactKind),
}

impl Mode {
    /// Writing the commit message for the staged change.
    pub const COMMIT: Mode = Mode::Artifact(ArtifactKind::Commit);
    /// Reviewing the staged change.
    pub const REVIEW: Mode = Mode::Artifact(ArtifactKind::Review);
    /// Describing a pull request for a range of commits.
    pub const PR: Mode = Mode::Artifact(ArtifactKind::Pr);
    /// Writing the changelog entry for a range of commits.
    pub const CHANGELOG: Mode = Mode::Artifact(ArtifactKind::Changelog);
    /// Writing the release notes for a range of commits.
    pub const RELEASE_NOTES: Mode = Mode::Artifact(ArtifactKind::ReleaseNotes);

    /// Every mode, in the order of their tabs (and number keys).
    pub const ALL: [Mode; 6] = [
        Mode::Explore,
        Mode::COMMIT,
        Mode::REVIEW,
        Mode::PR,
        Mode::CHANGELOG,
        Mode::RELEASE_NOTES,
    ];

    /// The name on its tab and in pane titles (`Explore`, `Release notes`).
    pub fn title(self) -> &'static str {
        match self {
            Mode::Explore => "Explore",
            Mode::Artifact(kind) => kind.title(),
        }
    }

    /// The name used on the command line (`--mode release-notes`).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Explore => "explore",
            Mode::Artifact(kind) => kind.name(),
        }
    }

    /// The mode a command-line name stands for, if any (the reverse of [`Mode::name`]).
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The artifact the mode writes, if any.
    pub fn artifact(self) -> Option<ArtifactKind> {
        match self {
            Mode::Explore => None,
            Mode::Artifact(kind) => Some(kind),
        }
    }

    /// The panes Tab cycles through, left to right.
    pub fn panes(self) -> &'static [Pane] {
        match self.artifact().map(|k| (k, k.describe().input)) {
            None => &[Pane::Tree, Pane::Code],
            Some((ArtifactKind::Review, _)) => {
                &[Pane::Changes, Pane::Diff, Pane::Findings, Pane::Editor]
            }
            Some((_, Input::Staged)) => &[Pane::Changes, Pane::Diff, Pane::Editor],
            Some((_, Input::Range)) => &[Pane::Commits, Pane::Editor, Pane::Diff],
        }
    }

    /// The list on the left: the changed files, the explore tree or the commits.
    pub fn list_pane(self) -> Pane {
        self.panes()[0]
    }

    /// What the middle shows: the open file's code in explore mode, else a diff.
    pub fn view_pane(self) -> Pane {
        if self == Mode::Explore {
            Pane::Code
        } else {
            Pane::Diff
        }
    }

    /// Whether the mode works on a range of commits (FROM..TO) rather than the staged change.
    pub fn uses_range(self) -> bool {
        self.artifact().is_some_and(ArtifactKind::uses_range)
    }

    /// Whether the mode has an artifact Iris writes.
    pub fn has_artifact(self) -> bool {
        self != Mode::Explore
    }
}

/// A pane that can have the focus, named for what it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    /// The changed files (commit and review modes).
    Changes,
    /// The repository's file tree (explore mode).
    Tree,
    /// The commits of the range (PR, changelog and release notes modes).
    Commits,
    /// The diff of the selected file or commit.
    Diff,
    /// The open file (explore mode).
    Code,
    /// The artifact's text.
    Editor,
    /// The message being written to Iris, under the chat's conversation.
    ChatInput,
    /// The FROM..TO input line of the range picker.
    RangeInput,
    /// The review's findings (review mode).
    Findings,
    /// Iris' answer about the selected lines, beside the code (explore mode).
    Answer,
    /// The open file's intent and responsibility blocks, beside the code (explore mode).
    Blocks,
}

impl Pane {
    /// Panes where keys type text.
    pub fn takes_text(self) -> bool {
        matches!(self, Pane::Editor | Pane::ChatInput | Pane::RangeInput)
    }
}

/// One commit of the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitRow {
    /// The full hash, to ask git for the commit's diff.
    pub id: String,
    /// The abbreviated hash the list shows.
    pub short_id: String,
    /// The first line of the commit message.
    pub summary: String,
    /// The author's name.
    pub author: String,
    /// The author date as `YYYY-MM-DD`, in the author's time zone.
    pub date: String,
}

/// The range the PR, changelog and release notes cover.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommitRange {
    /// `None` until the user picks one: the default branch for a PR, the latest tag for a
    /// changelog or release notes.
    pub from: Option<String>,
    /// `None` means HEAD.
    pub to: Option<String>,
    /// What `from` resolved to, once the commits are loaded.
    pub resolved_from: Option<String>,
    /// The commits in `from..to`, as git's log lists them.
    pub commits: Vec<CommitRow>,
    /// The commit under the cursor in the commits list.
    pub selected: usize,
    /// Git is listing the commits (the status line shows a spinner).
    pub loading: bool,
    /// The mode the commits were loaded for (the default `from` depends on it).
    pub loaded_for: Option<Mode>,
    /// The new message Iris wrote for a commit, waiting for the user to say yes (`r`).
    pub reword: Option<Rewording>,
    /// PR mode asked whether the branch is in a stack (once: the answer is `State::stack`).
    pub stack_read: bool,
}

/// Each artifact's editor, by kind.
pub type Artifacts = std::collections::BTreeMap<ArtifactKind, ArtifactBuffer>;

/// A commit's message as it is and as Iris wrote it anew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewording {
    /// The commit's full id.
    pub id: String,
    /// Its short id.
    pub short_id: String,
    /// Its message as recorded.
    pub old: String,
    /// The message Iris wrote from its change.
    pub new: String,
}

impl CommitRange {
    /// The range's end as git takes it: the chosen one, or `HEAD`.
    pub fn to_or_head(&self) -> &str {
        self.to.as_deref().unwrap_or("HEAD")
    }
}

/// A text input whose long lines wrap at words (a markdown paragraph, a message typed to
/// Iris) instead of scrolling out of sight.
pub fn text_input(lines: Vec<String>) -> TextArea<'static> {
    let mut input = TextArea::new(lines);
    input.set_wrap_mode(tui_textarea::WrapMode::WordOrGlyph);
    input
}

/// An artifact's text and every version of it: what Iris wrote, what the user typed.
pub struct ArtifactBuffer {
    /// The text area the user edits; it holds the current text.
    pub editor: TextArea<'static>,
    /// Earlier texts, oldest first; the editor holds the current one.
    pub versions: Vec<String>,
    /// Where in `versions` the user has stepped back to (`versions.len()` = the editor's text).
    pub position: usize,
    /// The text last saved as a draft (to know whether there are unsaved changes).
    pub saved: String,
    /// The text Iris last wrote here (by writing it or through her update tool).
    pub by_iris: Option<String>,
    /// What the text was written for (see [`Draft::written_for`]).
    pub written_for: Option<String>,
    /// The rules the text is checked against (the commit message's, when the project has
    /// them), for [`TextFacts::rules`].
    rules: Option<std::sync::Arc<CommitRules>>,
    /// What the editor's frame shows about the text, computed when the text changes.
    facts: TextFacts,
    /// The text is a review: its findings are read from it as it changes.
    review: bool,
}

/// What the editor shows that derives from its text, computed when the text changes so that
/// a frame (a spinner tick, a streamed token) only reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextFacts {
    /// The text is blank (nothing written yet, or only whitespace).
    pub blank: bool,
    /// The title's (first line's) width in cells.
    pub title_width: usize,
    /// The project's commit rules against the text: `None` without rules or a text.
    pub rules: Option<RulesVerdict>,
    /// A review's findings, read from its markdown (empty for the other artifacts).
    pub findings: Vec<iris_studio_core::artifact::FindingBlock>,
}

/// The commit rules against a message: the first rule it breaks (errors before warnings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesVerdict {
    /// Every rule is kept.
    Kept,
    /// A rule is broken.
    Broken {
        /// The first broken rule's name.
        rule: String,
        /// It is an error (not a warning).
        error: bool,
        /// How many other rules are broken.
        more: usize,
    },
}

impl TextFacts {
    /// The facts of `text`, checked against `rules`; a `review`'s findings read from it.
    pub fn of(text: &str, rules: Option<&CommitRules>, review: bool) -> Self {
        let blank = text.trim().is_empty();
        let title = text.split('\n').next().unwrap_or("");
        let rules = rules.filter(|_| !blank).map(|rules| {
            let mut violations = rules.check(text);
            violations.sort_by_key(|v| !v.error);
            let more = violations.len().saturating_sub(1);
            match violations.into_iter().next() {
                None => RulesVerdict::Kept,
                Some(first) => RulesVerdict::Broken {
                    rule: first.rule,
                    error: first.error,
                    more,
                },
            }
        });
        Self {
            blank,
            title_width: iris_studio_core::text::width(title),
            rules,
            findings: match review {
                true => iris_studio_core::artifact::finding_blocks(text),
                false => Vec::new(),
            },
        }
    }
}

impl ArtifactBuffer {
    /// An empty editor for the artifact `kind` (a review's findings are read as it changes).
    pub fn for_kind(kind: ArtifactKind) -> Self {
        Self {
            review: kind == ArtifactKind::Review,
            ..Self::default()
        }
    }

    /// What the editor's frame shows about the text (as of its last change).
    pub fn facts(&self) -> &TextFacts {
        &self.facts
    }

    /// Checks the text against `rules` from now on (`None`: no rules).
    pub fn set_rules(&mut self, rules: Option<std::sync::Arc<CommitRules>>) {
        self.rules = rules;
        self.refresh();
    }

    /// A key typed into the editor.
    pub fn input(&mut self, key: crossterm::event::KeyEvent) {
        if self.editor.input(key) {
            self.refresh();
        }
    }

    /// The facts again, after the text changed.
    pub fn refresh(&mut self) {
        self.facts = TextFacts::of(&self.text(), self.rules.as_deref(), self.review);
    }

    /// The text and its versions, as a draft keeps them.
    pub fn draft(&self) -> Draft {
        Draft {
            text: self.text(),
            versions: self.versions.clone(),
            position: self.position,
            by_iris: self.by_iris.clone(),
            written_for: self.written_for.clone(),
            ..Draft::default()
        }
    }

    /// Back to a saved draft: its text, and its versions to step through.
    pub fn restore(&mut self, draft: Draft) {
        self.set_editor(&draft.text);
        self.position = draft.position.min(draft.versions.len());
        self.versions = draft.versions;
        self.saved = draft.text;
        self.by_iris = draft.by_iris;
        self.written_for = draft.written_for;
    }

    /// Whether the text is Iris' as she wrote it, untouched by the user (the editor keeps
    /// no final newline).
    pub fn untouched(&self) -> bool {
        let text = self.text();
        self.by_iris.as_deref().map(str::trim_end) == Some(text.trim_end())
    }

    /// The editor's current text, its lines joined with `\n`.
    pub fn text(&self) -> String {
        self.editor.lines().join("\n")
    }

    /// Whether the text is blank (nothing written yet, or only whitespace).
    pub fn is_empty(&self) -> bool {
        self.text().trim().is_empty()
    }

    /// Replaces the text, keeping the old one as a version (nothing typed is lost).
    pub fn replace(&mut self, text: &str) {
        let current = self.text();
        if current == text {
            return;
        }
        self.versions.truncate(self.position);
        if !current.trim().is_empty() {
            self.versions.push(current);
        }
        self.position = self.versions.len();
        self.set_editor(text);
    }

    /// Steps back to the previous version; the current text is kept to step forward to.
    pub fn undo(&mut self) -> bool {
        if self.position == 0 {
            return false;
        }
        let current = self.text();
        if self.position == self.versions.len() {
            self.versions.push(current);
        } else {
            self.versions[self.position] = current;
        }
        self.position -= 1;
        let text = self.versions[self.position].clone();
        self.set_editor(&text);
        true
    }

    /// Steps forward to the next version after an undo; `false` when already at the newest.
    pub fn redo(&mut self) -> bool {
        if self.position + 1 >= self.versions.len() {
            return false;
        }
        self.versions[self.position] = self.text();
        self.position += 1;
        let text = self.versions[self.position].clone();
        self.set_editor(&text);
        if self.position + 1 == self.versions.len() {
            // Back at the newest text: it lives in the editor again.
            self.versions.pop();
        }
        true
    }

    fn set_editor(&mut self, text: &str) {
        // No lines at all is one empty line to the text area.
        self.editor = text_input(text.lines().map(str::to_string).collect());
        self.refresh();
    }
}

impl Default for ArtifactBuffer {
    fn default() -> Self {
        Self {
            editor: text_input(Vec::new()),
            versions: Vec::new(),
            position: 0,
            saved: String::new(),
            by_iris: None,
            written_for: None,
            rules: None,
            facts: TextFacts {
                blank: true,
                ..TextFacts::default()
            },
            review: false,
        }
    }
}

/// Who said something in the chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// The person at the keyboard.
    User,
    /// The assistant.
    Iris,
}

/// One message of a conversation with Iris, as the chat shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatMessage {
    /// Who wrote it.
    pub speaker: Speaker,
    /// Its text, as written (wrapped only when drawn).
    pub text: String,
}

/// The chat with Iris, beside the artifact.
pub struct Chat {
    /// The chat's panes are on screen, under the editor.
    pub open: bool,
    /// The conversation so far, oldest first.
    pub messages: Vec<ChatMessage>,
    /// The message the user is writing.
    pub input: TextArea<'static>,
    /// The first conversation row shown when scrolled back; `None` follows the end.
    pub top: Option<usize>,
}

impl Default for Chat {
    fn default() -> Self {
        Self {
            open: false,
            messages: Vec::new(),
            input: text_input(Vec::new()),
            top: None,
        }
    }
}

/// What Iris is doing right now.
#[derive(Debug, Clone)]
pub struct Task {
    /// Tags the agent's events and the cancel request, so a late event of an old task is
    /// told apart.
    pub id: u64,
    /// The mode it was started in, whose artifact it may write.
    pub mode: Mode,
    /// What it is for: which of Iris' jobs, and so where its result goes.
    pub kind: TaskKind,
    /// When it started (the status line shows the time spent).
    pub started: Instant,
    /// What she is doing, the text streamed so far and the tokens spent (one fold of her
    /// events, shared with the command line's progress line).
    pub progress: Progress,
}

/// The kinds of work Iris does for the studio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskKind {
    /// Writing the current mode's artifact.
    Generate,
    /// A reply in the chat beside the artifact.
    Chat,
    /// Explaining the selected lines of the open file (explore).
    Why,
    /// Reading the open file for its intent and responsibility blocks (explore).
    Intent,
    /// Writing alternatives to the artifact to choose from.
    Alternatives,
    /// Planning how to split the change into commits.
    Split,
    /// A chat reply about the split plan.
    SplitChat,
    /// Writing a commit's message anew from its change (PR mode's `r`).
    Reword,
    /// Writing the stack's layers that have no description yet, then publishing them all.
    PublishStack,
}

/// A one-line message in the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// How it is coloured; a warning or an error stays in view over the loading spinner.
    pub level: Level,
    /// The message, on one line (runs of whitespace made single spaces).
    pub text: String,
}

/// How much a notice matters, which sets its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Something to know, in the status bar's own colour.
    Info,
    /// Something done (a commit made, a version picked, a text back from the editor).
    Success,
    /// Something not done, or done with a caveat, that the user can fix.
    Warning,
    /// Something that failed; a long one also shows whole over the panes.
    Error,
}

/// A long text shown whole over the panes: its title, its text and how far it is scrolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The box's title, such as ` The hook said `.
    pub title: &'static str,
    /// The text, whole.
    pub text: String,
    /// The first line shown.
    pub top: usize,
}

impl Report {
    /// The title of a report that names nothing else.
    pub const TITLE: &'static str = " Report (esc closes) ";

    /// `text` under `title`, from its first line.
    pub fn new(title: &'static str, text: impl Into<String>) -> Self {
        Self {
            title,
            text: text.into(),
            top: 0,
        }
    }

    /// `text` under the plain title.
    pub fn plain(text: impl Into<String>) -> Self {
        Self::new(Self::TITLE, text)
    }
}

/// A question waiting for y/n.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Commit with the message (and the amend and no-verify options as set).
    Commit,
    /// Quit although an artifact has unsaved changes.
    Quit,
    /// Open or update the pull request, or post the review.
    Publish,
    /// Give the selected commit the message Iris wrote (`CommitRange::reword`).
    Reword,
    /// Open the stack's missing pull requests and refresh every one's stack list.
    PublishStack,
    /// The artifact's text was written for another change or range than the one now in
    /// front of the user, and the user edited it: have Iris write anew (yes), or keep it.
    Moved(ArtifactKind),
    /// Git found the index locked by another git: run the same work again.
    TryAgain(Box<crate::effect::Effect>),
    /// A coding agent's session of the change is on this machine (the agents named): whether
    /// what the user asked it goes in the requests in this repository.
    Sessions(String),
}

/// Options for the next commit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CommitFlags {
    /// Replace the last commit instead of adding one (`A`).
    pub amend: bool,
    /// Skip the repository's commit hooks (`N`).
    pub no_verify: bool,
}

/// The whole studio: what each pane shows, grouped by pane, and what lies over them.
pub struct State {
    /// The tab the studio is on.
    pub mode: Mode,
    /// The pane that gets the keys.
    pub focus: Pane,
    /// The repository's branch, HEAD and rules, and the options of the next commit.
    pub repo: Repo,
    /// The changed files of commit and review modes.
    pub changes: Changes,
    /// The file tree and the open file of explore mode.
    pub explore: Explore,
    /// The commits the PR, changelog and release notes cover.
    pub range: CommitRange,
    /// The stack of branches PR mode describes layer by layer, when the branch is in one.
    pub stack: Option<StackView>,
    /// The PR draft's layers, restored before the stack is known: handed to their layers
    /// when it is.
    pub layer_drafts: Option<Draft>,
    /// The diff pane: the selected file's or commit's diff and where it is scrolled.
    pub diff: DiffView,
    /// Every artifact's text, kept while the user switches modes.
    pub artifacts: Artifacts,
    /// The review's findings pane.
    pub findings: FindingsView,
    /// The chat with Iris about the current artifact.
    pub chat: Chat,
    /// What Iris is doing, may do and costs.
    pub iris: IrisState,
    /// What lies over the panes while it is open.
    pub overlay: Overlays,
    /// The latest message on the status line, if any.
    pub notice: Option<Notice>,
    /// The terminal's size and how the panes are laid out in it.
    pub screen: Screen,
    /// What the studio learnt as it opened.
    pub start: Startup,
    /// The panes' wrapped text, as of the last action ([`State::refresh_rows`]).
    pub rows: Rows,
    /// The time, as the last action brought it (drawing never reads the clock).
    pub now: Instant,
    /// The studio should close; the shell ends its loop when it sees it.
    pub quit: bool,
}

/// The repository the studio is over, and the options of the next commit to it.
#[derive(Debug, Clone, Default)]
pub struct Repo {
    /// The checked-out branch's name, from the last status.
    pub branch: String,
    /// The commit HEAD points at, from the last status (`None` before the first commit).
    pub head: Option<String>,
    /// In a jj workspace, the working-copy change's short id: the files are `@`'s change,
    /// nothing is staged or unstaged, and a commit is `jj commit`.
    pub jj_change: Option<String>,
    /// The repository's commit rules, which the commit message is checked against as it is
    /// written.
    pub commit_rules: Option<iris_studio_core::commit_rules::CommitRules>,
    /// Amend and no-verify, as toggled for the next commit.
    pub commit_flags: CommitFlags,
}

/// The review's findings pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingsView {
    /// The selected finding.
    pub selected: usize,
    /// Findings the reviewer is less sure of than this (0-100) are folded in the list.
    pub min_confidence: u8,
    /// The folded findings are shown (`f`).
    pub show_unsure: bool,
    /// A finding's file and line to show once that file's diff has loaded.
    pub pending_jump: Option<(String, u32)>,
}

impl Default for FindingsView {
    fn default() -> Self {
        Self {
            selected: 0,
            min_confidence: 70,
            show_unsure: false,
            pending_jump: None,
        }
    }
}

/// Iris' side of the studio: her running task, the tool calls waiting for the user, whether
/// she can work at all and what her model costs.
#[derive(Debug)]
pub struct IrisState {
    /// What she is doing now; one task at a time.
    pub task: Option<Task>,
    /// The id the next task gets (ids start at 1 and are never reused).
    pub next_task_id: u64,
    /// Tool calls of the running task waiting for the user's approval, first asked first.
    pub approvals: std::collections::VecDeque<ApprovalRequest>,
    /// Why AI actions cannot run (no provider configured), if so.
    pub unavailable: Option<String>,
    /// The model's prices, for what a run costs on the status line (None: unknown).
    pub price: Option<iris_studio_config::prices::Price>,
    /// Generate automatically on entering a mode whose artifact is empty.
    pub auto_generate: bool,
    /// The question whether the coding agent's sessions go in the requests was asked.
    pub sessions_asked: bool,
}

impl Default for IrisState {
    fn default() -> Self {
        Self {
            task: None,
            next_task_id: 1,
            approvals: std::collections::VecDeque::new(),
            unavailable: None,
            price: None,
            auto_generate: true,
            sessions_asked: false,
        }
    }
}

/// What lies over the panes: help, a report, a question, the setup, the versions to pick
/// from, the split view, the range picker, why a finding is dismissed.
#[derive(Default)]
pub struct Overlays {
    /// The list of keys for the current mode is shown (`?`).
    pub help: bool,
    /// A long text shown over the panes until esc (a hook's output, a long error, the
    /// request's preview); the arrows scroll it.
    pub report: Option<Report>,
    /// A yes-or-no question waiting for its answer.
    pub confirm: Option<Confirm>,
    /// The setup overlay, while it is open.
    pub setup: Option<Setup>,
    /// Versions of the message to pick from, side by side, while they are shown.
    pub alternatives: Option<Alternatives>,
    /// The split view (commit mode's `x`), while it is open.
    pub split_plan: Option<SplitView>,
    /// The range picker's input line, while it is open.
    pub range_input: Option<TextArea<'static>>,
    /// The question before a finding is dismissed (review mode's `d`), while it is open.
    pub dismiss: Option<Dismissing>,
}

/// The terminal's size and how the panes are laid out in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// Columns and rows, for layout and mouse hits.
    pub size: (u16, u16),
    /// The focused pane has the whole body of the screen.
    pub zoom: bool,
    /// Diffs show side by side (old | new) where the pane is wide enough.
    pub side_by_side: bool,
    /// Where each list is scrolled to.
    pub list_tops: ListTops,
    /// The panes as last laid out, with what they were laid out for (see
    /// [`crate::layout::LayoutKey`]): computed once per change, read by drawing and the mouse.
    pub laid_out: Option<(crate::layout::LayoutKey, crate::layout::PaneRects)>,
}

impl Default for Screen {
    fn default() -> Self {
        Self {
            size: (120, 40),
            zoom: false,
            side_by_side: false,
            list_tops: ListTops::default(),
            laid_out: None,
        }
    }
}

/// What the studio learnt as it opened.
#[derive(Debug, Clone)]
pub struct Startup {
    /// When the studio opened (the loading spinner turns from it).
    pub opened: Instant,
    /// Whether a status has arrived yet (the first one may start Iris on the initial mode).
    pub status_seen: bool,
    /// No `--mode` was given: pick commit or explore once the status is known.
    pub choose_mode: bool,
    /// What setup needs to know of this machine (read at start).
    pub setup_facts: SetupFacts,
}

/// The first row each list shows. A list scrolls only when its selection would leave the
/// view, so moving up from the bottom moves the highlight, not the rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListTops {
    /// The changed files (commit and review modes).
    pub files: usize,
    /// Explore's file tree.
    pub tree: usize,
    /// The commits of the range.
    pub commits: usize,
    /// The review's findings.
    pub findings: usize,
}

impl State {
    /// The studio as it opens in `mode`: nothing loaded yet, the focus on the mode's list.
    pub fn new(mode: Mode) -> Self {
        let artifacts = ArtifactKind::ALL
            .into_iter()
            .map(|kind| (kind, ArtifactBuffer::for_kind(kind)))
            .collect();
        let now = Instant::now();
        Self {
            mode,
            focus: mode.list_pane(),
            repo: Repo::default(),
            changes: Changes::default(),
            explore: Explore::default(),
            range: CommitRange::default(),
            stack: None,
            layer_drafts: None,
            diff: DiffView::default(),
            artifacts,
            findings: FindingsView::default(),
            chat: Chat::default(),
            iris: IrisState::default(),
            overlay: Overlays::default(),
            notice: None,
            screen: Screen::default(),
            start: Startup {
                opened: now,
                status_seen: false,
                choose_mode: false,
                setup_facts: SetupFacts::default(),
            },
            rows: Rows::default(),
            now,
            quit: false,
        }
    }

    /// The project's commit rules (`None`: it has none), which the commit message is checked
    /// against from now on.
    pub fn set_commit_rules(&mut self, rules: Option<CommitRules>) {
        let shared = rules.clone().map(std::sync::Arc::new);
        if let Some(buffer) = self.artifacts.get_mut(&ArtifactKind::Commit) {
            buffer.set_rules(shared);
        }
        self.repo.commit_rules = rules;
    }

    /// The artifact of the current mode.
    pub fn artifact(&self) -> Option<&ArtifactBuffer> {
        self.artifacts.get(&self.mode.artifact()?)
    }

    /// The artifact of the current mode, to change; `None` in explore mode.
    pub fn artifact_mut(&mut self) -> Option<&mut ArtifactBuffer> {
        self.artifacts.get_mut(&self.mode.artifact()?)
    }

    /// The panes Tab cycles through: the mode's, and the chat's input when it is open.
    pub fn visible_panes(&self) -> Vec<Pane> {
        let mut panes = self.mode.panes().to_vec();
        if self.mode == Mode::Explore {
            if self.explore.intent.is_some() {
                panes.push(Pane::Blocks);
            }
            if self.explore.why.is_some() {
                panes.push(Pane::Answer);
            }
        }
        if self.chat.open {
            panes.push(Pane::ChatInput);
        }
        panes
    }

    /// The reply Iris is streaming into the chat, if she is.
    pub fn streaming_reply(&self) -> Option<&str> {
        self.iris
            .task
            .as_ref()
            .filter(|t| t.kind == TaskKind::Chat)
            .map(|t| t.progress.streamed.as_str())
    }

    /// What the studio is still reading from git for the current mode, if anything (the status
    /// line shows it with a spinner).
    pub fn loading(&self) -> Option<&'static str> {
        if self.changes.loading {
            Some(if self.changes.files.is_empty() {
                "reading the repository's status"
            } else {
                "reading the rest of the status"
            })
        } else if self.mode == Mode::Explore && !self.explore.loaded {
            Some("listing the repository's files")
        } else if self.mode.uses_range() && self.range.loading {
            Some("reading the commits")
        } else {
            None
        }
    }

    /// An overlay that takes every key and the mouse while it is open: setup, the versions
    /// to pick from, the split view, or why a finding is dismissed.
    pub fn modal(&self) -> bool {
        self.overlay.setup.is_some()
            || self.overlay.alternatives.is_some()
            || self.overlay.split_plan.is_some()
            || self.overlay.dismiss.is_some()
    }

    /// Something on screen waits for an answer, so every key goes to it rather than to the
    /// keymap: a modal overlay, a question, a tool call waiting for approval.
    pub fn takes_every_key(&self) -> bool {
        self.modal() || self.overlay.confirm.is_some() || !self.iris.approvals.is_empty()
    }

    /// Artifacts whose text differs from their saved draft.
    pub fn unsaved(&self) -> bool {
        let layers = self.stack.iter().flat_map(|view| view.buffers.iter());
        self.artifacts
            .values()
            .chain(layers)
            .any(|a| a.text() != a.saved && !a.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_step_back_and_forward_without_losing_text() {
        let mut buffer = ArtifactBuffer::default();
        buffer.replace("first draft");
        buffer.replace("shorter");
        assert_eq!(buffer.text(), "shorter");
        assert!(buffer.undo());
        assert_eq!(buffer.text(), "first draft");
        assert!(!buffer.undo(), "the empty start is not a version");
        assert!(buffer.redo());
        assert_eq!(buffer.text(), "shorter");
        assert!(!buffer.redo());
        // A new version after stepping back drops the abandoned future, not the text typed.
        buffer.undo();
        buffer.editor.move_cursor(tui_textarea::CursorMove::End);
        buffer.editor.insert_str(" (edited)");
        buffer.replace("third");
        assert!(buffer.undo());
        assert_eq!(buffer.text(), "first draft (edited)");
    }

    #[test]
    fn a_restored_draft_keeps_its_versions_to_step_through() {
        let mut buffer = ArtifactBuffer::default();
        buffer.replace("first");
        buffer.replace("second");
        buffer.undo();
        let mut reopened = ArtifactBuffer::default();
        reopened.restore(buffer.draft());
        assert_eq!(reopened.text(), "first");
        assert!(reopened.redo());
        assert_eq!(reopened.text(), "second");
        assert!(reopened.undo());
        assert_eq!(reopened.text(), "first");
        assert_eq!(reopened.saved, "first");
    }

    #[test]
    fn modes_round_trip_their_names() {
        for mode in Mode::ALL {
            assert_eq!(Mode::from_name(mode.name()), Some(mode));
        }
    }
}
