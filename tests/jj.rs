//! Iris in jj (Jujutsu) workspaces made with `jj git init`, colocated with git and not:
//! `iris gen` writes `@`'s description from `@`'s own diff, `--describe` sets it, and
//! `--auto-commit` records it as `jj commit` does; the checks jj's missing hooks would make
//! run in Iris; and what cannot work is said (jj missing or too old, a conflicted or empty
//! change).

use crate::common::agent::{commit_json, failure, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{Iris, TestRepo, stderr, stdout};

/// `Add one()`, and `@` on it adding `two()`.
fn workspace(colocated: bool) -> TestRepo {
    TestRepo::jj_adding_two(colocated)
}

fn reply() -> FakeProvider {
    FakeProvider::start(vec![Step::text(commit_json(
        "Add two()",
        "A second constant function.",
    ))])
}

/// `rev`'s change id (full).
fn change_id(repo: &TestRepo, rev: &str) -> String {
    repo.jj_field(rev, "change_id")
}

#[test]
fn gen_writes_the_working_copy_s_description_from_its_own_diff_colocated_or_not() {
    for colocated in [true, false] {
        let repo = workspace(colocated);
        let fake = reply();
        let out = success(&run(&repo, &["gen"], &openai_env(&fake)));
        assert_eq!(out.trim(), "Add two()\n\nA second constant function.");
        let requests = fake.requests();
        let asked = requests[0].user_texts().join("\n");
        let commit = commit_id(&repo, "@");
        assert!(
            asked.contains(&format!("Write the commit message for commit {commit}")),
            "{asked}"
        );
        assert!(asked.contains("+pub fn two() -> u32 {"), "{asked}");
        // The history sample is jj's log before the change.
        assert!(asked.contains("- Add one()"), "{asked}");
        // Printing describes nothing.
        assert_eq!(repo.jj_description("@"), "");
    }
}

#[test]
fn describe_sets_the_change_s_description_and_stays_on_it() {
    let repo = workspace(false);
    let before = change_id(&repo, "@");
    let fake = reply();
    let out = run(&repo, &["gen", "--describe"], &openai_env(&fake));
    success(&out);
    assert_eq!(change_id(&repo, "@"), before);
    assert_eq!(
        repo.jj_description("@"),
        "Add two()\n\nA second constant function.\n"
    );
    assert!(stderr(&out).contains("Working copy"), "{}", stderr(&out));
}

#[test]
fn auto_commit_records_the_change_and_starts_an_empty_one_colocated() {
    let repo = workspace(true);
    let before = change_id(&repo, "@");
    let fake = reply();
    success(&run(&repo, &["gen", "--auto-commit"], &openai_env(&fake)));
    assert_eq!(change_id(&repo, "@-"), before);
    assert_eq!(
        repo.jj_description("@-"),
        "Add two()\n\nA second constant function.\n"
    );
    assert_eq!(repo.jj_field("@", "empty"), "true");
    // Colocated: git sees the commit too.
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s", "HEAD"]).trim(),
        "Add two()"
    );
}

#[test]
fn another_change_is_described_with_rev_and_its_trailers_stay() {
    let repo = workspace(false);
    repo.jj(&[
        "commit",
        "-m",
        "wip\n\nSigned-off-by: Test Author <author@example.com>",
    ]);
    let fake = reply();
    success(&run(
        &repo,
        &["gen", "-r", "@-", "--describe"],
        &openai_env(&fake),
    ));
    assert_eq!(
        repo.jj_description("@-"),
        "Add two()\n\nA second constant function.\n\nSigned-off-by: Test Author <author@example.com>\n"
    );
}

#[test]
fn an_empty_or_conflicted_change_is_said_and_nothing_is_asked() {
    let repo = TestRepo::jj_workspace(true);
    let fake = reply();
    let err = failure(&run(&repo, &["gen"], &openai_env(&fake)), 2);
    assert!(
        err.contains("is empty: there is nothing to describe"),
        "{err}"
    );

    // Two sides change one line; their merge is conflicted.
    repo.jj_conflict();
    let out = run(&repo, &["gen"], &openai_env(&fake));
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("has unresolved conflicts"), "{said}");
    assert!(said.contains("a.txt"), "{said}");
    assert!(fake.requests().is_empty());
}

#[test]
fn the_commit_rules_and_the_secret_scan_run_before_a_description_is_set() {
    let repo = workspace(true);
    repo.write(
        ".commitlintrc.json",
        r#"{"rules": {"type-enum": [2, "always", ["feat", "fix"]], "type-empty": [2, "never"]}}"#,
    );
    let fake = reply();
    let out = run(&repo, &["gen", "--describe"], &openai_env(&fake));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("not described: the message breaks the commit rules"));
    assert!(stderr(&out).contains("jj runs no git hooks"));
    // Nothing is lost: the message is on stdout.
    assert!(stdout(&out).contains("Add two()"));
    assert_eq!(repo.jj_description("@"), "");

    std::fs::remove_file(repo.path().join(".commitlintrc.json")).expect("rules gone");
    let key = format!("AKIA{}", "Z7Q3X9RT2LMN4PWK");
    repo.write(".env", format!("AWS_ACCESS_KEY_ID={key}\n"));
    let fake = reply();
    let out = run(&repo, &["gen", "--describe"], &openai_env(&fake));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains("looks like a secret (aws-access-key at .env:1"),
        "{said}"
    );
    assert!(!said.contains(&key), "{said}");
    assert_eq!(repo.jj_description("@"), "");
    // --no-verify describes all the same.
    let fake = reply();
    success(&run(
        &repo,
        &["gen", "--describe", "--no-verify"],
        &openai_env(&fake),
    ));
    assert!(repo.jj_description("@").starts_with("Add two()"));
}

#[test]
fn a_missing_or_old_jj_is_said_with_what_to_do() {
    use std::os::unix::fs::symlink;
    let repo = workspace(false);
    let fake = reply();
    // A PATH with git and no jj.
    let bin = tempfile::tempdir().expect("bin dir");
    let git = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join("git"))
        .find(|git| git.is_file())
        .expect("git on PATH");
    symlink(&git, bin.path().join("git")).expect("link git");
    let mut env = openai_env(&fake);
    env.push(("PATH", bin.path().display().to_string()));
    let err = failure(&run(&repo, &["gen"], &env), 3);
    assert!(
        err.contains("is a jj repository and jj is not installed"),
        "{err}"
    );
    assert!(err.contains("cargo install jj-cli"), "{err}");

    iris_studio_testkit::write_executable(&bin.path().join("jj"), "#!/bin/sh\necho 'jj 0.20.0'\n");
    let err = failure(&run(&repo, &["gen"], &env), 3);
    assert!(
        err.contains("jj 0.20.0 is too old: Iris needs jj 0.30.0 or newer"),
        "{err}"
    );
    assert!(fake.requests().is_empty());
}

#[test]
fn git_only_flags_say_what_jj_does_instead() {
    let repo = workspace(true);
    let fake = reply();
    let err = failure(&run(&repo, &["gen", "--all"], &openai_env(&fake)), 2);
    assert!(err.contains("jj has no staging area"), "{err}");
    let err = failure(&run(&repo, &["gen", "--amend"], &openai_env(&fake)), 2);
    assert!(err.contains("--describe"), "{err}");
    let err = failure(
        &run(
            &repo,
            &["gen", "-r", "@-", "--auto-commit"],
            &openai_env(&fake),
        ),
        2,
    );
    assert!(
        err.contains("--auto-commit records the working copy"),
        "{err}"
    );
    // In git, --describe is refused the other way round.
    let git = TestRepo::new();
    let err = failure(&run(&git, &["gen", "--describe"], &openai_env(&fake)), 2);
    assert!(err.contains("--describe is for jj repositories"), "{err}");
    assert!(fake.requests().is_empty());
}

#[test]
fn reword_describes_each_change_anew_and_names_the_operation_that_undoes_it() {
    let repo = workspace(false);
    repo.jj(&["commit", "-m", "wip"]);
    let fake = FakeProvider::start(vec![Step::text(commit_json(
        "Add two()",
        "A second constant.",
    ))]);
    let out = run(
        &repo,
        &["reword", "root()..@-", "--apply", "--yes"],
        &openai_env(&fake),
    );
    success(&out);
    assert_eq!(
        repo.jj_description("@-"),
        "Add two()\n\nA second constant.\n"
    );
    // The first change sits on jj's root: there is no parent to write it against.
    assert_eq!(repo.jj_description("@--"), "Add one()\n");
    assert_eq!(fake.requests().len(), 1);
    let said = stderr(&out);
    let op = said
        .split("`jj op restore ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("no operation named: {said}"));
    repo.jj(&["op", "restore", op]);
    assert_eq!(repo.jj_description("@-"), "wip\n");
}

#[test]
fn reword_refuses_immutable_changes_without_force() {
    let repo = workspace(true);
    repo.jj(&["commit", "-m", "wip"]);
    repo.jj(&["bookmark", "create", "main", "-r", "@-"]);
    let fake = reply();
    let env = openai_env(&fake);
    let config = repo.home().join("xdg/jj/config.toml");
    let text = std::fs::read_to_string(&config).expect("jj config");
    std::fs::write(
        &config,
        format!("{text}[revset-aliases]\n\"immutable_heads()\" = \"main\"\n"),
    )
    .expect("jj config");
    let err = failure(&run(&repo, &["reword", "@-", "--apply", "--yes"], &env), 2);
    assert!(err.contains("are immutable in jj"), "{err}");
    assert!(err.contains("--force"), "{err}");
    assert!(fake.requests().is_empty());
}

/// `rev`'s commit id.
fn commit_id(repo: &TestRepo, rev: &str) -> String {
    repo.jj_field(rev, "commit_id")
}

#[test]
fn review_pr_and_changelog_read_jj_revisions_with_trunk_as_the_base() {
    let repo = workspace(true);
    let fake = reply();
    let env = openai_env(&fake);
    // review: @'s own change.
    let out = success(&run(&repo, &["review", "--dry-run"], &env));
    assert!(
        out.contains(&format!("Review commit {}", commit_id(&repo, "@"))),
        "{out}"
    );
    repo.jj(&["commit", "-m", "Add two()"]);
    // No remote: trunk() is jj's root, which starts no range.
    let err = failure(&run(&repo, &["pr", "--dry-run"], &env), 2);
    assert!(err.contains("trunk() is the root"), "{err}");
    // A bookmark names the base; an empty @ leaves the range at @-.
    repo.jj(&["bookmark", "create", "base", "-r", "@--"]);
    let (base, top) = (commit_id(&repo, "base"), commit_id(&repo, "@-"));
    let out = success(&run(&repo, &["pr", "--from", "base", "--dry-run"], &env));
    assert!(out.contains(&format!("from {base} to {top}")), "{out}");
    let out = success(&run(
        &repo,
        &["changelog", "--from", "base", "--to", "@-", "--dry-run"],
        &env,
    ));
    assert!(out.contains(&format!("from {base} to {top}")), "{out}");
    assert!(out.contains("Add two()"), "{out}");
    assert!(fake.requests().is_empty());
}

/// `f.txt`'s lines 2 and 18 renamed (`h1`, `h2`) and `new.txt` added (`h3`).
fn tangled(colocated: bool) -> TestRepo {
    TestRepo::jj_tangled(colocated)
}

const TWO_GROUPS: &str = r#"{"groups":[
    {"message":"Name the second line\n\nWith a new file.","hunks":["h1","h3"]},
    {"message":"Name the eighteenth line","hunks":["h2"]}]}"#;

/// `rev`'s files as jj summarises them (`M f.txt`).
fn summary(repo: &TestRepo, rev: &str) -> String {
    repo.jj_field(rev, "diff.summary()")
}

#[test]
fn split_is_planned_by_iris_and_applied_with_jj_hunk_by_hunk() {
    for colocated in [false, true] {
        let repo = tangled(colocated);
        let before = change_id(&repo, "@");
        let fake = FakeProvider::start(vec![Step::text(TWO_GROUPS)]);
        let out = run(&repo, &["split", "--apply", "--yes"], &openai_env(&fake));
        success(&out);
        assert!(
            fake.requests()[0].user_texts().join("\n").contains("f.txt"),
            "Iris was shown the change"
        );
        // The first group keeps the change's id; the rest is a new change on top.
        assert_eq!(change_id(&repo, "@-"), before);
        assert_eq!(
            repo.jj_description("@-"),
            "Name the second line\n\nWith a new file.\n"
        );
        assert_eq!(summary(&repo, "@-"), "M f.txt\nA new.txt\n");
        assert_eq!(repo.jj_description("@"), "Name the eighteenth line\n");
        assert_eq!(summary(&repo, "@"), "M f.txt\n");
        let first = repo.jj(&["file", "show", "-r", "@-", "f.txt"]);
        assert!(
            first.contains("two\n") && first.contains("\n18\n"),
            "{first}"
        );
        // The working copy is as it was.
        let now = std::fs::read_to_string(repo.path().join("f.txt")).expect("f.txt");
        assert!(now.contains("two\n") && now.contains("eighteen\n"), "{now}");
        // jj's operation before the split puts it back.
        let said = stderr(&out);
        let op = said
            .split("`jj op restore ")
            .nth(1)
            .and_then(|rest| rest.split('`').next())
            .unwrap_or_else(|| panic!("no operation named: {said}"));
        repo.jj(&["op", "restore", op]);
        assert_eq!(change_id(&repo, "@"), before);
        assert_eq!(summary(&repo, "@"), "M f.txt\nA new.txt\n");
    }
}

/// `iris split` with `revision` (`-r REV`, or none for `@`) applying [`TWO_GROUPS`] from a
/// plan file.
fn split_by_plan_file(repo: &TestRepo, revision: &[&str], env: &[(&'static str, String)]) {
    let plan = repo.home().join("plan.json");
    std::fs::write(&plan, TWO_GROUPS).expect("plan");
    let plan = plan.display().to_string();
    let mut args = vec!["split"];
    args.extend(revision);
    args.extend(["--plan", plan.as_str(), "--apply", "--yes"]);
    success(&run(repo, &args, env));
}

#[test]
fn split_takes_a_plan_file_undoes_and_refuses_what_jj_has_no_use_for() {
    let repo = tangled(false);
    repo.jj(&["commit", "-m", "wip"]);
    let fake = reply();
    let env = openai_env(&fake);
    split_by_plan_file(&repo, &["-r", "@-"], &env);
    assert_eq!(
        repo.jj_description("@--"),
        "Name the second line\n\nWith a new file.\n"
    );
    assert_eq!(repo.jj_description("@-"), "Name the eighteenth line\n");
    assert_eq!(repo.jj_field("@", "empty"), "true");
    let err = failure(&run(&repo, &["split", "--staged"], &env), 2);
    assert!(err.contains("jj has no staging area"), "{err}");
    // --undo restores jj's operation from before the split.
    let out = success(&run(&repo, &["split", "--undo"], &env));
    assert!(out.contains("Undid the split"), "{out}");
    assert_eq!(repo.jj_description("@-"), "wip\n");
    assert_eq!(summary(&repo, "@-"), "M f.txt\nA new.txt\n");
    let err = failure(&run(&repo, &["split", "--undo"], &env), 1);
    assert!(err.contains("there is no split to undo"), "{err}");
    assert!(fake.requests().is_empty());
}

#[test]
fn eval_replays_jj_history_and_leaves_the_workspace_as_it_was() {
    let repo = TestRepo::jj_workspace(false);
    for (n, title) in [(1, "Add one()"), (2, "Add two()"), (3, "Add three()")] {
        repo.write(&format!("src/f{n}.rs"), format!("pub fn f{n}() {{}}\n"));
        repo.jj(&["commit", "-m", title]);
    }
    let log = |repo: &TestRepo| repo.jj(&["log", "--no-graph", "-r", "all()"]);
    let ops = |repo: &TestRepo| repo.jj(&["op", "log", "--no-graph", "-T", "id ++ \"\\n\""]);
    let (log_before, ops_before) = (log(&repo), ops(&repo));
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("Add three()", "")),
        Step::text(commit_json("Add f2", "")),
    ]);
    let out = run(&repo, &["eval", "--last", "2"], &openai_env(&fake));
    success(&out);
    let said = stderr(&out);
    assert!(
        said.contains("evaluating 2 commit(s), the last 2 non-merge changes of jj's @-"),
        "{said}"
    );
    assert!(
        said.contains("Add three()") && said.contains("Add two()"),
        "{said}"
    );
    // Each was written from its own change, with only the history before it.
    let requests = fake.requests();
    let first = requests[0].user_texts().join("\n");
    assert!(
        first.contains("src/f3.rs") && first.contains("- Add two()"),
        "{first}"
    );
    assert!(!first.contains("- Add three()"), "{first}");
    assert!(stdout(&out).contains("Add three()"), "{}", stdout(&out));
    // The workspace is as it was: no change, no operation.
    assert_eq!(log(&repo), log_before);
    assert_eq!(ops(&repo), ops_before);
}

#[test]
fn gen_check_reads_jj_s_descriptions() {
    let repo = workspace(false);
    repo.write(
        ".commitlintrc.json",
        r#"{"rules": {"type-enum": [2, "always", ["feat", "fix"]], "type-empty": [2, "never"]}}"#,
    );
    repo.jj(&["describe", "-m", "feat: add two()"]);
    // Without a revision: @'s description.
    let out = repo.iris_env(&["gen", "--check"], &[], "");
    assert!(out.status.success(), "{}", stderr(&out));
    // A change by name, and a range of them.
    let out = repo.iris_env(&["gen", "--check", "--rev", "@-"], &[], "");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("type-empty"), "{}", stdout(&out));
    let out = repo.iris_env(&["gen", "--check", "--rev", "@-..@"], &[], "");
    assert!(out.status.success(), "{}", stderr(&out));
    // An undescribed @ leaves it to @-.
    repo.jj(&["new"]);
    let out = repo.iris_env(&["gen", "--check"], &[], "");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn absorb_and_the_hook_point_at_what_jj_does_instead() {
    let repo = workspace(true);
    let fake = reply();
    let err = failure(&run(&repo, &["absorb"], &openai_env(&fake)), 2);
    assert!(err.contains("`jj absorb`"), "{err}");
    let err = failure(&run(&repo, &["hook", "install"], &openai_env(&fake)), 2);
    assert!(err.contains("jj runs no git hooks"), "{err}");
    assert!(!repo.path().join(".git/hooks/prepare-commit-msg").exists());
}

#[test]
fn a_description_carries_no_control_characters_from_the_model() {
    let repo = workspace(false);
    let fake = FakeProvider::start(vec![Step::text(commit_json(
        "Add two()\u{1b}[2J",
        "A second\u{7} constant.",
    ))]);
    success(&run(&repo, &["gen", "--describe"], &openai_env(&fake)));
    let description = repo.jj_description("@");
    assert!(description.starts_with("Add two()"), "{description:?}");
    assert!(
        !description.contains('\u{1b}') && !description.contains('\u{7}'),
        "{description:?}"
    );
}

#[test]
fn changelog_starts_after_trunk_in_jj_and_asks_for_from_in_git() {
    let repo = workspace(true);
    repo.jj(&["commit", "-m", "Add two()"]);
    repo.jj(&["bookmark", "create", "main", "-r", "@--"]);
    // trunk() as a project with a remote has it: here, the main bookmark.
    repo.jj(&[
        "config",
        "set",
        "--repo",
        "revset-aliases.\"trunk()\"",
        "main",
    ]);
    let fake = reply();
    let env = openai_env(&fake);
    let out = success(&run(&repo, &["changelog", "--dry-run"], &env));
    let (main, top) = (commit_id(&repo, "main"), commit_id(&repo, "@-"));
    assert!(out.contains(&format!("from {main} to {top}")), "{out}");
    let git = TestRepo::new();
    git.write("a.txt", "a\n");
    git.commit_all("First");
    let err = failure(&run(&git, &["changelog"], &env), 2);
    assert!(err.contains("--from REF is needed"), "{err}");
}

#[test]
fn a_split_is_undone_only_while_jj_has_done_nothing_since() {
    let repo = tangled(true);
    let fake = reply();
    let env = openai_env(&fake);
    split_by_plan_file(&repo, &[], &env);
    // An edit after the split is an operation of its own: restoring would lose it.
    repo.write("later.txt", "later\n");
    let err = failure(&run(&repo, &["split", "--undo"], &env), 1);
    assert!(err.contains("jj has done more since the split"), "{err}");
    assert!(repo.path().join("later.txt").exists());
    assert_eq!(
        repo.jj_description("@-"),
        "Name the second line\n\nWith a new file.\n"
    );
}

#[test]
fn a_merge_is_not_described_from_one_parent_s_diff() {
    let repo = workspace(false);
    repo.jj(&["commit", "-m", "Add two()"]);
    repo.jj(&["new", "@--", "-m", "Side"]);
    repo.write("side.txt", "side\n");
    repo.jj(&[
        "new",
        "description(substring:\"Add two\")",
        "description(substring:Side)",
    ]);
    repo.write("merged.txt", "both\n");
    let fake = reply();
    let err = failure(&run(&repo, &["gen"], &openai_env(&fake)), 2);
    assert!(err.contains("merges 2 changes"), "{err}");
    assert!(fake.requests().is_empty());
}

#[test]
fn a_second_workspace_reads_its_own_files() {
    let repo = workspace(true);
    let second = repo.home().join("second");
    repo.jj(&["workspace", "add", &second.display().to_string()]);
    // The project's rules exist in the second workspace's working copy only.
    std::fs::write(
        second.join(".commitlintrc.json"),
        r#"{"rules": {"type-empty": [2, "never"]}}"#,
    )
    .expect("rules");
    let fake = reply();
    let mut command = std::process::Command::new(crate::common::IRIS);
    repo.in_env(command.args(["gen", "--describe"]), &second);
    for (name, value) in openai_env(&fake) {
        command.env(name, value);
    }
    let out = command.output().expect("run iris");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("breaks the commit rules"),
        "{}",
        stderr(&out)
    );
}
