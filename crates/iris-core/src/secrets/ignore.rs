//! `.irissecretsignore` at the repository root: what the user says is no secret. A line is a
//! comment (`#`), blank, a finding's fingerprint (`aws-access-key:0123456789ab`, as the
//! findings show it), or a path pattern in gitignore syntax whose files are left alone.

use std::collections::HashSet;
use std::path::Path;

use anyhow::bail;
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::Finding;
use super::rules::RULE_IDS;

/// The file's name, at the repository root.
pub const FILE_NAME: &str = ".irissecretsignore";

/// What to leave in the text although it looks like a secret.
#[derive(Debug, Clone, Default)]
pub struct SecretsIgnore {
    fingerprints: HashSet<String>,
    paths: Option<Gitignore>,
}

impl SecretsIgnore {
    /// Nothing is skipped.
    pub fn none() -> Self {
        Self::default()
    }

    /// The file's text.
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        parse_named(text, FILE_NAME)
    }

    /// The text of the file at `path` (named so in errors).
    pub fn parse_file(text: &str, path: &str) -> anyhow::Result<Self> {
        parse_named(text, path)
    }

    /// Whether a finding is to be left in the text.
    pub fn skips(&self, finding: &Finding) -> bool {
        if self.fingerprints.contains(&finding.fingerprint) {
            return true;
        }
        match (&self.paths, &finding.location) {
            (Some(paths), Some(location)) => path_ignored(paths, &location.path),
            _ => false,
        }
    }

    /// Nothing is skipped (no file, or nothing in it).
    pub fn is_empty(&self) -> bool {
        self.fingerprints.is_empty() && self.paths.is_none()
    }
}

fn parse_named(text: &str, file: &str) -> anyhow::Result<SecretsIgnore> {
    let mut fingerprints = HashSet::new();
    // Rooted at `.`: patterns match the repository-relative paths that diffs show.
    let mut builder = GitignoreBuilder::new(".");
    let mut patterns = 0;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if is_fingerprint(line) {
            fingerprints.insert(line.to_owned());
            continue;
        }
        // `rule:...` with a known rule is meant as a fingerprint; say what is wrong with it.
        if let Some((rule, hash)) = line.split_once(':')
            && RULE_IDS.contains(&rule)
        {
            bail!(
                "{file}:{number}: `{line}` is not a fingerprint: after `{rule}:` come the 12 \
                 lower-case hex digits a finding shows (got `{hash}`)"
            );
        }
        builder
            .add_line(None, line)
            .map_err(|err| anyhow::anyhow!("{file}:{number}: bad path pattern `{line}`: {err}"))?;
        patterns += 1;
    }
    let paths = if patterns == 0 {
        None
    } else {
        Some(
            builder
                .build()
                .map_err(|err| anyhow::anyhow!("{file}: bad path patterns: {err}"))?,
        )
    };
    Ok(SecretsIgnore {
        fingerprints,
        paths,
    })
}

/// `^[a-z0-9-]+:[0-9a-f]{12}$`
fn is_fingerprint(line: &str) -> bool {
    let Some((rule, hash)) = line.split_once(':') else {
        return false;
    };
    !rule.is_empty()
        && rule
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && hash.len() == 12
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The path or one of its folders matches (the last matching pattern decides, as in git).
fn path_ignored(paths: &Gitignore, path: &str) -> bool {
    let path = path.trim_start_matches("./").trim_start_matches('/');
    if path.is_empty() {
        return false;
    }
    let mut candidate = Path::new(path);
    let mut is_dir = false;
    loop {
        match paths.matched(candidate, is_dir) {
            Match::Ignore(_) => return true,
            Match::Whitelist(_) => return false,
            Match::None => {}
        }
        match candidate.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => {
                candidate = parent;
                is_dir = true;
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::Location;

    fn finding(rule: &'static str, path: Option<&str>, fingerprint: &str) -> Finding {
        Finding {
            rule: rule.into(),
            location: path.map(|p| Location {
                path: p.to_owned(),
                line: 1,
            }),
            fingerprint: fingerprint.to_owned(),
        }
    }

    #[test]
    fn fingerprints_and_paths_are_skipped() {
        let ignore = SecretsIgnore::parse(
            "# test keys\n\naws-access-key:0123456789ab\ntests/fixtures/\n*.pem\n!keep.pem\n",
        )
        .unwrap();
        assert!(ignore.skips(&finding(
            "aws-access-key",
            None,
            "aws-access-key:0123456789ab"
        )));
        assert!(!ignore.skips(&finding(
            "aws-access-key",
            None,
            "aws-access-key:0123456789ac"
        )));
        assert!(ignore.skips(&finding(
            "jwt",
            Some("tests/fixtures/a/b.json"),
            "jwt:000000000000"
        )));
        assert!(ignore.skips(&finding("private-key", Some("keys/dev.pem"), "x")));
        assert!(!ignore.skips(&finding("private-key", Some("keep.pem"), "x")));
        assert!(!ignore.skips(&finding("jwt", Some("src/main.rs"), "x")));
        assert!(!ignore.skips(&finding("jwt", None, "x")));
        // Odd paths from a diff's headers are no trouble.
        assert!(!ignore.skips(&finding("jwt", Some("/etc/passwd"), "x")));
        assert!(!ignore.skips(&finding("jwt", Some("../x"), "x")));
    }

    #[test]
    fn a_bad_line_is_an_error_naming_it() {
        let err = SecretsIgnore::parse("# ok\nsrc/\naws-access-key:XYZ\n").unwrap_err();
        let message = err.to_string();
        assert!(message.contains(".irissecretsignore:3"), "{message}");
        let err = SecretsIgnore::parse("a\n\nsrc/{a,b\n").unwrap_err();
        assert!(err.to_string().contains(".irissecretsignore:3"), "{err}");
    }
}
