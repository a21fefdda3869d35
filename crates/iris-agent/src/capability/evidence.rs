//! The evidence the first request carries: what a careful model would fetch first anyway, so
//! a model that can answer at once writes in one request (structure up front, source on
//! demand: the tools stay for everything else).

use crate::capability::requests::Scope;
use std::sync::Arc;

use crate::evidence::packages::{self, PinTags};
use crate::evidence::{diff, log};
use crate::tools::{ToolContext, blocking};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::change::FileDiff;
use iris_studio_core::history;
use iris_studio_git::DiffTarget;

/// Characters of diff evidence for a hosted model (about 4,000 tokens): a Small change whole
/// and the top files of a bigger one.
const DIFF_BUDGET: usize = 16_000;
/// For a local server: its CPU reads a prompt at tens of tokens a second, and Ollama's
/// default context is a few thousand tokens, so the first request stays short.
const LOCAL_DIFF_BUDGET: usize = 6_000;
/// How the evidence section of a request begins.
const HEADING: &str = "## Evidence gathered up front";

/// What the first request carries besides what is asked: the change, and for a commit
/// message the sample of the repository's history its style is learned from.
pub struct Gathered {
    /// The change (its ranked diff, its commits), headed as the evidence gathered up front.
    pub evidence: String,
    /// How the repository's people write their messages; `None` but for a commit message.
    pub history: Option<String>,
}

/// Recent commits the style sample is chosen from.
const STYLE_HISTORY: usize = 200;

/// The evidence for `kind` over `scope`, as sections of the request; less of the diff for a
/// `local` server. Whatever cannot be gathered is left for the model's tools, with the
/// reason.
pub async fn gather(ctx: &ToolContext, local: bool, kind: ArtifactKind, scope: &Scope) -> Gathered {
    let diff_budget = if local {
        LOCAL_DIFF_BUDGET
    } else {
        DIFF_BUDGET
    };
    // Changelog and release notes are written from a range's commits, a PR from its diff
    // and its commits, everything else from its diff.
    let commits = match scope {
        Scope::Range { from, to, .. } if kind != ArtifactKind::Review => {
            Some((from.clone(), to.clone()))
        }
        _ => None,
    };
    let from_commits_only = commits.is_some() && kind != ArtifactKind::Pr;
    let mut parts = Vec::new();
    if !from_commits_only {
        let targets = scope.diff_targets();
        let budget = diff_budget / targets.len();
        for target in targets {
            let text = blocking(ctx, move |ctx| {
                Ok(diff::up_front(&ctx.repo()?, &target, budget)?)
            })
            .await;
            parts.push(text.unwrap_or_else(|e| format!("(git_diff failed: {e})")));
        }
    }
    if let Some((from, to)) = commits {
        let text = blocking(ctx, move |ctx| Ok(log::range(&ctx.repo()?, &from, &to)?)).await;
        parts.push(text.unwrap_or_else(|e| format!("(git_log failed: {e})")));
    }
    let history = match kind {
        ArtifactKind::Commit => Some(
            style_sample(ctx, scope.diff_targets())
                .await
                .trim_end()
                .to_string(),
        ),
        _ => None,
    };
    let evidence = format!(
        "{HEADING}\n\n{}",
        parts
            .iter()
            .map(|p| p.trim_end())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    Gathered { evidence, history }
}

/// The request's Packages section for `scope`: what its change does to the packages of its
/// lock files and to its workflows' Actions pins, the pinned commits named by their tags
/// where `tags` answers; `None` when it touches neither, or they cannot be read.
pub async fn packages(
    ctx: &ToolContext,
    scope: &Scope,
    tags: Option<Arc<dyn PinTags>>,
) -> Option<String> {
    let targets = scope.diff_targets();
    let section = blocking(ctx, move |ctx| {
        let mut bumps = packages::read(&ctx.repo()?, &targets)?;
        if let Some(tags) = tags {
            packages::name_pins(&mut bumps, tags.as_ref());
        }
        Ok(bumps.section().unwrap_or_default())
    })
    .await;
    match section {
        Ok(section) => Some(section).filter(|s| !s.is_empty()),
        Err(why) => {
            tracing::debug!(%why, "the packages the change moves could not be read");
            None
        }
    }
}

/// How the repository's people write their messages: the sample of their recent commits
/// that fits a change to the files of `targets` best (see [`iris_studio_core::history`]).
pub(crate) async fn style_sample(ctx: &ToolContext, targets: Vec<DiffTarget>) -> String {
    let sample = blocking(ctx, move |ctx| {
        let repo = ctx.repo()?;
        let mut files = Vec::new();
        for target in &targets {
            files.extend(repo.changed_files(target)?.into_iter().map(|f| f.path));
        }
        // One commit's message is written in the style of the history before it; so is an
        // amended HEAD's, whose own message is the one being replaced.
        let before = match targets.as_slice() {
            [DiffTarget::Commit(rev), ..] => Some(rev.as_str()),
            _ => None,
        };
        let past = repo.past_commits(before, STYLE_HISTORY)?;
        let chosen = history::sample(&past, &files, repo.author().as_ref());
        Ok(history::render(&chosen, past.len()))
    })
    .await;
    sample.unwrap_or_else(|e| format!("(the commit history could not be read: {e})"))
}

/// The change `scope` covers, parsed, for checking a review's findings against it.
pub async fn reviewed_change(ctx: &ToolContext, scope: &Scope) -> Result<Vec<FileDiff>, String> {
    let (targets, root) = (scope.diff_targets(), ctx.repo_root.clone());
    let read = tokio::task::spawn_blocking(move || {
        let repo = iris_studio_git::GitRepo::discover(&root).map_err(|e| e.to_string())?;
        let mut files = Vec::new();
        for target in &targets {
            files.extend(repo.diff_files(target, &[]).map_err(|e| e.to_string())?);
        }
        Ok(files)
    });
    read.await.map_err(|e| e.to_string())?
}
