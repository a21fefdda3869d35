//! The decisions publishing makes for a written artifact, shared by `iris pr` and the studio:
//! which pull request a description goes to (the branch checked out, or in a jj workspace the
//! range's bookmarks) and what is done with it; a review is posted inline.

use std::path::Path;
use std::sync::Arc;

use iris_studio_core::artifact::ArtifactKind;

use super::{
    Posting, PrAction, PrText, PublishError, Published, ReviewPost, post_review, publish_pr,
    publish_pr_from, split_pr,
};
use crate::app::vcs::Vcs;

/// Where a description goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The pull request of the branch checked out, into `base` (None: the tool's choice).
    Checkout {
        /// The branch it goes into.
        base: Option<String>,
    },
    /// The pull request from `head` into `base`, found by its head: a jj bookmark.
    Branches {
        /// The branch it goes into.
        base: String,
        /// The branch (bookmark) it comes from.
        head: String,
    },
}

impl Target {
    /// The target for a range `base..to`: the version control's branches for it when the
    /// pull request does not come from the branch checked out (jj's bookmarks).
    pub fn of_range(
        vcs: &dyn Vcs,
        repo: &iris_studio_git::GitRepo,
        base: Option<&str>,
        to: Option<&str>,
    ) -> anyhow::Result<Self> {
        Ok(match vcs.pr_branches(repo, base, to)? {
            Some((base, head)) => Target::Branches { base, head },
            None => Target::Checkout {
                base: base.map(str::to_string),
            },
        })
    }
}

/// Publishes the description `text` to `target` as `action` says. Blocks while the tools
/// run.
pub fn description(
    root: &Path,
    text: &PrText,
    action: PrAction,
    target: &Target,
) -> Result<Published, PublishError> {
    match target {
        Target::Branches { base, head } => publish_pr_from(root, text, action, (base, head)),
        Target::Checkout { base } => publish_pr(root, text, action, base.as_deref()),
    }
}

/// What the studio's publish key does with the artifact `kind` written as `text`: a review is
/// posted with its findings on their lines; a PR description opens the range's pull request,
/// or updates it when it is open. Blocks while the tools run.
pub fn from_studio(
    root: &Path,
    vcs: Arc<dyn Vcs>,
    kind: ArtifactKind,
    text: &str,
    (base, to): (Option<&str>, Option<&str>),
) -> Result<Published, PublishError> {
    if kind == ArtifactKind::Review {
        return post_review(root, text, ReviewPost::Inline(Posting::default()));
    }
    let pr = split_pr(text)?;
    let target = iris_studio_git::GitRepo::discover(root)
        .map_err(anyhow::Error::from)
        .and_then(|repo| Target::of_range(vcs.as_ref(), &repo, base, to))
        .map_err(|err| PublishError(format!("{err:#}")))?;
    description(root, &pr, PrAction::CreateOrUpdate, &target)
}
