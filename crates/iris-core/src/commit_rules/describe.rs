//! The rules in words: one sentence per rule, errors and warnings told apart, for a prompt
//! and for `iris gen --check`'s summary.

use super::{CaseCheck, CommitRules, Level, Rule, RuleName, Value, When};

/// The sentences, the header's parts first (type, scope, subject), then the header, body
/// and footer as a message reads.
pub fn describe(rules: &CommitRules) -> Vec<String> {
    const PARTS: [&str; 6] = ["type-", "scope-", "subject-", "header-", "body-", "footer-"];
    let mut ordered: Vec<_> = rules.rules.iter().collect();
    ordered.sort_by_key(|(name, _)| {
        let part = PARTS.iter().position(|p| name.name().starts_with(p));
        (part.unwrap_or(PARTS.len()), **name)
    });
    ordered
        .into_iter()
        .filter_map(|(&name, rule)| {
            sentence(name, rule).map(|text| match rule.level {
                Level::Error => text,
                Level::Warning => format!("{text} (a warning)"),
            })
        })
        .collect()
}

/// The sentence for one rule; `None` for a rule with nothing to say (an empty list).
fn sentence(name: RuleName, rule: &Rule<Value>) -> Option<String> {
    use RuleName::*;
    let when = rule.when;
    let by_when = |always: &str, never: &str| {
        Some(match when {
            When::Always => always.to_string(),
            When::Never => never.to_string(),
        })
    };
    let length = match &rule.value {
        Value::Length(n) if *n == usize::MAX => return None,
        Value::Length(n) => *n,
        _ => 0,
    };
    let text = match &rule.value {
        Value::Text(t) => t.as_str(),
        _ => "",
    };
    match name {
        BodyCase => case_sentence("body", rule),
        HeaderCase => case_sentence("header", rule),
        ScopeCase => case_sentence("scope", rule),
        SubjectCase => case_sentence("subject", rule),
        TypeCase => case_sentence("type", rule),
        BodyEmpty => by_when("The message has no body", "The message has a body"),
        FooterEmpty => by_when(
            "The message has no footer",
            "The message has a footer (BREAKING CHANGE:, Closes #..., trailers)",
        ),
        ScopeEmpty => by_when(
            "No scope is given",
            "A scope is required: type(scope): subject",
        ),
        SubjectEmpty => by_when(
            "The subject is empty",
            "The subject after the colon is not empty",
        ),
        TypeEmpty => by_when(
            "The header has no type",
            "The header has the form 'type(scope): subject' with a type",
        ),
        ReferencesEmpty => by_when(
            "The message references no issue",
            "The message references an issue (Closes #12)",
        ),
        BodyFullStop => stop_sentence("body", text, when),
        HeaderFullStop => stop_sentence("header", text, when),
        SubjectFullStop => stop_sentence("subject", text, when),
        BodyLeadingBlank => by_when(
            "A blank line separates the header from the body",
            "The body follows the header without a blank line",
        ),
        FooterLeadingBlank => by_when(
            "A blank line comes before the footer (BREAKING CHANGE:, Closes #...)",
            "The footer follows without a blank line",
        ),
        HeaderMaxLength => Some(format!(
            "The header (first line) is at most {length} characters"
        )),
        HeaderMinLength => Some(format!("The header is at least {length} characters")),
        BodyMaxLength => Some(format!("The body is at most {length} characters")),
        BodyMinLength => Some(format!(
            "The body, when given, is at least {length} characters"
        )),
        FooterMaxLength => Some(format!("The footer is at most {length} characters")),
        FooterMinLength => Some(format!(
            "The footer, when given, is at least {length} characters"
        )),
        ScopeMaxLength => Some(format!("The scope is at most {length} characters")),
        ScopeMinLength => Some(format!(
            "The scope, when given, is at least {length} characters"
        )),
        SubjectMaxLength => Some(format!("The subject is at most {length} characters")),
        SubjectMinLength => Some(format!("The subject is at least {length} characters")),
        TypeMaxLength => Some(format!("The type is at most {length} characters")),
        TypeMinLength => Some(format!("The type is at least {length} characters")),
        BodyMaxLineLength => Some(format!(
            "Body lines are at most {length} characters (a line with a URL may be longer)"
        )),
        FooterMaxLineLength => Some(format!(
            "Footer lines are at most {length} characters (a line with a URL may be longer)"
        )),
        HeaderTrim => Some("The header has no blank space at its start or end".into()),
        BreakingChangeExclamationMark => by_when(
            "A breaking change has both a '!' before the header's colon and a BREAKING CHANGE: note in the footer",
            "A breaking change does not have both a '!' in the header and a BREAKING CHANGE: note",
        ),
        SubjectExclamationMark => by_when(
            "The header has a '!' before the colon",
            "The header has no '!' before the colon",
        ),
        ScopeDelimiterStyle => {
            let list = match &rule.value {
                Value::Delimiters(d) if !d.is_empty() => d.join(" "),
                _ => "/ \\ ,".into(),
            };
            Some(match when {
                When::Always => format!("Several scopes are separated only by one of: {list}"),
                When::Never => format!("Several scopes are not separated by: {list}"),
            })
        }
        ScopeEnum | TypeEnum => {
            let part = if name == ScopeEnum { "scope" } else { "type" };
            let names = match &rule.value {
                Value::Names { names, .. } if !names.is_empty() => names.join(", "),
                _ => return None,
            };
            Some(match (when, name) {
                (When::Always, ScopeEnum) => format!("The scope, when given, is one of: {names}"),
                (When::Always, _) => format!("The {part} is one of: {names}"),
                (When::Never, _) => format!("The {part} is none of: {names}"),
            })
        }
        SignedOffBy => by_when(
            &format!("The message's last line starts with '{text}'"),
            &format!("The message's last line does not start with '{text}'"),
        ),
        TrailerExists => by_when(
            &format!("The message ends with a '{text}' trailer"),
            &format!("The message has no '{text}' trailer"),
        ),
    }
}

fn stop_sentence(part: &str, stop: &str, when: When) -> Option<String> {
    Some(match when {
        When::Never => format!("The {part} does not end with '{stop}'"),
        When::Always => format!("The {part} ends with '{stop}'"),
    })
}

fn case_sentence(part: &str, rule: &Rule<Value>) -> Option<String> {
    let checks = match &rule.value {
        Value::Cases { checks, .. } if !checks.is_empty() => checks,
        _ => return None,
    };
    let names: Vec<String> = checks.iter().map(example).collect();
    Some(match rule.when {
        When::Always => format!("The {part} is in {}", names.join(" or ")),
        When::Never => format!("The {part} is not in {}", names.join(", ")),
    })
}

/// A check's case with what it looks like.
fn example(check: &CaseCheck) -> String {
    use super::Case;
    let sample = match check.case {
        Case::Lower => "lower case",
        Case::Upper => "UPPER CASE",
        Case::Camel => "camelCase",
        Case::Kebab => "kebab-case",
        Case::Pascal => "PascalCase",
        Case::Sentence => "Sentence case",
        Case::Snake => "snake_case",
        Case::Start => "Start Case",
    };
    let not = if check.when == When::Never {
        "not "
    } else {
        ""
    };
    format!("{not}{} ({sample})", check.case.name())
}
