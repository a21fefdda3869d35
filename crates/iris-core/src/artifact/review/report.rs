//! A review's findings in the formats CI systems read (pure): SARIF 2.1.0 (GitHub code
//! scanning and most CI tools), GitHub Actions workflow commands, and GitLab's Code Quality
//! report. Each takes the findings as given: the caller leaves out the folded ones.

use serde_json::{Value, json};

use super::memory::finding_id;
use super::{Category, Finding, Review, Severity};

/// The rule a finding reports under: one per category, and one for findings without.
fn rule_of(finding: &Finding) -> (String, &'static str, &'static str) {
    match finding.category {
        Some(category) => (
            format!("iris/{}", category.name()),
            category.name(),
            category.about(),
        ),
        None => (
            "iris/review".to_string(),
            "review",
            "A problem found in review",
        ),
    }
}

/// SARIF's level for a severity.
fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::High => "error",
        Severity::Medium | Severity::Low => "warning",
        Severity::Info => "note",
    }
}

/// The finding's text: its title, then its body and suggestion.
fn message(finding: &Finding) -> String {
    let mut text = finding.title.trim().to_string();
    if !finding.body.trim().is_empty() {
        text.push_str("\n\n");
        text.push_str(finding.body.trim());
    }
    if let Some(suggestion) = finding.suggestion.as_deref().map(str::trim)
        && !suggestion.is_empty()
    {
        text.push_str("\n\nSuggestion: ");
        text.push_str(suggestion);
    }
    text
}

/// The review as a SARIF 2.1.0 log: one rule per category of the findings, one result per
/// finding with its level, message and place (its file alone when it has no line).
pub fn sarif(review: &Review, version: &str) -> Value {
    let mut rules: Vec<(String, &str, &str)> = Vec::new();
    let mut results = Vec::new();
    for finding in &review.findings {
        let rule = rule_of(finding);
        let index = match rules.iter().position(|r| r.0 == rule.0) {
            Some(index) => index,
            None => {
                rules.push(rule.clone());
                rules.len() - 1
            }
        };
        let mut location = json!({
            "physicalLocation": {
                "artifactLocation": {"uri": uri(&finding.file), "uriBaseId": "%SRCROOT%"}
            }
        });
        if let Some(line) = finding.line.filter(|&l| l > 0) {
            let mut region = json!({"startLine": line});
            if let Some(end) = finding.end_line.filter(|&end| end > line) {
                region["endLine"] = json!(end);
            }
            location["physicalLocation"]["region"] = region;
        }
        let mut properties = json!({"severity": finding.severity.name()});
        if let Some(confidence) = finding.confidence {
            properties["confidence"] = json!(confidence);
        }
        results.push(json!({
            "ruleId": rule.0,
            "ruleIndex": index,
            "level": sarif_level(finding.severity),
            "message": {"text": message(finding)},
            "locations": [location],
            "partialFingerprints": {"irisFinding/v2": finding_id(finding)},
            "properties": properties,
        }));
    }
    let rules: Vec<Value> = rules
        .iter()
        .map(|(id, name, about)| {
            json!({"id": id, "name": name, "shortDescription": {"text": about}})
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "iris", "semanticVersion": version, "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The repository's root"}}},
            "results": results,
        }]
    })
}

/// A path as a URI reference relative to the repository: every byte outside the unreserved
/// characters and `/` percent-encoded.
fn uri(path: &str) -> String {
    path.trim()
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The review as GitHub Actions workflow commands, one a finding: `::error` for critical
/// and high, `::warning` for medium and low, `::notice` for info, with the file, the lines
/// and the title as properties.
pub fn github_commands(review: &Review) -> String {
    review
        .findings
        .iter()
        .map(|finding| {
            let command = match finding.severity {
                Severity::Critical | Severity::High => "error",
                Severity::Medium | Severity::Low => "warning",
                Severity::Info => "notice",
            };
            let mut properties = vec![format!("file={}", property(finding.file.trim()))];
            if let Some(line) = finding.line.filter(|&l| l > 0) {
                properties.push(format!("line={line}"));
                if let Some(end) = finding.end_line.filter(|&end| end > line) {
                    properties.push(format!("endLine={end}"));
                }
            }
            let title = format!("{}: {}", finding.severity.label(), finding.title.trim());
            properties.push(format!("title={}", property(&title)));
            let mut body = finding.body.trim().to_string();
            if let Some(suggestion) = finding.suggestion.as_deref().map(str::trim)
                && !suggestion.is_empty()
            {
                body.push_str(&format!("\n\nSuggestion: {suggestion}"));
            }
            if body.is_empty() {
                body = finding.title.trim().to_string();
            }
            format!("::{command} {}::{}\n", properties.join(","), data(&body))
        })
        .collect()
}

/// A command's message, escaped as the runner reads it back: `%`, CR and LF.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value: as data, and `:` and `,`, which end a property.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// GitLab's severity for ours.
fn gitlab_severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "blocker",
        Severity::High => "critical",
        Severity::Medium => "major",
        Severity::Low => "minor",
        Severity::Info => "info",
    }
}

/// The review as GitLab's Code Quality report: an array of issues, each with its
/// description, check name, fingerprint, severity and place (line 1 for a whole file).
pub fn gitlab_report(review: &Review) -> Value {
    let issues: Vec<Value> = review
        .findings
        .iter()
        .map(|finding| {
            let begin = finding.line.filter(|&l| l > 0).unwrap_or(1);
            let mut lines = json!({"begin": begin});
            if let Some(end) = finding.end_line.filter(|&end| end > begin) {
                lines["end"] = json!(end);
            }
            let mut issue = json!({
                "type": "issue",
                "description": message(finding),
                "check_name": rule_of(finding).0,
                "fingerprint": finding_id(finding),
                "severity": gitlab_severity(finding.severity),
                "location": {"path": finding.file.trim(), "lines": lines},
            });
            if let Some(category) = finding.category {
                issue["categories"] = json!([gitlab_category(category)]);
            }
            issue
        })
        .collect();
    Value::Array(issues)
}

/// Code Climate's category names, which GitLab shows.
fn gitlab_category(category: Category) -> &'static str {
    match category {
        Category::Correctness => "Bug Risk",
        Category::Security => "Security",
        Category::Performance => "Performance",
        Category::Tests | Category::Maintainability => "Style",
        Category::Compatibility => "Compatibility",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn review() -> Review {
        Review {
            summary: "Adds parse().".into(),
            findings: vec![
                Finding {
                    severity: Severity::High,
                    file: "src/my file, v2.rs".into(),
                    line: Some(3),
                    end_line: Some(5),
                    title: "Panics: on bad input, 100%".into(),
                    body: "unwrap() panics.\nEvery time.".into(),
                    suggestion: Some("Use `?`.".into()),
                    category: Some(Category::Correctness),
                    confidence: Some(90),
                    ..Finding::default()
                },
                Finding {
                    severity: Severity::Info,
                    file: "README.md".into(),
                    title: "Typo".into(),
                    ..Finding::default()
                },
            ],
            strengths: vec![],
        }
    }

    #[test]
    fn github_commands_escape_what_the_grammar_reads() {
        let out = github_commands(&review());
        assert_eq!(
            out,
            "::error file=src/my file%2C v2.rs,line=3,endLine=5,title=High%3A Panics%3A on bad \
             input%2C 100%25::unwrap() panics.%0AEvery time.%0A%0ASuggestion: Use `?`.\n\
             ::notice file=README.md,title=Info%3A Typo::Typo\n"
        );
    }

    #[test]
    fn sarif_has_a_rule_per_category_and_a_result_per_finding() {
        let log = sarif(&review(), "0.1.0");
        let run = &log["runs"][0];
        let rules: Vec<&str> = run["tool"]["driver"]["rules"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["id"].as_str())
            .collect();
        assert_eq!(rules, ["iris/correctness", "iris/review"]);
        let first = &run["results"][0];
        assert_eq!(first["level"], "error");
        assert_eq!(first["ruleIndex"], 0);
        let place = &first["locations"][0]["physicalLocation"];
        assert_eq!(place["artifactLocation"]["uri"], "src/my%20file%2C%20v2.rs");
        assert_eq!(place["region"], json!({"startLine": 3, "endLine": 5}));
        let second = &run["results"][1];
        assert_eq!(second["level"], "note");
        assert!(second["locations"][0]["physicalLocation"]["region"].is_null());
        // The finding's id, the one printed beside it and dismissed by.
        assert_eq!(
            first["partialFingerprints"]["irisFinding/v2"],
            finding_id(&review().findings[0]).as_str()
        );
    }

    #[test]
    fn gitlab_issues_map_the_severities_and_place_whole_files_on_line_1() {
        let report = gitlab_report(&review());
        assert_eq!(report[0]["severity"], "critical");
        assert_eq!(
            report[0]["location"],
            json!({"path": "src/my file, v2.rs", "lines": {"begin": 3, "end": 5}})
        );
        assert_eq!(report[0]["check_name"], "iris/correctness");
        assert_eq!(report[1]["severity"], "info");
        assert_eq!(report[1]["location"]["lines"]["begin"], 1);
        let severities: Vec<&str> = Severity::ALL.iter().map(|s| gitlab_severity(*s)).collect();
        assert_eq!(
            severities,
            ["blocker", "critical", "major", "minor", "info"]
        );
        // The same finding on another line keeps its fingerprint.
        let mut moved = review();
        moved.findings[0].line = Some(30);
        assert_eq!(
            gitlab_report(&moved)[0]["fingerprint"],
            report[0]["fingerprint"]
        );
    }
}
