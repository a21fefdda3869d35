//! The README's quick start, run as written on a fresh repository with a change to commit: a
//! new user's first minutes. Its lines are read from the README, so a quick start that drifts
//! from the binary fails here. The provider is the fake, as a local Ollama (what `iris config
//! init` finds first); the studio runs in a pseudo-terminal.

use std::time::Duration;

use crate::common::agent::{changed_repo, commit_json, shell};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::pty::PtyProgram;
use crate::common::{Iris, TestRepo, stderr, stdout};

const README: &str = include_str!("../README.md");

/// The commands of the first `sh` block under `## Quick start`, comments dropped.
fn quick_start() -> Vec<String> {
    let section = README
        .split_once("\n## Quick start\n")
        .expect("the README has a Quick start")
        .1;
    let block = section
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("the Quick start has a sh block")
        .0;
    block
        .lines()
        .map(|line| line.split_once(" #").map_or(line, |(command, _)| command))
        .map(|line| line.trim().to_string())
        .filter(|line| !line.is_empty())
        .collect()
}

/// The studio, `iris` alone in the repository, on a terminal: it opens, shows the repository
/// and quits on `q`.
fn studio(repo: &TestRepo, env: &[(&'static str, String)]) {
    let mut command = repo.isolated_iris(&[]);
    command.envs(env.iter().map(|(k, v)| (k, v)));
    let mut program = PtyProgram::spawn(command, 120, 40);
    let opened = program.wait_for(Duration::from_secs(20), |screen| {
        screen.contains("Files (2)")
    });
    assert!(
        opened.is_some(),
        "the studio did not open:\n{}",
        program.text()
    );
    program.send(b"q");
    let status = program.wait_exit(Duration::from_secs(10));
    assert!(
        status.is_some_and(|s| s.success()),
        "the studio did not quit on q: {status:?}\n{}",
        program.text()
    );
}

#[test]
fn the_quick_start_runs_as_written() {
    let lines = quick_start();
    assert!(
        lines.len() >= 4,
        "a quick start of a few commands: {lines:?}"
    );
    let repo = changed_repo();
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("Add two()", "Adds two(), next to one().")),
        Step::text(commit_json("Add two()", "Adds two(), next to one().")),
    ]);
    // Nothing is configured: only the address of the "local" server, which config init asks.
    let env = vec![("OLLAMA_HOST", fake.base_url())];
    for line in &lines {
        let said = match line.as_str() {
            "iris" | "iris studio" => {
                studio(&repo, &env);
                continue;
            }
            // Its first choice is the first model of the server on this machine; then yes.
            "iris config init" => shell(&repo, line, &env, "1\ny\n"),
            // Every hunk of the one changed file.
            "git add -p" => shell(&repo, line, &env, "a\n"),
            _ => shell(&repo, line, &env, ""),
        };
        assert!(
            said.status.success(),
            "`{line}` failed ({:?}):\n{}\n{}",
            said.status.code(),
            stdout(&said),
            stderr(&said)
        );
        match line.as_str() {
            "iris config init" => {
                let written = std::fs::read_to_string(repo.user_config_path()).unwrap_or_default();
                assert!(written.contains("provider = \"ollama\""), "{written}");
            }
            "git add -p" => {
                assert_eq!(
                    repo.git(&["diff", "--cached", "--name-only"]),
                    "src/lib.rs\n"
                );
            }
            "iris gen" => assert!(stdout(&said).contains("Add two()"), "{}", stdout(&said)),
            "iris gen --auto-commit" => {
                assert_eq!(repo.git(&["log", "-1", "--format=%s"]).trim(), "Add two()");
            }
            "iris doctor" => assert!(stdout(&said).contains(" 0 problems"), "{}", stdout(&said)),
            other => panic!("the quick start shows `{other}`, which this test does not check yet"),
        }
    }
    // Both messages were asked of the provider, on Ollama's wire.
    assert_eq!(fake.requests().len(), 2, "{:?}", fake.requests());
}
