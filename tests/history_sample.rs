//! Writing like the repository's people (issue 29): the history sample a commit message is
//! written after, and replies that repeat their instructions instead of writing.

use crate::common::agent::{commit_json, failure, openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, stderr};

/// A history with a bot's commits, a merge, and people's commits, some of them to
/// `src/lib.rs`, the file the staged change touches.
pub(crate) fn mixed_history() -> TestRepo {
    let repo = staged_repo();
    repo.git(&["stash", "-q"]);
    let commit_as = |name: &str, email: &str, file: &str, message: &str| {
        repo.write(file, format!("{message}\n"));
        repo.git(&["add", "-A"]);
        repo.git(&[
            "-c",
            &format!("user.name={name}"),
            "-c",
            &format!("user.email={email}"),
            "commit",
            "-q",
            "-m",
            message,
        ]);
    };
    commit_as(
        "Ada",
        "ada@people.example",
        "src/lib.rs",
        "Tune the numbers in lib",
    );
    commit_as(
        "dependabot[bot]",
        "bot@bots.example",
        "Cargo.toml",
        "build(deps): bump serde from 1.0 to 1.1",
    );
    commit_as(
        "Bob",
        "bob@people.example",
        "docs/a.md",
        "Describe the numbers\n\nA page for each.",
    );
    repo.git(&["checkout", "-q", "-b", "side"]);
    commit_as("Cy", "cy@people.example", "docs/b.md", "Add a side page");
    repo.git(&["checkout", "-q", "-"]);
    repo.git(&[
        "merge",
        "-q",
        "--no-ff",
        "-m",
        "Merge branch 'side'",
        "side",
    ]);
    commit_as(
        "renovate[bot]",
        "bot@renovate.example",
        "renovate.json",
        "chore(deps): update rust",
    );
    repo.git(&["checkout", "-q", "stash@{0}", "--", "src/lib.rs"]);
    repo.git(&["stash", "drop", "-q"]);
    repo.git(&["add", "-A"]);
    repo
}

/// The history sample in a request's raw body, up to its end (JSON-escaped line breaks).
pub(crate) fn sample_in(body: &str) -> &str {
    let sample = body
        .split("How this repository's people write their commit messages")
        .nth(1)
        .expect("the sample is in the request");
    sample.split("\\n\\n").next().unwrap_or(sample)
}

#[test]
fn a_small_commit_is_written_after_its_peoples_messages_not_bots_or_merges() {
    let repo = mixed_history();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let body = fake.requests()[0].raw_body.clone();
    let sample = sample_in(&body);
    // The commit to the same file first; people only; no addresses, no dates.
    let lines: Vec<&str> = sample
        .split("\\n")
        .filter(|l| l.starts_with("- "))
        .collect();
    assert_eq!(lines[0], "- Tune the numbers in lib", "{sample}");
    assert!(
        sample.contains("- Describe the numbers\\n  A page for each."),
        "{sample}"
    );
    assert!(sample.contains("- Add a side page"), "{sample}");
    for absent in [
        "bump serde",
        "update rust",
        "Merge branch",
        "@people.example",
        "@bots.example",
    ] {
        assert!(!sample.contains(absent), "{absent} in {sample}");
    }
    let date = repo.git(&["log", "-1", "--format=%as"]);
    assert!(!body.contains(date.trim()), "a date in the request");
}

/// `gen --amend` writes HEAD's message anew: the message it replaces is no example of how
/// the people write, so the sample starts below HEAD.
#[test]
fn an_amended_heads_own_message_is_not_in_the_sample() {
    let repo = mixed_history();
    repo.git(&["commit", "-q", "-m", "Rework the numbers badly"]);
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    success(&run(
        &repo,
        &["gen", "--amend", "--print"],
        &openai_env(&fake),
    ));
    let body = fake.requests()[0].raw_body.clone();
    let sample = sample_in(&body);
    assert!(!sample.contains("Rework the numbers badly"), "{sample}");
    assert!(sample.contains("- Tune the numbers in lib"), "{sample}");
}

#[test]
fn a_history_of_only_bots_and_merges_is_said_and_the_default_style_taken() {
    let repo = TestRepo::new();
    repo.write("a.txt", "one\n");
    repo.git(&["add", "-A"]);
    repo.git(&[
        "-c",
        "user.name=dependabot[bot]",
        "commit",
        "-q",
        "-m",
        "build(deps): bump a",
    ]);
    repo.write("a.txt", "two\n");
    repo.git(&["add", "-A"]);
    let fake = FakeProvider::start(vec![Step::text(commit_json("Change a", ""))]);
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    let body = &fake.requests()[0].raw_body;
    assert!(body.contains("only merges and automated commits"), "{body}");
    assert!(!body.contains("bump a"));
}

/// A title copied from the schema's description of it.
const ECHO: &str = "The subject line: imperative mood (\"Add\", \"Fix\"), at most 72 characters";

#[test]
fn a_reply_that_repeats_the_instructions_is_asked_again_once() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(commit_json(ECHO, "")),
        Step::text(commit_json("Add two()", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let again = &requests[1].raw_body;
    assert!(again.contains("Your previous reply"), "{again}");
    assert!(again.contains("Its title was"), "{again}");
}

#[test]
fn a_second_echo_is_a_clear_failure() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(commit_json(ECHO, "")),
        Step::text(commit_json(ECHO, "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    let line = failure(&out, 4);
    assert!(
        line.contains("the model repeated the instructions instead of writing"),
        "{line}\n{}",
        stderr(&out)
    );
    assert_eq!(fake.requests().len(), 2);
}

#[test]
fn a_title_that_repeats_the_evidence_is_asked_again_then_refused() {
    let repo = staged_repo();
    // What SmolLM2 wrote on fd: a line of the request Iris wrote, then no words at all.
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("diff --git a/src/lib.rs b/src/lib.rs", "")),
        Step::text(commit_json("Add two()", "")),
        Step::text(commit_json("evidence", "")),
        Step::text(commit_json("1.4.11.7819.00.133.0.20074", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let again = &fake.requests()[1].raw_body;
    assert!(
        again.contains("Its title was \\\"diff --git a/src/lib.rs b/src/lib.rs\\\": a line of the evidence Iris sent"),
        "{again}"
    );
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    let line = failure(&out, 4);
    assert!(
        line.contains("the model wrote no title, twice: its title was \"1.4.11.7819.00.133.0.20074\", not a sentence"),
        "{line}"
    );
    assert_eq!(fake.requests().len(), 4);
}

/// What SmolLM2-135M wrote for a real fd commit: one word over and over. Refused as a line
/// of the evidence is, asked for once more, then a clear failure.
#[test]
fn a_title_of_one_word_repeated_is_asked_again_then_refused() {
    let repo = staged_repo();
    let babble = "Add, add, add, Add, Add, Add, Add, Add…";
    let fake = FakeProvider::start(vec![
        Step::text(commit_json(babble, "")),
        Step::text(commit_json("Add two()", "")),
        Step::text(commit_json(babble, "")),
        Step::text(commit_json("?!... --- ok", "")),
    ]);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(success(&out).trim(), "Add two()");
    let again = &fake.requests()[1].raw_body;
    assert!(
        again.contains("not a sentence: most of its words are \\\"add\\\", repeated"),
        "{again}"
    );
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    let line = failure(&out, 4);
    assert!(
        line.contains("the model wrote no title, twice: its title was \"?!... --- ok\", not a sentence: it has fewer letters than punctuation marks"),
        "{line}"
    );
    assert_eq!(fake.requests().len(), 4);
}

/// For a local server the schema goes bare and its field guidance as prose (a small model
/// copies a description standing next to its field into it), without the emoji field when
/// gitmoji is off; a hosted model keeps the descriptions in the schema.
#[test]
fn a_local_server_gets_the_field_guidance_as_prose_not_inside_the_schema() {
    use crate::common::agent::Wire;
    let repo = staged_repo();
    for wire in [Wire::Chat, Wire::Responses] {
        let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
        success(&run(&repo, &["gen", "--print"], &wire.env(&fake)));
        let request = &fake.requests()[0];
        let body = &request.raw_body;
        let guidance = "What each field holds:";
        if wire == Wire::Chat {
            let schema = &request.body["response_format"]["json_schema"]["schema"];
            assert!(schema.is_object(), "{body}");
            assert!(!schema.to_string().contains("description"), "{schema}");
            assert!(body.contains(guidance), "{body}");
            assert!(
                body.contains("- `title`: The subject line: imperative mood"),
                "{body}"
            );
            // Without gitmoji there is no emoji field to fill.
            let required = serde_json::json!(["message", "title"]);
            assert_eq!(schema["required"], required, "{schema}");
            assert!(!body.contains("- `emoji`:"), "{body}");
        } else {
            assert!(!body.contains(guidance), "{body}");
            let schema = &request.body["text"]["format"]["schema"];
            assert!(
                schema.to_string().contains("\"description\""),
                "hosted: the schema keeps them: {schema}"
            );
        }
    }
}
