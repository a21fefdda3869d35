//! What every capability's run goes through: one conversation within its output budget, the
//! provider's refusals of an option or a budget learned once, and a reply that cannot be read
//! saved for the user.

use iris_studio_core::protocol::AgentEvent;

use crate::capability::Capability;
use crate::iris::IrisAgent;
use crate::output::OutputError;
use crate::runtime::deadline::within;
use crate::runtime::error::{ErrorKind, ProviderError};
use crate::runtime::request::Request;
use crate::{EventSink, Run, UNREADABLE, run};

/// One conversation of a capability: its instructions, the request, the schema the answer
/// is asked to keep to (`None`: free text, or only told), the tools (made anew for each
/// attempt) and how many replies the model may take.
pub(crate) struct Ask<'a> {
    pub cap: &'a Capability,
    pub preamble: &'a str,
    pub request: &'a Request,
    pub schema: Option<serde_json::Value>,
    pub tools: &'a (dyn Fn() -> Vec<Box<dyn rig_core::tool::ToolDyn>> + Sync),
    pub max_turns: usize,
}

impl IrisAgent {
    /// `work` within the run's one deadline, ending with an [`AgentEvent::Done`] carrying
    /// `done`'s text, or an [`AgentEvent::Error`].
    pub(crate) async fn bounded<T>(
        &self,
        sink: &EventSink,
        work: impl Future<Output = anyhow::Result<T>>,
        done: impl FnOnce(&T) -> String,
    ) -> anyhow::Result<T> {
        let result = within(self.settings.run_timeout, &self.ctx.safety, work).await;
        match &result {
            Ok(value) => sink.send(AgentEvent::Done(done(value))),
            Err(err) => sink.send(AgentEvent::Error(format!("{err:#}"))),
        }
        result
    }

    /// Saves a reply that could not be read and says where it is.
    pub(crate) fn unreadable(&self, capability: &str, err: &OutputError) -> anyhow::Error {
        let path = self.raw_reply_dir.join(self.run.raw_reply_name(capability));
        let saved = std::fs::create_dir_all(&self.raw_reply_dir)
            .and_then(|()| std::fs::write(&path, err.raw()));
        let message = match saved {
            Ok(()) => format!(
                "{UNREADABLE}: {err}; the raw reply is saved in {}",
                path.display()
            ),
            Err(io) => format!("{UNREADABLE}: {err} (saving the raw reply failed: {io})"),
        };
        ProviderError::new(&self.main, ErrorKind::Unreadable, message).into()
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
        let mut max_tokens = self.max_tokens(ask.cap);
        let mut tries = 0;
        loop {
            // Where the provider takes the schema as its own field (OpenAI's `text.format`,
            // Anthropic's `output_config`), it goes once: not also in words.
            let native = matches!(
                self.main.kind,
                crate::ProviderKind::OpenAi | crate::ProviderKind::Anthropic
            );
            let preamble = match &schema {
                Some(_) if native => {
                    let (shown, _) = self.asked_schema(ask.cap.output_type);
                    crate::iris::schema_once(ask.preamble, &shown)
                }
                _ => ask.preamble.to_string(),
            };
            let attempt = Run {
                preamble,
                history: Vec::new(),
                prompt: ask.request.clone(),
                tools: (ask.tools)(),
                max_turns: ask.max_turns,
                max_tokens,
                schema: schema.clone(),
                stream: self.stream,
            };
            let err = match run(&self.main, &self.run, attempt, sink.clone()).await {
                Err(err) if tries < 2 => err,
                done => return done,
            };
            tries += 1;
            let kind = ErrorKind::of(&err);
            if let Some(ErrorKind::BudgetRefused { max: lower }) = kind {
                tracing::debug!("the model refused the output budget: {err:#}");
                self.learned.cap_budget(lower);
                max_tokens = lower;
                sink.send(AgentEvent::Status(format!(
                    "the model takes at most {lower} output tokens; asking within that"
                )));
            } else if schema.is_some() && kind == Some(ErrorKind::OptionRefused) {
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
}
