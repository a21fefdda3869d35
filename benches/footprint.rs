//! Benchmark: the footprint beside git and gitui, on two generated repositories, 20,000 tracked
//! files with 2,000 staged (200 folders) and 100,000 with 10,000 staged (1,000 folders).
//!
//! For each it prints the studio's memory once it has listed and ranked the changed files, and
//! again once it has rested (resident and anonymous, median of interleaved runs, gitui's beside
//! it when installed, read at the same moments), and
//! the git layer beside the git command answering the same question (`git_diff`'s summary,
//! `git_status`, `git_changed_files`; whole processes, medians of interleaved runs, and the
//! ratios). Then the release binary's size beside gitui's. gitui is looked for on PATH and in
//! ~/.cargo/bin (`cargo install gitui --locked`). Run: `cargo bench --bench footprint`.
//! Prints; asserts nothing.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/generated.rs"]
mod generated;
#[path = "support/isolated.rs"]
mod isolated;
#[path = "support/measure.rs"]
mod measure;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::pty::PtyProgram;
use generated::{Shape, USUAL, generate_shape, stage_shape_changes};
use isolated::{base_command, find_gitui};
use measure::{LAYER_RUNS, git_layer, print_layer};

const MEMORY_RUNS: usize = 5;
const WAIT: Duration = Duration::from_secs(120);
/// Time for whatever a program does after its list is on screen (a last refresh, a watcher's
/// walk) before its memory is read.
const SETTLE: Duration = Duration::from_secs(2);
/// Then, read again once the program has rested (the studio gives syntect's compiled patterns
/// back after 5 s without highlighting).
const RESTED: Duration = Duration::from_secs(6);

/// (resident, anonymous) KiB, once settled and once rested.
type Memory = [(u64, u64); 2];

fn main() {
    let iris = PathBuf::from(env!("CARGO_BIN_EXE_iris"));
    let gitui = find_gitui();
    let big = Shape {
        files: 100_000,
        folders: 1_000,
    };
    for (shape, staged) in [(USUAL, 2_000), (big, 10_000)] {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = dir.path().join("repo");
        std::fs::create_dir(&repo).expect("repo dir");
        generate_shape(&repo, shape);
        stage_shape_changes(&repo, shape, staged);
        let home = dir.path().join("home");
        std::fs::create_dir(&home).expect("home");
        println!(
            "\n{} tracked files in {} folders, {staged} staged:",
            shape.files, shape.folders
        );
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..MEMORY_RUNS {
            ours.push(iris_memory(&iris, &repo, &home, staged));
            if let Some(gitui) = &gitui {
                theirs.push(gitui_memory(gitui, &repo, &home));
            }
        }
        for (i, when) in ["after start", "rested"].iter().enumerate() {
            let (rss, anon) = medians(&ours, i);
            println!(
                "  studio memory {when}, median of {MEMORY_RUNS}: iris {:.1} MB resident, {:.1} MB anonymous",
                mb(rss),
                mb(anon)
            );
            if !theirs.is_empty() {
                let (their_rss, their_anon) = medians(&theirs, i);
                println!(
                    "  {:>44} gitui {:.1} MB resident, {:.1} MB anonymous; ratios (iris / gitui) {:.2} and {:.2}",
                    "",
                    mb(their_rss),
                    mb(their_anon),
                    rss as f64 / their_rss as f64,
                    anon as f64 / their_anon as f64
                );
            }
        }
        println!("  the git layer, median of {LAYER_RUNS} interleaved runs:");
        print_layer(&git_layer(&repo, iris.to_str().expect("utf-8 path")));
    }
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    print!("\nrelease binary: iris {:.1} MB", size(&iris));
    match &gitui {
        Some(gitui) => println!(
            ", gitui {:.1} MB (ratio {:.2})",
            size(gitui),
            size(&iris) / size(gitui)
        ),
        None => println!("; gitui not installed (cargo install gitui --locked), no comparison"),
    }
}

/// The studio's memory once its changed files are listed and ranked.
fn iris_memory(iris: &Path, repo: &Path, home: &Path, staged: usize) -> Memory {
    let mut command = base_command(iris, repo, home);
    command.args(["studio", "--mode", "commit"]);
    let program = PtyProgram::spawn(command, 120, 40);
    let listed = format!("Files ({staged}");
    program
        .wait_for(WAIT, |s| s.contains(&listed) && !s.contains("ranking,"))
        .unwrap_or_else(|| {
            panic!(
                "iris never listed and ranked the files:\n{}",
                program.text()
            )
        });
    read_twice(&program)
}

fn read_twice(program: &PtyProgram) -> Memory {
    std::thread::sleep(SETTLE);
    let settled = program.memory_kb();
    std::thread::sleep(RESTED);
    [settled, program.memory_kb()]
}

/// gitui's memory once a changed file is on screen.
fn gitui_memory(gitui: &Path, repo: &Path, home: &Path) -> Memory {
    let program = PtyProgram::spawn(base_command(gitui, repo, home), 120, 40);
    program
        .wait_for(WAIT, |s| {
            [".rs", ".md", ".toml"].iter().any(|e| s.contains(e))
        })
        .unwrap_or_else(|| panic!("gitui listed no files:\n{}", program.text()));
    read_twice(&program)
}

/// The medians of the `i`th readings.
fn medians(runs: &[Memory], i: usize) -> (u64, u64) {
    let mut rss: Vec<u64> = runs.iter().map(|r| r[i].0).collect();
    let mut anon: Vec<u64> = runs.iter().map(|r| r[i].1).collect();
    rss.sort_unstable();
    anon.sort_unstable();
    (rss[rss.len() / 2], anon[anon.len() / 2])
}

fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}
