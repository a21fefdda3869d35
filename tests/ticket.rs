//! Ticket ids from the branch's name: offered to the model, and placed the way the project's
//! history places them (a title prefix or a trailer). The real binary on temporary
//! repositories, talking to the fake provider.

use crate::common::TestRepo;
use crate::common::agent::{commit_json, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};

/// A repository whose history is `messages` (oldest first), on `branch`, with a change staged.
fn repo_on(branch: &str, messages: &[&str]) -> TestRepo {
    let repo = TestRepo::new();
    for (i, message) in messages.iter().enumerate() {
        repo.write("notes.txt", format!("note {i}\n"));
        repo.commit_all(message);
    }
    repo.git(&["checkout", "-q", "-b", branch]);
    repo.write("src/lib.rs", "pub fn login() {}\n");
    repo.git(&["add", "-A"]);
    repo
}

/// `iris gen --print` answered with `title` and `body`: what it printed, and what it asked.
fn generate(repo: &TestRepo, title: &str, body: &str) -> (String, String, usize) {
    let fake = FakeProvider::start(vec![Step::text(commit_json(title, body))]);
    let out = success(&run(repo, &["gen", "--print"], &openai_env(&fake)));
    let requests = fake.requests();
    (
        out.trim_end().to_string(),
        requests[0].user_texts().join("\n"),
        requests.len(),
    )
}

#[test]
fn a_project_that_prefixes_its_titles_gets_the_branchs_ticket_as_a_prefix() {
    let repo = repo_on(
        "feature/PROJ-42-login",
        &["PROJ-1: Start", "PROJ-2: Add notes", "Tidy up"],
    );
    let (out, asked, _) = generate(&repo, "Add the login", "");
    assert_eq!(out, "PROJ-42: Add the login");
    assert!(
        asked.contains(
            "## Ticket\nThe branch `feature/PROJ-42-login` names the ticket PROJ-42. This \
             project starts its commit titles with the ticket (`PROJ-42: Fix the login`)"
        ),
        "{asked}"
    );
    // A model that already wrote it is left alone.
    let (out, _, _) = generate(&repo, "PROJ-42: Add the login", "");
    assert_eq!(out, "PROJ-42: Add the login");
}

#[test]
fn a_project_with_trailers_gets_one() {
    let repo = repo_on(
        "fix/#45-crash",
        &["Start\n\nRefs: #1", "Add notes\n\nWhy.\n\nRefs: #2"],
    );
    let (out, asked, _) = generate(&repo, "Fix the crash", "The parser read past the end.");
    assert_eq!(
        out,
        "Fix the crash\n\nThe parser read past the end.\n\nRefs: #45"
    );
    assert!(
        asked.contains("in a trailer, a last line of its own (`Refs: #45`)"),
        "{asked}"
    );
}

#[test]
fn without_a_habit_the_ticket_is_only_offered() {
    let repo = repo_on("feature/PROJ-42-login", &["Start", "Add notes"]);
    let (out, asked, _) = generate(&repo, "Add the login", "");
    assert_eq!(out, "Add the login");
    assert!(asked.contains("names the ticket PROJ-42."), "{asked}");
    assert!(asked.contains("shows no habit"), "{asked}");
}

#[test]
fn a_branch_without_a_ticket_adds_nothing() {
    let repo = repo_on("feature/login", &["PROJ-1: Start", "PROJ-2: Add notes"]);
    let (out, asked, _) = generate(&repo, "Add the login", "");
    assert_eq!(out, "Add the login");
    assert!(!asked.contains("## Ticket"), "{asked}");
}

#[test]
fn rules_that_read_the_type_first_move_a_prefix_into_a_trailer() {
    let repo = repo_on(
        "feature/PROJ-42-login",
        &["PROJ-1: feat: start", "PROJ-2: docs: add notes"],
    );
    repo.write(
        ".commitlintrc.json",
        r#"{"rules": {"type-enum": [2, "always", ["feat", "fix", "docs"]]}}"#,
    );
    let (out, _, requests) = generate(&repo, "feat: add the login", "");
    assert_eq!(out, "feat: add the login\n\nRefs: PROJ-42");
    assert_eq!(requests, 1, "the message follows the rules: no retry");
}

#[test]
fn a_pull_request_is_told_the_ticket_for_its_related_issues() {
    let repo = repo_on(
        "feature/PROJ-42-login",
        &["PROJ-1: Start", "PROJ-2: Add notes"],
    );
    repo.commit_all("PROJ-42: Add the login");
    let pr = serde_json::json!({
        "title": "Add the login", "summary": "Adds a login.", "description": "",
        "changes": [], "testing": [], "breaking_changes": [], "reviewer_notes": [],
        "related_issues": ["PROJ-42"]
    });
    repo.write(".irisconfig", "critic_enabled = false\n");
    let fake = FakeProvider::start(vec![Step::text(pr.to_string())]);
    let env = openai_env(&fake);
    let out = success(&run(&repo, &["pr", "--from", "main"], &env));
    assert!(out.contains("PROJ-42"), "{out}");
    let asked = fake.requests()[0].user_texts().join("\n");
    assert!(
        asked.contains("names the ticket PROJ-42. List it among the related issues."),
        "{asked}"
    );
}
