//! Capabilities end to end: compose the instructions, let Iris gather evidence and write,
//! read the artifact out of her reply, and have the critic check it.

use std::path::PathBuf;

use super::capability::Capability;
use super::output::{OutputError, parse_structured};
use super::style::style_instructions;
use super::tools::ToolContext;
use super::tools::registry::main_agent_tools;
use super::tools::subagent::Subagents;
use super::tools::workspace::Notes;
use super::{AgentEvent, AgentSettings, EventSink, ProviderError, ProviderSpec, Run, run};
use crate::types::{Artifact, Critique, OutputType};

/// Who Iris is, before any capability's task.
const PERSONA: &str = "You are Iris, an expert software engineer who writes the prose around \
code changes: commit messages, pull request descriptions, code reviews, changelogs and release \
notes. You work from evidence: use your tools to read the change (start with git_diff's \
summary, then the full diff of the files that matter), its history and the code around it. \
Never invent changes, files, issues or numbers that the evidence does not show.";

/// Added to the instructions when a first attempt overflowed the model's context.
const SUMMARY_ONLY: &str = "## Context budget\nA first attempt exceeded the model's context \
window. Use git_diff with detail=summary, request full diffs for at most three files, and \
delegate the rest to parallel_analyze.";

/// How Iris writes: a preset, gitmoji or not, and the user's own instructions.
#[derive(Debug, Clone, Default)]
pub struct Style {
    pub preset: String,
    pub gitmoji: bool,
    pub instructions: String,
}

/// Iris, configured: the models, the repository, the limits and the style.
#[derive(Clone)]
pub struct IrisAgent {
    pub main: ProviderSpec,
    pub fast: ProviderSpec,
    pub ctx: ToolContext,
    pub settings: AgentSettings,
    pub style: Style,
    /// Stream replies (text arrives as events) or take them whole.
    pub stream: bool,
    /// The critic may check artifacts (`critic_enabled`).
    pub critic_enabled: bool,
    /// The user's config directory, where capability overrides live.
    pub user_dir: Option<PathBuf>,
    /// Where a reply that could not be read is saved for the user.
    pub raw_reply_dir: PathBuf,
}

/// An artifact and what it cost.
#[derive(Debug, Clone)]
pub struct Generated<T> {
    pub artifact: T,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The critic asked for a revision and the artifact was rewritten once.
    pub revised: bool,
    /// The critic could not run; the first artifact stands.
    pub critic_warning: Option<String>,
}

impl IrisAgent {
    /// Iris as the configuration says, working on the repository at `root`.
    pub fn from_config(
        config: &crate::config::Config,
        root: &std::path::Path,
        git_dir: &std::path::Path,
        stream: bool,
    ) -> anyhow::Result<Self> {
        let settings = config.provider_settings();
        let main = ProviderSpec {
            kind: config.provider,
            model: config.require_model()?.to_string(),
            base_url: config.base_url()?.map(str::to_string),
            api_key: config.api_key()?.map(|key| key.expose().to_string()),
            stall_timeout: std::time::Duration::from_secs(config.request_timeout_secs),
        };
        let fast = ProviderSpec {
            model: settings.fast_model.clone(),
            ..main.clone()
        };
        Ok(Self {
            main,
            fast,
            ctx: ToolContext::new(root.to_path_buf()).with_trust(config.trust_repo),
            settings: AgentSettings {
                max_turns: config.max_turns,
                subagent_max_turns: config.subagent_max_turns,
                subagent_timeout: std::time::Duration::from_secs(config.subagent_timeout_secs),
                ..AgentSettings::default()
            },
            style: Style {
                preset: config.preset.clone(),
                gitmoji: config.gitmoji,
                instructions: config.instructions.clone(),
            },
            stream,
            critic_enabled: config.critic_enabled,
            user_dir: crate::config::user_config_dir(),
            raw_reply_dir: git_dir.join("iris"),
        })
    }

    /// Runs `capability` on `request` and returns its artifact. With `critic`, the verify
    /// capability checks it and a revision is made once if it asks for one.
    /// Ends with a [`AgentEvent::Done`] or [`AgentEvent::Error`] event as well.
    pub async fn generate<T: Artifact + Send + 'static>(
        &self,
        capability: &str,
        request: &str,
        critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Generated<T>> {
        let result = self
            .generate_inner::<T>(capability, request, critic, sink)
            .await;
        match &result {
            Ok(generated) => sink.send(AgentEvent::Done(generated.artifact.to_markdown())),
            Err(err) => sink.send(AgentEvent::Error(format!("{err:#}"))),
        }
        result
    }

    async fn generate_inner<T: Artifact + Send + 'static>(
        &self,
        capability: &str,
        request: &str,
        critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Generated<T>> {
        let cap = Capability::load(capability, self.user_dir.as_deref())?;
        let preamble = self.preamble(&cap, T::OUTPUT_TYPE)?;
        sink.send(AgentEvent::Status(format!("running {}", cap.name)));
        let (mut artifact, mut usage) = self.draft::<T>(&cap, &preamble, request, sink).await?;
        let mut revised = false;
        let mut critic_warning = None;
        if critic {
            sink.send(AgentEvent::Status("checking the draft".into()));
            match self.critique(&artifact, request, sink).await {
                Ok((verdict, spent)) => {
                    usage = add(usage, spent);
                    if verdict.requires_revision {
                        sink.send(AgentEvent::Status("revising the draft".into()));
                        let revision = revision_request(request, &artifact, &verdict)?;
                        let (better, spent) =
                            self.draft::<T>(&cap, &preamble, &revision, sink).await?;
                        artifact = better;
                        usage = add(usage, spent);
                        revised = true;
                    }
                }
                // A failing critic only warns: the first artifact stands.
                Err(err) => critic_warning = Some(format!("{err:#}")),
            }
        }
        Ok(Generated {
            artifact,
            input_tokens: usage.0,
            output_tokens: usage.1,
            revised,
            critic_warning,
        })
    }

    /// The instructions: persona, the capability's task, the style and the output format.
    pub(crate) fn preamble(&self, cap: &Capability, output: OutputType) -> anyhow::Result<String> {
        let style = style_instructions(
            &self.style.preset,
            self.style.gitmoji,
            &self.style.instructions,
        )?;
        let format = if output.is_structured() {
            format!(
                "## Output\nWhen you have the evidence you need, reply with only one JSON object \
                 matching this JSON schema: no prose before or after it, no code fence.\n{}",
                serde_json::to_string_pretty(&output.schema())?
            )
        } else {
            "## Output\nReply in concise markdown.".to_string()
        };
        Ok(format!(
            "{PERSONA}\n\n## Task\n{}\n\n## Style\n{style}\n\n{format}",
            cap.task_prompt.trim()
        ))
    }

    /// One attempt: the main agent with every tool, then the artifact read from its reply.
    /// A context overflow is retried once with the summary-only strategy.
    async fn draft<T: Artifact + Send + 'static>(
        &self,
        cap: &Capability,
        preamble: &str,
        request: &str,
        sink: &EventSink,
    ) -> anyhow::Result<(T, (u64, u64))> {
        let output = match self.run_main(preamble, request, sink).await {
            Err(err)
                if err
                    .downcast_ref::<ProviderError>()
                    .is_some_and(ProviderError::is_context_length) =>
            {
                sink.send(AgentEvent::Status(
                    "context full: retrying with summaries only".into(),
                ));
                let narrower = format!("{preamble}\n\n{SUMMARY_ONLY}");
                self.run_main(&narrower, request, sink).await?
            }
            other => other?,
        };
        let mut artifact: T = match parse_structured(&output.text) {
            Ok(artifact) => artifact,
            Err(err) => return Err(self.unreadable(&cap.name, &err)),
        };
        if let Some(missing) = artifact.missing() {
            let err = OutputError::WrongShape {
                detail: format!("it lacks {missing}"),
                raw: output.text,
            };
            return Err(self.unreadable(&cap.name, &err));
        }
        artifact.normalize();
        Ok((artifact, (output.input_tokens, output.output_tokens)))
    }

    async fn run_main(
        &self,
        preamble: &str,
        request: &str,
        sink: &EventSink,
    ) -> anyhow::Result<super::RunOutput> {
        let subagents = Subagents {
            spec: self.fast.clone(),
            ctx: self.ctx.clone(),
            settings: self.settings.clone(),
            sink: sink.clone(),
        };
        let request = Run {
            preamble: preamble.to_string(),
            history: Vec::new(),
            prompt: request.to_string(),
            tools: main_agent_tools(&subagents, &Notes::default()),
            max_turns: self.settings.max_turns,
            max_tokens: self.settings.max_tokens,
            stream: self.stream,
        };
        run(&self.main, request, sink.clone()).await
    }

    /// The verify capability's verdict on an artifact.
    async fn critique<T: Artifact + Send + 'static>(
        &self,
        artifact: &T,
        request: &str,
        sink: &EventSink,
    ) -> anyhow::Result<(Critique, (u64, u64))> {
        let cap = Capability::load("verify", self.user_dir.as_deref())?;
        let preamble = self.preamble(&cap, OutputType::Critique)?;
        let prompt = format!(
            "The request was: {request}\n\nThe draft ({}) to check against the evidence:\n{}",
            T::OUTPUT_TYPE.name(),
            serde_json::to_string_pretty(artifact)?
        );
        self.draft::<Critique>(&cap, &preamble, &prompt, sink).await
    }

    /// Saves a reply that could not be read and says where it is.
    fn unreadable(&self, capability: &str, err: &OutputError) -> anyhow::Error {
        let path = self
            .raw_reply_dir
            .join(format!("iris-{capability}-reply.txt"));
        let saved = std::fs::create_dir_all(&self.raw_reply_dir)
            .and_then(|()| std::fs::write(&path, err.raw()));
        let message = match saved {
            Ok(()) => format!(
                "could not read the artifact from the model's reply: {err}; the raw reply is saved in {}",
                path.display()
            ),
            Err(io) => format!(
                "could not read the artifact from the model's reply: {err} (saving the raw reply failed: {io})"
            ),
        };
        ProviderError::new(&self.main, message).into()
    }
}

fn add(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0 + b.0, a.1 + b.1)
}

/// The request again, with the draft and the critic's findings, for one revision.
fn revision_request<T: Artifact>(
    request: &str,
    draft: &T,
    verdict: &Critique,
) -> anyhow::Result<String> {
    let issues: Vec<String> = verdict
        .issues
        .iter()
        .map(|i| format!("- [{:?}] {}: {}", i.severity, i.title, i.body))
        .collect();
    Ok(format!(
        "{request}\n\nA reviewer checked your previous draft against the evidence and asked for a \
         revision.\n\nPrevious draft:\n{}\n\nProblems found:\n{}\n\n{}\n\nWrite the corrected artifact.",
        serde_json::to_string_pretty(draft)?,
        issues.join("\n"),
        verdict.revision_prompt
    ))
}
