//! `git blame` of a line range of a committed file.

use git2::BlameOptions;
use serde::Serialize;

use super::info::short_id;
use super::{GitError, GitRepo, Result, check_relative_path, lossy};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlameLine {
    /// 1-based line number in the file at HEAD.
    pub line: usize,
    pub commit: String,
    pub short_id: String,
    pub author: String,
    pub time: i64,
    pub content: String,
}

impl GitRepo {
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
                let sig = hunk.final_signature();
                Ok(BlameLine {
                    line,
                    commit: hunk.final_commit_id().to_string(),
                    short_id: short_id(&hunk.final_commit_id()),
                    author: sig
                        .as_ref()
                        .map(|s| lossy(s.name_bytes()))
                        .unwrap_or_default(),
                    time: sig.as_ref().map(|s| s.when().seconds()).unwrap_or_default(),
                    content: lossy(lines[line - 1]),
                })
            })
            .collect()
    }
}

impl GitRepo {
    /// When each line of `content` (the working copy of `path`) was last committed, as the
    /// author's time in seconds: one blame of the file at HEAD, carried over to the working
    /// copy. `None` for lines not committed yet; every line is `None` when the file has no
    /// history at HEAD.
    pub fn line_times(&self, path: &str, content: &[u8]) -> Result<Vec<Option<i64>>> {
        let clean = check_relative_path(path)?;
        let lines = split_lines(content).len();
        let Some(head) = self.head_commit()? else {
            return Ok(vec![None; lines]);
        };
        if head.tree()?.get_path(&clean).is_err() {
            return Ok(vec![None; lines]);
        }
        let mut opts = BlameOptions::new();
        opts.newest_commit(head.id());
        let blame = self.repo.blame_file(&clean, Some(&mut opts))?;
        let blame = blame.blame_buffer(content)?;
        Ok((1..=lines)
            .map(|line| {
                let hunk = blame.get_line(line)?;
                if hunk.final_commit_id().is_zero() {
                    return None;
                }
                hunk.final_signature().map(|sig| sig.when().seconds())
            })
            .collect())
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
