//! `iris pr` and the repository's pull request template: the real binary on temporary
//! repositories holding real template files, talking to the fake provider. The template
//! travels in the request with its comments as instructions; the model's filling is kept
//! when it keeps the template's headings and checkboxes, else the template is filled in from
//! the description's fields with a warning.

use crate::common::agent::{approval, failure, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Recorded, Step};
use crate::common::{TestRepo, stderr};
use serde_json::{Value, json};

/// A template much like many projects keep in `.github/pull_request_template.md`.
const GITHUB_TEMPLATE: &str = "\
## Summary
<!-- What does this PR change, and why? Name the issue it closes. -->

## Type of change
- [ ] Bug fix
- [ ] New feature
- [ ] Breaking change

## How has this been tested?
<!--
Describe the tests you ran.
Give the commands, so reviewers can repeat them.
-->

## Checklist
- [ ] I have added tests
- [ ] I have updated the documentation
";

/// The classic template some projects keep at the root, with its prose placeholders.
const CLASSIC_TEMPLATE: &str = "\
# Description

<!-- Please include a summary of the change and which issue is fixed. -->
Please include a summary of the change and which issue is fixed.

Fixes # (issue)

## Type of change

- [ ] Bug fix (non-breaking change which fixes an issue)
- [ ] New feature (non-breaking change which adds functionality)

# How Has This Been Tested?

<!-- Please describe the tests that you ran to verify your changes. -->

# Checklist:

- [ ] My code follows the style guidelines of this project
- [ ] I have made corresponding changes to the documentation
";

/// A repository whose `main` holds `files` and `one()`, and a branch `feature/two` that
/// adds `two()`: the templates are not part of the change.
fn repo_with(files: &[(&str, &str)]) -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    for (path, text) in files {
        repo.write(path, text);
    }
    repo.commit_all("Initial commit");
    repo.git(&["checkout", "-q", "-b", "feature/two"]);
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.commit_all("Add two()\n\nCloses #7");
    repo
}

/// The pull request as the model writes it, with `filled_template`.
fn pr_json(filled: Option<&str>) -> String {
    json!({
        "title": "Add two()",
        "summary": "Adds two() beside one().",
        "description": "Callers wanted a second constant.",
        "changes": ["src/lib.rs: add two()"],
        "testing": ["cargo test"],
        "breaking_changes": [],
        "reviewer_notes": [],
        "related_issues": ["Closes #7"],
        "filled_template": filled,
    })
    .to_string()
}

/// `iris pr` against a model that answers `reply`, then approves it.
fn pr_run(repo: &TestRepo, args: &[&str], reply: String) -> (std::process::Output, FakeProvider) {
    let fake = FakeProvider::start(vec![Step::text(reply), Step::text(approval())]);
    let mut all = vec!["pr"];
    all.extend_from_slice(args);
    let out = run(repo, &all, &openai_env(&fake));
    (out, fake)
}

fn asked(request: &Recorded) -> String {
    request.user_texts().join("\n")
}

fn warnings(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("warning")).collect()
}

/// The schema the provider was asked to keep to (Responses: `text.format.schema`).
fn schema_sent(request: &Recorded) -> Value {
    request
        .body
        .pointer("/text/format/schema")
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn the_model_fills_the_template_and_its_filling_is_printed_without_comments() {
    let repo = repo_with(&[(".github/pull_request_template.md", GITHUB_TEMPLATE)]);
    let filled = "\
## Summary
<!-- What does this PR change, and why? Name the issue it closes. -->
Adds `two()` beside `one()`. Closes #7. <!-- a note to myself -->

## Type of change
- [ ] Bug fix
- [x] New feature
- [ ] Breaking change

## How has this been tested?
- `cargo test`: a new unit test covers `two()`.

## Checklist
- [x] I have added tests
- [ ] I have updated the documentation
";
    let (out, fake) = pr_run(&repo, &["--from", "main"], pr_json(Some(filled)));
    let printed = success(&out);
    assert_eq!(
        printed,
        "# Add two()\n\n## Summary\nAdds `two()` beside `one()`. Closes #7.\n\n\
         ## Type of change\n- [ ] Bug fix\n- [x] New feature\n- [ ] Breaking change\n\n\
         ## How has this been tested?\n- `cargo test`: a new unit test covers `two()`.\n\n\
         ## Checklist\n- [x] I have added tests\n- [ ] I have updated the documentation\n"
    );
    assert!(warnings(&stderr(&out)).is_empty(), "{}", stderr(&out));

    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "the draft and the critic");
    let first = asked(&requests[0]);
    let section = "## This repository's pull request template (.github/pull_request_template.md)";
    for instruction in [
        section,
        "<!-- What does this PR change, and why? Name the issue it closes. -->",
        "Describe the tests you ran.\nGive the commands, so reviewers can repeat them.",
        "- [ ] I have updated the documentation",
        "are the project's instructions",
    ] {
        assert!(first.contains(instruction), "{instruction:?} in {first}");
    }
    let section_at = first.find(section).unwrap_or(usize::MAX);
    let evidence_at = first
        .find("## Evidence gathered up front")
        .unwrap_or_default();
    assert!(section_at < evidence_at, "{first}");
    assert!(
        schema_sent(&requests[0])
            .pointer("/properties/filled_template")
            .is_some(),
        "{}",
        schema_sent(&requests[0])
    );
}

#[test]
fn a_model_that_ignores_the_template_gets_it_filled_from_its_fields_with_a_warning() {
    let repo = repo_with(&[("PULL_REQUEST_TEMPLATE.md", CLASSIC_TEMPLATE)]);
    let (out, fake) = pr_run(&repo, &["--from", "main"], pr_json(None));
    let printed = success(&out);
    assert_eq!(
        printed,
        "# Add two()\n\n# Description\n\nAdds two() beside one().\n\nCallers wanted a second \
         constant.\n\n## Type of change\n\n- [ ] Bug fix (non-breaking change which fixes an \
         issue)\n- [ ] New feature (non-breaking change which adds functionality)\n\n\
         # How Has This Been Tested?\n\n- cargo test\n\n# Checklist:\n\n- [ ] My code follows \
         the style guidelines of this project\n- [ ] I have made corresponding changes to the \
         documentation\n\n# Changes\n\n- src/lib.rs: add two()\n\n# Related issues\n\n\
         - Closes #7\n"
    );
    let err = stderr(&out);
    assert_eq!(
        warnings(&err),
        vec![
            "warning: the model did not fill it in: PULL_REQUEST_TEMPLATE.md was filled in \
             from the description's fields"
        ],
        "{err}"
    );
    assert!(
        asked(&fake.requests()[0])
            .contains("## This repository's pull request template (PULL_REQUEST_TEMPLATE.md)")
    );

    // A filling that drops a section and a box is not used either, and the warning says
    // what it lost.
    let partial = "# Description\nAdds two().\n\n## Type of change\n- [x] New feature (non-breaking \
                   change which adds functionality)\n\n# How Has This Been Tested?\ncargo test\n";
    let (out, _) = pr_run(&repo, &["--from", "main"], pr_json(Some(partial)));
    assert_eq!(success(&out), printed);
    let err = stderr(&out);
    assert_eq!(
        warnings(&err),
        vec![
            "warning: the model's version lacks the heading `# Checklist:` and the checkboxes \
             `- [ ] Bug fix (non-breaking change which fixes an issue)`, `- [ ] My code follows \
             the style guidelines of this project`, `- [ ] I have made corresponding changes to \
             the documentation`: PULL_REQUEST_TEMPLATE.md was filled in from the description's \
             fields"
        ],
        "{err}"
    );
}

const BUG_TEMPLATE: &str = "## Bug\n<!-- Which bug does this fix? -->\n\n## Root cause\n\n\
                            ## Regression test\n- [ ] Added\n";
const FEATURE_TEMPLATE: &str = "## Feature\n<!-- What can users do now? -->\n\n## Testing\n\n\
                                ## Docs\n- [ ] Updated the user guide\n";

#[test]
fn template_picks_one_of_several_by_name_and_an_unknown_name_lists_them() {
    let repo = repo_with(&[
        (".github/PULL_REQUEST_TEMPLATE/bug.md", BUG_TEMPLATE),
        (".github/PULL_REQUEST_TEMPLATE/feature.md", FEATURE_TEMPLATE),
    ]);
    let filled = "## Feature\nCallers can ask for two().\n\n## Testing\n- cargo test\n\n## Docs\n\
                  - [ ] Updated the user guide\n";
    let (out, fake) = pr_run(
        &repo,
        &["--from", "main", "--template", "feature"],
        pr_json(Some(filled)),
    );
    assert_eq!(success(&out), format!("# Add two()\n\n{filled}"));
    assert!(warnings(&stderr(&out)).is_empty(), "{}", stderr(&out));
    let first = asked(&fake.requests()[0]);
    assert!(
        first.contains("(.github/PULL_REQUEST_TEMPLATE/feature.md)")
            && first.contains("<!-- What can users do now? -->"),
        "{first}"
    );
    assert!(!first.contains("Which bug does this fix?"), "{first}");

    // Without a name, none: GitHub uses a directory's templates only when one is named.
    // The description is written as without a template, and a warning lists the names.
    let (out, fake) = pr_run(&repo, &["--from", "main"], pr_json(Some(filled)));
    let printed = success(&out);
    assert!(
        printed.starts_with("# Add two()\n\n## Summary\n"),
        "{printed}"
    );
    let err = stderr(&out);
    assert_eq!(warnings(&err).len(), 1, "{err}");
    assert!(
        err.contains("several pull request templates and no default (bug"),
        "{err}"
    );
    assert!(
        !asked(&fake.requests()[0]).contains("pull request template ("),
        "no template is sent"
    );

    let fake = FakeProvider::start(vec![Step::text(pr_json(None))]);
    let out = run(
        &repo,
        &["pr", "--from", "main", "--template", "docs"],
        &openai_env(&fake),
    );
    let error = failure(&out, 2);
    assert_eq!(
        error,
        "error: no pull request template named `docs`; the repository's templates: bug \
         (.github/PULL_REQUEST_TEMPLATE/bug.md), feature \
         (.github/PULL_REQUEST_TEMPLATE/feature.md)"
    );
    assert_eq!(fake.requests().len(), 0, "nothing is asked of the model");
}

#[test]
fn without_a_template_the_description_is_as_before_whatever_the_model_sends() {
    let repo = repo_with(&[("docs/CONTRIBUTING.md", "# Contributing\n\nOpen a PR.\n")]);
    let (out, fake) = pr_run(
        &repo,
        &["--from", "main"],
        pr_json(Some("## Made up\n- [ ] box\n")),
    );
    assert_eq!(
        success(&out),
        "# Add two()\n\n## Summary\n\nAdds two() beside one().\n\n## Details\n\nCallers wanted \
         a second constant.\n\n## Changes\n\n- src/lib.rs: add two()\n\n## Testing\n\n- cargo \
         test\n\n## Related issues\n\n- Closes #7\n"
    );
    assert!(warnings(&stderr(&out)).is_empty(), "{}", stderr(&out));
    let requests = fake.requests();
    let first = asked(&requests[0]);
    assert!(!first.contains("pull request template"), "{first}");
    assert!(
        first.starts_with("Write the pull request description for the changes from main")
            && first.contains("FROM=main TO=HEAD: the commits are git_log with from=main, to=HEAD; the changes are git_diff with from=main, to=HEAD.\n\n## Evidence gathered up front"),
        "{first}"
    );
    // The model is offered the field, and what it puts there without a template is dropped.
    assert!(
        schema_sent(&requests[0])
            .pointer("/properties/filled_template")
            .is_some()
    );
    let (out, _) = pr_run(
        &repo,
        &["--from", "main", "--json"],
        pr_json(Some("## Made up\n")),
    );
    let json: Value = serde_json::from_str(&success(&out)).expect("JSON");
    assert_eq!(json.get("filled_template"), None, "{json}");
    assert_eq!(json["title"], "Add two()");
}
