//! The repository's pull request template, filled in. Its headings and checkbox lines are the structure a filled
//! body keeps; its HTML comments are instructions to the writer, never part of the result.
//!
//! Everything here is pure: `iris_studio_config::project::pr_template` finds and reads the file.
//! [`complete`] settles what a pull request's body is: the model's filling of the template
//! when it kept the structure, else the deterministic [`fill`] of the template from the
//! pull request's fields.

mod check;
mod fill;
mod markdown;

use std::fmt;

use thiserror::Error;

pub use check::{Gaps, Outline, check, outline, unfilled};
pub use fill::fill;
pub use markdown::{split_comments, strip_comments};

use crate::artifact::PullRequest;

/// A pull request template as read: where it came from (from the repository root) and its
/// text (`\n` line endings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The file, relative to the repository root (`.github/pull_request_template.md`).
    pub source: String,
    /// Its content, with `\n` line endings.
    pub text: String,
}

/// Why a template is not used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TemplateError {
    /// `--template NAME` names no template of the repository.
    #[error("no pull request template named `{name}`{}", known_list(.known))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The repository's templates, each as `name (path)`.
        known: Vec<String>,
    },
    /// Several templates of a directory and none of them the default: GitHub uses them only
    /// when one is named.
    #[error(
        "the repository has several pull request templates and no default ({}): `iris pr \
         --template NAME` picks one",
        .known.join(", ")
    )]
    NoDefault {
        /// The templates to pick from, each as `name (path)`.
        known: Vec<String>,
    },
    /// The template cannot be read or is refused.
    #[error("{path}: {why}")]
    Unreadable {
        /// The template file, relative to the repository root.
        path: String,
        /// What went wrong, in words.
        why: String,
    },
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        ": the repository has none (looked in .github/, the root, docs/ and \
         .gitlab/merge_request_templates/)"
            .to_string()
    } else {
        format!("; the repository's templates: {}", known.join(", "))
    }
}

/// Why the model's filling of a template was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refill {
    /// It gave none.
    Missing,
    /// It gave the template back as it was.
    Unchanged,
    /// It lost some of the template's structure.
    Gaps(Gaps),
}

impl fmt::Display for Refill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refill::Missing => f.write_str("the model did not fill it in"),
            Refill::Unchanged => f.write_str("the model gave it back unfilled"),
            Refill::Gaps(gaps) => write!(f, "the model's version lacks {gaps}"),
        }
    }
}

/// The body of `pr` in `template`, comments removed: the model's filling
/// (`pr.filled_template`, a repeated title line dropped) when it keeps every heading and
/// checkbox of the template, else [`fill`] with the reason.
pub fn complete(template: &str, pr: &PullRequest) -> (String, Option<Refill>) {
    let given = pr
        .filled_template
        .as_deref()
        .map(unfenced)
        .map(strip_comments)
        .map(|body| without_title(&body, &pr.title).to_string())
        .filter(|body| !body.trim().is_empty());
    let why = match given {
        None => Refill::Missing,
        Some(body) if unfilled(template, &body) => Refill::Unchanged,
        Some(body) => {
            let gaps = check(template, &body);
            if gaps.is_empty() {
                return (format!("{}\n", body.trim()), None);
            }
            Refill::Gaps(gaps)
        }
    };
    (fill(template, pr), Some(why))
}

/// `body` without a fence around the whole of it (```` ```markdown ```` ... ```` ``` ````,
/// of any length): a model shown the template in a fence may answer in one.
fn unfenced(body: &str) -> &str {
    let trimmed = body.trim();
    let Some((first, rest)) = trimmed.split_once('\n') else {
        return body;
    };
    let Some((inner, last)) = rest.rsplit_once('\n') else {
        return body;
    };
    let run = first.chars().take_while(|&c| c == '`').count();
    let info = first[run..].trim().to_ascii_lowercase();
    let closes = last.trim().chars().all(|c| c == '`') && last.trim().len() == run;
    if run >= 3 && closes && matches!(info.as_str(), "" | "markdown" | "md") {
        inner
    } else {
        body
    }
}

/// `body` without a first line that is the title again as a level-1 heading.
fn without_title<'a>(body: &'a str, title: &str) -> &'a str {
    let trimmed = body.trim_start();
    let (first, rest) = trimmed.split_once('\n').unwrap_or((trimmed, ""));
    match markdown::heading(first) {
        Some((1, text)) if markdown::key(text) == markdown::key(title) => rest,
        _ => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "## Summary\n<!-- Two sentences. -->\n\n## Checklist\n- [ ] Tests\n";

    fn pr(filled: Option<&str>) -> PullRequest {
        PullRequest {
            title: "Add two()".into(),
            summary: "Adds two().".into(),
            filled_template: filled.map(str::to_string),
            ..PullRequest::default()
        }
    }

    #[test]
    fn an_unknown_name_is_said_with_the_templates_there_are() {
        let unknown = |known: &[&str]| {
            TemplateError::Unknown {
                name: "bug".into(),
                known: known.iter().map(|k| k.to_string()).collect(),
            }
            .to_string()
        };
        assert_eq!(
            unknown(&[
                "feature (.github/PULL_REQUEST_TEMPLATE/feature.md)",
                "fix (x.md)"
            ]),
            "no pull request template named `bug`; the repository's templates: \
             feature (.github/PULL_REQUEST_TEMPLATE/feature.md), fix (x.md)"
        );
        let none = unknown(&[]);
        assert!(
            none.starts_with("no pull request template named `bug`: the repository has none"),
            "{none}"
        );
    }

    #[test]
    fn a_filling_in_a_fence_is_taken_out_of_it() {
        let given = "````markdown\n## Summary\nAdds two().\n\n```sh\ncargo test\n```\n\n\
                     ## Checklist\n- [x] Tests\n````\n";
        let (body, why) = complete(TEMPLATE, &pr(Some(given)));
        assert_eq!(why, None, "{body}");
        assert!(body.starts_with("## Summary\nAdds two()."), "{body}");
        assert!(body.contains("```sh\ncargo test\n```"), "{body}");
        assert_eq!(
            unfenced("```rust\nfn x() {}\n```"),
            "```rust\nfn x() {}\n```"
        );
        // A fence is closed only by a line of as many backticks, and nothing else.
        assert_eq!(unfenced("```md\nX\n````"), "```md\nX\n````");
        assert_eq!(unfenced("```md\nX\n`y`"), "```md\nX\n`y`");
        assert_eq!(unfenced("```md\nX\n```"), "X");
    }

    #[test]
    fn a_filling_that_keeps_the_structure_is_used_without_its_comments_or_title() {
        let given = "# Add two()\n\n## Summary\n<!-- Two sentences. -->\nAdds two(), tested.\n\n\
                     ## Checklist\n- [x] Tests\n";
        let (body, why) = complete(TEMPLATE, &pr(Some(given)));
        assert_eq!(why, None);
        assert_eq!(
            body,
            "## Summary\nAdds two(), tested.\n\n## Checklist\n- [x] Tests\n"
        );
        // Another first heading stays.
        let (body, _) = complete(
            TEMPLATE,
            &pr(Some("# Other\n## Summary\nX\n## Checklist\n- [ ] Tests")),
        );
        assert!(body.starts_with("# Other\n"), "{body}");
    }

    #[test]
    fn a_missing_unchanged_or_broken_filling_is_replaced_by_the_fill() {
        let filled = "## Summary\n\nAdds two().\n\n## Checklist\n\n- [ ] Tests\n";
        for (given, want) in [
            (None, Refill::Missing),
            (Some("<!-- only a comment -->"), Refill::Missing),
            (Some(TEMPLATE), Refill::Unchanged),
            (
                Some("## Summary\nAdds two().\n"),
                Refill::Gaps(Gaps {
                    headings: vec!["## Checklist".into()],
                    checkboxes: vec!["- [ ] Tests".into()],
                }),
            ),
        ] {
            let (body, why) = complete(TEMPLATE, &pr(given));
            assert_eq!(body, filled, "{given:?}");
            assert_eq!(why, Some(want), "{given:?}");
        }
        assert_eq!(
            Refill::Gaps(Gaps {
                headings: vec!["## Checklist".into()],
                checkboxes: vec![],
            })
            .to_string(),
            "the model's version lacks the heading `## Checklist`"
        );
    }
}
