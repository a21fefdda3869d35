//! The agent's vocabulary, as plain data: what a run reports ([`AgentEvent`]), its progress
//! folded from those events ([`Progress`]), what a tool may do ([`Risk`], [`SafetyMode`]), the
//! questions it asks the user ([`ApprovalRequest`], [`Decision`]) and what a question about
//! lines of code is and gets back ([`LinesAsked`], [`Explained`]).
//!
//! The runtime (`iris-agent`) speaks it, and the command line and the studio read it, so
//! neither needs the runtime to name what it shows.

mod events;
mod explain;
pub mod progress;
mod safety;

pub use events::AgentEvent;
pub use explain::{BlamedCommit, Explained, LinesAsked};
pub use progress::Progress;
pub use safety::{ApprovalRequest, Ask, Decision, Reply, Risk, SafetyMode};
