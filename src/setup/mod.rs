//! First-run setup: find the model servers running on this machine, let the user choose one
//! (or a hosted provider and its key), and write that choice into the user's config file.
//!
//! The pieces are shared by `iris config init` on the command line and the studio's setup
//! overlay: [`probe_local_servers`] lists what answers on loopback, a [`Choice`] is what the
//! user picked, [`Choice::lines`] shows it (key masked) for confirmation and [`write_choice`]
//! writes it. [`needs_setup`] tells a missing provider from a broken configuration.

mod choice;
mod probe;

use crate::config::{EnvLookup, NotConfigured, ProviderKind};

pub use crate::config::{Assignment, ConfigError};
pub use choice::{Choice, write_choice};
pub(crate) use probe::is_loopback;
pub use probe::{
    Candidate, LLAMA_CPP_DEFAULT, LM_STUDIO_DEFAULT, OLLAMA_DEFAULT, ProbeApi, default_candidates,
    probe, probe_local_servers,
};

/// A model server that answered on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalServer {
    /// "Ollama", "LM Studio" or "llama.cpp".
    pub label: &'static str,
    /// The provider Iris talks to it as: `ollama`, or `openai-compatible`.
    pub provider: ProviderKind,
    /// Its base URL as configured (`providers.<provider>.base_url`).
    pub base_url: String,
    /// The chat models it serves, in its order (embedding models left out); may be empty.
    pub models: Vec<String>,
}

impl LocalServer {
    /// Choosing `model` on this server: its provider, the model, its base URL, no key.
    pub fn choice(&self, model: &str) -> Choice {
        Choice {
            provider: self.provider,
            model: model.to_string(),
            base_url: Some(self.base_url.clone()),
            api_key: None,
        }
    }
}

/// The hosted providers setup offers, in the order it lists them. Each needs an API key; its
/// model defaults to [`ProviderKind::default_model`].
pub const HOSTED: [ProviderKind; 3] = [
    ProviderKind::OpenAi,
    ProviderKind::Anthropic,
    ProviderKind::Gemini,
];

/// Whether `error` says only that Iris has no usable provider yet, so that setup (not a fix)
/// is the answer: a [`NotConfigured`] anywhere in its chain, which
/// [`IrisAgent::from_config`](crate::agent::IrisAgent::from_config) returns when the selected
/// provider has no API key (OpenAI, Anthropic, Gemini), no model, or no base URL
/// (`openai-compatible`). Anything else is `false`: a config file that does not load, a bad
/// flag or environment value, an unreadable `.irissecretsignore`, a git or provider failure.
pub fn needs_setup(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.is::<NotConfigured>())
}

/// The environment variable that holds `kind`'s API key now, if one does (non-empty): a key
/// setup can leave where it is instead of storing it.
pub fn api_key_in_env(kind: ProviderKind) -> Option<&'static str> {
    api_key_var_in(kind, &|name| std::env::var(name).ok())
}

fn api_key_var_in(kind: ProviderKind, env: EnvLookup<'_>) -> Option<&'static str> {
    kind.api_key_vars()
        .iter()
        .copied()
        .find(|var| env(var).is_some_and(|value| !value.trim().is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::IrisAgent;
    use crate::config::{Config, Overrides};

    fn agent_error(env: &[(&str, &str)], overrides: &Overrides) -> anyhow::Error {
        let dir = tempfile::tempdir().unwrap();
        let lookup = |name: &str| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        };
        let config = Config::load_from(None, None, &lookup, overrides).unwrap();
        match IrisAgent::from_config(&config, dir.path(), dir.path(), false) {
            Ok(_) => panic!("Iris was configured"),
            Err(e) => e,
        }
    }

    #[test]
    fn nothing_configured_needs_setup_and_a_broken_configuration_does_not() {
        // The first run: OpenAI by default, and no key anywhere.
        let err = agent_error(&[], &Overrides::default());
        assert!(needs_setup(&err), "{err:#}");
        for provider in ["anthropic", "gemini"] {
            let flags = Overrides {
                provider: Some(provider.into()),
                ..Overrides::default()
            };
            assert!(needs_setup(&agent_error(&[], &flags)));
        }
        // openai-compatible without a base URL, then without a model.
        let compat = Overrides {
            provider: Some("openai-compatible".into()),
            ..Overrides::default()
        };
        assert!(needs_setup(&agent_error(&[], &compat)));
        let err = agent_error(&[("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")], &compat);
        assert!(needs_setup(&err), "{err:#}");
        assert!(err.to_string().starts_with("no model for"), "{err}");
        // Wrapped with context, it still is.
        assert!(needs_setup(&err.context("the studio could not start Iris")));

        let broken = anyhow::Error::new(ConfigError(
            "~/.config/iris/config.toml line 3: key `gitmoji`: expected a boolean".into(),
        ));
        assert!(!needs_setup(&broken));
        assert!(!needs_setup(&anyhow::anyhow!("no API key for openai")));
    }

    #[test]
    fn a_key_in_the_environment_is_found_by_its_variable() {
        let env = |name: &str| match name {
            "GOOGLE_API_KEY" => Some("g".to_string()),
            "ANTHROPIC_API_KEY" => Some("  ".to_string()),
            _ => None,
        };
        assert_eq!(
            api_key_var_in(ProviderKind::Gemini, &env),
            Some("GOOGLE_API_KEY")
        );
        assert_eq!(api_key_var_in(ProviderKind::Anthropic, &env), None);
        assert_eq!(api_key_var_in(ProviderKind::OpenAi, &env), None);
        assert_eq!(api_key_var_in(ProviderKind::Ollama, &env), None);
    }
}
