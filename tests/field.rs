//! The field matrix: repositories in the shapes people have, built with the git command line,
//! and Iris' answers compared with git's own for the same repository. Iris runs first wherever
//! git would fill a hole (a partial clone's missing objects), so git cannot do Iris' work.
//!
//! Elsewhere: names in other scripts and submodule bumps against `git diff --submodule=log`
//! (git_diff.rs), a shallow clone's missing base (revisions.rs), an unborn branch, a detached
//! HEAD and a conflicted merge's status (odd_states.rs).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::agent::{commit_json, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{Iris, TestRepo, stderr, stdout};

/// The commit ids (at least 7 digits) an Iris tool's answer starts its lines with, in order.
fn leading_ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.len() >= 7 && w.chars().all(|c| c.is_ascii_hexdigit()))
        .map(|w| w[..7].to_string())
        .collect()
}

/// The commit each line of `path` at HEAD comes from, as `git blame --line-porcelain` says
/// (7 digits).
fn git_blame(repo: &TestRepo, dir: &Path, path: &str) -> Vec<String> {
    let out = repo.git_in(dir, &["blame", "--line-porcelain", "HEAD", "--", path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split(' ').next())
        .filter(|w| (w.len() == 40 || w.len() == 64) && w.chars().all(|c| c.is_ascii_hexdigit()))
        .map(|w| w[..7].to_string())
        .collect()
}

/// The added and removed lines of a patch, in order (headers and context left out).
fn changed_lines(patch: &str) -> Vec<&str> {
    patch
        .lines()
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-'))
                && !l.starts_with("+++")
                && !l.starts_with("---")
        })
        .collect()
}

fn tool_in(repo: &TestRepo, dir: &Path, name: &str, args: &str) -> String {
    let out = repo.iris_in(dir, &["tool", name, args]);
    assert!(out.status.success(), "iris tool {name}: {}", stderr(&out));
    stdout(&out)
}

/// A file whose lines come from four commits, one line each, and another file beside it.
fn layered_history(repo: &TestRepo) {
    let mut text = String::new();
    for i in 1..=4 {
        text.push_str(&format!("line from c{i}\n"));
        repo.write("f.txt", &text);
        repo.write("g.txt", format!("other {i}\n"));
        repo.commit_all(&format!("c{i}"));
    }
}

#[test]
fn history_of_one_second_is_in_git_log_order() {
    let repo = TestRepo::new();
    // Six commits with one committer time, as a rebase or `git am` makes them.
    for i in 1..=6 {
        repo.write("f.txt", format!("{i}\n"));
        repo.git(&["add", "-A"]);
        let out = repo
            .in_env(
                Command::new("git").args(["commit", "-q", "-m", &format!("c{i}")]),
                &repo.path(),
            )
            .env("GIT_AUTHOR_DATE", "1700000000 +0000")
            .env("GIT_COMMITTER_DATE", "1700000000 +0000")
            .output()
            .expect("git commit");
        assert!(out.status.success());
    }
    let git = repo.git(&["log", "--format=%h", "--abbrev=7"]);
    let git: Vec<String> = git.lines().map(str::to_string).collect();
    let iris = leading_ids(&repo.tool("git_log", r#"{"count": 10}"#));
    assert_eq!(iris, git);
}

/// A partial clone (`--filter=blob:none`) of a local repository: older blobs are not there.
fn partial_clone(source: &TestRepo) -> PathBuf {
    source.git(&["config", "uploadpack.allowFilter", "true"]);
    let url = format!("file://{}", source.path().display());
    let out = source.git_in(
        source.home(),
        &["clone", "-q", "--filter=blob:none", &url, "partial"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let clone = source.home().join("partial");
    let missing = source.git_in(
        &clone,
        &["rev-list", "--objects", "--all", "--missing=print"],
    );
    assert!(
        String::from_utf8_lossy(&missing.stdout)
            .lines()
            .any(|l| l.starts_with('?')),
        "the clone must miss objects for this test to mean anything"
    );
    clone
}

#[test]
fn a_partial_clone_blames_and_shows_as_git_does() {
    let source = TestRepo::new();
    layered_history(&source);
    let clone = partial_clone(&source);

    // Iris first: git would fetch the missing blobs for both of them.
    let blame = tool_in(&source, &clone, "git_blame", r#"{"file": "f.txt"}"#);
    let show = tool_in(&source, &clone, "git_show", r#"{"commit": "HEAD~2"}"#);

    let iris_blame: Vec<String> = blame
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.contains('|'))
        .flat_map(leading_ids)
        .collect();
    assert_eq!(iris_blame, git_blame(&source, &clone, "f.txt"), "{blame}");
    assert_eq!(
        iris_blame
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        4
    );

    let git_show = source.git_in(&clone, &["show", "--format=", "HEAD~2"]);
    let git_show = String::from_utf8_lossy(&git_show.stdout);
    assert_eq!(changed_lines(&show), changed_lines(&git_show), "{show}");
}

#[test]
fn a_partial_clone_that_cannot_fetch_says_so_instead_of_answering() {
    let source = TestRepo::new();
    layered_history(&source);
    let clone = partial_clone(&source);
    source.git_in(
        &clone,
        &["remote", "set-url", "origin", "file:///nonexistent/repo"],
    );

    let out = source.iris_in(&clone, &["tool", "git_blame", r#"{"file": "f.txt"}"#]);
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("partial clone") && said.contains("'origin'"),
        "{said}"
    );
    assert!(
        !said.contains("line from c1"),
        "no blame from a history with holes: {said}"
    );
}

#[test]
fn a_sha256_repository_answers_as_git_does() {
    let repo = TestRepo::new();
    std::fs::remove_dir_all(repo.path().join(".git")).expect("remove .git");
    repo.git(&["init", "-q", "--object-format=sha256"]);
    layered_history(&repo);
    repo.write("f.txt", "line from c1\nchanged\n");
    repo.write("h.txt", "new\n");
    repo.git(&["add", "-A"]);

    let status = repo.tool("git_status", "{}");
    assert!(
        status.contains("modified  f.txt") && status.contains("added     h.txt"),
        "{status}"
    );
    let git_log = repo.git(&["log", "--format=%h", "--abbrev=7"]);
    let git_log: Vec<String> = git_log.lines().map(str::to_string).collect();
    assert_eq!(leading_ids(&repo.tool("git_log", "{}")), git_log);

    // Files in another order (by relevance): the same lines.
    let diff = repo.tool("git_diff", r#"{"detail": "standard"}"#);
    let git_diff = repo.git(&["diff", "--cached"]);
    let (mut iris, mut git) = (changed_lines(&diff), changed_lines(&git_diff));
    iris.sort_unstable();
    git.sort_unstable();
    assert_eq!(iris, git, "{diff}");

    let show = repo.tool("git_show", r#"{"commit": "HEAD~1"}"#);
    let git_show = repo.git(&["show", "--format=", "HEAD~1"]);
    assert_eq!(changed_lines(&show), changed_lines(&git_show), "{show}");

    let blame = repo.tool("git_blame", r#"{"file": "f.txt"}"#);
    let iris_blame: Vec<String> = blame
        .lines()
        .filter(|l| l.contains('|'))
        .flat_map(leading_ids)
        .collect();
    assert_eq!(
        iris_blame,
        git_blame(&repo, &repo.path(), "f.txt"),
        "{blame}"
    );

    // And a commit made through Iris is a SHA-256 commit git reads.
    let fake = FakeProvider::start(vec![Step::text(commit_json("Change f and add h", ""))]);
    success(&run(&repo, &["gen", "--auto-commit"], &openai_env(&fake)));
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]).trim(),
        "Change f and add h"
    );
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim().len(), 64);
}

#[test]
fn a_sparse_checkout_shows_only_what_changed_in_its_cone() {
    let repo = TestRepo::new();
    repo.write("a/x.txt", "1\n");
    repo.write("b/y.txt", "2\n");
    repo.write("root.txt", "r\n");
    repo.commit_all("init");
    for index in ["--no-sparse-index", "--sparse-index"] {
        repo.git(&["sparse-checkout", "set", index, "a"]);
        assert!(!repo.path().join("b/y.txt").exists());
        repo.write("a/x.txt", format!("1\n{index}\n"));
        repo.git(&["add", "a/x.txt"]);
        repo.write("root.txt", format!("r\n{index}\n"));

        let staged = repo.tool("git_changed_files", "{}");
        assert!(staged.contains("modified  a/x.txt"), "{index}: {staged}");
        let all = repo.tool("git_diff", r#"{"include_unstaged": true}"#);
        let git = repo.git(&["diff", "HEAD", "--name-only"]);
        let iris: Vec<&str> = all
            .lines()
            .filter(|l| l.contains('%') && l.contains('('))
            .filter_map(|l| l.split_whitespace().nth(2))
            .collect();
        assert_eq!(iris, git.lines().collect::<Vec<_>>(), "{index}: {all}");
        repo.git(&["reset", "-q", "--hard"]);
    }
}

#[test]
fn a_case_only_rename_with_ignorecase_is_what_git_says() {
    let repo = TestRepo::new();
    repo.git(&["config", "core.ignorecase", "true"]);
    repo.write("Foo.rs", "fn foo() {}\n");
    repo.commit_all("init");
    repo.git(&["mv", "Foo.rs", "foo.rs"]);
    assert_eq!(
        repo.git(&["status", "--porcelain"]).trim(),
        "R  Foo.rs -> foo.rs"
    );
    let status = repo.tool("git_status", "{}");
    assert!(status.contains("renamed   Foo.rs -> foo.rs"), "{status}");
}

#[test]
fn a_linked_worktree_keeps_its_own_drafts() {
    let repo = TestRepo::new();
    repo.write("f.txt", "1\n");
    repo.commit_all("init");
    let worktree = repo.home().join("wt");
    let out = repo.git_output(&["worktree", "add", "-q", worktree.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(worktree.join("f.txt"), "1\n2\n").expect("write");
    repo.git_in(&worktree, &["add", "f.txt"]);

    let fake = FakeProvider::start(vec![Step::text(commit_json("Add a second line", ""))]);
    let env: Vec<(&str, String)> = openai_env(&fake);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut command = Command::new(crate::common::IRIS);
    repo.in_env(command.args(["gen"]).envs(env), &worktree);
    let out = command.output().expect("iris");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "Add a second line");

    let git_dir = repo.git_in(&worktree, &["rev-parse", "--absolute-git-dir"]);
    let git_dir = PathBuf::from(String::from_utf8_lossy(&git_dir.stdout).trim());
    assert!(
        git_dir.join("iris/last-message.json").exists(),
        "{}",
        git_dir.display()
    );
    assert!(!repo.path().join(".git/iris/last-message.json").exists());
    // The main worktree has nothing staged.
    assert!(
        !repo.tool("git_status", "{}").contains("Staged"),
        "main is clean"
    );
}

/// Runs `iris ARGS` with the model answering `title` and `body`; what Iris asked it.
fn written(repo: &TestRepo, args: &[&str], title: &str, body: &str) -> String {
    let fake = FakeProvider::start(vec![Step::text(commit_json(title, body))]);
    success(&run(repo, args, &openai_env(&fake)));
    fake.requests()[0].user_texts().join("\n")
}

#[test]
fn a_merge_in_progress_is_written_from_its_prepared_message_and_resolution() {
    let repo = TestRepo::new();
    repo.write("keep.txt", "k\n");
    let merge = repo.conflicting_merge("shared.txt");
    assert!(!merge.status.success(), "the merge must conflict");
    repo.write("shared.txt", "ours and theirs\n");
    repo.git(&["add", "shared.txt"]);
    let merged = repo.git(&["rev-parse", "MERGE_HEAD"]);

    let asked = written(
        &repo,
        &["gen", "--auto-commit"],
        "Merge branch 'other'",
        "Keeps both sides of shared.txt.",
    );
    assert!(asked.contains("## A merge is in progress"), "{asked}");
    assert!(
        asked.contains("> Merge branch 'other'"),
        "git's prepared title: {asked}"
    );
    assert!(
        asked.contains(&format!("- {} theirs\n", &merged[..7])),
        "incoming: {asked}"
    );
    assert!(
        asked.contains("Conflict in shared.txt, as resolved:"),
        "{asked}"
    );
    assert!(
        asked.contains("-ours\n+ours and theirs"),
        "against HEAD: {asked}"
    );
    assert!(
        asked.contains("-theirs\n+ours and theirs"),
        "against MERGE_HEAD: {asked}"
    );

    // The commit concludes the merge: two parents, the second the merged branch.
    assert_eq!(repo.git(&["rev-parse", "HEAD^2"]), merged);
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]).trim(),
        "Merge branch 'other'"
    );
    assert!(!repo.path().join(".git/MERGE_HEAD").exists());
}

#[test]
fn a_cherry_pick_with_a_conflict_keeps_the_picked_message() {
    let repo = TestRepo::new();
    repo.write("s.txt", "base\n");
    repo.commit_all("base");
    repo.git(&["checkout", "-q", "-b", "other"]);
    repo.write("s.txt", "theirs\n");
    let picked = repo.commit_all("Use their line\n\nBecause it reads better.");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("s.txt", "ours\n");
    repo.commit_all("ours");
    assert!(!repo.git_output(&["cherry-pick", &picked]).status.success());
    repo.write("s.txt", "theirs\n");
    repo.git(&["add", "s.txt"]);

    let asked = written(&repo, &["gen"], "Use their line", "");
    assert!(asked.contains("## A cherry-pick is in progress"), "{asked}");
    assert!(
        asked.contains("> Use their line\n>\n> Because it reads better."),
        "{asked}"
    );
    assert!(
        asked.contains(&format!("- {} Use their line", &picked[..7])),
        "{asked}"
    );
    assert!(
        asked.contains("against the incoming version: the same (that side was kept)"),
        "{asked}"
    );
}
