//! The issue a branch is for reaches Iris: `fix/123-crash` on a GitHub remote has its issue
//! read through a fake `gh` (title and the opening of its body, secrets withheld, kept a day),
//! and the request goes out without it when `gh` cannot answer or `linked_issues = false`.

use crate::common::agent::{commit_json, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, fake_bin, path_with};

/// A repository on branch `fix/123-crash` with a GitHub remote and a change staged.
fn repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("notes.txt", "note\n");
    repo.commit_all("Start");
    repo.git(&["remote", "add", "origin", "https://github.com/acme/app.git"]);
    repo.git(&["checkout", "-q", "-b", "fix/123-crash"]);
    repo.write(
        "src/config.rs",
        "pub fn load(text: &str) -> usize { text.len() }\n",
    );
    repo.git(&["add", "-A"]);
    repo
}

/// A gh that answers `issue view 123` with `body`, or fails as `fail` says; each call logged.
fn gh(body: &str) -> tempfile::TempDir {
    let issue = serde_json::json!({
        "number": 123, "title": "Crash on an empty config", "body": body, "state": "OPEN",
    });
    fake_bin(&[(
        "gh",
        &format!(
            "echo \"$*\" >> \"$(dirname \"$0\")/calls\"\n\
             [ \"$*\" = 'issue view 123 --json=number,title,body,state' ] || exit 1\n\
             printf '%s\\n' '{issue}'"
        ),
    )])
}

/// `iris gen --print` with `tool` first on PATH; what the first request asked.
fn asked(repo: &TestRepo, tool: &tempfile::TempDir) -> String {
    let fake = FakeProvider::start(vec![Step::text(commit_json("Fix the crash", ""))]);
    let mut env = openai_env(&fake);
    env.push((
        "PATH",
        path_with(tool.path()).to_string_lossy().into_owned(),
    ));
    success(&run(repo, &["gen", "--print"], &env));
    fake.requests()[0].user_texts().join("\n")
}

fn calls(tool: &tempfile::TempDir) -> usize {
    std::fs::read_to_string(tool.path().join("calls"))
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn the_branchs_issue_goes_in_the_first_request_with_its_secrets_withheld() {
    let repo = repo();
    let (_, line, secret) = iris_studio_testkit::secrets::leaks()
        .into_iter()
        .find(|(rule, _, _)| *rule == "github-token")
        .expect("a token");
    let tool = gh(&format!(
        "<!-- Say what happened -->\nThe app crashes when the config file is empty: users \
         reinstalling lose their settings.\n\n{line}\n"
    ));
    let request = asked(&repo, &tool);
    assert!(request.contains("## Linked issues"), "{request}");
    assert!(
        request.contains("### #123: Crash on an empty config (open)"),
        "{request}"
    );
    assert!(
        request.contains("users reinstalling lose their settings"),
        "{request}"
    );
    assert!(!request.contains("Say what happened"), "{request}");
    assert!(!request.contains(&secret), "the token reached the provider");
    // Withheld in its place, not dropped with its line.
    assert!(request.contains("[secret: github-token"), "{request}");
    assert_eq!(calls(&tool), 1);
    // Kept a day: the next run does not ask gh again.
    let again = asked(&repo, &tool);
    assert!(
        again.contains("### #123: Crash on an empty config"),
        "{again}"
    );
    assert_eq!(calls(&tool), 1);
}

#[test]
fn without_an_answer_or_when_turned_off_the_request_goes_out_without_it() {
    let repo = repo();
    let refusing = fake_bin(&[(
        "gh",
        "echo \"$*\" >> \"$(dirname \"$0\")/calls\"\n\
         echo 'To get started with GitHub CLI, please run:  gh auth login' >&2; exit 4",
    )]);
    let request = asked(&repo, &refusing);
    assert!(!request.contains("Linked issues"), "{request}");
    assert_eq!(calls(&refusing), 1);

    repo.write(".irisconfig", "linked_issues = false\n");
    let tool = gh("It crashes.");
    let request = asked(&repo, &tool);
    assert!(!request.contains("Linked issues"), "{request}");
    assert_eq!(calls(&tool), 0, "gh is not asked");
}

/// A pull request's description reads every issue its commits name.
#[test]
fn a_pull_request_reads_the_issues_its_commits_name() {
    let repo = TestRepo::new();
    repo.write("notes.txt", "note\n");
    repo.commit_all("Start");
    repo.git(&["remote", "add", "origin", "https://github.com/acme/app.git"]);
    repo.git(&["checkout", "-q", "-b", "feature/config"]);
    repo.write("src/config.rs", "pub fn load() {}\n");
    repo.commit_all("Load the config\n\nFixes #7");
    repo.write(
        "src/config.rs",
        "pub fn load() { check() }\nfn check() {}\n",
    );
    repo.commit_all("Check the config (#8)");
    let tool = fake_bin(&[(
        "gh",
        r#"case "$*" in
'issue view 7 --json=number,title,body,state') echo '{"title":"Config is never loaded","body":"Start-up ignores the file.","state":"CLOSED"}' ;;
'issue view 8 --json=number,title,body,state') echo '{"title":"Bad configs pass silently","body":"","state":"OPEN"}' ;;
*) exit 1 ;;
esac"#,
    )]);
    let pr = serde_json::json!({
        "title": "Load and check the config", "summary": "s", "description": "",
        "changes": [], "testing": [], "breaking_changes": [], "reviewer_notes": [],
        "related_issues": [],
    });
    let fake = FakeProvider::start(vec![
        Step::text(pr.to_string()),
        Step::text(crate::common::agent::approval()),
    ]);
    let mut env = openai_env(&fake);
    env.push((
        "PATH",
        path_with(tool.path()).to_string_lossy().into_owned(),
    ));
    success(&run(&repo, &["pr", "--from", "main"], &env));
    let request = fake.requests()[0].user_texts().join("\n");
    assert!(
        request.contains("### #7: Config is never loaded (closed)\n\nStart-up ignores the file."),
        "{request}"
    );
    assert!(
        request.contains("### #8: Bad configs pass silently (open)"),
        "{request}"
    );
}
