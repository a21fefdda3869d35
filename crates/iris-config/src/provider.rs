//! The LLM providers Iris can talk to, their default models and their environment variables.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use super::{ConfigError, Secret};
use crate::cli_agent::{CLI_DEFAULT_MODEL, CliAgent};
use crate::service::{Service, ServiceId};

/// Which provider the agent talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum ProviderKind {
    /// OpenAI, through the Responses API.
    #[default]
    OpenAi,
    /// Anthropic's Claude models.
    Anthropic,
    /// Google Gemini (`google` is accepted as a name too).
    Gemini,
    /// An Ollama server, on this machine or at `OLLAMA_HOST`.
    Ollama,
    /// Any server speaking OpenAI's Chat Completions; needs a base URL and a model.
    OpenAiCompatible,
    /// A named service (`groq`, `openrouter`, `lmstudio`, ...): Chat Completions at an address
    /// of its own, its facts a row of `assets/services.toml`.
    Service(ServiceId),
    /// A command-line agent the user's subscription comes with (`claude-code`, `codex`,
    /// `gemini-cli`), run as the model.
    Cli(CliAgent),
}

/// The protocol a provider's requests speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// OpenAI's Responses API (`/responses`).
    Responses,
    /// OpenAI's Chat Completions (`/chat/completions`), which most servers speak.
    ChatCompletions,
    /// Azure OpenAI's Chat Completions: a deployment's URL, `api-version`, an `api-key` header.
    Azure,
    /// Anthropic's Messages API.
    Anthropic,
    /// Google's Gemini API.
    Gemini,
    /// Ollama's own chat API.
    Ollama,
    /// A command-line agent run on this machine; its requests are written as Chat
    /// Completions and carried to the command instead of the network.
    Cli,
}

impl ProviderKind {
    /// The built-in providers, in the order `iris config` lists their settings.
    const BUILT_IN: [ProviderKind; 5] = [
        Self::OpenAi,
        Self::Anthropic,
        Self::Gemini,
        Self::Ollama,
        Self::OpenAiCompatible,
    ];

    /// Every provider: the built-in ones, then the named services.
    pub fn all() -> impl Iterator<Item = ProviderKind> {
        Self::BUILT_IN
            .into_iter()
            .chain(ServiceId::all().map(Self::Service))
            .chain(CliAgent::ALL.map(Self::Cli))
    }

    /// The named service's facts, for a named service.
    pub fn service(self) -> Option<&'static Service> {
        match self {
            Self::Service(id) => Some(id.get()),
            _ => None,
        }
    }

    /// The command-line agent, for one.
    pub fn cli(self) -> Option<CliAgent> {
        match self {
            Self::Cli(agent) => Some(agent),
            _ => None,
        }
    }

    /// The protocol its requests speak.
    pub fn wire(self) -> Wire {
        match self {
            Self::OpenAi => Wire::Responses,
            Self::Anthropic => Wire::Anthropic,
            Self::Gemini => Wire::Gemini,
            Self::Ollama => Wire::Ollama,
            Self::OpenAiCompatible => Wire::ChatCompletions,
            Self::Service(id) if id.get().name == "azure" => Wire::Azure,
            Self::Service(_) => Wire::ChatCompletions,
            Self::Cli(_) => Wire::Cli,
        }
    }

    /// The canonical name, as written in config files.
    pub fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
            Self::Ollama => "ollama",
            Self::OpenAiCompatible => "openai-compatible",
            Self::Service(id) => id.get().name.as_str(),
            Self::Cli(agent) => agent.name(),
        }
    }

    /// Parses a provider name: the canonical ones, `google` for Gemini, a named service; any
    /// case, `_` for `-`.
    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim().to_ascii_lowercase().replace('_', "-");
        match name.as_str() {
            "openai" => Some(Self::OpenAi),
            "anthropic" => Some(Self::Anthropic),
            "gemini" | "google" => Some(Self::Gemini),
            "ollama" => Some(Self::Ollama),
            "openai-compatible" => Some(Self::OpenAiCompatible),
            other => ServiceId::find(other)
                .map(Self::Service)
                .or_else(|| CliAgent::parse(other).map(Self::Cli)),
        }
    }

    /// The names a user may write, for error messages.
    pub fn names() -> String {
        let mut names: Vec<&str> = vec!["openai", "anthropic", "gemini (or google)", "ollama"];
        names.extend(crate::service::all().iter().map(|s| s.name.as_str()));
        names.push("openai-compatible");
        names.extend(CliAgent::ALL.map(CliAgent::name));
        names.join(", ")
    }

    /// " (did you mean 'openrouter'?)" for a misspelt provider `name`, or nothing.
    pub fn did_you_mean(name: &str) -> String {
        let name = name.trim().to_ascii_lowercase().replace('_', "-");
        iris_studio_core::suggest::did_you_mean(&name, Self::all().map(Self::name))
    }

    /// Whether requests are refused without a key. Local servers (Ollama, most OpenAI-compatible
    /// ones) need none.
    pub fn requires_api_key(self) -> bool {
        match self {
            Self::OpenAi | Self::Anthropic | Self::Gemini => true,
            Self::Ollama | Self::OpenAiCompatible | Self::Cli(_) => false,
            Self::Service(id) => id.get().key_required,
        }
    }

    /// The environment variables that hold this provider's key, in the order they are read.
    /// `openai-compatible` borrows OpenAI's (see [`super::Config::load`] for how).
    pub fn api_key_vars(self) -> Vec<&'static str> {
        match self {
            Self::OpenAi | Self::OpenAiCompatible => vec!["OPENAI_API_KEY"],
            Self::Anthropic => vec!["ANTHROPIC_API_KEY"],
            Self::Gemini => vec!["GEMINI_API_KEY", "GOOGLE_API_KEY"],
            Self::Ollama | Self::Cli(_) => Vec::new(),
            Self::Service(id) => Some(id.get().key_var.as_str())
                .filter(|var| !var.is_empty())
                .into_iter()
                .collect(),
        }
    }

    /// The environment variable that holds this provider's base URL, if one does.
    pub fn base_url_var(self) -> Option<&'static str> {
        match self {
            Self::OpenAi | Self::OpenAiCompatible => Some("OPENAI_BASE_URL"),
            Self::Anthropic => Some("ANTHROPIC_BASE_URL"),
            Self::Gemini => Some("GEMINI_BASE_URL"),
            Self::Ollama => Some("OLLAMA_HOST"),
            Self::Service(id) => Some(id.get().base_url_var.as_str()).filter(|v| !v.is_empty()),
            Self::Cli(_) => None,
        }
    }

    /// Where requests go when no base URL is configured: `None` for a vendor's own endpoint
    /// (which its client knows) and for `openai-compatible` and Azure, which have none.
    pub fn default_base_url(self) -> Option<&'static str> {
        match self {
            Self::Ollama => Some("http://127.0.0.1:11434"),
            Self::Service(id) => Some(id.get().base_url.as_str()).filter(|u| !u.is_empty()),
            _ => None,
        }
    }

    /// Whether the provider cannot work without a base URL from the user.
    pub fn needs_base_url(self) -> bool {
        matches!(self.wire(), Wire::ChatCompletions | Wire::Azure)
            && self.default_base_url().is_none()
    }

    /// The main model used when none is configured; empty for `openai-compatible`, whose
    /// models are whatever its server serves, and for services without a default.
    pub fn default_model(self) -> &'static str {
        match self {
            Self::OpenAi => "gpt-5",
            Self::Anthropic => "claude-sonnet-4-5",
            Self::Gemini => "gemini-2.5-pro",
            Self::Ollama => "llama3.1",
            Self::OpenAiCompatible => "",
            Self::Service(id) => id.get().model.as_str(),
            Self::Cli(_) => CLI_DEFAULT_MODEL,
        }
    }

    /// The fast model (for subagents) used when none is configured; for `openai-compatible`
    /// the main model stands in.
    pub fn default_fast_model(self) -> &'static str {
        match self {
            Self::OpenAi => "gpt-5-mini",
            Self::Anthropic => "claude-haiku-4-5",
            Self::Gemini => "gemini-2.5-flash",
            Self::Ollama => "llama3.2",
            Self::OpenAiCompatible => "",
            Self::Cli(_) => CLI_DEFAULT_MODEL,
            Self::Service(id) => {
                let service = id.get();
                if service.fast_model.is_empty() {
                    service.model.as_str()
                } else {
                    service.fast_model.as_str()
                }
            }
        }
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProviderKind {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s).ok_or_else(|| {
            ConfigError(format!(
                "unknown provider `{}`{}; the providers are: {}",
                s.trim(),
                Self::did_you_mean(s),
                Self::names()
            ))
        })
    }
}

/// One provider's settings, resolved: defaults are filled in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProviderSettings {
    /// The main model. Empty only for `openai-compatible` (and a service without a default)
    /// when none is configured: see [`super::Config::require_model`].
    pub model: String,
    /// The model for subagents.
    pub fast_model: String,
    /// `None`: the provider's own endpoint.
    pub base_url: Option<String>,
    /// The API key, from a config file or the environment; `None`: no key.
    pub api_key: Option<Secret>,
    /// The prices the user set, in millionths of a dollar per million tokens (over the
    /// built-in table).
    pub price_input: Option<u64>,
    /// The output price the user set, in the same unit.
    pub price_output: Option<u64>,
    /// `local = true|false`: whether the server is local, over what its address says.
    pub local: Option<bool>,
    /// `reasoning_effort`: how hard a reasoning model thinks (`low`, `medium`, `high`), sent
    /// as the provider's wire names it; `None`: the model's default.
    pub reasoning_effort: Option<String>,
}

impl ProviderSettings {
    /// The settings of `kind` when nothing is configured: its default models, no key, its
    /// own endpoint.
    pub fn defaults(kind: ProviderKind) -> Self {
        Self {
            model: kind.default_model().to_string(),
            fast_model: kind.default_fast_model().to_string(),
            ..Self::default()
        }
    }
}

/// The settings of every provider, so that switching provider keeps each one's models and keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Providers(BTreeMap<ProviderKind, ProviderSettings>);

impl Providers {
    /// The settings of provider `kind`.
    pub fn get(&self, kind: ProviderKind) -> &ProviderSettings {
        static NONE: ProviderSettings = ProviderSettings {
            model: String::new(),
            fast_model: String::new(),
            base_url: None,
            api_key: None,
            price_input: None,
            price_output: None,
            local: None,
            reasoning_effort: None,
        };
        // Every kind is filled in by `default`; NONE only keeps this free of a panic.
        self.0.get(&kind).unwrap_or(&NONE)
    }

    /// The settings of provider `kind`, to change.
    pub fn get_mut(&mut self, kind: ProviderKind) -> &mut ProviderSettings {
        self.0
            .entry(kind)
            .or_insert_with(|| ProviderSettings::defaults(kind))
    }
}

impl Default for Providers {
    fn default() -> Self {
        Self(
            ProviderKind::all()
                .map(|kind| (kind, ProviderSettings::defaults(kind)))
                .collect(),
        )
    }
}

/// `OLLAMA_HOST` the way Ollama itself reads it: the scheme defaults to http, the host to
/// 127.0.0.1 and the port (for http) to 11434, so "localhost:11434", "0.0.0.0" and
/// "https://ollama.example" all work.
pub fn ollama_host_url(host: &str) -> String {
    let host = host.trim().trim_end_matches('/');
    let (scheme, rest) = match host.split_once("://") {
        Some((scheme, rest)) => (scheme.to_ascii_lowercase(), rest),
        None => ("http".to_string(), host),
    };
    let (authority, path) = match rest.find('/') {
        Some(slash) => rest.split_at(slash),
        None => (rest, ""),
    };
    let authority = if authority.is_empty() {
        "127.0.0.1"
    } else {
        authority
    };
    // A port follows the last ':' unless that colon is inside an IPv6 literal's brackets.
    let has_port = authority
        .rsplit_once(':')
        .is_some_and(|(_, port)| !port.is_empty() && !port.contains(']'));
    let port = if has_port || scheme != "http" {
        ""
    } else {
        ":11434"
    };
    format!("{scheme}://{authority}{port}{path}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_google_is_gemini() {
        for kind in ProviderKind::all() {
            assert_eq!(ProviderKind::parse(kind.name()), Some(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!(ProviderKind::parse("google"), Some(ProviderKind::Gemini));
        assert_eq!(
            ProviderKind::parse(" OpenAI_Compatible "),
            Some(ProviderKind::OpenAiCompatible)
        );
        let err = "openruoter".parse::<ProviderKind>().unwrap_err();
        assert!(
            err.0
                .starts_with("unknown provider `openruoter` (did you mean 'openrouter'?)"),
            "{err}"
        );
        let err = "claude".parse::<ProviderKind>().unwrap_err();
        assert!(err.0.contains("unknown provider `claude`"), "{err}");
        assert!(err.0.contains("openai-compatible"), "{err}");
    }

    #[test]
    fn ollama_host_gets_a_scheme_and_port_when_it_lacks_them() {
        assert_eq!(ollama_host_url("localhost:11434"), "http://localhost:11434");
        assert_eq!(ollama_host_url("0.0.0.0"), "http://0.0.0.0:11434");
        assert_eq!(ollama_host_url(""), "http://127.0.0.1:11434");
        assert_eq!(
            ollama_host_url("http://gpu-box:8080/"),
            "http://gpu-box:8080"
        );
        assert_eq!(
            ollama_host_url("https://ollama.example.com"),
            "https://ollama.example.com"
        );
        assert_eq!(ollama_host_url("[::1]"), "http://[::1]:11434");
        assert_eq!(ollama_host_url("[::1]:9000"), "http://[::1]:9000");
        assert_eq!(
            ollama_host_url("example.com/ollama"),
            "http://example.com:11434/ollama"
        );
    }
}
