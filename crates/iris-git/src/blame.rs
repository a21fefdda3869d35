//! `git blame` of a line range: of a committed file, or of its working copy.

use git2::BlameOptions;
use serde::Serialize;

use super::info::short_id;
use super::{GitError, GitRepo, Result, check_relative_path, lossy};

/// One line of a blame: the commit that last changed it, and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlameLine {
    /// 1-based line number in the file blamed (at HEAD, or the working copy).
    pub line: usize,
    /// The full id of the commit that last changed the line; empty when it is not committed.
    pub commit: String,
    /// That commit's id shortened to 7 characters; empty when the line is not committed.
    pub short_id: String,
    /// The name of that commit's author.
    pub author: String,
    /// The author's time, in seconds since the epoch (0 when the line is not committed).
    pub time: i64,
    /// The line's text, without its line ending.
    pub content: String,
}

impl GitRepo {
    /// Whether `path` (relative to the root) names a file committed at HEAD, what
    /// [`GitRepo::blame`] reads; `false` for a path that is not clean or a repository
    /// without commits.
    pub fn committed_at_head(&self, path: &str) -> bool {
        let Ok(clean) = check_relative_path(path) else {
            return false;
        };
        let Ok(Some(head)) = self.head_commit() else {
            return false;
        };
        head.tree().is_ok_and(|tree| {
            tree.get_path(&clean)
                .is_ok_and(|e| e.kind() == Some(git2::ObjectType::Blob))
        })
    }

    /// Blames lines `start..=end` (1-based, `end` clamped to the file) of `path` as committed
    /// at HEAD. Uncommitted edits are not part of the answer.
    pub fn blame(&self, path: &str, start: usize, end: Option<usize>) -> Result<Vec<BlameLine>> {
        let clean = check_relative_path(path)?;
        let head = self
            .head_commit()?
            .ok_or_else(|| GitError::Unsupported("the repository has no commits yet".into()))?;
        let entry = head.tree()?.get_path(&clean).map_err(|_| {
            GitError::Unsupported(format!("'{path}' is not a file committed at HEAD"))
        })?;
        self.fill_history_holes(&clean, head.id(), None)?;
        let blob = self
            .repo
            .find_blob(entry.id())
            .map_err(|_| GitError::Unsupported(format!("'{path}' is not a file")))?;
        if blob.is_binary() {
            return Err(GitError::Unsupported(format!("'{path}' is a binary file")));
        }
        let lines: Vec<&[u8]> = split_lines(blob.content());
        let start = start.max(1);
        let end = end.unwrap_or(lines.len()).min(lines.len());
        if start > end {
            return Err(GitError::Unsupported(format!(
                "'{path}' has {} lines; line {start} is past the end",
                lines.len()
            )));
        }
        let mut opts = BlameOptions::new();
        opts.newest_commit(head.id()).min_line(start).max_line(end);
        let blame = self.repo.blame_file(&clean, Some(&mut opts))?;
        (start..=end)
            .map(|line| {
                let hunk = blame.get_line(line).ok_or_else(|| {
                    GitError::Unsupported(format!("git could not blame line {line} of '{path}'"))
                })?;
                Ok(BlameLine::of(&hunk, line, lines[line - 1]))
            })
            .collect()
    }
}

/// Where a line came from: the commit that wrote it, and the file and line it had there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineOrigin {
    /// The commit that wrote the line.
    pub commit: String,
    /// The file's path in that commit.
    pub path: String,
    /// The line's number in that commit's version of the file, 1-based.
    pub line: u32,
}

impl GitRepo {
    /// Where each of `lines` (1-based) of `path` at commit `rev` came from; a line past the
    /// end is left out.
    pub fn line_origins(&self, rev: &str, path: &str, lines: &[u32]) -> Result<Vec<LineOrigin>> {
        let clean = check_relative_path(path)?;
        let commit = self.repo.revparse_single(rev)?.peel_to_commit()?;
        self.fill_history_holes(&clean, commit.id(), None)?;
        let mut opts = BlameOptions::new();
        opts.newest_commit(commit.id());
        let blame = self.repo.blame_file(&clean, Some(&mut opts))?;
        Ok(lines
            .iter()
            .filter_map(|&line| {
                let hunk = blame.get_line(line as usize)?;
                let offset = line as usize - hunk.final_start_line();
                Some(LineOrigin {
                    commit: hunk.final_commit_id().to_string(),
                    path: hunk
                        .path()
                        .map(|p| p.to_string_lossy().replace('\\', "/"))
                        .unwrap_or_else(|| path.to_string()),
                    line: (hunk.orig_start_line() + offset) as u32,
                })
            })
            .collect())
    }

    /// Blames lines `start..=end` (1-based, `end` clamped) of `content`, the working copy of
    /// `path`: one blame of the file at HEAD, carried over to the working copy, so the line
    /// numbers are the ones the user sees. Lines not committed yet have an empty `commit`
    /// (see [`BlameLine::is_uncommitted`]); every line has one when the file has no history.
    pub fn blame_working_copy(
        &self,
        path: &str,
        content: &[u8],
        start: usize,
        end: Option<usize>,
    ) -> Result<Vec<BlameLine>> {
        let clean = check_relative_path(path)?;
        let lines = split_lines(content);
        let start = start.max(1);
        let end = end.unwrap_or(lines.len()).min(lines.len());
        let uncommitted = |line: usize| BlameLine {
            line,
            commit: String::new(),
            short_id: String::new(),
            author: String::new(),
            time: 0,
            content: lossy(lines[line - 1]),
        };
        let head = self.head_commit()?;
        let Some(head) = head.filter(|h| h.tree().is_ok_and(|t| t.get_path(&clean).is_ok())) else {
            return Ok((start..=end).map(uncommitted).collect());
        };
        self.fill_history_holes(&clean, head.id(), None)?;
        let mut opts = BlameOptions::new();
        opts.newest_commit(head.id());
        let blame = self.repo.blame_file(&clean, Some(&mut opts))?;
        let blame = blame.blame_buffer(content)?;
        Ok((start..=end)
            .map(|line| {
                let Some(hunk) = blame
                    .get_line(line)
                    .filter(|h| !h.final_commit_id().is_zero())
                else {
                    return uncommitted(line);
                };
                BlameLine::of(&hunk, line, lines[line - 1])
            })
            .collect())
    }

    /// When each line of `content` (the working copy of `path`) was last committed, as the
    /// author's time in seconds; `None` for lines not committed yet.
    pub fn line_times(&self, path: &str, content: &[u8]) -> Result<Vec<Option<i64>>> {
        let blame = self.blame_working_copy(path, content, 1, None)?;
        Ok(blame
            .iter()
            .map(|line| (!line.is_uncommitted()).then_some(line.time))
            .collect())
    }
}

impl BlameLine {
    /// Line `line` (`content`) as the blame hunk holding it tells.
    fn of(hunk: &git2::BlameHunk<'_>, line: usize, content: &[u8]) -> BlameLine {
        let sig = hunk.final_signature();
        BlameLine {
            line,
            commit: hunk.final_commit_id().to_string(),
            short_id: short_id(&hunk.final_commit_id()),
            author: sig
                .as_ref()
                .map(|s| lossy(s.name_bytes()))
                .unwrap_or_default(),
            time: sig.as_ref().map(|s| s.when().seconds()).unwrap_or_default(),
            content: lossy(content),
        }
    }

    /// A line of the working copy that no commit has yet.
    pub fn is_uncommitted(&self) -> bool {
        self.commit.is_empty()
    }
}

/// Lines without their terminators (a final newline does not start another line).
fn split_lines(content: &[u8]) -> Vec<&[u8]> {
    let content = content.strip_suffix(b"\n").unwrap_or(content);
    if content.is_empty() {
        return Vec::new();
    }
    content
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .collect()
}
