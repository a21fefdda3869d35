//! The provider: configured (which, what model, where), its key, and its server answering. A
//! server on this machine is asked for its models at once (setup's probe: loopback only, a
//! short deadline); a hosted one only with `--online`, by the same free request (listing the
//! models) made with the key and the address a run uses.

use std::path::PathBuf;
use std::time::Duration;

use iris_agent::runtime::models::{Lister, list_models};
use iris_config::{Config, Missing, NotConfigured, ProviderKind, Wire};

use super::check::Check;
use crate::probe::{ProbeApi, ServerAddress, probe};

/// How long a server on this machine has to list its models.
pub const LOCAL_DEADLINE: Duration = Duration::from_secs(3);
/// How long a hosted provider has to list its models (`--online`).
pub const ONLINE_DEADLINE: Duration = Duration::from_secs(10);

const PROVIDER: &str = "provider";
const KEY: &str = "api key";
const SERVER: &str = "server";

/// What was learnt of the provider.
#[derive(Debug)]
pub struct ProviderFacts {
    /// The configuration, or why it does not load.
    pub config: Result<Config, String>,
    /// Whether a config file's check already says why it does not load.
    pub files_broken: bool,
    /// What asking the server gave.
    pub reach: Reach,
}

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
        .is_some_and(|url| iris_config::setup::is_loopback(&url));
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
                found: iris_process::find_on_path(name, &path),
            }
        }
    }
}

/// The provider's checks: configured, its key, its server. A configuration that does not
/// load gives the first alone.
pub fn checks(facts: &ProviderFacts) -> Vec<Check> {
    let config = match &facts.config {
        Ok(config) => config,
        Err(_) if facts.files_broken => {
            return vec![Check::warning(
                PROVIDER,
                "not checked: the configuration does not load (above)",
                "correct the config file above first",
            )];
        }
        Err(why) => {
            return vec![Check::problem(
                PROVIDER,
                format!("the configuration does not load: {why}"),
                "correct it; `iris config` shows each setting and where it comes from",
            )];
        }
    };
    vec![provider(config), key(config), server(config, &facts.reach)]
}

fn provider(config: &Config) -> Check {
    let kind = config.provider;
    let model = match config.require_model() {
        Ok(model) => model,
        Err(missing) => return not_configured(PROVIDER, &missing),
    };
    let locality = config.locality();
    let place = match config.base_url() {
        Ok(Some(url)) => {
            let local = if locality.local { "local" } else { "hosted" };
            format!("{url} ({local}: {})", locality.why)
        }
        Ok(None) => format!("{kind}'s own endpoint (hosted)"),
        Err(missing) => return not_configured(PROVIDER, &missing),
    };
    Check::ok(PROVIDER, format!("{kind}, model {model}, at {place}"))
}

fn key(config: &Config) -> Check {
    let kind = config.provider;
    if let Some(agent) = kind.cli() {
        return Check::ok(
            KEY,
            format!("none needed: `{}` signs in itself", agent.program()),
        );
    }
    match config.api_key() {
        Ok(Some(key)) => {
            let from = config
                .api_key_source()
                .map(|source| format!(" (from {source})"))
                .unwrap_or_default();
            Check::ok(KEY, format!("{}{from}", key.hint()))
        }
        Ok(None) => Check::ok(KEY, format!("none set ({kind} is asked without one)")),
        Err(missing) => not_configured(KEY, &missing),
    }
}

fn server(config: &Config, reach: &Reach) -> Check {
    let model = config.provider_settings().model.as_str();
    match reach {
        Reach::NotChecked(why) => Check::warning(
            SERVER,
            format!("not asked: {why} (above)"),
            "correct the provider's settings above first",
        ),
        Reach::Offline => Check::ok(
            SERVER,
            "hosted: not asked (`iris doctor --online` asks it for its models, which costs \
             nothing)",
        ),
        Reach::Unlistable => Check::ok(
            SERVER,
            format!(
                "not asked: {} has no model list to ask for",
                config.provider
            ),
        ),
        Reach::Local { url, models: None } => Check::problem(
            SERVER,
            format!(
                "no answer from {url} within {} s: is the server running?",
                LOCAL_DEADLINE.as_secs()
            ),
            start_server(config.provider),
        ),
        Reach::Local {
            url,
            models: Some(models),
        } => listing(config, url, model, models),
        Reach::Online {
            url,
            listed: Ok(models),
        } => listing(config, url, model, models),
        Reach::Online {
            url,
            listed: Err(why),
        } => Check::problem(
            SERVER,
            format!("{url} did not list its models: {why}"),
            "check the key and the address (`iris config` shows where each comes from)",
        ),
        Reach::Program { name, found: None } => Check::problem(
            SERVER,
            format!("`{name}` is not on PATH"),
            config
                .provider
                .cli()
                .map_or_else(String::new, |agent| agent.install().to_string()),
        ),
        Reach::Program {
            name,
            found: Some(path),
        } => Check::ok(SERVER, format!("`{name}` at {}", path.display())),
    }
}

/// The server answered with `models`: ok when `model` is among them.
fn listing(config: &Config, url: &str, model: &str, models: &[String]) -> Check {
    if models.iter().any(|listed| names(listed, model)) {
        return Check::ok(
            SERVER,
            format!("{url} answers and lists {model} ({} models)", models.len()),
        );
    }
    let kind = config.provider;
    let set = format!("`iris config set {kind}.model NAME` with one it lists");
    if models.is_empty() {
        return Check::warning(
            SERVER,
            format!("{url} answers, but lists no models"),
            match kind.wire() {
                Wire::Ollama => format!("`ollama pull {model}`"),
                _ => format!("load {model} in the server, or {set}"),
            },
        );
    }
    let shown: Vec<&str> = models.iter().take(5).map(String::as_str).collect();
    let more = if models.len() > shown.len() {
        ", ..."
    } else {
        ""
    };
    Check::warning(
        SERVER,
        format!(
            "{url} answers, but does not list {model} (it lists {}{more})",
            shown.join(", ")
        ),
        match kind.wire() {
            Wire::Ollama => format!("`ollama pull {model}`, or {set}"),
            _ => set,
        },
    )
}

/// Whether `listed` (as a server lists it) is `model`: Ollama adds `:latest`, Gemini
/// `models/`.
fn names(listed: &str, model: &str) -> bool {
    listed == model
        || listed.strip_suffix(":latest") == Some(model)
        || listed.strip_prefix("models/") == Some(model)
}

fn start_server(kind: ProviderKind) -> String {
    let point = format!("or point Iris at it: `iris config set {kind}.base_url URL`");
    match kind.wire() {
        Wire::Ollama => format!("start it (`ollama serve`), {point}"),
        _ => format!("start the server, {point}"),
    }
}

/// A check of what the provider lacks: what, and what to set.
fn not_configured(check: &'static str, missing: &NotConfigured) -> Check {
    let what = match missing.missing {
        Missing::ApiKey => "no API key",
        Missing::Model => "no model",
        Missing::BaseUrl => "no base URL",
    };
    Check::problem(
        check,
        format!("{what} for {}", missing.provider),
        missing.fix(),
    )
}

#[cfg(test)]
mod tests;
