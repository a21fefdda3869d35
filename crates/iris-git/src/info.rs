//! Repository facts: where HEAD is, the remote, the number of commits, the default branch.

use std::path::PathBuf;

use git2::{BranchType, ErrorCode};
use serde::Serialize;

use super::{GitRepo, Result};

/// Where HEAD points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", content = "name", rename_all = "lowercase")]
pub enum HeadState {
    /// On a branch that has commits.
    Branch(String),
    /// On a branch with no commit yet (a new repository).
    Unborn(String),
    /// Detached at a commit (short id).
    Detached(String),
}

impl std::fmt::Display for HeadState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeadState::Branch(name) => write!(f, "{name}"),
            HeadState::Unborn(name) => write!(f, "{name} (no commits yet)"),
            HeadState::Detached(id) => write!(f, "HEAD detached at {id}"),
        }
    }
}

/// What the repository is: where, on which branch, with which remote, how much history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoInfo {
    /// The top of the working tree (see [`GitRepo::root`]).
    pub root: PathBuf,
    /// Where HEAD points.
    pub head: HeadState,
    /// The URL of `origin` (or the first remote), without credentials; `None` with no remote.
    pub remote_url: Option<String>,
    /// Commits reachable from HEAD (0 in a new repository).
    pub commit_count: usize,
    /// The branch work is based on (see [`GitRepo::default_branch`]), when one is found.
    pub default_branch: Option<String>,
}

impl GitRepo {
    /// Where HEAD points: a branch, an unborn branch, or a detached commit.
    pub fn head_state(&self) -> Result<HeadState> {
        match self.repo.head() {
            Ok(head) if self.repo.head_detached()? => {
                let id = head.peel_to_commit()?.id();
                Ok(HeadState::Detached(short_id(&id)))
            }
            Ok(head) => Ok(HeadState::Branch(
                String::from_utf8_lossy(head.shorthand_bytes()).into_owned(),
            )),
            Err(e) if matches!(e.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => {
                let head = self.repo.find_reference("HEAD")?;
                let target = head.symbolic_target()?.unwrap_or("HEAD");
                let name = target.strip_prefix("refs/heads/").unwrap_or(target);
                Ok(HeadState::Unborn(name.to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The repository's facts, gathered in one go.
    pub fn info(&self) -> Result<RepoInfo> {
        Ok(RepoInfo {
            root: self.root(),
            head: self.head_state()?,
            remote_url: self.remote_url(),
            commit_count: self.commit_count()?,
            default_branch: self.default_branch(),
        })
    }

    /// The remote the forge's pull requests live on: `origin`, or the first remote there is.
    pub fn main_remote(&self) -> Option<String> {
        let names = self.remote_names();
        match names.iter().any(|n| n == "origin") {
            true => Some("origin".to_string()),
            false => names.into_iter().next(),
        }
    }

    /// The URL of the [main remote](GitRepo::main_remote).
    pub fn remote_url(&self) -> Option<String> {
        let remote = self.repo.find_remote(&self.main_remote()?).ok()?;
        remote.url().ok().map(without_credentials)
    }

    /// The names of the repository's remotes (`origin`, `upstream`, ...).
    pub fn remote_names(&self) -> Vec<String> {
        self.repo
            .remotes()
            .map(|names| {
                names
                    .iter()
                    .flatten()
                    .flatten()
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Commits reachable from HEAD (0 in a new repository).
    pub fn commit_count(&self) -> Result<usize> {
        if self.head_commit()?.is_none() {
            return Ok(0);
        }
        let mut walk = self.repo.revwalk()?;
        walk.push_head()?;
        Ok(walk.count())
    }

    /// The newest tag reachable from HEAD (`git describe --tags --abbrev=0`), if any.
    pub fn latest_tag(&self) -> Option<String> {
        let mut opts = git2::DescribeOptions::new();
        opts.describe_tags();
        let described = self.repo.describe(&opts).ok()?;
        let mut format = git2::DescribeFormatOptions::new();
        format.abbreviated_size(0);
        described.format(Some(&format)).ok()
    }

    /// The names a revision can be spelt with: local and remote branches and tags.
    pub fn ref_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        if let Ok(refs) = self.repo.references() {
            for reference in refs.flatten() {
                let Ok(name) = reference.name() else {
                    continue;
                };
                let short = ["refs/heads/", "refs/remotes/", "refs/tags/"]
                    .iter()
                    .find_map(|prefix| name.strip_prefix(prefix));
                if let Some(short) = short.filter(|s| !s.ends_with("/HEAD")) {
                    names.push(short.to_string());
                }
            }
        }
        names
    }

    /// The branch or tag `rev` was likeliest meant to be, when it is a typo of one.
    pub fn likely_meant(&self, rev: &str) -> Option<String> {
        let names = self.ref_names();
        iris_studio_core::suggest::closest(rev, names.iter().map(String::as_str))
            .map(str::to_string)
    }

    /// The branch work is based on: the remote's HEAD when known, else `main`, else `master`.
    /// A local branch is named as is; one that exists only on `origin` as `origin/NAME`,
    /// so the answer always resolves as a revision.
    pub fn default_branch(&self) -> Option<String> {
        let remote_head = self
            .repo
            .find_reference("refs/remotes/origin/HEAD")
            .ok()
            .and_then(|head| head.symbolic_target().ok().flatten().map(str::to_string))
            .and_then(|target| {
                target
                    .strip_prefix("refs/remotes/origin/")
                    .map(str::to_string)
            });
        let candidates = remote_head
            .into_iter()
            .chain(["main".to_string(), "master".to_string()]);
        for name in candidates {
            if self.repo.find_branch(&name, BranchType::Local).is_ok() {
                return Some(name);
            }
            let remote = format!("origin/{name}");
            if self.repo.find_branch(&remote, BranchType::Remote).is_ok() {
                return Some(remote);
            }
        }
        None
    }
}

/// `https://user:token@host/x` -> `https://host/x`: a token in an HTTP remote URL never reaches
/// a prompt (an ssh user name is no secret and is kept).
fn without_credentials(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) if scheme.starts_with("http") => {
            let host_start = rest.find('/').unwrap_or(rest.len());
            match rest[..host_start].rfind('@') {
                Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

pub(super) fn short_id(id: &git2::Oid) -> String {
    id.to_string()[..7].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_removed_from_remote_urls() {
        assert_eq!(
            without_credentials("https://bob:s3cret@example.com/r.git"),
            "https://example.com/r.git"
        );
        assert_eq!(
            without_credentials("git@example.com:r.git"),
            "git@example.com:r.git"
        );
        assert_eq!(
            without_credentials("ssh://git@example.com/r.git"),
            "ssh://git@example.com/r.git"
        );
    }
}
