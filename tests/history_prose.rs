//! `iris reword`: each commit's new message written from its own change (the history before
//! it as the sample, nothing later), printed beside the old one, applied with only the
//! messages changed, and undone. The real binary on repositories made by the git command
//! line, talking to the fake provider.

use crate::common::TestRepo;
use crate::common::agent::{commit_json, failure, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use iris_studio_testkit::numbered;

/// base, then three commits each adding one function to its own file.
fn three_changes() -> (TestRepo, Vec<String>) {
    let repo = TestRepo::new();
    repo.write("README.md", "# Demo\n");
    repo.commit_all("Start the demo");
    let mut ids = Vec::new();
    for (file, function, message) in [
        ("src/parse.rs", "pub fn parse() {}\n", "wip-parse-1"),
        ("src/render.rs", "pub fn render() {}\n", "wip-render-2"),
        ("src/serve.rs", "pub fn serve() {}\n", "wip-serve-3"),
    ] {
        repo.write(file, function);
        ids.push(repo.commit_all(message));
    }
    (repo, ids)
}

fn trees(repo: &TestRepo) -> String {
    repo.git(&["log", "--format=%T %an %ad"])
}

#[test]
fn each_commit_is_written_from_its_own_change_and_applied_with_only_the_messages_changed() {
    let (repo, ids) = three_changes();
    let before = trees(&repo);
    let fake = FakeProvider::start(vec![
        Step::text(commit_json(
            "Add the renderer",
            "It draws what the parser read.",
        )),
        Step::text(commit_json("Add the server", "")),
    ]);
    let out = success(&run(
        &repo,
        &["reword", &format!("{}..HEAD", ids[0]), "--apply", "--yes"],
        &openai_env(&fake),
    ));
    // Old beside new, a commit each.
    assert!(out.contains("  wip-render-2 "), "{out}");
    assert!(out.contains("│ Add the renderer"), "{out}");
    assert!(out.contains("│ It draws what the parser read."), "{out}");
    assert!(
        out.contains("  wip-serve-3 ") && out.contains("│ Add the server"),
        "{out}"
    );
    // One commit a request, oldest first: each shows that commit's change, and nothing of
    // what came after it (not even its own old message).
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let first = requests[0].user_texts().join("\n");
    let second = requests[1].user_texts().join("\n");
    assert!(first.contains("src/render.rs"), "{first}");
    assert!(
        !first.contains("src/serve.rs") && !first.contains("wip-render-2"),
        "{first}"
    );
    assert!(
        second.contains("src/serve.rs") && !second.contains("wip-serve-3"),
        "{second}"
    );
    assert_eq!(
        repo.git(&["log", "--format=%s"]),
        "Add the server\nAdd the renderer\nwip-parse-1\nStart the demo\n"
    );
    assert_eq!(
        repo.git(&["log", "-1", "--format=%b", "HEAD~1"]).trim(),
        "It draws what the parser read."
    );
    assert_eq!(
        trees(&repo),
        before,
        "trees, authors and dates are as they were"
    );
    assert_eq!(repo.git(&["rev-parse", "HEAD~2"]).trim(), ids[0]);
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    // Undo puts the branch back.
    success(&run(&repo, &["reword", "--undo"], &[]));
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), ids[2]);
}

#[test]
fn json_is_a_plan_that_applies_edited_without_a_model() {
    let (repo, ids) = three_changes();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add the server", ""))]);
    let out = success(&run(
        &repo,
        &["reword", "HEAD", "--json"],
        &openai_env(&fake),
    ));
    let mut plan: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(plan["commits"][0]["id"], ids[2].as_str());
    assert_eq!(plan["commits"][0]["old"], "wip-serve-3");
    assert_eq!(plan["commits"][0]["new"], "Add the server");
    assert_eq!(
        repo.git(&["rev-parse", "HEAD"]).trim(),
        ids[2],
        "nothing applied"
    );
    plan["commits"][0]["new"] = "Serve the demo over HTTP".into();
    let file = repo.path().join("plan.json");
    std::fs::write(&file, plan.to_string()).unwrap();
    success(&run(
        &repo,
        &[
            "reword",
            "HEAD",
            "--plan",
            file.to_str().unwrap(),
            "--apply",
            "--yes",
        ],
        &[],
    ));
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]).trim(),
        "Serve the demo over HTTP"
    );
}

#[test]
fn published_commits_need_force_and_bad_ranges_are_refused_before_any_request() {
    let (repo, ids) = three_changes();
    repo.git(&["update-ref", "refs/remotes/origin/main", &ids[1]]);
    let fake = FakeProvider::start(vec![]);
    let env = openai_env(&fake);
    let range = format!("{}..HEAD", ids[0]);
    let err = failure(
        &run(&repo, &["reword", &range, "--apply", "--yes"], &env),
        2,
    );
    let short = repo.git(&["rev-parse", "--short", &ids[1]]);
    assert!(
        err.contains(&format!("{} is already on origin/main", short.trim()))
            && err.contains("--force"),
        "{err}"
    );
    let root = repo.git(&["rev-list", "--max-parents=0", "HEAD"]);
    let err = failure(&run(&repo, &["reword", root.trim()], &env), 2);
    assert!(err.contains("root commit"), "{err}");
    let err = failure(&run(&repo, &["reword", "HEAD..HEAD~2"], &env), 2);
    assert!(err.contains("not a line of history"), "{err}");
    let err = failure(&run(&repo, &["reword", "v9.9"], &env), 2);
    assert!(err.contains("unknown revision 'v9.9'"), "{err}");
    let err = failure(&run(&repo, &["reword", "HEAD", "--apply"], &env), 2);
    assert!(err.contains("add --yes"), "{err}");
    let err = failure(&run(&repo, &["reword", "--undo"], &env), 3);
    assert!(err.contains("no reword to undo"), "{err}");
    assert!(fake.requests().is_empty());
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), ids[2]);
}

/// The two-commit feature branch with a fix of each commit staged, and a change to a line
/// from before the branch.
fn feature_with_fixes() -> TestRepo {
    let repo = TestRepo::two_commit_feature();
    repo.write(
        "a.txt",
        numbered("a")
            .replace("a3\n", "a3 (x, fixed)\n")
            .replace("a15\n", "a15 (old)\n"),
    );
    repo.write("b.txt", numbered("b").replace("b5\n", "b5 (y, fixed)\n"));
    repo.git(&["add", "-A"]);
    repo
}

/// The branch is X and Y again, X with its fix folded in.
fn assert_folded_in(repo: &TestRepo) {
    assert_eq!(
        repo.git(&["log", "--format=%s", "main.."]),
        "Y: change b5\nX: change a3\n"
    );
    assert!(
        repo.git(&["show", "HEAD~1:a.txt"])
            .contains("a3 (x, fixed)")
    );
}

#[test]
fn absorb_makes_fixups_git_autosquash_accepts_and_leaves_the_rest_staged() {
    let repo = feature_with_fixes();
    let plan = success(&run(&repo, &["absorb"], &[]));
    assert!(
        plan.starts_with("The branch since main, the default branch:\n"),
        "{plan}"
    );
    assert!(
        plan.contains(" X: change a3\n    h1   a.txt:1-6\n"),
        "{plan}"
    );
    assert!(plan.contains(" Y: change b5\n    h3   b.txt:2-8"), "{plan}");
    assert!(
        plan.contains("Staying staged:\n    h2   a.txt:12-18: its lines were last changed before the branch (since main"),
        "{plan}"
    );
    assert_eq!(
        repo.git(&["log", "--format=%s", "-1"]).trim(),
        "Y: change b5",
        "a plan only"
    );
    let err = failure(
        &run(&repo, &["absorb", "--apply", "--yes", "--squash"], &[]),
        2,
    );
    assert!(
        err.contains("h2 would stay staged") && err.contains("--squash"),
        "{err}"
    );
    success(&run(&repo, &["absorb", "--apply", "--yes"], &[]));
    assert_eq!(
        repo.git(&["log", "--format=%s", "main.."]),
        "fixup! Y: change b5\nfixup! X: change a3\nY: change b5\nX: change a3\n"
    );
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "a.txt\n");
    // git's own autosquash takes the fixups (the rest stashed while it runs).
    repo.git(&["stash", "-q"]);
    repo.git(&[
        "-c",
        "sequence.editor=true",
        "rebase",
        "-q",
        "-i",
        "--autosquash",
        "main",
    ]);
    assert_folded_in(&repo);
    assert!(repo.git(&["show", "HEAD:b.txt"]).contains("b5 (y, fixed)"));
}

#[test]
fn absorb_squash_folds_the_fixes_in_and_undo_puts_everything_back() {
    let repo = feature_with_fixes();
    let lines = numbered("a");
    // Only the fixes: the old line's change is left out of the index and the tree.
    repo.write("a.txt", lines.replace("a3\n", "a3 (x, fixed)\n"));
    repo.git(&["add", "-A"]);
    let before = repo.git(&["rev-parse", "HEAD"]);
    let json = success(&run(&repo, &["absorb", "--json"], &[]));
    let plan: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(plan["targets"].as_array().map(Vec::len), Some(2), "{plan}");
    assert_eq!(plan["left"].as_array().map(Vec::len), Some(0), "{plan}");
    success(&run(
        &repo,
        &["absorb", "--apply", "--yes", "--squash"],
        &[],
    ));
    assert_folded_in(&repo);
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    let undone = success(&run(&repo, &["absorb", "--undo"], &[]));
    assert!(undone.contains("Undid the absorb"), "{undone}");
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), before);
    assert_eq!(
        repo.git(&["diff", "--cached", "--name-only"]),
        "a.txt\nb.txt\n"
    );
}

#[test]
fn absorb_with_nothing_staged_or_no_branch_of_its_own_says_what_to_do() {
    let repo = feature_with_fixes();
    repo.git(&["reset", "-q"]);
    let err = failure(&run(&repo, &["absorb"], &[]), 2);
    assert!(err.contains("nothing is staged to absorb"), "{err}");
    repo.git(&["add", "-A"]);
    let err = failure(&run(&repo, &["absorb", "--base", "HEAD"], &[]), 2);
    assert!(err.contains("no commit of its own"), "{err}");
    let err = failure(&run(&repo, &["absorb", "--undo"], &[]), 3);
    assert!(err.contains("no absorb to undo"), "{err}");
}

#[test]
fn a_hook_that_refuses_a_fixup_puts_everything_back() {
    let repo = feature_with_fixes();
    repo.write_hook(
        "commit-msg",
        "case \"$(head -1 \"$1\")\" in *Y:*) echo 'not this one' >&2; exit 1;; esac",
    );
    let before = repo.git(&["rev-parse", "HEAD"]);
    let staged = repo.git(&["diff", "--cached"]);
    let err = failure(&run(&repo, &["absorb", "--apply", "--yes"], &[]), 1);
    assert!(err.contains("stopped at commit 2 of 2"), "{err}");
    assert!(
        err.contains("not this one") && err.contains("taken back"),
        "{err}"
    );
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), before);
    assert_eq!(repo.git(&["diff", "--cached"]), staged);
}

#[test]
fn absorb_reword_has_iris_correct_only_the_message_the_change_now_contradicts() {
    let repo = feature_with_fixes();
    repo.write("a.txt", numbered("a").replace("a3\n", "a3 (x, fixed)\n"));
    repo.git(&["add", "-A"]);
    let fake = FakeProvider::start(vec![
        Step::tool_call(
            "update_commit",
            serde_json::json!({"content": "X: change a3, and fix it"}),
        ),
        Step::text("The title now says the fix."),
        Step::text("The message still holds."),
    ]);
    let before = repo.git(&["log", "--format=%h", "main.."]);
    let out = run(
        &repo,
        &["absorb", "--apply", "--yes", "--squash", "--reword"],
        &openai_env(&fake),
    );
    success(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    // Each commit is named by the id it has after the squash, not by one the squash replaced:
    // the commit so named holds its fix.
    let named = |said: &str| {
        let line = err.lines().find(|l| l.contains(said)).expect(said);
        line.trim()
            .split(':')
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let x = named("X: change a3 → X: change a3, and fix it");
    let y = named("kept (The message still holds.)");
    assert!(
        repo.git(&["show", &format!("{x}:a.txt")])
            .contains("a3 (x, fixed)"),
        "{err}"
    );
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s", &y]),
        "Y: change b5\n"
    );
    assert!(
        repo.git(&["show", &format!("{y}:a.txt")])
            .contains("a3 (x, fixed)")
    );
    for gone in before.lines() {
        assert!(!err.contains(&format!("{gone}:")), "{gone} in:\n{err}");
    }
    assert_eq!(
        repo.git(&["log", "--format=%s", "main.."]),
        "Y: change b5\nX: change a3, and fix it\n"
    );
    assert!(
        repo.git(&["show", "HEAD~1:a.txt"])
            .contains("a3 (x, fixed)")
    );
    // Each check read its commit's own change, the fix folded in.
    let first = fake.requests()[0].user_texts().join("\n");
    let system = fake.requests()[0].system_text();
    assert!(system.contains("X: change a3"), "{system}");
    assert!(first.contains("fixup was just folded"), "{first}");
    // Undo puts back everything: the branch before the fixups, the fixes staged.
    success(&run(&repo, &["absorb", "--undo"], &[]));
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]).trim(),
        "Y: change b5"
    );
    assert_eq!(
        repo.git(&["diff", "--cached", "--name-only"]),
        "a.txt\nb.txt\n"
    );
}

#[test]
fn a_dry_run_shows_the_first_commits_request_and_sends_nothing() {
    let (repo, ids) = three_changes();
    let fake = FakeProvider::start(vec![]);
    let out = success(&run(
        &repo,
        &["reword", &format!("{}..HEAD", ids[0]), "--dry-run"],
        &openai_env(&fake),
    ));
    assert!(
        out.contains("The first request to openai gpt-5, as it would go out; nothing was sent."),
        "{out}"
    );
    // The first commit of the range, as its own change.
    assert!(
        out.contains("src/render.rs") && !out.contains("src/serve.rs"),
        "{out}"
    );
    assert!(fake.requests().is_empty());
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), ids[2]);
}
