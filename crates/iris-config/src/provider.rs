//! The LLM providers Iris can talk to, their default models and their environment variables.

use std::fmt;
use std::str::FromStr;

use super::{ConfigError, Secret};

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
}

impl ProviderKind {
    /// A server the user runs (Ollama, or any Chat Completions server such as llama.cpp):
    /// usually a small model on a CPU.
    pub fn is_local(self) -> bool {
        matches!(self, Self::Ollama | Self::OpenAiCompatible)
    }

    /// Every provider, in the order `iris config` lists their settings.
    pub const ALL: [ProviderKind; 5] = [
        Self::OpenAi,
        Self::Anthropic,
        Self::Gemini,
        Self::Ollama,
        Self::OpenAiCompatible,
    ];

    /// The canonical name, as written in config files.
    pub fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
            Self::Ollama => "ollama",
            Self::OpenAiCompatible => "openai-compatible",
        }
    }

    /// Parses a provider name: the canonical ones, `google` for Gemini; any case, `_` for `-`.
    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim().to_ascii_lowercase().replace('_', "-");
        match name.as_str() {
            "openai" => Some(Self::OpenAi),
            "anthropic" => Some(Self::Anthropic),
            "gemini" | "google" => Some(Self::Gemini),
            "ollama" => Some(Self::Ollama),
            "openai-compatible" => Some(Self::OpenAiCompatible),
            _ => None,
        }
    }

    /// The names a user may write, for error messages.
    pub const NAMES: &'static str =
        "openai, anthropic, gemini (or google), ollama, openai-compatible";

    /// Whether requests are refused without a key. Local servers (Ollama, most OpenAI-compatible
    /// ones) need none.
    pub fn requires_api_key(self) -> bool {
        matches!(self, Self::OpenAi | Self::Anthropic | Self::Gemini)
    }

    /// The environment variables that hold this provider's key, in the order they are read.
    /// `openai-compatible` borrows OpenAI's (see [`super::Config::load`] for how).
    pub fn api_key_vars(self) -> &'static [&'static str] {
        match self {
            Self::OpenAi | Self::OpenAiCompatible => &["OPENAI_API_KEY"],
            Self::Anthropic => &["ANTHROPIC_API_KEY"],
            Self::Gemini => &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
            Self::Ollama => &[],
        }
    }

    /// The environment variable that holds this provider's base URL.
    pub fn base_url_var(self) -> &'static str {
        match self {
            Self::OpenAi | Self::OpenAiCompatible => "OPENAI_BASE_URL",
            Self::Anthropic => "ANTHROPIC_BASE_URL",
            Self::Gemini => "GEMINI_BASE_URL",
            Self::Ollama => "OLLAMA_HOST",
        }
    }

    /// The main model used when none is configured; empty for `openai-compatible`, whose
    /// models are whatever its server serves.
    pub fn default_model(self) -> &'static str {
        match self {
            Self::OpenAi => "gpt-5",
            Self::Anthropic => "claude-sonnet-4-5",
            Self::Gemini => "gemini-2.5-pro",
            Self::Ollama => "llama3.1",
            Self::OpenAiCompatible => "",
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
                "unknown provider `{}`; the providers are: {}",
                s.trim(),
                Self::NAMES
            ))
        })
    }
}

/// One provider's settings, resolved: defaults are filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    /// The main model. Empty only for `openai-compatible` when none is configured: see
    /// [`super::Config::require_model`].
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
}

impl ProviderSettings {
    /// The settings of `kind` when nothing is configured: its default models, no key, its
    /// own endpoint.
    pub fn defaults(kind: ProviderKind) -> Self {
        Self {
            model: kind.default_model().to_string(),
            fast_model: kind.default_fast_model().to_string(),
            base_url: None,
            api_key: None,
            price_input: None,
            price_output: None,
        }
    }
}

/// The settings of every provider, so that switching provider keeps each one's models and keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Providers {
    /// `[providers.openai]`.
    pub openai: ProviderSettings,
    /// `[providers.anthropic]`.
    pub anthropic: ProviderSettings,
    /// `[providers.gemini]`.
    pub gemini: ProviderSettings,
    /// `[providers.ollama]`.
    pub ollama: ProviderSettings,
    /// `[providers.openai-compatible]`.
    pub openai_compatible: ProviderSettings,
}

impl Providers {
    /// The settings of provider `kind`.
    pub fn get(&self, kind: ProviderKind) -> &ProviderSettings {
        match kind {
            ProviderKind::OpenAi => &self.openai,
            ProviderKind::Anthropic => &self.anthropic,
            ProviderKind::Gemini => &self.gemini,
            ProviderKind::Ollama => &self.ollama,
            ProviderKind::OpenAiCompatible => &self.openai_compatible,
        }
    }

    /// The settings of provider `kind`, to change.
    pub fn get_mut(&mut self, kind: ProviderKind) -> &mut ProviderSettings {
        match kind {
            ProviderKind::OpenAi => &mut self.openai,
            ProviderKind::Anthropic => &mut self.anthropic,
            ProviderKind::Gemini => &mut self.gemini,
            ProviderKind::Ollama => &mut self.ollama,
            ProviderKind::OpenAiCompatible => &mut self.openai_compatible,
        }
    }
}

impl Default for Providers {
    fn default() -> Self {
        Self {
            openai: ProviderSettings::defaults(ProviderKind::OpenAi),
            anthropic: ProviderSettings::defaults(ProviderKind::Anthropic),
            gemini: ProviderSettings::defaults(ProviderKind::Gemini),
            ollama: ProviderSettings::defaults(ProviderKind::Ollama),
            openai_compatible: ProviderSettings::defaults(ProviderKind::OpenAiCompatible),
        }
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
        for kind in ProviderKind::ALL {
            assert_eq!(ProviderKind::parse(kind.name()), Some(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!(ProviderKind::parse("google"), Some(ProviderKind::Gemini));
        assert_eq!(
            ProviderKind::parse(" OpenAI_Compatible "),
            Some(ProviderKind::OpenAiCompatible)
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
