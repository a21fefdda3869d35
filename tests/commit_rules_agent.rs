//! Iris and the repository's commit rules: a commit message written in a repository with a
//! commitlint configuration carries the rules in its first request, is checked against them,
//! and is asked for once more when it breaks an error-level rule. The real binary on
//! temporary repositories with real configuration files, talking to the fake provider; and
//! the agent itself, for the events it reports.

use crate::common::TestRepo;
use crate::common::agent::{
    approval, commit_json, openai_env, openai_lookup, run, staged_repo, success,
};
use crate::common::fake_provider::{FakeProvider, Recorded, Step};
use crate::common::stderr;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::{EventSink, IrisAgent};
use iris_studio_config::{Config, Overrides};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_git::GitRepo;

/// Conventional commits, three types, headers of at most 50 characters.
const COMMITLINT_JS: &str = "\
// The project's commit rules.
module.exports = {
  extends: ['@commitlint/config-conventional'],
  rules: {
    'type-enum': [2, 'always', ['feat', 'fix', 'docs']],
    'header-max-length': [2, 'always', 50],
  },
};
";

/// How the first request introduces the rules.
const SECTION: &str = "## This project's commit rules (commitlint.config.js)";

/// A repository with a change staged and the rules at its root.
fn repo_with_rules(file: &str, text: &str) -> TestRepo {
    let repo = staged_repo();
    repo.write(file, text);
    repo
}

fn asked(request: &Recorded) -> String {
    request.user_texts().join("\n")
}

/// The lines of stderr that are warnings.
fn warnings(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("warning")).collect()
}

#[test]
fn the_first_request_carries_the_rules_and_a_repository_without_rules_none() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let fake = FakeProvider::start(vec![Step::text(commit_json("feat: add two()", ""))]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "feat: add two()");
    assert!(warnings(&stderr(&out)).is_empty(), "{}", stderr(&out));
    let requests = fake.requests();
    assert_eq!(
        requests.len(),
        1,
        "a message that follows the rules: one request"
    );
    let first = asked(&requests[0]);
    assert!(
        first.starts_with("Write the commit message for the staged changes."),
        "{first}"
    );
    for sentence in [
        SECTION,
        "- The type is one of: feat, fix, docs\n",
        "- The header (first line) is at most 50 characters\n",
        "- The subject does not end with '.'",
        // config-conventional's warning-level rule, said to be one.
        "- A blank line separates the header from the body (a warning)",
    ] {
        assert!(first.contains(sentence), "{sentence:?} in {first}");
    }
    // Before the evidence, which a retry on a full context drops.
    let rules_at = first.find(SECTION).unwrap_or(usize::MAX);
    let evidence_at = first
        .find("## Evidence gathered up front")
        .unwrap_or_default();
    assert!(rules_at < evidence_at, "{first}");

    let plain = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    let out = run(&plain, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let first = asked(&requests[0]);
    assert!(!first.contains("commit rules"), "{first}");
    assert!(
        first.starts_with(
            "Write the commit message for the staged changes.\n\n## Evidence gathered up front"
        ),
        "{first}"
    );
}

#[test]
fn a_message_that_breaks_a_rule_is_asked_for_once_more_and_the_revision_printed() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let fake = FakeProvider::start(vec![
        Step::text(commit_json(
            "feature: add two()",
            "Adds a second constant function.",
        )),
        Step::text(commit_json(
            "feat: add two()",
            "Adds a second constant function.",
        )),
        Step::text(commit_json("fix: never asked for", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(
        success(&out).trim(),
        "feat: add two()\n\nAdds a second constant function."
    );
    assert!(warnings(&stderr(&out)).is_empty(), "{}", stderr(&out));
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "the first reply, then one more");
    assert_eq!(fake.remaining(), 1);
    // The same capability: the writer's own instructions and schema.
    assert_eq!(requests[1].system_text(), requests[0].system_text());
    assert!(
        requests[0].body.get("text").is_some()
            && requests[1].body.get("text") == requests[0].body.get("text"),
        "the same output format"
    );
    let again = asked(&requests[1]);
    for needed in [
        "Write the commit message for the staged changes.",
        SECTION,
        "## Your message\nfeature: add two()\n\nAdds a second constant function.",
        "## Rules it breaks (commitlint.config.js)",
        "- type-enum: the type 'feature' is not one of: feat, fix, docs",
    ] {
        assert!(again.contains(needed), "{needed:?} in {again}");
    }
    // A short follow-up: what to fix, not the evidence again, and nothing to call.
    assert!(!again.contains("## Evidence gathered up front"), "{again}");
    assert!(!again.contains("header-max-length"), "{again}");
    assert!(
        requests[1].tool_names().is_empty(),
        "{:?}",
        requests[1].tool_names()
    );
    assert!(!requests[0].tool_names().is_empty());
}

#[test]
fn a_revision_that_breaks_as_many_rules_leaves_the_first_and_a_warning() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("feature: add two()", "")),
        Step::text(commit_json("feature: add the function two()", "")),
        Step::text(commit_json("feat: never asked for", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(
        success(&out).trim(),
        "feature: add two()",
        "the first stands"
    );
    assert_eq!(fake.requests().len(), 2, "never a third request");
    let err = stderr(&out);
    let warned = warnings(&err);
    assert_eq!(warned.len(), 1, "{err}");
    assert!(
        warned[0].contains("type-enum")
            && warned[0].contains("commitlint.config.js")
            && warned[0].contains("'feature' is not one of"),
        "{err}"
    );
}

#[test]
fn a_revision_that_breaks_fewer_rules_is_kept_with_a_warning_for_what_is_left() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let long = "feature: add two() beside one() in the numbers library";
    assert!(long.chars().count() > 50);
    let fake = FakeProvider::start(vec![
        Step::text(commit_json(long, "")),
        Step::text(commit_json("feature: add two()", "")),
        Step::text(commit_json("feat: never asked for", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "feature: add two()");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let again = asked(&requests[1]);
    assert!(
        again.contains("- type-enum:") && again.contains("- header-max-length:"),
        "both listed: {again}"
    );
    let err = stderr(&out);
    let warned = warnings(&err);
    assert_eq!(warned.len(), 1, "{err}");
    assert!(warned[0].contains("type-enum"), "{err}");
}

#[test]
fn warnings_alone_ask_nothing_more_and_are_printed() {
    let repo = repo_with_rules(
        ".commitlintrc.json",
        r#"{"rules": {"type-enum": [1, "always", ["feat", "fix"]]}}"#,
    );
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("feature: add two()", "")),
        Step::text(commit_json("feat: never asked for", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "feature: add two()");
    assert_eq!(fake.requests().len(), 1);
    let first = asked(&fake.requests()[0]);
    assert!(
        first.contains("## This project's commit rules (.commitlintrc.json)")
            && first.contains("- The type is one of: feat, fix (a warning)"),
        "{first}"
    );
    let err = stderr(&out);
    let warned = warnings(&err);
    assert_eq!(warned.len(), 1, "{err}");
    assert!(
        warned[0].contains("type-enum") && warned[0].contains("a warning"),
        "{err}"
    );
}

#[test]
fn a_broken_configuration_warns_and_the_message_is_written_without_rules() {
    let repo = repo_with_rules(".commitlintrc.json", "{\"rules\": {\"type-enum\": [2,");
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("Add two()", "")),
        Step::text(commit_json("feat: never asked for", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert!(!asked(&requests[0]).contains("commit rules"));
    let err = stderr(&out);
    let warned = warnings(&err);
    assert_eq!(warned.len(), 1, "{err}");
    assert!(
        warned[0].contains(".commitlintrc.json") && warned[0].contains("not valid JSON"),
        "{err}"
    );
}

#[test]
fn the_check_comes_after_the_critic() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("feature: add two()", "")),
        Step::text(approval()),
        Step::text(commit_json("feat: add two()", "")),
    ]);
    let out = run(&repo, &["gen", "--print", "--critic"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "feat: add two()");
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    assert!(requests[1].system_text().contains("You are the critic"));
    assert!(asked(&requests[2]).contains("## Your message\nfeature: add two()"));
}

#[test]
fn other_artifacts_carry_no_commit_rules() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let review = serde_json::json!({"summary": "Adds two().", "findings": [], "strengths": []});
    let fake = FakeProvider::start(vec![Step::text(review.to_string()), Step::text(approval())]);
    success(&run(&repo, &["review"], &openai_env(&fake)));
    assert_eq!(fake.requests().len(), 2);
    assert!(!asked(&fake.requests()[0]).contains("commit rules"));
}

/// Iris as `iris` configures her from the environment, pointed at `fake`.
fn iris_for(repo: &TestRepo, fake: &FakeProvider) -> IrisAgent {
    let env = openai_lookup(fake);
    let git = GitRepo::discover(&repo.path()).expect("the test repository");
    let root = git.root();
    let config =
        Config::load_from(None, Some(&root), &env, &Overrides::default()).expect("configuration");
    IrisAgent::from_config(
        &config,
        &root,
        iris_studio::app::stores::IrisDir::of(git.git_dir()).path(),
        false,
    )
    .expect("Iris configured")
    .with_user_dir(None)
}

/// A commit message written by the agent itself, with the events it reported.
fn write_commit(
    repo: &TestRepo,
    fake: &FakeProvider,
) -> (
    iris_studio_agent::capability::write::Written,
    Vec<AgentEvent>,
) {
    let iris = iris_for(repo, fake);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let written = runtime
        .block_on(iris.write(
            ArtifactKind::Commit,
            &Scope::Staged,
            false,
            &EventSink::new(tx),
        ))
        .expect("written");
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    (written, events)
}

fn statuses(events: &[AgentEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Status(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_agent_says_what_it_asks_again_for_and_what_is_left() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("feature: add two()", "")),
        Step::text(commit_json("feat: add two()", "")),
    ]);
    let (written, events) = write_commit(&repo, &fake);
    assert_eq!(written.text, "feat: add two()");
    assert_eq!(written.json["title"], "feat: add two()");
    assert_eq!(written.requests, 2);
    assert!(
        written.rule_violations.is_empty(),
        "{:?}",
        written.rule_violations
    );
    assert_eq!(
        written.rules_source.as_deref(),
        Some("commitlint.config.js")
    );
    let said = statuses(&events);
    assert!(
        said.iter()
            .any(|s| s == "the message breaks type-enum: asking once more"),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|s| s == "the revised message follows the rules"),
        "{said:?}"
    );
    assert_eq!(
        events.iter().filter(|e| **e == AgentEvent::Request).count(),
        2
    );
    assert!(matches!(events.last(), Some(AgentEvent::Done(text)) if text == "feat: add two()"));

    // Still broken: the first stands and what it breaks is in the result.
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("feature: add two()", "")),
        Step::text(commit_json("feature: add two() again", "")),
    ]);
    let (written, events) = write_commit(&repo, &fake);
    assert_eq!(written.text, "feature: add two()");
    let rules: Vec<&str> = written
        .rule_violations
        .iter()
        .map(|v| v.rule.as_str())
        .collect();
    assert_eq!(rules, ["type-enum"]);
    assert!(written.rule_violations[0].error);
    assert!(
        statuses(&events)
            .iter()
            .any(|s| s == "the revised message is no better: keeping the first"),
        "{events:?}"
    );
}

#[test]
fn the_agent_warns_of_a_configuration_it_cannot_read() {
    let repo = repo_with_rules("commitlint.config.js", "module.exports = {\n  rules: {\n");
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    let (written, events) = write_commit(&repo, &fake);
    assert_eq!(written.text, "Add two()");
    assert_eq!(written.requests, 1);
    assert!(written.rules_source.is_none() && written.rule_violations.is_empty());
    let warned: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Warning(text) => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(warned.len(), 1, "{events:?}");
    assert!(
        warned[0].starts_with("cannot read the commit rules in commitlint.config.js")
            && warned[0].ends_with("the message is written without them"),
        "{warned:?}"
    );
}

/// With gitmoji on, an emoji before `type:` would break the type rules on every message: in a
/// repository whose rules read the type at the start of the header, no emoji is kept, and the
/// message follows the rules at once.
#[test]
fn gitmoji_gives_way_to_rules_that_read_the_type_first() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    let reply = serde_json::json!({"emoji": "✨", "title": "feat: add two()", "message": ""});
    let fake = FakeProvider::start(vec![Step::text(reply.to_string())]);
    let mut env = openai_env(&fake);
    env.push(("IRIS_GITMOJI", "true".to_string()));
    let out = run(&repo, &["gen", "--print"], &env);
    assert_eq!(success(&out).trim(), "feat: add two()");
    assert!(warnings(&stderr(&out)).is_empty(), "{}", stderr(&out));
    assert_eq!(fake.requests().len(), 1, "no retry");
}

/// What the rules reader passed over (a shared config it cannot resolve) is said, not
/// silently dropped, and the rules it could read still apply.
#[test]
fn what_the_rules_reader_passed_over_is_a_warning() {
    let config = "module.exports = {\n  extends: ['@company/commitlint-config'],\n  \
                  rules: { 'header-max-length': [2, 'always', 50] },\n};\n";
    let repo = repo_with_rules("commitlint.config.js", config);
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let err = stderr(&out);
    let said = warnings(&err);
    assert_eq!(said.len(), 1, "{err}");
    assert!(said[0].contains("commitlint.config.js: "), "{err}");
    assert!(said[0].contains("@company/commitlint-config"), "{err}");
    assert!(asked(&fake.requests()[0]).contains("at most 50 characters"));
}

/// The retry ends before the run's deadline: when the model is too slow to answer it, the
/// first message is kept (with a warning), not lost to the run's timeout.
#[test]
fn a_retry_the_deadline_cuts_short_keeps_the_first_message() {
    let repo = repo_with_rules("commitlint.config.js", COMMITLINT_JS);
    crate::common::agent::write_user_config(&repo, "run_timeout_secs = 3\n");
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("chore: add two()", "")),
        Step::slow(8_000, Step::text(commit_json("feat: add two()", ""))),
    ]);
    let out = run(
        &repo,
        &["gen", "--print", "--no-stream"],
        &openai_env(&fake),
    );
    assert_eq!(success(&out).trim(), "chore: add two()");
    let err = stderr(&out);
    assert!(
        err.contains("the run's time ran out); keeping the first"),
        "{err}"
    );
    assert_eq!(fake.requests().len(), 2);
}
