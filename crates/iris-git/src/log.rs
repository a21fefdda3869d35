//! `git log`: recent commits, or the commits of a range.

use git2::{Commit, Sort};
use iris_studio_core::history::{Author, PastCommit, by_people};
use serde::Serialize;

use super::info::short_id;
use super::{GitRepo, Result, lossy};

/// One commit of a log, as plain data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommitInfo {
    /// The full commit id (40 hex digits).
    pub id: String,
    /// The id shortened to 7 characters.
    pub short_id: String,
    /// The author's name as recorded.
    pub author_name: String,
    /// The author's email as recorded.
    pub author_email: String,
    /// Author time, seconds since the epoch, and its UTC offset in minutes.
    pub time: i64,
    /// The author's UTC offset, in minutes (see `time`).
    pub offset_minutes: i32,
    /// The message's first line, trimmed.
    pub summary: String,
    /// The whole message, without trailing whitespace.
    pub message: String,
    /// Parents: 0 for a root commit, 2 or more for a merge.
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
    /// The last `count` commits reachable from `top` (it included), newest first, in git's
    /// order.
    pub fn log_from(&self, top: &str, count: usize) -> Result<Vec<CommitInfo>> {
        let top = self.resolve_commit(top)?.id();
        let mut walk = self.history_walk()?;
        walk.push(top)?;
        self.collect(walk, count)
    }

    /// The last `count` commits reachable from HEAD, newest first (none in a new repository).
    pub fn log(&self, count: usize) -> Result<Vec<CommitInfo>> {
        Ok(self
            .head_commits(count)?
            .iter()
            .map(CommitInfo::from_commit)
            .collect())
    }

    /// A walk of history in git's own order, as `git log` shows it: newest first, and commits
    /// of the same second (a rebase, `git am` of a series, an import) children before parents.
    /// Every reader of history walks through it.
    pub(crate) fn history_walk(&self) -> Result<git2::Revwalk<'_>> {
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(Sort::TIME | Sort::TOPOLOGICAL)?;
        Ok(walk)
    }

    /// The last `count` commits reachable from HEAD, newest first.
    fn head_commits(&self, count: usize) -> Result<Vec<Commit<'_>>> {
        match self.head_commit()? {
            Some(head) => self.commits_from([head.id()], count),
            None => Ok(Vec::new()),
        }
    }

    /// The last `count` commits reachable from `starts` (them included), newest first.
    fn commits_from(
        &self,
        starts: impl IntoIterator<Item = git2::Oid>,
        count: usize,
    ) -> Result<Vec<Commit<'_>>> {
        let mut walk = self.history_walk()?;
        for start in starts {
            walk.push(start)?;
        }
        walk.take(count)
            .map(|id| Ok(self.repo.find_commit(id?)?))
            .collect()
    }

    /// What `commit` changes against its first parent (against nothing for a root).
    pub(crate) fn first_parent_diff(&self, commit: &Commit<'_>) -> Result<git2::Diff<'_>> {
        let parent_tree = match commit.parent(0) {
            Ok(parent) => Some(parent.tree()?),
            Err(_) => None,
        };
        let diff =
            self.repo
                .diff_tree_to_tree(parent_tree.as_ref(), Some(&commit.tree()?), None)?;
        self.fill_diff_holes(&diff)?;
        Ok(diff)
    }

    /// What a submodule's bump from `old` to `new` brings: the titles of its commits in
    /// `old..new`, newest first (at most `limit`), read from the submodule checked out at
    /// `path`; why not, in words, when it is not checked out or lacks those commits.
    pub fn submodule_titles(
        &self,
        path: &str,
        old: &str,
        new: &str,
        limit: usize,
    ) -> std::result::Result<Vec<String>, String> {
        let dir = self.root().join(path);
        if !dir.join(".git").exists() {
            return Err(
                "not checked out here (`git submodule update --init` checks it out)".into(),
            );
        }
        let sub = GitRepo::discover(&dir).map_err(|e| e.to_string())?;
        if sub.root() != dir.components().collect::<std::path::PathBuf>() {
            return Err(
                "not checked out here (`git submodule update --init` checks it out)".into(),
            );
        }
        sub.log_range(old, new, limit)
            .map(|commits| commits.into_iter().map(|c| c.summary).collect())
            .map_err(|_| {
                "its checkout does not hold these commits (`git submodule update` fetches them)"
                    .to_string()
            })
    }

    /// The commits in `from..to` (reachable from `to`, not from `from`), newest first.
    pub fn log_range(&self, from: &str, to: &str, limit: usize) -> Result<Vec<CommitInfo>> {
        let from = self.resolve_commit(from)?.id();
        let to = self.resolve_commit(to)?.id();
        let mut walk = self.history_walk()?;
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
        let mut walk = self.history_walk()?;
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

    /// The last `count` commits of HEAD (or, with `before`, of the history before that
    /// commit: its parents and their ancestors) as the history sample reads them: title,
    /// body, author, parents, and for a commit by people the paths it changed (names only,
    /// no contents read).
    pub fn past_commits(&self, before: Option<&str>, count: usize) -> Result<Vec<PastCommit>> {
        let commits = match before {
            None => self.head_commits(count)?,
            Some(rev) => self.commits_from(self.resolve_commit(rev)?.parent_ids(), count)?,
        };
        let mut past = Vec::new();
        for commit in commits {
            let info = CommitInfo::from_commit(&commit);
            // Only people's commits are ever sampled: a merge's or a bot's paths go unread.
            let files = if by_people(info.parent_count, &info.author_name, &info.author_email) {
                self.first_parent_diff(&commit)?
                    .deltas()
                    .filter_map(|d| d.new_file().path().or_else(|| d.old_file().path()))
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect()
            } else {
                Vec::new()
            };
            let body = info
                .message
                .split_once('\n')
                .map(|(_, rest)| rest.trim().to_string())
                .unwrap_or_default();
            past.push(PastCommit {
                title: info.summary,
                body,
                author_name: info.author_name,
                author_email: info.author_email,
                parents: info.parent_count,
                files,
            });
        }
        Ok(past)
    }

    /// Who commits here: git's `user.name` and `user.email` (`None` when neither is set).
    pub fn author(&self) -> Option<Author> {
        let config = self.repo.config().ok()?;
        let name = config.get_string("user.name").unwrap_or_default();
        let email = config.get_string("user.email").unwrap_or_default();
        (!name.is_empty() || !email.is_empty()).then_some(Author { name, email })
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

/// The UTC date of `secs` seconds since the epoch, as `YYYY-MM-DD`.
pub fn utc_date(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
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
    fn commits_of_one_second_come_in_git_s_order() {
        let test = iris_studio_testkit::TestRepo::new();
        // Six commits made in the same second, as a rebase or `git am` makes them.
        test.write("a.txt", "0\n");
        test.git(&["add", "a.txt"]);
        for i in 1..=6 {
            test.write("a.txt", format!("{i}\n"));
            let out = std::process::Command::new("git")
                .args(["commit", "-q", "-a", "-m"])
                .arg(format!("c{i}"))
                .current_dir(test.path())
                .env("GIT_CONFIG_GLOBAL", test.git_config())
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_AUTHOR_DATE", "1700000000 +0000")
                .env("GIT_COMMITTER_DATE", "1700000000 +0000")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let git_says: Vec<String> = test
            .git(&["log", "--format=%s"])
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(git_says, ["c6", "c5", "c4", "c3", "c2", "c1"]);
        let repo = GitRepo::discover(&test.path()).unwrap();
        let ours: Vec<String> = repo
            .log(10)
            .unwrap()
            .into_iter()
            .map(|c| c.summary)
            .collect();
        assert_eq!(ours, git_says);
        let first = test.git(&["rev-list", "--max-parents=0", "HEAD"]);
        let range: Vec<String> = repo
            .log_range(first.trim(), "HEAD", 10)
            .unwrap()
            .into_iter()
            .map(|c| c.summary)
            .collect();
        assert_eq!(range, ["c6", "c5", "c4", "c3", "c2"]);
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn past_commits_carry_their_paths_and_bodies() {
        let test = iris_studio_testkit::TestRepo::new();
        test.write("a.txt", "one\n");
        test.commit_all("First");
        test.write("b/c.txt", "two\n");
        test.commit_all("Add c\n\nBecause.");
        let repo = GitRepo::discover(&test.path()).unwrap();
        let past = repo.past_commits(None, 10).unwrap();
        assert_eq!(past.len(), 2);
        assert_eq!(past[0].title, "Add c");
        assert_eq!(past[0].body, "Because.");
        assert_eq!(past[0].files, ["b/c.txt"]);
        assert_eq!(past[1].files, ["a.txt"]);
        assert!(repo.author().is_some());
        // The history before a commit leaves it and what came after out.
        let before: Vec<String> = repo
            .past_commits(Some("HEAD"), 10)
            .unwrap()
            .into_iter()
            .map(|c| c.title)
            .collect();
        assert_eq!(before, ["First"]);
        assert!(repo.past_commits(Some("HEAD~1"), 10).unwrap().is_empty());
    }
}
