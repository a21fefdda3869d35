//! A program run in a repository with nothing of the developer's environment: only PATH,
//! a HOME of the benchmark's own, an xterm's TERM and no system git configuration.
#![allow(clippy::disallowed_methods)] // it runs the program it measures

use std::path::{Path, PathBuf};
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

/// gitui, on PATH or in ~/.cargo/bin (`cargo install gitui --locked`), for comparisons.
#[allow(dead_code)] // not every benchmark compares with gitui
pub fn find_gitui() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths)
                .map(|p| p.join("gitui"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let cargo_bin = std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo/bin/gitui"));
    on_path.into_iter().chain(cargo_bin).find(|p| p.is_file())
}
