//! Configuration: defaults < the user's config file < the project's `.irisconfig` <
//! environment variables < flags.
//!
//! The user file (`$XDG_CONFIG_HOME/iris/config.toml`) may hold everything, API keys included.
//! The project file, which comes with a repository, may choose style and provider but never
//! keys, base URLs or trust. API keys are [`Secret`]s: they print as `****` everywhere.
//!
//! Also here: [`setup`], the provider a user chooses on the first run and how it is written,
//! and [`project`], the files of the repository that say how it writes (commit rules, PR
//! templates, `.irissecretsignore`), found and read within bounds.
//!
//! `iris-config` may import `iris-core` only: no agent, no git, no terminal.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// A failure is a message the user can act on, never a panic (tests may unwrap).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod cli_agent;
mod edit;
pub mod endpoint;
pub mod file;
mod keys;
mod layers;
pub mod prices;
pub mod project;
mod provider;
mod secret;
pub mod service;
pub mod setup;
pub mod studio_files;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

pub use cli_agent::{CLI_DEFAULT_MODEL, CliAgent};
pub use edit::{Assignment, set_value, set_values};
pub use endpoint::Locality;
pub use file::FileKind;
pub use keys::MASKED;
pub use provider::{ProviderKind, ProviderSettings, Providers, Wire, ollama_host_url};
pub use secret::Secret;

use iris_studio_core::protocol::SafetyMode;
use keys::{ConfigKey, Value};
use layers::Layers;

/// A configuration problem: a wrong flag value, a broken config file, a missing key (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// What the selected provider still lacks before Iris can talk to it: no API key, no model or
/// no base URL. Not a broken configuration but a missing one, which `iris config init` (and
/// the studio's setup) fill in. Exit code 2 like any configuration problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct NotConfigured {
    /// The provider selected.
    pub provider: ProviderKind,
    /// What it lacks.
    pub missing: Missing,
    /// What to set, in words: the variable, the `iris config set` line, `iris config init`.
    message: String,
    /// The part of `message` that says what to set.
    fix: String,
}

/// The setting a [`NotConfigured`] provider lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// A provider that refuses requests without a key has none.
    ApiKey,
    /// No model is set (`openai-compatible` has no default).
    Model,
    /// No server address is set (`openai-compatible` needs one).
    BaseUrl,
}

impl NotConfigured {
    fn new(provider: ProviderKind, missing: Missing, how: String) -> Self {
        let what = match missing {
            Missing::ApiKey => "API key",
            Missing::Model => "model",
            Missing::BaseUrl => "base URL",
        };
        let fix = format!("{how}, or run `iris config init`");
        Self {
            provider,
            missing,
            message: format!("no {what} for {provider}: {fix}"),
            fix,
        }
    }

    /// What to set, in words, without what is missing: "set ANTHROPIC_API_KEY or ..., or run
    /// `iris config init`".
    pub fn fix(&self) -> &str {
        &self.fix
    }
}

/// The project file's name, at the repository root.
pub const PROJECT_FILE: &str = ".irisconfig";

/// The effective configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The provider Iris talks to.
    pub provider: ProviderKind,
    /// Every provider's settings, defaults filled in.
    pub providers: Providers,
    /// The writing style (`iris presets` lists them).
    pub preset: String,
    /// Whether commit messages carry a gitmoji (never with the conventional preset).
    pub gitmoji: bool,
    /// Free-form instructions added to every prompt.
    pub instructions: String,
    /// Whether a critic checks a draft against the evidence and asks for one revision.
    pub critic_enabled: bool,
    /// Turns (model replies) the main agent may take in one run.
    pub max_turns: usize,
    /// Longest one subagent may work, in seconds.
    pub subagent_timeout_secs: u64,
    /// Turns (model replies) a subagent may take.
    pub subagent_max_turns: usize,
    /// Longest silence of one provider request.
    pub request_timeout_secs: u64,
    /// Longest a whole run (every request, tool and the critic) may take.
    pub run_timeout_secs: u64,
    /// Output token budget of one reply of the main agent (a capability may ask for less).
    pub max_output_tokens: u64,
    /// Output token budget of one reply of a subagent.
    pub subagent_max_output_tokens: u64,
    /// Ask the provider to keep the artifact to its JSON schema (off: the model is only told).
    pub structured_output: bool,
    /// Source reads (refer_to_source_code calls) one `iris explain` may make.
    pub explain_max_reads: usize,
    /// Whether tools may run the repository's build scripts (`ToolContext::with_trust`).
    pub trust_repo: bool,
    /// Which tool calls need the user's approval.
    pub safety_mode: SafetyMode,
    /// Whether secrets are found and withheld from what is sent to the provider.
    pub secret_scan: bool,
    /// Whether the studio has Iris write a mode's artifact on entering it, when the artifact
    /// is empty and its input is not.
    pub studio_auto_generate: bool,
    /// The studio's theme: a built-in (dark, light, high-contrast) or one in the config dir.
    pub theme: String,
    /// The human language Iris writes artifacts and chat replies in (`de`, `French`); empty
    /// for English, the models' own default.
    pub language: String,
    /// Review findings the model is less sure of than this (0-100) are left out of the printed
    /// review and folded in the studio.
    pub review_min_confidence: u8,
    /// A review's findings get a second look (one more request): each kept or dropped with a
    /// reason, the dropped ones folded.
    pub review_verify: bool,
    /// The issue the branch is for (and, for a PR, those its commits name) is read through
    /// the user's `gh` or `glab` into the request: its title and the opening of its body.
    pub linked_issues: bool,
    /// On `git commit --amend` the hook writes a message from the amended change instead of
    /// keeping the commit's own.
    pub hook_on_amend: bool,
    /// A run stops before a request that would take its cost past this many millionths of a
    /// US dollar (`max_cost_per_run`, in dollars); None: no cap.
    pub max_cost_per_run: Option<u64>,
    /// The trailer that says Iris helped (`Assisted-by`); `none`: never one; empty: what
    /// the project's contributor guide names, if it names one.
    pub attribution_trailer: String,
    /// What the user asked their coding agent (Claude Code, Codex, Gemini CLI, aider) while
    /// making a change goes in the request, for the reason behind it. Off unless the user
    /// says so: their own words go to the provider.
    pub agent_sessions: bool,
    /// Where each value that is not a default came from.
    origins: BTreeMap<ConfigKey, Source>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            provider: ProviderKind::default(),
            providers: Providers::default(),
            preset: "default".to_string(),
            gitmoji: false,
            instructions: String::new(),
            critic_enabled: true,
            max_turns: 50,
            subagent_timeout_secs: 120,
            subagent_max_turns: 20,
            request_timeout_secs: 120,
            run_timeout_secs: 300,
            max_output_tokens: 16_384,
            subagent_max_output_tokens: 4_096,
            structured_output: true,
            explain_max_reads: 30,
            trust_repo: false,
            safety_mode: SafetyMode::default(),
            secret_scan: true,
            studio_auto_generate: true,
            theme: "dark".to_string(),
            language: String::new(),
            review_min_confidence: 70,
            review_verify: false,
            linked_issues: true,
            hook_on_amend: false,
            max_cost_per_run: None,
            attribution_trailer: String::new(),
            agent_sessions: false,
            origins: BTreeMap::new(),
        }
    }
}

/// Values from command-line flags, the highest precedence. `None`: the flag was not given.
/// Strings are checked by [`Config::load`] like any other source.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--provider`.
    pub provider: Option<String>,
    /// The selected provider's main model.
    pub model: Option<String>,
    /// The selected provider's fast model.
    pub fast_model: Option<String>,
    /// `--preset`: the writing style.
    pub preset: Option<String>,
    /// `--gitmoji` (true) or `--no-gitmoji` (false).
    pub gitmoji: Option<bool>,
    /// `--instructions`: free-form instructions for every prompt.
    pub instructions: Option<String>,
    /// `--critic` (true) or `--no-critic` (false).
    pub critic_enabled: Option<bool>,
    /// `--trust-repo` (true) or `--no-trust-repo` (false).
    pub trust_repo: Option<bool>,
    /// `--safety`: which tool calls need the user's approval.
    pub safety: Option<String>,
    /// `--language`: the language Iris writes in.
    pub language: Option<String>,
    /// `--sessions` (true) or `--no-sessions` (false): the coding agent's sessions go in the
    /// request, for this run.
    pub agent_sessions: Option<bool>,
}

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Iris' built-in default.
    Default,
    /// The user's config file, at this path.
    UserFile(PathBuf),
    /// The repository's `.irisconfig`, at this path.
    ProjectFile(PathBuf),
    /// The environment variable's name.
    Env(&'static str),
    /// The flag, as typed: `--model`.
    Flag(&'static str),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::UserFile(path) => write!(f, "user file {}", display_path(path)),
            Source::ProjectFile(path) => write!(f, "project file {}", display_path(path)),
            Source::Env(var) => write!(f, "env {var}"),
            Source::Flag(flag) => write!(f, "flag {flag}"),
        }
    }
}

/// One line of `iris config`: a key, its value as TOML (`None` when unset; API keys `"****"`)
/// and where the value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The key's canonical name: `gitmoji`, `providers.anthropic.model`.
    pub key: String,
    /// The value as TOML; `None` when unset, `"****"` for an API key.
    pub value: Option<String>,
    /// Where the value came from.
    pub source: Source,
    /// For an unset value: how to set it other than with `iris config set`.
    pub hint: Option<String>,
    /// What the key means, in a line.
    pub meaning: &'static str,
}

/// The stand-in key of a run that sends nothing ([`Config::sending_nothing`]).
const UNSENT_KEY: &str = "iris-sends-nothing";

/// Reads an environment variable; the real one or a test's.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

impl Config {
    /// The configuration for a repository (or none), from the user file, the repository's
    /// `.irisconfig`, the process environment and the flags.
    pub fn load(repo_root: Option<&Path>, overrides: &Overrides) -> Result<Config, ConfigError> {
        let user_file = user_config_path();
        let config = Self::load_from(
            user_file.as_deref(),
            repo_root,
            &|name| std::env::var(name).ok(),
            overrides,
        )?;
        tracing::debug!("configuration loaded:\n{}", config.settings_text());
        Ok(config)
    }

    /// [`Config::load`] with an explicit user file and environment.
    ///
    /// Environment variables are read at their precedence (above both files), with one
    /// exception: for `openai-compatible`, `OPENAI_API_KEY` and `OPENAI_BASE_URL` only fill in
    /// what no file sets. They are OpenAI's first, and a server configured in a file with its
    /// own key must not be sent the OpenAI key.
    pub fn load_from(
        user_file: Option<&Path>,
        repo_root: Option<&Path>,
        env: EnvLookup<'_>,
        overrides: &Overrides,
    ) -> Result<Config, ConfigError> {
        let mut layers = Layers::new(env);
        layers.openai_for_compatible()?;
        layers.file(user_file, FileKind::User)?;
        layers.file(
            repo_root.map(|root| root.join(PROJECT_FILE)).as_deref(),
            FileKind::Project,
        )?;
        layers.environment()?;
        layers.flags(overrides)?;
        layers.models(overrides)?;

        let mut config = Config::default();
        for (key, (value, source)) in layers.resolved {
            config.apply(key, value);
            config.origins.insert(key, source);
        }
        // A server's fast model is its main model unless one is named (`openai-compatible`
        // and a service without a default have none).
        for kind in ProviderKind::all() {
            let settings = config.providers.get_mut(kind);
            if settings.fast_model.is_empty() {
                settings.fast_model = settings.model.clone();
            }
        }
        Ok(config)
    }

    /// Sets the field a key names. Values always have the kind their key declares.
    fn apply(&mut self, key: ConfigKey, value: Value) {
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        match (key, value) {
            (ConfigKey::Provider, Value::Provider(kind)) => self.provider = kind,
            (ConfigKey::Preset, Value::Text(text)) => self.preset = text,
            (ConfigKey::Instructions, Value::Text(text)) => self.instructions = text,
            (ConfigKey::Gitmoji, Value::Bool(b)) => self.gitmoji = b,
            (ConfigKey::CriticEnabled, Value::Bool(b)) => self.critic_enabled = b,
            (ConfigKey::ReviewVerify, Value::Bool(b)) => self.review_verify = b,
            (ConfigKey::LinkedIssues, Value::Bool(b)) => self.linked_issues = b,
            (ConfigKey::HookOnAmend, Value::Bool(b)) => self.hook_on_amend = b,
            (ConfigKey::AgentSessions, Value::Bool(b)) => self.agent_sessions = b,
            (ConfigKey::MaxCostPerRun, Value::Price(micros)) => {
                self.max_cost_per_run = Some(micros)
            }
            (ConfigKey::TrustRepo, Value::Bool(b)) => self.trust_repo = b,
            (ConfigKey::AttributionTrailer, Value::Text(text)) => self.attribution_trailer = text,
            (ConfigKey::SafetyMode, Value::Text(text)) => {
                self.safety_mode = SafetyMode::parse(&text).unwrap_or_default();
            }
            (ConfigKey::SecretScan, Value::Bool(b)) => self.secret_scan = b,
            (ConfigKey::StudioAutoGenerate, Value::Bool(b)) => self.studio_auto_generate = b,
            (ConfigKey::Theme, Value::Text(text)) => self.theme = text,
            (ConfigKey::Language, Value::Text(text)) => self.language = text.trim().to_string(),
            (ConfigKey::ReviewMinConfidence, Value::Count(n)) => {
                self.review_min_confidence = u8::try_from(n.min(100)).unwrap_or(100);
            }
            (ConfigKey::MaxTurns, Value::Count(n)) => self.max_turns = count(n),
            (ConfigKey::SubagentMaxTurns, Value::Count(n)) => self.subagent_max_turns = count(n),
            (ConfigKey::SubagentTimeoutSecs, Value::Count(n)) => self.subagent_timeout_secs = n,
            (ConfigKey::RequestTimeoutSecs, Value::Count(n)) => self.request_timeout_secs = n,
            (ConfigKey::RunTimeoutSecs, Value::Count(n)) => self.run_timeout_secs = n,
            (ConfigKey::MaxOutputTokens, Value::Count(n)) => self.max_output_tokens = n,
            (ConfigKey::SubagentMaxOutputTokens, Value::Count(n)) => {
                self.subagent_max_output_tokens = n
            }
            (ConfigKey::StructuredOutput, Value::Bool(b)) => self.structured_output = b,
            (ConfigKey::ExplainMaxReads, Value::Count(n)) => self.explain_max_reads = count(n),
            (ConfigKey::Model(kind), Value::Text(text)) => {
                self.providers.get_mut(kind).model = text
            }
            (ConfigKey::FastModel(kind), Value::Text(text)) => {
                self.providers.get_mut(kind).fast_model = text;
            }
            (ConfigKey::BaseUrl(kind), Value::Text(text)) => {
                self.providers.get_mut(kind).base_url = Some(text);
            }
            (ConfigKey::ApiKey(kind), Value::Secret(secret)) => {
                self.providers.get_mut(kind).api_key = Some(secret);
            }
            (ConfigKey::PriceInput(kind), Value::Price(micros)) => {
                self.providers.get_mut(kind).price_input = Some(micros);
            }
            (ConfigKey::PriceOutput(kind), Value::Price(micros)) => {
                self.providers.get_mut(kind).price_output = Some(micros);
            }
            (ConfigKey::Local(kind), Value::Bool(local)) => {
                self.providers.get_mut(kind).local = Some(local);
            }
            (ConfigKey::ReasoningEffort(kind), Value::Text(text)) => {
                self.providers.get_mut(kind).reasoning_effort = Some(text);
            }
            // Kind::parse_* only produce the value kind a key declares.
            _ => {}
        }
    }

    /// The selected provider's settings.
    pub fn provider_settings(&self) -> &ProviderSettings {
        self.providers.get(self.provider)
    }

    /// The selected provider's API key; an error naming the variable to set when the provider
    /// needs one and none is configured.
    pub fn api_key(&self) -> Result<Option<&Secret>, NotConfigured> {
        let kind = self.provider;
        match &self.provider_settings().api_key {
            Some(key) => Ok(Some(key)),
            None if kind.requires_api_key() => {
                let vars = match kind.api_key_vars().as_slice() {
                    [first, others @ ..] if !others.is_empty() => {
                        format!("{first} (or {})", others.join(", "))
                    }
                    vars => vars.join(""),
                };
                Err(NotConfigured::new(
                    kind,
                    Missing::ApiKey,
                    format!("set {vars} or `iris config set {kind}.api_key ...`"),
                ))
            }
            None => Ok(None),
        }
    }

    /// Where the selected provider's API key came from (a file, a variable), when it has one.
    pub fn api_key_source(&self) -> Option<Source> {
        self.provider_settings().api_key.as_ref()?;
        Some(self.source(ConfigKey::ApiKey(self.provider)))
    }

    /// Every setting as a TOML line with its source as a comment (API keys `"****"`), as
    /// `iris config` and `--debug` print them: copy a line into a config file and it means
    /// the same thing there.
    pub fn settings_text(&self) -> String {
        let settings = self.sources();
        let width = settings
            .iter()
            .filter_map(|s| s.value.as_ref().map(|v| s.key.len() + v.len() + 3))
            .filter(|&w| w <= 60)
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        for setting in settings {
            match setting.value {
                Some(value) => {
                    let line = format!("{} = {value}", setting.key);
                    out.push_str(&format!("{line:<width$}  # {}\n", setting.source));
                }
                None => {
                    let hint = setting.hint.map(|h| format!(" ({h})")).unwrap_or_default();
                    out.push_str(&format!("# {} is not set{hint}\n", setting.key));
                }
            }
        }
        out
    }

    /// This configuration for a run that sends nothing (`--dry-run`, `iris eval --evidence`):
    /// a provider that needs a key and has none gets a stand-in, so nothing asks for a key
    /// that would never be used.
    pub fn sending_nothing(mut self) -> Config {
        if self.api_key().is_err() {
            let kind = self.provider;
            self.providers.get_mut(kind).api_key = Some(Secret::new(UNSENT_KEY));
        }
        self
    }

    /// The selected provider's main model; an error when none is configured (only
    /// `openai-compatible` has no default).
    pub fn require_model(&self) -> Result<&str, NotConfigured> {
        let model = self.provider_settings().model.as_str();
        if model.is_empty() {
            let kind = self.provider;
            return Err(NotConfigured::new(
                kind,
                Missing::Model,
                format!("set IRIS_MODEL, pass --model or `iris config set {kind}.model NAME`"),
            ));
        }
        Ok(model)
    }

    /// The selected provider's base URL: `None` means its vendor's own endpoint (which its
    /// client knows). A named service's own address when none is set; an error for a
    /// provider that has no usual endpoint (`openai-compatible`, Azure) without one.
    pub fn base_url(&self) -> Result<Option<&str>, NotConfigured> {
        let kind = self.provider;
        match self.provider_settings().base_url.as_deref() {
            None if kind.needs_base_url() => Err(NotConfigured::new(
                kind,
                Missing::BaseUrl,
                match kind.base_url_var() {
                    Some(var) => format!("set {var} or `iris config set {kind}.base_url URL`"),
                    None => format!("`iris config set {kind}.base_url URL`"),
                },
            )),
            None => Ok(kind.default_base_url()),
            url => Ok(url),
        }
    }

    /// Whether the selected provider's server is local, and why.
    pub fn locality(&self) -> Locality {
        self.locality_of(self.provider)
    }

    /// Whether `kind`'s server is local: the user's `local` setting, else what its address
    /// (the configured one or its usual one) says.
    pub fn locality_of(&self, kind: ProviderKind) -> Locality {
        let settings = self.providers.get(kind);
        if let (Some(agent), None) = (kind.cli(), settings.local) {
            return Locality {
                local: false,
                why: format!("`{}` sends each request to its vendor", agent.program()),
            };
        }
        let url = settings.base_url.as_deref().or(kind.default_base_url());
        endpoint::locality(settings.local, url)
    }

    /// Where a key's value came from.
    /// Where `agent_sessions` came from: a run's flag, a file, or nothing
    /// ([`Source::Default`]), when the user's remembered answer decides.
    pub fn agent_sessions_source(&self) -> Source {
        self.source(ConfigKey::AgentSessions)
    }

    fn source(&self, key: ConfigKey) -> Source {
        self.origins.get(&key).cloned().unwrap_or(Source::Default)
    }

    /// Every setting with its value (API keys masked) and source, in the order `iris config`
    /// shows them. A named service's keys are left out unless it is selected or the user set
    /// them: there are many of them, and their defaults are all alike.
    pub fn sources(&self) -> Vec<Setting> {
        let listed = |key: &ConfigKey| match key.provider_field() {
            Some((kind, _)) if kind.service().is_some() && kind != self.provider => {
                self.origins.contains_key(key)
            }
            _ => true,
        };
        ConfigKey::all()
            .into_iter()
            .filter(listed)
            .map(|key| {
                let value = self.value_of(key).map(|v| v.display());
                let hint = match key {
                    _ if value.is_some() => None,
                    ConfigKey::ApiKey(kind) if !kind.api_key_vars().is_empty() => {
                        Some(kind.api_key_vars().join(" or "))
                    }
                    ConfigKey::BaseUrl(kind) => match kind.default_base_url() {
                        Some(url) => Some(format!("{url} by default")),
                        None => kind.base_url_var().map(str::to_string),
                    },
                    ConfigKey::Model(_) => Some("IRIS_MODEL or --model when selected".to_string()),
                    _ => None,
                };
                Setting {
                    key: key.name(),
                    value,
                    source: self.source(key),
                    hint,
                    meaning: key.meaning(),
                }
            })
            .collect()
    }

    /// A key's current value; `None` for what is unset.
    fn value_of(&self, key: ConfigKey) -> Option<Value> {
        let count = |n: usize| Value::Count(u64::try_from(n).unwrap_or(u64::MAX));
        let text = |s: &str| (!s.is_empty()).then(|| Value::Text(s.to_string()));
        Some(match key {
            ConfigKey::Provider => Value::Provider(self.provider),
            ConfigKey::Preset => Value::Text(self.preset.clone()),
            ConfigKey::Instructions => Value::Text(self.instructions.clone()),
            ConfigKey::Gitmoji => Value::Bool(self.gitmoji),
            ConfigKey::CriticEnabled => Value::Bool(self.critic_enabled),
            ConfigKey::ReviewVerify => Value::Bool(self.review_verify),
            ConfigKey::LinkedIssues => Value::Bool(self.linked_issues),
            ConfigKey::HookOnAmend => Value::Bool(self.hook_on_amend),
            ConfigKey::AgentSessions => Value::Bool(self.agent_sessions),
            ConfigKey::MaxCostPerRun => Value::Price(self.max_cost_per_run?),
            ConfigKey::AttributionTrailer => return text(&self.attribution_trailer),
            ConfigKey::TrustRepo => Value::Bool(self.trust_repo),
            ConfigKey::SafetyMode => Value::Text(self.safety_mode.name().to_string()),
            ConfigKey::SecretScan => Value::Bool(self.secret_scan),
            ConfigKey::StudioAutoGenerate => Value::Bool(self.studio_auto_generate),
            ConfigKey::Theme => Value::Text(self.theme.clone()),
            ConfigKey::Language => return text(&self.language),
            ConfigKey::ReviewMinConfidence => Value::Count(u64::from(self.review_min_confidence)),
            ConfigKey::MaxTurns => count(self.max_turns),
            ConfigKey::SubagentMaxTurns => count(self.subagent_max_turns),
            ConfigKey::SubagentTimeoutSecs => Value::Count(self.subagent_timeout_secs),
            ConfigKey::RequestTimeoutSecs => Value::Count(self.request_timeout_secs),
            ConfigKey::RunTimeoutSecs => Value::Count(self.run_timeout_secs),
            ConfigKey::MaxOutputTokens => Value::Count(self.max_output_tokens),
            ConfigKey::SubagentMaxOutputTokens => Value::Count(self.subagent_max_output_tokens),
            ConfigKey::StructuredOutput => Value::Bool(self.structured_output),
            ConfigKey::ExplainMaxReads => count(self.explain_max_reads),
            ConfigKey::Model(kind) => return text(&self.providers.get(kind).model),
            ConfigKey::FastModel(kind) => return text(&self.providers.get(kind).fast_model),
            ConfigKey::BaseUrl(kind) => {
                return self.providers.get(kind).base_url.as_deref().and_then(text);
            }
            ConfigKey::ApiKey(kind) => Value::Secret(self.providers.get(kind).api_key.clone()?),
            ConfigKey::PriceInput(kind) => Value::Price(self.providers.get(kind).price_input?),
            ConfigKey::PriceOutput(kind) => Value::Price(self.providers.get(kind).price_output?),
            ConfigKey::Local(kind) => Value::Bool(self.providers.get(kind).local?),
            ConfigKey::ReasoningEffort(kind) => {
                return self
                    .providers
                    .get(kind)
                    .reasoning_effort
                    .as_deref()
                    .and_then(text);
            }
        })
    }
}

/// The user's config file: `$XDG_CONFIG_HOME/iris/config.toml`, else
/// `~/.config/iris/config.toml`. `None` only when no home directory is known.
pub fn user_config_path() -> Option<PathBuf> {
    user_config_dir().map(|dir| dir.join("config.toml"))
}

/// Iris' directory in the user's config directory, where the config file, capability
/// overrides and themes live. `$XDG_CONFIG_HOME/iris`, else `~/.config/iris` (on every
/// platform, as most command-line tools do).
pub fn user_config_dir() -> Option<PathBuf> {
    // The XDG spec says a relative XDG_CONFIG_HOME is to be ignored.
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let base = xdg.or_else(|| std::env::home_dir().map(|home| home.join(".config")))?;
    Some(base.join("iris"))
}

/// A path for messages, with the home directory shown as `~`.
pub fn display_path(path: &Path) -> String {
    if let Some(home) = std::env::home_dir().filter(|h| h.is_absolute() && h.parent().is_some())
        && let Ok(rest) = path.strip_prefix(&home)
    {
        return Path::new("~").join(rest).display().to_string();
    }
    path.display().to_string()
}

#[cfg(test)]
mod tests;
