//! `iris split`: Iris plans the commits of a tangled change, the plan is checked (sent back
//! once when it is not valid), `--apply --yes` commits it, `--check` stops at a failing
//! group and `--undo` restores the state before, byte for byte. The real binary on a
//! temporary repository, talking to the fake provider.

use std::fs;

use crate::common::TestRepo;
use crate::common::agent::{failure, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use serde_json::{Value, json};

fn group(message: &str, hunks: &[&str]) -> Value {
    json!({"message": message, "hunks": hunks, "reason": "They go together."})
}

fn plan(groups: Vec<Value>) -> String {
    json!({ "groups": groups }).to_string()
}

pub(crate) fn three_groups() -> String {
    plan(vec![
        group(
            "feat: log the values\n\nSo a run can be followed.",
            &["h1", "h3"],
        ),
        group("fix: omega returns 3", &["h2"]),
        group("docs: add a guide", &["h4", "h5"]),
    ])
}

fn log(repo: &TestRepo) -> String {
    repo.git(&["log", "--format=%s"])
}

#[test]
fn iris_plans_and_apply_makes_each_commit_as_planned() {
    let repo = TestRepo::tangled();
    let fake = FakeProvider::start(vec![Step::text(three_groups())]);
    let out = success(&run(
        &repo,
        &["split", "--apply", "--yes"],
        &openai_env(&fake),
    ));
    assert!(
        out.contains("── Commit 1 of 3 ──\n  feat: log the values\n"),
        "{out}"
    );
    assert!(
        out.contains("    h1   a.rs:1-5\n    h3   b.txt:1-4\n"),
        "{out}"
    );
    assert!(out.contains("    h5   docs/guide.md (new file)"), "{out}");
    assert_eq!(
        log(&repo),
        "docs: add a guide\nfix: omega returns 3\nfeat: log the values\nbase\n"
    );
    // Each commit's tree is exactly as planned, file by file.
    use iris_studio_testkit::{TANGLED_A, TANGLED_B};
    let logged_a = TANGLED_A.replace("    1\n", "    log(1)\n");
    let logged_b = TANGLED_B.replace("one\n", "one (logged)\n");
    let tree = |rev: &str| -> Vec<String> {
        ["a.rs", "b.txt", "docs/guide.md"]
            .iter()
            .map(|path| {
                let out = repo.git_output(&["show", &format!("{rev}:{path}")]);
                String::from_utf8_lossy(&out.stdout).into_owned()
            })
            .collect()
    };
    assert_eq!(
        tree("HEAD~2"),
        vec![logged_a.clone(), logged_b.clone(), String::new()]
    );
    let fixed_a = logged_a.replace("    2\n", "    3\n");
    assert_eq!(
        tree("HEAD~1"),
        vec![fixed_a.clone(), logged_b.clone(), String::new()]
    );
    let documented_b = logged_b.replace("twelve\n", "twelve\ndocs\n");
    assert_eq!(
        tree("HEAD"),
        vec![fixed_a, documented_b, "# Guide\n".to_string()]
    );
    let first = repo.git(&["show", "--format=", "HEAD~2"]);
    assert!(
        first.contains("+    log(1)") && first.contains("+one (logged)"),
        "{first}"
    );
    assert!(
        !first.contains("    3") && !first.contains("docs"),
        "{first}"
    );
    let second = repo.git(&["show", "--format=", "--stat", "HEAD~1"]);
    assert!(
        second.contains("a.rs | 2 +-") && second.contains("1 file changed"),
        "{second}"
    );
    let third = repo.git(&["show", "--format=", "--name-only", "HEAD"]);
    assert_eq!(third, "b.txt\ndocs/guide.md\n");
    assert_eq!(
        repo.git(&["log", "-1", "--format=%b", "HEAD~2"]),
        "So a run can be followed.\n\n"
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");

    // What Iris read: each hunk by its id, with its lines, and the plan's schema.
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let asked = requests[0].user_texts().join("\n");
    assert!(asked.contains("It has 5 hunks in 3 files."), "{asked}");
    assert!(
        asked.contains("### h2 a.rs:11-15\n@@ -11,5 +11,5 @@"),
        "{asked}"
    );
    assert!(asked.contains("-    2\n+    3\n"), "{asked}");
    assert!(asked.contains("### h5 docs/guide.md (new file)"), "{asked}");
    assert!(
        requests[0]
            .system_text()
            .contains("Every hunk goes in exactly one commit")
    );
}

#[test]
fn json_prints_the_plan_and_commits_nothing() {
    let repo = TestRepo::tangled();
    let fake = FakeProvider::start(vec![Step::text(three_groups())]);
    let out = success(&run(&repo, &["split", "--json"], &openai_env(&fake)));
    let printed: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(printed["groups"][0]["hunks"], json!(["h1", "h3"]));
    assert_eq!(printed["groups"][2]["message"], "docs: add a guide");
    assert_eq!(log(&repo), "base\n");
    // The printed plan, kept in a file, applies without asking Iris again.
    fs::write(repo.home().join("plan.json"), &out).unwrap();
    let plan = repo.home().join("plan.json").to_string_lossy().into_owned();
    let out = run(&repo, &["split", "--plan", &plan, "--apply", "--yes"], &[]);
    success(&out);
    assert_eq!(log(&repo).lines().count(), 4);
}

#[test]
fn a_plan_that_repeats_a_hunk_is_sent_back_once() {
    let repo = TestRepo::tangled();
    let repeats = plan(vec![
        group("feat: log", &["h1", "h3"]),
        group("fix: omega", &["h2", "h3"]),
        group("docs: guide", &["h4", "h5", "h9"]),
    ]);
    let fake = FakeProvider::start(vec![Step::text(repeats), Step::text(three_groups())]);
    let out = run(&repo, &["split"], &openai_env(&fake));
    let printed = success(&out);
    assert!(
        printed.contains("── Commit 3 of 3 ──\n  docs: add a guide"),
        "{printed}"
    );
    let err = crate::common::stderr(&out);
    assert!(
        err.contains("Iris' first plan was sent back: h3 is in group 1 and in group 2"),
        "{err}"
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let again = requests[1].user_texts().join("\n");
    assert!(again.contains("## What is wrong with it\n- h3 is in group 1 and in group 2; a hunk goes in one\n- group 3 names \"h9\", which is not a hunk of this change"), "{again}");
    assert!(again.contains("## Your plan\n{"), "{again}");
}

#[test]
fn a_plan_wrong_twice_fails_and_commits_nothing() {
    let repo = TestRepo::tangled();
    let empty = plan(vec![
        group("feat: log", &["h1"]),
        group("fix: nothing", &[]),
    ]);
    let fake = FakeProvider::start(vec![Step::text(empty.clone()), Step::text(empty)]);
    let out = run(&repo, &["split", "--apply", "--yes"], &openai_env(&fake));
    let line = failure(&out, 1);
    assert!(
        line.contains(
            "Iris' plan was not valid, and not when sent back either: group 2 names no hunk"
        ),
        "{line}"
    );
    assert_eq!(log(&repo), "base\n");
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        " M a.rs\n M b.txt\n?? docs/\n"
    );
}

#[test]
fn hunks_the_plan_left_out_get_a_last_group_of_their_own() {
    let repo = TestRepo::tangled();
    let skips = plan(vec![
        group("feat: log", &["h1", "h3"]),
        group("fix: omega", &["h2"]),
    ]);
    let fake = FakeProvider::start(vec![Step::text(skips)]);
    let out = success(&run(&repo, &["split"], &openai_env(&fake)));
    assert!(
        out.contains("── Commit 3 of 3 ──\n  Changes the split plan left out\n"),
        "{out}"
    );
    assert!(
        out.contains("    h4   b.txt:10-13\n    h5   docs/guide.md (new file)"),
        "{out}"
    );
    assert_eq!(fake.requests().len(), 1, "a left-out hunk is not sent back");
}

#[test]
fn a_failing_check_stops_at_the_second_group_and_undo_restores_everything() {
    let repo = TestRepo::tangled();
    repo.git(&["add", "b.txt"]);
    let index = repo.path().join(".git/index");
    let index_before = fs::read(&index).unwrap();
    let files_before: Vec<Vec<u8>> = ["a.rs", "b.txt", "docs/guide.md"]
        .iter()
        .map(|p| fs::read(repo.path().join(p)).unwrap())
        .collect();
    let fake = FakeProvider::start(vec![Step::text(three_groups())]);
    let check = "if grep -q '    3' a.rs; then echo 'omega is wrong'; exit 3; fi";
    let out = run(
        &repo,
        &["split", "--apply", "--yes", "--check", check],
        &openai_env(&fake),
    );
    let line = failure(&out, 1);
    assert!(
        line.contains("stopped at commit 2 of 3: the check"),
        "{line}"
    );
    assert!(
        line.contains("failed: exit status 3 omega is wrong"),
        "{line}"
    );
    assert!(line.contains("1 commit made before it stand"), "{line}");
    assert!(line.contains("`iris split --undo`"), "{line}");
    assert!(crate::common::stderr(&out).contains("[1/3] checking…"));
    assert_eq!(log(&repo), "feat: log the values\nbase\n");
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        " M a.rs\n M b.txt\n?? docs/\n"
    );

    let undone = success(&run(&repo, &["split", "--undo"], &[]));
    assert!(
        undone.starts_with("Undid the split: 1 commit removed, 3 files and the index restored"),
        "{undone}"
    );
    assert_eq!(log(&repo), "base\n");
    assert_eq!(
        fs::read(&index).unwrap(),
        index_before,
        "the index, byte for byte"
    );
    let files_after: Vec<Vec<u8>> = ["a.rs", "b.txt", "docs/guide.md"]
        .iter()
        .map(|p| fs::read(repo.path().join(p)).unwrap())
        .collect();
    assert_eq!(files_after, files_before);
    let again = failure(&run(&repo, &["split", "--undo"], &[]), 3);
    assert!(again.contains("there is no split to undo"), "{again}");
}

#[test]
fn a_hook_that_refuses_stops_the_split_with_its_words() {
    let repo = TestRepo::tangled();
    repo.write_hook(
        "commit-msg",
        "if grep -q '^fix' \"$1\"; then echo 'no fixes on Fridays' >&2; exit 1; fi",
    );
    let fake = FakeProvider::start(vec![Step::text(three_groups())]);
    let line = failure(
        &run(&repo, &["split", "--apply", "--yes"], &openai_env(&fake)),
        1,
    );
    assert!(
        line.contains("stopped at commit 2 of 3") && line.contains("no fixes on Fridays"),
        "{line}"
    );
    assert_eq!(log(&repo), "feat: log the values\nbase\n");
}

#[test]
fn apply_without_a_terminal_needs_yes_and_an_empty_change_is_named() {
    let repo = TestRepo::tangled();
    let line = failure(&run(&repo, &["split", "--apply"], &[]), 2);
    assert!(line.contains("add --yes"), "{line}");
    let clean = TestRepo::new();
    clean.write("a.txt", "a\n");
    clean.commit_all("base");
    let line = failure(&run(&clean, &["split"], &[]), 2);
    assert!(line.contains("there is no change to split"), "{line}");
}

#[test]
fn ctrl_c_stops_before_the_next_group_and_says_how_to_undo() {
    use crate::common::Iris;
    let repo = TestRepo::tangled();
    repo.write_hook("pre-commit", "sleep 1");
    let plan = repo.home().join("plan.json");
    fs::write(&plan, three_groups()).unwrap();
    let plan = plan.to_string_lossy().into_owned();
    let child = repo
        .isolated_iris(&["split", "--plan", &plan, "--apply", "--yes"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("iris");
    let start = std::time::Instant::now();
    while log(&repo).lines().count() < 2 {
        assert!(start.elapsed().as_secs() < 30, "no first commit");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: a plain signal to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let out = child.wait_with_output().expect("iris ends");
    let err = crate::common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(": interrupted; ") && err.contains("`iris split --undo`"),
        "{err}"
    );
    let made = log(&repo).lines().count() - 1;
    assert!((1..3).contains(&made), "{made} commits:\n{err}");
    success(&run(&repo, &["split", "--undo"], &[]));
    assert_eq!(log(&repo), "base\n");
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        " M a.rs\n M b.txt\n?? docs/\n"
    );
}

/// The project's rules: conventional types, headers of at most 50 characters.
const COMMITLINT_JS: &str = "module.exports = {\n  extends: ['@commitlint/config-conventional'],\n  \
                             rules: { 'type-enum': [2, 'always', ['feat', 'fix', 'docs']] },\n};\n";

fn with_rules() -> TestRepo {
    let repo = TestRepo::tangled();
    repo.write("commitlint.config.js", COMMITLINT_JS);
    repo.git(&["add", "commitlint.config.js"]);
    repo.git(&["commit", "-q", "-m", "chore: rules"]);
    repo
}

#[test]
fn messages_that_break_the_projects_rules_are_sent_back_once() {
    let repo = with_rules();
    let untyped = plan(vec![
        group("Log the values", &["h1", "h3"]),
        group("fix: omega returns 3", &["h2"]),
        group("docs: add a guide", &["h4", "h5"]),
    ]);
    let fake = FakeProvider::start(vec![Step::text(untyped), Step::text(three_groups())]);
    let out = run(&repo, &["split", "--json"], &openai_env(&fake));
    let printed: Value = serde_json::from_str(&success(&out)).expect("JSON");
    assert_eq!(
        printed["groups"][0]["message"],
        "feat: log the values\n\nSo a run can be followed."
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests[0]
            .user_texts()
            .join("\n")
            .contains("## This project's commit rules (commitlint.config.js)")
    );
    let again = requests[1].user_texts().join("\n");
    assert!(
        again.contains("- commit 1's message breaks type-empty"),
        "{again}"
    );
    assert!(!again.contains("commit 2's message"), "{again}");
}

#[test]
fn a_plan_whose_messages_still_break_the_rules_stands_with_a_warning() {
    let repo = with_rules();
    let untyped = plan(vec![
        group("Log the values", &["h1", "h3"]),
        group("fix: omega returns 3", &["h2", "h4", "h5"]),
    ]);
    let fake = FakeProvider::start(vec![Step::text(untyped.clone()), Step::text(untyped)]);
    let out = run(&repo, &["split"], &openai_env(&fake));
    let printed = success(&out);
    assert!(
        printed.contains("── Commit 1 of 2 ──\n  Log the values"),
        "{printed}"
    );
    let err = crate::common::stderr(&out);
    assert!(
        err.contains("commit 1's message breaks type-empty")
            && err.contains("edit the messages before applying"),
        "{err}"
    );
}
