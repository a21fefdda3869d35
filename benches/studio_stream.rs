//! Benchmark: the studio's CPU use while Iris writes a commit message at 200 tokens a second
//! (the fake provider sends an 8-character piece every 5 ms), as the message forms in the
//! editor. Two replies: a structured one (JSON, the way every artifact is asked for now,
//! shown as it forms) and plain text (shown as it streams). Each is measured for 3 s of
//! streaming in a 120x40 pseudo-terminal, five times; the median is printed.
//!
//! `IRIS_BENCH_BIN=/path/to/iris` measures another build (a baseline) instead of this one.
//! Asserts nothing.
#![allow(clippy::disallowed_methods)] // benchmarks run the real binary and git

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/isolated.rs"]
mod isolated;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use common::pty::PtyProgram;
use isolated::base_command;

const RUNS: usize = 5;
const WAIT: Duration = Duration::from_secs(60);
const MEASURED: Duration = Duration::from_secs(3);

fn main() {
    let bin = std::env::var_os("IRIS_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_iris")));
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    make_repo(&repo);
    let body = prose(7_000);
    let json = format!(
        r#"{{"emoji": null, "title": "Add two() beside one()", "message": "{}"}}"#,
        body.trim_end()
    );
    println!(
        "studio CPU while a commit message streams at 200 tokens/s ({})",
        bin.display()
    );
    let plain_seen = first_words(&body).to_string();
    for (what, reply, seen) in [
        (
            "structured reply (JSON)",
            json,
            "Add two() beside".to_string(),
        ),
        ("plain text reply", body.clone(), plain_seen),
    ] {
        let mut shares: Vec<f64> = (0..RUNS)
            .map(|_| streaming_share(&bin, &repo, &home, &reply, &seen))
            .collect();
        shares.sort_by(f64::total_cmp);
        println!(
            "  {what:<24} median {:.1}% of one core (runs: {})",
            shares[RUNS / 2],
            shares
                .iter()
                .map(|s| format!("{s:.1}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// About `len` characters of varied prose: a reply that repeats itself would be stopped as
/// a runaway before the measurement ends.
fn prose(len: usize) -> String {
    const WORDS: [&str; 24] = [
        "callers", "count", "to", "two", "now", "without", "adding", "one", "itself", "the",
        "function", "returns", "a", "constant", "beside", "its", "sibling", "and", "tests",
        "cover", "both", "paths", "through", "parser",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut out = String::new();
    while out.len() < len {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        out.push_str(WORDS[(seed >> 33) as usize % WORDS.len()]);
        out.push(if (seed >> 20).is_multiple_of(11) {
            '.'
        } else {
            ' '
        });
        if out.ends_with('.') {
            out.push(' ');
        }
    }
    out
}

fn first_words(text: &str) -> &str {
    let end = text.char_indices().nth(20).map_or(text.len(), |(i, _)| i);
    &text[..end]
}

fn make_repo(repo: &Path) {
    std::fs::create_dir_all(repo.join("src")).expect("repo");
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(args)
            .current_dir(repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "A")
            .env("GIT_AUTHOR_EMAIL", "a@example.com")
            .env("GIT_COMMITTER_NAME", "A")
            .env("GIT_COMMITTER_EMAIL", "a@example.com")
            .status()
            .expect("git")
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("src/lib.rs"), "pub fn one() -> u32 {\n    1\n}\n").expect("write");
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "Initial commit"]);
    std::fs::write(
        repo.join("src/lib.rs"),
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    )
    .expect("write");
    git(&["add", "-A"]);
}

/// The studio's CPU over [`MEASURED`] of streaming, as a percentage of one core.
fn streaming_share(bin: &Path, repo: &Path, home: &Path, reply: &str, seen: &str) -> f64 {
    let fake = FakeProvider::start(vec![Step::paced(5, Step::text(reply))]);
    let mut command = base_command(bin, repo, home);
    command
        .args(["studio", "--mode", "commit"])
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", FAKE_API_KEY)
        .env("OPENAI_BASE_URL", fake.openai_base_url())
        .env("IRIS_LOCAL", "false");
    // Drafts are kept per repository: start each run without one.
    let _ = std::fs::remove_dir_all(repo.join(".git/iris"));
    let mut program = PtyProgram::spawn(command, 120, 40);
    // The reply has begun when its first words (or the old count of characters) show.
    program
        .wait_for(WAIT, |s| {
            s.contains(seen) || s.contains("characters so far")
        })
        .unwrap_or_else(|| panic!("nothing streamed:\n{}", program.text()));
    let (cpu0, wall0) = (program.cpu_time(), Instant::now());
    std::thread::sleep(MEASURED);
    let share = 100.0 * (program.cpu_time() - cpu0).as_secs_f64() / wall0.elapsed().as_secs_f64();
    program.send(b"\x1b");
    std::thread::sleep(Duration::from_millis(100));
    program.send(b"q");
    let _ = program.wait_exit(Duration::from_secs(10));
    share
}
