//! Publishing a stack of pull requests: each layer's PR/MR into the branch below it, opened
//! bottom up, then every body's stack section refreshed so it links all of them. Nothing is
//! pushed: a layer not on the remote is reported with the command that pushes it.

use std::path::Path;

use iris_core::stack::{self, Shown, Stack};
use iris_git::GitRepo;

use super::commands::{self, Listed, first_listed, url_in};
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

/// What happened to each layer, one line each, and the push the user still has to do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StackPublished {
    /// "b1: created pull request https://... (into main)", one a layer, bottom first.
    pub lines: Vec<String>,
    /// `git push -u origin b3 b4` for the layers the remote does not have as they are here.
    pub push: Option<String>,
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
            let out = runner.run(forge, &commands::list_from(forge, &layer.branch))?;
            Ok(first_listed(&out))
        })
        .collect()
}

/// Publishes the stack: with `create`, opens the PR/MR of each layer that has none (bottom
/// up, a layer the remote lacks and those above it left out); then refreshes every stack
/// section and, for layers written now, the title and body. `texts` and `existing` are
/// bottom first, one a layer. Blocks while the tools run.
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
    let remote = remote_of(&repo);
    let pushed = |branch: &str| repo.pushed(&remote, branch);
    // A base git names `origin/main` is `main` on the forge.
    let remotes = repo.remote_names();
    let mut stack = stack.clone();
    stack.base = base_branch(&stack.base, &remotes);
    for layer in &mut stack.layers {
        layer.parent = base_branch(&layer.parent, &remotes);
    }
    publish_stack_with(
        &runner,
        forge,
        (&remote, &pushed),
        &stack,
        texts,
        existing,
        create,
    )
}

/// The remote the forge's PRs live on: `origin`, else the first there is.
fn remote_of(repo: &GitRepo) -> String {
    let names = repo.remote_names();
    if names.iter().any(|n| n == "origin") {
        return "origin".into();
    }
    names.into_iter().next().unwrap_or_else(|| "origin".into())
}

/// Whether a branch is on the remote as it is here (`GitRepo::pushed`).
type Pushed<'a> = dyn Fn(&str) -> Option<bool> + 'a;

/// Where a layer stands while the stack is published.
#[derive(Debug, Clone)]
struct Request {
    number: u64,
    url: Option<String>,
    title: String,
    /// The body on the forge now (for one opened in this run, what it was opened with).
    body: String,
    base: String,
}

pub(crate) fn publish_stack_with(
    runner: &Runner,
    forge: Forge,
    (remote, pushed): (&str, &Pushed<'_>),
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
    let mut to_push = Vec::new();
    let mut blocked = false;
    // First pass, bottom up: open what is missing.
    for (i, layer) in stack.layers.iter().enumerate() {
        let state = pushed(&layer.branch);
        if state != Some(true) {
            to_push.push(layer.branch.clone());
        }
        if requests[i].is_some() {
            continue;
        }
        let written = texts.get(i).and_then(|t| t.written.as_ref());
        let why_not = match (create, state, blocked, written) {
            (false, ..) => Some(format!(
                "no {noun} yet (`iris pr --stack --create` opens it)"
            )),
            (true, None, ..) => Some(format!("not on {remote}: push it, then publish again")),
            (true, _, true, _) => {
                Some(format!("not opened: the branch below it has no {noun} yet"))
            }
            (true, _, false, None) => Some("not opened: no description was written".into()),
            (true, _, false, Some(_)) => None,
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
        });
    }
    // Second pass: every stack section links every PR that exists now.
    let shown = shown_of(stack, &requests, texts);
    for (i, layer) in stack.layers.iter().enumerate() {
        let Some(request) = requests[i].clone() else {
            continue;
        };
        let text = texts.get(i);
        let written = text.and_then(|t| t.written.as_ref());
        let change = text.map_or("", |t| t.change.as_str());
        let kept = written.map_or(request.body.as_str(), |w| w.body.as_str());
        let body = stack::with_section(kept, &stack::section(stack, &shown, i, change));
        let title = written
            .map(|w| w.title.as_str())
            .filter(|t| *t != request.title);
        let base = (request.base != layer.parent).then_some(layer.parent.as_str());
        let url = request.url.clone().unwrap_or_default();
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
    let push = (!to_push.is_empty()).then(|| format!("git push -u {remote} {}", to_push.join(" ")));
    Ok(StackPublished {
        lines: lines.into_iter().flatten().collect(),
        push,
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
