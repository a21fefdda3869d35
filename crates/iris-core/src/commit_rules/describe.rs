//! The rules in words: one sentence per rule, errors and warnings told apart, for a prompt
//! and for `iris gen --check`'s summary.

use super::{Case, CommitRules, Level, Rule, When};

pub fn describe(rules: &CommitRules) -> Vec<String> {
    let mut out = Vec::new();
    let mut say = |level: Level, text: String| {
        out.push(match level {
            Level::Error => text,
            Level::Warning => format!("{text} (a warning)"),
        });
    };
    if let Some(r) = &rules.type_empty {
        say(
            r.level,
            by_when(
                r.when,
                "The header has no type",
                "The header has the form 'type(scope): subject' with a type",
            ),
        );
    }
    if let Some(r) = &rules.type_enum
        && !r.value.is_empty()
    {
        say(
            r.level,
            match r.when {
                When::Always => format!("The type is one of: {}", r.value.join(", ")),
                When::Never => format!("The type is none of: {}", r.value.join(", ")),
            },
        );
    }
    if let Some(r) = rules.type_case.as_ref().filter(|r| !r.value.is_empty()) {
        say(r.level, case_sentence("type", r));
    }
    if let Some(r) = &rules.scope_empty {
        say(
            r.level,
            by_when(
                r.when,
                "No scope is given",
                "A scope is required: type(scope): subject",
            ),
        );
    }
    if let Some(r) = &rules.scope_enum
        && !r.value.is_empty()
    {
        say(
            r.level,
            match r.when {
                When::Always => format!("The scope, when given, is one of: {}", r.value.join(", ")),
                When::Never => format!("The scope is none of: {}", r.value.join(", ")),
            },
        );
    }
    if let Some(r) = rules.scope_case.as_ref().filter(|r| !r.value.is_empty()) {
        say(r.level, case_sentence("scope", r));
    }
    if let Some(r) = &rules.subject_empty {
        say(
            r.level,
            by_when(
                r.when,
                "The subject is empty",
                "The subject after the colon is not empty",
            ),
        );
    }
    if let Some(r) = rules.subject_case.as_ref().filter(|r| !r.value.is_empty()) {
        say(r.level, case_sentence("subject", r));
    }
    if let Some(r) = &rules.subject_full_stop {
        say(
            r.level,
            match r.when {
                When::Never => format!("The subject does not end with '{}'", r.value),
                When::Always => format!("The subject ends with '{}'", r.value),
            },
        );
    }
    if let Some(r) = &rules.header_max_length {
        say(
            r.level,
            format!("The header (first line) is at most {} characters", r.value),
        );
    }
    if let Some(r) = &rules.header_min_length {
        say(
            r.level,
            format!("The header is at least {} characters", r.value),
        );
    }
    if let Some(r) = &rules.body_leading_blank {
        say(
            r.level,
            by_when(
                r.when,
                "A blank line separates the header from the body",
                "The body follows the header without a blank line",
            ),
        );
    }
    if let Some(r) = &rules.body_max_line_length {
        say(
            r.level,
            format!("Body lines are at most {} characters", r.value),
        );
    }
    if let Some(r) = &rules.footer_leading_blank {
        say(
            r.level,
            by_when(
                r.when,
                "A blank line comes before the footer (BREAKING CHANGE:, Closes #...)",
                "The footer follows without a blank line",
            ),
        );
    }
    if let Some(r) = &rules.footer_max_line_length {
        say(
            r.level,
            format!("Footer lines are at most {} characters", r.value),
        );
    }
    out
}

/// The sentence for the rule's condition.
fn by_when(when: When, always: &str, never: &str) -> String {
    match when {
        When::Always => always.to_string(),
        When::Never => never.to_string(),
    }
}

fn case_sentence(part: &str, rule: &Rule<Vec<Case>>) -> String {
    let names: Vec<String> = rule.value.iter().map(|c| example(*c)).collect();
    match rule.when {
        When::Always => format!("The {part} is in {}", names.join(" or ")),
        When::Never => format!("The {part} is not in {}", names.join(", ")),
    }
}

/// A case's name with what it looks like.
fn example(case: Case) -> String {
    let sample = match case {
        Case::Lower => "lower case",
        Case::Upper => "UPPER CASE",
        Case::Camel => "camelCase",
        Case::Kebab => "kebab-case",
        Case::Pascal => "PascalCase",
        Case::Sentence => "Sentence case",
        Case::Snake => "snake_case",
        Case::Start => "Start Case",
    };
    format!("{} ({sample})", case.name())
}
