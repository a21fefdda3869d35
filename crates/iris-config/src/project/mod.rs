//! The project's own files that say how it writes: its commit rules (commitlint, commitizen),
//! its pull request templates and its `.irissecretsignore`, found where their tools look and
//! read within bounds. What they mean is `iris-core`'s; finding and reading them is here.

pub mod members;
pub mod pr_template;

use std::path::Path;

use iris_studio_core::commit_rules::{self, CommitRules, MAX_INPUT_BYTES, RulesError};
use iris_studio_core::secrets::{IGNORE_FILE_NAME, SecretRules, SecretsIgnore};

/// A project's secret rules, added to the built-in ones, at its root.
pub const SECRET_RULES_FILE: &str = ".irissecrets.toml";

/// The rules of the first commit-rules configuration at `repo_root`
/// ([`commit_rules::CONFIG_FILES`] order); `None` when there is none.
pub fn commit_rules(repo_root: &Path) -> Result<Option<CommitRules>, RulesError> {
    commit_rules::find(|name| read_bounded(&repo_root.join(name), name))
}

/// The text of a regular file, `None` when there is no such file; refused past
/// [`MAX_INPUT_BYTES`] or when it is not UTF-8.
fn read_bounded(path: &Path, name: &str) -> Result<Option<String>, RulesError> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(RulesError::new(name, e.to_string())),
    };
    let meta = file
        .metadata()
        .map_err(|e| RulesError::new(name, e.to_string()))?;
    if !meta.is_file() {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| RulesError::new(name, e.to_string()))?;
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(RulesError::new(
            name,
            format!("the file is larger than the {MAX_INPUT_BYTES} bytes read"),
        ));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| RulesError::new(name, "the file is not UTF-8 text"))
}

/// The contributor guides an AI-assistance trailer is looked for in, in this order.
pub const GUIDES: [&str; 4] = [
    "AGENTS.md",
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
];

/// The AI-assistance trailer (`Assisted-by`) the first guide that names one names; a guide
/// that cannot be read (too large, not UTF-8) names none.
pub fn attribution_in_guides(repo_root: &Path) -> Option<String> {
    GUIDES.iter().find_map(|name| {
        let text = read_bounded(&repo_root.join(name), name).ok()??;
        iris_studio_core::attribution::named_in_guide(&text)
    })
}

/// The trailer that says Iris helped, as `setting` (`attribution_trailer`) and the project's
/// guides decide: the setting's name, none for `none`, the guides' when unset.
pub fn attribution_trailer(setting: &str, repo_root: &Path) -> Option<String> {
    match setting.trim() {
        "" => attribution_in_guides(repo_root),
        none if none.eq_ignore_ascii_case("none") => None,
        name => Some(name.trim_end_matches(':').to_string()),
    }
}

/// Reads `<repo_root>/.irissecretsignore`; no file means nothing is skipped.
pub fn secrets_ignore(repo_root: &Path) -> anyhow::Result<SecretsIgnore> {
    use anyhow::Context;
    let path = repo_root.join(IGNORE_FILE_NAME);
    match std::fs::read_to_string(&path) {
        Ok(text) => SecretsIgnore::parse_file(&text, &path.display().to_string()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(SecretsIgnore::none()),
        Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
    }
}

/// The secret rules the user (`secrets.toml` beside the user config) and the project
/// ([`SECRET_RULES_FILE`]) add to the built-in table; a broken file is an error naming it.
pub fn secret_rules(repo_root: &Path) -> anyhow::Result<SecretRules> {
    let mut rules = SecretRules::default();
    let user = crate::user_config_dir().map(|dir| dir.join("secrets.toml"));
    for path in user.into_iter().chain([repo_root.join(SECRET_RULES_FILE)]) {
        let name = path.display().to_string();
        if let Some(text) = read_bounded(&path, &name).map_err(|e| anyhow::anyhow!("{e}"))? {
            rules.extend(SecretRules::parse(&text, &name)?);
        }
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::secrets::Finding;

    #[test]
    fn the_attribution_trailer_is_the_settings_else_the_guides() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(attribution_trailer("", dir.path()), None);
        std::fs::create_dir(dir.path().join(".github")).unwrap();
        std::fs::write(
            dir.path().join(".github/CONTRIBUTING.md"),
            "AI-assisted commits carry a `Generated-by:` trailer.\n",
        )
        .unwrap();
        assert_eq!(
            attribution_trailer("", dir.path()).as_deref(),
            Some("Generated-by")
        );
        assert_eq!(attribution_trailer("none", dir.path()), None);
        assert_eq!(
            attribution_trailer("Assisted-by:", dir.path()).as_deref(),
            Some("Assisted-by")
        );
    }

    #[test]
    fn a_missing_secrets_ignore_file_skips_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert!(secrets_ignore(dir.path()).unwrap().is_empty());
        std::fs::write(dir.path().join(IGNORE_FILE_NAME), "jwt:abcdefabcdef\n").unwrap();
        let ignore = secrets_ignore(dir.path()).unwrap();
        assert!(ignore.skips(&Finding {
            rule: "jwt".into(),
            location: None,
            fingerprint: "jwt:abcdefabcdef".to_owned(),
        }));
        std::fs::write(dir.path().join(IGNORE_FILE_NAME), "jwt:abc\n").unwrap();
        let err = secrets_ignore(dir.path()).unwrap_err().to_string();
        assert!(err.contains(".irissecretsignore:1"), "{err}");
    }

    #[test]
    fn a_projects_secret_rules_are_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        assert!(secret_rules(dir.path()).unwrap().is_empty());
        let rule = "[[rule]]\nid = \"acme-key\"\nkeywords = [\"acme_\"]\npattern = '(?P<s>acme_[0-9a-f]{32})'\n";
        std::fs::write(dir.path().join(SECRET_RULES_FILE), rule).unwrap();
        assert_eq!(secret_rules(dir.path()).unwrap().len(), 1);
        std::fs::write(dir.path().join(SECRET_RULES_FILE), "[[rule]]\nid = 1\n").unwrap();
        let err = format!("{:#}", secret_rules(dir.path()).unwrap_err());
        assert!(err.contains(SECRET_RULES_FILE), "{err}");
    }
}
