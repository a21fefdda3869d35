//! A commit message against the repository's commit rules, said the same way by `iris gen
//! --check` and the MCP server's `check_commit_message`.

use iris_studio_core::commit_rules::{self, CommitRules, Violation};

/// Said when the repository has no configuration: exit 0, since there is nothing to break.
pub const NO_RULES: &str =
    "no commitlint or commitizen configuration in this repository: nothing to check";

/// The violations one a line, then a summary line; true when an error is among them.
pub fn report(rules: &CommitRules, violations: &[Violation]) -> (String, bool) {
    let mut out = String::new();
    for v in violations {
        out.push_str(&format!("{v}\n"));
    }
    let errors = commit_rules::error_count(violations);
    let warnings = violations.len() - errors;
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    if violations.is_empty() {
        out.push_str(&format!(
            "✔ the message follows the rules of {}\n",
            rules.source
        ));
    } else if errors == 0 {
        out.push_str(&format!(
            "⚠ {} (rules of {}); the message passes\n",
            plural(warnings, "warning"),
            rules.source
        ));
    } else {
        out.push_str(&format!(
            "✖ {}, {} (rules of {})\n",
            plural(errors, "error"),
            plural(warnings, "warning"),
            rules.source
        ));
    }
    (out, errors > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(rule: &str, error: bool) -> Violation {
        Violation {
            rule: rule.into(),
            message: "why".into(),
            error,
        }
    }

    #[test]
    fn errors_fail_and_warnings_pass() {
        let rules = CommitRules::empty(".commitlintrc.json");
        let (text, failed) = report(
            &rules,
            &[
                violation("type-enum", true),
                violation("body-leading-blank", false),
            ],
        );
        assert!(failed);
        assert_eq!(
            text,
            "✖ type-enum: why\n⚠ body-leading-blank: why\n✖ 1 error, 1 warning (rules of .commitlintrc.json)\n"
        );
        let (text, failed) = report(&rules, &[violation("body-leading-blank", false)]);
        assert!(!failed);
        assert!(text.ends_with("⚠ 1 warning (rules of .commitlintrc.json); the message passes\n"));
        let (text, failed) = report(&rules, &[]);
        assert!(!failed);
        assert_eq!(
            text,
            "✔ the message follows the rules of .commitlintrc.json\n"
        );
    }
}
