//! `iris review --format sarif|github|gitlab` and `--fail-on`: the checked, confident findings
//! in the formats CI systems read, validated against the formats' own schemas (vendored in
//! tests/fixtures/schemas), and an exit code a pipeline can gate on.

use crate::common::agent::{openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, stderr};
use serde_json::{Value, json};

/// A staged change adding src/parse.rs and a file whose name has a space and a comma.
fn repo() -> TestRepo {
    let repo = staged_repo();
    repo.write(
        "src/parse.rs",
        "pub fn parse(input: &str) -> u32 {\n    input.trim().parse().unwrap()\n}\n",
    );
    repo.write("docs/my notes, v2.md", "# Notes\n\nTODO\n");
    repo.write(".irisconfig", "critic_enabled = false\n");
    repo.git(&["add", "-A"]);
    repo
}

/// A high finding on its line, a low one about a whole file with an awkward name, and a
/// critical one in a file the change does not touch (folded, so never reported).
fn reply(high: bool) -> String {
    let severity = if high { "high" } else { "medium" };
    json!({
        "summary": "Adds parse().",
        "findings": [
            {"severity": severity, "file": "src/parse.rs", "line": 2, "title": "Panics: on bad input",
             "body": "unwrap() panics.\nOn any non-number.", "confidence": 90, "category": "correctness",
             "quote": "input.trim().parse().unwrap()"},
            {"severity": "low", "file": "docs/my notes, v2.md", "line": null, "title": "A TODO left",
             "body": "The notes say TODO.", "confidence": 80, "category": "no such category"},
            {"severity": "critical", "file": "src/main.rs", "line": 1, "title": "Invented",
             "body": "Not there.", "confidence": 99},
        ],
        "strengths": []
    })
    .to_string()
}

fn review(args: &[&str], high: bool) -> std::process::Output {
    let repo = repo();
    let fake = FakeProvider::start(vec![Step::text(reply(high))]);
    let mut all = vec!["review"];
    all.extend_from_slice(args);
    run(&repo, &all, &openai_env(&fake))
}

/// `instance` checked against the schema in tests/fixtures/schemas/`file`.
fn validate(file: &str, instance: &Value) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/schemas")
        .join(file);
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("schema")).expect("JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let url = format!("file:///{file}");
    compiler.add_resource(&url, schema).expect("schema added");
    let index = compiler
        .compile(&url, &mut schemas)
        .expect("schema compiles");
    if let Err(err) = schemas.validate(instance, index) {
        panic!("{file} rejects the output: {err:#}\n{instance:#}");
    }
}

#[test]
fn sarif_is_valid_sarif_2_1_0_with_only_the_checked_findings() {
    let out = success(&review(&["--format", "sarif"], true));
    let log: Value = serde_json::from_str(&out).expect("JSON");
    validate("sarif-schema-2.1.0.json", &log);
    let run = &log["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(rules, ["iris/correctness", "iris/review"]);
    let results = run["results"].as_array().expect("results");
    assert_eq!(
        results.len(),
        2,
        "the unverified finding is left out: {out}"
    );
    assert_eq!(results[0]["level"], "error");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"],
        json!({"startLine": 2})
    );
    assert_eq!(results[1]["level"], "warning");
    assert_eq!(
        results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "docs/my%20notes%2C%20v2.md"
    );
}

#[test]
fn gitlab_is_a_code_quality_report_gitlab_accepts() {
    let out = success(&review(&["--format", "gitlab"], true));
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let issues = report.as_array().expect("an array of issues");
    assert_eq!(issues.len(), 2, "{out}");
    for issue in issues {
        validate("gitlab-codeclimate.json", issue);
    }
    assert_eq!(issues[0]["severity"], "critical");
    assert_eq!(issues[0]["location"]["lines"]["begin"], 2);
    assert_eq!(issues[1]["severity"], "minor");
    assert_eq!(issues[1]["location"]["path"], "docs/my notes, v2.md");
}

#[test]
fn github_lines_follow_the_workflow_command_grammar() {
    let out = success(&review(&["--format", "github"], true));
    let grammar = regex::Regex::new(
        r"^::(error|warning|notice) file=[^,:\n]+(,line=\d+)?(,endLine=\d+)?,title=[^,:\n]+::[^\n\r]+$",
    )
    .expect("regex");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    for line in &lines {
        assert!(grammar.is_match(line), "{line}");
    }
    assert_eq!(
        lines[0],
        "::error file=src/parse.rs,line=2,title=High%3A Panics%3A on bad input::unwrap() \
         panics.%0AOn any non-number."
    );
    assert!(
        lines[1].starts_with("::warning file=docs/my notes%2C v2.md,title="),
        "{}",
        lines[1]
    );
}

#[test]
fn fail_on_exits_1_only_when_a_finding_that_severe_remains() {
    let failing = review(&["--fail-on", "high"], true);
    assert_eq!(failing.status.code(), Some(1), "{}", stderr(&failing));
    assert!(
        stderr(&failing).contains("1 finding at high or worse (--fail-on high)"),
        "{}",
        stderr(&failing)
    );
    // The review is printed all the same.
    assert!(String::from_utf8_lossy(&failing.stdout).contains("Panics"));
    // Only a medium one: passes. The critical one was not found in the change: it does not count.
    success(&review(&["--fail-on", "high"], false));
    success(&review(
        &["--fail-on", "critical", "--format", "github"],
        true,
    ));
    let wrong = review(&["--fail-on", "severe"], true);
    assert_eq!(wrong.status.code(), Some(2));
    let both = review(&["--format", "sarif", "--json"], true);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
}
