//! Capabilities end to end: compose the instructions, let Iris gather evidence and write,
//! read the artifact out of her reply, and have the critic check it.

use crate::capability::Capability;
use crate::iris::IrisAgent;
use crate::output::{OutputError, parse_structured};
use crate::runtime::safety::Safety;
use crate::{EventSink, ProviderError, Run, run};
use iris_core::artifact::{Artifact, Critique, OutputType};
use iris_core::protocol::AgentEvent;

/// Added to the instructions when a first attempt overflowed the model's context.
const SUMMARY_ONLY: &str = "## Context budget\nA first attempt exceeded the model's context \
window. Use git_diff with detail=summary, request full diffs for at most three files, and \
delegate the rest to parallel_analyze.";

/// A run that went on past `run_timeout_secs`.
#[derive(Debug, thiserror::Error)]
#[error(
    "stopped after {}s: the run took longer than run_timeout_secs allows (raise it with \
     `iris config set run_timeout_secs N`, or ask for less)",
    .0.as_secs()
)]
pub struct RunTimedOut(pub std::time::Duration);

/// `work`, stopped with [`RunTimedOut`] once `limit` has passed: the one deadline of a write
/// (evidence, draft, critic, revision) and of a chat turn. Time a question waits for the user
/// (`safety`) does not count: an approval given after a coffee still lets the run finish.
pub(crate) async fn within<T>(
    limit: std::time::Duration,
    safety: &Safety,
    work: impl std::future::Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    let start = tokio::time::Instant::now();
    let waited_before = safety.waited();
    let mut work = std::pin::pin!(work);
    loop {
        let waited = safety.waited().saturating_sub(waited_before);
        tokio::select! {
            out = &mut work => return out,
            _ = tokio::time::sleep_until(start + limit + waited) => {
                // A question answered (or still open) meanwhile moves the deadline on.
                if safety.waited().saturating_sub(waited_before) == waited {
                    return Err(RunTimedOut(limit).into());
                }
            }
        }
    }
}

/// What requests spent: how many, input and output tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Spent {
    requests: usize,
    input: u64,
    output: u64,
}

impl std::ops::Add for Spent {
    type Output = Spent;
    fn add(self, other: Spent) -> Spent {
        Spent {
            requests: self.requests + other.requests,
            input: self.input + other.input,
            output: self.output + other.output,
        }
    }
}

/// An artifact and what it cost.
#[derive(Debug, Clone)]
pub struct Generated<T> {
    pub artifact: T,
    /// Requests sent to the model, the critic's included.
    pub requests: usize,
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
    pub async fn run_capability<T: Artifact + Send + 'static>(
        &self,
        capability: &str,
        request: &str,
        critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Generated<T>> {
        let cap = Capability::load(capability, self.user_dir.as_deref())?;
        let preamble = self.preamble(&cap.task_prompt, T::OUTPUT_TYPE)?;
        sink.send(AgentEvent::Status(format!("running {}", cap.name)));
        let (mut artifact, mut usage) = self.draft::<T>(&cap, &preamble, request, sink).await?;
        let mut revised = false;
        let mut critic_warning = None;
        if critic {
            sink.send(AgentEvent::Status("checking the draft".into()));
            match self.critique(&artifact, request, sink).await {
                Ok((verdict, spent)) => {
                    usage = usage + spent;
                    if verdict.requires_revision {
                        sink.send(AgentEvent::Status("revising the draft".into()));
                        let revision = revision_request(request, &artifact, &verdict)?;
                        let (better, spent) =
                            self.draft::<T>(&cap, &preamble, &revision, sink).await?;
                        artifact = better;
                        usage = usage + spent;
                        revised = true;
                    }
                }
                // A failing critic only warns: the first artifact stands.
                Err(err) => critic_warning = Some(format!("{err:#}")),
            }
        }
        Ok(Generated {
            artifact,
            requests: usage.requests,
            input_tokens: usage.input,
            output_tokens: usage.output,
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
    ) -> anyhow::Result<(T, Spent)> {
        let output = match self.run_main(cap, preamble, request, sink).await {
            Err(err)
                if err
                    .downcast_ref::<ProviderError>()
                    .is_some_and(ProviderError::is_context_length) =>
            {
                sink.send(AgentEvent::Status(
                    "context full: retrying with summaries only".into(),
                ));
                let narrower = format!("{preamble}\n\n{SUMMARY_ONLY}");
                // The evidence up front is the likeliest thing that did not fit.
                let request = crate::capability::evidence::without_evidence(request);
                self.run_main(cap, &narrower, request, sink).await?
            }
            other => other?,
        };
        self.read_artifact(cap, output)
    }

    /// The artifact in a conversation's final reply, and what the conversation cost.
    fn read_artifact<T: Artifact>(
        &self,
        cap: &Capability,
        output: crate::RunOutput,
    ) -> anyhow::Result<(T, Spent)> {
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
        let spent = Spent {
            requests: output.requests,
            input: output.input_tokens,
            output: output.output_tokens,
        };
        Ok((artifact, spent))
    }

    /// One follow-up on an artifact already written: `capability`'s instructions and output
    /// type, `request` (which holds all it needs: the artifact and what to fix), no tools and
    /// no critic, so it is one request, within the capability's output budget.
    pub(crate) async fn follow_up<T: Artifact + Send + 'static>(
        &self,
        capability: &str,
        request: &str,
        sink: &EventSink,
    ) -> anyhow::Result<Generated<T>> {
        let cap = Capability::load(capability, self.user_dir.as_deref())?;
        let preamble = self.preamble(&cap.task_prompt, T::OUTPUT_TYPE)?;
        let ask = Ask {
            cap: &cap,
            preamble: &preamble,
            request,
            schema: self.schema_for(cap.output_type),
            tools: &no_tools,
            // The least rig allows; with no tool to call, the model answers at once.
            max_turns: 2,
        };
        let output = self.converse(ask, sink).await?;
        let (artifact, spent) = self.read_artifact::<T>(&cap, output)?;
        Ok(Generated {
            artifact,
            requests: spent.requests,
            input_tokens: spent.input,
            output_tokens: spent.output,
            revised: false,
            critic_warning: None,
        })
    }

    /// The main agent on `request`, with every tool, the provider asked to keep the answer to
    /// the capability's schema.
    async fn run_main(
        &self,
        cap: &Capability,
        preamble: &str,
        request: &str,
        sink: &EventSink,
    ) -> anyhow::Result<crate::RunOutput> {
        let ask = Ask {
            cap,
            preamble,
            request,
            schema: self.schema_for(cap.output_type),
            tools: &|| self.main_tools(sink),
            max_turns: self.settings.max_turns,
        };
        self.converse(ask, sink).await
    }

    /// One conversation as `ask` describes it, within the capability's budget. A provider
    /// that refuses the schema option, or a budget above its model's maximum (a 400 saying
    /// so), is asked again without it or within the maximum it names, and is not asked so
    /// again.
    pub(crate) async fn converse(
        &self,
        ask: Ask<'_>,
        sink: &EventSink,
    ) -> anyhow::Result<crate::RunOutput> {
        let mut schema = ask.schema.filter(|_| !self.learned.schema_refused());
        let mut max_tokens = self.max_tokens(ask.cap.max_output_tokens);
        let mut tries = 0;
        loop {
            let attempt = Run {
                preamble: ask.preamble.to_string(),
                history: Vec::new(),
                prompt: ask.request.to_string(),
                tools: (ask.tools)(),
                max_turns: ask.max_turns,
                max_tokens,
                schema: schema.clone(),
                stream: self.stream,
            };
            let err = match run(&self.main, attempt, sink.clone()).await {
                Err(err) if tries < 2 => err,
                done => return done,
            };
            tries += 1;
            if let Some(lower) = budget_refused(&err, max_tokens) {
                tracing::debug!("the model refused the output budget: {err:#}");
                self.learned.cap_budget(lower);
                max_tokens = lower;
                sink.send(AgentEvent::Status(format!(
                    "the model takes at most {lower} output tokens; asking within that"
                )));
            } else if schema.is_some() && refused_option(&err) {
                tracing::debug!("the provider refused the schema option: {err:#}");
                self.learned.refuse_schema();
                schema = None;
                sink.send(AgentEvent::Status(
                    "the provider refused the JSON schema option; asking without it".into(),
                ));
            } else {
                return Err(err);
            }
        }
    }

    /// The verify capability's verdict on an artifact.
    async fn critique<T: Artifact + Send + 'static>(
        &self,
        artifact: &T,
        request: &str,
        sink: &EventSink,
    ) -> anyhow::Result<(Critique, Spent)> {
        let cap = Capability::load("verify", self.user_dir.as_deref())?;
        let preamble = self.preamble(&cap.task_prompt, OutputType::Critique)?;
        let prompt = format!(
            "The request was: {request}\n\nThe draft ({}) to check against the evidence:\n{}",
            T::OUTPUT_TYPE.name(),
            serde_json::to_string_pretty(artifact)?
        );
        self.draft::<Critique>(&cap, &preamble, &prompt, sink).await
    }

    /// Saves a reply that could not be read and says where it is.
    pub(crate) fn unreadable(&self, capability: &str, err: &OutputError) -> anyhow::Error {
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

/// One conversation of a capability: its instructions, the request, the schema the answer
/// is asked to keep to (`None`: free text, or only told), the tools (made anew for each
/// attempt) and how many replies the model may take.
pub(crate) struct Ask<'a> {
    pub cap: &'a Capability,
    pub preamble: &'a str,
    pub request: &'a str,
    pub schema: Option<serde_json::Value>,
    pub tools: &'a (dyn Fn() -> Vec<Box<dyn rig_core::tool::ToolDyn>> + Sync),
    pub max_turns: usize,
}

/// The tools of a follow-up: none.
fn no_tools() -> Vec<Box<dyn rig_core::tool::ToolDyn>> {
    Vec::new()
}

/// A 400 (or 422) answer about the output format: what a server says to an option it does
/// not know ("response_format is not supported", "Invalid schema for response_format ...",
/// "Function calling with a response mime type ..."). Any other failure, a tool's own
/// `input_schema` included, is not the format option's doing.
fn refused_option(err: &anyhow::Error) -> bool {
    let Some(err) = bad_request(err) else {
        return false;
    };
    let message = err.message.to_ascii_lowercase();
    const ABOUT_THE_OPTION: [&str; 10] = [
        "response_format",
        "json_schema",
        "output_config",
        "output_format",
        "text.format",
        "mime",
        "responsejsonschema",
        "response_json_schema",
        "structured output",
        "invalid format",
    ];
    !message.contains("input_schema") && ABOUT_THE_OPTION.iter().any(|w| message.contains(w))
}

/// The budget to ask for when a 400 says the model takes fewer output tokens than `asked`
/// ("max_tokens: 16384 > 8192, which is the maximum allowed ..."): the largest number the
/// message names below `asked`.
fn budget_refused(err: &anyhow::Error, asked: u64) -> Option<u64> {
    let message = bad_request(err)?.message.to_ascii_lowercase();
    let about_budget = [
        "max_tokens",
        "max_output_tokens",
        "maxoutputtokens",
        "num_predict",
        "output tokens",
        "completion tokens",
    ]
    .iter()
    .any(|w| message.contains(w));
    if !about_budget {
        return None;
    }
    message
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|digits| digits.parse::<u64>().ok())
        .filter(|n| (256..asked).contains(n))
        .max()
}

fn bad_request(err: &anyhow::Error) -> Option<&ProviderError> {
    err.downcast_ref::<ProviderError>()
        .filter(|e| matches!(e.status(), Some(400 | 422)))
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::sync::mpsc::unbounded_channel;

    use super::*;
    use iris_core::protocol::{Decision, Risk, SafetyMode};

    const LIMIT: Duration = Duration::from_millis(300);

    #[tokio::test]
    async fn the_deadline_stops_work_that_takes_too_long() {
        let safety = Safety::new(SafetyMode::Safe);
        let slow = async {
            tokio::time::sleep(LIMIT * 3).await;
            Ok(())
        };
        let err = within(LIMIT, &safety, slow).await.unwrap_err();
        assert!(err.downcast_ref::<RunTimedOut>().is_some(), "{err}");
    }

    #[tokio::test]
    async fn time_spent_waiting_for_the_user_does_not_count() {
        let safety = Safety::new(SafetyMode::Safe);
        // The user answers after twice the run's whole limit.
        let (tx, mut rx) = unbounded_channel();
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if let AgentEvent::Approval(request) = event {
                    tokio::time::sleep(LIMIT * 2).await;
                    request.reply.send(Decision::AllowOnce);
                }
            }
        });
        let sink = EventSink::new(tx);
        let work = async {
            tokio::time::sleep(LIMIT / 3).await;
            safety
                .permit("static_analysis", Risk::Execute, "{}", &sink)
                .await?;
            tokio::time::sleep(LIMIT / 3).await;
            Ok("done")
        };
        assert_eq!(within(LIMIT, &safety, work).await.unwrap(), "done");
        assert!(safety.waited() >= LIMIT * 2);
    }
}
