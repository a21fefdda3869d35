//! What `update` asks the outside world to do; the runner carries it out off the UI thread.

use super::state::{ChatMessage, CommitFlags, Mode};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    LoadStatus,
    LoadDiff {
        path: String,
    },
    Generate {
        task: u64,
        mode: Mode,
    },
    Chat {
        task: u64,
        mode: Mode,
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
    StageHunk {
        path: String,
        hunk: usize,
    },
    Commit {
        message: String,
        flags: CommitFlags,
    },
    SaveDraft {
        mode: Mode,
        text: String,
    },
    ClearDraft {
        mode: Mode,
    },
}
