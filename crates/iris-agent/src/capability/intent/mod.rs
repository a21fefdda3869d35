//! "Explain this file": why a file exists and the responsibility blocks its code divides
//! into ([`FileIntent`]), in as few round trips as the file allows.
//!
//! - **Fast path**: a file under [`FAST_PATH_LINES`] lines goes whole in one request, without
//!   tools.
//! - **Single stage** (tool calling): the first request carries the file's outline (a language
//!   without one: its first [`HEAD_LINES`] lines) and the model reads what it needs with
//!   `refer_to_source_code`, at most `explain_max_reads` times.
//! - **Two stages** (the fallback, when the single stage gives no valid answer): one request
//!   asks which ranges to read, Iris reads them, a second asks for the explanation.
//!
//! Every answer is untrusted input: it is read with the structured-output helpers and
//! normalised ([`iris_studio_core::artifact::intent::normalize`]) before it counts as one.

mod plan;
mod prompt;
mod source;

use std::sync::{Arc, Mutex};

use anyhow::Context;
use rig_core::tool::ToolDyn;

use crate::capability::Capability;
use crate::capability::conversation::Ask;
use crate::iris::{IrisAgent, json_output};
use crate::output::{OutputError, parse_structured};
use crate::tools::Adapter;
use crate::tools::refer_to_source::{Reads, ReferToSource, SourceFile};
use crate::{ErrorKind, EventSink, ProviderError};
use iris_studio_core::artifact::OutputType;
use iris_studio_core::artifact::intent::{IntentAnswer, normalize};
use iris_studio_core::artifact::schema::provider_schema;
use iris_studio_core::protocol::AgentEvent;

pub use crate::tools::refer_to_source::MAX_READ_LINES;
pub use iris_studio_core::artifact::intent::{
    BlockElements, ExecutionPath, FileIntent, IntentMetadata, LineRange, ResponsibilityBlock,
};
pub use plan::{MAX_PLAN_LINES, MAX_PLAN_RANGES};
pub use source::{FAST_PATH_LINES, FileRefused, HEAD_LINES};

/// The capability whose task prompt every request of an explanation starts from.
const CAPABILITY: &str = "file_intent";
/// Replies a request without tools may take (the least rig allows; one is used).
const NO_TOOL_TURNS: usize = 2;

/// How a file that does not go whole is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The outline, then tool reads, falling back to two stages without a valid answer.
    SingleStage,
    /// Straight to the two stages (to compare the two on the same file).
    TwoStage,
}

impl IrisAgent {
    /// Explains the file at `path` (relative to the repository root, read from the working
    /// copy): the fast path for a small file, else the single stage with the two-stage
    /// fallback. A path outside the repository, a missing, binary or empty file or a
    /// directory is refused ([`FileRefused`]) before anything is sent. The whole run has one
    /// deadline (`run_timeout_secs`) and ends with an [`AgentEvent::Done`] or
    /// [`AgentEvent::Error`] event.
    pub async fn explain_file(&self, path: &str, sink: &EventSink) -> crate::Result<FileIntent> {
        self.explain_file_with(path, Strategy::SingleStage, sink)
            .await
    }

    /// [`IrisAgent::explain_file`] with the way a larger file is read chosen (a small file
    /// always goes whole).
    pub async fn explain_file_with(
        &self,
        path: &str,
        strategy: Strategy,
        sink: &EventSink,
    ) -> crate::Result<FileIntent> {
        crate::error::at_edge(async move {
            let work = async {
                let file = Arc::new(source::read(&self.ctx, path).await?);
                let cap = self.capability(CAPABILITY)?;
                let explaining = Explaining {
                    iris: self,
                    cap,
                    file,
                    sink,
                };
                if source::fits_whole(&explaining.file) {
                    return explaining.whole().await;
                }
                let overview = source::overview(&explaining.file);
                if strategy == Strategy::TwoStage {
                    return explaining.two_stages(&overview).await;
                }
                match explaining.single_stage(&overview).await? {
                    Ok(intent) => Ok(intent),
                    Err(why) => {
                        sink.send(AgentEvent::Status(format!(
                            "no usable answer in one stage ({why}); asking in two stages"
                        )));
                        explaining.two_stages(&overview).await.with_context(|| {
                            format!(
                                "the single stage gave no usable answer ({why}), and the two-stage \
                             fallback failed too"
                            )
                        })
                    }
                }
            };
            self.bounded(sink, work, FileIntent::to_text).await
        })
        .await
    }
}

/// One explanation under way.
struct Explaining<'a> {
    iris: &'a IrisAgent,
    cap: Capability,
    file: Arc<SourceFile>,
    sink: &'a EventSink,
}

impl Explaining<'_> {
    /// The fast path: the whole file, one request, no tools.
    async fn whole(&self) -> anyhow::Result<FileIntent> {
        self.sink
            .send(AgentEvent::Status("reading the whole file".into()));
        let text = self.ask(&prompt::whole_file(&self.file)).await?;
        let (intent, blocks) = self.read_answer(&text).map_err(|e| self.unreadable(&e))?;
        Ok(self.finish(intent, blocks, ExecutionPath::FastPath, Reads::default()))
    }

    /// The single stage: the overview, then the model's reads. `Ok(Err(why))` when it gave
    /// no valid answer (an unreadable one, none at all, or the provider refused the tool);
    /// `Err` for failures a second try would meet again (the network, the key, the deadline).
    async fn single_stage(&self, overview: &str) -> anyhow::Result<Result<FileIntent, String>> {
        self.sink
            .send(AgentEvent::Status("reading the outline".into()));
        let max_reads = self.iris.settings.explain_max_reads;
        let reads = Arc::new(Mutex::new(Reads::default()));
        let ctx = self.iris.ctx.reporting_to(self.sink);
        let tools = || {
            let tool = ReferToSource::new(self.file.clone(), reads.clone(), max_reads);
            vec![Box::new(Adapter::new(ctx.clone(), tool)) as Box<dyn ToolDyn>]
        };
        let ask = Ask {
            cap: &self.cap,
            preamble: &self.preamble(&answer_schema())?,
            request: &prompt::with_tool(&self.file, overview, max_reads).into(),
            schema: self.iris.schema_if_asked(answer_schema()),
            tools: &tools,
            // Every read in a turn of its own, one turn told the limit is reached, the answer.
            max_turns: max_reads + 2,
        };
        let output = match self.iris.converse(ask, self.sink).await {
            Ok(output) => output,
            Err(err) => return no_answer(&err).map(Err).ok_or(err),
        };
        let reads = reads.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok(match self.read_answer(&output.text) {
            Ok((intent, blocks)) => {
                Ok(self.finish(intent, blocks, ExecutionPath::ToolCalling, reads))
            }
            Err(err) => {
                tracing::debug!("single stage answer unreadable: {err}");
                Err(err.to_string())
            }
        })
    }

    /// The two stages: which ranges to read, then the explanation from them.
    async fn two_stages(&self, overview: &str) -> anyhow::Result<FileIntent> {
        self.sink
            .send(AgentEvent::Status("choosing the code to read".into()));
        let schema = provider_schema::<plan::ReadPlan>();
        let text = self
            .ask_with(
                &self.preamble(&schema)?,
                &prompt::plan(&self.file, overview),
                self.iris.schema_if_asked(schema.clone()),
            )
            .await?;
        let asked: plan::ReadPlan = parse_structured(&text).map_err(|e| self.unreadable(&e))?;
        let ranges = plan::bounded(&asked, self.file.line_count());
        self.sink.send(AgentEvent::Status(format!(
            "reading {} range(s) for the model",
            ranges.len()
        )));
        let excerpts: Vec<String> = ranges
            .iter()
            .map(|&(start, end)| self.file.excerpt(start, end))
            .collect();
        let request = prompt::with_excerpts(&self.file, overview, &excerpts.join("\n"));
        let text = self.ask(&request).await?;
        let (intent, blocks) = self.read_answer(&text).map_err(|e| self.unreadable(&e))?;
        let reads = Reads {
            calls: 0,
            ranges: ranges
                .iter()
                .map(|&(start_line, end_line)| LineRange {
                    start_line,
                    end_line,
                })
                .collect(),
        };
        Ok(self.finish(intent, blocks, ExecutionPath::TwoStage, reads))
    }

    /// One request without tools, answered in the file intent's shape; the reply's text.
    async fn ask(&self, request: &str) -> anyhow::Result<String> {
        let schema = answer_schema();
        let asked = self.iris.schema_if_asked(schema.clone());
        self.ask_with(&self.preamble(&schema)?, request, asked)
            .await
    }

    /// One request without tools; the reply's text.
    async fn ask_with(
        &self,
        preamble: &str,
        request: &str,
        schema: Option<serde_json::Value>,
    ) -> anyhow::Result<String> {
        let ask = Ask {
            cap: &self.cap,
            preamble,
            request: &request.into(),
            schema,
            tools: &Vec::new,
            max_turns: NO_TOOL_TURNS,
        };
        Ok(self.iris.converse(ask, self.sink).await?.text)
    }

    /// The instructions: the capability's task, the user's own instructions, and the answer's
    /// schema. No writing style: the presets shape prose about a change, not this.
    fn preamble(&self, schema: &serde_json::Value) -> anyhow::Result<String> {
        let mut preamble = self.cap.task_prompt.trim().to_string();
        let own = self.iris.style.instructions.trim();
        if !own.is_empty() {
            preamble.push_str(&format!("\n\n## The user's instructions\n{own}"));
        }
        if let Some(section) = crate::style::language_section(&self.iris.style.language) {
            preamble.push_str(&format!("\n\n{section}"));
        }
        Ok(format!("{preamble}\n\n{}", json_output(schema)?))
    }

    /// The intent and blocks of a reply, or why there are none.
    fn read_answer(&self, text: &str) -> Result<(String, Vec<ResponsibilityBlock>), OutputError> {
        let answer: IntentAnswer = parse_structured(&spelled_as_specified(text))?;
        normalize(answer, self.file.line_count()).map_err(|why| OutputError::WrongShape {
            detail: why.to_string(),
            raw: text.to_string(),
        })
    }

    fn unreadable(&self, err: &OutputError) -> anyhow::Error {
        self.iris.unreadable(CAPABILITY, err)
    }

    fn finish(
        &self,
        intent: String,
        blocks: Vec<ResponsibilityBlock>,
        execution_path: ExecutionPath,
        reads: Reads,
    ) -> FileIntent {
        FileIntent {
            path: self.file.path.clone(),
            intent,
            blocks,
            metadata: IntentMetadata {
                tool_reads: reads.ranges,
                tool_call_count: reads.calls,
                execution_path,
            },
        }
    }
}

/// The schema of the model's answer: the intent and the blocks.
fn answer_schema() -> serde_json::Value {
    OutputType::FileIntent.schema()
}

/// Why a failed single stage gave no answer, when it is one the two stages may still get:
/// the provider refused the tool (a 400 or 422 about tools or functions), the model kept
/// calling it until its turns ran out, or its reply was cut for looping. Anything else (the
/// network, the key, a server error) would fail the same way again.
fn no_answer(err: &anyhow::Error) -> Option<String> {
    let provider = err.downcast_ref::<ProviderError>()?;
    let fallback = provider.kind == ErrorKind::ToolsRefused || provider.kind.never_answered();
    fallback.then(|| provider.message.clone())
}

/// A reply with the specification's field names (`file_intent`, `responsibilities`): a model
/// may write `intent` and `blocks` instead, which reading against the schema would drop.
fn spelled_as_specified(text: &str) -> std::borrow::Cow<'_, str> {
    let parsed = crate::output::extract_json(text)
        .and_then(|json| serde_json::from_str::<serde_json::Value>(&json).ok());
    let Some(serde_json::Value::Object(mut fields)) = parsed else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut renamed = false;
    for (other, specified) in [("intent", "file_intent"), ("blocks", "responsibilities")] {
        if !fields.contains_key(specified)
            && let Some(value) = fields.remove(other)
        {
            fields.insert(specified.to_string(), value);
            renamed = true;
        }
    }
    if renamed {
        std::borrow::Cow::Owned(serde_json::Value::Object(fields).to_string())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(kind: ErrorKind) -> anyhow::Error {
        ProviderError {
            provider: "openai/m".into(),
            message: "what was said".into(),
            kind,
        }
        .into()
    }

    #[test]
    fn only_a_refused_tool_or_a_model_that_never_answered_falls_back() {
        for kind in [
            ErrorKind::ToolsRefused,
            ErrorKind::OutOfTurns,
            ErrorKind::Runaway,
        ] {
            assert!(no_answer(&failure(kind)).is_some(), "{kind:?}");
        }
        for kind in [
            ErrorKind::Status(401),
            ErrorKind::Status(500),
            ErrorKind::Transport,
            ErrorKind::BudgetRefused { max: 4096 },
            ErrorKind::RateLimited,
        ] {
            assert!(no_answer(&failure(kind)).is_none(), "{kind:?}");
        }
        assert!(no_answer(&anyhow::anyhow!("tools refused")).is_none());
    }
}
