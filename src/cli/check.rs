//! `iris gen --check`: a commit message checked against the repository's commitlint or
//! commitizen rules, for CI and hooks. No model, no provider, no agent.
//!
//! The message is stdin's when stdin is not a terminal and holds one (an empty stdin, as CI
//! gives, counts as none), else the commit `--rev` names (default HEAD). Exit 0 when it
//! follows the rules (warnings are printed but pass) or when the repository has no rules,
//! 1 on an error-level violation, 2 when the configuration cannot be read.

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::exit::UsageError;
use iris_core::commit_rules::{self, CommitRules, MAX_INPUT_BYTES, Violation};

/// Said when the repository has no configuration: exit 0, since there is nothing to break.
pub const NO_RULES: &str =
    "no commitlint or commitizen configuration in this repository: nothing to check";

pub fn run(rev: Option<&str>) -> Result<ExitCode> {
    let repo = super::current_repo()?;
    if let Some(rev) = rev {
        UsageError::unless_revisions(&repo, &[rev])?;
    }
    let Some(rules) = iris_config::project::commit_rules(&repo.root())? else {
        eprintln!("{NO_RULES}");
        return Ok(ExitCode::SUCCESS);
    };
    for note in &rules.notes {
        eprintln!("note: {}: {note}", rules.source);
    }
    let piped = match rev {
        Some(_) => None,
        None => read_stdin()?,
    };
    let message = match piped {
        Some(message) => {
            eprintln!("checking the message on stdin against {}", rules.source);
            message
        }
        None => {
            let rev = rev.unwrap_or("HEAD");
            if rev == "HEAD" && repo.head_id()?.is_none() {
                return Err(UsageError(
                    "there is no commit to check yet: pipe a message on stdin".into(),
                )
                .into());
            }
            let info = repo.commit_info(rev)?;
            eprintln!("checking commit {} against {}", info.short_id, rules.source);
            info.message
        }
    };
    let violations = rules.check(&message);
    let (report, failed) = report(&rules, &violations);
    print!("{report}");
    Ok(if failed {
        ExitCode::from(super::exit::GENERAL)
    } else {
        ExitCode::SUCCESS
    })
}

/// stdin's message when stdin is not a terminal and is not empty (comment lines aside);
/// at most [`MAX_INPUT_BYTES`] + 1 bytes are read, so a larger one fails the size check.
fn read_stdin() -> Result<Option<String>> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    stdin
        .lock()
        .take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the message from stdin")?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let empty = commit_rules::ParsedMessage::parse(&text).lines.is_empty();
    Ok((!empty).then_some(text))
}

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
