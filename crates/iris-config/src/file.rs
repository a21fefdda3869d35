//! Reading config files: the user's `config.toml` and a project's `.irisconfig`.
//!
//! The TOML is walked against the key table rather than deserialized with serde, so that each
//! problem names the file, the line and the key, and no message ever quotes a value (a
//! misplaced API key must not end up in a terminal or a CI log).

use std::io::Read;
use std::path::Path;

use toml_edit::{Document, Item, TableLike};

use super::keys::{ConfigKey, PROVIDER_FIELDS, Value};
use super::{ConfigError, ProviderKind, display_path};

/// Which file is read: a project file may set fewer keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// The user's `config.toml`, which may set every key.
    User,
    /// A repository's `.irisconfig`: style and provider, never keys, base URLs or trust.
    Project,
}

/// A file larger than this is not a config file (and a project could point `.irisconfig` at
/// something endless).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads a config file; `Ok(None)` when there is none.
pub fn read(path: &Path) -> Result<Option<String>, ConfigError> {
    let shown = display_path(path);
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ConfigError(format!("cannot read {shown}: {e}"))),
    };
    let metadata = file
        .metadata()
        .map_err(|e| ConfigError(format!("cannot read {shown}: {e}")))?;
    if !metadata.is_file() {
        return Err(ConfigError(format!("{shown} is not a regular file")));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ConfigError(format!("cannot read {shown}: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ConfigError(format!(
            "{shown} is larger than {MAX_FILE_BYTES} bytes; it cannot be a config file"
        )));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| ConfigError(format!("{shown} is not UTF-8 text")))
}

/// One setting found in a file.
#[derive(Debug)]
pub struct Entry {
    /// The key set.
    pub key: ConfigKey,
    /// Its value, checked.
    pub value: Value,
}

/// Checks a file's text and returns its settings.
pub fn parse(text: &str, path: &Path, kind: FileKind) -> Result<Vec<Entry>, ConfigError> {
    let shown = display_path(path);
    let doc = Document::parse(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let line = line_of(text, offset);
        let key = text
            .lines()
            .nth(line - 1)
            .and_then(key_on_line)
            .map(|k| format!(" key `{k}`:"))
            .unwrap_or_default();
        ConfigError(format!(
            "{shown} line {line}:{key} {}",
            e.message().replace('\n', "; ")
        ))
    })?;
    let mut walker = Walker {
        text,
        shown,
        kind,
        entries: Vec::new(),
    };
    walker.root(doc.as_table())?;
    Ok(walker.entries)
}

struct Walker<'a> {
    text: &'a str,
    shown: String,
    kind: FileKind,
    entries: Vec<Entry>,
}

impl Walker<'_> {
    fn root(&mut self, table: &dyn TableLike) -> Result<(), ConfigError> {
        for (name, item) in table.iter() {
            let line = self.key_line(table, name, item);
            if name == "providers" {
                let providers = item.as_table_like().ok_or_else(|| {
                    self.error(line, name, "expected a table such as [providers.openai]")
                })?;
                self.providers(providers)?;
                continue;
            }
            let Some(key) = ConfigKey::top(name) else {
                return Err(self.unknown(line, name, name, ConfigKey::top_names()));
            };
            self.setting(key, item, line)?;
        }
        Ok(())
    }

    fn providers(&mut self, table: &dyn TableLike) -> Result<(), ConfigError> {
        let mut seen: Vec<(ProviderKind, &str)> = Vec::new();
        for (name, item) in table.iter() {
            let line = self.key_line(table, name, item);
            let full = format!("providers.{name}");
            let Some(kind) = ProviderKind::parse(name) else {
                return Err(self.error(
                    line,
                    &full,
                    &format!(
                        "unknown provider{}; the providers are: {}",
                        ProviderKind::did_you_mean(name),
                        ProviderKind::names()
                    ),
                ));
            };
            if let Some((_, other)) = seen.iter().find(|(k, _)| *k == kind) {
                return Err(self.error(
                    line,
                    &full,
                    &format!("`providers.{other}` already configures {kind}; keep one of the two"),
                ));
            }
            seen.push((kind, name));
            let fields = item.as_table_like().ok_or_else(|| {
                self.error(
                    line,
                    &full,
                    "expected a table of model, fast_model, base_url, api_key",
                )
            })?;
            for (field, value) in fields.iter() {
                let line = self.key_line(fields, field, value);
                let Some(key) = ConfigKey::provider_key(kind, field) else {
                    return Err(self.unknown(
                        line,
                        &format!("{full}.{field}"),
                        field,
                        PROVIDER_FIELDS,
                    ));
                };
                self.setting(key, value, line)?;
            }
        }
        Ok(())
    }

    fn setting(&mut self, key: ConfigKey, item: &Item, key_line: usize) -> Result<(), ConfigError> {
        let name = key.name();
        if self.kind == FileKind::Project
            && let Some(why) = key.refused_in_project()
        {
            return Err(self.error(key_line, &name, &why));
        }
        let line = item
            .span()
            .map_or(key_line, |s| line_of(self.text, s.start));
        let value = match item.as_value() {
            Some(value) => key.kind().parse_toml(value),
            None => Err(key.kind().expected()),
        }
        .map_err(|expected| self.error(line, &name, &expected))?;
        self.entries.push(Entry { key, value });
        Ok(())
    }

    fn key_line(&self, table: &dyn TableLike, name: &str, item: &Item) -> usize {
        key_line(self.text, table, name, item)
    }

    fn error(&self, line: usize, key: &str, problem: &str) -> ConfigError {
        ConfigError(format!(
            "{} line {line}: key `{key}`: {problem}",
            self.shown
        ))
    }

    fn unknown<'c>(
        &self,
        line: usize,
        full: &str,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) -> ConfigError {
        let hint = match ConfigKey::suggest(name, candidates) {
            Some(close) => format!("unknown key; did you mean `{close}`?"),
            None => format!("unknown key; {}", ConfigKey::help()),
        };
        self.error(line, full, &hint)
    }
}

/// The line of a key in its table (else of its value), for messages; 1 when unknown.
pub fn key_line(text: &str, table: &dyn TableLike, name: &str, item: &Item) -> usize {
    table
        .key(name)
        .and_then(|k| k.span())
        .or_else(|| item.span())
        .map_or(1, |s| line_of(text, s.start))
}

/// The 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The key on a `key = value` line, for naming it in a syntax error. Only a plain key is
/// returned: never text from the value side.
fn key_on_line(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | '\'' | ' '));
    plain.then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_user(text: &str) -> Result<Vec<Entry>, ConfigError> {
        parse(text, Path::new("/cfg/config.toml"), FileKind::User)
    }

    #[test]
    fn a_full_user_file_parses() {
        let text = "provider = \"anthropic\"\n# a comment\ngitmoji = true\nmax_turns = 7\n\
                    [providers.anthropic]\nmodel = \"m\"\napi_key = \"sk-1\"\n\
                    [providers.google]\nbase_url = \"https://g.example\"\n";
        let entries = parse_user(text).unwrap();
        let found: Vec<ConfigKey> = entries.iter().map(|e| e.key).collect();
        assert_eq!(
            found,
            vec![
                ConfigKey::Provider,
                ConfigKey::Gitmoji,
                ConfigKey::MaxTurns,
                ConfigKey::Model(ProviderKind::Anthropic),
                ConfigKey::ApiKey(ProviderKind::Anthropic),
                ConfigKey::BaseUrl(ProviderKind::Gemini),
            ]
        );
        assert_eq!(entries[1].value, Value::Bool(true));
    }

    #[test]
    fn dotted_and_inline_tables_work_too() {
        let text = "providers.ollama.model = \"qwen3\"\n\
                    providers.anthropic = { fast_model = \"h\" }\n";
        let keys: Vec<ConfigKey> = parse_user(text).unwrap().iter().map(|e| e.key).collect();
        assert_eq!(
            keys,
            vec![
                ConfigKey::Model(ProviderKind::Ollama),
                ConfigKey::FastModel(ProviderKind::Anthropic)
            ]
        );
    }

    #[test]
    fn problems_name_the_file_line_and_key() {
        let err = parse_user("preset = \"x\"\n\ngitmoji = \"yes\"\n").unwrap_err();
        assert_eq!(
            err.0,
            "/cfg/config.toml line 3: key `gitmoji`: expected a boolean (true or false)"
        );
        let err = parse_user("gitmoji = true\ngitmojii = true\n").unwrap_err();
        assert_eq!(
            err.0,
            "/cfg/config.toml line 2: key `gitmojii`: unknown key; did you mean `gitmoji`?"
        );
        let err = parse_user("[providers.anthropic]\nmodel = \"m\"\nmodle = \"x\"\n").unwrap_err();
        assert!(
            err.0
                .starts_with("/cfg/config.toml line 3: key `providers.anthropic.modle`"),
            "{err}"
        );
        let err = parse_user("[providers.claude]\nmodel = \"m\"\n").unwrap_err();
        assert!(
            err.0
                .contains("line 1: key `providers.claude`: unknown provider"),
            "{err}"
        );
        let err = parse_user("max_turns = 0\n").unwrap_err();
        assert!(
            err.0
                .contains("line 1: key `max_turns`: expected a whole number"),
            "{err}"
        );
        let err = parse_user("[providers.gemini]\n[providers.google]\n").unwrap_err();
        assert!(err.0.contains("line 2"), "{err}");
    }

    #[test]
    fn a_syntax_error_names_the_line_and_key_but_not_the_value() {
        let err = parse_user("gitmoji = true\napi_key = sk-abc123\n").unwrap_err();
        assert!(
            err.0.starts_with("/cfg/config.toml line 2: key `api_key`:"),
            "{err}"
        );
        assert!(!err.0.contains("sk-abc123"), "{err}");
        let err = parse_user("preset = \"x\"\n[providers.openai\n").unwrap_err();
        assert!(err.0.starts_with("/cfg/config.toml line 2:"), "{err}");
    }

    #[test]
    fn a_project_file_refuses_keys_urls_and_trust_without_echoing_them() {
        let project = Path::new("/repo/.irisconfig");
        let text = "preset = \"conventional\"\n[providers.openai]\napi_key = \"sk-leak\"\n";
        let err = parse(text, project, FileKind::Project).unwrap_err();
        assert!(
            err.0.starts_with("/repo/.irisconfig line 3: key `providers.openai.api_key`: API keys are never read from a project file"),
            "{err}"
        );
        assert!(
            err.0.contains("OPENAI_API_KEY") && !err.0.contains("sk-leak"),
            "{err}"
        );
        let err = parse(
            "[providers.anthropic]\nbase_url = \"https://evil.example\"\n",
            project,
            FileKind::Project,
        )
        .unwrap_err();
        assert!(
            err.0.contains("line 2: key `providers.anthropic.base_url`"),
            "{err}"
        );
        let err = parse("trust_repo = true\n", project, FileKind::Project).unwrap_err();
        assert!(err.0.contains("a repository cannot trust itself"), "{err}");
        let ok = parse(
            "provider = \"ollama\"\n[providers.ollama]\nmodel = \"qwen3\"\n",
            project,
            FileKind::Project,
        );
        assert_eq!(ok.map(|e| e.len()).ok(), Some(2));
    }
}
