//! The secret scanner: everything sent to a provider passes through [`Scanner::redact`],
//! which replaces each secret it finds with a marker that names its kind and, when the text
//! shows it, the file and line (`[secret: aws-access-key, .env:1]`). Only the value goes:
//! the rest of the line stays, so the model still sees that a key changed.
//!
//! Pure and self-contained: no IO (`iris_studio_config::project::secrets_ignore` reads the ignore
//! file). The rules are compiled once
//! for the process; a scan reads the text once with a keyword automaton and runs a rule's
//! pattern only on the lines holding one of its keywords.

mod generic;
mod ignore;
mod kubernetes;
mod locate;
mod private_key;
mod rules;
mod scan;
mod value;

use std::fmt::{self, Write};
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};

pub use ignore::{FILE_NAME as IGNORE_FILE_NAME, SecretsIgnore};
pub use rules::{RULE_IDS, SecretRules};
pub use value::is_placeholder;

/// The rules (built in, and those the user and the project add) and what the repository
/// says to skip. Cheap to clone.
#[derive(Clone, Default)]
pub struct Scanner {
    ignore: Arc<SecretsIgnore>,
    /// The rows the user and the project add; `None` when they add none.
    added: Option<Arc<Added>>,
}

/// Added rows, compiled with the built-in ones on the first scan.
struct Added {
    rules: SecretRules,
    compiled: OnceLock<rules::Compiled>,
}

impl fmt::Debug for Scanner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scanner")
            .field("ignore", &self.ignore)
            .field("added", &self.added.as_ref().map_or(0, |a| a.rules.len()))
            .finish()
    }
}

/// A text with its secrets replaced, and what was replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    /// The input itself when nothing was found.
    pub text: String,
    /// In the order of the text.
    pub findings: Vec<Finding>,
}

/// One secret that was replaced. Never holds the secret.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Finding {
    /// Kebab-case rule id, e.g. `aws-access-key`.
    pub rule: Arc<str>,
    /// The file and line, when the text shows them (a diff, a `file_read` answer).
    pub location: Option<Location>,
    /// `<rule>:<first 12 hex digits of sha256(secret)>`: what `.irissecretsignore` lists to
    /// let this secret through.
    pub fingerprint: String,
}

/// Where a secret was found: a file and a line of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file, as the diff or the `file_read` answer names it.
    pub path: String,
    /// 1-based; in the new version of the file, or the old one for a removed line.
    pub line: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path, self.line)
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{} at {location}", self.rule),
            None => f.write_str(&self.rule),
        }
    }
}

impl Scanner {
    /// The built-in rules, skipping what `ignore` lists. The rules compile (about 8 ms) on
    /// the first scan, which runs off the UI thread, not here: the studio builds its scanner
    /// before its first frame.
    pub fn new(ignore: SecretsIgnore) -> Self {
        Self::with_rules(SecretRules::default(), ignore)
    }

    /// The built-in rules and `added` (a user's and a project's rows), skipping what
    /// `ignore` lists.
    pub fn with_rules(added: SecretRules, ignore: SecretsIgnore) -> Self {
        let added = (!added.is_empty()).then(|| {
            Arc::new(Added {
                rules: added,
                compiled: OnceLock::new(),
            })
        });
        Self {
            ignore: Arc::new(ignore),
            added,
        }
    }

    fn compiled(&self) -> &rules::Compiled {
        match &self.added {
            Some(added) => added
                .compiled
                .get_or_init(|| rules::Compiled::with(&added.rules)),
            None => &rules::COMPILED,
        }
    }

    /// `text` with every secret replaced by a marker. Never fails; text without secrets
    /// comes back unchanged (copied once).
    pub fn redact(&self, text: &str) -> Redacted {
        let compiled = self.compiled();
        let candidates = scan::candidates(compiled, text);
        let mut out = String::new();
        let mut findings = Vec::new();
        let mut copied = 0;
        let mut locator = locate::Locator::new(text);
        for c in candidates {
            let location = locator.locate(c.span.start);
            let secret = c.fingerprint_of.as_deref().unwrap_or(&text[c.span.clone()]);
            let rule_skips = |path: &str| {
                compiled
                    .rules
                    .get(c.priority)
                    .is_some_and(|rule| rule.skips_path(path))
            };
            if location.as_ref().is_some_and(|l| rule_skips(&l.path)) {
                continue;
            }
            let finding = Finding {
                fingerprint: fingerprint(&c.rule, secret),
                rule: c.rule,
                location,
            };
            if self.ignore.skips(&finding) {
                continue;
            }
            if out.is_empty() {
                out.reserve(text.len() + 64);
            }
            out.push_str(&text[copied..c.span.start]);
            push_marker(&mut out, &finding);
            out.push_str(&c.tail);
            copied = c.span.end;
            findings.push(finding);
        }
        if findings.is_empty() {
            return Redacted {
                text: text.to_owned(),
                findings,
            };
        }
        out.push_str(&text[copied..]);
        Redacted {
            text: out,
            findings,
        }
    }
}

/// `<rule>:<first 12 hex digits of sha256(secret)>`.
fn fingerprint(rule: &str, secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    let mut out = String::with_capacity(rule.len() + 13);
    out.push_str(rule);
    out.push(':');
    for byte in &digest[..6] {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// `[secret: <rule>, <path>:<line>]`, or `[secret: <rule>]` without a location. The path
/// loses any bracket or line break, so the marker always reads back as one.
fn push_marker(out: &mut String, finding: &Finding) {
    out.push_str("[secret: ");
    out.push_str(&finding.rule);
    if let Some(location) = &finding.location {
        out.push_str(", ");
        out.extend(location.path.chars().map(|c| match c {
            '[' | ']' => '_',
            c if c.is_control() => '_',
            c => c,
        }));
        out.push(':');
        out.push_str(&location.line.to_string());
    }
    out.push(']');
}

#[cfg(test)]
mod tests;
