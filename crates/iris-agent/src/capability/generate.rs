//! An artifact end to end: compose the instructions, let Iris gather evidence and write, read
//! the artifact out of her reply, and have the critic check it (a revision once if it asks);
//! and a follow-up on an artifact already written. The conversation itself is
//! [`conversation`](super::conversation)'s.

use crate::capability::Capability;
use crate::capability::conversation::Ask;
use crate::iris::IrisAgent;
use crate::output::{OutputError, parse_structured};
use crate::runtime::preview::Previewing;
use crate::runtime::request::{Request, Section};
use crate::{ECHOED, ErrorKind, EventSink, ProviderError};
use iris_studio_core::artifact::echo::{Echo, echoed};
use iris_studio_core::artifact::title_floor::{NotATitle, not_a_title};
use iris_studio_core::artifact::{Artifact, ArtifactKind, Critique, OutputType};
use iris_studio_core::protocol::AgentEvent;

/// Added to the instructions when a first attempt overflowed the model's context.
const SUMMARY_ONLY: &str = "## Context budget\nA first attempt exceeded the model's context \
window. Use git_diff with detail=summary, request full diffs for at most three files, and \
delegate the rest to parallel_analyze.";

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
    /// The artifact read from the reply (the revision, when the critic asked for one).
    pub artifact: T,
    /// Requests sent to the model, the critic's included.
    pub requests: usize,
    /// Input tokens of those requests, as the provider reported them.
    pub input_tokens: u64,
    /// Output tokens of those requests, as the provider reported them.
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
        request: &Request,
        critic: bool,
        sink: &EventSink,
    ) -> crate::Result<Generated<T>> {
        crate::error::at_edge(async move {
            let cap = self.capability(capability)?;
            let preamble = self.preamble(&cap.task_prompt, T::OUTPUT_TYPE)?;
            sink.send(AgentEvent::Status(format!("running {}", cap.name)));
            let (mut artifact, mut usage) = self
                .draft::<T>(&cap, &preamble, request, request, sink)
                .await?;
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
                            let (better, spent) = self
                                .draft::<T>(&cap, &preamble, &revision, request, sink)
                                .await?;
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
        })
        .await
    }

    /// The artifact from the main agent. A reply that repeats the instructions instead of
    /// writing, or whose title is no title (measured against `evidence`, the first request:
    /// a revision's request quotes the draft, whose title may rightly stay), is asked again
    /// once, what it did named; a second one is a failure.
    async fn draft<T: Artifact + Send + 'static>(
        &self,
        cap: &Capability,
        preamble: &str,
        request: &Request,
        evidence: &Request,
        sink: &EventSink,
    ) -> anyhow::Result<(T, Spent)> {
        let (artifact, spent) = self.attempt::<T>(cap, preamble, request, sink).await?;
        let output = T::OUTPUT_TYPE;
        let asked = request.render();
        let Some(miss) =
            NotWritten::of(output, &serde_json::to_value(&artifact)?, preamble, &asked)
        else {
            return Ok((artifact, spent));
        };
        sink.send(AgentEvent::Status(miss.asking_again()));
        let again = request.clone().with(
            Section::Revision,
            format!(
                "## Your previous reply\n{}",
                miss.told(T::OUTPUT_TYPE.name())
            ),
        );
        let (artifact, more) = self.attempt::<T>(cap, preamble, &again, sink).await?;
        match NotWritten::of(
            output,
            &serde_json::to_value(&artifact)?,
            preamble,
            &evidence.render(),
        ) {
            None => Ok((artifact, spent + more)),
            Some(miss) => Err(miss.failure(&self.main).into()),
        }
    }

    /// One attempt: the main agent with every tool, then the artifact read from its reply.
    /// While the reply streams, the artifact shows as it forms (`AgentEvent::Preview`).
    async fn attempt<T: Artifact + Send + 'static>(
        &self,
        cap: &Capability,
        preamble: &str,
        request: &Request,
        sink: &EventSink,
    ) -> anyhow::Result<(T, Spent)> {
        let kind = ArtifactKind::of_output(T::OUTPUT_TYPE);
        let schema = iris_studio_core::artifact::schema::full_schema::<T>();
        let render = Box::new(crate::output::Previewer::<T>::new(schema));
        let previewing = Previewing::new(sink, kind, render);
        let output = self.reply(cap, preamble, request, previewing.sink()).await;
        previewing.finish().await;
        self.read_artifact(cap, output?)
    }

    /// The main agent's reply. A context overflow is retried once with the summary-only
    /// strategy.
    async fn reply(
        &self,
        cap: &Capability,
        preamble: &str,
        request: &Request,
        sink: &EventSink,
    ) -> anyhow::Result<crate::RunOutput> {
        Ok(match self.run_main(cap, preamble, request, sink).await {
            Err(err) if ErrorKind::of(&err) == Some(ErrorKind::ContextLength) => {
                sink.send(AgentEvent::Status(
                    "context full: retrying with summaries only".into(),
                ));
                let narrower = format!("{preamble}\n\n{SUMMARY_ONLY}");
                // The evidence up front is the likeliest thing that did not fit.
                let request = request.without(&[Section::Evidence, Section::History]);
                self.run_main(cap, &narrower, &request, sink).await?
            }
            other => other?,
        })
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
        if T::NAMES_A_FIELD
            && let Some(keys) = crate::output::foreign_keys::<T>(&output.text)
        {
            let err = OutputError::WrongShape {
                detail: format!(
                    "it is no {}: none of its fields ({}) is one",
                    T::OUTPUT_TYPE.name(),
                    keys.join(", ")
                ),
                raw: output.text,
            };
            return Err(self.unreadable(&cap.name, &err));
        }
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
        request: Request,
        sink: &EventSink,
    ) -> anyhow::Result<Generated<T>> {
        let cap = self.capability(capability)?;
        let preamble = self.preamble(&cap.task_prompt, T::OUTPUT_TYPE)?;
        let ask = Ask {
            cap: &cap,
            preamble: &preamble,
            request: &request,
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

    /// The main agent on `request`, with the tools the capability offers (every tool when it
    /// names none), the provider asked to keep the answer to the capability's schema.
    async fn run_main(
        &self,
        cap: &Capability,
        preamble: &str,
        request: &Request,
        sink: &EventSink,
    ) -> anyhow::Result<crate::RunOutput> {
        let ask = Ask {
            cap,
            preamble,
            request,
            schema: self.schema_for(cap.output_type),
            tools: &|| {
                let mut tools = self.main_tools(sink);
                if !cap.offers_every_tool() {
                    tools.retain(|tool| cap.tools.contains(&tool.name()));
                }
                tools
            },
            max_turns: self.settings.max_turns,
        };
        self.converse(ask, sink).await
    }

    /// The verify capability's verdict on an artifact.
    async fn critique<T: Artifact + Send + 'static>(
        &self,
        artifact: &T,
        request: &Request,
        sink: &EventSink,
    ) -> anyhow::Result<(Critique, Spent)> {
        let cap = self.capability("verify")?;
        let preamble = self.preamble(&cap.task_prompt, OutputType::Critique)?;
        let prompt = Request::ask(format!(
            "The request was: {}\n\nThe draft ({}) to check against the evidence:\n{}",
            request.render(),
            T::OUTPUT_TYPE.name(),
            serde_json::to_string_pretty(artifact)?
        ));
        self.draft::<Critique>(&cap, &preamble, &prompt, &prompt, sink)
            .await
    }
}

/// The tools of a follow-up: none.
fn no_tools() -> Vec<Box<dyn rig_core::tool::ToolDyn>> {
    Vec::new()
}

/// The request again, with the draft and the critic's findings, for one revision.
fn revision_request<T: Artifact>(
    request: &Request,
    draft: &T,
    verdict: &Critique,
) -> anyhow::Result<Request> {
    let issues: Vec<String> = verdict
        .issues
        .iter()
        .map(|i| format!("- [{:?}] {}: {}", i.severity, i.title, i.body))
        .collect();
    Ok(request.clone().with(
        Section::Revision,
        format!(
            "A reviewer checked your previous draft against the evidence and asked for a \
             revision.\n\nPrevious draft:\n{}\n\nProblems found:\n{}\n\n{}\n\nWrite the corrected artifact.",
            serde_json::to_string_pretty(draft)?,
            issues.join("\n"),
            verdict.revision_prompt
        ),
    ))
}

/// A reply that holds an artifact but was not written: a copy of the instructions, or a title
/// that is no title.
enum NotWritten {
    Echo(Echo),
    NoTitle { title: String, why: NotATitle },
}

impl NotWritten {
    /// What is wrong with `artifact` (its JSON, an `output`), written for `preamble` and
    /// `request`. Only a commit's title is held to the floor: a pull request or a release
    /// may rightly be titled as one of its commits, which its request lists.
    fn of(
        output: OutputType,
        artifact: &serde_json::Value,
        preamble: &str,
        request: &str,
    ) -> Option<Self> {
        if let Some(echo) = echoed(artifact, preamble) {
            return Some(Self::Echo(echo));
        }
        if output != OutputType::Commit {
            return None;
        }
        let why = not_a_title(artifact, request)?;
        let title = artifact.get("title")?.as_str()?.chars().take(80).collect();
        Some(Self::NoTitle { title, why })
    }

    /// The status while Iris asks again.
    fn asking_again(&self) -> String {
        match self {
            Self::Echo(_) => "the reply repeated the instructions; asking again".into(),
            Self::NoTitle { .. } => "the reply's title is no title; asking again".into(),
        }
    }

    /// What the model is told of its previous reply, writing a `what`.
    fn told(&self, what: &str) -> String {
        match self {
            Self::Echo(echo) => format!(
                "Its {} was \"{}\": a copy of the instructions, not the {what} itself. Write it \
                 from the evidence, in your own words.",
                echo.field, echo.text
            ),
            Self::NoTitle { title, why } => format!(
                "Its title was \"{title}\": {}. Write a title that says what the change does, \
                 in your own words.",
                why.describe()
            ),
        }
    }

    /// The failure when the second reply was no better.
    fn failure(&self, spec: &crate::ProviderSpec) -> ProviderError {
        match self {
            Self::Echo(echo) => ProviderError::new(
                spec,
                ErrorKind::Echo,
                format!("{ECHOED} (twice; its {} was \"{}\")", echo.field, echo.text),
            ),
            Self::NoTitle { title, why } => ProviderError::new(
                spec,
                ErrorKind::NoTitle,
                format!(
                    "the model wrote no title, twice: its title was \"{title}\", {}",
                    why.describe()
                ),
            ),
        }
    }
}
