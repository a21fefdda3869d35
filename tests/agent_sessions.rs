//! The coding agent's session of the change reaches Iris (issue 65, "why, not only what"):
//! with `agent_sessions = true` (or `--sessions`) the user's own words to Claude Code in this
//! repository, in the change's time, go in the first request of `iris gen`, secrets withheld;
//! another repository's session and last month's never do, nor anything without the setting,
//! in CI or in the git hook; without it, a line says once that a session exists.

use std::path::Path;

use crate::common::agent::{commit_json, openai_env, run, staged_repo, success, write_user_config};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::secrets::leaks;
use crate::common::{TestRepo, stderr};
use serde_json::json;

pub(crate) const WHY: &str = "Add two() because the invoice totals need a second constant";
const OTHER_REPO: &str = "Rename the admin panel colours to match the brand guide";
const LAST_MONTH: &str = "Last month we discussed something else entirely here";

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// `secs` since the epoch as Claude Code writes it.
fn rfc3339(secs: i64) -> String {
    let time = secs.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}.000Z",
        iris_studio_git::utc_date(secs),
        time / 3600,
        time % 3600 / 60,
        time % 60
    )
}

/// A Claude Code session of `cwd` (one user turn, then the agent editing `file`), written in
/// the folder Claude Code names for `folder_of` under `home`.
pub(crate) fn claude_session(
    home: &Path,
    folder_of: &Path,
    name: &str,
    cwd: &Path,
    at: i64,
    said: &str,
) {
    let folder = iris_studio_core::sessions::claude_code::folder_name(&folder_of.to_string_lossy());
    let dir = home.join(".claude/projects").join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let cwd = cwd.to_string_lossy();
    let records = [
        json!({"type": "user", "cwd": cwd, "sessionId": name, "timestamp": rfc3339(at),
               "message": {"role": "user", "content": said}}),
        json!({"type": "assistant", "cwd": cwd, "sessionId": name, "timestamp": rfc3339(at + 5),
               "message": {"role": "assistant", "content": [
                   {"type": "tool_use", "id": "t1", "name": "Edit",
                    "input": {"file_path": format!("{cwd}/src/lib.rs")}}]}}),
        json!({"type": "user", "cwd": cwd, "sessionId": name, "timestamp": rfc3339(at + 6),
               "message": {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": "t1", "content": "the file's text, a tool's output"}]}}),
    ];
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.join(format!("{name}.jsonl")), text).unwrap();
}

/// A staged repository whose HOME holds a Claude Code session of it from a minute ago, one
/// of last month, one of a sibling repository sharing its folder name, and one of another.
fn repo_with_sessions(said: &str) -> TestRepo {
    let repo = staged_repo();
    let (home, root) = (repo.home().to_path_buf(), repo.path());
    claude_session(&home, &root, "now", &root, now() - 60, said);
    claude_session(&home, &root, "old", &root, now() - 30 * 86_400, LAST_MONTH);
    // `/tmp/x/repo` and `/tmp/x-repo` share Claude Code's folder name: the cwd tells.
    let sibling = Path::new(&format!("{}-repo", home.display())).to_path_buf();
    claude_session(&home, &root, "sibling", &sibling, now() - 60, OTHER_REPO);
    let elsewhere = home.join("elsewhere");
    claude_session(
        &home,
        &elsewhere,
        "other",
        &elsewhere,
        now() - 60,
        OTHER_REPO,
    );
    repo
}

/// The fake provider's environment, attended (no CI), the agents' folders under HOME.
fn env(fake: &FakeProvider) -> Vec<(&'static str, String)> {
    let mut env = openai_env(fake);
    env.push(("CI", String::new()));
    env
}

fn one_message() -> FakeProvider {
    FakeProvider::start(vec![Step::text(commit_json("Add two()", "Adds two()."))])
}

fn first_request_text(fake: &FakeProvider) -> String {
    fake.requests()[0].user_texts().join("\n")
}

#[test]
fn with_the_setting_the_users_words_in_this_repository_and_time_reach_the_request() {
    let repo = repo_with_sessions(WHY);
    write_user_config(&repo, "agent_sessions = true\ncritic_enabled = false\n");
    let fake = one_message();
    let out = run(&repo, &["gen"], &env(&fake));
    success(&out);
    let sent = first_request_text(&fake);
    assert!(sent.contains("## Why, in the user's own words"), "{sent}");
    assert!(sent.contains(&format!("- Claude Code: {WHY}")), "{sent}");
    assert!(
        !sent.contains(OTHER_REPO),
        "another repository's session: {sent}"
    );
    assert!(!sent.contains(LAST_MONTH), "last month's session: {sent}");
    assert!(!sent.contains("a tool's output"), "a tool's result: {sent}");
    assert!(!stderr(&out).contains("--sessions"), "{}", stderr(&out));

    // In CI, or in the git hook, the setting does not count.
    for (args, ci) in [
        (&["gen", "--fresh"][..], "true"),
        (&["gen", "--hook", "--fresh"][..], ""),
    ] {
        let fake = one_message();
        let mut env = openai_env(&fake);
        env.push(("CI", ci.to_string()));
        success(&run(&repo, args, &env));
        let sent = first_request_text(&fake);
        assert!(!sent.contains(WHY), "{args:?} CI={ci}: {sent}");
    }
}

#[test]
fn sessions_sends_them_for_one_run_and_a_secret_in_them_is_withheld() {
    let (_, text, secret) = leaks()
        .into_iter()
        .find(|(rule, _, _)| *rule == "aws-access-key")
        .expect("an AWS key among the leaks");
    let said = format!("Use {text} in the deploy check, the staging account needs it");
    let repo = repo_with_sessions(&said);
    write_user_config(&repo, "critic_enabled = false\n");
    let fake = one_message();
    success(&run(&repo, &["gen", "--sessions"], &env(&fake)));
    let sent = first_request_text(&fake);
    assert!(sent.contains("the staging account needs it"), "{sent}");
    assert!(!sent.contains(&secret), "the key was sent: {sent}");
    assert!(sent.contains("[secret: aws-access-key"), "{sent}");
}

#[test]
fn without_the_setting_nothing_is_sent_and_a_line_says_so_once() {
    let repo = repo_with_sessions(WHY);
    write_user_config(&repo, "critic_enabled = false\n");
    let hint = "--sessions sends what you asked it";
    for first in [true, false] {
        let fake = one_message();
        let out = run(&repo, &["gen", "--fresh"], &env(&fake));
        success(&out);
        let sent = first_request_text(&fake);
        assert!(!sent.contains(WHY) && !sent.contains("own words"), "{sent}");
        let said = stderr(&out);
        assert_eq!(said.matches(hint).count(), usize::from(first), "{said}");
        assert_eq!(
            said.lines().filter(|l| l.contains(hint)).count(),
            usize::from(first)
        );
    }
    assert!(repo.path().join(".git/iris/agent-sessions-hinted").exists());

    // A dry run shows the section it would send.
    let fake = FakeProvider::start(Vec::new());
    let out = success(&run(
        &repo,
        &["gen", "--sessions", "--dry-run"],
        &env(&fake),
    ));
    assert!(
        out.contains("own words") && out.contains("invoice totals"),
        "{out}"
    );
    assert!(fake.requests().is_empty());
}
