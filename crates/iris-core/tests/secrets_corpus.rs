//! The secret scanner against its corpus (`iris_studio_testkit::secrets`): every leak is found by
//! its own rule, alone and inside a diff, and leaves no trace of the secret; every
//! look-alike comes back unchanged.

use std::collections::BTreeSet;

use iris_studio_core::secrets::{Location, RULE_IDS, Scanner, SecretsIgnore};
use iris_studio_testkit::secrets::{leaks, lookalikes};

/// `lines` added to a file in the middle of a hunk: the first one is new line 2.
fn in_diff(path: &str, lines: &str) -> String {
    let added: Vec<String> = lines.lines().map(|l| format!("+{l}")).collect();
    format!(
        "diff --git a/{path} b/{path}\nindex 1a2b3c4..5d6e7f8 100644\n--- a/{path}\n+++ b/{path}\n\
         @@ -1,2 +1,{} @@\n first line\n{}\n last line\n",
        added.len() + 2,
        added.join("\n")
    )
}

/// What is wrong with the redaction of one leak, if anything.
fn leak_problem(
    scanner: &Scanner,
    rule: &str,
    text: &str,
    secret: &str,
    location: Option<Location>,
) -> Option<String> {
    let got = scanner.redact(text);
    let rules: Vec<&str> = got.findings.iter().map(|f| &*f.rule).collect();
    if rules != [rule] {
        return Some(format!("found {rules:?}"));
    }
    if got.text.contains(secret) {
        return Some(format!("the secret is still there:\n{}", got.text));
    }
    // A key's body: none of its lines either.
    if let Some(line) = secret
        .lines()
        .find(|l| l.len() >= 8 && got.text.contains(l))
    {
        return Some(format!("the line {line} is still there"));
    }
    if got.text.lines().count() != text.lines().count() {
        return Some(format!("the line count changed:\n{}", got.text));
    }
    if got.findings[0].location != location {
        return Some(format!("location {:?}", got.findings[0].location));
    }
    let again = scanner.redact(&got.text);
    if again.text != got.text || !again.findings.is_empty() {
        return Some(format!("redacting again changed it:\n{}", again.text));
    }
    None
}

#[test]
fn the_corpus_is_detected_without_false_positives() {
    let scanner = Scanner::new(SecretsIgnore::none());
    let leaks = leaks();
    let lookalikes = lookalikes();

    let mut problems = Vec::new();
    let mut detected = 0;
    for (rule, line, secret) in &leaks {
        // Where the marker goes: the secret's line, or a key's first body line.
        let block_start = line.lines().position(|l| l.contains("-----BEGIN"));
        let first = match block_start {
            Some(begin) if line.lines().count() > 1 => begin + 1,
            _ => line
                .lines()
                .position(|l| l.contains(secret.as_str()))
                .unwrap_or(0),
        };
        let diff = in_diff("config/app.env", line);
        let at = Location {
            path: "config/app.env".into(),
            line: 2 + first as u32,
        };
        let alone = leak_problem(&scanner, rule, line, secret, None);
        let inside = leak_problem(&scanner, rule, &diff, secret, Some(at));
        match (alone, inside) {
            (None, None) => detected += 1,
            (alone, inside) => problems.push(format!(
                "{rule}: {line}\n  alone: {}\n  in a diff: {}",
                alone.unwrap_or_else(|| "ok".into()),
                inside.unwrap_or_else(|| "ok".into())
            )),
        }
    }

    let mut false_positives = 0;
    for (what, line) in &lookalikes {
        for text in [line.clone(), in_diff("src/lib.rs", line)] {
            let got = scanner.redact(&text);
            if got.text != text || !got.findings.is_empty() {
                false_positives += 1;
                let found: Vec<String> = got.findings.iter().map(|f| f.to_string()).collect();
                problems.push(format!("look-alike {what}: {line}\n  found {found:?}"));
                break;
            }
        }
    }

    println!(
        "secret corpus: detected {detected} of {} leaks, false positives {false_positives} of {} look-alikes",
        leaks.len(),
        lookalikes.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(detected, leaks.len());
    assert_eq!(false_positives, 0);
}

#[test]
fn the_corpus_covers_every_rule_twice_and_enough_look_alikes() {
    let leaks = leaks();
    for id in RULE_IDS.iter() {
        let samples = leaks.iter().filter(|(rule, ..)| rule == id).count();
        assert!(samples >= 2, "{id} has {samples} samples");
    }
    let ids: BTreeSet<&str> = leaks.iter().map(|(rule, ..)| *rule).collect();
    assert_eq!(ids.len(), RULE_IDS.len());
    assert!(lookalikes().len() >= 25);
}

#[test]
fn the_whole_corpus_in_one_diff() {
    // All leaks and look-alikes in one text: each leak found once, every look-alike intact.
    let scanner = Scanner::new(SecretsIgnore::none());
    let mut text = String::new();
    for (what, line) in lookalikes() {
        text.push_str(&in_diff(
            &format!("fixtures/{}.txt", what.replace(' ', "_")),
            &line,
        ));
    }
    let leaks = leaks();
    for (i, (_, line, _)) in leaks.iter().enumerate() {
        text.push_str(&in_diff(&format!("leak/{i}.env"), line));
    }
    let got = scanner.redact(&text);
    assert_eq!(got.findings.len(), leaks.len());
    for (i, ((rule, _, secret), finding)) in leaks.iter().zip(&got.findings).enumerate() {
        assert_eq!(&*finding.rule, *rule);
        assert_eq!(
            finding.location.as_ref().map(|l| l.path.as_str()),
            Some(format!("leak/{i}.env").as_str())
        );
        assert!(!got.text.contains(secret.as_str()));
    }
    for (_, line) in lookalikes() {
        for l in line.lines() {
            assert!(got.text.contains(l), "look-alike changed: {l}");
        }
    }
}
