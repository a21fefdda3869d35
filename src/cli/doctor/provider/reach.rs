//! What is asked of the provider's server, decided from the configuration alone ([`ask`]),
//! and the asking ([`reach`]), each within its deadline: a server on this machine for its
//! models (setup's probe: loopback only), a hosted one only with `--online`, by the same free
//! request made with the key and the address a run uses, a command-line agent's program on
//! PATH.

use std::path::PathBuf;
use std::time::Duration;

use iris_studio_agent::runtime::models::{Lister, list_models};
use iris_studio_config::{Config, ProviderKind, Wire};

use crate::probe::{ProbeApi, ServerAddress, probe};

/// How long a server on this machine has to list its models.
pub const LOCAL_DEADLINE: Duration = Duration::from_secs(3);
/// How long a hosted provider has to list its models (`--online`).
pub const ONLINE_DEADLINE: Duration = Duration::from_secs(10);

/// What to ask, decided from the configuration alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Nothing, and why not.
    Nothing(Reach),
    /// A server on this machine, for its models.
    Local(String, ProbeApi),
    /// A provider elsewhere, for its models, with its key (`--online`).
    Online {
        kind: ProviderKind,
        base_url: Option<String>,
        key: Option<String>,
    },
    /// A command-line agent: its program on PATH.
    Program(&'static str),
}

/// What asking gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Not asked, and why (something above is missing).
    NotChecked(String),
    /// Hosted, and `--online` was not given.
    Offline,
    /// The provider has no model list to ask for.
    Unlistable,
    /// A server on this machine: the models it lists, `None` when it did not answer.
    Local {
        url: String,
        models: Option<Vec<String>>,
    },
    /// Asked online: the models listed, or why not.
    Online {
        url: String,
        listed: Result<Vec<String>, String>,
    },
    /// A command-line agent's program, found on PATH or not.
    Program {
        name: &'static str,
        found: Option<PathBuf>,
    },
}

/// What to ask of `config`'s provider: its server when it is on this machine, the vendor only
/// when `online`.
pub fn ask(config: &Config, online: bool) -> Ask {
    let kind = config.provider;
    if let Some(agent) = kind.cli() {
        return Ask::Program(agent.program());
    }
    let base_url = match config.base_url() {
        Ok(url) => url.map(str::to_string),
        Err(_) => return Ask::Nothing(Reach::NotChecked("it has no address".into())),
    };
    let loopback = base_url
        .as_deref()
        .and_then(|url| reqwest::Url::parse(url).ok())
        .is_some_and(|url| iris_studio_config::setup::is_loopback(&url));
    match kind.wire() {
        Wire::Ollama if loopback => return local(base_url, ProbeApi::OllamaTags),
        Wire::ChatCompletions if loopback => return local(base_url, ProbeApi::OpenAiModels),
        _ if !online => return Ask::Nothing(Reach::Offline),
        Wire::Azure => return Ask::Nothing(Reach::Unlistable),
        _ => {}
    }
    match config.api_key() {
        Ok(key) => Ask::Online {
            kind,
            base_url,
            key: key.map(|k| k.expose().to_string()),
        },
        Err(_) => Ask::Nothing(Reach::NotChecked("it has no API key".into())),
    }
}

fn local(base_url: Option<String>, api: ProbeApi) -> Ask {
    Ask::Local(base_url.unwrap_or_default(), api)
}

/// Asks what [`ask`] decided, within its deadline.
pub async fn reach(ask: Ask) -> Reach {
    match ask {
        Ask::Nothing(reach) => reach,
        Ask::Local(url, api) => {
            let address = ServerAddress {
                label: "the configured server",
                provider: ProviderKind::OpenAiCompatible,
                base_url: url.clone(),
                api,
            };
            let answered = probe(&[address], LOCAL_DEADLINE).await;
            Reach::Local {
                url,
                models: answered.into_iter().next().map(|server| server.models),
            }
        }
        Ask::Online {
            kind,
            base_url,
            key,
        } => {
            let lister = Lister {
                kind,
                base_url: base_url.as_deref(),
                api_key: key.as_deref(),
            };
            let listed = list_models(lister, ONLINE_DEADLINE)
                .await
                .map_err(|e| format!("{e:#}"));
            Reach::Online {
                url: base_url.unwrap_or_else(|| format!("{kind}'s own endpoint")),
                listed,
            }
        }
        Ask::Program(name) => {
            let path = std::env::var_os("PATH").unwrap_or_default();
            Reach::Program {
                name,
                found: iris_studio_process::find_on_path(name, &path),
            }
        }
    }
}
