//! What a running agent reports: typed events the command line and the studio consume.

use super::safety::ApprovalRequest;
use crate::artifact::ArtifactKind;
use crate::secrets::Finding;

/// One thing that happened while Iris worked.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentEvent {
    /// A phase began ("generating", "reviewing the draft", ...).
    Status(String),
    /// Something the user should know that does not stop the work (the repository's commit
    /// rules cannot be read, a follow-up failed and the first artifact stands).
    Warning(String),
    /// A request to the model was sent.
    Request,
    /// Text the model is writing, as it arrives.
    TextDelta(String),
    /// A reasoning model's thinking, as it arrives: shown as thinking, never part of the
    /// artifact.
    Thinking(String),
    /// What the provider said a reply cost, in US dollars (OpenRouter's `usage.cost`).
    Cost(f64),
    /// The artifact `kind` as far as the reply being streamed has written it (its markdown,
    /// or a chat edit's new text); the finished artifact replaces it.
    Preview {
        /// The artifact being written.
        kind: ArtifactKind,
        /// Its text so far.
        text: String,
    },
    /// A tool call began; `summary` says in a few words what it looks at.
    ToolStarted {
        /// The tool's name (`git_diff`, `file_read`, ...).
        name: String,
        /// What the call looks at, in a few words.
        summary: String,
    },
    /// A tool call ended.
    ToolFinished {
        /// The tool's name.
        name: String,
        /// Whether the tool gave a result rather than an error.
        ok: bool,
    },
    /// Tokens used by one request: input, output, and the input the provider read from its
    /// prompt cache (billed at its cached rate).
    Usage {
        /// Input tokens, cached ones included.
        input: u64,
        /// Output tokens.
        output: u64,
        /// Input tokens read from the prompt cache.
        cached: u64,
    },
    /// The artifact is ready (as markdown).
    Done(String),
    /// The work failed; the text says why.
    Error(String),
    /// A tool call waits for the user's approval (the safety mode asks for its risk).
    Approval(ApprovalRequest),
    /// A secret was found in a request and replaced by a marker before it was sent.
    SecretWithheld(Finding),
}
