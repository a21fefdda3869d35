//! The repository's commit rules: a corpus of commitlint and commitizen configurations in
//! their real formats (tests/fixtures/commit_rules/), each found where `iris` looks, parsed to
//! the exact rules and checked with messages that pass and fail them; and the lookup order.
//! (`iris gen --check` end to end is the binary's `tests/gen_check.rs`.)

use std::path::{Path, PathBuf};

use iris_core::commit_rules::{
    self, CONFIG_FILES, Case, CommitRules, Level, MAX_INPUT_BYTES, Rule, RulesError, When,
};

fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/commit_rules")
        .join(name)
}

/// The rules of a fixture, read the way `iris` finds them; the same as parsing the file.
fn fixture(name: &str) -> CommitRules {
    let dir = fixture_dir(name);
    let rules = iris_config::project::commit_rules(&dir)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .unwrap_or_else(|| panic!("{name}: no configuration found"));
    let text = std::fs::read_to_string(dir.join(&rules.source)).unwrap();
    assert_eq!(commit_rules::parse(&rules.source, &text), Ok(rules.clone()));
    rules
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

const CONVENTIONAL: [&str; 11] = [
    "build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
];

/// `@commitlint/config-conventional`'s rules (those Iris checks), from `source`.
fn conventional(source: &str) -> CommitRules {
    CommitRules {
        type_enum: Some(Rule::always(strings(&CONVENTIONAL))),
        type_case: Some(Rule::always(vec![Case::Lower])),
        type_empty: Some(Rule::never(())),
        subject_case: Some(Rule::never(vec![
            Case::Sentence,
            Case::Start,
            Case::Pascal,
            Case::Upper,
        ])),
        subject_empty: Some(Rule::never(())),
        subject_full_stop: Some(Rule::never(".".to_string())),
        header_max_length: Some(Rule::always(100)),
        body_leading_blank: Some(Rule::always(()).warning()),
        body_max_line_length: Some(Rule::always(100)),
        footer_leading_blank: Some(Rule::always(()).warning()),
        footer_max_line_length: Some(Rule::always(100)),
        default_ignores: true,
        extends: strings(&["@commitlint/config-conventional"]),
        ..CommitRules::empty(source)
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
        scope_enum: Some(Rule::always(strings(&[
            "cli",
            "core",
            "docs-site",
            "eslint-plugin",
            "parser",
            "deps",
            "release",
        ]))),
        header_max_length: Some(Rule::always(120)),
        body_max_line_length: None,
        footer_max_line_length: None,
        subject_case: Some(Rule::never(vec![Case::Start, Case::Pascal, Case::Upper])),
        notes: strings(&[
            "ignores: its functions are not run (only the default ignores apply)",
            "scope-empty: its setting is a function (line 35); not checked",
        ]),
        ..conventional("commitlint.config.js")
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
    let expected = CommitRules {
        type_enum: Some(Rule::always(strings(&[
            "feat", "fix", "docs", "refactor", "test", "build", "ci", "chore", "deps", "revert",
        ]))),
        scope_empty: Some(Rule::never(()).warning()),
        subject_case: Some(Rule::always(vec![Case::Lower])),
        body_leading_blank: Some(Rule::always(())),
        header_max_length: Some(Rule::always(72)),
        ..conventional(".commitlintrc.json")
    };
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
        type_enum: Some(Rule::always(strings(&[
            "build", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
        ]))),
        type_case: Some(Rule::always(vec![Case::Lower])),
        type_empty: Some(Rule::never(())),
        scope_enum: Some(Rule::always(strings(&[
            "compiler", "router", "forms", "http", "common",
        ]))),
        scope_case: Some(Rule::always(vec![Case::Lower])),
        subject_case: Some(Rule::never(vec![
            Case::Sentence,
            Case::Start,
            Case::Pascal,
            Case::Upper,
        ])),
        subject_empty: Some(Rule::never(())),
        subject_full_stop: Some(Rule::never(".".to_string())),
        header_max_length: Some(Rule::new(Level::Warning, When::Always, 80)),
        body_leading_blank: Some(Rule::always(()).warning()),
        body_max_line_length: Some(Rule::always(100)),
        footer_leading_blank: Some(Rule::always(()).warning()),
        default_ignores: true,
        extends: strings(&["@commitlint/config-angular"]),
        notes: strings(&["rules Iris does not check: references-empty"]),
        ..CommitRules::empty(".commitlintrc.yml")
    };
    assert_eq!(rules, expected);

    expect(
        &rules,
        "fix(router): keep the query string on redirects",
        &[],
    );
    expect(&rules, "chore(router): update deps", &["type-enum!"]);
    expect(
        &rules,
        "feat(Forms): add a validator.",
        &["scope-case!", "scope-enum!", "subject-full-stop!"],
    );
    let header = format!("feat(http): {}", "retry ".repeat(12).trim_end());
    assert_eq!(header.chars().count(), 83);
    expect(&rules, &header, &["header-max-length"]);
}

#[test]
fn the_commitlint_key_of_package_json() {
    let rules = fixture("package-json");
    let expected = CommitRules {
        type_enum: Some(Rule::always(strings(&[
            "feat", "fix", "perf", "docs", "chore",
        ]))),
        footer_max_line_length: None,
        header_min_length: Some(Rule::always(12)),
        ..conventional("package.json")
    };
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
    let expected = CommitRules {
        type_enum: Some(Rule::always(strings(&[
            "feat", "fix", "docs", "style", "refactor", "perf", "test", "chore", "ci", "build",
            "revert", "wip",
        ]))),
        body_max_line_length: Some(Rule::always(88).warning()),
        header_max_length: Some(Rule::always(88)),
        subject_case: None,
        scope_case: Some(Rule::always(vec![Case::Kebab])),
        ..conventional("commitlint.config.ts")
    };
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
        subject_full_stop: Some(Rule::always(".".to_string())),
        default_ignores: false,
        ..conventional(".commitlintrc")
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
        type_enum: Some(Rule::always(types)),
        type_empty: Some(Rule::never(())),
        subject_empty: Some(Rule::never(())),
        body_leading_blank: Some(Rule::always(())),
        header_max_length: Some(Rule::always(72)),
        extends: strings(&["cz_conventional_commits"]),
        ..CommitRules::empty("pyproject.toml")
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
        type_enum: Some(Rule::always(strings(&[
            "feature", "bugfix", "hotfix", "docs",
        ]))),
        type_empty: Some(Rule::never(())),
        subject_empty: Some(Rule::never(())),
        body_leading_blank: Some(Rule::always(())),
        extends: strings(&["cz_customize"]),
        notes: strings(&["customize.schema_pattern: only its list of types is checked"]),
        ..CommitRules::empty("cz.json")
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
            "✖ scope-enum: the scope 'db' is not one of: compiler, router, forms, http, common",
            "✖ subject-case: the subject 'Add a validator for every field of the form, whatever its ki…' may not be sentence-case, start-case, pascal-case, upper-case",
        ])
    );
    assert_eq!(
        rules.describe()[..3],
        strings(&[
            "The header has the form 'type(scope): subject' with a type",
            "The type is one of: build, ci, docs, feat, fix, perf, refactor, revert, style, test",
            "The type is in lower-case (lower case)",
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
        let found = iris_config::project::commit_rules(dir.path()).unwrap();
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
        let err: RulesError = iris_config::project::commit_rules(dir.path()).unwrap_err();
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
    let rules = iris_config::project::commit_rules(dir.path())
        .unwrap()
        .unwrap();
    assert_eq!(rules.type_empty, Some(Rule::never(())));

    let json = commit_rules::parse(".commitlintrc", JSON_RULES).unwrap();
    assert_eq!(json.header_max_length, Some(Rule::always(50)));
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
    assert!(iris_config::project::commit_rules(dir.path()).is_err());

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
