//! The one way an artifact is written, for the command line and the studio alike: the
//! capability and request come from the artifact's kind and scope, the critic and the
//! emoji from the configuration.

use super::generate::within;
use super::iris::IrisAgent;
use super::requests::{Scope, request};
use super::{AgentEvent, EventSink};
use crate::types::{
    Artifact, ArtifactKind, Changelog, GeneratedMessage, PullRequest, ReleaseNotes, Review,
};

/// A written artifact, as text and as data.
#[derive(Debug, Clone)]
pub struct Written {
    pub kind: ArtifactKind,
    /// The markdown (for a commit message, the text git records).
    pub text: String,
    /// The structured artifact, as the model filled it in.
    pub json: serde_json::Value,
    /// Requests sent to the model, the critic's included.
    pub requests: usize,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The critic could not run; the first artifact stands.
    pub critic_warning: Option<String>,
}

impl IrisAgent {
    /// Writes `kind` over `scope`. The critic checks it when the kind asks for it by default
    /// or `ask_critic` does, and never when the configuration turns it off. The whole run has
    /// one deadline (`run_timeout_secs`), and ends with an [`AgentEvent::Done`] or
    /// [`AgentEvent::Error`] event as well.
    pub async fn write(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        ask_critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Written> {
        let started = std::time::Instant::now();
        let work = self.write_unbounded(kind, scope, ask_critic, sink);
        self.bounded(sink, work, |written| {
            tracing::debug!(
                capability = kind.name(),
                requests = written.requests,
                input_tokens = written.input_tokens,
                output_tokens = written.output_tokens,
                ms = started.elapsed().as_millis() as u64,
                "run finished"
            );
            written.text.clone()
        })
        .await
    }

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

    async fn write_unbounded(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        ask_critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Written> {
        sink.send(AgentEvent::Status("gathering the evidence".into()));
        let evidence = super::evidence::gather(&self.ctx, self.main.kind, kind, scope).await;
        let request = format!("{}\n\n{evidence}", request(kind, scope));
        let critic = self.critic_enabled && (kind.describe().critic || ask_critic);
        let version = scope.version().map(str::to_string);
        // Without gitmoji (and always with conventional commits) no emoji is kept.
        let drop_emoji = !self.style.gitmoji || self.style.preset == "conventional";
        let run = Run {
            kind,
            request: &request,
            critic,
            sink,
        };
        match kind {
            ArtifactKind::Commit => {
                self.write_as(run, |m: &mut GeneratedMessage| {
                    if drop_emoji {
                        m.emoji = None;
                    }
                })
                .await
            }
            ArtifactKind::Review => self.write_as(run, |_: &mut Review| {}).await,
            ArtifactKind::Pr => self.write_as(run, |_: &mut PullRequest| {}).await,
            ArtifactKind::Changelog => {
                self.write_as(run, |c: &mut Changelog| {
                    c.version = c.version.take().or(version)
                })
                .await
            }
            ArtifactKind::ReleaseNotes => {
                self.write_as(run, |n: &mut ReleaseNotes| {
                    n.version = n.version.take().or(version)
                })
                .await
            }
        }
    }

    /// Generates the artifact as `T`, lets `finish` complete it, and renders it (a commit
    /// message's markdown is the text git records).
    async fn write_as<T: Artifact + Send + 'static>(
        &self,
        run: Run<'_>,
        finish: impl FnOnce(&mut T),
    ) -> anyhow::Result<Written> {
        let name = run.kind.name();
        let mut generated = self
            .generate::<T>(name, run.request, run.critic, run.sink)
            .await?;
        finish(&mut generated.artifact);
        Ok(Written {
            kind: run.kind,
            text: generated.artifact.to_markdown(),
            json: serde_json::to_value(&generated.artifact)?,
            requests: generated.requests,
            input_tokens: generated.input_tokens,
            output_tokens: generated.output_tokens,
            critic_warning: generated.critic_warning,
        })
    }
}

/// What one write asks of the generation.
struct Run<'a> {
    kind: ArtifactKind,
    request: &'a str,
    critic: bool,
    sink: &'a EventSink,
}
