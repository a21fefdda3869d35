//! The repository's commit rules: a corpus of commitlint and commitizen configurations in
//! their real formats (tests/fixtures/commit_rules/), each found where `iris` looks, parsed to
//! the exact rules and checked with messages that pass and fail them; and the lookup order.
//! (`iris gen --check` end to end is the binary's `tests/gen_check.rs`.)

use std::path::{Path, PathBuf};

use iris_studio_core::commit_rules::{
    self, CONFIG_FILES, Case, CaseCheck, CommitRules, JsPattern, Level, MAX_INPUT_BYTES,
    ParserOptions, Rule, RuleName, RulesError, Value, When,
};

fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/commit_rules")
        .join(name)
}

/// The rules of a fixture, read the way `iris` finds them; the same as parsing the file.
fn fixture(name: &str) -> CommitRules {
    let dir = fixture_dir(name);
    let rules = iris_studio_config::project::commit_rules(&dir)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .unwrap_or_else(|| panic!("{name}: no configuration found"));
    let text = std::fs::read_to_string(dir.join(&rules.source)).unwrap();
    assert_eq!(commit_rules::parse(&rules.source, &text), Ok(rules.clone()));
    rules
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn names(items: &[&str]) -> Value {
    names_of(strings(items))
}

fn names_of(names: Vec<String>) -> Value {
    Value::Names {
        names,
        delimiters: Vec::new(),
    }
}

fn cases(list: &[Case]) -> Value {
    Value::Cases {
        checks: list.iter().map(|c| CaseCheck::always(*c)).collect(),
        delimiters: Vec::new(),
    }
}

/// The subject cases both commitlint presets forbid, at error level.
fn not_capitalised() -> Rule<Value> {
    Rule::never(cases(&[
        Case::Sentence,
        Case::Start,
        Case::Pascal,
        Case::Upper,
    ]))
}

/// `rules` with some rules set (`Some`) or turned off (`None`).
fn with(mut rules: CommitRules, changes: Vec<(RuleName, Option<Rule<Value>>)>) -> CommitRules {
    for (name, rule) in changes {
        match rule {
            Some(rule) => rules.set(name, rule),
            None => {
                rules.rules.remove(&name);
            }
        }
    }
    rules
}

const CONVENTIONAL: [&str; 11] = [
    "build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
];

/// `@commitlint/config-conventional`'s rules (those Iris checks), from `source`.
fn conventional(source: &str) -> CommitRules {
    CommitRules {
        default_ignores: true,
        extends: strings(&["@commitlint/config-conventional"]),
        parser: ParserOptions::conventional_commits(),
        ..with(
            CommitRules::empty(source),
            vec![
                (RuleName::HeaderTrim, Some(Rule::always(Value::None))),
                (RuleName::TypeEnum, Some(Rule::always(names(&CONVENTIONAL)))),
                (
                    RuleName::TypeCase,
                    Some(Rule::always(cases(&[Case::Lower]))),
                ),
                (RuleName::TypeEmpty, Some(Rule::never(Value::None))),
                (RuleName::SubjectCase, Some(not_capitalised())),
                (RuleName::SubjectEmpty, Some(Rule::never(Value::None))),
                (
                    RuleName::SubjectFullStop,
                    Some(Rule::never(Value::Text(".".into()))),
                ),
                (
                    RuleName::HeaderMaxLength,
                    Some(Rule::always(Value::Length(100))),
                ),
                (
                    RuleName::BodyLeadingBlank,
                    Some(Rule::always(Value::None).warning()),
                ),
                (
                    RuleName::BodyMaxLineLength,
                    Some(Rule::always(Value::Length(100))),
                ),
                (
                    RuleName::FooterLeadingBlank,
                    Some(Rule::always(Value::None).warning()),
                ),
                (
                    RuleName::FooterMaxLineLength,
                    Some(Rule::always(Value::Length(100))),
                ),
            ],
        )
    }
}

/// Asserts that `message` breaks exactly the rules `want` (`!` marks an error).
fn expect(rules: &CommitRules, message: &str, want: &[&str]) {
    assert_eq!(violated(rules, message), strings(want), "{message:?}");
}

/// The rule names `message` violates, each with `!` after it when an error.
fn violated(rules: &CommitRules, message: &str) -> Vec<String> {
    rules
        .check(message)
        .iter()
        .map(|v| {
            if v.error {
                format!("{}!", v.rule)
            } else {
                v.rule.clone()
            }
        })
        .collect()
}

// --- The corpus, one configuration at a time ------------------------------------------

#[test]
fn a_monorepos_commonjs_config_with_package_scopes() {
    let rules = fixture("monorepo-js");
    let expected = CommitRules {
        notes: strings(&[
            "ignores: its functions are not run (only the default ignores apply)",
            "scope-empty: its setting is a function (line 35); not checked",
        ]),
        ..with(
            conventional("commitlint.config.js"),
            vec![
                (
                    RuleName::ScopeEnum,
                    Some(Rule::always(names(&[
                        "cli",
                        "core",
                        "docs-site",
                        "eslint-plugin",
                        "parser",
                        "deps",
                        "release",
                    ]))),
                ),
                (
                    RuleName::HeaderMaxLength,
                    Some(Rule::always(Value::Length(120))),
                ),
                (RuleName::BodyMaxLineLength, None),
                (RuleName::FooterMaxLineLength, None),
                (
                    RuleName::SubjectCase,
                    Some(Rule::never(cases(&[
                        Case::Start,
                        Case::Pascal,
                        Case::Upper,
                    ]))),
                ),
            ],
        )
    };
    assert_eq!(rules, expected);

    expect(
        &rules,
        "feat(parser): support optional chaining in member access\n\nThe parser now reads `a?.b` as one member expression.",
        &[],
    );
    // Several scopes at once, a sentence-case subject (the file allows it) and a body line
    // longer than the preset's 100 (the file turned that rule off).
    let long_line = "x".repeat(130);
    expect(
        &rules,
        &format!("fix(docs-site, cli): Fix the broken links\n\n{long_line}"),
        &[],
    );
    expect(
        &rules,
        "Feat(ui): Add The Button",
        &["scope-enum!", "subject-case!", "type-case!", "type-enum!"],
    );
    let long_header = format!("feat(core): {}", "a".repeat(110));
    expect(
        &rules,
        &format!("{long_header}\nNo blank line above."),
        &["body-leading-blank", "header-max-length!"],
    );
    expect(&rules, "Merge branch 'main' into feature/x", &[]);
}

#[test]
fn a_commitlintrc_json_with_its_own_types() {
    let rules = fixture("json-rc");
    let expected = with(
        conventional(".commitlintrc.json"),
        vec![
            (
                RuleName::TypeEnum,
                Some(Rule::always(names(&[
                    "feat", "fix", "docs", "refactor", "test", "build", "ci", "chore", "deps",
                    "revert",
                ]))),
            ),
            (
                RuleName::ScopeEmpty,
                Some(Rule::never(Value::None).warning()),
            ),
            (
                RuleName::SubjectCase,
                Some(Rule::always(cases(&[Case::Lower]))),
            ),
            (RuleName::BodyLeadingBlank, Some(Rule::always(Value::None))),
            (
                RuleName::HeaderMaxLength,
                Some(Rule::always(Value::Length(72))),
            ),
        ],
    );
    assert_eq!(rules, expected);

    expect(
        &rules,
        "deps(parser): bump serde to 1.0.200\n\nNeeded for the new derive.",
        &[],
    );
    expect(
        &rules,
        "feat: Add a thing",
        &["scope-empty", "subject-case!"],
    );
    expect(&rules, "docs: fix typo", &["scope-empty"]);
    expect(
        &rules,
        "style(ui): reformat\nbody right below",
        &["body-leading-blank!", "type-enum!"],
    );
}

#[test]
fn a_commitlintrc_yml_extending_the_angular_preset() {
    let rules = fixture("yaml-rc");
    let expected = CommitRules {
        default_ignores: true,
        extends: strings(&["@commitlint/config-angular"]),
        parser: ParserOptions {
            header_pattern: Some(JsPattern::new(r"^(\w*)(?:\((.*)\))?!?: (.*)$")),
            ..ParserOptions::default()
        },
        ..with(
            CommitRules::empty(".commitlintrc.yml"),
            vec![
                (
                    RuleName::ReferencesEmpty,
                    Some(Rule::new(Level::Warning, When::Never, Value::None)),
                ),
                (
                    RuleName::SubjectExclamationMark,
                    Some(Rule::never(Value::None)),
                ),
                (
                    RuleName::TypeEnum,
                    Some(Rule::always(names(&[
                        "build", "ci", "docs", "feat", "fix", "perf", "refactor", "revert",
                        "style", "test",
                    ]))),
                ),
                (
                    RuleName::TypeCase,
                    Some(Rule::always(cases(&[Case::Lower]))),
                ),
                (RuleName::TypeEmpty, Some(Rule::never(Value::None))),
                (
                    RuleName::ScopeEnum,
                    Some(Rule::always(names(&[
                        "compiler", "router", "forms", "http", "common",
                    ]))),
                ),
                (
                    RuleName::ScopeCase,
                    Some(Rule::always(cases(&[Case::Lower]))),
                ),
                (RuleName::SubjectCase, Some(not_capitalised())),
                (RuleName::SubjectEmpty, Some(Rule::never(Value::None))),
                (
                    RuleName::SubjectFullStop,
                    Some(Rule::never(Value::Text(".".into()))),
                ),
                (
                    RuleName::HeaderMaxLength,
                    Some(Rule::new(Level::Warning, When::Always, Value::Length(80))),
                ),
                (
                    RuleName::BodyLeadingBlank,
                    Some(Rule::always(Value::None).warning()),
                ),
                (
                    RuleName::BodyMaxLineLength,
                    Some(Rule::always(Value::Length(100))),
                ),
                (
                    RuleName::FooterLeadingBlank,
                    Some(Rule::always(Value::None).warning()),
                ),
            ],
        )
    };
    assert_eq!(rules, expected);

    expect(
        &rules,
        "fix(router): keep the query string on redirects\n\nCloses #12",
        &[],
    );
    // The file warns when no issue is referenced (references-empty).
    expect(
        &rules,
        "chore(router): update deps",
        &["references-empty", "type-enum!"],
    );
    expect(
        &rules,
        "feat(Forms): add a validator.",
        &[
            "references-empty",
            "scope-case!",
            "scope-enum!",
            "subject-full-stop!",
        ],
    );
    let header = format!("feat(http): {}", "retry ".repeat(12).trim_end());
    assert_eq!(header.chars().count(), 83);
    expect(&rules, &header, &["header-max-length", "references-empty"]);
}

#[test]
fn the_commitlint_key_of_package_json() {
    let rules = fixture("package-json");
    let expected = with(
        conventional("package.json"),
        vec![
            (
                RuleName::TypeEnum,
                Some(Rule::always(names(&[
                    "feat", "fix", "perf", "docs", "chore",
                ]))),
            ),
            (RuleName::FooterMaxLineLength, None),
            (
                RuleName::HeaderMinLength,
                Some(Rule::always(Value::Length(12))),
            ),
        ],
    );
    assert_eq!(rules, expected);

    expect(&rules, "perf: cache the layout pass\n\nCloses #41", &[]);
    expect(&rules, "fix: typo", &["header-min-length!"]);
    expect(
        &rules,
        "feat: add the export\n\nWhy it matters.\nCloses #12",
        &["footer-leading-blank"],
    );
    expect(&rules, "refactor: split the widget tree", &["type-enum!"]);
}

#[test]
fn a_typescript_config_exporting_a_user_config_constant() {
    let rules = fixture("typescript");
    let expected = with(
        conventional("commitlint.config.ts"),
        vec![
            (
                RuleName::TypeEnum,
                Some(Rule::always(names(&[
                    "feat", "fix", "docs", "style", "refactor", "perf", "test", "chore", "ci",
                    "build", "revert", "wip",
                ]))),
            ),
            (
                RuleName::BodyMaxLineLength,
                Some(Rule::always(Value::Length(88)).warning()),
            ),
            (
                RuleName::HeaderMaxLength,
                Some(Rule::always(Value::Length(88))),
            ),
            (RuleName::SubjectCase, None),
            (
                RuleName::ScopeCase,
                Some(Rule::always(cases(&[Case::Kebab]))),
            ),
        ],
    );
    assert_eq!(rules, expected);

    expect(&rules, "wip(data-grid): Sketch the virtual scroller", &[]);
    expect(&rules, "feat(dataGrid): add sorting", &["scope-case!"]);
    // Several scopes are each in kebab case.
    expect(&rules, "fix(data-grid, date-picker): keep the focus", &[]);
    expect(
        &rules,
        "fix(data-grid/datePicker): keep the focus",
        &["scope-case!"],
    );
    let body = format!("fix: clamp the scroll offset\n\n{}", "word ".repeat(19));
    expect(&rules, &body, &["body-max-line-length"]);
}

#[test]
fn an_extensionless_commitlintrc_in_yaml_without_default_ignores() {
    let rules = fixture("rc-plain");
    let expected = CommitRules {
        default_ignores: false,
        ..with(
            conventional(".commitlintrc"),
            vec![(
                RuleName::SubjectFullStop,
                Some(Rule::always(Value::Text(".".into()))),
            )],
        )
    };
    assert_eq!(rules, expected);

    expect(&rules, "docs: explain the cache.", &[]);
    expect(&rules, "docs: explain the cache", &["subject-full-stop!"]);
    // With the default ignores off, a merge commit is checked like any other.
    expect(
        &rules,
        "Merge branch 'main' into x",
        &["subject-empty!", "subject-full-stop!", "type-empty!"],
    );
}

#[test]
fn commitizen_in_pyproject_toml() {
    let rules = fixture("pyproject");
    let mut types = strings(&CONVENTIONAL);
    types.push("bump".into());
    let expected = CommitRules {
        extends: strings(&["cz_conventional_commits"]),
        parser: ParserOptions::conventional_commits(),
        ..with(
            CommitRules::empty("pyproject.toml"),
            vec![
                (RuleName::TypeEnum, Some(Rule::always(names_of(types)))),
                (RuleName::TypeEmpty, Some(Rule::never(Value::None))),
                (RuleName::SubjectEmpty, Some(Rule::never(Value::None))),
                (RuleName::BodyLeadingBlank, Some(Rule::always(Value::None))),
                (
                    RuleName::HeaderMaxLength,
                    Some(Rule::always(Value::Length(72))),
                ),
            ],
        )
    };
    assert_eq!(rules, expected);

    expect(&rules, "bump: version 0.9.1 → 0.9.2", &[]);
    expect(&rules, "feature: add radar maps", &["type-enum!"]);
    expect(
        &rules,
        "fix: handle a missing station\nThe body.",
        &["body-leading-blank!"],
    );
    assert_eq!(
        rules.describe(),
        strings(&[
            "The header has the form 'type(scope): subject' with a type",
            "The type is one of: build, chore, ci, docs, feat, fix, perf, refactor, revert, style, test, bump",
            "The subject after the colon is not empty",
            "The header (first line) is at most 72 characters",
            "A blank line separates the header from the body",
        ])
    );
}

#[test]
fn commitizen_customize_in_cz_json() {
    let rules = fixture("cz-json");
    let expected = CommitRules {
        extends: strings(&["cz_customize"]),
        parser: ParserOptions::conventional_commits(),
        notes: strings(&["customize.schema_pattern: only its list of types is checked"]),
        ..with(
            CommitRules::empty("cz.json"),
            vec![
                (
                    RuleName::TypeEnum,
                    Some(Rule::always(names(&[
                        "feature", "bugfix", "hotfix", "docs",
                    ]))),
                ),
                (RuleName::TypeEmpty, Some(Rule::never(Value::None))),
                (RuleName::SubjectEmpty, Some(Rule::never(Value::None))),
                (RuleName::BodyLeadingBlank, Some(Rule::always(Value::None))),
            ],
        )
    };
    assert_eq!(rules, expected);
    expect(&rules, "hotfix: restore the login button", &[]);
    expect(&rules, "feat: x", &["type-enum!"]);
}

#[test]
fn violations_name_the_limit_and_the_allowed_values() {
    let rules = fixture("yaml-rc");
    let messages: Vec<String> = rules
        .check("feat(db): Add a validator for every field of the form, whatever its kind is, okay")
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(
        messages,
        strings(&[
            "⚠ header-max-length: the header is 81 characters, at most 80",
            "⚠ references-empty: the references may not be empty",
            "✖ scope-enum: the scope 'db' is not one of: compiler, router, forms, http, common",
            "✖ subject-case: the subject 'Add a validator for every field of the form, whatever its ki…' may not be sentence-case",
        ])
    );
    assert_eq!(
        rules.describe()[..3],
        strings(&[
            "The type is in lower-case (lower case)",
            "The header has the form 'type(scope): subject' with a type",
            "The type is one of: build, ci, docs, feat, fix, perf, refactor, revert, style, test",
        ])
    );
    assert!(
        rules
            .describe()
            .contains(&"The header (first line) is at most 80 characters (a warning)".to_string()),
        "{:?}",
        rules.describe()
    );
}

// --- Where the rules come from -----------------------------------------------------------

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

const JSON_RULES: &str = r#"{"rules": {"header-max-length": [2, "always", 50]}}"#;

#[test]
fn the_first_configuration_in_commitlints_order_wins() {
    let js = "module.exports = { rules: { 'header-max-length': [2, 'always', 60] } };";
    let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (
            vec![
                ("commitlint.config.js", js),
                ("package.json", r#"{"commitlint": {"rules": {}}}"#),
            ],
            "package.json",
        ),
        // A package.json without the key, or a pyproject.toml without [tool.commitizen],
        // is not a configuration.
        (
            vec![
                ("commitlint.config.js", js),
                ("package.json", r#"{"name": "x"}"#),
            ],
            "commitlint.config.js",
        ),
        (
            vec![
                ("commitlint.config.ts", js),
                (".commitlintrc.json", JSON_RULES),
            ],
            ".commitlintrc.json",
        ),
        (
            vec![("commitlint.config.mjs", js), (".commitlintrc.cjs", js)],
            ".commitlintrc.cjs",
        ),
        (
            vec![
                (
                    "pyproject.toml",
                    "[tool.commitizen]\nname = \"cz_conventional_commits\"\n",
                ),
                (".commitlintrc.yaml", "rules: {}\n"),
            ],
            ".commitlintrc.yaml",
        ),
        (
            vec![
                (
                    "pyproject.toml",
                    "[tool.commitizen]\nmessage_length_limit = 50\n",
                ),
                (
                    ".cz.toml",
                    "[tool.commitizen]\nname = \"cz_conventional_commits\"\n",
                ),
            ],
            ".cz.toml",
        ),
        (
            vec![("pyproject.toml", "[tool.black]\nline-length = 88\n")],
            "",
        ),
    ];
    for (files, source) in cases {
        let dir = dir_with(&files);
        let found = iris_studio_config::project::commit_rules(dir.path()).unwrap();
        assert_eq!(
            found.map(|r| r.source).unwrap_or_default(),
            source,
            "{files:?}"
        );
    }
    assert!(
        CONFIG_FILES.iter().position(|f| *f == "package.json")
            < CONFIG_FILES.iter().position(|f| *f == ".cz.toml")
    );
}

#[test]
fn a_broken_configuration_is_an_error_naming_the_file_and_the_reason() {
    let cases = [
        (".commitlintrc.json", "{\"rules\": {", "not valid JSON"),
        (".commitlintrc.yml", "rules: [1, 2\n", "not valid YAML"),
        (
            "commitlint.config.js",
            "module.exports = {\n  rules: {\n",
            "line 2: the file ends inside an object",
        ),
        (
            "commitlint.config.js",
            "module.exports = require('./base');",
            "a call to require()",
        ),
        (
            "cz.json",
            "{\"name\": \"cz_conventional_commits\"}",
            "it has no \"commitizen\" key",
        ),
        (
            "pyproject.toml",
            "[tool.commitizen\nname = 1",
            "not valid TOML",
        ),
        (
            ".commitlintrc.json",
            "[]",
            "the configuration is a list, not an object",
        ),
    ];
    for (name, text, reason) in cases {
        let dir = dir_with(&[(name, text)]);
        let err: RulesError = iris_studio_config::project::commit_rules(dir.path()).unwrap_err();
        assert_eq!(err.file, name);
        assert!(err.reason.contains(reason), "{name}: {}", err.reason);
    }
}

#[test]
fn a_byte_order_mark_and_either_syntax_in_an_extensionless_rc() {
    let dir = dir_with(&[(
        "package.json",
        "\u{feff}{\"commitlint\": {\"rules\": {\"type-empty\": [2, \"never\"]}}}",
    )]);
    let rules = iris_studio_config::project::commit_rules(dir.path())
        .unwrap()
        .unwrap();
    assert_eq!(
        rules.rule(RuleName::TypeEmpty),
        Some(&Rule::never(Value::None))
    );

    let json = commit_rules::parse(".commitlintrc", JSON_RULES).unwrap();
    assert_eq!(
        json.rule(RuleName::HeaderMaxLength),
        Some(&Rule::always(Value::Length(50)))
    );
    let yaml = commit_rules::parse(
        ".commitlintrc",
        "rules:\n  header-max-length: [2, always, 50]\n",
    )
    .unwrap();
    assert_eq!(yaml, json);
    let err = commit_rules::parse(".commitlintrc", "rules: [1, 2\n").unwrap_err();
    assert!(err.reason.starts_with("not valid YAML"), "{}", err.reason);
    let err = commit_rules::parse(".commitlintrc", "{\"rules\": [1, 2\n").unwrap_err();
    assert!(err.reason.starts_with("not valid JSON"), "{}", err.reason);
}

#[test]
fn input_is_bounded() {
    let big = format!(
        "{{\"rules\": {{}}, \"x\": \"{}\"}}",
        "a".repeat(MAX_INPUT_BYTES)
    );
    let err = commit_rules::parse(".commitlintrc.json", &big).unwrap_err();
    assert!(err.reason.contains("more than"), "{}", err.reason);
    let dir = dir_with(&[(".commitlintrc.json", &big)]);
    assert!(iris_studio_config::project::commit_rules(dir.path()).is_err());

    let rules = commit_rules::parse(".commitlintrc.json", JSON_RULES).unwrap();
    let message = format!("feat: x\n\n{}", "b".repeat(MAX_INPUT_BYTES));
    expect(&rules, &message, &["message-size!"]);
}

#[test]
fn git_comments_are_not_part_of_the_message() {
    let rules = commit_rules::parse(".commitlintrc.json", JSON_RULES).unwrap();
    let message = format!(
        "# Please enter the commit message for your changes.\nfeat: short header\n# {}\n",
        "long comment ".repeat(10)
    );
    expect(&rules, &message, &[]);
}
