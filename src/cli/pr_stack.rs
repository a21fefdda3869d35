//! `iris pr --stack`: a description for each layer of a stack of branches, each written from
//! its own change only and carrying the stack's list; printed, and with `--create` or
//! `--update` published as one PR/MR a layer.

use std::process::ExitCode;

use anyhow::{Context, Result};

use super::pr::PrArgs;
use super::session::Session;
use crate::publish::{LayerText, Listed, PrText, existing_requests, publish_stack, split_pr};
use crate::shared::exit::UsageError;
use crate::shared::said;
use iris_agent::capability::requests::Scope;
use iris_core::artifact::ArtifactKind;
use iris_core::stack::{self, Shown, Stack};
use iris_git::HeadState;

pub async fn run(args: PrArgs) -> Result<ExitCode> {
    let mut session = Session::open(&args.config, args.output)?;
    session.iris = session.iris.with_pr_template(args.template.clone());
    let branch = match args.to.clone() {
        Some(branch) => branch,
        None => match session.repo.head_state()? {
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
    let base = match args.from.clone() {
        Some(from) => from,
        None => session.repo.default_branch().ok_or_else(|| {
            UsageError(
                "no default branch (main, master or the remote's HEAD) was found: pass --from"
                    .into(),
            )
        })?,
    };
    UsageError::unless_revisions(&session.repo, &[&base])?;
    let stack = session
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
    let root = session.repo.root();
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
    let mut texts = Vec::new();
    for (i, layer) in stack.layers.iter().enumerate() {
        let change = session.repo.layer_change(&layer.parent, &layer.branch)?;
        let found = existing[i].as_ref();
        let written = match plan(found, &change, args.update && !args.create) {
            Plan::Keep => {
                eprintln!(
                    "{}: its change is the one its description was written for: kept",
                    layer.branch
                );
                None
            }
            Plan::Skip => None,
            Plan::Write => {
                eprintln!(
                    "writing {} ({}..{})",
                    layer.branch, layer.parent, layer.branch
                );
                let place = (&stack, i, change.as_str());
                let text = write_layer(&mut session, place, &mut shown, args.output.json).await?;
                Some(text)
            }
        };
        texts.push(LayerText { written, change });
    }
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
    for line in &published.lines {
        eprintln!("{line}");
    }
    if let Some(push) = &published.push {
        eprintln!("the remote does not have these branches as they are here: {push}");
    }
    Ok(ExitCode::SUCCESS)
}

/// What to do with one layer's description.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    /// Write it.
    Write,
    /// Its PR/MR's description was written for this very change: keep it.
    Keep,
    /// An update of a layer without a PR/MR: nothing to update.
    Skip,
}

/// A layer is written unless its PR/MR's stack block records the change it has now, or an
/// update (only) finds no PR/MR for it.
fn plan(existing: Option<&Listed>, change: &str, update_only: bool) -> Plan {
    match existing {
        Some(pr) if stack::recorded_change(&pr.body) == Some(change) => Plan::Keep,
        Some(_) => Plan::Write,
        None if update_only => Plan::Skip,
        None => Plan::Write,
    }
}

/// Writes layer `index` of `stack` from its own change, prints it with the stack's list
/// (`shown`: how each layer shows there, this one's title set now), and returns its title
/// and body.
async fn write_layer(
    session: &mut Session,
    (stack, index, change): (&Stack, usize, &str),
    shown: &mut [Shown],
    json: bool,
) -> Result<PrText> {
    let layer = &stack.layers[index];
    session.iris = session
        .iris
        .clone()
        .with_pr_stack(Some(stack::request_section(stack, index)));
    let scope = Scope::range(&layer.parent, &layer.branch);
    let written = session.write(ArtifactKind::Pr, &scope, false).await?;
    let text =
        split_pr(&written.text).with_context(|| format!("{}'s description", layer.branch))?;
    if let Some(layer) = shown.get_mut(index) {
        layer.title = Some(text.title.clone());
    }
    let section = stack::section(stack, shown, index, change);
    if json {
        let line = serde_json::json!({
            "branch": layer.branch,
            "base": layer.parent,
            "change": change,
            "pr": written.json,
        });
        println!("{line}");
    } else {
        let body = stack::with_section(&text.body, &section);
        println!("{}\n", said::shown(&format!("# {}\n\n{body}", text.title)));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(body: &str) -> Listed {
        Listed {
            number: 1,
            url: None,
            title: "T".into(),
            body: body.into(),
            base: "main".into(),
        }
    }

    #[test]
    fn a_layer_is_written_unless_its_request_was_written_for_its_change() {
        let unchanged =
            listed("Text.\n\n<!-- iris:stack change=abc -->\n---\n<!-- /iris:stack -->");
        assert_eq!(plan(Some(&unchanged), "abc", false), Plan::Keep);
        assert_eq!(plan(Some(&unchanged), "abd", false), Plan::Write);
        assert_eq!(
            plan(Some(&listed("By hand, no block.")), "abc", true),
            Plan::Write
        );
        assert_eq!(plan(None, "abc", true), Plan::Skip);
        assert_eq!(plan(None, "abc", false), Plan::Write);
    }
}
