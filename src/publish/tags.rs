//! The tags of a pinned Action's repository, listed with the user's `gh` within a short
//! deadline: what names the commit a workflow pins by its release, for the Packages section of
//! a request. Without `gh`, offline or past the deadline, the section says only that the pin
//! moved.

use std::path::Path;
use std::time::Duration;

use iris_studio_agent::evidence::packages::PinTags;

use super::Forge;
use super::commands;
use super::run::Runner;

/// Longest one listing of tags may take.
const TAGS_TIMEOUT: Duration = Duration::from_secs(4);

/// Lists tags with `gh api graphql`, run as every forge tool is.
pub struct GhTags {
    runner: Runner,
}

impl GhTags {
    /// `gh` run in `dir`, with this process' PATH and a short deadline.
    pub fn in_repo(dir: &Path) -> Self {
        Self {
            runner: Runner {
                timeout: TAGS_TIMEOUT,
                ..Runner::in_repo(dir)
            },
        }
    }
}

impl PinTags for GhTags {
    fn tags(&self, repo: &str, prefix: Option<&str>) -> Result<Vec<(String, String)>, String> {
        let query = commands::tags(repo, prefix)
            .ok_or_else(|| format!("{repo} is no GitHub repository"))?;
        let answer = self.runner.run(Forge::GitHub, &query).map_err(|e| e.0)?;
        commands::tags_listed(&answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publish::tests::{runner_for, write_script};

    #[test]
    fn a_fake_gh_answers_and_a_missing_one_is_an_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        write_script(
            &dir,
            "gh",
            "#!/bin/sh\necho '{\"data\":{\"repository\":{\"refs\":{\"nodes\":[{\"name\":\"v4.2.0\",\"target\":{\"oid\":\"abc\"}}]}}}}'\n",
        );
        let tags = GhTags {
            runner: runner_for(dir.path()),
        };
        assert_eq!(
            tags.tags("actions/cache", Some("v4")),
            Ok(vec![("v4.2.0".to_string(), "abc".to_string())])
        );
        let none = GhTags {
            runner: Runner {
                path: "/nonexistent".into(),
                ..runner_for(dir.path())
            },
        };
        let err = none.tags("actions/cache", None).expect_err("no gh");
        assert!(
            err.contains("`gh` (the GitHub CLI) is not installed"),
            "{err}"
        );
    }
}
