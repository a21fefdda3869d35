//! A program run in a repository with nothing of the developer's environment: only PATH,
//! a HOME of the benchmark's own, an xterm's TERM and no system git configuration.

use std::path::Path;
use std::process::Command;

pub fn base_command(program: &Path, repo: &Path, home: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .current_dir(repo)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("xdg"))
        .env("TERM", "xterm-256color")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    command
}
