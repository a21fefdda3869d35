//! The shared configurations a file may extend, and the parser presets it may name, as
//! their published packages set them: every rule and the parser options.

use super::parser::ParserOptions;
use super::pattern::JsPattern;
use super::{Case, CaseCheck, CommitRules, Rule, RuleName, Value};

/// `@commitlint/config-conventional`'s types, and commitizen's `cz_conventional_commits`
/// ones before it adds `bump`.
pub const CONVENTIONAL_TYPES: [&str; 11] = [
    "build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
];

/// `@commitlint/config-angular`'s types (conventional's without `chore`).
const ANGULAR_TYPES: [&str; 10] = [
    "build", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
];

/// The package an `extends` or `parserPreset` entry names (a path into node_modules names
/// the same package).
fn package(name: &str) -> &str {
    let package = name
        .rsplit_once("node_modules/")
        .map_or(name, |(_, p)| p)
        .trim_end_matches('/');
    package.strip_suffix("/index.js").unwrap_or(package)
}

/// The preset an `extends` entry names, applied to `rules`; false for one Iris does not know.
pub fn apply(name: &str, rules: &mut CommitRules) -> bool {
    match package(name) {
        "@commitlint/config-conventional" => {
            conventional(rules);
            true
        }
        "@commitlint/config-angular" => {
            angular(rules);
            true
        }
        _ => false,
    }
}

/// The parser options of a parser preset package, or `None` for one Iris does not know.
pub fn parser(name: &str) -> Option<ParserOptions> {
    match package(name) {
        "conventional-changelog-conventionalcommits" => Some(ParserOptions::conventional_commits()),
        "conventional-changelog-angular" => Some(ParserOptions::default()),
        _ => None,
    }
}

fn names(items: &[&str]) -> Value {
    Value::Names {
        names: items.iter().map(|s| s.to_string()).collect(),
        delimiters: Vec::new(),
    }
}

fn cases(list: &[Case]) -> Value {
    Value::Cases {
        checks: list.iter().map(|c| CaseCheck::always(*c)).collect(),
        delimiters: Vec::new(),
    }
}

/// The subject cases both presets forbid.
fn not_capitalised() -> Value {
    cases(&[Case::Sentence, Case::Start, Case::Pascal, Case::Upper])
}

fn conventional(r: &mut CommitRules) {
    use RuleName::*;
    r.parser = ParserOptions::conventional_commits();
    r.set(BodyLeadingBlank, Rule::always(Value::None).warning());
    r.set(BodyMaxLineLength, Rule::always(Value::Length(100)));
    r.set(FooterLeadingBlank, Rule::always(Value::None).warning());
    r.set(FooterMaxLineLength, Rule::always(Value::Length(100)));
    r.set(HeaderMaxLength, Rule::always(Value::Length(100)));
    r.set(HeaderTrim, Rule::always(Value::None));
    r.set(SubjectCase, Rule::never(not_capitalised()));
    r.set(SubjectEmpty, Rule::never(Value::None));
    r.set(SubjectFullStop, Rule::never(Value::Text(".".into())));
    r.set(TypeCase, Rule::always(cases(&[Case::Lower])));
    r.set(TypeEmpty, Rule::never(Value::None));
    r.set(TypeEnum, Rule::always(names(&CONVENTIONAL_TYPES)));
}

fn angular(r: &mut CommitRules) {
    use RuleName::*;
    r.parser = ParserOptions {
        header_pattern: Some(JsPattern::new(r"^(\w*)(?:\((.*)\))?!?: (.*)$")),
        ..ParserOptions::default()
    };
    r.set(SubjectExclamationMark, Rule::never(Value::None));
    r.set(BodyLeadingBlank, Rule::always(Value::None).warning());
    r.set(FooterLeadingBlank, Rule::always(Value::None).warning());
    r.set(HeaderMaxLength, Rule::always(Value::Length(72)));
    r.set(ScopeCase, Rule::always(cases(&[Case::Lower])));
    r.set(SubjectCase, Rule::never(not_capitalised()));
    r.set(SubjectEmpty, Rule::never(Value::None));
    r.set(SubjectFullStop, Rule::never(Value::Text(".".into())));
    r.set(TypeCase, Rule::always(cases(&[Case::Lower])));
    r.set(TypeEmpty, Rule::never(Value::None));
    r.set(TypeEnum, Rule::always(names(&ANGULAR_TYPES)));
}
