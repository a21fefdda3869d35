//! `iris pr --stack`: a description for each layer of a stack of branches, each written from
//! its own change only and carrying the stack's list; printed, and with `--create` or
//! `--update` published as one PR/MR a layer.

use std::process::ExitCode;

use anyhow::{Context, Result};

use super::pr::PrArgs;
use super::session::Session;
use crate::output::exit::UsageError;
use crate::output::said;
use crate::publish::{
    LayerText, Plan, PrText, existing_requests, publish_stack, split_pr, stack_on_remote,
};
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::stack::{self, InStack, Shown, Stack};
use iris_studio_git::HeadState;

pub async fn run(args: PrArgs) -> Result<ExitCode> {
    let ws = args.config.workspace_with(args.sessions)?;
    let mut session = Session::on(&ws, args.output)?;
    session.iris = session.iris.with_pr_template(args.template.clone());
    let branch = match args.to.clone() {
        Some(branch) => branch,
        None => match ws.repo.head_state()? {
            HeadState::Branch(name) => name,
            _ => {
                return Err(UsageError(
                    "--stack reads the stack from a branch, and HEAD is not on one: check out a \
                     branch of the stack, or pass --to BRANCH"
                        .into(),
                )
                .into());
            }
        },
    };
    let base = super::pr::base_or_default(&ws.repo, args.from.clone())?;
    ws.vcs.commit(&ws.repo, &base)?;
    let stack = ws
        .repo
        .stack(&base, &branch)
        .map_err(|e| UsageError(e.to_string()))?;
    eprint!("{}", stack.listing());
    if stack.layers.is_empty() {
        return Err(UsageError(format!(
            "{branch} has no commits over {base}: there is nothing to describe"
        ))
        .into());
    }
    let publishing = args.create || args.update;
    let root = ws.repo.root();
    if publishing {
        // Before a word is written or the forge asked: the remote has the stack as it is here.
        let push =
            |remote: &str, branches: &[String], there| ws.vcs.push_command(remote, branches, there);
        // It reads the repository: off the async threads, as the rest of the command's git.
        tokio::task::block_in_place(|| stack_on_remote(&root, &stack, &push))
            .map_err(|e| UsageError(e.to_string()))?;
    }
    let existing = if publishing {
        let (root, found) = (root.clone(), stack.clone());
        tokio::task::spawn_blocking(move || existing_requests(&root, &found))
            .await
            .context("the publishing task failed")?
            .context("the stack's pull requests could not be looked up")?
    } else {
        vec![None; stack.layers.len()]
    };
    // How each layer shows in the stack sections printed: its PR's title and page, and the
    // title written in this run once it is.
    let mut shown: Vec<Shown> = existing
        .iter()
        .map(|pr| Shown {
            title: pr.as_ref().map(|p| p.title.clone()),
            url: pr.as_ref().and_then(|p| p.url.clone()),
        })
        .collect();
    let noun = crate::publish::forge_of_repo(&ws.repo, "descriptions")
        .map_or("pull request", |forge| forge.request_noun());
    let changes = ws.repo.layer_changes(&stack)?;
    let (mut texts, mut jsons) = (Vec::new(), Vec::new());
    for ((i, layer), change) in stack.layers.iter().enumerate().zip(changes) {
        let plan = Plan::of(existing[i].as_ref(), &change, args.update);
        let (written, json) = match plan {
            Plan::Keep | Plan::KeepUnmarked | Plan::Skip | Plan::Merged => {
                if let Some(said) = plan.said(&layer.branch, noun).filter(|_| publishing) {
                    eprintln!("{said}");
                }
                (None, serde_json::Value::Null)
            }
            Plan::Write => {
                eprintln!(
                    "writing {} ({}..{})",
                    layer.branch, layer.parent, layer.branch
                );
                match write_layer(&mut session, &stack, i).await {
                    Ok((text, json)) => (Some(text), json),
                    Err(e) => {
                        // What was written is not lost with the layer that failed.
                        print_layers(
                            &stack,
                            &mut shown,
                            &texts,
                            json_of(&jsons, args.output.json),
                        );
                        return Err(e);
                    }
                }
            }
        };
        texts.push(LayerText { written, change });
        jsons.push(json);
    }
    // Printed once every layer is written, so each stack list names every layer alike.
    print_layers(
        &stack,
        &mut shown,
        &texts,
        json_of(&jsons, args.output.json),
    );
    if !publishing {
        return Ok(ExitCode::SUCCESS);
    }
    let found = stack.clone();
    let published = tokio::task::spawn_blocking(move || {
        publish_stack(&root, &found, &texts, &existing, args.create)
    })
    .await
    .context("the publishing task failed")?
    .context("not all published (every description written is on stdout above)")?;
    for line in published.lines {
        eprintln!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes layer `index` of `stack` from its own change: its title and body, and the
/// structured description as the model filled it in.
async fn write_layer(
    session: &mut Session<'_>,
    stack: &Stack,
    index: usize,
) -> Result<(PrText, serde_json::Value)> {
    let layer = &stack.layers[index];
    let scope = Scope::range(&layer.parent, &layer.branch);
    let place = InStack {
        stack: stack.clone(),
        index,
    };
    let written = session
        .write_in(ArtifactKind::Pr, &scope, Some(&place), false)
        .await?;
    let text =
        split_pr(&written.text).with_context(|| format!("{}'s description", layer.branch))?;
    Ok((text, written.json))
}

/// Each layer's structured description when `--json` prints them.
fn json_of(jsons: &[serde_json::Value], json: bool) -> Option<&[serde_json::Value]> {
    json.then_some(jsons)
}

/// Prints each layer written (`texts`, bottom first) with the stack's list, where every
/// layer shows by the title written for it (`shown` takes them) or its PR's; with `json`
/// (each layer's structured description), a JSON line each.
fn print_layers(
    stack: &Stack,
    shown: &mut [Shown],
    texts: &[LayerText],
    json: Option<&[serde_json::Value]>,
) {
    for (slot, text) in shown.iter_mut().zip(texts) {
        if let Some(written) = &text.written {
            slot.title = Some(written.title.clone());
        }
    }
    for (index, text) in texts.iter().enumerate() {
        let (Some(written), Some(layer)) = (&text.written, stack.layers.get(index)) else {
            continue;
        };
        let section = stack::section(stack, shown, index, &text.change);
        let body = stack::with_section(&written.body, &section);
        if let Some(jsons) = json {
            let line = serde_json::json!({
                "branch": layer.branch,
                "base": layer.parent,
                "change": text.change,
                "pr": jsons.get(index),
            });
            println!("{line}");
        } else {
            println!(
                "{}
",
                said::shown(&format!(
                    "# {}

{body}",
                    written.title
                ))
            );
        }
    }
}
