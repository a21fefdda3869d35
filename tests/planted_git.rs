//! A repository cannot supply its own `git`: with `.` (or an empty entry, which means the
//! same) in PATH, the real `iris hook install` and `iris gen --all --auto-commit` run at the
//! top of a repository that commits an executable `git` script, which leaves a mark when it
//! runs. Iris finds git only in PATH's absolute directories, so the mark never appears and
//! both commands work as usual.
#![cfg(unix)]

use std::path::{Path, PathBuf};

use crate::common::Iris;
use crate::common::agent::{commit_json, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, stderr};

/// A repository whose top holds a committed, executable `git` that appends its arguments to
/// the returned file (outside the repository) and fails; a tracked file changed, unstaged.
fn planted() -> (TestRepo, PathBuf) {
    let repo = TestRepo::new();
    let mark = repo
        .path()
        .parent()
        .expect("temp dir")
        .join("planted-git-ran");
    iris_studio_testkit::write_executable(
        &repo.path().join("git"),
        &format!("#!/bin/sh\necho \"$*\" >> '{}'\nexit 1\n", mark.display()),
    );
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    assert!(
        repo.git(&["ls-files", "git"]).trim() == "git",
        "the script is committed"
    );
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    (repo, mark)
}

fn ran(mark: &Path) -> String {
    std::fs::read_to_string(mark).unwrap_or_default()
}

#[test]
fn a_git_the_repository_commits_never_runs_with_the_current_directory_in_path() {
    let real = std::env::var("PATH").expect("PATH");
    for path in [format!(".:{real}"), format!(":{real}")] {
        let (repo, mark) = planted();
        let env = [("PATH", path.as_str())];
        let out = repo.iris_env(&["hook", "install"], &env, "");
        assert_eq!(ran(&mark), "", "hook install ran the planted git ({path})");
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        assert!(repo.path().join(".git/hooks/prepare-commit-msg").exists());

        let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", "Adds two()."))]);
        let mut env = openai_env(&fake);
        env.push(("PATH", path.clone()));
        let out = run(&repo, &["gen", "--all", "--auto-commit"], &env);
        assert_eq!(ran(&mark), "", "gen --all ran the planted git ({path})");
        success(&out);
        assert_eq!(
            repo.git(&["log", "-1", "--format=%B"]).trim(),
            "Add two()\n\nAdds two().",
            "{path}"
        );
        assert_eq!(repo.git(&["status", "--porcelain"]).trim(), "", "{path}");
    }
}
