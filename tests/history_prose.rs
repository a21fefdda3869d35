//! `iris reword`: each commit's new message written from its own change (the history before
//! it as the sample, nothing later), printed beside the old one, applied with only the
//! messages changed, and undone. The real binary on repositories made by the git command
//! line, talking to the fake provider.

use crate::common::TestRepo;
use crate::common::agent::{commit_json, failure, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};

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
    let err = failure(
        &run(&repo, &["reword", &format!("{}..HEAD", ids[0])], &env),
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
