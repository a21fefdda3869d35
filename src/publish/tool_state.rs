//! A forge's tool as `iris doctor` reports it: on PATH or not, its version, and whether it is
//! logged in, each asked as every run of it is (`Runner`: prompts off, a deadline).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Forge;
use super::commands;
use super::run::Runner;

/// What was learnt of a forge's tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolState {
    /// Not on PATH.
    Missing,
    /// On PATH.
    Found {
        /// Where.
        program: PathBuf,
        /// The first line `--version` printed, or why there was none.
        version: Result<String, String>,
        /// Whether `auth status` says it is logged in (its words when it is not); `None`
        /// when it was not asked.
        login: Option<Result<(), String>>,
    },
}

/// The forge's tool on PATH, asked for its version and, when `ask_login`, whether it is
/// logged in; each run in `dir` within `timeout`.
pub fn tool_state(dir: &Path, forge: Forge, ask_login: bool, timeout: Duration) -> ToolState {
    let runner = Runner {
        timeout,
        ..Runner::in_repo(dir)
    };
    let Ok(program) = runner.require(forge) else {
        return ToolState::Missing;
    };
    let version = runner
        .run(forge, &commands::version(forge))
        .map(|said| said.lines().next().unwrap_or_default().trim().to_string())
        .map_err(|e| e.0);
    let login = ask_login.then(|| {
        runner
            .run(forge, &commands::auth_status(forge))
            .map(|_| ())
            .map_err(|e| e.0)
    });
    ToolState::Found {
        program,
        version,
        login,
    }
}
