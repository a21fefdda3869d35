//! The repository's own commit message rules: a commitlint configuration or a commitizen
//! (conventional commits) setup, read without running Node or Python, and a message checked
//! against them.
//!
//! Everything here is pure: [`find`] takes the reading of the candidate files from its caller
//! (`iris_config::project::commit_rules` reads the repository root). The
//! formats all become one small tree ([`tree::Node`]) that [`config`] turns into
//! [`CommitRules`]; a JavaScript or TypeScript configuration is read by a tolerant reader of
//! its exported object literal ([`js`]), which skips (with a note) what it cannot evaluate.

mod case;
mod check;
mod commitizen;
mod config;
mod describe;
mod find;
mod js;
mod message;
mod presets;
mod tree;

use std::fmt;

use thiserror::Error;

pub use case::Case;
pub use find::{CONFIG_FILES, find};
pub use message::ParsedMessage;

/// The largest configuration file or message read; anything bigger is refused.
pub const MAX_INPUT_BYTES: usize = 1024 * 1024;

/// How a violated rule counts: commitlint's level 1 (a warning) or 2 (an error). Level 0
/// turns the rule off, so it never reaches a [`Rule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Warning,
    Error,
}

/// commitlint's condition: the rule holds (`always`) or its opposite must hold (`never`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    Always,
    Never,
}

/// One rule as configured: its level, its condition and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule<T> {
    pub level: Level,
    pub when: When,
    pub value: T,
}

impl<T> Rule<T> {
    pub fn new(level: Level, when: When, value: T) -> Self {
        Self { level, when, value }
    }

    /// An error-level `always` rule.
    pub fn always(value: T) -> Self {
        Self::new(Level::Error, When::Always, value)
    }

    /// An error-level `never` rule.
    pub fn never(value: T) -> Self {
        Self::new(Level::Error, When::Never, value)
    }

    /// The same rule at warning level.
    pub fn warning(self) -> Self {
        Self {
            level: Level::Warning,
            ..self
        }
    }
}

/// The rules a repository sets for its commit messages; `None` is a rule that is off (or
/// that neither the file nor the preset it extends sets). Rule names are commitlint's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommitRules {
    /// `type-enum`: the allowed (or, with `never`, forbidden) types.
    pub type_enum: Option<Rule<Vec<String>>>,
    /// `type-case`
    pub type_case: Option<Rule<Vec<Case>>>,
    /// `type-empty`: `never` means a type is required.
    pub type_empty: Option<Rule<()>>,
    /// `scope-enum`
    pub scope_enum: Option<Rule<Vec<String>>>,
    /// `scope-case`
    pub scope_case: Option<Rule<Vec<Case>>>,
    /// `scope-empty`
    pub scope_empty: Option<Rule<()>>,
    /// `subject-case`
    pub subject_case: Option<Rule<Vec<Case>>>,
    /// `subject-empty`
    pub subject_empty: Option<Rule<()>>,
    /// `subject-full-stop`: the stop character (usually `.`).
    pub subject_full_stop: Option<Rule<String>>,
    /// `header-max-length`, in characters.
    pub header_max_length: Option<Rule<usize>>,
    /// `header-min-length`, in characters.
    pub header_min_length: Option<Rule<usize>>,
    /// `body-leading-blank`
    pub body_leading_blank: Option<Rule<()>>,
    /// `body-max-line-length`, in characters.
    pub body_max_line_length: Option<Rule<usize>>,
    /// `footer-leading-blank`
    pub footer_leading_blank: Option<Rule<()>>,
    /// `footer-max-line-length`, in characters.
    pub footer_max_line_length: Option<Rule<usize>>,
    /// Whether merge, revert, fixup and release commits pass untouched (commitlint's
    /// `defaultIgnores`, on unless the file turns it off).
    pub default_ignores: bool,
    /// The presets the rules were built on, as the file names them.
    pub extends: Vec<String>,
    /// What was read but not understood (a function, an unknown preset or rule), in words.
    pub notes: Vec<String>,
    /// The file the rules came from, relative to the repository root (`package.json`,
    /// `commitlint.config.js`, `pyproject.toml`, ...).
    pub source: String,
}

impl CommitRules {
    /// No rule at all, from `source`.
    pub fn empty(source: &str) -> Self {
        Self {
            default_ignores: true,
            source: source.to_string(),
            ..Self::default()
        }
    }

    /// Every violation of these rules in `message` (a commit message as git would record it;
    /// `#` comment lines and anything below a scissors line are ignored), errors and warnings
    /// alike, in commitlint's rule order. A message over [`MAX_INPUT_BYTES`] is one violation.
    pub fn check(&self, message: &str) -> Vec<Violation> {
        check::check(self, message)
    }

    /// The rules in words, one sentence each, for a prompt or a summary.
    pub fn describe(&self) -> Vec<String> {
        describe::describe(self)
    }
}

/// One rule a message breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// commitlint's name of the rule: `type-enum`, `header-max-length`, ...
    pub rule: String,
    /// What is wrong, in words, naming the allowed values or the limit.
    pub message: String,
    /// An error-level rule (level 2); false for a warning (level 1).
    pub error: bool,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.error { "✖" } else { "⚠" };
        write!(f, "{mark} {}: {}", self.rule, self.message)
    }
}

/// The error-level violations among `violations` (a message fails on these; warnings pass).
pub fn error_count(violations: &[Violation]) -> usize {
    violations.iter().filter(|v| v.error).count()
}

/// A configuration that cannot be read: the file and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read the commit rules in {file}: {reason}")]
pub struct RulesError {
    pub file: String,
    pub reason: String,
}

impl RulesError {
    pub fn new(file: &str, reason: impl Into<String>) -> Self {
        Self {
            file: file.to_string(),
            reason: reason.into(),
        }
    }
}

/// Reads the rules in `text`, the content of the configuration file `file_name` (a path
/// relative to the repository root; its name picks the format). Pure: nothing is run and no
/// other file is read, so a preset named in `extends` must be one Iris knows.
pub fn parse(file_name: &str, text: &str) -> Result<CommitRules, RulesError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(RulesError::new(
            file_name,
            format!(
                "the file is {} bytes, more than the {} read",
                text.len(),
                MAX_INPUT_BYTES
            ),
        ));
    }
    // Editors on Windows may start a UTF-8 file with a byte order mark; JSON may not.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let base = file_name.rsplit('/').next().unwrap_or(file_name);
    match find::format_of(base) {
        Some(format) => find::parse_as(format, file_name, text),
        None => Err(RulesError::new(
            file_name,
            "not a commitlint or commitizen configuration file name",
        )),
    }
}
