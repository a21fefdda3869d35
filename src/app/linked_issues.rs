//! The issues a change is for, read through the forge client for Iris' requests, and kept a
//! day in `.git/iris/linked-issues.json` so every run does not ask the forge again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::stores::IrisDir;
use crate::publish::{Forge, forge_of, read_issue};
use iris_studio_agent::issues::IssueReader;
use iris_studio_core::linked_issue::LinkedIssue;

/// How long a read issue is kept, in seconds.
const KEPT_FOR: i64 = 24 * 60 * 60;
/// How many issues the cache keeps at most (the newest reads).
const MAX_KEPT: usize = 200;

/// Reads the issues of the repository at `root` on its forge, through the cache.
pub struct ForgeIssues {
    root: PathBuf,
    forge: Forge,
    cache: PathBuf,
}

/// An issue as kept, with when it was read.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Kept {
    read_at: i64,
    issue: LinkedIssue,
}

impl ForgeIssues {
    /// The reader for the repository at `root` when `enabled` and its remote is on GitHub or
    /// GitLab; none otherwise.
    pub fn of(enabled: bool, root: &Path, stores: &IrisDir) -> Option<Arc<dyn IssueReader>> {
        if !enabled {
            return None;
        }
        let url = iris_studio_git::GitRepo::discover(root)
            .ok()?
            .remote_url()?;
        Some(Arc::new(Self {
            root: root.to_path_buf(),
            forge: forge_of(&url)?,
            cache: stores.linked_issues(),
        }))
    }

    fn kept(&self) -> BTreeMap<u64, Kept> {
        std::fs::read_to_string(&self.cache)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    fn keep(&self, issue: &LinkedIssue, now: i64) {
        let mut kept = self.kept();
        kept.retain(|_, k| now - k.read_at < KEPT_FOR);
        kept.insert(
            issue.number,
            Kept {
                read_at: now,
                issue: issue.clone(),
            },
        );
        while kept.len() > MAX_KEPT {
            let oldest = kept.iter().min_by_key(|(_, k)| k.read_at).map(|(n, _)| *n);
            oldest.map(|n| kept.remove(&n));
        }
        let written = self
            .cache
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(anyhow::Error::from)
            .and_then(|()| Ok(serde_json::to_string(&kept)?))
            .and_then(|text| Ok(std::fs::write(&self.cache, text)?));
        if let Err(err) = written {
            tracing::debug!("the linked issue was not kept: {err:#}");
        }
    }
}

impl IssueReader for ForgeIssues {
    fn read(&self, number: u64) -> Result<LinkedIssue, String> {
        let now = super::stores::now();
        if let Some(kept) = self.kept().remove(&number)
            && now - kept.read_at < KEPT_FOR
        {
            return Ok(kept.issue);
        }
        let issue = read_issue(&self.root, self.forge, number)?;
        self.keep(&issue, now);
        Ok(issue)
    }
}
