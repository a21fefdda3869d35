//! The studio's stack of branches at the edge: reading the stack the checked-out branch is
//! in, and publishing every layer's PR/MR (both block: the runner runs them off the UI
//! thread).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use iris_agent::capability::requests::Scope;
use iris_agent::{EventSink, IrisAgent};
use iris_core::artifact::ArtifactKind;
use iris_core::protocol::AgentEvent;
use iris_core::stack::{self, Stack};
use iris_git::{GitRepo, HeadState};

use crate::publish::{LayerText, existing_requests, publish_stack, split_pr};

/// The stack the checked-out branch is in over `base`; None on a detached HEAD or when the
/// branch is in no stack (a stack of one layer).
pub fn read(root: &Path, base: &str) -> Result<Option<Stack>, String> {
    let repo = GitRepo::discover(root).map_err(|e| e.to_string())?;
    let branch = match repo.head_state().map_err(|e| e.to_string())? {
        HeadState::Branch(name) => name,
        _ => return Ok(None),
    };
    let stack = repo.stack(base, &branch).map_err(|e| e.to_string())?;
    Ok((stack.layers.len() > 1).then_some(stack))
}

/// Publishes the stack with each layer's text as the studio has it ("" for one not written:
/// its PR keeps its text, or it is not opened); what happened to each layer, a line each.
pub fn publish(root: &Path, stack: &Stack, texts: &[String]) -> Result<Vec<String>, String> {
    let repo = GitRepo::discover(root).map_err(|e| e.to_string())?;
    let mut layers = Vec::new();
    for (layer, text) in stack.layers.iter().zip(texts) {
        let change = repo
            .layer_change(&layer.parent, &layer.branch)
            .map_err(|e| e.to_string())?;
        let written = match text.trim() {
            "" => None,
            text => Some(split_pr(text).map_err(|e| format!("{}: {e}", layer.branch))?),
        };
        layers.push(LayerText { written, change });
    }
    let existing = existing_requests(root, stack).map_err(|e| e.to_string())?;
    let published =
        publish_stack(root, stack, &layers, &existing, true).map_err(|e| e.to_string())?;
    let mut lines = published.lines;
    if let Some(push) = published.push {
        lines.push(format!(
            "the remote does not have these branches as they are here: {push}"
        ));
    }
    Ok(lines)
}

/// Iris writes each layer whose text is empty (each from its own change, with its place in
/// the stack; `written` hands each to the studio as it is done), then the stack is published.
pub async fn write_and_publish(
    iris: Arc<IrisAgent>,
    sink: EventSink,
    written: impl Fn(usize, String),
    root: PathBuf,
    stack: Stack,
    mut texts: Vec<String>,
) -> anyhow::Result<Vec<String>> {
    for (index, layer) in stack.layers.iter().enumerate() {
        if texts.get(index).is_none_or(|t| !t.trim().is_empty()) {
            continue;
        }
        sink.send(AgentEvent::Status(format!(
            "writing {}'s description ({}..{})",
            layer.branch, layer.parent, layer.branch
        )));
        let writer = (*iris)
            .clone()
            .with_pr_stack(Some(stack::request_section(&stack, index)));
        let scope = Scope::range(&layer.parent, &layer.branch);
        let text = writer
            .write(ArtifactKind::Pr, &scope, false, &sink)
            .await?
            .text;
        written(index, text.clone());
        texts[index] = text;
    }
    sink.send(AgentEvent::Status("publishing the stack".into()));
    tokio::task::spawn_blocking(move || publish(&root, &stack, &texts))
        .await?
        .map_err(anyhow::Error::msg)
}
