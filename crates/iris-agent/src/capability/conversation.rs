//! What every capability's run goes through: one conversation within its output budget, the
//! provider's refusals of an option or a budget learned once; one deadline for the whole run,
//! with the time a question waits for the user left out; and a reply that cannot be read saved
//! for the user.

use iris_core::protocol::AgentEvent;

use crate::capability::Capability;
use crate::iris::IrisAgent;
use crate::output::OutputError;
use crate::runtime::safety::Safety;
use crate::{EventSink, ProviderError, Run, UNREADABLE, run};

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

impl IrisAgent {
    /// `work` within the run's one deadline, ending with an [`AgentEvent::Done`] carrying
    /// `done`'s text, or an [`AgentEvent::Error`].
    pub(crate) async fn bounded<T>(
        &self,
        sink: &EventSink,
        work: impl Future<Output = anyhow::Result<T>>,
        done: impl FnOnce(&T) -> String,
    ) -> anyhow::Result<T> {
        // `max_cost_per_run` holds for each run.
        if let Some(budget) = &self.main.budget {
            budget.reset();
        }
        let result = within(self.settings.run_timeout, &self.ctx.safety, work).await;
        match &result {
            Ok(value) => sink.send(AgentEvent::Done(done(value))),
            Err(err) => sink.send(AgentEvent::Error(format!("{err:#}"))),
        }
        result
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
                "{UNREADABLE}: {err}; the raw reply is saved in {}",
                path.display()
            ),
            Err(io) => format!("{UNREADABLE}: {err} (saving the raw reply failed: {io})"),
        };
        ProviderError::new(&self.main, message).into()
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
