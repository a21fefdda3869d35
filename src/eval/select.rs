//! Which commits `iris eval` replays: deterministic, and said before the run starts.

use anyhow::Result;
use regex::Regex;

use crate::app::vcs::{Base, HistoryTop, Vcs};
use iris_studio_git::{CommitInfo, GitRepo};

/// Commits looked at for `--last N`.
const SCAN: usize = 10_000;

/// Where the commits come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The last N non-merge commits of HEAD (or of `top`: in a jj workspace, `@-`) that
    /// have a parent.
    Last {
        /// How many.
        n: usize,
        /// Where the history is read from, when not HEAD.
        top: Option<HistoryTop>,
    },
    /// These commits, in this order.
    Commits(Vec<String>),
    /// The non-merge commits of FROM..TO, newest first, at most N when given.
    Range {
        /// The start of the range (exclusive).
        from: String,
        /// The end of the range.
        to: String,
        /// The most commits taken (`--last`), the newest first.
        limit: Option<usize>,
    },
}

impl Source {
    /// The source as git's store reads it, its revisions checked (a usage error for one that
    /// names no commit): jj's changes as their commits, the last N read from the top of the
    /// history written so far.
    pub fn resolved(self, vcs: &dyn Vcs, repo: &GitRepo) -> Result<Source> {
        Ok(match self {
            Source::Last { n, .. } => Source::Last {
                n,
                top: vcs.history_top()?,
            },
            Source::Commits(revs) => Source::Commits(
                revs.iter()
                    .map(|rev| vcs.commit(repo, rev))
                    .collect::<Result<_>>()?,
            ),
            Source::Range { from, to, limit } => {
                let (from, to) = vcs.range(repo, Some(&from), Some(&to), Base::Parent)?;
                Source::Range { from, to, limit }
            }
        })
    }
}

/// What keeps a commit out.
#[derive(Debug, Clone)]
pub struct Filters {
    /// Changed lines (added and deleted) above which a commit is skipped.
    pub max_lines: usize,
    /// Authors (`Name <email>`) to skip.
    pub skip_authors: Option<Regex>,
    /// Only commits whose message, its flags left out, matches (`--reviews`: the fixes);
    /// others are passed over unsaid unless named.
    pub only: Option<Regex>,
}

/// The commits chosen, and those skipped with why.
#[derive(Debug, Default)]
pub struct Choice {
    pub commits: Vec<CommitInfo>,
    pub skipped: Vec<(String, String)>,
}

impl Choice {
    /// The choice in words, one commit a line, for stderr before the run.
    pub fn describe(&self, source: &Source) -> String {
        let what = match source {
            Source::Last { n, top: None } => format!("the last {n} non-merge commits of HEAD"),
            Source::Last { n, top: Some(top) } => {
                format!("the last {n} non-merge {}", top.said)
            }
            Source::Commits(_) => "the commits named".to_string(),
            Source::Range { from, to, .. } => format!("the non-merge commits of {from}..{to}"),
        };
        let mut text = format!("evaluating {} commit(s), {what}:\n", self.commits.len());
        for c in &self.commits {
            text.push_str(&format!("  {} {}\n", c.short_id, c.summary));
        }
        for (id, why) in &self.skipped {
            text.push_str(&format!("  skipped {id}: {why}\n"));
        }
        text
    }
}

/// The commits `source` reads, in its order (newest first but for named commits), before
/// anything is kept out.
pub fn history(repo: &GitRepo, source: &Source) -> Result<Vec<CommitInfo>> {
    Ok(match source {
        Source::Last { top: None, .. } => repo.log(SCAN)?,
        Source::Last { top: Some(top), .. } => repo.log_from(&top.commit, SCAN)?,
        Source::Commits(revs) => revs
            .iter()
            .map(|rev| repo.commit_info(rev))
            .collect::<Result<Vec<_>, _>>()?,
        Source::Range { from, to, .. } => repo.log_range(from, to, SCAN)?,
    })
}

pub fn choose(repo: &GitRepo, source: &Source, filters: &Filters) -> Result<Choice> {
    choose_from(repo, history(repo, source)?, source, filters)
}

/// [`choose`] among `candidates`, the [`history`] `source` reads.
pub fn choose_from(
    repo: &GitRepo,
    candidates: Vec<CommitInfo>,
    source: &Source,
    filters: &Filters,
) -> Result<Choice> {
    let mut choice = Choice::default();
    let (limit, named) = match source {
        Source::Last { n, .. } => (*n, false),
        Source::Commits(_) => (usize::MAX, true),
        Source::Range { limit, .. } => (limit.unwrap_or(usize::MAX), false),
    };
    for commit in candidates {
        if choice.commits.len() >= limit {
            break;
        }
        match why_skip(repo, &commit, filters)? {
            None => choice.commits.push(commit),
            // Merges and root commits are no candidates unless named.
            Some(Skip::Shape(why)) if named => {
                choice.skipped.push((commit.short_id.clone(), why));
            }
            Some(Skip::Shape(_)) => {}
            Some(Skip::Filtered(why)) => choice.skipped.push((commit.short_id.clone(), why)),
        }
    }
    Ok(choice)
}

/// Whether `commit` is one `filters` let through (its message aside: `only` is not looked at),
/// as a commit replayed on its own: one parent, a diff, not too large, not by an author skipped.
pub fn kept(repo: &GitRepo, commit: &CommitInfo, filters: &Filters) -> Result<bool> {
    let any_message = Filters {
        only: None,
        ..filters.clone()
    };
    Ok(why_skip(repo, commit, &any_message)?.is_none())
}

enum Skip {
    /// Not a one-parent commit.
    Shape(String),
    /// Left out by a filter.
    Filtered(String),
}

fn why_skip(repo: &GitRepo, commit: &CommitInfo, filters: &Filters) -> Result<Option<Skip>> {
    if commit.parent_count == 0 && repo.is_shallow() {
        // The clone's edge: said, so the user learns why the history ran out.
        return Ok(Some(Skip::Filtered(
            "its parent is not in this shallow clone (`git fetch --unshallow` brings the history)"
                .into(),
        )));
    }
    if commit.parent_count == 0 {
        return Ok(Some(Skip::Shape(
            "the first commit has no parent to replay it on".into(),
        )));
    }
    if commit.parent_count > 1 {
        return Ok(Some(Skip::Shape("a merge commit".into())));
    }
    if let Some(only) = &filters.only
        && !only.is_match(&iris_studio_core::eval::without_flags(&commit.message))
    {
        return Ok(Some(Skip::Shape(format!(
            "its message does not match `{}`",
            only.as_str()
        ))));
    }
    let author = format!("{} <{}>", commit.author_name, commit.author_email);
    if filters
        .skip_authors
        .as_ref()
        .is_some_and(|re| re.is_match(&author))
    {
        return Ok(Some(Skip::Filtered(format!("author {author} is skipped"))));
    }
    let size = repo.change_size(&commit.id)?;
    if size.files == 0 {
        return Ok(Some(Skip::Filtered("its diff is empty".into())));
    }
    if size.lines > filters.max_lines {
        return Ok(Some(Skip::Filtered(format!(
            "{} changed lines, more than --max-lines {}",
            size.lines, filters.max_lines
        ))));
    }
    Ok(None)
}
