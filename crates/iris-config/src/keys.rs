//! Every configuration key, what values it takes and where it may be set.
//!
//! One table drives the config files, the environment, the flags and `iris config set`, so a
//! key is checked the same way wherever it comes from, and error messages never quote a secret.

use super::{ProviderKind, Secret};

/// How a secret value (an API key) is shown, as TOML: never its text.
pub const MASKED: &str = "\"****\"";

/// A configuration key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConfigKey {
    Provider,
    Preset,
    Gitmoji,
    Instructions,
    CriticEnabled,
    MaxTurns,
    SubagentTimeoutSecs,
    SubagentMaxTurns,
    RequestTimeoutSecs,
    RunTimeoutSecs,
    MaxOutputTokens,
    SubagentMaxOutputTokens,
    StructuredOutput,
    ExplainMaxReads,
    TrustRepo,
    SafetyMode,
    SecretScan,
    StudioAutoGenerate,
    Theme,
    Language,
    ReviewMinConfidence,
    ReviewVerify,
    /// The issue a branch is for is read through `gh`/`glab` into the request (`linked_issues`).
    LinkedIssues,
    /// The hook writes a new message on `git commit --amend` (`hook_on_amend`).
    HookOnAmend,
    MaxCostPerRun,
    /// The trailer that says Iris helped (`Assisted-by`), `none`, or unset.
    AttributionTrailer,
    /// What the user asked their coding agent (its sessions) goes in the request
    /// (`agent_sessions`).
    AgentSessions,
    Model(ProviderKind),
    FastModel(ProviderKind),
    BaseUrl(ProviderKind),
    ApiKey(ProviderKind),
    /// US dollars per million input tokens, over the built-in price table.
    PriceInput(ProviderKind),
    /// US dollars per million output tokens, over the built-in price table.
    PriceOutput(ProviderKind),
    /// Whether the provider's server is local, over what its address says.
    Local(ProviderKind),
    /// How hard a reasoning model thinks.
    ReasoningEffort(ProviderKind),
}

/// The keys at the top of a file, in the order `iris config` shows them.
const TOP: [ConfigKey; 27] = [
    ConfigKey::Provider,
    ConfigKey::Preset,
    ConfigKey::Gitmoji,
    ConfigKey::Instructions,
    ConfigKey::CriticEnabled,
    ConfigKey::MaxTurns,
    ConfigKey::SubagentTimeoutSecs,
    ConfigKey::SubagentMaxTurns,
    ConfigKey::RequestTimeoutSecs,
    ConfigKey::RunTimeoutSecs,
    ConfigKey::MaxOutputTokens,
    ConfigKey::SubagentMaxOutputTokens,
    ConfigKey::StructuredOutput,
    ConfigKey::ExplainMaxReads,
    ConfigKey::TrustRepo,
    ConfigKey::SafetyMode,
    ConfigKey::SecretScan,
    ConfigKey::StudioAutoGenerate,
    ConfigKey::Theme,
    ConfigKey::Language,
    ConfigKey::ReviewMinConfidence,
    ConfigKey::ReviewVerify,
    ConfigKey::LinkedIssues,
    ConfigKey::HookOnAmend,
    ConfigKey::MaxCostPerRun,
    ConfigKey::AttributionTrailer,
    ConfigKey::AgentSessions,
];

/// The keys of a `[providers.NAME]` table.
pub(crate) const PROVIDER_FIELDS: [&str; 8] = [
    "model",
    "fast_model",
    "base_url",
    "api_key",
    "price_input",
    "price_output",
    "local",
    "reasoning_effort",
];

/// The efforts a reasoning model can be asked for, least first.
pub const EFFORTS: [&str; 5] = ["none", "minimal", "low", "medium", "high"];

/// What values a key takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Provider,
    /// safe, cautious, paranoid or yolo.
    SafetyMode,
    /// Any string, empty included.
    Text,
    /// A non-empty string on one line (a model, a preset).
    Name,
    Bool,
    /// A whole number, at least 1.
    Count,
    /// A whole number from 0 to 100.
    Percent,
    Url,
    Secret,
    /// A price in US dollars per million tokens, 0 or more.
    Price,
    /// How hard a reasoning model thinks: none, minimal, low, medium or high.
    Effort,
}

/// A checked value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Provider(ProviderKind),
    Text(String),
    Bool(bool),
    Count(u64),
    Secret(Secret),
    /// A price in millionths of a US dollar per million tokens (exact, and `Eq`).
    Price(u64),
}

impl ConfigKey {
    /// Every key, top-level ones first, then each provider's.
    pub fn all() -> Vec<ConfigKey> {
        let mut keys = TOP.to_vec();
        for kind in ProviderKind::all() {
            keys.extend(
                PROVIDER_FIELDS
                    .iter()
                    .filter_map(|f| Self::provider_key(kind, f)),
            );
        }
        keys
    }

    /// What the key means, in a line (the reference pages in `docs/reference/` show it).
    pub fn meaning(self) -> &'static str {
        match self {
            ConfigKey::Provider => {
                "the provider Iris talks to: openai, anthropic, gemini (or google), ollama, openai-compatible, a named service (groq, openrouter, ...) or a CLI agent (claude-code, codex, gemini-cli)"
            }
            ConfigKey::Preset => {
                "the writing style: default, conventional, or another preset `iris presets` lists"
            }
            ConfigKey::Gitmoji => "start commit titles with a gitmoji",
            ConfigKey::Instructions => "words added to every request (\"Mention ticket numbers\")",
            ConfigKey::CriticEnabled => {
                "a critic checks reviews, PRs, changelogs and release notes against the evidence and asks for one revision"
            }
            ConfigKey::MaxTurns => "model replies the main agent may take in one run",
            ConfigKey::SubagentTimeoutSecs => {
                "longest a subagent on the fast model may run, in seconds"
            }
            ConfigKey::SubagentMaxTurns => "model replies a subagent may take",
            ConfigKey::RequestTimeoutSecs => {
                "longest a provider keeps Iris waiting for a reply, in seconds"
            }
            ConfigKey::RunTimeoutSecs => {
                "longest a whole run may take (every request, tool and the critic), in seconds"
            }
            ConfigKey::MaxOutputTokens => "the main agent's reply budget, in tokens",
            ConfigKey::SubagentMaxOutputTokens => "a subagent's reply budget, in tokens",
            ConfigKey::StructuredOutput => {
                "ask the provider to keep the artifact to its JSON schema"
            }
            ConfigKey::ExplainMaxReads => "source reads `iris explain` may make on one file",
            ConfigKey::TrustRepo => {
                "let tools run this repository's build scripts and linters (user file only)"
            }
            ConfigKey::SafetyMode => {
                "which tool calls ask first: safe, cautious, paranoid or yolo (user file only)"
            }
            ConfigKey::SecretScan => "withhold secrets from every request (user file only)",
            ConfigKey::StudioAutoGenerate => {
                "the studio writes the artifact when it opens on a change"
            }
            ConfigKey::Theme => {
                "the studio's theme: dark, light, high-contrast, or a file in ~/.config/iris/themes/"
            }
            ConfigKey::Language => {
                "the language Iris writes artifacts and chat replies in (`de`, `French`); empty: English"
            }
            ConfigKey::ReviewMinConfidence => {
                "review findings less sure than this (0-100) are folded away"
            }
            ConfigKey::ReviewVerify => {
                "every review's findings get a second look (one more request)"
            }
            ConfigKey::LinkedIssues => {
                "read the issue the branch is for (and a PR's commits name) through gh/glab into the request"
            }
            ConfigKey::HookOnAmend => {
                "the commit hook writes a new message on `git commit --amend`"
            }
            ConfigKey::MaxCostPerRun => {
                "US dollars one command may spend; requests past it are held back (user file only)"
            }
            ConfigKey::AttributionTrailer => {
                "the trailer that says Iris helped (`Assisted-by`), or none; unset: what AGENTS.md or CONTRIBUTING.md names"
            }
            ConfigKey::AgentSessions => {
                "send what you asked your coding agent while making the change (off; --sessions for one run)"
            }
            ConfigKey::Model(_) => "the model the provider runs",
            ConfigKey::FastModel(_) => "the model subagents run on",
            ConfigKey::BaseUrl(_) => "where the provider's API is (user file only)",
            ConfigKey::ApiKey(_) => {
                "the provider's key (user file only; an environment variable is better)"
            }
            ConfigKey::PriceInput(_) => {
                "US dollars per million input tokens, over assets/prices.toml (user file only)"
            }
            ConfigKey::PriceOutput(_) => "US dollars per million output tokens (user file only)",
            ConfigKey::Local(_) => {
                "whether the provider runs on this machine, when its address does not say (user file only)"
            }
            ConfigKey::ReasoningEffort(_) => {
                "a reasoning model's effort: none, minimal, low, medium or high"
            }
        }
    }

    /// The canonical name: `gitmoji`, `providers.anthropic.model`.
    pub fn name(self) -> String {
        match self.provider_field() {
            Some((kind, field)) => format!("providers.{}.{field}", kind.name()),
            None => self.top_name().to_string(),
        }
    }

    fn top_name(self) -> &'static str {
        match self {
            ConfigKey::Provider => "provider",
            ConfigKey::Preset => "preset",
            ConfigKey::Gitmoji => "gitmoji",
            ConfigKey::Instructions => "instructions",
            ConfigKey::CriticEnabled => "critic_enabled",
            ConfigKey::MaxTurns => "max_turns",
            ConfigKey::SubagentTimeoutSecs => "subagent_timeout_secs",
            ConfigKey::SubagentMaxTurns => "subagent_max_turns",
            ConfigKey::RequestTimeoutSecs => "request_timeout_secs",
            ConfigKey::RunTimeoutSecs => "run_timeout_secs",
            ConfigKey::MaxOutputTokens => "max_output_tokens",
            ConfigKey::SubagentMaxOutputTokens => "subagent_max_output_tokens",
            ConfigKey::StructuredOutput => "structured_output",
            ConfigKey::ExplainMaxReads => "explain_max_reads",
            ConfigKey::TrustRepo => "trust_repo",
            ConfigKey::SafetyMode => "safety_mode",
            ConfigKey::SecretScan => "secret_scan",
            ConfigKey::StudioAutoGenerate => "studio_auto_generate",
            ConfigKey::Theme => "theme",
            ConfigKey::Language => "language",
            ConfigKey::ReviewMinConfidence => "review_min_confidence",
            ConfigKey::ReviewVerify => "review_verify",
            ConfigKey::LinkedIssues => "linked_issues",
            ConfigKey::HookOnAmend => "hook_on_amend",
            ConfigKey::MaxCostPerRun => "max_cost_per_run",
            ConfigKey::AttributionTrailer => "attribution_trailer",
            ConfigKey::AgentSessions => "agent_sessions",
            ConfigKey::Model(_) => "model",
            ConfigKey::FastModel(_) => "fast_model",
            ConfigKey::BaseUrl(_) => "base_url",
            ConfigKey::ApiKey(_) => "api_key",
            ConfigKey::PriceInput(_) => "price_input",
            ConfigKey::PriceOutput(_) => "price_output",
            ConfigKey::Local(_) => "local",
            ConfigKey::ReasoningEffort(_) => "reasoning_effort",
        }
    }

    /// The provider and field name of a provider key.
    pub fn provider_field(self) -> Option<(ProviderKind, &'static str)> {
        match self {
            ConfigKey::Model(kind)
            | ConfigKey::FastModel(kind)
            | ConfigKey::BaseUrl(kind)
            | ConfigKey::ApiKey(kind)
            | ConfigKey::PriceInput(kind)
            | ConfigKey::PriceOutput(kind)
            | ConfigKey::Local(kind)
            | ConfigKey::ReasoningEffort(kind) => Some((kind, self.top_name())),
            _ => None,
        }
    }

    /// A top-level key by its name in a file.
    pub fn top(name: &str) -> Option<ConfigKey> {
        TOP.into_iter().find(|k| k.top_name() == name)
    }

    /// A provider key by its field name in a `[providers.NAME]` table.
    pub fn provider_key(kind: ProviderKind, field: &str) -> Option<ConfigKey> {
        match field {
            "model" => Some(ConfigKey::Model(kind)),
            "fast_model" => Some(ConfigKey::FastModel(kind)),
            "base_url" => Some(ConfigKey::BaseUrl(kind)),
            "api_key" => Some(ConfigKey::ApiKey(kind)),
            "price_input" => Some(ConfigKey::PriceInput(kind)),
            "price_output" => Some(ConfigKey::PriceOutput(kind)),
            "local" => Some(ConfigKey::Local(kind)),
            "reasoning_effort" => Some(ConfigKey::ReasoningEffort(kind)),
            _ => None,
        }
    }

    /// A key as a user writes it on the command line: `gitmoji`, `providers.anthropic.model`
    /// or the shorthand `anthropic.model`.
    pub fn parse(name: &str) -> Option<ConfigKey> {
        let name = name.trim();
        if let Some(key) = ConfigKey::top(name) {
            return Some(key);
        }
        let rest = name.strip_prefix("providers.").unwrap_or(name);
        let (provider, field) = rest.split_once('.')?;
        ConfigKey::provider_key(ProviderKind::parse(provider)?, field)
    }

    pub fn kind(self) -> Kind {
        match self {
            ConfigKey::Provider => Kind::Provider,
            ConfigKey::SafetyMode => Kind::SafetyMode,
            ConfigKey::Instructions | ConfigKey::Language => Kind::Text,
            ConfigKey::ReviewMinConfidence => Kind::Percent,
            ConfigKey::Preset
            | ConfigKey::Theme
            | ConfigKey::Model(_)
            | ConfigKey::FastModel(_)
            | ConfigKey::AttributionTrailer => Kind::Name,
            ConfigKey::ReasoningEffort(_) => Kind::Effort,
            ConfigKey::Gitmoji
            | ConfigKey::CriticEnabled
            | ConfigKey::TrustRepo
            | ConfigKey::SecretScan
            | ConfigKey::StructuredOutput
            | ConfigKey::StudioAutoGenerate
            | ConfigKey::ReviewVerify
            | ConfigKey::LinkedIssues
            | ConfigKey::HookOnAmend
            | ConfigKey::AgentSessions
            | ConfigKey::Local(_) => Kind::Bool,
            ConfigKey::MaxTurns
            | ConfigKey::SubagentTimeoutSecs
            | ConfigKey::SubagentMaxTurns
            | ConfigKey::RequestTimeoutSecs
            | ConfigKey::RunTimeoutSecs
            | ConfigKey::MaxOutputTokens
            | ConfigKey::SubagentMaxOutputTokens
            | ConfigKey::ExplainMaxReads => Kind::Count,
            ConfigKey::BaseUrl(_) => Kind::Url,
            ConfigKey::ApiKey(_) => Kind::Secret,
            ConfigKey::PriceInput(_) | ConfigKey::PriceOutput(_) | ConfigKey::MaxCostPerRun => {
                Kind::Price
            }
        }
    }

    /// Why a project's `.irisconfig` may not set this key, or `None` when it may. A project
    /// file comes with the code, from anyone: it may choose style and provider, but not keys,
    /// not where requests (and so keys) go, and not its own trust.
    pub fn refused_in_project(self) -> Option<String> {
        match self {
            ConfigKey::ApiKey(kind) => Some(format!(
                "API keys are never read from a project file; put it in your user config \
                 (`iris config set {}.api_key ...`) or in {}",
                kind.name(),
                kind.api_key_vars().join(" or ")
            )),
            ConfigKey::BaseUrl(kind) => Some(format!(
                "a project file cannot choose where requests (and your API key) are sent; \
                 put it in your user config (`iris config set {}.base_url ...`){}",
                kind.name(),
                kind.base_url_var()
                    .map(|var| format!(" or in {var}"))
                    .unwrap_or_default()
            )),
            ConfigKey::Local(kind) => Some(format!(
                "a project file cannot say a server is local (local servers are free of \
                 max_cost_per_run); put it in your user config (`iris config set \
                 {}.local true`)",
                kind.name()
            )),
            ConfigKey::TrustRepo => Some(
                "a repository cannot trust itself; use --trust-repo, IRIS_TRUST_REPO=1 or \
                 your user config"
                    .to_string(),
            ),
            ConfigKey::SafetyMode => Some(
                "a repository cannot choose what its tools may do without asking; use \
                 --safety, IRIS_SAFETY or your user config"
                    .to_string(),
            ),
            ConfigKey::PriceInput(_) | ConfigKey::PriceOutput(_) | ConfigKey::MaxCostPerRun => {
                Some(
                    "a repository cannot set what its runs cost (it would lift your \
                 max_cost_per_run); put prices in your user config"
                        .to_string(),
                )
            }
            ConfigKey::SecretScan => Some(
                "a repository cannot turn off the secret scan; list its test fixtures in \
                 .irissecretsignore instead"
                    .to_string(),
            ),
            _ => None,
        }
    }

    /// The names a user can write, for the message about an unknown key.
    pub fn help() -> String {
        let top: Vec<&str> = TOP.iter().map(|k| k.top_name()).collect();
        format!(
            "the keys are: {}, and providers.PROVIDER.{{{}}}",
            top.join(", "),
            PROVIDER_FIELDS.join(",")
        )
    }

    /// The known name closest to a misspelt one, if it is close enough to be a typo.
    pub fn suggest<'a>(
        name: &str,
        candidates: impl IntoIterator<Item = &'a str>,
    ) -> Option<&'a str> {
        iris_studio_core::suggest::closest(name, candidates)
    }

    /// The top-level names, for suggestions.
    pub fn top_names() -> impl Iterator<Item = &'static str> {
        TOP.into_iter()
            .map(ConfigKey::top_name)
            .chain(["providers"])
    }
}

impl Kind {
    /// What a value of this kind looks like, for error messages.
    pub fn expected(self) -> String {
        match self {
            Kind::Provider => format!("expected one of {}", ProviderKind::names()),
            Kind::SafetyMode => {
                format!("expected {}", iris_studio_core::protocol::SafetyMode::NAMES)
            }
            Kind::Text => "expected a string".to_string(),
            Kind::Name | Kind::Secret => "expected a non-empty string".to_string(),
            Kind::Bool => "expected a boolean (true or false)".to_string(),
            Kind::Count => "expected a whole number of at least 1".to_string(),
            Kind::Percent => "expected a whole number from 0 to 100".to_string(),
            Kind::Url => "expected a URL starting with http:// or https://".to_string(),
            Kind::Price => "expected an amount in US dollars (0 or more)".to_string(),
            Kind::Effort => format!("expected one of {}", EFFORTS.join(", ")),
        }
    }

    /// Checks text from the environment, a flag or `iris config set`. The error says what was
    /// expected and never repeats the text.
    pub fn parse_str(self, text: &str) -> Result<Value, String> {
        let fail = || Err(self.expected());
        match self {
            Kind::Text => Ok(Value::Text(text.to_string())),
            Kind::Provider => ProviderKind::parse(text).map_or_else(
                || {
                    let meant = ProviderKind::did_you_mean(text);
                    Err(format!("{}{meant}", self.expected()))
                },
                |k| Ok(Value::Provider(k)),
            ),
            Kind::SafetyMode => iris_studio_core::protocol::SafetyMode::parse(text)
                .map_or_else(fail, |mode| Ok(Value::Text(mode.name().to_string()))),
            Kind::Bool => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" => Ok(Value::Bool(true)),
                "false" | "0" | "no" | "off" => Ok(Value::Bool(false)),
                _ => fail(),
            },
            Kind::Count => match text.trim().parse::<u64>() {
                Ok(n) if n >= 1 => Ok(Value::Count(n)),
                _ => fail(),
            },
            Kind::Percent => match text.trim().parse::<u64>() {
                Ok(n) if n <= 100 => Ok(Value::Count(n)),
                _ => fail(),
            },
            Kind::Effort => {
                let effort = text.trim().to_ascii_lowercase();
                match EFFORTS.contains(&effort.as_str()) {
                    true => Ok(Value::Text(effort)),
                    false => fail(),
                }
            }
            Kind::Name => {
                let text = text.trim();
                if text.is_empty() || text.contains(char::is_control) {
                    fail()
                } else {
                    Ok(Value::Text(text.to_string()))
                }
            }
            Kind::Url => {
                let text = text.trim();
                if is_http_url(text) {
                    Ok(Value::Text(text.to_string()))
                } else {
                    fail()
                }
            }
            Kind::Secret => {
                let text = text.trim();
                if text.is_empty() || text.contains(char::is_control) {
                    fail()
                } else {
                    Ok(Value::Secret(Secret::new(text)))
                }
            }
            Kind::Price => text
                .trim()
                .parse::<f64>()
                .ok()
                .and_then(price)
                .ok_or_else(|| self.expected()),
        }
    }

    /// Checks a value read from a TOML file: it must have the TOML type the key takes
    /// (`gitmoji = "yes"` is refused, not guessed at).
    pub fn parse_toml(self, value: &toml_edit::Value) -> Result<Value, String> {
        match self {
            Kind::Bool => value
                .as_bool()
                .map(Value::Bool)
                .ok_or_else(|| self.expected()),
            Kind::Count => match value.as_integer() {
                Some(n) if n >= 1 => Ok(Value::Count(n.unsigned_abs())),
                _ => Err(self.expected()),
            },
            Kind::Percent => match value.as_integer() {
                Some(n @ 0..=100) => Ok(Value::Count(n.unsigned_abs())),
                _ => Err(self.expected()),
            },
            Kind::Price => value
                .as_float()
                .or_else(|| value.as_integer().map(|n| n as f64))
                .and_then(price)
                .ok_or_else(|| self.expected()),
            _ => match value.as_str() {
                Some(text) => self.parse_str(text),
                None => Err(self.expected()),
            },
        }
    }
}

impl Value {
    /// The value written into a TOML document.
    pub fn to_toml(&self) -> toml_edit::Value {
        match self {
            Value::Provider(kind) => kind.name().into(),
            Value::Text(text) => text.as_str().into(),
            Value::Bool(b) => (*b).into(),
            Value::Count(n) => i64::try_from(*n).unwrap_or(i64::MAX).into(),
            Value::Secret(secret) => secret.expose().into(),
            Value::Price(micros) => (*micros as f64 / 1e6).into(),
        }
    }

    /// The value shown to the user, as TOML; a secret shows as [`MASKED`].
    pub fn display(&self) -> String {
        match self {
            Value::Secret(_) => MASKED.to_string(),
            other => other.to_toml().to_string().trim().to_string(),
        }
    }
}

/// A price in dollars as millionths of a dollar; None for a negative or absurd one.
fn price(dollars: f64) -> Option<Value> {
    (dollars.is_finite() && (0.0..=1e6).contains(&dollars))
        .then(|| Value::Price((dollars * 1e6).round() as u64))
}

fn is_http_url(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    rest.is_some_and(|host| {
        !host.is_empty() && !host.starts_with('/') && !text.contains(char::is_whitespace)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_parses_from_its_name_and_the_shorthand() {
        for key in ConfigKey::all() {
            assert_eq!(ConfigKey::parse(&key.name()), Some(key), "{}", key.name());
        }
        assert_eq!(
            ConfigKey::parse("anthropic.model"),
            Some(ConfigKey::Model(ProviderKind::Anthropic))
        );
        assert_eq!(
            ConfigKey::parse("google.api_key"),
            Some(ConfigKey::ApiKey(ProviderKind::Gemini))
        );
        assert_eq!(ConfigKey::parse("providers.nope.model"), None);
        assert_eq!(ConfigKey::parse("anthropic.modle"), None);
        assert_eq!(ConfigKey::parse("gitmojis"), None);
    }

    #[test]
    fn values_are_checked_by_kind_without_repeating_them() {
        assert_eq!(Kind::Bool.parse_str("Yes"), Ok(Value::Bool(true)));
        assert_eq!(Kind::Bool.parse_str("0"), Ok(Value::Bool(false)));
        assert!(Kind::Bool.parse_str("maybe").is_err());
        assert_eq!(Kind::Count.parse_str("30"), Ok(Value::Count(30)));
        assert!(Kind::Count.parse_str("0").is_err());
        assert!(Kind::Count.parse_str("-3").is_err());
        assert!(Kind::Url.parse_str("localhost:8080").is_err());
        assert!(Kind::Url.parse_str("http://").is_err());
        assert!(Kind::Url.parse_str("http://local host").is_err());
        assert!(Kind::Url.parse_str("https://proxy.example/v1").is_ok());
        assert!(Kind::Name.parse_str("  ").is_err());
        assert_eq!(
            Kind::Effort.parse_str(" High "),
            Ok(Value::Text("high".into()))
        );
        let err = Kind::Effort.parse_str("extreme").unwrap_err();
        assert!(err.contains("none, minimal, low, medium, high"), "{err}");
        assert_eq!(Kind::Text.parse_str(""), Ok(Value::Text(String::new())));
        let err = Kind::Secret.parse_str("sk-with\nnewline").unwrap_err();
        assert!(!err.contains("sk-with"), "{err}");
    }

    #[test]
    fn close_misspellings_get_a_suggestion() {
        assert_eq!(
            ConfigKey::suggest("gitmojii", ConfigKey::top_names()),
            Some("gitmoji")
        );
        assert_eq!(
            ConfigKey::suggest("max_turn", ConfigKey::top_names()),
            Some("max_turns")
        );
        assert_eq!(ConfigKey::suggest("colour", ConfigKey::top_names()), None);
    }
}
