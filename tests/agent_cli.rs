//! The generation commands end to end: the real binary on a temporary repository, talking to
//! the fake provider on 127.0.0.1.

mod common;

use common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use common::{TestRepo, stderr, stdout};
use serde_json::json;

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

fn run(repo: &TestRepo, args: &[&str], env: &[(&'static str, String)]) -> std::process::Output {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    repo.iris_env(args, &env, "")
}

#[test]
fn gen_prints_a_message_after_a_tool_round() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", json!({"detail": "standard"})),
        Step::text(
            r#"{"emoji": null, "title": "Add two()", "message": "Adds a second constant function."}"#,
        ),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "Add two()\n\nAdds a second constant function."
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].tool_names().iter().any(|t| t == "git_diff"));
    let results = requests[1].tool_results();
    assert!(
        results
            .iter()
            .any(|(_, text)| text.contains("+pub fn two() -> u32 {")),
        "{results:?}"
    );
}
