//! The generated repositories the benchmarks share: 20,000 tracked files in 200 directories
//! (source, some docs, config and tests), or a [`Shape`] of any size, and staged changes of
//! any number of their files.
#![allow(dead_code)] // each benchmark uses part of it
#![allow(clippy::disallowed_methods)] // it builds repositories with the real git

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

pub const TRACKED_FILES: usize = 20_000;
const FUNCTIONS_PER_FILE: usize = 20;

/// How many files a generated repository tracks, in how many folders of each kind.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub files: usize,
    pub folders: usize,
}

/// The repository most benchmarks use.
pub const USUAL: Shape = Shape {
    files: TRACKED_FILES,
    folders: 200,
};

/// Source files in 200 directories, with some docs and config among them, committed once.
pub fn generate(repo: &Path) {
    generate_shape(repo, USUAL);
}

/// [`generate`] for any shape.
pub fn generate_shape(repo: &Path, shape: Shape) {
    run(repo, "git", &["init", "-q", "-b", "main"]);
    // No background `gc --auto` repacking while the benchmark measures; then one full repack,
    // so the base reads as a user's repository does (packed), the staged change as loose objects.
    run(repo, "git", &["config", "gc.auto", "0"]);
    for i in 0..shape.files {
        let path = repo.join(shape_path(i, shape));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, content(i, false)).expect("write");
    }
    run(repo, "git", &["add", "-A"]);
    run(repo, "git", &["commit", "-q", "-m", "Generated base"]);
    run(repo, "git", &["repack", "-adq"]);
}

pub fn file_path(i: usize) -> String {
    shape_path(i, USUAL)
}

fn shape_path(i: usize, shape: Shape) -> String {
    let area = i % shape.folders;
    let dir = format!("src/area_{area:03}");
    match i % 20 {
        0 => format!("docs/area_{area:03}/notes_{i}.md"),
        1 => format!("{dir}/settings_{i}.toml"),
        2 => format!("tests/area_{area:03}/test_{i}.rs"),
        _ => format!("{dir}/module_{i}.rs"),
    }
}

/// 20 small functions; the changed version rewrites every body and adds a function,
/// 50 changed lines in all.
fn content(i: usize, changed: bool) -> String {
    let mut out = format!("//! Module {i}.\n\n");
    for j in 0..FUNCTIONS_PER_FILE {
        let body = if changed {
            format!("x * {j} + {i}")
        } else {
            format!("x + {j}")
        };
        let _ = write!(out, "pub fn f_{i}_{j}(x: u64) -> u64 {{\n    {body}\n}}\n");
    }
    if changed {
        out.push_str("\npub fn added(x: u64) -> u64 {\n    let y = x + 1;\n    let z = y * 2;\n    let w = z - 3;\n    let v = w / 4;\n    let u = v % 5;\n    let t = u + 6;\n    t\n}\n");
    }
    out
}

/// Resets to the base commit, then rewrites `count` files spread evenly over the tree and stages them.
pub fn stage_changes(repo: &Path, count: usize) {
    stage_shape_changes(repo, USUAL, count);
}

/// [`stage_changes`] for a repository of any shape.
pub fn stage_shape_changes(repo: &Path, shape: Shape, count: usize) {
    run(repo, "git", &["reset", "-q", "--hard"]);
    let step = shape.files / count;
    for i in (0..shape.files).step_by(step).take(count) {
        std::fs::write(repo.join(shape_path(i, shape)), content(i, true)).expect("write");
    }
    run(repo, "git", &["add", "-A"]);
}

pub fn run(repo: &Path, program: &str, args: &[&str]) -> std::process::Output {
    let out = Command::new(program)
        .args(args)
        .current_dir(repo)
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
