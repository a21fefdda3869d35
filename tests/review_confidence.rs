//! Review findings carry a confidence: the printed review leaves out the ones under
//! `review_min_confidence` (70 unless configured), says how many, and `--min-confidence 0`
//! shows them all. The real binary on a temporary repository, talking to the fake provider.

use crate::common::agent::{openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use serde_json::json;

/// Three findings: one the reviewer is sure of, a hunch, and one without a confidence.
fn review_reply() -> String {
    let finding = |title: &str, confidence: serde_json::Value| {
        json!({"severity": "medium", "file": "src/lib.rs", "line": 5, "end_line": null,
               "title": title, "body": "Because.", "suggestion": null,
               "confidence": confidence})
    };
    json!({
        "summary": "Adds two().",
        "findings": [
            finding("Sure thing", json!(95)),
            finding("A hunch", json!(0.4)),
            finding("No idea how sure", serde_json::Value::Null),
        ],
        "strengths": []
    })
    .to_string()
}

fn review(project: &str, args: &[&str]) -> String {
    let repo = staged_repo();
    repo.write(".irisconfig", format!("critic_enabled = false\n{project}"));
    let fake = FakeProvider::start(vec![Step::text(review_reply())]);
    let mut all = vec!["review"];
    all.extend_from_slice(args);
    let out = success(&run(&repo, &all, &openai_env(&fake)));
    let schema = fake.requests()[0].raw_body.clone();
    assert!(
        schema.contains("How sure you are that this is a real problem"),
        "the schema asks"
    );
    out
}

#[test]
fn findings_under_the_threshold_are_left_out_and_counted() {
    let out = review("", &[]);
    assert!(
        out.contains("### Sure thing (`src/lib.rs:5`) · 95% · id "),
        "{out}"
    );
    assert!(
        out.contains("### No idea how sure (`src/lib.rs:5`) · id "),
        "{out}"
    );
    assert!(!out.contains("A hunch"), "{out}");
    assert!(out.contains("## Medium (2)"), "{out}");
    assert!(
        out.trim_end().ends_with(
            "_1 less certain finding (under 70% confidence) left out: `iris review \
             --min-confidence 0` shows them._"
        ),
        "{out}"
    );
}

#[test]
fn min_confidence_0_or_a_lower_configured_threshold_shows_them() {
    for (project, args) in [
        ("", &["--min-confidence", "0"][..]),
        ("review_min_confidence = 30\n", &[][..]),
    ] {
        let out = review(project, args);
        assert!(out.contains("### A hunch (`src/lib.rs:5`) · 40%"), "{out}");
        assert!(out.contains("## Medium (3)"), "{out}");
        assert!(!out.contains("left out"), "{out}");
    }
}

#[test]
fn json_leaves_them_out_too() {
    let out = review("", &["--json"]);
    let review: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let titles: Vec<&str> = review["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["title"].as_str())
        .collect();
    assert_eq!(titles, ["Sure thing", "No idea how sure"]);
    assert_eq!(review["findings"][0]["confidence"], 95);
}
