//! The studio's stack of branches at the edge: reading the stack the checked-out branch is
//! in, and publishing every layer's PR/MR (Iris writing first the layers that need it).

use super::runner::Runner;
use crate::studio::fail;
use iris_studio_tui::action::Action;
use iris_studio_tui::failure::Outcome;
use iris_studio_tui::features::msgs::{StackFx, StackMsg};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::{EventSink, IrisAgent};
use iris_studio_core::protocol::AgentEvent;
use iris_studio_core::stack::{InStack, Stack};
use iris_studio_git::{GitRepo, HeadState};

use crate::app::vcs::Vcs;
use crate::publish::{
    LayerText, Listed, Plan, existing_requests, publish_stack, split_pr, stack_on_remote,
};

/// The stack the checked-out branch is in over `base`; None on a detached HEAD or when the
/// branch is in no stack (a stack of one layer).
pub fn read(root: &Path, base: &str) -> Outcome<Option<Stack>> {
    let repo = GitRepo::discover(root).map_err(fail::any)?;
    let branch = match repo.head_state().map_err(fail::any)? {
        HeadState::Branch(name) => name,
        _ => return Ok(None),
    };
    let stack = repo.stack(base, &branch).map_err(fail::any)?;
    Ok((stack.layers.len() > 1).then_some(stack))
}

/// Each layer's change id and its open PR/MR, once the remote is found to have the stack as
/// it is here (before anything is written or the forge asked).
fn look_up(
    (root, vcs): (&Path, &dyn Vcs),
    stack: &Stack,
) -> anyhow::Result<(Vec<String>, Vec<Option<Listed>>)> {
    let push = |remote: &str, branches: &[String], there| vcs.push_command(remote, branches, there);
    stack_on_remote(root, stack, &push)?;
    let changes = GitRepo::discover(root)?.layer_changes(stack)?;
    let existing = existing_requests(root, stack)
        .context("the stack's pull requests could not be looked up")?;
    Ok((changes, existing))
}

/// Publishes the stack with each layer's text as the studio has it. A layer without text
/// keeps its PR/MR's (its stack list refreshed) when that was written for its change; else
/// Iris (`writer`) writes it from its own change, with its place in the stack, and `written`
/// hands it to the studio. What happened to each layer comes back, a line each.
pub async fn write_and_publish(
    writer: Option<(Arc<IrisAgent>, EventSink)>,
    written: impl Fn(usize, String),
    (root, vcs): (PathBuf, Arc<dyn Vcs>),
    stack: Stack,
    texts: Vec<String>,
) -> anyhow::Result<Vec<String>> {
    let (at, found) = (root.clone(), stack.clone());
    let (changes, existing) =
        tokio::task::spawn_blocking(move || look_up((&at, vcs.as_ref()), &found)).await??;
    let mut layers = Vec::new();
    for (index, (layer, change)) in stack.layers.iter().zip(changes).enumerate() {
        let mut text = texts.get(index).cloned().unwrap_or_default();
        let plan = Plan::of(existing[index].as_ref(), &change, false);
        if text.trim().is_empty() && plan == Plan::Write {
            let Some((iris, sink)) = &writer else {
                anyhow::bail!(
                    "{} has no description, and Iris is not set up to write it (I sets her up)",
                    layer.branch
                );
            };
            sink.send(AgentEvent::Status(format!(
                "writing {}'s description ({}..{})",
                layer.branch, layer.parent, layer.branch
            )));
            let scope = Scope::range(&layer.parent, &layer.branch);
            let place = InStack {
                stack: stack.clone(),
                index,
            };
            text = iris.write_layer(&scope, &place, false, sink).await?.text;
            written(index, text.clone());
        }
        let written = match text.trim() {
            "" => None,
            text => Some(split_pr(text).with_context(|| layer.branch.clone())?),
        };
        layers.push(LayerText { written, change });
    }
    if let Some((_, sink)) = &writer {
        sink.send(AgentEvent::Status("publishing the stack".into()));
    }
    let published =
        tokio::task::spawn_blocking(move || publish_stack(&root, &stack, &layers, &existing, true))
            .await??;
    Ok(published.lines)
}

impl Runner {
    /// Carries out the stack's work: reading it, and publishing it (Iris writing the layers
    /// that have no description first).
    pub(super) fn stack(&mut self, fx: StackFx) {
        match fx {
            StackFx::Load { base } => {
                let (tx, root) = (self.tx.clone(), self.root.clone());
                tokio::task::spawn_blocking(move || {
                    let _ = tx.send(Action::Stack(StackMsg::Loaded(read(&root, &base))));
                });
            }
            StackFx::Publish {
                task: None,
                stack,
                texts,
            } => {
                let (tx, at) = (self.tx.clone(), (self.root.clone(), self.jobs.vcs()));
                tokio::spawn(async move {
                    let published = write_and_publish(None, |_, _| {}, at, stack, texts);
                    let result = fail::typed(published.await);
                    let _ = tx.send(Action::Stack(StackMsg::Published { task: None, result }));
                });
            }
            StackFx::Publish {
                task: Some(task),
                stack,
                texts,
            } => {
                let (tx, at) = (self.tx.clone(), (self.root.clone(), self.jobs.vcs()));
                self.spawn_iris(
                    task,
                    move |iris, sink| {
                        let written = move |index, text| {
                            let _ = tx.send(Action::Stack(StackMsg::LayerWritten {
                                task,
                                index,
                                text,
                            }));
                        };
                        write_and_publish(Some((iris, sink)), written, at, stack, texts)
                    },
                    move |result| {
                        Action::Stack(StackMsg::Published {
                            task: Some(task),
                            result,
                        })
                    },
                );
            }
        }
    }
}
