//! A commitizen setup (`[tool.commitizen]`, `.cz.toml`, `cz.json`, `cz.yaml`) as rules: the
//! conventional commits shape its `cz check` enforces, and its `message_length_limit`.

use super::tree::Node;
use super::{CommitRules, ParserOptions, Rule, RuleName, RulesError, Value, presets};

/// The rules a commitizen settings table sets.
pub fn rules(source: &str, settings: &Node) -> Result<CommitRules, RulesError> {
    if !matches!(settings, Node::Object(_)) {
        return Err(RulesError::new(
            source,
            format!(
                "the commitizen settings are {}, not a table",
                settings.kind()
            ),
        ));
    }
    let mut rules = CommitRules::empty(source);
    let name = match settings.get("name") {
        None => "cz_conventional_commits",
        Some(Node::String(name)) => name.as_str(),
        Some(other) => {
            return Err(RulesError::new(
                source,
                format!("name is {}, not a string", other.kind()),
            ));
        }
    };
    rules.extends.push(name.to_string());
    match name {
        "cz_conventional_commits" => {
            let mut types: Vec<String> = presets::CONVENTIONAL_TYPES
                .iter()
                .map(|t| t.to_string())
                .collect();
            types.push("bump".into());
            shape(&mut rules, types);
        }
        "cz_customize" => {
            let pattern = settings
                .get("customize")
                .and_then(|c| c.get("schema_pattern"))
                .and_then(Node::as_str);
            match pattern.and_then(types_of_pattern) {
                Some(types) => {
                    shape(&mut rules, types);
                    rules
                        .notes
                        .push("customize.schema_pattern: only its list of types is checked".into());
                }
                None => rules.notes.push(
                    "cz_customize: no list of types found in customize.schema_pattern".into(),
                ),
            }
        }
        other => rules.notes.push(format!(
            "commit rules {other}: not known to Iris (it knows cz_conventional_commits)"
        )),
    }
    match settings.get("message_length_limit") {
        None => {}
        Some(Node::Number(n)) if *n > 0.0 && n.fract() == 0.0 && n.is_finite() => {
            rules.set(
                RuleName::HeaderMaxLength,
                Rule::always(Value::Length(*n as usize)),
            );
        }
        // 0 (or less) is commitizen's "no limit".
        Some(Node::Number(n)) if *n <= 0.0 => {}
        Some(other) => rules.notes.push(format!(
            "message_length_limit is {}, not a count; not checked",
            other.kind()
        )),
    }
    Ok(rules)
}

/// The conventional shape `cz check` asks for: a known type, a subject, a blank line
/// before the body.
fn shape(rules: &mut CommitRules, types: Vec<String>) {
    rules.set(
        RuleName::TypeEnum,
        Rule::always(Value::Names {
            names: types,
            delimiters: Vec::new(),
        }),
    );
    rules.set(RuleName::TypeEmpty, Rule::never(Value::None));
    rules.set(RuleName::SubjectEmpty, Rule::never(Value::None));
    rules.set(RuleName::BodyLeadingBlank, Rule::always(Value::None));
    // `cz check` reads `type(scope)!: subject` headers.
    rules.parser = ParserOptions::conventional_commits();
}

/// The types of a schema pattern: its first group that is an alternation of plain words,
/// `(feat|fix|docs)` (the prefix `?:` or `?P<name>` allowed).
fn types_of_pattern(pattern: &str) -> Option<Vec<String>> {
    let mut rest = pattern;
    while let Some(open) = rest.find('(') {
        let inner = &rest[open + 1..];
        let close = inner.find(')')?;
        let group = &inner[..close];
        let group = group
            .strip_prefix("?:")
            .or_else(|| {
                group
                    .strip_prefix("?P<")
                    .and_then(|g| g.split_once('>'))
                    .map(|(_, g)| g)
            })
            .unwrap_or(group);
        let words: Vec<&str> = group.split('|').collect();
        let plain = |w: &&str| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        if words.len() > 1 && words.iter().all(plain) {
            return Some(words.iter().map(|w| w.to_string()).collect());
        }
        rest = &inner[close + 1..];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_types_of_a_custom_schema_pattern() {
        assert_eq!(
            types_of_pattern(r"(?s)(build|feat|fix)(\(\S+\))?!?:( [^\n\r]+)"),
            Some(vec!["build".into(), "feat".into(), "fix".into()])
        );
        assert_eq!(
            types_of_pattern(r"^(?P<change_type>feat|fix)(?:\((?P<scope>[^()]*)\))?: .*"),
            Some(vec!["feat".into(), "fix".into()])
        );
        assert_eq!(types_of_pattern(r"^[A-Z]+-\d+ .*"), None);
    }
}
