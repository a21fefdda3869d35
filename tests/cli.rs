//! The command line itself: help, version, exit codes, one-line errors, `--debug` traces.

use crate::common::Iris;

use std::process::Command;

use crate::common::{TestRepo, stderr, stdout};

fn iris_outside_any_repo(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().expect("temp dir");
    Command::new(env!("CARGO_BIN_EXE_iris"))
        .args(args)
        .current_dir(dir.path())
        .env(
            "GIT_CEILING_DIRECTORIES",
            dir.path().parent().expect("parent"),
        )
        .output()
        .expect("run iris")
}

#[test]
fn help_lists_every_command_and_version_works() {
    let out = iris_outside_any_repo(&["--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    assert!(help.contains("tool"), "{help}");
    assert!(help.contains("--debug"));

    let out = iris_outside_any_repo(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out).trim(),
        format!("iris {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_wrong_flag_is_one_line_and_exit_2() {
    let out = iris_outside_any_repo(&["tool", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--no-such-flag"));
}

#[test]
fn outside_a_repository_is_exit_3_without_a_backtrace() {
    let out = iris_outside_any_repo(&["tool", "git_status"]);
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: not inside a git repository"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1);
    assert!(!err.contains("backtrace") && !err.contains("panicked"));
}

#[test]
fn an_unknown_tool_is_a_usage_error_naming_the_tools() {
    let repo = TestRepo::new();
    let out = repo.iris(&["tool", "git_frobnicate", "{}"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("unknown tool 'git_frobnicate'"), "{err}");
    assert!(err.contains("git_diff"));
}

#[test]
fn bad_arguments_come_back_as_text_the_model_can_read() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("one");
    for (tool, args, expect) in [
        (
            "git_diff",
            "{not json",
            "the arguments are not valid JSON for it: key must be a string",
        ),
        (
            "git_diff",
            r#"{"detail":"everything"}"#,
            "unknown variant `everything`",
        ),
        ("git_show", "{}", "missing field `commit`"),
        ("git_log", r#"{"count":"many"}"#, "invalid type"),
    ] {
        let out = repo.iris(&["tool", tool, args]);
        assert_eq!(out.status.code(), Some(1), "{tool} {args}");
        assert!(
            stdout(&out).contains(expect),
            "{tool} {args}: {}",
            stdout(&out)
        );
        assert!(stderr(&out).contains("failed"));
        assert!(!stdout(&out).contains("Error:"), "{}", stdout(&out));
    }
    // A tool's own failure, said once, without rig's wrappers around it.
    let out = repo.iris(&["tool", "file_read", r#"{"path":"nosuch"}"#]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("'nosuch' does not exist in the repository"),
        "{}",
        stdout(&out)
    );
}

/// Usage errors read as such: a missing argument is named, a studio without a terminal
/// says so, a missing plan file exits 2.
#[test]
fn usage_errors_say_what_is_missing_and_exit_2() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("one");
    let out = repo.iris(&["reword"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("the following required arguments were not provided: <REV|A..B>"),
        "{err}"
    );
    assert!(!err.contains(":;"), "{err}");
    let out = repo.iris(&["studio"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the studio needs a terminal"),
        "{}",
        stderr(&out)
    );
    repo.write("a.txt", "b\n");
    repo.commit_all("two");
    let out = repo.iris(&["reword", "HEAD", "--plan", "nosuch.json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nosuch.json"), "{}", stderr(&out));
}

#[test]
fn list_shows_every_tool_with_its_schema() {
    let repo = TestRepo::new();
    let out = repo.iris(&["tool", "--list"]);
    assert!(out.status.success());
    let text = stdout(&out);
    // Every tool is named on a line of its own (the registry's list is checked in
    // workspace_tools.rs); here, the schemas come with their argument names and each tool
    // with its risk.
    assert!(text.lines().any(|l| l == "git_show (read-only)"));
    assert!(text.lines().any(|l| l == "static_analysis (execute)"));
    assert!(text.contains("\"max_output_chars\""));
    assert!(text.contains("\"include_unstaged\""));
}

#[test]
fn debug_traces_each_tool_call_with_its_duration() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("one");
    let out = repo.iris(&["--debug", "tool", "git_log", r#"{"count":1}"#]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(err.contains("tool call"), "{err}");
    assert!(
        err.contains("tool=\"git_log\"") || err.contains("tool=git_log"),
        "{err}"
    );
    assert!(err.contains("count: Some(1)"), "{err}");
    assert!(err.contains("elapsed_ms"), "{err}");
    // Without --debug, stderr stays quiet.
    let quiet = repo.iris(&["tool", "git_log", r#"{"count":1}"#]);
    assert!(stderr(&quiet).is_empty());
}
