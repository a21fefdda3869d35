//! The runtime: how one request reaches a provider and comes back. [`provider`] builds the
//! client each provider speaks (with [`retry`] of transient failures and `stream_end`'s check
//! that a stream really ended), [`run`] is one bounded run of a model with its tools,
//! [`runaway`] cuts a degenerate stream, [`redact`] passes every request through the secret
//! scanner, [`events`] turns what happens into the run's events and [`safety`] asks the user
//! before a tool of a risk their mode guards. A failure is an [`error::ProviderError`] of a
//! typed [`error::ErrorKind`]; [`deadline`] bounds a whole run.

pub mod budget;
#[cfg(test)]
mod canned;
mod chat_reply;
mod cli;
pub mod deadline;
pub mod dry_run;
pub mod error;
pub mod events;
pub mod models;
mod patience;
pub mod preview;
pub mod provider;
mod rebody;
pub mod redact;
pub mod request;
mod retry;
mod rig_words;
pub mod run;
pub mod run_context;
pub mod runaway;
pub mod safety;
mod stream_end;
pub mod transport_failure;
