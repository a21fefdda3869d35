//! The sources of a configuration, applied lowest precedence first: each one overwrites what
//! the ones below it set.

use std::collections::BTreeMap;
use std::path::Path;

use super::file::{self, FileKind};
use super::keys::{ConfigKey, Value};
use super::{ConfigError, EnvLookup, Overrides, ProviderKind, Source, ollama_host_url};

pub(super) struct Layers<'a> {
    env: EnvLookup<'a>,
    /// Each key's value from the highest source seen so far.
    pub(super) resolved: BTreeMap<ConfigKey, (Value, Source)>,
}

impl<'a> Layers<'a> {
    pub(super) fn new(env: EnvLookup<'a>) -> Self {
        Self {
            env,
            resolved: BTreeMap::new(),
        }
    }

    fn set(&mut self, key: ConfigKey, value: Value, source: Source) {
        self.resolved.insert(key, (value, source));
    }

    /// Sets a key from an environment variable, if it is set and not empty.
    fn set_env(&mut self, var: &'static str, key: ConfigKey) -> Result<(), ConfigError> {
        let Some(text) = (self.env)(var).filter(|t| !t.trim().is_empty()) else {
            return Ok(());
        };
        let text = if var == "OLLAMA_HOST" {
            ollama_host_url(&text)
        } else {
            text
        };
        let value = key
            .kind()
            .parse_str(&text)
            .map_err(|expected| ConfigError(format!("{var}: {expected}")))?;
        self.set(key, value, Source::Env(var));
        Ok(())
    }

    /// Sets a key from a flag's text.
    fn set_flag(
        &mut self,
        flag: &'static str,
        key: ConfigKey,
        text: Option<&str>,
    ) -> Result<(), ConfigError> {
        let Some(text) = text else { return Ok(()) };
        let value = key
            .kind()
            .parse_str(text)
            .map_err(|expected| ConfigError(format!("{flag}: {expected}")))?;
        self.set(key, value, Source::Flag(flag));
        Ok(())
    }

    fn set_switch(&mut self, [yes, no]: [&'static str; 2], key: ConfigKey, on: Option<bool>) {
        if let Some(on) = on {
            self.set(
                key,
                Value::Bool(on),
                Source::Flag(if on { yes } else { no }),
            );
        }
    }

    /// `openai-compatible` borrows `OPENAI_API_KEY` and `OPENAI_BASE_URL` below the files.
    pub(super) fn openai_for_compatible(&mut self) -> Result<(), ConfigError> {
        let compat = ProviderKind::OpenAiCompatible;
        self.set_env("OPENAI_API_KEY", ConfigKey::ApiKey(compat))?;
        self.set_env("OPENAI_BASE_URL", ConfigKey::BaseUrl(compat))
    }

    pub(super) fn file(&mut self, path: Option<&Path>, kind: FileKind) -> Result<(), ConfigError> {
        let Some(path) = path else { return Ok(()) };
        let Some(text) = file::read(path)? else {
            return Ok(());
        };
        for entry in file::parse(&text, path, kind)? {
            let source = match kind {
                FileKind::User => Source::UserFile(path.to_path_buf()),
                FileKind::Project => Source::ProjectFile(path.to_path_buf()),
            };
            self.set(entry.key, entry.value, source);
        }
        Ok(())
    }

    pub(super) fn environment(&mut self) -> Result<(), ConfigError> {
        self.set_env("IRIS_PROVIDER", ConfigKey::Provider)?;
        self.set_env("IRIS_PRESET", ConfigKey::Preset)?;
        self.set_env("IRIS_GITMOJI", ConfigKey::Gitmoji)?;
        self.set_env("IRIS_TRUST_REPO", ConfigKey::TrustRepo)?;
        self.set_env("IRIS_SAFETY", ConfigKey::SafetyMode)?;
        self.set_env("IRIS_LANGUAGE", ConfigKey::Language)?;
        for kind in ProviderKind::all() {
            if kind == ProviderKind::OpenAiCompatible {
                continue;
            }
            // The first-named variable (GEMINI_API_KEY) wins, so it is applied last.
            for var in kind.api_key_vars().into_iter().rev() {
                self.set_env(var, ConfigKey::ApiKey(kind))?;
            }
            if let Some(var) = kind.base_url_var() {
                self.set_env(var, ConfigKey::BaseUrl(kind))?;
            }
        }
        Ok(())
    }

    pub(super) fn flags(&mut self, overrides: &Overrides) -> Result<(), ConfigError> {
        self.set_flag(
            "--provider",
            ConfigKey::Provider,
            overrides.provider.as_deref(),
        )?;
        self.set_flag("--preset", ConfigKey::Preset, overrides.preset.as_deref())?;
        self.set_flag(
            "--safety",
            ConfigKey::SafetyMode,
            overrides.safety.as_deref(),
        )?;
        self.set_flag(
            "--instructions",
            ConfigKey::Instructions,
            overrides.instructions.as_deref(),
        )?;
        self.set_flag(
            "--language",
            ConfigKey::Language,
            overrides.language.as_deref(),
        )?;
        self.set_switch(
            ["--gitmoji", "--no-gitmoji"],
            ConfigKey::Gitmoji,
            overrides.gitmoji,
        );
        self.set_switch(
            ["--critic", "--no-critic"],
            ConfigKey::CriticEnabled,
            overrides.critic_enabled,
        );
        self.set_switch(
            ["--trust-repo", "--no-trust-repo"],
            ConfigKey::TrustRepo,
            overrides.trust_repo,
        );
        self.set_switch(
            ["--sessions", "--no-sessions"],
            ConfigKey::AgentSessions,
            overrides.agent_sessions,
        );
        Ok(())
    }

    /// `IRIS_MODEL`, `IRIS_FAST_MODEL`, `IRIS_LOCAL` and the model flags name no provider:
    /// they apply to the one selected, so they come once every other source has spoken.
    pub(super) fn models(&mut self, overrides: &Overrides) -> Result<(), ConfigError> {
        let selected = match self.resolved.get(&ConfigKey::Provider) {
            Some((Value::Provider(kind), _)) => *kind,
            _ => ProviderKind::default(),
        };
        self.set_env("IRIS_LOCAL", ConfigKey::Local(selected))?;
        self.set_env("IRIS_MODEL", ConfigKey::Model(selected))?;
        self.set_env("IRIS_FAST_MODEL", ConfigKey::FastModel(selected))?;
        self.set_flag(
            "--model",
            ConfigKey::Model(selected),
            overrides.model.as_deref(),
        )?;
        self.set_flag(
            "--fast-model",
            ConfigKey::FastModel(selected),
            overrides.fast_model.as_deref(),
        )
    }
}
