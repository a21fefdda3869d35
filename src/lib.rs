//! The `iris` binary's library: what only the binary needs, on top of the workspace's crates.
//!
//! [`app`] is the application layer every face works on: the workspace opened once (the
//! repository, its configuration, Iris' stores in it, the one handle on git or jj) and Iris
//! as configured. The faces stand side by side over it: [`cli`] parses the command line and
//! hands over to the capabilities of `iris-agent`;
//! [`eval`] measures Iris' commit messages on the repository's own history; [`mcp`] serves
//! Iris' tools to coding agents over the Model Context Protocol; [`publish`]
//! posts to GitHub and GitLab through `gh` and `glab`; [`probe`] finds the model
//! servers on this machine for setup; [`clipboard`] copies through the terminal; [`studio`] is
//! the studio's shell around the pure `iris-studio` crate; [`output`] is what the faces tell
//! the user the same way (exit codes, untrusted text, the dry run's request).
//!
//! The layers below, each its own crate: `iris-core` (pure), `iris-git`, `iris-config`,
//! `iris-agent`, `iris-studio`. Anything may be imported from here; nothing imports this.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod app;
pub mod cli;
pub mod clipboard;
pub mod eval;
pub mod mcp;
pub mod output;
pub mod probe;
pub mod publish;
pub mod studio;
