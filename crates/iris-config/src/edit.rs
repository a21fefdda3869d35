//! `iris config set`: one key written into the user file or the project file, keeping the
//! file's comments, layout and other keys.

use std::io::Write;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, InlineTable, Item, Table, TableLike};

use super::file::{self, FileKind};
use super::keys::{ConfigKey, Kind, Value};
use super::{ConfigError, PROJECT_FILE, ProviderKind, display_path};

/// What `set_value` wrote: the key's canonical name and its value as shown (keys masked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// The key's canonical name: `providers.anthropic.model`.
    pub key: String,
    /// The value written, as TOML; an API key as `"****"`.
    pub value: String,
    /// The file, for messages (`~` for the home directory).
    pub file: String,
}

/// Checks `key` and `text`, then writes them into the config file at `path` (created if
/// missing). A file that does not load as it is, is left alone: the error names its line.
pub fn set_value(
    path: &Path,
    target: FileKind,
    key_name: &str,
    text: &str,
) -> Result<Assignment, ConfigError> {
    set_values(path, target, &[(key_name, text)])?
        .into_iter()
        .next()
        .ok_or_else(|| ConfigError("nothing was set".to_string()))
}

/// [`set_value`] for several keys at once: every key and value is checked before the file is
/// touched, and the file is replaced once, so either all of them are written or none.
pub fn set_values(
    path: &Path,
    target: FileKind,
    pairs: &[(&str, &str)],
) -> Result<Vec<Assignment>, ConfigError> {
    let mut checked = Vec::with_capacity(pairs.len());
    for &(key_name, text) in pairs {
        checked.push(check(target, key_name, text)?);
    }

    // Write through a symbolic link (a dotfiles repository) rather than replace it.
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let original = file::read(&real)?.unwrap_or_default();
    file::parse(&original, path, target)?;
    let mut doc: DocumentMut = original
        .parse()
        .map_err(|_| ConfigError(format!("cannot edit {}", display_path(path))))?;
    for (key, value) in &checked {
        put(&mut doc, *key, value.to_toml());
    }
    let updated = doc.to_string();
    // What is written must load; this guards the edit itself.
    file::parse(&updated, path, target)?;
    let secret = checked.iter().any(|(key, _)| key.kind() == Kind::Secret);
    write_atomically(&real, &updated, target, secret)?;
    let file = display_path(path);
    Ok(checked
        .into_iter()
        .map(|(key, value)| Assignment {
            key: key.name(),
            value: value.display(),
            file: file.clone(),
        })
        .collect())
}

/// The key `key_name` names and `text` as its value, if the key exists, may go into `target`
/// and takes such a value. The error never repeats a secret.
fn check(target: FileKind, key_name: &str, text: &str) -> Result<(ConfigKey, Value), ConfigError> {
    let key = ConfigKey::parse(key_name).ok_or_else(|| unknown_key(key_name))?;
    let name = key.name();
    if target == FileKind::Project
        && let Some(why) = key.refused_in_project()
    {
        return Err(ConfigError(format!(
            "cannot set `{name}` in {PROJECT_FILE}: {why}"
        )));
    }
    let kind = key.kind();
    let value = kind.parse_str(text).map_err(|expected| {
        let shown = match kind {
            Kind::Secret => String::new(),
            _ => format!(" `{}`", text.trim()),
        };
        ConfigError(format!("bad value{shown} for `{name}`: {expected}"))
    })?;
    Ok((key, value))
}

fn unknown_key(name: &str) -> ConfigError {
    let mut names: Vec<String> = ConfigKey::all().into_iter().map(ConfigKey::name).collect();
    // The shorthand `anthropic.model` is accepted, so it is suggested too.
    names.extend(
        ConfigKey::all()
            .into_iter()
            .filter_map(ConfigKey::provider_field)
            .map(|(kind, field)| format!("{kind}.{field}")),
    );
    let hint = match ConfigKey::suggest(name.trim(), names.iter().map(String::as_str)) {
        Some(close) => format!("did you mean `{close}`?"),
        None => ConfigKey::help(),
    };
    ConfigError(format!("unknown key `{}`; {hint}", name.trim()))
}

/// Sets a key in the document, keeping any comment on the value's line.
fn put(doc: &mut DocumentMut, key: ConfigKey, value: toml_edit::Value) {
    let root: &mut dyn TableLike = doc.as_table_mut();
    match key.provider_field() {
        None => put_value(root, &key.name(), value),
        Some((kind, field)) => {
            let providers = root.entry("providers").or_insert_with(|| {
                let mut table = Table::new();
                table.set_implicit(true);
                Item::Table(table)
            });
            let inline = providers.is_inline_table();
            let Some(providers) = providers.as_table_like_mut() else {
                // file::parse has checked that `providers` is a table.
                return;
            };
            // The file may name the provider by another name (`google` for gemini).
            let table_name = providers
                .iter()
                .map(|(name, _)| name)
                .find(|name| ProviderKind::parse(name) == Some(kind))
                .unwrap_or(kind.name())
                .to_string();
            let table = providers.entry(&table_name).or_insert_with(|| {
                if inline {
                    Item::Value(toml_edit::Value::InlineTable(InlineTable::new()))
                } else {
                    Item::Table(Table::new())
                }
            });
            if let Some(table) = table.as_table_like_mut() {
                put_value(table, field, value);
            }
        }
    }
}

fn put_value(table: &mut dyn TableLike, name: &str, mut value: toml_edit::Value) {
    match table.get_mut(name) {
        // Replacing the item in place keeps the key, its position and the comments around it.
        Some(item) => {
            if let Some(old) = item.as_value() {
                *value.decor_mut() = old.decor().clone();
            }
            *item = Item::Value(value);
        }
        None => {
            table.insert(name, Item::Value(value));
        }
    }
}

/// Replaces the file in one step, so a crash never leaves half a config. The user file is
/// private (0600) from its creation; a file that gets a key loses any group or other access.
fn write_atomically(
    path: &Path,
    text: &str,
    target: FileKind,
    secret: bool,
) -> Result<(), ConfigError> {
    let shown = display_path(path);
    let fail = |what: &str, e: std::io::Error| ConfigError(format!("cannot {what} {shown}: {e}"));
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    std::fs::create_dir_all(&dir).map_err(|e| fail("create the directory of", e))?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    let mode = {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let existing = std::fs::metadata(path)
            .ok()
            .map(|m| m.permissions().mode() & 0o777);
        let default = match target {
            FileKind::User => 0o600,
            FileKind::Project => 0o644,
        };
        let mode = existing.unwrap_or(default);
        let mode = if secret { mode & 0o700 } else { mode };
        options.mode(mode);
        mode
    };
    #[cfg(not(unix))]
    let _ = (target, secret);
    let result = options
        .open(&temp)
        .and_then(|mut file| {
            // The mode given at creation is narrowed by the umask; set it as meant.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                file.set_permissions(std::fs::Permissions::from_mode(mode))?;
            }
            file.write_all(text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(fail("write", e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_in(text: &str, key: &str, value: &str) -> Result<String, ConfigError> {
        let dir = tempfile::tempdir().map_err(|e| ConfigError(e.to_string()))?;
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).map_err(|e| ConfigError(e.to_string()))?;
        set_value(&path, FileKind::User, key, value)?;
        std::fs::read_to_string(&path).map_err(|e| ConfigError(e.to_string()))
    }

    #[test]
    fn setting_keeps_comments_and_other_keys() {
        let text = "# my settings\npreset = \"conventional\" # team style\n\n\
                    # the model\n[providers.anthropic]\nmodel = \"old\" # pinned\n";
        let out = set_in(text, "preset", "default").unwrap();
        assert_eq!(out, text.replace("\"conventional\"", "\"default\""));
        let out = set_in(text, "anthropic.model", "new").unwrap();
        assert_eq!(out, text.replace("\"old\"", "\"new\""));
    }

    #[test]
    fn new_keys_land_in_the_right_table() {
        let out = set_in("gitmoji = true\n", "providers.ollama.model", "qwen3").unwrap();
        assert_eq!(
            out,
            "gitmoji = true\n\n[providers.ollama]\nmodel = \"qwen3\"\n"
        );
        let out = set_in(&out, "max_turns", "9").unwrap();
        assert!(out.starts_with("gitmoji = true\nmax_turns = 9\n"), "{out}");
        let out = set_in(
            "[providers.google]\nmodel = \"g\"\n",
            "gemini.fast_model",
            "f",
        )
        .unwrap();
        assert_eq!(
            out,
            "[providers.google]\nmodel = \"g\"\nfast_model = \"f\"\n"
        );
        let out = set_in("providers.openai.model = \"a\"\n", "openai.fast_model", "b").unwrap();
        assert!(out.contains("fast_model = \"b\""), "{out}");
        let out = set_in(
            "providers = { openai = { model = \"a\" } }\n",
            "anthropic.model",
            "c",
        )
        .unwrap();
        assert!(out.contains("anthropic = { model = \"c\" }"), "{out}");
        let out = set_in("", "provider", "google").unwrap();
        assert_eq!(out, "provider = \"gemini\"\n");
    }

    #[test]
    fn bad_keys_and_values_are_refused_and_the_file_is_left_alone() {
        let text = "gitmoji = true\n";
        let err = set_in(text, "gitmojii", "true").unwrap_err();
        assert_eq!(err.0, "unknown key `gitmojii`; did you mean `gitmoji`?");
        let err = set_in(text, "anthropic.modle", "x").unwrap_err();
        assert!(err.0.contains("did you mean `anthropic.model`?"), "{err}");
        let err = set_in(text, "gitmoji", "sometimes").unwrap_err();
        assert_eq!(
            err.0,
            "bad value `sometimes` for `gitmoji`: expected a boolean (true or false)"
        );
        let err = set_in(text, "openai.api_key", " ").unwrap_err();
        assert_eq!(
            err.0,
            "bad value for `providers.openai.api_key`: expected a non-empty string"
        );
        let err = set_in("gitmoji = \"x\"\n", "preset", "p").unwrap_err();
        assert!(err.0.contains("config.toml line 1: key `gitmoji`"), "{err}");
    }

    #[test]
    fn several_keys_are_written_together_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "# mine\ngitmoji = true\n").unwrap();
        let err = set_values(
            &path,
            FileKind::User,
            &[("provider", "ollama"), ("ollama.model", " ")],
        )
        .unwrap_err();
        assert!(err.0.contains("providers.ollama.model"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# mine\ngitmoji = true\n"
        );

        let written = set_values(
            &path,
            FileKind::User,
            &[
                ("provider", "anthropic"),
                ("anthropic.model", "m"),
                ("anthropic.api_key", "sk-x"),
            ],
        )
        .unwrap();
        let shown: Vec<(&str, &str)> = written
            .iter()
            .map(|a| (a.key.as_str(), a.value.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                ("provider", "\"anthropic\""),
                ("providers.anthropic.model", "\"m\""),
                ("providers.anthropic.api_key", "\"****\""),
            ]
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# mine\ngitmoji = true\nprovider = \"anthropic\"\n\n\
             [providers.anthropic]\nmodel = \"m\"\napi_key = \"sk-x\"\n"
        );
    }

    #[test]
    fn the_project_file_takes_no_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROJECT_FILE);
        let err = set_value(&path, FileKind::Project, "anthropic.api_key", "sk-x").unwrap_err();
        assert!(err.0.starts_with("cannot set `providers.anthropic.api_key` in .irisconfig: API keys are never read from a project file"), "{err}");
        assert!(!err.0.contains("sk-x"));
        assert!(!path.exists());
        set_value(&path, FileKind::Project, "preset", "conventional").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "preset = \"conventional\"\n"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_user_file_is_private_and_a_link_is_written_through() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles.toml");
        std::fs::write(&real, "gitmoji = true\n").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o644)).unwrap();
        let link = dir.path().join("iris").join("config.toml");
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();

        let written = set_value(&link, FileKind::User, "openai.api_key", "sk-abc").unwrap();
        assert_eq!(written.value, "\"****\"");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        let text = std::fs::read_to_string(&real).unwrap();
        assert!(text.contains("api_key = \"sk-abc\""), "{text}");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);

        let fresh = dir.path().join("new").join("config.toml");
        set_value(&fresh, FileKind::User, "preset", "x").unwrap();
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
