//! What the user chose in setup, shown for confirmation and written to the user file.

use std::fmt;
use std::path::Path;

use crate::{Assignment, ConfigError, FileKind, MASKED, ProviderKind, set_values};

/// A provider and model to write into the user's config file.
#[derive(Clone, PartialEq, Eq)]
pub struct Choice {
    /// The provider chosen, written as `provider`.
    pub provider: ProviderKind,
    /// Written as `providers.<provider>.model`.
    pub model: String,
    /// Written as `providers.<provider>.base_url`; `None` leaves the file's as it is.
    pub base_url: Option<String>,
    /// Written as `providers.<provider>.api_key`; `None` stores no key (one in the environment
    /// is used, or the provider needs none).
    pub api_key: Option<String>,
}

impl fmt::Debug for Choice {
    // The key never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Choice")
            .field("provider", &self.provider)
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "****"))
            .finish()
    }
}

impl Choice {
    /// The settings [`write_choice`] writes, as `key = value` TOML lines in the order written,
    /// the API key shown as `"****"`: what the user confirms.
    pub fn lines(&self) -> Vec<String> {
        self.settings()
            .into_iter()
            .map(|setting| {
                let value = if setting.secret {
                    MASKED.to_string()
                } else {
                    toml_edit::Value::from(setting.value.trim())
                        .to_string()
                        .trim()
                        .to_string()
                };
                format!("{} = {value}", setting.key)
            })
            .collect()
    }

    /// `provider`, then the provider's model, base URL and key as given. A local server's
    /// fast model (for subagents) is its chosen model too: the default one (`llama3.2` for
    /// Ollama) may not be on that server, the chosen one is.
    fn settings(&self) -> Vec<Setting<'_>> {
        let kind = self.provider.name();
        let key = |field: &str| format!("providers.{kind}.{field}");
        let mut settings = vec![
            Setting::plain("provider".to_string(), kind),
            Setting::plain(key("model"), &self.model),
        ];
        if !self.provider.requires_api_key() {
            settings.push(Setting::plain(key("fast_model"), &self.model));
        }
        if let Some(url) = &self.base_url {
            settings.push(Setting::plain(key("base_url"), url));
        }
        if let Some(api_key) = &self.api_key {
            settings.push(Setting {
                key: key("api_key"),
                value: api_key,
                secret: true,
            });
        }
        settings
    }
}

/// One `key = value` setup writes.
struct Setting<'a> {
    key: String,
    value: &'a str,
    secret: bool,
}

impl<'a> Setting<'a> {
    fn plain(key: String, value: &'a str) -> Self {
        Self {
            key,
            value,
            secret: false,
        }
    }
}

/// Writes `choice` into the user config file at `path` (created if missing, private: 0600),
/// keeping the file's comments and other settings. Every value is checked first and the file
/// is replaced once, so a refused value writes nothing. Returns what was written, keys masked.
pub fn write_choice(path: &Path, choice: &Choice) -> Result<Vec<Assignment>, ConfigError> {
    let settings = choice.settings();
    let pairs: Vec<(&str, &str)> = settings.iter().map(|s| (s.key.as_str(), s.value)).collect();
    set_values(path, FileKind::User, &pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosted() -> Choice {
        Choice {
            provider: ProviderKind::Anthropic,
            model: "claude-sonnet-4-5".into(),
            base_url: None,
            api_key: Some("sk-ant-SECRET-123".into()),
        }
    }

    fn ollama() -> Choice {
        Choice {
            provider: ProviderKind::Ollama,
            model: "qwen3:0.6b".into(),
            base_url: Some("http://127.0.0.1:11434".into()),
            api_key: None,
        }
    }

    #[test]
    fn the_lines_mask_the_key() {
        assert_eq!(
            hosted().lines(),
            [
                "provider = \"anthropic\"",
                "providers.anthropic.model = \"claude-sonnet-4-5\"",
                "providers.anthropic.api_key = \"****\"",
            ]
        );
        assert!(!format!("{:?}", hosted()).contains("SECRET"));
        assert_eq!(
            ollama().lines(),
            [
                "provider = \"ollama\"",
                "providers.ollama.model = \"qwen3:0.6b\"",
                "providers.ollama.fast_model = \"qwen3:0.6b\"",
                "providers.ollama.base_url = \"http://127.0.0.1:11434\"",
            ]
        );
        let quoted = Choice {
            model: "odd \"name\"".into(),
            ..ollama()
        };
        assert_eq!(
            quoted.lines()[1],
            "providers.ollama.model = 'odd \"name\"'",
            "the value is TOML"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_choice_is_written_privately_beside_what_the_file_had() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("iris").join("config.toml");
        let written = write_choice(&path, &hosted()).unwrap();
        let shown: Vec<String> = written
            .iter()
            .map(|a| format!("{} = {}", a.key, a.value))
            .collect();
        assert_eq!(shown, hosted().lines());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "provider = \"anthropic\"\n\n[providers.anthropic]\n\
             model = \"claude-sonnet-4-5\"\napi_key = \"sk-ant-SECRET-123\"\n"
        );
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);

        // A second choice replaces the provider and keeps the rest.
        std::fs::write(&path, format!("# mine\ngitmoji = true\n{text}")).unwrap();
        write_choice(&path, &ollama()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\ngitmoji = true\nprovider = \"ollama\"\n"));
        assert!(text.contains("api_key = \"sk-ant-SECRET-123\""), "{text}");
        assert!(
            text.ends_with(
                "[providers.ollama]\nmodel = \"qwen3:0.6b\"\nfast_model = \"qwen3:0.6b\"\n\
                 base_url = \"http://127.0.0.1:11434\"\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_bad_value_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let bad = Choice {
            base_url: Some("127.0.0.1:1234".into()),
            ..ollama()
        };
        let err = write_choice(&path, &bad).unwrap_err();
        assert!(err.0.contains("providers.ollama.base_url"), "{err}");
        assert!(!path.exists());
        let no_model = Choice {
            model: " ".into(),
            ..hosted()
        };
        let err = write_choice(&path, &no_model).unwrap_err();
        assert!(!err.0.contains("SECRET"), "{err}");
        assert!(!path.exists());
    }
}
