//! The commit rules against commitlint itself: every case of `tests/commitlint/cases.jsonl`
//! (a configuration and a message, written by us rule by rule from what commitlint's own
//! tests test) carries the verdict the real commitlint 20 gave it, linting as
//! `commitlint --edit` does. Iris must give the same verdict: the same rules broken, as
//! errors or warnings, or the configuration refused. `make_cases.py` beside the cases
//! regenerates them against an installed commitlint (see its header).

use std::collections::BTreeSet;

use iris_studio_core::commit_rules;
use serde_json::Value;

const CASES: &str = include_str!("commitlint/cases.jsonl");

/// Where Iris refuses a configuration that commitlint only refuses once a message reaches
/// the broken rule (a message it ignores, or one without the part the rule reads, passes
/// there). Refusing it on reading is deliberate: the broken file is found before CI runs.
fn refused_earlier_on_purpose(name: &str) -> bool {
    [
        "ignores: ignored message with a refused configuration is still valid",
        "config refused: not refused for an empty message",
        "config refused: unknown case name in scope-case without a scope",
    ]
    .contains(&name)
        || name.starts_with("subject-case: unknown case name") && !name.contains("letter-first")
}

/// What one side decided: the broken rules (`name!` for an error) or a refusal.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Broken(BTreeSet<String>),
    Refused,
}

fn expected(case: &Value) -> Verdict {
    let expect = &case["expect"];
    if expect.get("refused").is_some() {
        return Verdict::Refused;
    }
    let names = |key: &str, mark: &str| -> Vec<String> {
        expect[key]
            .as_array()
            .expect("a list of rule names")
            .iter()
            .map(|n| format!("{}{mark}", n.as_str().expect("a rule name")))
            .collect()
    };
    let mut broken: BTreeSet<String> = names("errors", "!").into_iter().collect();
    broken.extend(names("warnings", ""));
    Verdict::Broken(broken)
}

fn iris(case: &Value) -> Verdict {
    let config = serde_json::to_string(&case["config"]).expect("a config");
    let message = case["message"].as_str().expect("a message");
    match commit_rules::parse(".commitlintrc.json", &config) {
        Err(_) => Verdict::Refused,
        Ok(rules) => Verdict::Broken(
            rules
                .check(message)
                .into_iter()
                .map(|v| {
                    if v.error {
                        format!("{}!", v.rule)
                    } else {
                        v.rule
                    }
                })
                .collect(),
        ),
    }
}

#[test]
fn every_case_gets_commitlints_verdict() {
    let mut disagreements = Vec::new();
    let mut total = 0;
    for line in CASES.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("a JSON case");
        let name = case["name"].as_str().expect("a name");
        total += 1;
        let (want, got) = (expected(&case), iris(&case));
        if want == got || (got == Verdict::Refused && refused_earlier_on_purpose(name)) {
            continue;
        }
        disagreements.push(format!(
            "{name}\n    commitlint: {want:?}\n    iris:       {got:?}"
        ));
    }
    assert!(total >= 600, "only {total} cases");
    assert!(
        disagreements.is_empty(),
        "{} of {total} cases disagree:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
