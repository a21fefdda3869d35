//! Publishing a stack of pull requests: each layer's PR/MR into the branch below it, opened
//! bottom up, then every body's stack section refreshed so it links all of them. Nothing is
//! pushed: a layer not on the remote is reported with the command that pushes it.

use std::path::Path;

use iris_studio_core::stack::{self, Shown, Stack};

use super::commands::{self, Listed, RequestState, first_listed, url_in};
use super::run::Runner;
use super::text::{PrText, base_branch};
use super::{Forge, PublishError, forge_of_repo, open};

/// One layer to publish: its description when it was written now (None keeps the text its
/// PR/MR has), and its change id (kept in its stack block).
#[derive(Debug, Clone)]
pub struct LayerText {
    /// The description written now, as title and body (without a stack section).
    pub written: Option<PrText>,
    /// The layer's change id (`GitRepo::layer_change`).
    pub change: String,
}

/// What happened to each layer, one line each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StackPublished {
    /// "b1: created pull request https://... (into main)", one a layer, bottom first.
    pub lines: Vec<String>,
}

/// What to do with one layer's description before publishing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Write it: it has no PR/MR yet, or its change moved since its description was written.
    Write,
    /// Keep its PR/MR's text, only its stack list refreshed: written for this very change.
    Keep,
    /// Keep its PR/MR's text, the stack list added: the text has no stack block, so Iris did
    /// not write it (or the block was deleted), and it is the user's.
    KeepUnmarked,
    /// Nothing to do: an update of a layer without a PR/MR.
    Skip,
    /// Nothing to do: its PR/MR is merged.
    Merged,
}

impl Plan {
    /// The plan for a layer whose PR/MR is `existing`, whose change id is `change`;
    /// `update_only`: PRs/MRs are updated, none opened.
    pub fn of(existing: Option<&Listed>, change: &str, update_only: bool) -> Plan {
        match existing {
            Some(pr) if pr.state == RequestState::Merged => Plan::Merged,
            Some(pr) => match stack::recorded_change(&pr.body) {
                Some(recorded) if recorded == change => Plan::Keep,
                Some(_) => Plan::Write,
                None => Plan::KeepUnmarked,
            },
            None if update_only => Plan::Skip,
            None => Plan::Write,
        }
    }

    /// What is said of a layer that is not written, or None.
    pub fn said(&self, branch: &str, noun: &str) -> Option<String> {
        match self {
            Plan::Keep => Some(format!(
                "{branch}: its change is the one its description was written for: kept"
            )),
            Plan::KeepUnmarked => Some(format!(
                "{branch}: its {noun} has no stack list of Iris', so its text is yours: kept, \
                 the stack list added below it"
            )),
            Plan::Skip => Some(format!(
                "{branch}: no {noun} yet (`iris pr --stack --create` opens it)"
            )),
            Plan::Merged => Some(format!("{branch}: its {noun} is merged: left as it is")),
            Plan::Write => None,
        }
    }
}

/// The open PR/MR of each layer (None where there is none), bottom first: one `list` each.
pub fn existing_requests(
    repo_root: &Path,
    stack: &Stack,
) -> Result<Vec<Option<Listed>>, PublishError> {
    let repo = open(repo_root)?;
    let forge = forge_of_repo(&repo, "descriptions")?;
    let runner = Runner::in_repo(&repo.root());
    existing_with(&runner, forge, stack)
}

pub(crate) fn existing_with(
    runner: &Runner,
    forge: Forge,
    stack: &Stack,
) -> Result<Vec<Option<Listed>>, PublishError> {
    stack
        .layers
        .iter()
        .map(|layer| {
            let invocation = commands::list_from(forge, &layer.branch);
            let out = runner.run(forge, &invocation)?;
            let found = first_listed(&out).map_err(|answer| {
                PublishError(format!(
                    "{} answered with no JSON list for {} ({answer}): is the {} CLI too old?",
                    invocation.what,
                    layer.branch,
                    forge.name()
                ))
            })?;
            // A closed one is as none: the layer gets a new one.
            Ok(found.filter(|pr| pr.state != RequestState::Closed))
        })
        .collect()
}

/// Publishes the stack: with `create`, opens the PR/MR of each layer that has none (bottom
/// up, a layer the remote lacks and those above it left out); then refreshes every stack
/// section and, for layers written now, the title and body. `texts` and `existing` are
/// bottom first, one a layer; the remote was found ready (`ready::stack_on_remote`). Blocks
/// while the tools run.
pub fn publish_stack(
    repo_root: &Path,
    stack: &Stack,
    texts: &[LayerText],
    existing: &[Option<Listed>],
    create: bool,
) -> Result<StackPublished, PublishError> {
    let repo = open(repo_root)?;
    let forge = forge_of_repo(&repo, "descriptions")?;
    let runner = Runner::in_repo(&repo.root());
    // A base git names `origin/main` is `main` on the forge.
    let remotes = repo.remote_names();
    let mut stack = stack.clone();
    stack.base = base_branch(&stack.base, &remotes);
    for layer in &mut stack.layers {
        layer.parent = base_branch(&layer.parent, &remotes);
    }
    publish_stack_with(&runner, forge, &stack, texts, existing, create)
}

/// Where a layer stands while the stack is published.
#[derive(Debug, Clone)]
struct Request {
    number: u64,
    url: Option<String>,
    title: String,
    /// The body on the forge now (for one opened in this run, what it was opened with).
    body: String,
    base: String,
    merged: bool,
}

pub(crate) fn publish_stack_with(
    runner: &Runner,
    forge: Forge,
    stack: &Stack,
    texts: &[LayerText],
    existing: &[Option<Listed>],
    create: bool,
) -> Result<StackPublished, PublishError> {
    let noun = forge.request_noun();
    let count = stack.layers.len();
    let mut requests: Vec<Option<Request>> = (0..count)
        .map(|i| existing.get(i).cloned().flatten().map(Request::from))
        .collect();
    let mut lines: Vec<Option<String>> = vec![None; count];
    let mut blocked = false;
    // First pass, bottom up: open what is missing.
    for (i, layer) in stack.layers.iter().enumerate() {
        if requests[i].is_some() {
            continue;
        }
        let written = texts.get(i).and_then(|t| t.written.as_ref());
        let why_not = match (create, blocked, written) {
            (false, ..) => Some(format!(
                "no {noun} yet (`iris pr --stack --create` opens it)"
            )),
            (true, true, _) => Some(format!("not opened: the branch below it has no {noun} yet")),
            (true, false, None) => Some("not opened: no description was written".into()),
            (true, false, Some(_)) => None,
        };
        if let Some(why) = why_not {
            blocked = true;
            lines[i] = Some(format!("{}: {why}", layer.branch));
            continue;
        }
        let Some(text) = written else { continue };
        let shown = shown_of(stack, &requests, texts);
        let change = texts.get(i).map_or("", |t| t.change.as_str());
        let body = stack::with_section(&text.body, &stack::section(stack, &shown, i, change));
        let opening = PrText {
            title: text.title.clone(),
            body: body.clone(),
        };
        let invocation = commands::create_from(forge, &opening, &layer.parent, &layer.branch);
        let out = runner
            .run(forge, &invocation)
            .map_err(|e| half_way(stack, &requests, &e))?;
        let url = url_in(&out);
        let number = url.as_deref().and_then(number_in).ok_or_else(|| {
            half_way(
                stack,
                &requests,
                &PublishError(format!(
                    "{} printed no {noun} URL for {}",
                    invocation.what, layer.branch
                )),
            )
        })?;
        lines[i] = Some(format!(
            "{}: created {noun} {} (into {})",
            layer.branch,
            url.clone().unwrap_or_default(),
            layer.parent
        ));
        requests[i] = Some(Request {
            number,
            url,
            title: text.title.clone(),
            body,
            base: layer.parent.clone(),
            merged: false,
        });
    }
    // Second pass: every stack section links every PR that exists now.
    let shown = shown_of(stack, &requests, texts);
    for (i, layer) in stack.layers.iter().enumerate() {
        let Some(request) = requests[i].clone() else {
            continue;
        };
        let url = request.url.clone().unwrap_or_default();
        if request.merged {
            lines[i] = Some(format!(
                "{}: {noun} {url} is merged: left as it is",
                layer.branch
            ));
            continue;
        }
        let text = texts.get(i);
        let written = text.and_then(|t| t.written.as_ref());
        let change = text.map_or("", |t| t.change.as_str());
        let kept = written.map_or(request.body.as_str(), |w| w.body.as_str());
        let body = stack::with_section(kept, &stack::section(stack, &shown, i, change));
        let title = written
            .map(|w| w.title.as_str())
            .filter(|t| *t != request.title);
        let base = (request.base != layer.parent).then_some(layer.parent.as_str());
        if body == request.body && title.is_none() && base.is_none() {
            lines[i].get_or_insert_with(|| format!("{}: {noun} {url} is up to date", layer.branch));
            continue;
        }
        let invocation = commands::edit_number(forge, request.number, title, &body, base);
        runner
            .run(forge, &invocation)
            .map_err(|e| half_way(stack, &requests, &e))?;
        let what = match (written.is_some(), lines[i].is_some()) {
            (_, true) => None,
            (true, false) => Some("description re-written"),
            (false, false) => Some("stack section refreshed"),
        };
        if let Some(what) = what {
            let moved = base.map(|b| format!(", now into {b}")).unwrap_or_default();
            lines[i] = Some(format!(
                "{}: updated {noun} {url} ({what}{moved})",
                layer.branch
            ));
        }
        if let Some(kept) = requests[i].as_mut() {
            kept.body = body;
        }
    }
    Ok(StackPublished {
        lines: lines.into_iter().flatten().collect(),
    })
}

impl From<Listed> for Request {
    fn from(listed: Listed) -> Self {
        Request {
            number: listed.number,
            url: listed.url,
            title: listed.title,
            body: listed.body,
            base: listed.base,
            merged: listed.state == RequestState::Merged,
        }
    }
}

/// How each layer shows in a stack section now: the title it has (written now, else its
/// PR's) and its PR's page.
fn shown_of(stack: &Stack, requests: &[Option<Request>], texts: &[LayerText]) -> Vec<Shown> {
    (0..stack.layers.len())
        .map(|i| {
            let request = requests.get(i).cloned().flatten();
            let written = texts.get(i).and_then(|t| t.written.as_ref());
            Shown {
                title: written
                    .map(|w| w.title.clone())
                    .or_else(|| request.as_ref().map(|r| r.title.clone())),
                url: request.and_then(|r| r.url),
            }
        })
        .collect()
}

/// The PR/MR number at the end of its page's URL (`.../pull/12`, `.../merge_requests/3`).
fn number_in(url: &str) -> Option<u64> {
    url.trim_end_matches('/').rsplit('/').next()?.parse().ok()
}

/// A failure part of the way through: what failed, and which PRs exist by then.
fn half_way(stack: &Stack, requests: &[Option<Request>], err: &PublishError) -> PublishError {
    let exist: Vec<String> = stack
        .layers
        .iter()
        .zip(requests)
        .filter_map(|(layer, r)| {
            let r = r.as_ref()?;
            Some(format!(
                "{} {}",
                layer.branch,
                r.url.clone().unwrap_or_else(|| format!("#{}", r.number))
            ))
        })
        .collect();
    let exist = if exist.is_empty() {
        "none of the stack's requests exists yet".to_string()
    } else {
        format!("these exist: {}", exist.join(", "))
    };
    PublishError(format!(
        "{err}; the stack was published part of the way ({exist}); run it again to finish"
    ))
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
            state: RequestState::Open,
        }
    }

    #[test]
    fn a_layer_is_written_unless_its_request_was_written_for_its_change_or_by_hand() {
        let ours = listed("Text.\n\n<!-- iris:stack change=abc -->\n---\n<!-- /iris:stack -->");
        assert_eq!(Plan::of(Some(&ours), "abc", false), Plan::Keep);
        assert_eq!(Plan::of(Some(&ours), "abd", true), Plan::Write);
        let by_hand = listed("By hand, no block.");
        assert_eq!(Plan::of(Some(&by_hand), "abc", false), Plan::KeepUnmarked);
        assert_eq!(Plan::of(None, "abc", true), Plan::Skip);
        assert_eq!(Plan::of(None, "abc", false), Plan::Write);
        let merged = Listed {
            state: RequestState::Merged,
            ..ours.clone()
        };
        assert_eq!(Plan::of(Some(&merged), "abd", false), Plan::Merged);
        assert_eq!(Plan::Write.said("b1", "pull request"), None);
        assert_eq!(
            Plan::Skip.said("b1", "merge request").as_deref(),
            Some("b1: no merge request yet (`iris pr --stack --create` opens it)")
        );
    }

    #[test]
    fn a_request_number_ends_its_page() {
        assert_eq!(number_in("https://github.com/o/r/pull/12/"), Some(12));
        assert_eq!(
            number_in("https://gitlab.com/g/r/-/merge_requests/3"),
            Some(3)
        );
        assert_eq!(number_in("https://github.com/o/r/pulls"), None);
    }
}
