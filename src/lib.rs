//! Iris Studio: the prose around your code changes.
//!
//! The binary `iris` is a thin shell over this library: [`cli`] parses the command line and hands
//! over to the capability modules.

// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod agent;
pub mod change;
pub mod cli;
pub mod clipboard;
pub mod commit_rules;
pub mod config;
pub mod git;
pub mod language;
pub mod pr_template;
pub mod process;
pub mod publish;
pub mod secrets;
pub mod setup;
pub mod studio;
pub mod ticket;
pub mod types;
