//! The provider: configured (which, what model, where), its key, and its server answering
//! (asked as [`reach`] says: a server on this machine at once, a hosted one only with
//! `--online`).

mod reach;

use iris_studio_config::{Config, Missing, NotConfigured, ProviderKind, Wire};

use super::check::Check;
use reach::LOCAL_DEADLINE;
pub use reach::{Reach, ask, reach};

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
            "check the network, the key and the address (`iris config` shows where each comes \
             from)",
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
