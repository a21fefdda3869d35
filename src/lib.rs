//! Iris Studio: the prose around your code changes.
//!
//! The binary `iris` is a thin shell over this library: [`cli`] parses the command line and hands
//! over to the capability modules.

pub mod agent;
pub mod cli;
pub mod config;
pub mod context;
pub mod error;
pub mod git;
pub mod studio;
pub mod types;
