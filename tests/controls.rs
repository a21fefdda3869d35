//! Control characters in a model's reply or a repository's file never act on the user's
//! terminal: on a terminal they are shown escaped; a pipe gets the text as it is; a commit
//! message carries none.
#![cfg(target_os = "linux")]

use crate::common::Iris;
use crate::common::agent::{approval, openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::pty::PtyProgram;
use serde_json::json;
use std::time::Duration;

/// A window-title sequence and a colour: what a hostile reply or file would carry.
const TITLE: &str = "\u{1b}]0;pwned\u{7}";
const RED: &str = "\u{1b}[31m";

fn review_reply() -> String {
    json!({"summary": format!("Looks fine {TITLE}{RED}red"), "findings": []}).to_string()
}

#[test]
fn a_reply_on_a_terminal_shows_its_escape_sequences_as_text() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(review_reply())]);
    let mut command = repo.isolated_iris(&["review"]);
    command.envs(openai_env(&fake));
    let mut program = PtyProgram::spawn(command, 120, 30);
    let status = program
        .wait_exit(Duration::from_secs(60))
        .unwrap_or_else(|| panic!("still running:\n{}", program.text()));
    assert!(status.success(), "{}", program.text());
    let bytes = String::from_utf8_lossy(&program.bytes()).into_owned();
    assert!(
        bytes.contains("Looks fine \\x1b]0;pwned\\x07\\x1b[31mred"),
        "{bytes:?}"
    );
    assert!(!bytes.contains(TITLE) && !bytes.contains(RED), "{bytes:?}");
}

#[test]
fn a_pipe_gets_the_reply_as_it_is_and_a_commit_carries_no_control_characters() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(review_reply()), Step::text(approval())]);
    let out = run(&repo, &["review"], &openai_env(&fake));
    assert!(success(&out).contains(&format!("Looks fine {TITLE}{RED}red")));
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": format!("Add {RED}two(){TITLE}"), "message": "Adds\u{7} it."})
            .to_string(),
    )]);
    let out = run(&repo, &["gen", "--auto-commit"], &openai_env(&fake));
    success(&out);
    let message = repo.git(&["log", "-1", "--format=%B"]);
    assert_eq!(message.trim_end(), "Add [31mtwo()]0;pwned\n\nAdds it.");
}

#[test]
fn iris_tool_shows_a_files_escape_sequences_as_text_on_a_terminal() {
    let repo = staged_repo();
    repo.write("notes.txt", format!("before {TITLE} after\n"));
    let mut command = repo.isolated_iris(&["tool", "file_read", r#"{"path": "notes.txt"}"#]);
    command.env("IRIS_PROVIDER", "openai");
    let mut program = PtyProgram::spawn(command, 120, 30);
    let status = program
        .wait_exit(Duration::from_secs(30))
        .unwrap_or_else(|| panic!("still running:\n{}", program.text()));
    assert!(status.success(), "{}", program.text());
    let bytes = String::from_utf8_lossy(&program.bytes()).into_owned();
    assert!(
        bytes.contains("before \\x1b]0;pwned\\x07 after"),
        "{bytes:?}"
    );
    assert!(!bytes.contains(TITLE), "{bytes:?}");
}
