//! Error categories and the exit codes they map to.
//!
//! Errors travel as `anyhow::Error`; the top level looks for one of these typed errors
//! in the chain to pick the exit code: 1 general, 2 configuration, 3 git, 4 provider.

use thiserror::Error;

/// A configuration problem: a wrong flag value, a broken config file, a missing key.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// A command line that cannot be carried out as written: an unknown tool, a missing argument.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Exit codes the command line promises.
pub mod exit {
    pub const GENERAL: u8 = 1;
    pub const CONFIG: u8 = 2;
    pub const GIT: u8 = 3;
    pub const PROVIDER: u8 = 4;
}

/// The exit code for an error: the first categorised error found in its chain.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    for cause in err.chain() {
        if cause.is::<crate::git::GitError>() {
            return exit::GIT;
        }
        if cause.is::<crate::agent::ProviderError>() {
            return exit::PROVIDER;
        }
        if cause.is::<ConfigError>()
            || cause.is::<UsageError>()
            || cause.is::<clap::Error>()
            || cause.is::<crate::agent::capability::CapabilityError>()
            || cause.is::<crate::agent::style::UnknownPreset>()
            || cause.is::<crate::studio::theme::ThemeError>()
            || cause.is::<crate::studio::keymap::KeymapError>()
        {
            return exit::CONFIG;
        }
    }
    exit::GENERAL
}

/// One line for the user: the error and its causes, joined, without a backtrace.
pub fn one_line(err: &anyhow::Error) -> String {
    let text = format!("{err:#}");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
