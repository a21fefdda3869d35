//! The safety model on the command line: the real `iris gen` on a trusted repository whose
//! analyzer is a script that leaves a mark when it runs, Iris calling `static_analysis` from
//! the fake provider. Without a terminal the call is refused unless the mode allows it; on a
//! terminal (a pseudo-terminal here) the user is asked. What the model read is checked too.
#![cfg(target_os = "linux")]

use crate::common::Iris;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::common::agent::{commit_json, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::pty::PtyProgram;
use crate::common::{TestRepo, fake_bin, path_with, stderr};
use serde_json::json;

const REFUSED: &str = "the user did not allow static_analysis";

/// A Python project with a staged change, and a fake `ruff` that counts its runs in a file.
struct Project {
    repo: TestRepo,
    bin: tempfile::TempDir,
    runs: PathBuf,
}

impl Project {
    fn new() -> Self {
        let repo = TestRepo::new();
        repo.write("pyproject.toml", "[project]\nname = \"demo\"\n");
        repo.write("demo.py", "import os\n");
        repo.commit_all("Initial commit");
        repo.write("demo.py", "import os\nimport sys\n");
        repo.git(&["add", "-A"]);
        // The model runs the linters while writing a commit message.
        repo.offer_every_tool("commit");
        let runs = repo.path().parent().expect("temp dir").join("ruff-runs");
        let bin = fake_bin(&[(
            "ruff",
            &format!(
                "echo ran >> '{}'\necho 'demo.py:2:8: F401 unused'",
                runs.display()
            ),
        )]);
        Self { repo, bin, runs }
    }

    fn runs(&self) -> usize {
        std::fs::read_to_string(&self.runs)
            .map(|text| text.lines().count())
            .unwrap_or(0)
    }

    /// The fake provider's environment, the fake analyzer on PATH and the repository trusted.
    fn env(&self, fake: &FakeProvider) -> Vec<(&'static str, String)> {
        let mut env = openai_env(fake);
        let path = path_with(self.bin.path())
            .into_string()
            .expect("utf-8 PATH");
        env.push(("PATH", path));
        env.push(("IRIS_TRUST_REPO", "1".to_string()));
        env
    }
}

/// Two analyzer calls, then the message.
fn two_calls() -> FakeProvider {
    FakeProvider::start(vec![
        Step::tool_call("static_analysis", json!({})),
        Step::tool_call("static_analysis", json!({})),
        Step::text(commit_json("Import sys", "Imports sys for later use.")),
    ])
}

/// What the model read from each analyzer call, in order.
fn results(fake: &FakeProvider) -> Vec<String> {
    let requests = fake.requests();
    let last = requests.last().expect("requests were made");
    last.tool_results().into_iter().map(|(_, t)| t).collect()
}

#[test]
fn without_a_terminal_a_program_run_is_refused_and_the_run_goes_on() {
    let project = Project::new();
    let fake = two_calls();
    let out = run(&project.repo, &["gen", "--print"], &project.env(&fake));
    assert_eq!(
        success(&out).trim(),
        "Import sys\n\nImports sys for later use."
    );
    assert_eq!(project.runs(), 0, "the analyzer ran without approval");
    let read = results(&fake);
    assert_eq!(read.len(), 2);
    assert!(read.iter().all(|r| r.contains(REFUSED)), "{read:?}");
    assert!(read[0].contains("safety_mode cautious"), "{read:?}");
    let err = stderr(&out);
    assert!(
        err.contains("static_analysis (execute) was not run")
            && err.contains("no terminal to ask on")
            && err.contains("--safety yolo"),
        "{err}"
    );
}

#[test]
fn yolo_runs_without_asking_and_trust_still_decides() {
    let project = Project::new();
    let fake = two_calls();
    let out = run(
        &project.repo,
        &["gen", "--print", "--safety", "yolo"],
        &project.env(&fake),
    );
    success(&out);
    assert_eq!(project.runs(), 2);
    let read = results(&fake);
    assert_eq!(read.len(), 2, "{read:?}");
    assert!(read.iter().all(|r| r.contains("F401")), "{read:?}");

    // Without trust, nothing executes whatever the mode, and nobody is asked.
    let fake = two_calls();
    let mut env = project.env(&fake);
    env.retain(|(k, _)| *k != "IRIS_TRUST_REPO");
    let out = run(&project.repo, &["gen", "--print", "--safety", "safe"], &env);
    success(&out);
    assert_eq!(
        project.runs(),
        2,
        "an untrusted repository ran its analyzer"
    );
    let read = results(&fake);
    assert_eq!(read.len(), 2, "{read:?}");
    assert!(
        read.iter()
            .all(|r| r.contains("this repository is not trusted")),
        "{read:?}"
    );
    assert!(!stderr(&out).contains("was not run"), "{}", stderr(&out));
}

#[test]
fn a_wrong_safety_mode_is_a_clear_error() {
    let project = Project::new();
    let out = project
        .repo
        .iris_env(&["gen", "--safety", "careful"], &[], "");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--safety") && err.contains("safe, cautious, paranoid or yolo"),
        "{err}"
    );
    // A project file cannot lower the guard.
    project
        .repo
        .write(".irisconfig", "safety_mode = \"yolo\"\n");
    let out = project.repo.iris_env(&["gen"], &[], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("safety_mode"), "{}", stderr(&out));
}

/// `iris gen ARGS` on a pseudo-terminal with the project's environment.
fn on_terminal(project: &Project, fake: &FakeProvider, args: &[&str]) -> PtyProgram {
    let mut command = Command::new(env!("CARGO_BIN_EXE_iris"));
    command
        .args(args)
        .current_dir(project.repo.path())
        .env_clear()
        .env("HOME", project.repo.home())
        .env("XDG_CONFIG_HOME", project.repo.home().join("xdg"))
        .env("GIT_CONFIG_GLOBAL", project.repo.git_config())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("TERM", "xterm-256color")
        .env("NO_COLOR", "1");
    for (key, value) in project.env(fake) {
        command.env(key, value);
    }
    PtyProgram::spawn(command, 120, 40)
}

const WAIT: Duration = Duration::from_secs(30);

/// Waits for the `n`th question (1-based) on the terminal.
fn wait_for_question(program: &PtyProgram, n: usize) {
    let asked = program.wait_for(WAIT, |_| {
        String::from_utf8_lossy(&program.bytes())
            .matches("Allow it? [y] once, [s] for this session, [N] no:")
            .count()
            >= n
    });
    assert!(
        asked.is_some(),
        "question {n} never came:\n{}",
        String::from_utf8_lossy(&program.bytes())
    );
}

fn wait_for_exit(program: &mut PtyProgram) {
    let status = program
        .wait_exit(WAIT)
        .unwrap_or_else(|| panic!("iris did not finish:\n{}", program.text()));
    assert!(status.success(), "{status:?}:\n{}", program.text());
}

#[test]
fn on_a_terminal_safe_and_paranoid_ask_each_time_and_the_answers_count() {
    for mode in ["safe", "paranoid"] {
        let project = Project::new();
        let fake = two_calls();
        let mut program = on_terminal(&project, &fake, &["gen", "--print", "--safety", mode]);
        wait_for_question(&program, 1);
        assert!(
            program.text().contains(
                "Iris wants to run static_analysis (execute: runs programs of this repository)"
            ),
            "{mode}: {}",
            program.text()
        );
        program.send(b"y\n");
        wait_for_question(&program, 2);
        program.send(b"n\n");
        wait_for_exit(&mut program);
        assert_eq!(project.runs(), 1, "{mode}");
        let read = results(&fake);
        assert!(read[0].contains("F401"), "{mode}: {read:?}");
        assert!(read[1].contains(REFUSED), "{mode}: {read:?}");
        assert!(read[1].contains(&format!("safety_mode {mode}")), "{read:?}");
        assert!(program.text().contains("Import sys"), "{}", program.text());
    }
}

#[test]
fn on_a_terminal_cautious_asks_once_for_the_run() {
    let project = Project::new();
    let fake = two_calls();
    let mut program = on_terminal(&project, &fake, &["gen", "--print"]);
    wait_for_question(&program, 1);
    program.send(b"y\n");
    wait_for_exit(&mut program);
    let questions = String::from_utf8_lossy(&program.bytes())
        .matches("Allow it?")
        .count();
    assert_eq!(questions, 1);
    assert_eq!(project.runs(), 2);
}
