//! `iris gen --check` end to end on temporary repositories: a message checked against the
//! repository's commit rules without any provider. (The rules themselves, their corpus and
//! lookup order are `iris-config`'s `tests/commit_rules.rs`.)

use crate::common::Iris;

use std::time::Duration;

use crate::common::{TestRepo, stderr, stdout};

/// A repository with `file` holding `text`, and one commit with `message`.
fn repo_with(file: &str, text: &str, message: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write(file, text);
    repo.commit_all(message);
    repo
}

fn check(repo: &TestRepo, args: &[&str], stdin: &str) -> std::process::Output {
    let mut all = vec!["gen", "--check"];
    all.extend_from_slice(args);
    repo.iris_env(&all, &[], stdin)
}

#[test]
fn gen_check_passes_a_clean_message_on_stdin_without_any_provider() {
    let repo = repo_with(
        ".commitlintrc.json",
        r#"{"extends": ["@commitlint/config-conventional"]}"#,
        "chore: add the commitlint config",
    );
    let out = check(&repo, &[], "feat(cli): add the check flag\n\nFor CI.\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "✔ the message follows the rules of .commitlintrc.json\n"
    );
    assert!(stderr(&out).contains("checking the message on stdin against .commitlintrc.json"));
}

#[test]
fn gen_check_fails_a_violation_and_names_the_rule() {
    let repo = repo_with(
        "commitlint.config.js",
        "module.exports = {\n  extends: ['@commitlint/config-conventional'],\n  rules: { 'header-max-length': [2, 'always', 40] },\n};\n",
        "chore: add commitlint",
    );
    let out = check(
        &repo,
        &[],
        "Feature: a header that is certainly longer than forty characters\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "✖ header-max-length: the header is 64 characters, at most 40\n\
         ✖ type-case: the type 'Feature' must be lower-case\n\
         ✖ type-enum: the type 'Feature' is not one of: build, chore, ci, docs, feat, fix, perf, refactor, revert, style, test\n\
         ✖ 3 errors, 0 warnings (rules of commitlint.config.js)\n"
    );
}

#[test]
fn gen_check_passes_warnings() {
    let repo = repo_with(
        ".commitlintrc.yml",
        "extends: ['@commitlint/config-conventional']\n",
        "chore: add commitlint",
    );
    let out = check(
        &repo,
        &[],
        "fix: trim the input\nno blank line before this body\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "⚠ body-leading-blank: the body must follow a blank line\n\
         ⚠ 1 warning (rules of .commitlintrc.yml); the message passes\n"
    );
}

#[test]
fn gen_check_reads_the_last_commit_when_stdin_is_empty_or_a_revision_is_named() {
    let repo = repo_with(
        ".commitlintrc.json",
        r#"{"extends": ["@commitlint/config-conventional"]}"#,
        "chore: add commitlint",
    );
    repo.write("a.txt", "a\n");
    repo.commit_all("Added a file.");
    // CI gives an empty stdin: the last commit is checked.
    let out = check(&repo, &[], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let head = repo.git(&["rev-parse", "--short", "HEAD"]);
    assert!(
        stderr(&out).contains(&format!("checking commit {}", head.trim())),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("✖ subject-full-stop:"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("✖ type-empty:"), "{}", stdout(&out));
    // --rev names another commit, and stdin is then not read.
    let out = check(&repo, &["--rev", "HEAD~1"], "Not read.\n");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[cfg(target_os = "linux")]
#[test]
fn gen_check_in_a_terminal_checks_the_last_commit() {
    use crate::common::pty::PtyProgram;
    let repo = repo_with(
        ".commitlintrc.json",
        r#"{"extends": ["@commitlint/config-conventional"]}"#,
        "chore: add commitlint",
    );
    repo.write("b.txt", "b\n");
    repo.commit_all("fix(io): Retry the write");
    let mut program = PtyProgram::spawn(repo.isolated_iris(&["gen", "--check"]), 120, 20);
    let finished = program.wait_for(Duration::from_secs(30), |screen| {
        screen.contains("error,") || screen.contains("errors,")
    });
    assert!(finished.is_some(), "screen:\n{}", program.text());
    let status = program.child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "screen:\n{}", program.text());
    let text = program.text();
    assert!(text.contains("checking commit"), "{text}");
    assert!(
        text.contains("✖ subject-case: the subject 'Retry the write'"),
        "{text}"
    );
}

#[test]
fn gen_check_without_rules_says_so_and_passes() {
    let repo = repo_with("README.md", "# x\n", "whatever, no rules here");
    let out = check(&repo, &[], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out).trim(),
        "no commitlint or commitizen configuration in this repository: nothing to check"
    );
}

#[test]
fn gen_check_with_a_broken_config_exits_2_with_the_file_and_reason() {
    let repo = repo_with(
        ".commitlintrc.json",
        "{ \"extends\": [\"@commitlint/config-conventional\"], }",
        "chore: broken config",
    );
    let out = check(&repo, &[], "feat: x\n");
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "error: cannot read the commit rules in .commitlintrc.json: not valid JSON"
        ),
        "{err}"
    );
}

#[test]
fn gen_check_refuses_a_configuration_commitlint_refuses_before_checking() {
    // A rule commitlint does not ship, a level outside 0-2, a bare string: commitlint stops
    // on each, so Iris does too, naming the file, the rule and what is wrong.
    for (rules, reason) in [
        (
            r#"{"subject-tense": [2, "always", "imperative"]}"#,
            "no such rule: subject-tense",
        ),
        (
            r#"{"header-max-length": [3, "always", 72]}"#,
            "rule header-max-length: its level is 3, not 0, 1 or 2",
        ),
        (
            r#"{"type-empty": "error"}"#,
            "rule type-empty: its setting is a string, not [level, when, value]",
        ),
    ] {
        let repo = repo_with(
            ".commitlintrc.json",
            &format!(r#"{{"extends": ["@commitlint/config-conventional"], "rules": {rules}}}"#),
            "chore: add the commitlint config",
        );
        let out = check(&repo, &[], "feat: add x\n");
        assert_eq!(out.status.code(), Some(2), "{rules}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!(
                "error: cannot read the commit rules in .commitlintrc.json: {reason}"
            )),
            "{err}"
        );
        assert_eq!(stdout(&out), "");
    }
}

#[test]
fn gen_check_reads_the_parser_options_and_rules_iris_did_not_know() {
    let repo = repo_with(
        "commitlint.config.js",
        r#"export default {
  extends: ["@commitlint/config-conventional"],
  parserPreset: { parserOpts: { issuePrefixes: ["PROJ-"] } },
  rules: {
    "references-empty": [2, "never"],
    "signed-off-by": [2, "always", "Signed-off-by:"],
    "scope-enum": [2, "always", { scopes: ["api", "ui"], delimiters: ["+"] }],
  },
};
"#,
        "chore: add the commitlint config",
    );
    let good = "feat(api+ui): add paging\n\nRefs PROJ-12\n\nSigned-off-by: Ada <ada@example.com>\n";
    let out = check(&repo, &[], good);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let out = check(&repo, &[], "feat(api/ui): add paging\n\nFixes #12\n");
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    for rule in ["references-empty", "scope-enum", "signed-off-by"] {
        assert!(text.contains(&format!("✖ {rule}:")), "{rule}: {text}");
    }
}

#[test]
fn gen_check_takes_no_generation_flags() {
    let repo = repo_with("README.md", "# x\n", "init");
    let out = check(&repo, &["--auto-commit"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn gen_check_rev_a_range_checks_every_commit_and_names_those_that_fail() {
    let repo = repo_with(
        ".commitlintrc.json",
        r#"{"extends": ["@commitlint/config-conventional"]}"#,
        "chore: add the commitlint config",
    );
    repo.git(&["tag", "base"]);
    for (file, message) in [
        ("a.txt", "feat: add a"),
        ("b.txt", "Added b"),
        ("c.txt", "fix(c): repair c"),
        ("d.txt", "WIP"),
    ] {
        repo.write(file, "x\n");
        repo.commit_all(message);
    }
    let out = check(&repo, &["--rev", "base..HEAD"], "Not read.\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let printed = stdout(&out);
    let lines: Vec<&str> = printed.lines().filter(|l| !l.starts_with("    ")).collect();
    let id = |rev: &str| {
        repo.git(&["rev-parse", "--short=7", rev])
            .trim()
            .to_string()
    };
    assert_eq!(lines[0], format!("✔ {} feat: add a", id("HEAD~3")));
    assert_eq!(lines[1], format!("✖ {} Added b", id("HEAD~2")));
    assert_eq!(lines[3], format!("✖ {} WIP", id("HEAD")));
    assert!(printed.contains("    ✖ type-empty"), "{printed}");
    assert_eq!(
        lines[4],
        format!(
            "✖ 2 of 4 commits break the rules of .commitlintrc.json: {}, {}",
            id("HEAD~2"),
            id("HEAD")
        )
    );
    assert!(stderr(&out).contains("checking the 4 commits of base..HEAD"));

    // A range whose commits all pass, an open end, an empty range.
    let out = check(&repo, &["--rev", "base..HEAD~2"], "");
    assert_eq!(out.status.code(), Some(1));
    let out = check(&repo, &["--rev", "HEAD~3..HEAD~2"], "");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let out = check(&repo, &["--rev", "base..HEAD~3"], "");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).ends_with("✔ the commit follows the rules of .commitlintrc.json\n"));
    let out = check(&repo, &["--rev", "HEAD.."], "");
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (
            Some(0),
            "no commits in HEAD..HEAD: nothing to check\n".to_string()
        )
    );
    for wrong in ["..HEAD", "base...HEAD", "nope..HEAD"] {
        let out = check(&repo, &["--rev", wrong], "");
        assert_eq!(out.status.code(), Some(2), "{wrong}: {}", stderr(&out));
    }
}
