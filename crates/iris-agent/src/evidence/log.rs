//! Commits as the model reads them: the recent ones, or a range's with its contributors. One
//! renderer for the `git_log` tool's answers and for the commits the first request carries.

use std::collections::HashSet;
use std::fmt::Write;

use super::bound_output;
use iris_studio_git::{CommitInfo, GitRepo, is_bot};

/// Bound on a log, in characters.
const MAX_LOG_CHARS: usize = 30_000;
/// Commits listed for a range before the list is cut.
const MAX_RANGE_COMMITS: usize = 500;

/// The last `count` commits (1 to 100), newest first.
pub fn recent(repo: &GitRepo, count: usize) -> iris_studio_git::Result<String> {
    let commits = repo.log(count.clamp(1, 100))?;
    if commits.is_empty() {
        return Ok("No commits yet.\n".to_string());
    }
    let mut out = String::new();
    let _ = writeln!(out, "Last {} commit(s), newest first:", commits.len());
    write_commits(&mut out, &commits);
    Ok(bounded(out))
}

/// The commits of `from..to`, newest first, then who wrote them.
pub fn range(repo: &GitRepo, from: &str, to: &str) -> iris_studio_git::Result<String> {
    let mut commits = repo.log_range(from, to, MAX_RANGE_COMMITS + 1)?;
    let more = commits.len() > MAX_RANGE_COMMITS;
    commits.truncate(MAX_RANGE_COMMITS);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} commit(s) in {from}..{to}, newest first:",
        commits.len()
    );
    write_commits(&mut out, &commits);
    if more {
        let _ = writeln!(
            out,
            "[more than {MAX_RANGE_COMMITS} commits; narrow the range to see the rest]"
        );
    }
    let _ = writeln!(out, "\nContributors:");
    let contributors = contributors(&commits);
    if contributors.is_empty() {
        out.push_str("  (none besides automation accounts)\n");
    }
    for name in contributors {
        let _ = writeln!(out, "  {name}");
    }
    Ok(bounded(out))
}

fn bounded(out: String) -> String {
    bound_output(
        out,
        MAX_LOG_CHARS,
        "ask for fewer commits or a narrower range",
    )
}

fn write_commits(out: &mut String, commits: &[CommitInfo]) {
    for commit in commits {
        let _ = writeln!(
            out,
            "{} {} {} <{}> {}",
            commit.short_id,
            commit.date(),
            commit.author_name,
            commit.author_email,
            commit.summary
        );
    }
}

/// Authors in order of first appearance, one entry per email, automation accounts left out.
fn contributors(commits: &[CommitInfo]) -> Vec<String> {
    let mut seen = HashSet::new();
    commits
        .iter()
        .rev()
        .filter(|c| !is_bot(&c.author_name, &c.author_email))
        .filter(|c| seen.insert(c.author_email.to_lowercase()))
        .map(|c| format!("{} <{}>", c.author_name, c.author_email))
        .collect()
}
