//! The setup overlay: Iris has no provider yet, so the studio offers the model servers found
//! on this machine and the hosted providers, takes a key for one of those, and writes the
//! choice into the user's config file once the user says yes.

use iris_studio_config::ProviderKind;
use iris_studio_config::setup::{Choice, LocalServer, cli_choice, hosted};

/// What setup knows of this machine before anything is probed: where the user file is, and
/// which hosted providers already have a key in the environment. Read once at start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetupFacts {
    /// The user config file, as shown (`~/.config/iris/config.toml`); `None` without a home.
    pub file: Option<String>,
    /// Hosted providers whose key an environment variable holds, with the variable.
    pub env_keys: Vec<(ProviderKind, &'static str)>,
    /// The command-line agents on PATH (`claude-code`, `codex`, `gemini-cli`).
    pub clis: Vec<ProviderKind>,
}

impl SetupFacts {
    /// The environment variable that already holds `kind`'s key, if one does (then the user
    /// may leave the key empty).
    pub fn env_key(&self, kind: ProviderKind) -> Option<&'static str> {
        self.env_keys
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, var)| *var)
    }
}

/// The overlay, from the list to the written file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setup {
    /// The servers that answered; `None` while they are probed.
    pub servers: Option<Vec<LocalServer>>,
    /// The command-line agents on PATH, offered after the servers.
    pub clis: Vec<ProviderKind>,
    /// The highlighted option.
    pub selected: usize,
    /// Where the user is in setting up.
    pub step: SetupStep,
}

/// The steps of setup, in order: choose, type a key (hosted providers only), confirm, write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SetupStep {
    /// Choosing a model or a provider.
    #[default]
    Choose,
    /// Typing a hosted provider's key (shown masked).
    Key {
        /// The hosted provider chosen.
        provider: ProviderKind,
        /// The key as typed so far.
        typed: String,
    },
    /// Typing an OpenAI-compatible server's address.
    Url {
        /// The address as typed so far.
        typed: String,
    },
    /// Typing the model that server serves.
    Model {
        /// The server's address, checked.
        base_url: String,
        /// The model's name as typed so far.
        typed: String,
    },
    /// The lines to write, waiting for y.
    Confirm(Choice),
    /// Being written.
    Writing(Choice),
}

/// One line of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupOption {
    /// A model a server on this machine serves (`server` indexes [`Setup::servers`]).
    Local {
        /// Its index in [`Setup::servers`].
        server: usize,
        /// The model's name as the server lists it.
        model: String,
    },
    /// An OpenAI-compatible server anywhere, by the address the user types (vLLM, a team's
    /// gateway, a server on another port or machine).
    Server,
    /// A command-line agent on PATH: the user's subscription, no key.
    Cli(ProviderKind),
    /// A hosted provider, with its default model.
    Hosted(ProviderKind),
}

impl Setup {
    /// Setup offering the command-line agents `facts` found.
    pub fn new(facts: &SetupFacts) -> Self {
        Self {
            clis: facts.clis.clone(),
            ..Self::default()
        }
    }

    /// The options, the local models first (once probed), then the command-line agents, the
    /// hosted providers, and last a server by its address.
    pub fn options(&self) -> Vec<SetupOption> {
        let servers = self.servers.as_deref().unwrap_or_default();
        let local = servers.iter().enumerate().flat_map(|(server, found)| {
            found.models.iter().map(move |model| SetupOption::Local {
                server,
                model: model.clone(),
            })
        });
        local
            .chain(self.clis.iter().copied().map(SetupOption::Cli))
            // Azure needs its resource's address and deployment: `iris config init` asks.
            .chain(
                hosted()
                    .into_iter()
                    .filter(|kind| !kind.needs_base_url())
                    .map(SetupOption::Hosted),
            )
            .chain(std::iter::once(SetupOption::Server))
            .collect()
    }

    /// What choosing `option` writes (a hosted provider's key, a server's address and model
    /// are asked for first).
    pub fn choice(&self, option: &SetupOption) -> Option<Choice> {
        match option {
            SetupOption::Local { server, model } => self
                .servers
                .as_ref()
                .and_then(|s| s.get(*server))
                .map(|found| found.choice(model)),
            SetupOption::Cli(kind) => Some(cli_choice(*kind)),
            SetupOption::Hosted(_) | SetupOption::Server => None,
        }
    }
}
