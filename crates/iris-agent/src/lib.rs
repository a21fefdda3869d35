//! `iris-agent`: Iris, the agent. One [`IrisAgent`] runs every capability on any provider,
//! with the tools it gathers evidence with, and reports what it does as
//! [`AgentEvent`](iris_studio_core::protocol::AgentEvent)s on an [`EventSink`].
//!
//! - [`runtime`]: the providers and the wire, one bounded [`run`], retries, the runaway
//!   guard, redaction of every request, the run's events and the safety of tool calls.
//! - [`capability`]: what Iris is asked to do, one module each (write, candidates, chat, blame,
//!   intent), with [`style`] (how she writes) and [`output`] (reading a model's reply).
//! - [`tools`]: what the model calls to gather evidence and edit the artifact.
//! - [`iris`]: [`IrisAgent`], configured once: the models, the repository, the limits.
//!
//! It may import `iris-core`, `iris-git` and `iris-config`; never the studio or the binary.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod capability;
pub mod error;
pub mod evidence;
pub mod iris;
pub mod issues;
pub mod output;
pub mod runtime;
pub mod style;
pub mod tools;

use std::time::Duration;

pub use error::{Error, Result};
pub use iris::IrisAgent;
pub use runtime::error::{ErrorKind, ProviderError};
pub use runtime::events::{EventHook, EventSink};
pub use runtime::provider::{ProviderKind, ProviderSpec};
pub use runtime::run::{Run, RunOutput, run};

/// How a reply that repeated its instructions instead of writing is reported.
pub(crate) const ECHOED: &str = "the model repeated the instructions instead of writing";

/// How an artifact that could not be read from a reply is reported.
pub(crate) const UNREADABLE: &str = "could not read the artifact from the model's reply";

/// Limits every run shares.
#[derive(Debug, Clone)]
pub struct AgentSettings {
    /// Turns (model replies) the main agent may take.
    pub max_turns: usize,
    /// Output token budget of one reply of the main agent (a capability may ask for less).
    pub max_tokens: u64,
    /// Turns a subagent may take when its call does not ask for a number of its own.
    pub subagent_max_turns: usize,
    /// Longest one subagent may run before its task is reported as timed out.
    pub subagent_timeout: Duration,
    /// Output token budget of a subagent's reply.
    pub subagent_max_tokens: u64,
    /// Longest a whole run may take: every request, tool call and the critic.
    pub run_timeout: Duration,
    /// Ask the provider to keep answers to their JSON schema.
    pub structured_output: bool,
    /// Source reads one file explanation may make.
    pub explain_max_reads: usize,
}

impl Default for AgentSettings {
    fn default() -> Self {
        Self {
            max_turns: 50,
            max_tokens: 16_384,
            subagent_max_turns: 20,
            subagent_timeout: Duration::from_secs(120),
            subagent_max_tokens: 4_096,
            run_timeout: Duration::from_secs(300),
            structured_output: true,
            explain_max_reads: 30,
        }
    }
}
