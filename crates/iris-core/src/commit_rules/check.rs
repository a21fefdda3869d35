//! A message checked against the rules, rule by rule as commitlint evaluates them.

use super::message::ParsedMessage;
use super::{Case, CommitRules, Level, MAX_INPUT_BYTES, Rule, Violation, When};

pub fn check(rules: &CommitRules, message: &str) -> Vec<Violation> {
    if message.len() > MAX_INPUT_BYTES {
        return vec![Violation {
            rule: "message-size".into(),
            message: format!(
                "the message is {} bytes, more than the {MAX_INPUT_BYTES} checked",
                message.len()
            ),
            error: true,
        }];
    }
    let m = ParsedMessage::parse(message);
    if rules.default_ignores && is_ignored(&m.header) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut report = |rule: &str, level: Level, message: String| {
        out.push(Violation {
            rule: rule.to_string(),
            message,
            error: level == Level::Error,
        })
    };
    let kind = m.kind.as_deref().unwrap_or_default();
    let scope = m.scope.as_deref().unwrap_or_default();
    let subject = m.subject.as_deref().unwrap_or_default();

    // Body and footer rules first, then the header's, in commitlint's alphabetical order.
    if let Some(rule) = &rules.body_leading_blank
        && let Some(start) = m.body_start
    {
        let blank = start >= 2 && m.lines[1].is_empty();
        if fails(rule.when, blank) {
            report(
                "body-leading-blank",
                rule.level,
                leading_blank("body", rule.when),
            );
        }
    }
    if let Some(rule) = &rules.body_max_line_length {
        let longest = m.body.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        if longest > rule.value {
            report(
                "body-max-line-length",
                rule.level,
                format!(
                    "a body line is {longest} characters, at most {}",
                    rule.value
                ),
            );
        }
    }
    if let Some(rule) = &rules.footer_leading_blank
        && let Some(start) = m.footer_start
    {
        let blank = m.lines.get(start - 1).is_some_and(String::is_empty);
        if fails(rule.when, blank) {
            report(
                "footer-leading-blank",
                rule.level,
                leading_blank("footer", rule.when),
            );
        }
    }
    if let Some(rule) = &rules.footer_max_line_length {
        let longest = m
            .footer
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        if longest > rule.value {
            report(
                "footer-max-line-length",
                rule.level,
                format!(
                    "a footer line is {longest} characters, at most {}",
                    rule.value
                ),
            );
        }
    }
    let header_len = m.header.chars().count();
    if let Some(rule) = &rules.header_max_length
        && header_len > rule.value
    {
        report(
            "header-max-length",
            rule.level,
            format!(
                "the header is {header_len} characters, at most {}",
                rule.value
            ),
        );
    }
    if let Some(rule) = &rules.header_min_length
        && header_len < rule.value
    {
        report(
            "header-min-length",
            rule.level,
            format!(
                "the header is {header_len} characters, at least {}",
                rule.value
            ),
        );
    }
    if let Some(rule) = &rules.scope_case
        && !scope.is_empty()
        // Each of several scopes (`a/b`, `a, b`) is checked on its own.
        && let Some(text) = scope_parts(scope)
            .iter()
            .find_map(|part| case_violation("scope", part, rule))
    {
        report("scope-case", rule.level, text);
    }
    if let Some(rule) = &rules.scope_empty
        && fails(rule.when, scope.is_empty())
    {
        report("scope-empty", rule.level, empty("scope", rule.when));
    }
    if let Some(rule) = &rules.scope_enum
        && !scope.is_empty()
        && !rule.value.is_empty()
    {
        let parts = scope_parts(scope);
        let known = |s: &str| rule.value.iter().any(|v| v == s);
        let ok = match rule.when {
            When::Always => known(scope) || parts.iter().all(|p| known(p)),
            When::Never => !known(scope) && !parts.iter().any(|p| known(p)),
        };
        if !ok {
            report(
                "scope-enum",
                rule.level,
                format!(
                    "the scope '{scope}' is {}one of: {}",
                    if rule.when == When::Never { "" } else { "not " },
                    rule.value.join(", ")
                ),
            );
        }
    }
    if let Some(rule) = &rules.subject_case
        && subject.starts_with(char::is_alphabetic)
        && let Some(text) = case_violation("subject", subject, rule)
    {
        report("subject-case", rule.level, text);
    }
    if let Some(rule) = &rules.subject_empty
        && fails(rule.when, subject.is_empty())
    {
        report("subject-empty", rule.level, empty("subject", rule.when));
    }
    if let Some(rule) = &rules.subject_full_stop
        && !m.header.ends_with(':')
        && !rule.value.is_empty()
    {
        let stop = m.header.ends_with(rule.value.as_str()) && !m.header.ends_with("...");
        if fails(rule.when, stop) {
            let text = match rule.when {
                When::Never => format!("the subject ends with '{}'; drop it", rule.value),
                When::Always => format!("the subject must end with '{}'", rule.value),
            };
            report("subject-full-stop", rule.level, text);
        }
    }
    if let Some(rule) = &rules.type_case
        && !kind.is_empty()
        && let Some(text) = case_violation("type", kind, rule)
    {
        report("type-case", rule.level, text);
    }
    if let Some(rule) = &rules.type_empty
        && fails(rule.when, kind.is_empty())
    {
        report("type-empty", rule.level, empty("type", rule.when));
    }
    if let Some(rule) = &rules.type_enum
        && !kind.is_empty()
        && !rule.value.is_empty()
    {
        let known = rule.value.iter().any(|v| v == kind);
        if fails(rule.when, known) {
            let text = match rule.when {
                When::Always => {
                    format!("the type '{kind}' is not one of: {}", rule.value.join(", "))
                }
                When::Never => format!(
                    "the type '{kind}' is one of the forbidden: {}",
                    rule.value.join(", ")
                ),
            };
            report("type-enum", rule.level, text);
        }
    }
    // An empty type or subject is the header not having the `type: subject` shape at all.
    if m.kind.is_none()
        && let Some(v) = out
            .iter_mut()
            .find(|v| v.rule == "type-empty" || v.rule == "subject-empty")
    {
        v.message.push_str(&format!(
            " (the header '{}' is not 'type(scope): subject')",
            short(&m.header)
        ));
    }
    out
}

/// The scopes a scope names: it may list several, split by `/`, `\\` or `,`.
fn scope_parts(scope: &str) -> Vec<&str> {
    scope.split(['/', '\\', ',']).map(str::trim_start).collect()
}

/// Whether a rule with condition `when` fails for a property that holds (`holds`) or not.
fn fails(when: When, holds: bool) -> bool {
    match when {
        When::Always => !holds,
        When::Never => holds,
    }
}

fn leading_blank(part: &str, when: When) -> String {
    match when {
        When::Always => format!("the {part} must follow a blank line"),
        When::Never => format!("the {part} may not follow a blank line"),
    }
}

fn empty(part: &str, when: When) -> String {
    match when {
        When::Always => format!("the {part} must be empty"),
        When::Never => format!("the {part} may not be empty"),
    }
}

/// The violation of a case rule, if any (quoted names are skipped by [`Case::matches`]).
fn case_violation(part: &str, text: &str, rule: &Rule<Vec<Case>>) -> Option<String> {
    if rule.value.is_empty() {
        return None;
    }
    let any = rule.value.iter().any(|c| c.matches(text));
    if !fails(rule.when, any) {
        return None;
    }
    let names: Vec<&str> = rule.value.iter().map(|c| c.name()).collect();
    Some(match rule.when {
        When::Always => format!(
            "the {part} '{}' must be {}",
            short(text),
            names.join(" or ")
        ),
        When::Never => format!(
            "the {part} '{}' may not be {}",
            short(text),
            names.join(", ")
        ),
    })
}

/// A text cut for a message.
fn short(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

/// commitlint's default ignores: merges, reverts, fixups, bare versions and the automatic
/// messages of merge tools.
pub fn is_ignored(header: &str) -> bool {
    const PREFIXES: [&str; 9] = [
        "Merge pull request",
        "Merge branch ",
        "Merge tag ",
        "Merge remote-tracking branch",
        "Automatic merge",
        "Revert ",
        "revert ",
        "fixup!",
        "squash!",
    ];
    if PREFIXES.iter().any(|p| header.starts_with(p)) || header.starts_with("amend!") {
        return true;
    }
    let merged_into = |prefix: &str, middle: &str| {
        header
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.contains(middle))
    };
    if merged_into("Merge ", " into ")
        || merged_into("Merged ", " in ")
        || merged_into("Merged ", " into ")
        || merged_into("Merged PR ", ": ")
        || merged_into("Auto-merged ", " into ")
    {
        return true;
    }
    is_version(header)
}

/// A header that is a version alone (`1.2.0`, `chore: v1.2.0`), as release tools write.
fn is_version(header: &str) -> bool {
    let rest = header
        .strip_prefix("chore")
        .map(|r| {
            let r = match r.strip_prefix('(') {
                Some(inner) => inner.split_once(')').map_or(r, |(_, after)| after),
                None => r,
            };
            r.strip_prefix(':').unwrap_or(header)
        })
        .unwrap_or(header)
        .trim();
    let version = rest.strip_prefix('v').unwrap_or(rest);
    let core = version.split(['-', '+']).next().unwrap_or_default();
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_ignores() {
        for header in [
            "Merge branch 'main' into feature",
            "Merge pull request #12 from a/b",
            "Revert \"feat: x\"",
            "fixup! feat: x",
            "1.2.3",
            "chore(release): v1.2.3-beta.1",
            "Auto-merged main into feature",
        ] {
            assert!(is_ignored(header), "{header}");
        }
        for header in [
            "feat: merge branches",
            "Reverting things",
            "1.2",
            "chore: bump to 1.2.3",
        ] {
            assert!(!is_ignored(header), "{header}");
        }
    }
}
