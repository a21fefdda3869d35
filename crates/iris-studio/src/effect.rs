//! What `update` asks the outside world to do; the runner carries it out off the UI thread.

use crate::features::msgs::*;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::protocol::{Decision, Reply};

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
    /// Stops Iris' task (Esc); its late result is dropped.
    Cancel {
        /// The task to stop.
        task: u64,
    },
    /// The user's answer to a tool call waiting for approval.
    Answer {
        /// Where the answer goes: the call waiting for it.
        reply: Reply,
        /// Allowed once, for the session, or denied.
        decision: Decision,
    },
    /// Work for changes (see [`crate::features::changes`]).
    Changes(ChangesFx),
    /// Work for diff (see [`crate::features::diff`]).
    Diff(DiffFx),
    /// Work for explore (see [`crate::features::explore`]).
    Explore(ExploreFx),
    /// Work for why (see [`crate::features::why`]).
    Why(WhyFx),
    /// Work for intent (see [`crate::features::intent`]).
    Intent(IntentFx),
    /// Work for range (see [`crate::features::range`]).
    Range(RangeFx),
    /// Work for generate (see [`crate::features::generate`]).
    Generate(GenerateFx),
    /// Work for chat (see [`crate::features::chat`]).
    Chat(ChatFx),
    /// Work for editor (see [`crate::features::editor`]).
    Editor(EditorFx),
    /// Work for split (see [`crate::features::split`]).
    Split(SplitFx),
    /// Work for reword (see [`crate::features::reword`]).
    Reword(RewordFx),
    /// Work for stack (see [`crate::features::stack`]).
    Stack(StackFx),
    /// Work for publish (see [`crate::features::publish`]).
    Publish(PublishFx),
    /// Work for sessions (see [`crate::features::sessions`]).
    Sessions(SessionsFx),
    /// Work for findings (see [`crate::features::findings`]).
    Findings(FindingsFx),
    /// Work for setup (see [`crate::features::setup`]).
    Setup(SetupFx),
    /// Work for external (see [`crate::features::external`]).
    External(ExternalFx),
}
