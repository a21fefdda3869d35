//! Iris, configured: the models, the repository, the limits and the style she writes in, and
//! the instructions and tools every capability starts from. What she does lives with the
//! doing, in `capability/`: `write.rs` (an artifact), `generate.rs` (its draft and critic),
//! `candidates.rs`, `chat.rs`, `blame.rs` and `intent/`, all through `conversation.rs` (one
//! conversation within its budget, one deadline per run).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rig_core::tool::ToolDyn;

use crate::capability::{Capability, CapabilityError};
use crate::evidence::packages::PinTags;
use crate::runtime::budget::Budget;
use crate::runtime::run_context::RunContext;
use crate::runtime::safety::Safety;
use crate::style::{language_section, style_instructions};
use crate::tools::ToolContext;
use crate::tools::registry::main_agent_tools;
use crate::tools::subagent::Subagents;
use crate::tools::workspace::Notes;
use crate::{AgentSettings, EventSink, ProviderSpec};
use iris_studio_core::artifact::OutputType;
use iris_studio_core::artifact::schema::{split_descriptions, without_property};
use iris_studio_core::secrets::Scanner;

/// Who Iris is, before any capability's task.
const PERSONA: &str = "You are Iris, an expert software engineer who writes the prose around \
code changes: commit messages, pull request descriptions, code reviews, changelogs and release \
notes. You work from evidence. When a request comes with evidence gathered up front (the change \
ranked by relevance, its full diffs or commits where they fit), use your tools only for what it \
lacks: the diffs of other files, the code around a change, its history. Otherwise read the \
change with your tools, starting with git_diff's summary. Never invent changes, files, issues \
or numbers that the evidence does not show.";

/// How Iris writes: a preset, gitmoji or not, the user's own instructions and the language.
#[derive(Debug, Clone, Default)]
pub struct Style {
    /// The preset's name (`default`, `conventional`, ...), matched ignoring case.
    pub preset: String,
    /// Whether to use gitmoji, where the preset allows them.
    pub gitmoji: bool,
    /// The user's own instructions (`instructions`), which come after the preset's and win.
    pub instructions: String,
    /// A language code or name (`de`, `French`); empty for English.
    pub language: String,
    /// `attribution_trailer`: the trailer that says Iris helped a commit message
    /// (`Assisted-by`), `none`, or empty for what the project's contributor guide names
    /// (read when a message is written).
    pub attribution: String,
}

/// Iris, configured: the models, the repository, the limits and the style. Made once by
/// [`IrisAgent::from_config`] (the `with_*` methods adjust one thing); what she does is the
/// capabilities' methods: [`write`](IrisAgent::write), `write_candidates`, `chat`,
/// `explain_lines` and `explain_file`.
#[derive(Clone)]
pub struct IrisAgent {
    pub(crate) main: ProviderSpec,
    pub(crate) fast: ProviderSpec,
    pub(crate) ctx: ToolContext,
    pub(crate) settings: AgentSettings,
    pub(crate) style: Style,
    /// Stream replies (text arrives as events) or take them whole.
    pub(crate) stream: bool,
    /// The critic may check artifacts (`critic_enabled`).
    pub(crate) critic_enabled: bool,
    /// The user's config directory, where capability overrides live.
    pub(crate) user_dir: Option<PathBuf>,
    /// The capabilities read so far, each once per Iris (built-in, or the user's override).
    capabilities: Arc<Mutex<HashMap<String, Capability>>>,
    /// Where a reply that could not be read is saved for the user.
    pub(crate) raw_reply_dir: PathBuf,
    /// What the provider refused so far; later requests keep to it.
    pub(crate) learned: Learned,
    /// The pull request template to fill in, by name (`iris pr --template`); `None` takes
    /// the repository's default.
    pub(crate) pr_template: Option<String>,
    /// How reviews are written: aspects, second look.
    pub(crate) review: iris_studio_core::artifact::review::ReviewOptions,
    /// What the user asked their coding agent while making the change, as a section of the
    /// request (found and chosen by the application, which reads the sessions); `None`: none.
    pub(crate) sessions: Option<String>,
    /// The main model's prices and where they come from, when known: `--debug` says what a
    /// run cost, a preview what its request would.
    pub(crate) price: Option<(
        iris_studio_config::prices::Price,
        iris_studio_config::prices::PriceSource,
    )>,
    /// `max_cost_per_run` in US dollars, with the prices it is counted at; each command's
    /// run context gets a ledger of its own.
    cost_cap: Option<(iris_studio_config::prices::Price, f64)>,
    /// The command this Iris runs for: its ledger and dry run, shared by everything it
    /// starts ([`IrisAgent::for_command`] makes a new one).
    pub(crate) run: RunContext,
    /// Reads the issues a change is for from the forge (none: they are not read).
    pub(crate) issues: Option<Arc<dyn crate::issues::IssueReader>>,
    /// What names a pinned Action's commit by its tag for the Packages section (the user's
    /// `gh`, given by the binary); `None`: the section says only that the pin moved.
    pub(crate) pin_tags: Option<Arc<dyn PinTags>>,
}

/// The scanner every request passes, with the rules the user and the project add and the
/// repository's `.irissecretsignore`; `None` when the user turned the scan off. Also what
/// checks a change before jj (which runs no hooks) records it.
pub fn secret_scanner(
    config: &iris_studio_config::Config,
    root: &std::path::Path,
) -> anyhow::Result<Option<Arc<Scanner>>> {
    if !config.secret_scan {
        return Ok(None);
    }
    // A broken ignore file is the user's configuration to fix, like a broken config file.
    let ignore = iris_studio_config::project::secrets_ignore(root)
        .map_err(|e| iris_studio_config::ConfigError(format!("{e:#}")))?;
    let added = iris_studio_config::project::secret_rules(root)
        .map_err(|e| iris_studio_config::ConfigError(format!("{e:#}")))?;
    Ok(Some(Arc::new(Scanner::with_rules(added, ignore))))
}

/// `max_cost_per_run` in US dollars with the model's prices, or None when no cap is set. A
/// cap without a known price is the user's to fix: the run could not be held to it.
fn cost_cap(
    config: &iris_studio_config::Config,
) -> anyhow::Result<Option<(iris_studio_config::prices::Price, f64)>> {
    let Some(cap) = config.max_cost_per_run else {
        return Ok(None);
    };
    let model = config.require_model()?;
    let Some((price, _)) = config.price_of(model) else {
        return Err(iris_studio_config::ConfigError(format!(
            "max_cost_per_run is set, but no price is known for {} {model}, so the run could \
             not be held to it: {}",
            config.provider,
            iris_studio_config::prices::how_to_price(config.provider)
        ))
        .into());
    };
    Ok(Some((price, cap as f64 / 1e6)))
}

/// A run context with a ledger of `cost_cap`, when one is set.
fn new_run(cost_cap: Option<(iris_studio_config::prices::Price, f64)>) -> RunContext {
    RunContext::new(cost_cap.map(|(price, cap)| Budget::new(price, cap)))
}

/// What a provider has refused (the JSON-schema option, an output budget above its model's
/// maximum), shared by every clone of an agent so a run (and the studio session) is refused
/// only once.
#[derive(Debug, Clone, Default)]
pub struct Learned {
    schema_refused: Arc<AtomicBool>,
    /// The highest output budget the model takes; 0 while none was refused.
    budget_cap: Arc<AtomicU64>,
}

impl Learned {
    /// Whether the provider refused the JSON-schema option; later requests go without it.
    pub fn schema_refused(&self) -> bool {
        self.schema_refused.load(Ordering::Relaxed)
    }

    /// Remembers that the provider refused the JSON-schema option.
    pub fn refuse_schema(&self) {
        self.schema_refused.store(true, Ordering::Relaxed);
    }

    /// `budget`, or less if the model refused more.
    pub fn cap(&self, budget: u64) -> u64 {
        match self.budget_cap.load(Ordering::Relaxed) {
            0 => budget,
            cap => budget.min(cap),
        }
    }

    /// Remembers that the model takes at most `cap` output tokens.
    pub fn cap_budget(&self, cap: u64) {
        self.budget_cap.store(cap, Ordering::Relaxed);
    }
}

impl IrisAgent {
    /// Iris as the configuration says, working on the repository at `root`; a reply she
    /// cannot read is saved in `raw_reply_dir` for the user to look at.
    pub fn from_config(
        config: &iris_studio_config::Config,
        root: &std::path::Path,
        raw_reply_dir: &std::path::Path,
        stream: bool,
    ) -> crate::Result<Self> {
        Ok(Self::configured(config, root, raw_reply_dir, stream)?)
    }

    fn configured(
        config: &iris_studio_config::Config,
        root: &std::path::Path,
        raw_reply_dir: &std::path::Path,
        stream: bool,
    ) -> anyhow::Result<Self> {
        let settings = config.provider_settings();
        let main = ProviderSpec {
            kind: config.provider,
            model: config.require_model()?.to_string(),
            base_url: config.base_url()?.map(str::to_string),
            local: config.locality().local,
            reasoning_effort: settings.reasoning_effort.clone(),
            api_key: config.api_key()?.map(|key| key.expose().to_string()),
            stall_timeout: std::time::Duration::from_secs(config.request_timeout_secs),
            secrets: secret_scanner(config, root)?,
        };
        let cost_cap = cost_cap(config)?;
        let fast = ProviderSpec {
            model: settings.fast_model.clone(),
            ..main.clone()
        };
        Ok(Self {
            main,
            fast,
            ctx: ToolContext::new(root.to_path_buf())
                .with_trust(config.trust_repo)
                .with_safety(Safety::new(config.safety_mode)),
            settings: AgentSettings {
                max_turns: config.max_turns,
                max_tokens: config.max_output_tokens,
                subagent_max_turns: config.subagent_max_turns,
                subagent_timeout: std::time::Duration::from_secs(config.subagent_timeout_secs),
                subagent_max_tokens: config.subagent_max_output_tokens,
                run_timeout: std::time::Duration::from_secs(config.run_timeout_secs),
                structured_output: config.structured_output,
                explain_max_reads: config.explain_max_reads,
            },
            style: Style {
                preset: config.preset.clone(),
                gitmoji: config.gitmoji,
                instructions: config.instructions.clone(),
                language: config.language.clone(),
                attribution: config.attribution_trailer.clone(),
            },
            stream,
            critic_enabled: config.critic_enabled,
            user_dir: iris_studio_config::user_config_dir(),
            capabilities: Arc::default(),
            raw_reply_dir: raw_reply_dir.to_path_buf(),
            learned: Learned::default(),
            pr_template: None,
            sessions: None,
            review: iris_studio_core::artifact::review::ReviewOptions {
                verify: config.review_verify,
                ..Default::default()
            },
            price: config.model_price(),
            run: new_run(cost_cap),
            issues: None,
            cost_cap,
            pin_tags: None,
        })
    }

    /// The same Iris for another command (a studio job, a call of `iris mcp`): a run
    /// context of its own, with nothing spent. Everything the command starts (candidates,
    /// the critic, review aspects, subagents) shares it, and `max_cost_per_run` holds for
    /// them together.
    pub fn for_command(&self) -> Self {
        Self {
            run: new_run(self.cost_cap),
            ..self.clone()
        }
    }

    /// The same Iris for one item of a batch (a commit `iris eval` replays): a run context of
    /// its own, with nothing spent, whose unreadable replies are numbered after the batch's
    /// others, so all of them survive the batch.
    pub fn for_item(&self) -> Self {
        Self {
            run: new_run(self.cost_cap).saving_after(&self.run),
            ..self.clone()
        }
    }

    /// The same Iris working on the repository at `root` instead (a replay of the user's
    /// history): her tools read there, everything else is as configured.
    pub fn on_repository(&self, root: &std::path::Path) -> Self {
        let mut moved = self.clone();
        moved.ctx = ToolContext {
            repo_root: root.to_path_buf(),
            ..self.ctx.clone()
        };
        moved
    }

    /// The pull request template to fill in, by name (`iris pr --template`); `None` takes the
    /// repository's default.
    pub fn with_pr_template(mut self, name: Option<String>) -> Self {
        self.pr_template = name;
        self
    }

    /// `--dry-run`: the first request is kept in `dry_run` instead of being sent, and the
    /// run stops there.
    /// It is a command of its own, which spends nothing.
    pub fn with_dry_run(mut self, dry_run: crate::runtime::dry_run::DryRun) -> Self {
        self.run = RunContext::dry(dry_run);
        self
    }

    /// The provider and model the run talks to, as errors name them (`openai gpt-5`).
    pub fn model_label(&self) -> String {
        self.main.label()
    }

    /// The provider, the main model, and its prices with where they come from, when known.
    pub fn pricing(
        &self,
    ) -> (
        crate::ProviderKind,
        &str,
        Option<&(
            iris_studio_config::prices::Price,
            iris_studio_config::prices::PriceSource,
        )>,
    ) {
        (self.main.kind, &self.main.model, self.price.as_ref())
    }

    /// What names the commits Actions are pinned to by their tags, for the Packages section
    /// of a request (the binary gives the user's `gh`).
    pub fn with_pin_tags(mut self, tags: Arc<dyn PinTags>) -> Self {
        self.pin_tags = Some(tags);
        self
    }

    /// How reviews are written (`iris review --aspects`, `--verify`).
    pub fn with_review(
        mut self,
        options: iris_studio_core::artifact::review::ReviewOptions,
    ) -> Self {
        self.review = options;
        self
    }

    /// The section on what the user asked their coding agent while making the change, which
    /// every artifact's request carries (`None`: no section). The application finds it: Iris
    /// reads no session of her own.
    pub fn with_sessions(mut self, section: Option<String>) -> Self {
        self.sessions = section;
        self
    }

    /// Reads the issues a commit or PR is for through `reader`: the branch's ticket, and for a
    /// PR every issue its commits name; they go in the request as their own section.
    pub fn with_issue_reader(mut self, reader: Arc<dyn crate::issues::IssueReader>) -> Self {
        self.issues = Some(reader);
        self
    }

    /// The findings dismissed before, which a review's request carries as notes (the other
    /// review options kept).
    pub fn with_dismissals(
        mut self,
        dismissals: Vec<iris_studio_core::artifact::review::memory::Dismissal>,
    ) -> Self {
        self.review.dismissals = dismissals;
        self
    }

    /// Where capability overrides are read from; `None` reads only the built-in ones.
    pub fn with_user_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.user_dir = dir;
        self.capabilities = Arc::default();
        self
    }

    /// The longest a whole run may take.
    pub fn with_run_timeout(mut self, limit: std::time::Duration) -> Self {
        self.settings.run_timeout = limit;
        self
    }

    /// The scanner every request to the model passes (`None` when the scan is off), for
    /// whoever shows the user what leaves the machine.
    pub fn secret_scanner(&self) -> Option<Arc<Scanner>> {
        self.main.secrets.clone()
    }

    /// The capability `name`, read once per Iris: the built-in one, or the user's override.
    pub(crate) fn capability(&self, name: &str) -> Result<Capability, CapabilityError> {
        if let Some(cap) = self
            .capabilities
            .lock()
            .ok()
            .and_then(|c| c.get(name).cloned())
        {
            return Ok(cap);
        }
        let cap = Capability::load(name, self.user_dir.as_deref())?;
        if let Ok(mut read) = self.capabilities.lock() {
            read.insert(name.to_string(), cap.clone());
        }
        Ok(cap)
    }

    /// The instructions: persona, a capability's task, the style and the output format.
    pub(crate) fn preamble(&self, task: &str, output: OutputType) -> anyhow::Result<String> {
        let style = style_instructions(
            &self.style.preset,
            self.style.gitmoji,
            &self.style.instructions,
        )?;
        let format = if output.is_structured() {
            let (schema, guidance) = self.asked_schema(output);
            let mut format = json_output(&schema)?;
            if !guidance.is_empty() {
                let fields: Vec<String> = guidance
                    .iter()
                    .map(|(field, text)| format!("- `{field}`: {text}"))
                    .collect();
                format.push_str(&format!(
                    "\n\nWhat each field holds:\n{}",
                    fields.join("\n")
                ));
            }
            format
        } else {
            "## Output\nReply in concise markdown.".to_string()
        };
        let language = language_section(&self.style.language)
            .map(|section| format!("{section}\n\n"))
            .unwrap_or_default();
        Ok(format!(
            "{PERSONA}\n\n## Task\n{}\n\n## Style\n{style}\n\n{language}{format}",
            task.trim()
        ))
    }

    /// The schema the provider is asked to keep an answer to, unless the configuration says
    /// not to ask (whether the provider refused it is [`Learned`]'s to say).
    pub(crate) fn schema_if_asked(&self, schema: serde_json::Value) -> Option<serde_json::Value> {
        self.settings.structured_output.then_some(schema)
    }

    /// The output budget of one reply of a capability that `asked` for one: the configured
    /// one, or less if it asks less or the model refused more.
    /// The output budget of one reply of `cap`: its own (the local one on a local server),
    /// within the configured budget and what the provider refused.
    pub(crate) fn max_tokens(&self, cap: &crate::capability::Capability) -> u64 {
        let asked = match cap.local_output_tokens {
            Some(local) if self.main.local => Some(local),
            _ => cap.max_output_tokens,
        };
        let budget = asked.map_or(self.settings.max_tokens, |asked| {
            asked.min(self.settings.max_tokens)
        });
        self.learned.cap(budget)
    }

    /// `output`'s schema as this provider is asked for it, and the guidance for its fields
    /// that goes beside it as prose. A hosted model gets the schema whole (no guidance
    /// apart). A small local model copies a description standing next to its field into the
    /// field, and fills a commit's `emoji` field with emoji until the repetition guard stops
    /// it: it gets the schema bare, without `emoji` when gitmoji is off.
    pub(crate) fn asked_schema(
        &self,
        output: OutputType,
    ) -> (serde_json::Value, Vec<(String, String)>) {
        if !self.main.local {
            return (output.schema(), Vec::new());
        }
        let (mut bare, mut guidance) = split_descriptions(&output.schema());
        if output == OutputType::Commit && !self.style.gitmoji {
            without_property(&mut bare, "emoji");
            guidance.retain(|(field, _)| field != "emoji");
        }
        (bare, guidance)
    }

    /// The schema the provider is asked to keep `output` to, while it has not refused.
    pub(crate) fn schema_for(&self, output: OutputType) -> Option<serde_json::Value> {
        (output.is_structured()
            && self.settings.structured_output
            && !self.learned.schema_refused())
        .then(|| self.asked_schema(output).0)
    }

    /// Every tool the main agent gets, with subagents on the fast model reporting to `sink`
    /// and a fresh notebook.
    pub(crate) fn main_tools(&self, sink: &EventSink) -> Vec<Box<dyn ToolDyn>> {
        let analyst = crate::capability::delegate::FastModel {
            spec: self.fast.clone(),
            context: self.run.clone(),
            max_tokens: self.settings.subagent_max_tokens,
            timeout: self.settings.subagent_timeout,
        };
        let subagents = Subagents {
            analyst: Arc::new(analyst),
            ctx: self.ctx.reporting_to(sink),
            default_turns: self.settings.subagent_max_turns,
            sink: sink.clone(),
        };
        main_agent_tools(&subagents, &Notes::default())
    }
}

/// What the output section says instead of the schema when the request carries the schema
/// itself (OpenAI's `text.format`): the schema is sent once.
pub(crate) const SCHEMA_CARRIED: &str = "## Output\nWhen you have the evidence you need, reply \
     with only one JSON object matching the JSON schema this request gives as its response \
     format: no prose before or after it, no code fence.";

/// The instructions with their output section's schema left out, for a request that carries
/// the schema as the provider's own field; the instructions as they are otherwise.
pub(crate) fn schema_once(preamble: &str, schema: &serde_json::Value) -> String {
    match json_output(schema) {
        Ok(section) if preamble.contains(&section) => {
            preamble.replacen(&section, SCHEMA_CARRIED, 1)
        }
        _ => preamble.to_string(),
    }
}

/// The output section of the instructions: one JSON object matching `schema`, nothing else.
pub(crate) fn json_output(schema: &serde_json::Value) -> anyhow::Result<String> {
    Ok(format!(
        "## Output\nWhen you have the evidence you need, reply with only one JSON object \
         matching this JSON schema: no prose before or after it, no code fence.\n{}",
        serde_json::to_string_pretty(schema)?
    ))
}

#[cfg(test)]
mod tests {
    use iris_studio_config::{Config, Overrides};

    use super::IrisAgent;
    use crate::error::Kind;

    fn agent_error(env: &[(&str, &str)], overrides: &Overrides) -> crate::Error {
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
        assert_eq!(err.kind(), Kind::NotSetUp, "{err:#}");
        for provider in ["anthropic", "gemini"] {
            let flags = Overrides {
                provider: Some(provider.into()),
                ..Overrides::default()
            };
            assert_eq!(agent_error(&[], &flags).kind(), Kind::NotSetUp);
        }
        // openai-compatible without a base URL, then without a model.
        let compat = Overrides {
            provider: Some("openai-compatible".into()),
            ..Overrides::default()
        };
        assert_eq!(agent_error(&[], &compat).kind(), Kind::NotSetUp);
        let err = agent_error(&[("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")], &compat);
        assert_eq!(err.kind(), Kind::NotSetUp, "{err:#}");
        assert!(err.to_string().starts_with("no model for"), "{err}");
    }
}
