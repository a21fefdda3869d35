//! `git_diff`: the change, ranked by relevance, as a summary or with full diffs.

use iris_studio_core::protocol::Risk;

use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure, blocking};
use crate::evidence::diff::{render, submodule_notes, summary};
use iris_studio_git::DiffTarget;

/// `summary`: files ranked by relevance with their reasons, no diff text;
/// `standard`: the summary followed by the full diffs (of `files` when given).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
pub enum Detail {
    #[default]
    Summary,
    Standard,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GitDiffArgs {
    /// standard adds the diffs.
    #[serde(default)]
    pub detail: Detail,
    /// Range start (exclusive).
    #[serde(default)]
    pub from: Option<String>,
    /// Range end (HEAD); alone, one commit.
    #[serde(default)]
    pub to: Option<String>,
    /// Only these paths.
    #[serde(default)]
    pub files: Option<Vec<String>>,
    /// Unstaged changes too.
    #[serde(default)]
    pub include_unstaged: bool,
}

pub struct GitDiff;

impl IrisTool for GitDiff {
    const NAME: &'static str = "git_diff";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "The change's files by relevance: staged, all \
        uncommitted, from..to, or one commit (to alone).";
    type Args = GitDiffArgs;

    async fn run(&self, ctx: &ToolContext, args: GitDiffArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl GitDiff {
    fn run_blocking(ctx: &ToolContext, args: GitDiffArgs) -> Result<String, ToolFailure> {
        let target = match (args.from, args.to) {
            (None, None) if args.include_unstaged => DiffTarget::WorkingTree,
            (None, None) => DiffTarget::Staged,
            (Some(from), to) => DiffTarget::Range {
                from,
                to: to.unwrap_or_else(|| "HEAD".to_string()),
            },
            (None, Some(to)) => DiffTarget::Commit(to),
        };
        let files = args.files.unwrap_or_default();
        let repo = ctx.repo()?;
        if args.detail == Detail::Summary {
            return Ok(summary(&repo, &target, &files)?);
        }
        let diff = repo.diff_files(&target, &files)?;
        let notes = submodule_notes(&repo, &diff);
        Ok(render(&diff, &target, &files, &notes))
    }
}
