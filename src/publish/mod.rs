//! Publishing an artifact where reviewers read it: a PR description as the current branch's
//! pull request (GitHub) or merge request (GitLab), a stack of them (`stack`), a review as a
//! comment on it.
//!
//! We hold no tokens: the user's own `gh` or `glab`, found on PATH, does the talking with the
//! user's login. The forge comes from the repository's remote. The pure parts (which forge, the
//! title and body, the tools' command lines and answers) are in `forge`, `text` and
//! `commands`; `run` runs a tool. Every function here blocks (the studio calls them from a
//! blocking task).

mod artifact;
mod commands;
mod forge;
mod inline;
mod issues;
mod ready;
mod review;
mod run;
mod stack;
mod tags;
mod text;
mod tool_state;

use std::path::Path;

use commands::{Invocation, url_in, viewed};
use iris_studio_git::GitRepo;
use run::Runner;

pub use artifact::{Target, description, from_studio};
pub use commands::Listed;
pub use forge::{Forge, forge_of};
pub use issues::read_issue;
pub use ready::{PushCommand, stack_on_remote};
pub use review::Posting;
pub use review::earlier::OnThePr;
pub use review::state::Recorded;
pub use stack::{LayerText, Plan, StackPublished, existing_requests, publish_stack};
pub use tags::GhTags;
pub use text::{PrText, base_branch, split_pr};
pub use tool_state::{ToolState, tool_state};

/// Why publishing failed, in words for the user (the tool's own message included).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PublishError(pub String);

/// What to do with a PR description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrAction {
    /// Open a new PR/MR for the current branch.
    Create,
    /// Replace the title and body of the current branch's PR/MR.
    Update,
    /// Update the current branch's open PR/MR if it has one, else create one.
    CreateOrUpdate,
}

/// What was published, for a status line: "created pull request https://...".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// What was done, with the URL when there is one: "created pull request https://...".
    pub summary: String,
    /// The page the tool printed for what it published, when it printed one.
    pub url: Option<String>,
}

/// Publishes `text` as the current branch's pull request (GitHub, with `gh`) or merge request
/// (GitLab, with `glab`). `base` is the branch it goes into, as git names it (`origin/main`
/// is `main`); None leaves it to the tool (the repository's default branch on create, the
/// PR's own on update). Blocks while the tool runs (at most two minutes).
pub fn publish_pr(
    repo_root: &Path,
    text: &PrText,
    action: PrAction,
    base: Option<&str>,
) -> Result<Published, PublishError> {
    let repo = open(repo_root)?;
    let forge = forge_of_repo(&repo, "description")?;
    let base = base.map(|b| base_branch(b, &repo.remote_names()));
    publish_pr_with(
        &Runner::in_repo(&repo.root()),
        forge,
        text,
        action,
        base.as_deref(),
    )
}

/// Opens (`Create`) or updates the PR/MR from branch `head` into `base`, found by its head
/// rather than by the branch checked out: a jj workspace's bookmark. Blocks while the tools
/// run.
pub fn publish_pr_from(
    repo_root: &Path,
    text: &PrText,
    action: PrAction,
    (base, head): (&str, &str),
) -> Result<Published, PublishError> {
    let repo = open(repo_root)?;
    let forge = forge_of_repo(&repo, "description")?;
    let runner = Runner::in_repo(&repo.root());
    if text.title.trim().is_empty() {
        return Err(PublishError("the pull request has no title".into()));
    }
    let noun = forge.request_noun();
    let listed = runner.run(forge, &commands::list_from(forge, head))?;
    // A merged or closed one is as none: the branch gets a new one.
    let open = commands::first_listed(&listed)
        .map_err(|answer| PublishError(format!("no JSON list of {noun}s from {head}: {answer}")))?
        .filter(|pr| pr.state == commands::RequestState::Open);
    let base = base_branch(base, &repo.remote_names());
    let (verb, url) = match (action, open) {
        (PrAction::Create, Some(pr)) => {
            return Err(PublishError(format!(
                "the {noun} from {head} is open already (#{}): --update rewrites it",
                pr.number
            )));
        }
        (PrAction::Update, None) => {
            return Err(PublishError(format!(
                "no open {noun} from {head}: --create opens one"
            )));
        }
        (PrAction::Update | PrAction::CreateOrUpdate, Some(pr)) => {
            let edit =
                commands::edit_number(forge, pr.number, Some(&text.title), &text.body, Some(&base));
            let out = runner.run(forge, &edit)?;
            ("updated", url_in(&out).or(pr.url))
        }
        (PrAction::Create | PrAction::CreateOrUpdate, None) => {
            let out = runner.run(forge, &commands::create_from(forge, text, &base, head))?;
            ("created", url_in(&out))
        }
    };
    Ok(published(format!("{verb} {noun} from {head}"), url))
}

/// How a review is posted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewPost {
    /// A review whose findings sit on their lines of the PR/MR's diff: replacing Iris'
    /// earlier one, or beside it for a re-review of the new commits; it records what it
    /// covered for the next.
    Inline(Posting),
    /// One comment with the whole markdown.
    Comment,
}

/// What Iris posted on the current branch's PR/MR before: what its last review recorded,
/// its findings on lines, and the threads that dismissed one. Blocks while the tools run.
pub fn on_the_pr(repo_root: &Path) -> Result<OnThePr, PublishError> {
    let repo = open(repo_root)?;
    let forge = forge_of_repo(&repo, "review")?;
    review::earlier::read(&Runner::in_repo(&repo.root()), forge)
}

/// Posts `body` (a review's markdown) on the current branch's PR/MR, inline or as one
/// comment. Blocks while the tools run.
pub fn post_review(
    repo_root: &Path,
    body: &str,
    how: ReviewPost,
) -> Result<Published, PublishError> {
    let repo = open(repo_root)?;
    let forge = forge_of_repo(&repo, "review")?;
    let runner = Runner::in_repo(&repo.root());
    match how {
        ReviewPost::Inline(posting) => review::post_inline(&runner, forge, body, &posting),
        ReviewPost::Comment => post_review_with(&runner, forge, body),
    }
}

fn open(repo_root: &Path) -> Result<GitRepo, PublishError> {
    GitRepo::discover(repo_root).map_err(|e| PublishError(e.to_string()))
}

/// The forge of the repository's remote, or why there is none to publish to (the command
/// line checks it before writing, so a repository on another host fails at once); `what` is
/// the artifact the error suggests copying.
pub(crate) fn forge_of_repo(repo: &GitRepo, what: &str) -> Result<Forge, PublishError> {
    let instead = format!("copy the {what} instead (y in the studio, --copy)");
    let url = repo.remote_url().ok_or_else(|| {
        PublishError(format!(
            "this repository has no remote to publish to: {instead}"
        ))
    })?;
    forge_of(&url).ok_or_else(|| {
        let host = forge::host_of(&url).unwrap_or(url);
        PublishError(format!(
            "the remote {host} is neither GitHub nor GitLab: {instead}"
        ))
    })
}

pub(crate) fn publish_pr_with(
    runner: &Runner,
    forge: Forge,
    text: &PrText,
    action: PrAction,
    base: Option<&str>,
) -> Result<Published, PublishError> {
    if text.title.trim().is_empty() {
        return Err(PublishError("the pull request has no title".into()));
    }
    let noun = forge.request_noun();
    let (verb, url) = match action {
        PrAction::Create => ("created", create(runner, forge, text, base)?),
        PrAction::Update => {
            let out = runner.run(forge, &commands::update(forge, text, base))?;
            // gh and glab print the URL after an update; if one did not, ask for it.
            let url = url_in(&out).or_else(|| {
                runner
                    .run(forge, &commands::view(forge))
                    .ok()
                    .and_then(|v| viewed(&v).url)
            });
            ("updated", url)
        }
        PrAction::CreateOrUpdate => {
            let found = runner.run(forge, &commands::view(forge)).ok();
            match found.map(|out| viewed(&out)) {
                Some(open) if open.open => {
                    let out = runner.run(forge, &commands::update(forge, text, base))?;
                    ("updated", url_in(&out).or(open.url))
                }
                // None for this branch (the tool fails), or only a closed or merged one.
                _ => ("created", create(runner, forge, text, base)?),
            }
        }
    };
    Ok(published(format!("{verb} {noun}"), url))
}

fn create(
    runner: &Runner,
    forge: Forge,
    text: &PrText,
    base: Option<&str>,
) -> Result<Option<String>, PublishError> {
    let out = runner.run(forge, &commands::create(forge, text, base))?;
    Ok(url_in(&out))
}

pub(crate) fn post_review_with(
    runner: &Runner,
    forge: Forge,
    body: &str,
) -> Result<Published, PublishError> {
    if body.trim().is_empty() {
        return Err(PublishError("the review is empty: nothing to post".into()));
    }
    let invocation: Invocation = commands::comment(forge, body.trim());
    let out = runner.run(forge, &invocation)?;
    Ok(published(
        format!("posted the review on the {}", forge.request_noun()),
        url_in(&out),
    ))
}

pub(crate) fn published(what: String, url: Option<String>) -> Published {
    let summary = match &url {
        Some(url) => format!("{what} {url}"),
        None => what,
    };
    Published { summary, url }
}

#[cfg(test)]
mod tests;
