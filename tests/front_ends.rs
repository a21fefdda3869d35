//! The recipes the book gives for other git front-ends (lazygit, Vim), run as written: their
//! command lines are read from docs/hooks.md, so a recipe that drifts from the binary fails
//! here.

use crate::common::agent::{commit_json, openai_env, shell, staged_repo};
use crate::common::fake_provider::{FakeProvider, Step};

const HOOKS: &str = include_str!("../docs/hooks.md");

/// The line of the hooks chapter that starts with `prefix` (trimmed), without it.
fn recipe(prefix: &str) -> String {
    HOOKS
        .lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` recipe in docs/hooks.md"))
        .trim()
        .to_string()
}

#[test]
fn the_lazygit_recipe_commits_with_iris_message() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", "Adds two()."))]);
    let line = recipe("command:");
    assert!(line.contains("iris gen --print --no-stream"), "{line}");
    let out = shell(&repo, &line, &openai_env(&fake), "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        repo.git(&["log", "-1", "--format=%B"]).trim_end(),
        "Add two()\n\nAdds two()."
    );
}

#[test]
fn the_vim_recipe_reads_the_message_alone() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", "Adds two()."))]);
    let line = recipe(":0read !");
    let out = shell(&repo, &line, &openai_env(&fake), "");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Add two()\n\nAdds two().\n"
    );
    // Nothing staged: nothing on stdout, a failure the editor shows.
    repo.git(&["reset", "-q"]);
    let out = shell(&repo, &line, &openai_env(&fake), "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
