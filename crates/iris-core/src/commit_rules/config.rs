//! A commitlint configuration object (from any format) turned into [`CommitRules`]: the
//! presets it extends first, then its own parser options and rules over them. What
//! commitlint itself refuses (an unknown rule, an entry that is not `[level, when, value]`)
//! is refused here too, so a broken configuration is found before CI finds it.

use super::pattern::{self, JsPattern};
use super::tree::Node;
use super::{
    Case, CaseCheck, CommitRules, Level, Rule, RuleName, RulesError, Value, ValueKind, When,
    presets,
};

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
    if let Some(preset) = config.get("parserPreset") {
        read_parser_preset(preset, &mut rules).map_err(|why| RulesError::new(source, why))?;
    }
    let plugins = config.get("plugins").is_some();
    for (key, value) in entries {
        match key.as_str() {
            "rules" => read_rules(value, &mut rules, plugins)
                .map_err(|why| RulesError::new(source, why))?,
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
            _ => {}
        }
    }
    // Every pattern must compile now, not on the first message.
    rules
        .parser
        .compile()
        .map_err(|why| RulesError::new(source, format!("parserPreset: {why}")))?;
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

/// `parserPreset`: a package name, or an object whose `parserOpts` set the options one by
/// one over those of the presets extended.
fn read_parser_preset(preset: &Node, rules: &mut CommitRules) -> Result<(), String> {
    match preset {
        Node::String(name) => {
            if let Some(options) = presets::parser(name) {
                rules.parser = options;
            } else {
                rules.notes.push(format!(
                    "parserPreset {name}: not known; headers are read with commitlint's default pattern"
                ));
            }
            Ok(())
        }
        Node::Object(_) => {
            let options = preset.get("parserOpts").or_else(|| preset.get("parser"));
            match options {
                Some(options @ Node::Object(_)) => {
                    // A preset module's options may come back nested one level down.
                    let inner = options
                        .get("parserOpts")
                        .filter(|n| matches!(n, Node::Object(_)));
                    if let Some(inner) = inner {
                        read_parser_options(inner, rules)?;
                    }
                    read_parser_options(options, rules)
                }
                Some(Node::Unreadable(what)) => {
                    rules
                        .notes
                        .push(format!("parserPreset.parserOpts is {what}; not read"));
                    Ok(())
                }
                Some(other) => Err(format!(
                    "parserPreset.parserOpts is {}, not an object",
                    other.kind()
                )),
                None => {
                    if let Some(Node::String(name)) = preset.get("name") {
                        return read_parser_preset(&Node::String(name.clone()), rules);
                    }
                    Ok(())
                }
            }
        }
        Node::Unreadable(what) => {
            rules
                .notes
                .push(format!("parserPreset is {what}; not read"));
            Ok(())
        }
        other => Err(format!(
            "parserPreset is {}, not a package name or an object",
            other.kind()
        )),
    }
}

fn read_parser_options(options: &Node, rules: &mut CommitRules) -> Result<(), String> {
    let Node::Object(entries) = options else {
        return Ok(());
    };
    for (key, value) in entries {
        let p = &mut rules.parser;
        let field = |what: String| format!("parserPreset.parserOpts.{key}: {what}");
        match key.as_str() {
            "headerPattern" => p.header_pattern = js_pattern(value).map_err(field)?,
            "breakingHeaderPattern" => {
                p.breaking_header_pattern = js_pattern(value).map_err(field)?
            }
            "mergePattern" => p.merge_pattern = js_pattern(value).map_err(field)?,
            "headerCorrespondence" => {
                p.header_correspondence = correspondence(value).map_err(field)?
            }
            "mergeCorrespondence" => {
                p.merge_correspondence = correspondence(value).map_err(field)?
            }
            "noteKeywords" => p.note_keywords = keywords(value).map_err(field)?,
            "issuePrefixes" => p.issue_prefixes = keywords(value).map_err(field)?,
            "referenceActions" => p.reference_actions = keywords(value).map_err(field)?,
            "issuePrefixesCaseSensitive" => {
                p.issue_prefixes_case_sensitive = matches!(value, Node::Bool(true))
            }
            "notesPattern"
            | "fieldPattern"
            | "revertPattern"
            | "revertCorrespondence"
            | "commentChar"
            | "warn" => {}
            _ => {}
        }
        if let Node::Unreadable(what) = value {
            rules
                .notes
                .push(format!("parserPreset.parserOpts.{key} is {what}; not read"));
        }
    }
    Ok(())
}

/// A pattern option: a regex literal, a string (JavaScript makes it a pattern), or null.
fn js_pattern(node: &Node) -> Result<Option<JsPattern>, String> {
    let pattern = match node {
        Node::Null => return Ok(None),
        Node::Regex(literal) => {
            JsPattern::from_literal(literal).ok_or_else(|| format!("{literal} is not a pattern"))?
        }
        Node::String(source) => JsPattern::new(source),
        Node::Unreadable(_) => return Ok(None),
        other => return Err(format!("{} is not a pattern", other.kind())),
    };
    pattern.compile()?;
    Ok(Some(pattern))
}

/// A list of field names. (The parser indexes a string character by character, so a string
/// names one-letter fields, as there.)
fn correspondence(node: &Node) -> Result<Vec<String>, String> {
    match node {
        Node::Null => Ok(Vec::new()),
        Node::String(s) => Ok(s.chars().map(String::from).collect()),
        Node::Array(items) => items
            .iter()
            .map(|i| match i {
                Node::String(s) => Ok(s.clone()),
                other => Err(format!("an entry is {}, not a field name", other.kind())),
            })
            .collect(),
        other => Err(format!("{} is not a list of field names", other.kind())),
    }
}

/// Keywords or prefixes: plain words are matched as they are written (trimmed), regex
/// literals as patterns; null turns the option off.
fn keywords(node: &Node) -> Result<Option<Vec<String>>, String> {
    let one = |item: &Node| match item {
        Node::String(s) => Ok(pattern::escape(s.trim())),
        Node::Regex(literal) => JsPattern::from_literal(literal)
            .map(|p| p.source)
            .ok_or_else(|| format!("{literal} is not a pattern")),
        other => Err(format!("an entry is {}, not a word", other.kind())),
    };
    match node {
        Node::Null => Ok(None),
        Node::Array(items) => items.iter().map(one).collect::<Result<_, _>>().map(Some),
        single @ (Node::String(_) | Node::Regex(_)) => Ok(Some(vec![one(single)?])),
        other => Err(format!("{} is not a list of words", other.kind())),
    }
}

/// The `rules` object: every entry must name a rule commitlint ships (unless plugins may
/// add rules) and be `[level, when, value]`, or the configuration is refused.
fn read_rules(node: &Node, rules: &mut CommitRules, plugins: bool) -> Result<(), String> {
    let entries = match node {
        Node::Object(entries) => entries,
        Node::Unreadable(what) => {
            rules.notes.push(format!("rules is {what}; not read"));
            return Ok(());
        }
        other => return Err(format!("rules is {}, not an object", other.kind())),
    };
    let unknown: Vec<&str> = entries
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| RuleName::from_name(name).is_none())
        .collect();
    if !unknown.is_empty() && !plugins {
        return Err(format!(
            "no such rule: {} (commitlint would stop here too)",
            unknown.join(", ")
        ));
    }
    for (name, value) in entries {
        let Some(rule) = RuleName::from_name(name) else {
            rules
                .notes
                .push(format!("{name}: a plugin's rule; not checked"));
            continue;
        };
        match read_rule(rule, value) {
            Ok(Some(r)) => rules.set(rule, r),
            // Level 0 turns off what a preset set.
            Ok(None) => {
                rules.rules.remove(&rule);
            }
            Err(Reading::Refused(why)) => return Err(format!("rule {name}: {why}")),
            Err(Reading::Unreadable(why)) => {
                rules.notes.push(format!("{name}: {why}; not checked"));
                // The file meant to replace the preset's rule: it is off, not the preset's.
                rules.rules.remove(&rule);
            }
        }
    }
    Ok(())
}

/// Why a rule's entry was not read: commitlint refuses it, or Iris cannot evaluate it.
enum Reading {
    Refused(String),
    Unreadable(String),
}

/// One rule from its `[level, when, value]`; `None` for a rule that is off.
fn read_rule(rule: RuleName, node: &Node) -> Result<Option<Rule<Value>>, Reading> {
    let items = match node {
        Node::Array(items) => items,
        Node::Unreadable(what) => {
            return Err(Reading::Unreadable(format!("its setting is {what}")));
        }
        other => {
            return Err(Reading::Refused(format!(
                "its setting is {}, not [level, when, value]",
                other.kind()
            )));
        }
    };
    let level = match items.first() {
        Some(Node::Number(n)) if !n.is_nan() => *n,
        Some(Node::Unreadable(what)) => {
            return Err(Reading::Unreadable(format!("its level is {what}")));
        }
        Some(other) => {
            return Err(Reading::Refused(format!(
                "its level is {}, not a number",
                describe_node(other)
            )));
        }
        None => return Err(Reading::Refused("its setting is an empty list".into())),
    };
    if level == 0.0 && items.len() == 1 {
        return Ok(None);
    }
    if !(2..=3).contains(&items.len()) {
        return Err(Reading::Refused(format!(
            "its setting has {} items, not 2 or 3 ([level, when, value])",
            items.len()
        )));
    }
    if !(0.0..=2.0).contains(&level) {
        return Err(Reading::Refused(format!(
            "its level is {}, not 0, 1 or 2",
            describe_node(&items[0])
        )));
    }
    let when = match &items[1] {
        Node::String(s) if s == "always" => When::Always,
        Node::String(s) if s == "never" => When::Never,
        Node::Unreadable(what) => {
            return Err(Reading::Unreadable(format!("its condition is {what}")));
        }
        other => {
            return Err(Reading::Refused(format!(
                "its condition is {}, not 'always' or 'never'",
                describe_node(other)
            )));
        }
    };
    let level = if level == 2.0 {
        Level::Error
    } else if level == 1.0 {
        Level::Warning
    } else {
        // Level 0 is off; commitlint reports a fractional level neither as error nor warning.
        return Ok(None);
    };
    let value = read_value(rule.value_kind(), items.get(2))?;
    Ok(Some(Rule::new(level, when, value)))
}

/// A rule's value by its kind; an absent value is commitlint's default for the rule.
fn read_value(kind: ValueKind, node: Option<&Node>) -> Result<Value, Reading> {
    if let Some(Node::Unreadable(what)) = node {
        return Err(Reading::Unreadable(format!("its value is {what}")));
    }
    let unreadable = |what: String| Err(Reading::Unreadable(what));
    Ok(match kind {
        ValueKind::Flag => Value::None,
        ValueKind::Length => match node {
            None => Value::Length(0),
            Some(Node::Number(n)) if n.is_infinite() && *n > 0.0 => Value::Length(usize::MAX),
            Some(Node::Number(n)) if *n >= 0.0 && n.fract() == 0.0 => Value::Length(*n as usize),
            Some(other) => {
                return unreadable(format!(
                    "its length is {}, not a count",
                    describe_node(other)
                ));
            }
        },
        ValueKind::Stop | ValueKind::Prefix => match node {
            None if kind == ValueKind::Stop => Value::Text(".".into()),
            None => Value::Text(String::new()),
            Some(Node::String(s)) => Value::Text(s.clone()),
            Some(other) => {
                return unreadable(format!("its value is {}, not a string", other.kind()));
            }
        },
        ValueKind::Names => Value::Names {
            names: node
                .map_or(Ok(Vec::new()), strings)
                .map_err(Reading::Unreadable)?,
            delimiters: Vec::new(),
        },
        ValueKind::ScopeNames => match node {
            Some(object @ Node::Object(_)) => Value::Names {
                names: object
                    .get("scopes")
                    .map_or(Ok(Vec::new()), strings)
                    .map_err(Reading::Unreadable)?,
                delimiters: object
                    .get("delimiters")
                    .map_or(Ok(Vec::new()), strings)
                    .map_err(Reading::Unreadable)?,
            },
            _ => Value::Names {
                names: node
                    .map_or(Ok(Vec::new()), strings)
                    .map_err(Reading::Unreadable)?,
                delimiters: Vec::new(),
            },
        },
        ValueKind::Cases | ValueKind::ScopeCases => match node {
            Some(object @ Node::Object(_))
                if kind == ValueKind::ScopeCases && object.get("cases").is_some() =>
            {
                Value::Cases {
                    checks: case_checks(object.get("cases"))?,
                    delimiters: object
                        .get("delimiters")
                        .map_or(Ok(Vec::new()), strings)
                        .map_err(Reading::Unreadable)?,
                }
            }
            _ => Value::Cases {
                checks: case_checks(node)?,
                delimiters: Vec::new(),
            },
        },
        ValueKind::Delimiters => Value::Delimiters(
            node.map_or(Ok(Vec::new()), strings)
                .map_err(Reading::Unreadable)?,
        ),
    })
}

fn describe_node(node: &Node) -> String {
    match node {
        Node::Number(n) => n.to_string(),
        Node::String(s) => format!("'{s}'"),
        Node::Unreadable(what) => what.clone(),
        other => other.kind().to_string(),
    }
}

fn strings(node: &Node) -> Result<Vec<String>, String> {
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

/// A case name, a list of them, or `{when, case}` checks. A name commitlint does not know
/// makes it stop on the first message it checks: refused.
fn case_checks(node: Option<&Node>) -> Result<Vec<CaseCheck>, Reading> {
    let items: Vec<&Node> = match node {
        None => return Ok(Vec::new()),
        Some(Node::Array(items)) => items.iter().collect(),
        Some(other) => vec![other],
    };
    items
        .into_iter()
        .map(|item| {
            let (name, when) = match item {
                Node::String(s) => (s.as_str(), When::Always),
                Node::Object(_) => {
                    // commitlint's `ensure` checks lower case when no case is named.
                    let name = item.get("case").and_then(Node::as_str).unwrap_or("lower-case");
                    let when = match item.get("when").and_then(Node::as_str) {
                        Some("never") => When::Never,
                        _ => When::Always,
                    };
                    (name, when)
                }
                Node::Unreadable(what) => return Err(Reading::Unreadable(format!("a case is {what}"))),
                other => return Err(Reading::Refused(format!("a case is {}", describe_node(other)))),
            };
            let case = Case::from_name(name).ok_or_else(|| {
                Reading::Refused(format!(
                    "'{name}' is not a case commitlint knows (lower-case, upper-case, camel-case, kebab-case, pascal-case, sentence-case, snake-case, start-case)"
                ))
            })?;
            Ok(CaseCheck { case, when })
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

    fn rule(items: Vec<Node>) -> Node {
        Node::Array(items)
    }

    #[test]
    fn the_files_rules_override_the_preset_and_level_zero_turns_one_off() {
        let config = obj(vec![
            ("extends", rule(vec![s("@commitlint/config-conventional")])),
            (
                "rules",
                obj(vec![
                    (
                        "header-max-length",
                        rule(vec![n(1.0), s("always"), n(72.0)]),
                    ),
                    ("subject-case", rule(vec![n(0.0)])),
                    (
                        "body-max-line-length",
                        rule(vec![n(2.0), s("always"), n(f64::INFINITY)]),
                    ),
                ]),
            ),
        ]);
        let rules = commitlint("x.json", &config).unwrap();
        assert_eq!(
            rules.rule(RuleName::HeaderMaxLength),
            Some(&Rule::always(Value::Length(72)).warning())
        );
        assert_eq!(rules.rule(RuleName::SubjectCase), None);
        assert_eq!(
            rules.rule(RuleName::BodyMaxLineLength),
            Some(&Rule::always(Value::Length(usize::MAX)))
        );
        assert_eq!(
            rules.rule(RuleName::SubjectFullStop),
            Some(&Rule::never(Value::Text(".".into())))
        );
        assert_eq!(
            rules.parser,
            super::super::parser::ParserOptions::conventional_commits()
        );
        assert!(rules.notes.is_empty(), "{:?}", rules.notes);
    }

    #[test]
    fn what_cannot_be_evaluated_becomes_a_note() {
        let config = obj(vec![
            ("extends", s("@company/commitlint-config")),
            (
                "rules",
                obj(vec![
                    ("type-enum", Node::Unreadable("a function".into())),
                    ("signed-off-by", rule(vec![n(2.0), s("always")])),
                ]),
            ),
        ]);
        let rules = commitlint("x.js", &config).unwrap();
        assert_eq!(rules.rule(RuleName::TypeEnum), None);
        assert_eq!(
            rules.rule(RuleName::SignedOffBy),
            Some(&Rule::always(Value::Text(String::new())))
        );
        assert_eq!(
            rules.notes,
            vec![
                "extends @company/commitlint-config: not read (Iris knows @commitlint/config-conventional and @commitlint/config-angular)",
                "type-enum: its setting is a function; not checked",
            ]
        );
    }

    #[test]
    fn what_commitlint_refuses_is_refused() {
        let refused = |name: &str, entry: Node| {
            let config = obj(vec![("rules", obj(vec![(name, entry)]))]);
            commitlint("x.json", &config).unwrap_err().reason
        };
        assert_eq!(
            refused("subject-tense", rule(vec![n(2.0), s("always")])),
            "no such rule: subject-tense (commitlint would stop here too)"
        );
        assert_eq!(
            refused(
                "header-max-length",
                rule(vec![n(3.0), s("always"), n(50.0)])
            ),
            "rule header-max-length: its level is 3, not 0, 1 or 2"
        );
        assert_eq!(
            refused("type-empty", rule(vec![s("2"), s("never")])),
            "rule type-empty: its level is '2', not a number"
        );
        assert_eq!(
            refused("type-empty", rule(vec![n(2.0), s("sometimes")])),
            "rule type-empty: its condition is 'sometimes', not 'always' or 'never'"
        );
        assert_eq!(
            refused("type-empty", rule(vec![n(2.0), s("never"), n(1.0), n(2.0)])),
            "rule type-empty: its setting has 4 items, not 2 or 3 ([level, when, value])"
        );
        assert_eq!(
            refused("type-empty", s("error")),
            "rule type-empty: its setting is a string, not [level, when, value]"
        );
        assert!(
            refused(
                "scope-case",
                rule(vec![n(2.0), s("always"), s("title-case")])
            )
            .contains("'title-case' is not a case commitlint knows")
        );
    }

    #[test]
    fn parser_options_and_the_object_forms_of_scope_rules() {
        let config = obj(vec![
            (
                "parserPreset",
                obj(vec![(
                    "parserOpts",
                    obj(vec![
                        ("headerPattern", Node::Regex(r"/^(\w+) (.*)$/".into())),
                        ("headerCorrespondence", rule(vec![s("type"), s("subject")])),
                        ("issuePrefixes", rule(vec![s("PROJ-")])),
                    ]),
                )]),
            ),
            (
                "rules",
                obj(vec![(
                    "scope-enum",
                    rule(vec![
                        n(2.0),
                        s("always"),
                        obj(vec![
                            ("scopes", rule(vec![s("a"), s("b")])),
                            ("delimiters", rule(vec![s("+")])),
                        ]),
                    ]),
                )]),
            ),
        ]);
        let rules = commitlint("x.js", &config).unwrap();
        assert_eq!(
            rules.parser.header_pattern,
            Some(JsPattern::new(r"^(\w+) (.*)$"))
        );
        assert_eq!(rules.parser.issue_prefixes, Some(vec!["PROJ-".to_string()]));
        assert_eq!(
            rules.rule(RuleName::ScopeEnum).map(|r| &r.value),
            Some(&Value::Names {
                names: vec!["a".into(), "b".into()],
                delimiters: vec!["+".into()]
            })
        );
        let broken = obj(vec![(
            "parserPreset",
            obj(vec![(
                "parserOpts",
                obj(vec![("headerPattern", s("^(unclosed"))]),
            )]),
        )]);
        assert!(commitlint("x.json", &broken).is_err());
    }

    #[test]
    fn a_configuration_that_is_not_an_object_is_an_error() {
        let err = commitlint("x.json", &Node::Array(vec![])).unwrap_err();
        assert_eq!(err.reason, "the configuration is a list, not an object");
    }
}
