//! `git log`: recent commits, or the commits of a range.

use git2::{Commit, Sort};
use serde::Serialize;

use super::info::short_id;
use super::{GitRepo, Result, lossy};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommitInfo {
    pub id: String,
    pub short_id: String,
    pub author_name: String,
    pub author_email: String,
    /// Author time, seconds since the epoch, and its UTC offset in minutes.
    pub time: i64,
    pub offset_minutes: i32,
    pub summary: String,
    pub message: String,
    pub parent_count: usize,
}

impl CommitInfo {
    pub(super) fn from_commit(commit: &Commit<'_>) -> Self {
        let author = commit.author();
        let message = lossy(commit.message_bytes());
        let summary = message
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        Self {
            id: commit.id().to_string(),
            short_id: short_id(&commit.id()),
            author_name: lossy(author.name_bytes()),
            author_email: lossy(author.email_bytes()),
            time: author.when().seconds(),
            offset_minutes: author.when().offset_minutes(),
            summary,
            message: message.trim_end().to_string(),
            parent_count: commit.parent_count(),
        }
    }

    /// The author date as `YYYY-MM-DD` in the author's own time zone.
    pub fn date(&self) -> String {
        let local = self.time + i64::from(self.offset_minutes) * 60;
        let (y, m, d) = civil_from_days(local.div_euclid(86_400));
        format!("{y:04}-{m:02}-{d:02}")
    }
}

impl GitRepo {
    /// The last `count` commits reachable from HEAD, newest first (none in a new repository).
    pub fn log(&self, count: usize) -> Result<Vec<CommitInfo>> {
        if self.head_commit()?.is_none() {
            return Ok(Vec::new());
        }
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(Sort::TIME)?;
        walk.push_head()?;
        self.collect(walk, count)
    }

    /// The commits in `from..to` (reachable from `to`, not from `from`), newest first.
    pub fn log_range(&self, from: &str, to: &str, limit: usize) -> Result<Vec<CommitInfo>> {
        let from = self.resolve_commit(from)?.id();
        let to = self.resolve_commit(to)?.id();
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(Sort::TIME)?;
        walk.push(to)?;
        walk.hide(from)?;
        self.collect(walk, limit)
    }

    /// The last `limit` commits that changed `path` (its blob differs from the first parent's),
    /// newest first; at most `MAX_HISTORY_WALK` commits are looked at.
    pub fn file_history(&self, path: &str, limit: usize) -> Result<Vec<CommitInfo>> {
        const MAX_HISTORY_WALK: usize = 5_000;
        let clean = super::check_relative_path(path)?;
        if self.head_commit()?.is_none() {
            return Ok(Vec::new());
        }
        let entry_id = |commit: &Commit<'_>| {
            commit
                .tree()
                .ok()
                .and_then(|tree| tree.get_path(&clean).ok().map(|e| e.id()))
        };
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(Sort::TIME)?;
        walk.push_head()?;
        let mut found = Vec::new();
        for id in walk.take(MAX_HISTORY_WALK) {
            let commit = self.repo.find_commit(id?)?;
            let here = entry_id(&commit);
            let before = commit.parent(0).ok().and_then(|p| entry_id(&p));
            if here != before {
                found.push(CommitInfo::from_commit(&commit));
                if found.len() >= limit {
                    break;
                }
            }
        }
        Ok(found)
    }

    /// One commit's facts.
    pub fn commit_info(&self, rev: &str) -> Result<CommitInfo> {
        Ok(CommitInfo::from_commit(&self.resolve_commit(rev)?))
    }

    fn collect(&self, walk: git2::Revwalk<'_>, limit: usize) -> Result<Vec<CommitInfo>> {
        walk.take(limit)
            .map(|id| {
                let commit = self.repo.find_commit(id?)?;
                Ok(CommitInfo::from_commit(&commit))
            })
            .collect()
    }
}

/// Automation accounts that are not contributors in a changelog's sense.
pub fn is_bot(name: &str, email: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let email = email.to_ascii_lowercase();
    name.ends_with("[bot]")
        || email.contains("[bot]@")
        || [
            "dependabot",
            "renovate",
            "github-actions",
            "greenkeeper",
            "snyk-bot",
        ]
        .iter()
        .any(|bot| name.starts_with(bot) || email.starts_with(bot))
}

/// Days since 1970-01-01 to a (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's algorithm), so dates need no calendar crate.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn bots_are_recognised() {
        assert!(is_bot(
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com"
        ));
        assert!(is_bot("renovate-bot", "bot@renovateapp.com"));
        assert!(!is_bot("Ada Lovelace", "ada@example.com"));
    }
}
