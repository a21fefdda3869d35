//! A commitlint configuration object (from any format) turned into [`CommitRules`]: the
//! presets it extends first, then its own rules over them, rule by rule.

use super::tree::Node;
use super::{Case, CommitRules, Level, Rule, RulesError, When, presets};

/// The rules of a commitlint configuration object read from `source`.
pub fn commitlint(source: &str, config: &Node) -> Result<CommitRules, RulesError> {
    let mut rules = CommitRules::empty(source);
    let entries = match config {
        Node::Object(entries) => entries,
        // An empty file: no rules (commitlint too runs with none).
        Node::Null => {
            rules.notes.push("the configuration is empty".into());
            return Ok(rules);
        }
        Node::Unreadable(what) => {
            return Err(RulesError::new(
                source,
                format!("the configuration is {what}, which Iris cannot read without running it"),
            ));
        }
        other => {
            return Err(RulesError::new(
                source,
                format!("the configuration is {}, not an object", other.kind()),
            ));
        }
    };
    if let Some(extends) = config.get("extends") {
        read_extends(extends, &mut rules);
    }
    let mut unchecked = Vec::new();
    for (key, value) in entries {
        match key.as_str() {
            "extends" => {}
            "rules" => read_rules(value, &mut rules, &mut unchecked),
            "defaultIgnores" => match value {
                Node::Bool(b) => rules.default_ignores = *b,
                other => rules.notes.push(format!(
                    "defaultIgnores is {}, not true or false",
                    other.kind()
                )),
            },
            "ignores" => rules
                .notes
                .push("ignores: its functions are not run (only the default ignores apply)".into()),
            "plugins" => rules
                .notes
                .push("plugins: their rules are not checked".into()),
            "parserPreset" => rules.notes.push(
                "parserPreset: headers are read with the conventional commits pattern".into(),
            ),
            _ => {}
        }
    }
    if !unchecked.is_empty() {
        rules.notes.push(format!(
            "rules Iris does not check: {}",
            unchecked.join(", ")
        ));
    }
    Ok(rules)
}

fn read_extends(extends: &Node, rules: &mut CommitRules) {
    let names: Vec<&Node> = match extends {
        Node::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for name in names {
        match name {
            Node::String(name) => {
                rules.extends.push(name.clone());
                if !presets::apply(name, rules) {
                    rules.notes.push(format!(
                        "extends {name}: not read (Iris knows @commitlint/config-conventional and @commitlint/config-angular)"
                    ));
                }
            }
            other => rules.notes.push(format!(
                "extends: an entry is {}, not a package name; skipped",
                other.kind()
            )),
        }
    }
}

/// Which field a rule name sets, and how its value reads.
enum Kind {
    Names(fn(&mut CommitRules) -> &mut Option<Rule<Vec<String>>>),
    Cases(fn(&mut CommitRules) -> &mut Option<Rule<Vec<Case>>>),
    Flag(fn(&mut CommitRules) -> &mut Option<Rule<()>>),
    Length(fn(&mut CommitRules) -> &mut Option<Rule<usize>>),
    Stop,
}

fn kind_of(name: &str) -> Option<Kind> {
    Some(match name {
        "type-enum" => Kind::Names(|r| &mut r.type_enum),
        "scope-enum" => Kind::Names(|r| &mut r.scope_enum),
        "type-case" => Kind::Cases(|r| &mut r.type_case),
        "scope-case" => Kind::Cases(|r| &mut r.scope_case),
        "subject-case" => Kind::Cases(|r| &mut r.subject_case),
        "type-empty" => Kind::Flag(|r| &mut r.type_empty),
        "scope-empty" => Kind::Flag(|r| &mut r.scope_empty),
        "subject-empty" => Kind::Flag(|r| &mut r.subject_empty),
        "body-leading-blank" => Kind::Flag(|r| &mut r.body_leading_blank),
        "footer-leading-blank" => Kind::Flag(|r| &mut r.footer_leading_blank),
        "header-max-length" => Kind::Length(|r| &mut r.header_max_length),
        "header-min-length" => Kind::Length(|r| &mut r.header_min_length),
        "body-max-line-length" => Kind::Length(|r| &mut r.body_max_line_length),
        "footer-max-line-length" => Kind::Length(|r| &mut r.footer_max_line_length),
        "subject-full-stop" => Kind::Stop,
        _ => return None,
    })
}

fn read_rules(node: &Node, rules: &mut CommitRules, unchecked: &mut Vec<String>) {
    let entries = match node {
        Node::Object(entries) => entries,
        other => {
            rules
                .notes
                .push(format!("rules is {}, not an object; skipped", other.kind()));
            return;
        }
    };
    for (name, value) in entries {
        let Some(kind) = kind_of(name) else {
            unchecked.push(name.clone());
            continue;
        };
        if let Err(why) = read_rule(&kind, value, rules) {
            rules.notes.push(format!("{name}: {why}; not checked"));
            // An unreadable rule replaces the preset's as the file meant to: it is off.
            clear(&kind, rules);
        }
    }
}

fn clear(kind: &Kind, rules: &mut CommitRules) {
    match kind {
        Kind::Names(field) => *field(rules) = None,
        Kind::Cases(field) => *field(rules) = None,
        Kind::Flag(field) => *field(rules) = None,
        Kind::Length(field) => *field(rules) = None,
        Kind::Stop => rules.subject_full_stop = None,
    }
}

/// Sets one rule from its `[level, when, value]`; `Err` says why it cannot be read.
fn read_rule(kind: &Kind, node: &Node, rules: &mut CommitRules) -> Result<(), String> {
    let Some((level, when, value)) = parts(node)? else {
        clear(kind, rules);
        return Ok(());
    };
    match kind {
        Kind::Names(field) => {
            let names = match value {
                None => Vec::new(),
                Some(v) => string_list(v)?,
            };
            *field(rules) = Some(Rule::new(level, when, names));
        }
        Kind::Cases(field) => {
            let cases = match value {
                None => Vec::new(),
                Some(v) => cases(v)?,
            };
            *field(rules) = Some(Rule::new(level, when, cases));
        }
        Kind::Flag(field) => *field(rules) = Some(Rule::new(level, when, ())),
        Kind::Length(field) => {
            let limit = match value {
                Some(Node::Number(n)) if n.is_infinite() && *n > 0.0 => None,
                Some(Node::Number(n)) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as usize),
                Some(other) => return Err(format!("the length is {}, not a count", other.kind())),
                None => return Err("no length is given".into()),
            };
            *field(rules) = limit.map(|l| Rule::new(level, when, l));
        }
        Kind::Stop => {
            let stop = match value {
                None => ".".to_string(),
                Some(Node::String(s)) => s.clone(),
                Some(other) => return Err(format!("the stop is {}, not a string", other.kind())),
            };
            rules.subject_full_stop = Some(Rule::new(level, when, stop));
        }
    }
    Ok(())
}

/// A rule's level, condition and value, as `[level, when, value]` gives them.
type Parts<'a> = (Level, When, Option<&'a Node>);

/// `[level, when, value]`: `None` for level 0 (the rule is off).
fn parts(node: &Node) -> Result<Option<Parts<'_>>, String> {
    let items = match node {
        Node::Array(items) => items,
        Node::Unreadable(what) => return Err(format!("its setting is {what}")),
        other => {
            return Err(format!(
                "its setting is {}, not [level, when, value]",
                other.kind()
            ));
        }
    };
    let level = match items.first() {
        Some(Node::Number(n)) if *n == 0.0 => return Ok(None),
        Some(Node::Number(n)) if *n == 1.0 => Level::Warning,
        Some(Node::Number(n)) if *n == 2.0 => Level::Error,
        Some(Node::Unreadable(what)) => return Err(format!("its level is {what}")),
        Some(other) => {
            return Err(format!(
                "its level is {}, not 0, 1 or 2",
                describe_node(other)
            ));
        }
        None => return Err("its setting is an empty list".into()),
    };
    let when = match items.get(1) {
        None => When::Always,
        Some(Node::String(s)) if s == "always" => When::Always,
        Some(Node::String(s)) if s == "never" => When::Never,
        Some(other) => {
            return Err(format!(
                "its condition is {}, not 'always' or 'never'",
                describe_node(other)
            ));
        }
    };
    Ok(Some((level, when, items.get(2))))
}

fn describe_node(node: &Node) -> String {
    match node {
        Node::Number(n) => n.to_string(),
        Node::String(s) => format!("'{s}'"),
        Node::Unreadable(what) => what.clone(),
        other => other.kind().to_string(),
    }
}

fn string_list(node: &Node) -> Result<Vec<String>, String> {
    let items = match node {
        Node::Array(items) => items,
        Node::Unreadable(what) => return Err(format!("its values are {what}")),
        other => return Err(format!("its values are {}, not a list", other.kind())),
    };
    items
        .iter()
        .map(|item| match item {
            Node::String(s) => Ok(s.clone()),
            Node::Unreadable(what) => Err(format!("a value is {what}")),
            other => Err(format!("a value is {}, not a string", other.kind())),
        })
        .collect()
}

/// A case name, a list of them, or scope-case's `{ cases: [...] }`.
fn cases(node: &Node) -> Result<Vec<Case>, String> {
    let names: Vec<&Node> = match node {
        Node::Array(items) => items.iter().collect(),
        Node::Object(_) => match node.get("cases") {
            Some(Node::Array(items)) => items.iter().collect(),
            _ => return Err("its value has no list of cases".into()),
        },
        other => vec![other],
    };
    names
        .into_iter()
        .map(|name| match name {
            Node::String(s) => Case::from_name(s).ok_or_else(|| format!("'{s}' is not a case")),
            other => Err(format!("a case is {}", describe_node(other))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(entries: Vec<(&str, Node)>) -> Node {
        Node::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    fn s(text: &str) -> Node {
        Node::String(text.into())
    }

    fn n(value: f64) -> Node {
        Node::Number(value)
    }

    #[test]
    fn the_files_rules_override_the_preset_and_level_zero_turns_one_off() {
        let config = obj(vec![
            (
                "extends",
                Node::Array(vec![s("@commitlint/config-conventional")]),
            ),
            (
                "rules",
                obj(vec![
                    (
                        "header-max-length",
                        Node::Array(vec![n(1.0), s("always"), n(72.0)]),
                    ),
                    ("subject-case", Node::Array(vec![n(0.0)])),
                    (
                        "body-max-line-length",
                        Node::Array(vec![n(2.0), s("always"), n(f64::INFINITY)]),
                    ),
                ]),
            ),
        ]);
        let rules = commitlint("x.json", &config).unwrap();
        assert_eq!(rules.header_max_length, Some(Rule::always(72).warning()));
        assert_eq!(rules.subject_case, None);
        assert_eq!(rules.body_max_line_length, None);
        assert_eq!(rules.subject_full_stop, Some(Rule::never(".".to_string())));
        assert!(rules.notes.is_empty(), "{:?}", rules.notes);
    }

    #[test]
    fn unreadable_and_unknown_rules_become_notes() {
        let config = obj(vec![
            ("extends", s("@company/commitlint-config")),
            (
                "rules",
                obj(vec![
                    ("type-enum", Node::Unreadable("a function".into())),
                    ("signed-off-by", Node::Array(vec![n(2.0), s("always")])),
                    (
                        "scope-case",
                        Node::Array(vec![n(2.0), s("always"), s("title-case")]),
                    ),
                    (
                        "header-max-length",
                        Node::Array(vec![n(3.0), s("always"), n(50.0)]),
                    ),
                ]),
            ),
        ]);
        let rules = commitlint("x.js", &config).unwrap();
        assert_eq!(rules.type_enum, None);
        assert_eq!(rules.header_max_length, None);
        assert_eq!(
            rules.notes,
            vec![
                "extends @company/commitlint-config: not read (Iris knows @commitlint/config-conventional and @commitlint/config-angular)",
                "type-enum: its setting is a function; not checked",
                "scope-case: 'title-case' is not a case; not checked",
                "header-max-length: its level is 3, not 0, 1 or 2; not checked",
                "rules Iris does not check: signed-off-by",
            ]
        );
    }

    #[test]
    fn a_configuration_that_is_not_an_object_is_an_error() {
        let err = commitlint("x.json", &Node::Array(vec![])).unwrap_err();
        assert_eq!(err.reason, "the configuration is a list, not an object");
    }
}
