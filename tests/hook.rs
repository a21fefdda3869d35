//! `iris hook`, `iris presets` and `iris completions` end to end: the real binary installs the
//! prepare-commit-msg hook in temporary repositories, and real `git commit`s run it against the
//! fake provider on 127.0.0.1.

use crate::common::Iris;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use crate::common::{IRIS_ENV_PREFIXES, TestRepo, stderr, stdout};
use serde_json::json;

const REPLY: &str =
    r#"{"emoji": null, "title": "Add two()", "message": "Adds a second constant function."}"#;
const MESSAGE: &str = "Add two()\n\nAdds a second constant function.";
/// What git writes into the message file of a plain `git commit` (abridged).
const GIT_COMMENTS: &str = "\n# Please enter the commit message for your changes. Lines starting\n\
                            # with '#' will be ignored, and an empty message aborts the commit.\n";
const LIMIT: Duration = Duration::from_secs(60);

fn staged_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.git(&["add", "-A"]);
    repo
}

fn openai_env(fake: &FakeProvider) -> Vec<(&'static str, String)> {
    vec![
        ("IRIS_PROVIDER", "openai".to_string()),
        ("OPENAI_API_KEY", FAKE_API_KEY.to_string()),
        ("OPENAI_BASE_URL", fake.openai_base_url()),
    ]
}

/// `program ARGS` in the repository with the test's git config and home, `GIT_EDITOR=true`
/// (git takes the prepared message as is), no inherited iris or provider variables, then `env`.
fn command(repo: &TestRepo, program: &str, args: &[&str], env: &[(&str, String)]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(repo.path())
        .env("GIT_CONFIG_GLOBAL", repo.git_config())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", repo.home())
        .env("XDG_CONFIG_HOME", repo.home().join("xdg"))
        .env("NO_COLOR", "1")
        .env("GIT_EDITOR", "true")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null());
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if IRIS_ENV_PREFIXES.iter().any(|p| name.starts_with(p)) {
            command.env_remove(name.as_ref());
        }
    }
    command.envs(env.iter().map(|(k, v)| (*k, v.as_str())));
    command
}

/// Runs `command` to its end; fails the test if it is still running after `limit`. With
/// `open_stdin`, its standard input is a pipe that stays open (reading it would block).
fn run_within(mut command: Command, limit: Duration, open_stdin: bool) -> Output {
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    if open_stdin {
        command.stdin(Stdio::piped());
    }
    let mut child = command.spawn().expect("spawn");
    let stdin = child.stdin.take();
    let start = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    child.wait_with_output().expect("output")
}

fn git_commit(repo: &TestRepo, args: &[&str], env: &[(&str, String)]) -> Output {
    let mut full = vec!["commit", "-q"];
    full.extend_from_slice(args);
    let out = run_within(command(repo, "git", &full, env), LIMIT, false);
    assert!(out.status.success(), "git commit: {}", stderr(&out));
    out
}

fn last_message(repo: &TestRepo) -> String {
    repo.git(&["log", "-1", "--format=%B"])
        .trim_end()
        .to_string()
}

fn hook_path(repo: &TestRepo) -> PathBuf {
    repo.path().join(".git/hooks/prepare-commit-msg")
}

fn install(repo: &TestRepo, args: &[&str]) -> Output {
    let mut full = vec!["hook", "install"];
    full.extend_from_slice(args);
    repo.iris(&full)
}

/// Runs the installed hook as git would, on a message file holding `content`; returns the
/// hook's output and the file afterwards.
fn run_hook(
    repo: &TestRepo,
    content: &str,
    source: Option<&str>,
    env: &[(&str, String)],
    open_stdin: bool,
) -> (Output, String) {
    let file = repo.path().join(".git/TEST_EDITMSG");
    std::fs::write(&file, content).expect("write message file");
    let hook = hook_path(repo);
    let mut args = vec![hook.to_str().expect("utf-8 path"), ".git/TEST_EDITMSG"];
    args.extend(source);
    let out = run_within(command(repo, "sh", &args, env), LIMIT, open_stdin);
    assert_eq!(out.status.code(), Some(0), "hook: {}", stderr(&out));
    let after = std::fs::read_to_string(&file).expect("read message file");
    (out, after)
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn git_commit_without_a_message_gets_the_generated_one() {
    let repo = staged_repo();
    let out = install(&repo, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(".git/hooks/prepare-commit-msg"));
    #[cfg(unix)]
    assert_eq!(mode(&hook_path(&repo)), 0o755);

    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    git_commit(&repo, &[], &openai_env(&fake));
    assert_eq!(last_message(&repo), MESSAGE);
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert!(!requests[0].stream, "the hook asks for --no-stream");
}

/// What `iris eval --accepted --json` says of the repository.
fn accepted(repo: &TestRepo) -> serde_json::Value {
    let out = repo.iris(&["eval", "--accepted", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("JSON")
}

#[test]
fn eval_accepted_knows_a_hook_message_committed_as_written_and_one_edited() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::text(REPLY), Step::text(REPLY)]);
    git_commit(&repo, &[], &openai_env(&fake));
    // The next change's message is edited in the editor before it is committed.
    repo.write("src/lib.rs", "pub fn three() -> u32 {\n    3\n}\n");
    repo.git(&["add", "-A"]);
    let mut env = openai_env(&fake);
    env.push(("GIT_EDITOR", "sed -i -e '1s/^/Edited: /'".to_string()));
    git_commit(&repo, &[], &env);
    assert!(last_message(&repo).starts_with("Edited: Add two()"));

    let report = accepted(&repo);
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{report}");
    // Newest first: the edited one, one word inserted into seven.
    assert_eq!(rows[0]["unedited"], false);
    assert!(
        (rows[0]["distance"].as_f64().unwrap() - 1.0 / 8.0).abs() < 1e-9,
        "{report}"
    );
    assert_eq!(rows[1]["unedited"], true);
    assert_eq!(rows[1]["source"], "gen");
    assert_eq!(report["share_unedited"], 0.5);

    // Forgotten on request.
    let out = repo.iris(&["eval", "--accepted", "--clear"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(accepted(&repo)["rows"].as_array().unwrap().len(), 0);
}

#[test]
fn git_commit_all_describes_what_it_commits() {
    // `git commit -a` stages into a temporary index (GIT_INDEX_FILE): that is what Iris must see.
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    11\n}\n");
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "standard"})),
        Step::text(REPLY),
    ]);
    git_commit(&repo, &["-a"], &openai_env(&fake));
    assert_eq!(last_message(&repo), MESSAGE);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let results = requests[1].tool_results();
    assert!(
        results.iter().any(|(_, text)| text.contains("+    11")),
        "{results:?}"
    );
}

#[test]
fn a_message_given_with_m_is_kept_and_iris_is_not_asked() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    git_commit(&repo, &["-m", "mine"], &openai_env(&fake));
    assert_eq!(last_message(&repo), "mine");
    assert!(fake.requests().is_empty());
}

#[test]
fn amends_merges_and_squashes_are_skipped() {
    let repo = staged_repo();
    git_commit(&repo, &["-m", "Add two"], &[]);
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(REPLY))]);
    let env = openai_env(&fake);

    git_commit(&repo, &["--amend"], &env);
    assert_eq!(last_message(&repo), "Add two");

    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("side.txt", "side\n");
    repo.commit_all("Side work");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("main.txt", "main\n");
    repo.commit_all("Main work");
    let merge = run_within(
        command(&repo, "git", &["merge", "-q", "--no-ff", "side"], &env),
        LIMIT,
        false,
    );
    assert!(merge.status.success(), "{}", stderr(&merge));
    assert_eq!(last_message(&repo), "Merge branch 'side'");

    repo.git(&["checkout", "-q", "-b", "squashed", "HEAD~1"]);
    repo.git(&["merge", "-q", "--squash", "side"]);
    git_commit(&repo, &[], &env);
    assert!(
        last_message(&repo).starts_with("Squashed commit of the following:"),
        "{}",
        last_message(&repo)
    );
    assert!(fake.requests().is_empty(), "{:?}", fake.requests().len());
}

#[test]
fn hook_on_amend_writes_the_amended_changes_message_and_keeps_gits_comments() {
    let repo = staged_repo();
    git_commit(
        &repo,
        &["-m", "Add two\n\nSigned-off-by: Dev <dev@example.com>"],
        &[],
    );
    assert!(install(&repo, &[]).status.success());
    std::fs::write(repo.path().join(".irisconfig"), "hook_on_amend = true\n").unwrap();
    repo.write("src/lib.rs", "pub fn two() -> u32 {\n    2\n}\n");
    repo.git(&["add", "src/lib.rs"]);
    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    let out = git_commit(&repo, &["--amend"], &openai_env(&fake));
    assert!(out.status.success(), "{}", stderr(&out));
    // The old message ("Add two") is replaced, its trailer kept; git's comments are stripped
    // as usual.
    assert_eq!(
        last_message(&repo),
        format!("{MESSAGE}\n\nSigned-off-by: Dev <dev@example.com>")
    );
    // --no-edit opens no editor: the message stays as it is and Iris is not asked.
    let kept = last_message(&repo);
    git_commit(&repo, &["--amend", "--no-edit"], &openai_env(&fake));
    assert_eq!(last_message(&repo), kept);
    assert_eq!(fake.requests().len(), 1);
    // What Iris saw: the amended change against HEAD's parent.
    let asked = fake.requests()[0].user_texts().join("\n");
    assert!(asked.contains("src/lib.rs"), "{asked}");
}

#[test]
fn sources_that_bring_a_message_and_written_messages_are_left_alone() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(REPLY))]);
    let env = openai_env(&fake);
    for source in ["message", "merge", "squash", "commit"] {
        let (_, after) = run_hook(&repo, GIT_COMMENTS, Some(source), &env, false);
        assert_eq!(after, GIT_COMMENTS, "{source}");
    }
    let written = format!("Started by hand\n{GIT_COMMENTS}");
    let (_, after) = run_hook(&repo, &written, None, &env, false);
    assert_eq!(after, written);
    assert!(fake.requests().is_empty());
}

#[test]
fn a_commit_template_is_filled_in_its_shape_and_its_comments_stay() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    repo.write(".gitmessage", "Why:\n\nTicket:\n# Say why before how.\n");
    repo.git(&["config", "commit.template", ".gitmessage"]);
    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    // git opens the editor with the template's text above its own comments.
    let opened = format!("Why:\n\nTicket:\n# Say why before how.\n{GIT_COMMENTS}");
    let (_, after) = run_hook(&repo, &opened, Some("template"), &openai_env(&fake), false);
    assert_eq!(
        after,
        format!("{MESSAGE}\n\n# Say why before how.{GIT_COMMENTS}")
    );
    let asked = fake.requests()[0].user_texts().join("\n");
    assert!(
        asked.contains("## The project's commit template (commit.template)")
            && asked.contains("```\nWhy:\n\nTicket:\n# Say why before how.\n```"),
        "{asked}"
    );
}

#[test]
fn a_verbose_diff_below_the_scissors_is_not_a_message() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    let verbose = format!(
        "{GIT_COMMENTS}# ------------------------ >8 ------------------------\n\
         # Do not modify or remove the line above.\n\
         diff --git a/src/lib.rs b/src/lib.rs\n+pub fn two() -> u32 {{\n"
    );
    let (_, after) = run_hook(&repo, &verbose, None, &openai_env(&fake), false);
    assert_eq!(after, format!("{MESSAGE}\n{verbose}"));
}

#[test]
fn the_message_goes_above_gits_comments_without_reading_input() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    // Standard input is a pipe nobody writes to: a hook that read it would hang.
    let (out, after) = run_hook(&repo, GIT_COMMENTS, None, &openai_env(&fake), true);
    assert_eq!(after, format!("{MESSAGE}\n{GIT_COMMENTS}"));
    assert_eq!(stderr(&out), "");
    assert_eq!(fake.requests().len(), 1);
}

#[test]
fn a_failing_provider_leaves_the_message_file_as_it_was() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::repeat(Step::error(500))]);
    let (out, after) = run_hook(&repo, GIT_COMMENTS, None, &openai_env(&fake), false);
    assert_eq!(after, GIT_COMMENTS);
    assert!(!fake.requests().is_empty(), "Iris was never asked");
    assert!(
        stderr(&out).contains("no commit message was generated"),
        "{}",
        stderr(&out)
    );
    let log = std::fs::read_to_string(repo.path().join(".git/iris-hook.log")).unwrap_or_default();
    assert!(log.contains("error"), "{log}");
    assert!(!log.contains(FAKE_API_KEY));

    // No API key at all.
    let env = [("IRIS_PROVIDER", "openai".to_string())];
    let (_, after) = run_hook(&repo, GIT_COMMENTS, None, &env, false);
    assert_eq!(after, GIT_COMMENTS);
}

#[test]
fn the_commit_goes_on_with_the_editor_when_the_provider_fails() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::repeat(Step::error(500))]);
    let mut env = openai_env(&fake);
    // git runs the editor through the shell with the file as "$@": this one writes a message.
    env.push(("GIT_EDITOR", "echo 'Written by hand' >".to_string()));
    git_commit(&repo, &[], &env);
    assert_eq!(last_message(&repo), "Written by hand");
    assert!(!fake.requests().is_empty());
}

#[test]
fn a_hanging_provider_is_given_up_on_after_the_time_limit() {
    let repo = staged_repo();
    assert!(install(&repo, &[]).status.success());
    let fake = FakeProvider::start(vec![Step::slow(30_000, Step::text(REPLY))]);
    let mut env = openai_env(&fake);
    env.push(("IRIS_HOOK_TIMEOUT", "2".to_string()));
    let start = Instant::now();
    let (out, after) = run_hook(&repo, GIT_COMMENTS, None, &env, false);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(after, GIT_COMMENTS);
    assert!(stderr(&out).contains("after 2s"), "{}", stderr(&out));
    assert_eq!(fake.requests().len(), 1);
}

#[test]
fn install_keeps_a_foreign_hook_unless_forced_and_uninstall_restores_it() {
    let repo = TestRepo::new();
    let hook = hook_path(&repo);
    let backup = repo
        .path()
        .join(".git/hooks/prepare-commit-msg.iris-backup");
    let foreign = "#!/bin/sh\necho someone else\n";
    std::fs::write(&hook, foreign).expect("write foreign hook");

    let out = install(&repo, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not Iris' hook") && stderr(&out).contains("--force"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&hook).ok().as_deref(),
        Some(foreign)
    );
    assert!(!backup.exists());

    let out = install(&repo, &["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("prepare-commit-msg.iris-backup"));
    assert_eq!(
        std::fs::read_to_string(&backup).ok().as_deref(),
        Some(foreign)
    );
    let ours = std::fs::read_to_string(&hook).unwrap_or_default();
    assert!(ours.contains("# iris-studio: prepare-commit-msg hook"));
    assert!(ours.contains(env!("CARGO_BIN_EXE_iris")));

    // Installing twice is fine and keeps the backup.
    let out = install(&repo, &[]);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("already installed"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&backup).ok().as_deref(),
        Some(foreign)
    );

    let out = repo.iris(&["hook", "uninstall"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("restored"), "{}", stdout(&out));
    assert_eq!(
        std::fs::read_to_string(&hook).ok().as_deref(),
        Some(foreign)
    );
    assert!(!backup.exists());

    let out = repo.iris(&["hook", "uninstall"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("left it alone"), "{}", stdout(&out));
    assert_eq!(
        std::fs::read_to_string(&hook).ok().as_deref(),
        Some(foreign)
    );

    std::fs::remove_file(&hook).expect("remove hook");
    let out = repo.iris(&["hook", "uninstall"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("nothing to remove"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn force_does_not_overwrite_an_earlier_backup() {
    let repo = TestRepo::new();
    let hook = hook_path(&repo);
    let backup = repo
        .path()
        .join(".git/hooks/prepare-commit-msg.iris-backup");
    std::fs::write(&hook, "#!/bin/sh\necho new\n").expect("write hook");
    std::fs::write(&backup, "#!/bin/sh\necho old\n").expect("write backup");
    let out = install(&repo, &["--force"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&hook).ok().as_deref(),
        Some("#!/bin/sh\necho new\n")
    );
    assert_eq!(
        std::fs::read_to_string(&backup).ok().as_deref(),
        Some("#!/bin/sh\necho old\n")
    );
}

#[test]
fn core_hooks_path_is_honoured() {
    let repo = staged_repo();
    repo.git(&["config", "core.hooksPath", "githooks"]);
    let out = install(&repo, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let hook = repo.path().join("githooks/prepare-commit-msg");
    assert!(hook.is_file());
    assert!(!hook_path(&repo).exists());
    assert!(stdout(&out).contains("githooks/prepare-commit-msg"));

    // git runs it from there.
    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    git_commit(&repo, &[], &openai_env(&fake));
    assert_eq!(last_message(&repo), MESSAGE);

    // The commit-msg step went there too, alone, and goes with the hook.
    let step = repo.path().join("githooks/commit-msg");
    assert!(step.is_file());
    let out = repo.iris(&["hook", "uninstall"]);
    assert!(out.status.success());
    assert!(!hook.exists());
    assert!(!step.exists());
}

#[test]
fn a_linked_worktree_installs_into_the_shared_hooks() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("Initial commit");
    let tree = repo.home().join("linked");
    let tree_arg = tree.to_str().expect("utf-8 path");
    repo.git(&["worktree", "add", "-q", "-b", "linked", tree_arg]);
    let out = repo.iris_in(&tree, &["hook", "install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let git_says = stdout(&repo.git_in(&tree, &["rev-parse", "--git-path", "hooks"]));
    let shared = std::fs::canonicalize(git_says.trim()).expect("hooks dir");
    assert_eq!(
        std::fs::canonicalize(hook_path(&repo).parent().expect("parent")).ok(),
        Some(shared)
    );
    assert!(hook_path(&repo).is_file());

    // A commit in the linked worktree is written by Iris.
    std::fs::write(tree.join("b.txt"), "b\n").expect("write");
    assert!(repo.git_in(&tree, &["add", "b.txt"]).status.success());
    let fake = FakeProvider::start(vec![Step::text(REPLY)]);
    let mut commit = command(&repo, "git", &["commit", "-q"], &openai_env(&fake));
    commit.current_dir(&tree);
    let out = run_within(commit, LIMIT, false);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stdout(&repo.git_in(&tree, &["log", "-1", "--format=%B"]));
    assert_eq!(log.trim_end(), MESSAGE);
}

#[test]
fn presets_lists_all_eight_with_gitmoji() {
    let repo = TestRepo::new();
    let out = repo.iris(&["presets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let names: Vec<&str> = rows
        .iter()
        .filter_map(|row| row.split_whitespace().next())
        .collect();
    assert_eq!(
        names,
        [
            "default",
            "conventional",
            "detailed",
            "concise",
            "technical",
            "storyteller",
            "formal",
            "cosmic"
        ]
    );
    assert!(rows[1].contains(" no ") && rows[1].contains("Conventional Commits"));
    assert!(rows[0].contains(" yes ") && rows[0].contains("recent commits"));
}

#[test]
fn completions_for_each_shell_and_a_bad_shell_name() {
    let repo = TestRepo::new();
    let out = repo.iris(&["completions", "bash"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let script = stdout(&out);
    assert!(
        script.contains("_iris()") && script.contains("gen"),
        "{script}"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = repo.iris(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        assert!(stdout(&out).contains("presets"), "{shell}");
    }
    let out = repo.iris(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("tcsh"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[test]
fn the_hook_writes_in_the_projects_language() {
    let repo = staged_repo();
    repo.write(".irisconfig", "language = \"de\"\n");
    assert!(install(&repo, &[]).status.success());
    let reply = json!({
        "emoji": null,
        "title": "two() hinzufügen",
        "message": "Fügt eine zweite konstante Funktion hinzu."
    });
    let fake = FakeProvider::start(vec![Step::text(reply.to_string())]);
    git_commit(&repo, &[], &openai_env(&fake));
    assert_eq!(
        last_message(&repo),
        "two() hinzufügen\n\nFügt eine zweite konstante Funktion hinzu."
    );
    let system = fake.requests()[0].system_text();
    assert!(
        system.contains("## Language\nWrite every text you produce in German (de)"),
        "{system}"
    );
}

/// An editor script for `GIT_EDITOR`: on its Nth run it keeps a copy of the message file as
/// `editor.N` in `dir` and runs `edits[N-1]` (a sed script) on it.
fn scripted_editor(dir: &Path, edits: &[&str]) -> String {
    let mut script = format!(
        "#!/bin/sh\nn=$(cat '{0}/editor.count' 2>/dev/null || echo 0)\nn=$((n + 1))\necho $n >'{0}/editor.count'\ncp \"$1\" \"{0}/editor.$n\"\ncase $n in\n",
        dir.display()
    );
    for (i, edit) in edits.iter().enumerate() {
        script.push_str(&format!("{}) sed -i -e '{edit}' \"$1\" ;;\n", i + 1));
    }
    script.push_str("esac\n");
    let path = dir.join("editor.sh");
    std::fs::write(&path, script).expect("write editor");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    path.to_str().expect("utf-8 path").to_string()
}

#[test]
fn a_commit_the_projects_hook_turns_down_comes_back_with_the_edits_and_no_new_request() {
    let repo = staged_repo();
    // The project's rules, and its commit-msg hook checking them (as commitlint's would).
    repo.write(
        ".commitlintrc.json",
        r#"{"rules": {"type-empty": [2, "never"], "type-enum": [2, "always", ["feat", "fix"]]}}"#,
    );
    repo.git(&["add", ".commitlintrc.json"]);
    let project_hook = repo.path().join(".git/hooks/commit-msg");
    let check = format!(
        "#!/bin/sh\nexec '{}' gen --check <\"$1\"\n",
        env!("CARGO_BIN_EXE_iris")
    );
    std::fs::write(&project_hook, &check).expect("write commit-msg");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&project_hook, std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
    }
    let out = install(&repo, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("now first remembers the message"),
        "{}",
        stdout(&out)
    );
    // One line at the top of the project's hook; the rest as it was.
    let with_step = std::fs::read_to_string(&project_hook).expect("read commit-msg");
    assert!(
        with_step.starts_with("#!/bin/sh\n# iris-studio:"),
        "{with_step}"
    );
    assert!(with_step.ends_with(&check[10..]), "{with_step}");

    // The user edits the body; the rules turn the title down; nothing is committed.
    let editor = scripted_editor(repo.home(), &["3s/$/ By hand./", "1s/^/feat: /"]);
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(REPLY))]);
    let mut env = openai_env(&fake);
    env.push(("GIT_EDITOR", editor));
    let out = run_within(command(&repo, "git", &["commit", "-q"], &env), LIMIT, false);
    assert!(!out.status.success(), "the project's hook lets it through");
    assert!(stderr(&out).contains("type-empty"), "{}", stderr(&out));
    // The first message and the one retry the rules ask for.
    let paid = fake.requests().len();
    assert_eq!(paid, 2);

    // `iris gen` gives the edited message back too, without a request.
    let mut print = command(&repo, env!("CARGO_BIN_EXE_iris"), &["gen", "--print"], &env);
    print.env("IRIS_PROVIDER", "openai");
    let out = run_within(print, LIMIT, false);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim_end(),
        "Add two()\n\nAdds a second constant function. By hand."
    );
    assert!(stderr(&out).contains("--fresh"), "{}", stderr(&out));
    assert_eq!(fake.requests().len(), paid);

    // Again: the hook offers the edited message, saying why and what the rules find; the
    // user fixes the title and the commit goes through. Nothing more is paid.
    git_commit(&repo, &[], &env);
    assert_eq!(
        last_message(&repo),
        "feat: Add two()\n\nAdds a second constant function. By hand."
    );
    assert_eq!(fake.requests().len(), paid);
    let seen = std::fs::read_to_string(repo.home().join("editor.2")).expect("editor copy");
    assert!(
        seen.starts_with("Add two()\n\nAdds a second constant function. By hand.\n"),
        "{seen}"
    );
    assert!(
        seen.contains("# Iris: the message you last tried to commit"),
        "{seen}"
    );
    assert!(seen.contains("IRIS_FRESH=1"), "{seen}");
    assert!(seen.contains("✖ type-empty"), "{seen}");

    // A new change is written anew; IRIS_FRESH=1 asks Iris again for the same change.
    repo.write("src/lib.rs", "pub fn three() -> u32 {\n    3\n}\n");
    repo.git(&["add", "-A"]);
    let second = repo.home().join("second");
    std::fs::create_dir_all(&second).expect("mkdir");
    let editor = scripted_editor(&second, &["1s/^/fix: /"]);
    let mut env = openai_env(&fake);
    env.push(("GIT_EDITOR", editor));
    env.push(("IRIS_FRESH", "1".to_string()));
    git_commit(&repo, &[], &env);
    assert!(fake.requests().len() > paid);

    // Uninstalling puts the project's hook back as it was.
    let out = repo.iris(&["hook", "uninstall"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&project_hook).ok(), Some(check));
}

#[test]
fn a_commit_msg_hook_the_project_tracks_is_left_alone() {
    let repo = staged_repo();
    repo.write(".husky/commit-msg", "#!/bin/sh\nexit 0\n");
    repo.git(&["add", ".husky/commit-msg"]);
    repo.git(&["config", "core.hooksPath", ".husky"]);
    let out = install(&repo, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("belongs to the project") && stdout(&out).contains("command -v iris"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read_to_string(repo.path().join(".husky/commit-msg"))
            .ok()
            .as_deref(),
        Some("#!/bin/sh\nexit 0\n")
    );
    assert!(repo.path().join(".husky/prepare-commit-msg").is_file());
}

#[test]
fn a_commit_msg_hook_rewritten_without_iris_line_is_said_once_with_the_command_that_restores_it() {
    let repo = staged_repo();
    repo.git(&["config", "core.hooksPath", "githooks"]);
    // The hooks are not the project's (a tracked one is left alone, to be edited by hand).
    std::fs::write(repo.path().join(".git/info/exclude"), "githooks/\n").expect("exclude");
    let out = install(&repo, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let step = repo.path().join("githooks/commit-msg");
    // A tool (husky, pre-commit, a team script) writes the commit-msg hook anew.
    let rewrite = || std::fs::write(&step, "#!/bin/sh\nexit 0\n").expect("rewrite commit-msg");
    rewrite();
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(REPLY))]);
    let said = format!(
        "iris: the commit-msg hook {} lacks Iris' line (was it rewritten?), so a message it \
         turns down will not come back: `iris hook install` puts it back\n",
        step.display()
    );
    let out = git_commit(&repo, &[], &openai_env(&fake));
    assert_eq!(stderr(&out).matches(&said).count(), 1, "{}", stderr(&out));
    assert!(repo.path().join(".git/iris/hook-steps-lost").is_file());
    // Said once per hook file: the next commit is quiet.
    repo.write("src/more.rs", "pub fn more() {}\n");
    repo.git(&["add", "-A"]);
    let out = git_commit(&repo, &[], &openai_env(&fake));
    assert!(
        !stderr(&out).contains("lacks Iris' line"),
        "{}",
        stderr(&out)
    );
    // The command said puts it back; a later rewrite is said again.
    let out = install(&repo, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let restored = std::fs::read_to_string(&step).expect("read commit-msg");
    assert!(restored.contains("hook commit-msg"), "{restored}");
    rewrite();
    repo.write("src/last.rs", "pub fn last() {}\n");
    repo.git(&["add", "-A"]);
    let out = git_commit(&repo, &[], &openai_env(&fake));
    assert_eq!(stderr(&out).matches(&said).count(), 1, "{}", stderr(&out));
}
