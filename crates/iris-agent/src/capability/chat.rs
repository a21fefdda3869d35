//! Chat: Iris talks with the user about the current artifact and edits it in place through an
//! update tool (`update_commit`, `update_pr`, `update_review`, ...), whose edits reach the
//! editor at once.

use iris_studio_core::protocol::Risk;
use std::sync::Arc;

use rig_core::message::Message;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::capability::Capability;
use crate::iris::IrisAgent;
use crate::runtime::deadline::within;
use crate::tools::registry::tool;
use crate::tools::{IrisTool, ToolContext, ToolFailure};
use crate::{EventSink, Run, run};
use iris_studio_core::artifact::{ArtifactKind, OutputType};

/// What is being discussed: which artifact (its update tool comes with it) and its text.
#[derive(Debug, Clone)]
pub struct ChatTarget {
    /// The kind of artifact, which names the update tool Iris edits it with.
    pub kind: ArtifactKind,
    /// The artifact as it stands in the editor.
    pub artifact: String,
}

/// One earlier message of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Whether the user wrote it; otherwise it is Iris' reply.
    pub from_user: bool,
    /// What was said, as the conversation shows it.
    pub text: String,
}

/// Called with the new text each time Iris replaces the artifact.
pub type OnUpdate = Arc<dyn Fn(String) + Send + Sync>;

#[derive(Debug, Deserialize, JsonSchema)]
struct UpdateArgs {
    /// The complete new text (for a commit message: the title line, a blank line, the body).
    content: String,
}

/// The update tool: one type serves every artifact, so its name is chosen at run time.
struct UpdateArtifact {
    name: &'static str,
    noun: &'static str,
    tidy: fn(&str) -> String,
    on_update: OnUpdate,
}

impl IrisTool for UpdateArtifact {
    /// The family's name; each artifact's tool is named by its descriptor (`update_commit`, ...).
    const NAME: &'static str = "update_artifact";
    const RISK: Risk = Risk::Write;
    const DESCRIPTION: &'static str = "Replace the artifact in the user's editor.";
    type Args = UpdateArgs;

    fn name(&self) -> String {
        self.name.to_string()
    }

    fn description(&self) -> String {
        format!(
            "Replace the {} in the user's editor with new complete text. The user sees it at \
             once and can step back to the previous version.",
            self.noun
        )
    }

    async fn run(&self, _ctx: &ToolContext, args: UpdateArgs) -> Result<String, ToolFailure> {
        let content = crate::output::clean_text(&args.content);
        if content.trim().is_empty() {
            return Err(ToolFailure::new(
                "`content` is empty: give the complete new text",
            ));
        }
        (self.on_update)((self.tidy)(content.trim_end()));
        Ok(format!("The {} in the editor is updated.", self.noun))
    }
}

/// What a model without tools (a command-line agent) writes in its reply instead of calling an
/// update tool: the new text between a line `<TAG>` and a line `</TAG>`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block(pub &'static str);

impl Block {
    /// How the instructions ask for `what` in the block.
    pub(crate) fn asked(self, what: &str) -> String {
        format!(
            "{what} in your reply between a line <{tag}> and a line </{tag}>",
            tag = self.0
        )
    }

    /// The reply's last block (its tags each on a line of their own) and the reply without
    /// it; no block, the reply as it is.
    pub(crate) fn take(self, reply: &str) -> (Option<String>, String) {
        let (open, close) = (format!("<{}>", self.0), format!("</{}>", self.0));
        let lines: Vec<&str> = reply.lines().collect();
        let Some(end) = lines.iter().rposition(|l| l.trim() == close) else {
            return (None, reply.to_string());
        };
        let Some(start) = lines[..end].iter().rposition(|l| l.trim() == open) else {
            return (None, reply.to_string());
        };
        let inner = lines[start + 1..end].join("\n");
        let said: Vec<&str> = lines[..start]
            .iter()
            .chain(&lines[end + 1..])
            .copied()
            .collect();
        (Some(inner), said.join("\n").trim().to_string())
    }
}

impl IrisAgent {
    /// One chat turn: Iris sees the mode's artifact, the conversation so far (as real chat
    /// history) and the new message; she may edit the artifact through `target.tool`.
    /// Returns her reply.
    pub async fn chat(
        &self,
        target: &ChatTarget,
        history: &[Turn],
        message: &str,
        on_update: OnUpdate,
        sink: &EventSink,
    ) -> crate::Result<String> {
        crate::error::at_edge(async move {
            let cap = self.capability("chat")?;
            // A command-line agent has no tools: it writes the new text in its reply instead.
            let block = Block("artifact");
            let cli = self.main.kind.cli().is_some();
            let how = if cli {
                format!(
                    "To change it, write {}",
                    block.asked("the complete new text")
                )
            } else {
                format!(
                    "To change it, call {} with the complete new text",
                    target.kind.describe().update_tool
                )
            };
            let preamble = format!(
                "{}\n\n## The {noun}\nThe user is working on this {noun}. Its current text:\n\
             <artifact>\n{artifact}\n</artifact>\n{how}; then say in one or two sentences what \
             you changed. Answer questions without changing it.",
                self.preamble(&cap.task_prompt, OutputType::Text)?,
                noun = target.kind.noun(),
                artifact = target.artifact,
            );
            let descriptor = target.kind.describe();
            if cli {
                let reply = self
                    .chat_turn(&cap, preamble, Vec::new(), history, message, sink)
                    .await?;
                let (text, said) = block.take(&reply);
                let text = text.map(|t| crate::output::clean_text(&t));
                if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
                    on_update((descriptor.tidy)(text.trim_end()));
                }
                return Ok(said);
            }
            let mut tools = self.main_tools(sink);
            tools.push(tool(
                &self.ctx.reporting_to(sink),
                UpdateArtifact {
                    name: descriptor.update_tool,
                    noun: descriptor.noun,
                    tidy: descriptor.tidy,
                    on_update,
                },
            ));
            self.chat_turn(&cap, preamble, tools, history, message, sink)
                .await
        })
        .await
    }

    /// One chat turn with `tools` after `history`: the reply, cleaned.
    pub(crate) async fn chat_turn(
        &self,
        cap: &Capability,
        preamble: String,
        tools: Vec<Box<dyn rig_core::tool::ToolDyn>>,
        history: &[Turn],
        message: &str,
        sink: &EventSink,
    ) -> anyhow::Result<String> {
        let history = history
            .iter()
            .map(|turn| {
                if turn.from_user {
                    Message::user(turn.text.clone())
                } else {
                    Message::assistant(turn.text.clone())
                }
            })
            .collect();
        let request = Run {
            preamble,
            history,
            prompt: message.into(),
            tools,
            max_turns: self.settings.max_turns,
            max_tokens: self.max_tokens(cap),
            schema: None,
            stream: self.stream,
        };
        let output = within(
            self.settings.run_timeout,
            &self.ctx.safety,
            run(&self.main, &self.run, request, sink.clone()),
        )
        .await?;
        Ok(crate::output::clean_text(&output.text).trim().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::Block;

    #[test]
    fn a_reply_s_last_block_on_lines_of_its_own_is_the_new_text() {
        let block = Block("artifact");
        let (text, said) =
            block.take("<artifact>\nFix the parser\n\nBody.\n</artifact>\nShortened the title.");
        assert_eq!(text.as_deref(), Some("Fix the parser\n\nBody."));
        assert_eq!(said, "Shortened the title.");
        let (none, said) = block.take("It reads well as it is.");
        assert_eq!((none, said.as_str()), (None, "It reads well as it is."));
        assert_eq!(block.take("<artifact> never closed").0, None);
        // A tag named in prose is not a block; the last block wins.
        let (text, _) = block.take(
            "The text goes in <artifact> below:\n<artifact>\nOne\n</artifact>\n<artifact>\nTwo\n</artifact>",
        );
        assert_eq!(text.as_deref(), Some("Two"));
        assert!(
            block
                .asked("the plan")
                .contains("a line <artifact> and a line </artifact>")
        );
    }
}
