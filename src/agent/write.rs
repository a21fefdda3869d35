//! The one way an artifact is written, for the command line and the studio alike: the
//! capability and request come from the artifact's kind and scope, the critic and the
//! emoji from the configuration.

use super::EventSink;
use super::generate::Generated;
use super::iris::IrisAgent;
use super::requests::{Scope, request};
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
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The critic could not run; the first artifact stands.
    pub critic_warning: Option<String>,
}

impl IrisAgent {
    /// Writes `kind` over `scope`. The critic checks it when the kind asks for it by default
    /// or `ask_critic` does, and never when the configuration turns it off.
    pub async fn write(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        ask_critic: bool,
        sink: &EventSink,
    ) -> anyhow::Result<Written> {
        let request = request(kind, scope);
        let critic = self.critic_enabled && (kind.describe().critic || ask_critic);
        let name = kind.name();
        let version = scope.version().map(str::to_string);
        match kind {
            ArtifactKind::Commit => {
                let mut generated = self
                    .generate::<GeneratedMessage>(name, &request, critic, sink)
                    .await?;
                // Without gitmoji (and always with conventional commits) no emoji is kept.
                if !self.style.gitmoji || self.style.preset == "conventional" {
                    generated.artifact.emoji = None;
                }
                written(kind, generated, GeneratedMessage::to_commit_text)
            }
            ArtifactKind::Review => {
                let generated = self
                    .generate::<Review>(name, &request, critic, sink)
                    .await?;
                written(kind, generated, Review::to_markdown)
            }
            ArtifactKind::Pr => {
                let generated = self
                    .generate::<PullRequest>(name, &request, critic, sink)
                    .await?;
                written(kind, generated, PullRequest::to_markdown)
            }
            ArtifactKind::Changelog => {
                let mut generated = self
                    .generate::<Changelog>(name, &request, critic, sink)
                    .await?;
                let artifact = &mut generated.artifact;
                artifact.version = artifact.version.take().or(version);
                written(kind, generated, Changelog::to_markdown)
            }
            ArtifactKind::ReleaseNotes => {
                let mut generated = self
                    .generate::<ReleaseNotes>(name, &request, critic, sink)
                    .await?;
                let artifact = &mut generated.artifact;
                artifact.version = artifact.version.take().or(version);
                written(kind, generated, ReleaseNotes::to_markdown)
            }
        }
    }
}

fn written<T: Artifact>(
    kind: ArtifactKind,
    generated: Generated<T>,
    text: fn(&T) -> String,
) -> anyhow::Result<Written> {
    Ok(Written {
        kind,
        text: text(&generated.artifact),
        json: serde_json::to_value(&generated.artifact)?,
        input_tokens: generated.input_tokens,
        output_tokens: generated.output_tokens,
        critic_warning: generated.critic_warning,
    })
}
