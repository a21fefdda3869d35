//! The repository's own commit message rules: a commitlint configuration or a commitizen
//! (conventional commits) setup, read without running Node or Python, and a message checked
//! against them.
//!
//! Everything here is pure: [`find`] takes the reading of the candidate files from its caller
//! (`iris_studio_config::project::commit_rules` reads the repository root). The
//! formats all become one small tree ([`tree::Node`]) that [`config`] turns into
//! [`CommitRules`]; a JavaScript or TypeScript configuration is read by a tolerant reader of
//! its exported object literal ([`js`]), which skips (with a note) what it cannot evaluate.

mod case;
mod check;
mod commitizen;
mod config;
mod describe;
mod find;
mod ignores;
mod js;
mod message;
mod names;
mod parser;
mod pattern;
mod presets;
mod trailers;
mod tree;
mod words;

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

pub use case::{Case, CaseCheck};
pub use find::{CONFIG_FILES, find};
pub use message::{ParsedMessage, clean as clean_lines};
pub use names::{RuleName, ValueKind};
pub use parser::ParserOptions;
pub use pattern::JsPattern;
pub(crate) use pattern::built_in;
pub use trailers::carry as carry_trailers;

/// The largest configuration file or message read; anything bigger is refused.
pub const MAX_INPUT_BYTES: usize = 1024 * 1024;

/// How a violated rule counts: commitlint's level 1 (a warning) or 2 (an error). Level 0
/// turns the rule off, so it never reaches a [`Rule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Level 1: reported, but the message passes.
    Warning,
    /// Level 2: the message fails.
    Error,
}

/// commitlint's condition: the rule holds (`always`) or its opposite must hold (`never`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// The rule must hold.
    Always,
    /// Its opposite must hold.
    Never,
}

/// One rule as configured: its level, its condition and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule<T> {
    /// Whether breaking it is a warning or an error.
    pub level: Level,
    /// Whether the rule or its opposite must hold.
    pub when: When,
    /// What the rule is configured with.
    pub value: T,
}

impl<T> Rule<T> {
    /// A rule from its three parts, as commitlint's `[level, when, value]`.
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

/// What a rule is configured with (its third item), by the rule's [`ValueKind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A flag rule's (none).
    None,
    /// A length in UTF-16 code units; `usize::MAX` for `Infinity`.
    Length(usize),
    /// A full stop, or the text a line must start with.
    Text(String),
    /// type-enum's and scope-enum's names; scope-enum may name the delimiters that split
    /// several scopes (`/`, `\\` and `,` when none are given).
    Names {
        /// The allowed names (types, or scopes).
        names: Vec<String>,
        /// The delimiters between several scopes; empty for the default ones.
        delimiters: Vec<String>,
    },
    /// A case rule's checks (scope-case's may name delimiters too).
    Cases {
        /// The cases checked, each with its own condition.
        checks: Vec<CaseCheck>,
        /// The delimiters between several scopes; empty for the default ones.
        delimiters: Vec<String>,
    },
    /// scope-delimiter-style's allowed delimiters.
    Delimiters(Vec<String>),
}

/// The rules a repository sets for its commit messages, by commitlint's names, and how its
/// messages are read. A rule at level 0 (off) is not in `rules`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitRules {
    /// The rules that are on, by name.
    pub rules: BTreeMap<RuleName, Rule<Value>>,
    /// How a message is split into its parts (`parserPreset`).
    pub parser: ParserOptions,
    /// Whether merge, revert, fixup and release commits pass untouched (commitlint's
    /// `defaultIgnores`, on unless the file turns it off).
    pub default_ignores: bool,
    /// The presets the rules were built on, as the file names them.
    pub extends: Vec<String>,
    /// What was read but not understood (a function, an unknown preset), in words.
    pub notes: Vec<String>,
    /// The file the rules came from, relative to the repository root (`package.json`,
    /// `commitlint.config.js`, `pyproject.toml`, ...).
    pub source: String,
}

impl CommitRules {
    /// No rule at all, from `source`.
    pub fn empty(source: &str) -> Self {
        Self {
            rules: BTreeMap::new(),
            parser: ParserOptions::default(),
            default_ignores: true,
            extends: Vec::new(),
            notes: Vec::new(),
            source: source.to_string(),
        }
    }

    /// The rule `name` as configured, or `None` when it is off or not set.
    pub fn rule(&self, name: RuleName) -> Option<&Rule<Value>> {
        self.rules.get(&name)
    }

    /// Sets (or replaces) one rule.
    pub fn set(&mut self, name: RuleName, rule: Rule<Value>) {
        self.rules.insert(name, rule);
    }

    /// Every violation of these rules in `message`, as `commitlint --edit` finds them (`#`
    /// comment lines and anything below a scissors line are not the message), errors and
    /// warnings alike, in rule name order. A message over [`MAX_INPUT_BYTES`] is one
    /// violation; a message with nothing but blank space has none (commitlint skips it).
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
    /// The configuration file, relative to the repository root.
    pub file: String,
    /// Why it cannot be read, in words.
    pub reason: String,
}

impl RulesError {
    /// The error for `file`, with its reason.
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
