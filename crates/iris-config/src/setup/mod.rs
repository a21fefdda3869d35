//! First-run setup: find the model servers running on this machine, let the user choose one
//! (or a hosted provider and its key), and write that choice into the user's config file.
//!
//! The pieces are shared by `iris config init` on the command line and the studio's setup
//! overlay: the binary's probe lists the [`LocalServer`]s that answer on loopback (only where
//! [`is_loopback`] says so), a [`Choice`] is what the user picked, [`Choice::lines`] shows it (key masked) for confirmation and [`write_choice`]
//! writes it.

mod choice;

use std::net::IpAddr;

use url::Url;

use crate::{EnvLookup, ProviderKind};

pub use crate::{Assignment, ConfigError};
pub use choice::{Choice, write_choice};

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

/// The hosted providers setup offers, in the order it lists them: OpenAI, Anthropic and
/// Gemini, then the hosted named services. Each needs an API key; its model defaults to
/// [`ProviderKind::default_model`] (Azure has none: the user names the deployment, and gives
/// its address, [`ProviderKind::needs_base_url`]).
pub fn hosted() -> Vec<ProviderKind> {
    [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ]
    .into_iter()
    .chain(
        ProviderKind::all()
            .filter(|kind| kind.service().is_some_and(|s| !s.local && s.key_required)),
    )
    .collect()
}

/// The address of an OpenAI-compatible server as the user typed it, checked: an `http` or
/// `https` URL with a host (`http://10.0.0.5:8000/v1`), without a trailing slash; else why not.
pub fn server_url(typed: &str) -> Result<String, String> {
    let typed = typed.trim();
    let url = Url::parse(typed).map_err(|e| {
        format!("'{typed}' is not a URL ({e}): type it whole, as http://host:port/v1")
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(format!(
            "'{typed}' is not an http or https address: type it as http://host:port/v1"
        ));
    }
    Ok(typed.trim_end_matches('/').to_string())
}

/// Choosing an OpenAI-compatible server by its address (from [`server_url`]) and the model it
/// serves; no key stored (`OPENAI_API_KEY` is read when the server wants one).
pub fn server_choice(base_url: &str, model: &str) -> Choice {
    Choice {
        provider: ProviderKind::OpenAiCompatible,
        model: model.trim().to_string(),
        base_url: Some(base_url.to_string()),
        api_key: None,
    }
}

/// Choosing a command-line agent: its provider and the CLI's own model, no key.
pub fn cli_choice(kind: ProviderKind) -> Choice {
    Choice {
        provider: kind,
        model: crate::CLI_DEFAULT_MODEL.to_string(),
        base_url: None,
        api_key: None,
    }
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

/// Whether a URL's host is this machine: `localhost` or a loopback IP (127.0.0.0/8, `::1`).
pub fn is_loopback(url: &Url) -> bool {
    match host_ip(url) {
        Some(ip) => ip.is_loopback(),
        None => url
            .host_str()
            .is_some_and(|host| host.eq_ignore_ascii_case("localhost")),
    }
}

/// A URL's host as an IP address (brackets of an IPv6 literal dropped), when it is one.
pub fn host_ip(url: &Url) -> Option<IpAddr> {
    let host = url.host_str()?;
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_servers_address_is_an_http_url_with_a_host() {
        assert_eq!(
            server_url(" http://10.0.0.5:8000/v1/ ").as_deref(),
            Ok("http://10.0.0.5:8000/v1")
        );
        assert!(
            server_url("localhost:8000")
                .unwrap_err()
                .contains("http://host:port/v1")
        );
        assert!(server_url("10.0.0.5:8000").is_err());
        assert!(server_url("ftp://host/v1").is_err());
        let chosen = server_choice("http://10.0.0.5:8000/v1", " qwen3 ");
        assert_eq!(
            chosen.lines(),
            [
                "provider = \"openai-compatible\"",
                "providers.openai-compatible.model = \"qwen3\"",
                "providers.openai-compatible.fast_model = \"qwen3\"",
                "providers.openai-compatible.base_url = \"http://10.0.0.5:8000/v1\"",
            ]
        );
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
