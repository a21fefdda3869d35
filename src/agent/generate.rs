//! Capabilities end to end: compose the instructions, let Iris gather evidence and write,
//! read the artifact out of her reply, and have the critic check it.

use super::capability::Capability;
use super::iris::IrisAgent;
use super::output::{OutputError, parse_structured};
use super::{AgentEvent, EventSink, ProviderError, Run, run};
use crate::types::{Artifact, Critique, OutputType};

/// Added to the instructions when a first attempt overflowed the model's context.
const SUMMARY_ONLY: &str = "## Context budget\nA first attempt exceeded the model's context \
window. Use git_diff with detail=summary, request full diffs for at most three files, and \
delegate the rest to parallel_analyze.";

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
        let request = Run {
            preamble: preamble.to_string(),
            history: Vec::new(),
            prompt: request.to_string(),
            tools: self.main_tools(sink),
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
