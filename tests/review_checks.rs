//! A review's findings are checked against the change before anyone reads them: placed on
//! their line, moved to the line their quote is on, or folded as not found in the change.
//! The real binary on a temporary repository, talking to the fake provider.

use crate::common::TestRepo;
use crate::common::agent::{openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use serde_json::{Value, json};

const PARSE: &str = "pub fn parse(input: &str) -> u32 {\n    let trimmed = input.trim();\n    \
                     let value = trimmed.parse().unwrap();\n    value * 2\n}\n\n\
                     pub fn zero() -> u32 {\n    0\n}\n\npub fn ten() -> u32 {\n    10\n}\n";

/// A staged change adding src/parse.rs.
fn repo() -> TestRepo {
    let repo = staged_repo();
    repo.write("src/parse.rs", PARSE);
    repo.write(".irisconfig", "critic_enabled = false\n");
    repo.git(&["add", "-A"]);
    repo
}

fn finding(title: &str, file: &str, line: u32, quote: Option<&str>) -> Value {
    json!({"severity": "high", "file": file, "line": line, "end_line": null, "title": title,
           "body": "Because.", "suggestion": null, "confidence": 90, "quote": quote})
}

/// Four findings: on its line, four lines below its quote, in a file the change does not
/// touch, and quoting code that is nowhere.
fn review_reply() -> String {
    json!({
        "summary": "Adds parse().",
        "findings": [
            finding("Right", "src/parse.rs", 3, Some("let value = trimmed.parse().unwrap();")),
            finding("Off by four", "src/parse.rs", 8, Some("+    value * 2")),
            finding("Elsewhere", "src/main.rs", 2, None),
            finding("Invented", "src/parse.rs", 2, Some("input.parse::<i64>()?")),
        ],
        "strengths": []
    })
    .to_string()
}

fn review(args: &[&str]) -> String {
    let repo = repo();
    let fake = FakeProvider::start(vec![Step::text(review_reply())]);
    let mut all = vec!["review"];
    all.extend_from_slice(args);
    let out = success(&run(&repo, &all, &openai_env(&fake)));
    assert_eq!(fake.requests().len(), 1, "checking asks the model nothing");
    out
}

#[test]
fn findings_are_placed_moved_or_folded_and_counted() {
    let out = review(&[]);
    assert!(
        out.contains("### Right (`src/parse.rs:3`) · 90% · id "),
        "{out}"
    );
    assert!(
        out.contains("### Off by four (`src/parse.rs:4`) · 90% · id "),
        "{out}"
    );
    assert!(
        !out.contains("Elsewhere") && !out.contains("Invented"),
        "{out}"
    );
    assert!(out.contains("## High (2)"), "{out}");
    assert!(
        out.contains(
            "_4 findings checked against the change: 1 placed on its line, 1 moved to the \
             line it quotes, 2 not found in it (folded)._"
        ),
        "{out}"
    );
    assert!(
        out.trim_end().ends_with(
            "_2 findings left out (2 not found in the change or dropped): `iris review \
             --min-confidence 0` shows them._"
        ),
        "{out}"
    );
}

#[test]
fn min_confidence_0_shows_the_unverified_with_why() {
    let out = review(&["--min-confidence", "0"]);
    assert!(out.contains("## High (4)"), "{out}");
    assert!(
        out.contains("### Elsewhere (`src/main.rs:2`) · 90% · unverified · id "),
        "{out}"
    );
    assert!(
        out.contains(
            "_Not found in the change: \
             src/main.rs is not part of the change._"
        ),
        "{out}"
    );
    assert!(
        out.contains("### Invented (`src/parse.rs:2`) · 90% · unverified · id "),
        "{out}"
    );
    assert!(
        out.contains(
            "_Not found in the change: \
             the code it quotes is not there._"
        ),
        "{out}"
    );
}

#[test]
fn json_carries_each_check() {
    let out = review(&["--json", "--min-confidence", "0"]);
    let review: Value = serde_json::from_str(&out).expect("JSON");
    let checks: Vec<Value> = review["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["check"].clone())
        .collect();
    assert_eq!(checks[0], json!({"status": "placed"}));
    assert_eq!(checks[1], json!({"status": "moved", "from": 8}));
    assert_eq!(checks[2]["status"], "unverified");
    assert_eq!(checks[3]["status"], "unverified");
    assert_eq!(review["findings"][1]["line"], 4);
}

fn review_with(steps: Vec<Step>, args: &[&str]) -> (String, FakeProvider) {
    let repo = repo();
    let fake = FakeProvider::start(steps);
    let mut all = vec!["review", "--min-confidence", "0"];
    all.extend_from_slice(args);
    let out = success(&run(&repo, &all, &openai_env(&fake)));
    (out, fake)
}

#[test]
fn a_second_look_folds_what_it_drops_with_the_reason() {
    let verdicts = json!({"verdicts": [
        {"id": "f1", "keep": true, "reason": "unwrap() panics on bad input."},
        {"id": "f2", "keep": false, "reason": "Doubling cannot overflow for these inputs."},
    ]});
    let steps = vec![Step::text(review_reply()), Step::text(verdicts.to_string())];
    let (out, fake) = review_with(steps, &["--verify"]);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "one more request");
    let asked = &requests[1].raw_body;
    // The placed and the moved findings are shown with their code; the unverified are not.
    assert!(
        asked.contains("### f1 · high · Right (src/parse.rs:3)"),
        "{asked}"
    );
    assert!(
        asked.contains("### f2 · high · Off by four (src/parse.rs:4)"),
        "{asked}"
    );
    assert!(asked.contains("    4 +    value * 2"), "{asked}");
    assert!(
        !asked.contains("Elsewhere") && !asked.contains("Invented"),
        "{asked}"
    );
    assert!(
        out.contains("### Off by four (`src/parse.rs:4`) · 90% · dropped · id "),
        "{out}"
    );
    assert!(
        out.contains(
            "_Dropped on a second look: \
             Doubling cannot overflow for these inputs._"
        ),
        "{out}"
    );
    assert!(out.contains("1 dropped on a second look (folded)"), "{out}");
    assert!(
        out.contains("### Right (`src/parse.rs:3`) · 90% · id "),
        "{out}"
    );
}

#[test]
fn a_failed_second_look_leaves_the_findings_as_checked() {
    let steps = vec![Step::text(review_reply()), Step::error(400)];
    let repo = repo();
    let fake = FakeProvider::start(steps);
    let out = run(&repo, &["review", "--verify"], &openai_env(&fake));
    let printed = success(&out);
    assert!(
        printed.contains("### Off by four (`src/parse.rs:4`)"),
        "{printed}"
    );
    assert!(
        crate::common::stderr(&out).contains("the second look failed"),
        "{}",
        crate::common::stderr(&out)
    );
}

#[test]
fn aspects_review_in_parallel_passes_merged_without_repeats() {
    let pass = |other: &str| {
        json!({
            "summary": "Adds parse().",
            "findings": [
                finding("Unwrap panics", "src/parse.rs", 3, Some("trimmed.parse().unwrap()")),
                finding(other, "src/parse.rs", 12, None),
            ],
            "strengths": ["Small"]
        })
        .to_string()
    };
    // Each answer takes a second: only passes asked in parallel are both in flight at once.
    let steps = vec![
        Step::slow(1_000, Step::text(pass("Ten is magic"))),
        Step::slow(1_000, Step::text(pass("Untested zero"))),
    ];
    let (out, fake) = review_with(steps, &["--aspects", "correctness,security"]);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        fake.most_in_flight(),
        2,
        "the aspects were asked one after the other"
    );
    let asked: Vec<&str> = requests.iter().map(|r| r.raw_body.as_str()).collect();
    assert!(
        asked
            .iter()
            .any(|r| r.contains("one aspect only: bugs and wrong logic"))
    );
    assert!(
        asked
            .iter()
            .any(|r| r.contains("one aspect only: security problems"))
    );
    assert_eq!(out.matches("### Unwrap panics").count(), 1, "{out}");
    assert!(
        out.contains("### Ten is magic") && out.contains("### Untested zero"),
        "{out}"
    );
    assert!(
        out.contains("**Correctness:** Adds parse().\n\n**Security:** Adds parse()."),
        "{out}"
    );
    assert_eq!(out.matches("- Small").count(), 1, "{out}");
}

#[test]
fn a_failed_aspect_pass_is_a_warning_and_the_other_passes_stand() {
    let pass = json!({
        "summary": "Adds parse().",
        "findings": [finding("Unwrap panics", "src/parse.rs", 3, Some("trimmed.parse().unwrap()"))],
        "strengths": []
    })
    .to_string();
    // Whichever pass asks second gets the error.
    let steps = vec![Step::text(pass), Step::error(400)];
    let repo = repo();
    let fake = FakeProvider::start(steps);
    let out = run(
        &repo,
        &[
            "review",
            "--min-confidence",
            "0",
            "--aspects",
            "correctness,security",
        ],
        &openai_env(&fake),
    );
    let printed = success(&out);
    assert!(printed.contains("### Unwrap panics"), "{printed}");
    let err = crate::common::stderr(&out);
    let failed = ["the correctness pass failed", "the security pass failed"];
    assert_eq!(
        failed.iter().filter(|f| err.contains(*f)).count(),
        1,
        "one pass failed, and said so: {err}"
    );
}
