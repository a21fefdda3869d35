//! Reading an issue from the forge (the forge client's read side, beside publishing): its
//! title, body and state through the user's `gh` or `glab`, within a short deadline, and why
//! not in a word or two when it cannot be read.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::commands::issue_view;
use super::run::Runner;
use super::{Forge, PublishError};
use iris_studio_core::linked_issue::LinkedIssue;

/// Longest an issue's read may take: it runs before the request goes out.
const DEADLINE: Duration = Duration::from_secs(5);

/// Issue `number` of the repository at `root` on `forge`, or why not in a few words.
pub fn read_issue(root: &Path, forge: Forge, number: u64) -> Result<LinkedIssue, String> {
    let runner = Runner {
        timeout: DEADLINE,
        ..Runner::in_repo(root)
    };
    read_with(&runner, forge, number)
}

pub(crate) fn read_with(runner: &Runner, forge: Forge, number: u64) -> Result<LinkedIssue, String> {
    if runner.require(forge).is_err() {
        return Err(format!("{} not installed", forge.cli()));
    }
    let out = runner
        .run(forge, &issue_view(forge, number))
        .map_err(|e| in_a_word(forge, &e))?;
    let view: Value = serde_json::from_str(out.trim())
        .map_err(|_| format!("{} answered no JSON", forge.cli()))?;
    let state = view["state"]
        .as_str()
        .unwrap_or_default()
        .to_ascii_lowercase();
    Ok(LinkedIssue {
        number,
        title: view["title"].as_str().unwrap_or_default().to_string(),
        // GitHub's `body`, GitLab's `description`.
        body: view["body"]
            .as_str()
            .or_else(|| view["description"].as_str())
            .unwrap_or_default()
            .to_string(),
        state: if state == "opened" {
            "open".into()
        } else {
            state
        },
    })
}

/// What a failed read says, in a word or two: the tool's own message is for publishing, a
/// progress line has room for less.
fn in_a_word(forge: Forge, error: &PublishError) -> String {
    let said = error.0.to_ascii_lowercase();
    let word = if said.contains("auth login") || said.contains("not logged") || said.contains("401")
    {
        "not logged in"
    } else if said.contains("timed out") || said.contains("no answer") || said.contains("deadline")
    {
        "no answer in time"
    } else if said.contains("could not resolve host")
        || said.contains("network")
        || said.contains("connection")
        || said.contains("dial tcp")
    {
        "offline"
    } else if said.contains("not found")
        || said.contains("could not resolve to")
        || said.contains("404")
    {
        "no such issue"
    } else {
        return format!("{} failed", forge.cli());
    };
    word.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publish::tests::{runner_for, write_script};

    fn tool(name: &str, body: &str) -> (tempfile::TempDir, Runner) {
        let dir = tempfile::tempdir().expect("dir");
        write_script(&dir, name, &format!("#!/bin/sh\n{body}\n"));
        let runner = runner_for(dir.path());
        (dir, runner)
    }

    #[test]
    fn an_issue_is_read_from_gh_and_glab() {
        let (_dir, runner) = tool(
            "gh",
            r#"[ "$*" = "issue view 45 --json=number,title,body,state" ] && echo '{"number":45,"title":"Crash","body":"It crashes.","state":"OPEN"}'"#,
        );
        let issue = read_with(&runner, Forge::GitHub, 45).expect("read");
        assert_eq!(
            (
                issue.title.as_str(),
                issue.body.as_str(),
                issue.state.as_str()
            ),
            ("Crash", "It crashes.", "open")
        );
        let (_dir, runner) = tool(
            "glab",
            r#"[ "$*" = "issue view 45 --output=json" ] && echo '{"iid":45,"title":"Crash","description":"It crashes.","state":"opened"}'"#,
        );
        let issue = read_with(&runner, Forge::GitLab, 45).expect("read");
        assert_eq!(
            (issue.body.as_str(), issue.state.as_str()),
            ("It crashes.", "open")
        );
    }

    #[test]
    fn why_not_is_said_in_a_word() {
        let (_dir, runner) = tool(
            "gh",
            "echo 'To get started with GitHub CLI, please run:  gh auth login' >&2; exit 4",
        );
        assert_eq!(
            read_with(&runner, Forge::GitHub, 1).expect_err("no login"),
            "not logged in"
        );
        let (_dir, runner) = tool(
            "gh",
            "echo 'error connecting to api.github.com: dial tcp: lookup api.github.com' >&2; exit 1",
        );
        assert_eq!(
            read_with(&runner, Forge::GitHub, 1).expect_err("offline"),
            "offline"
        );
        let (_dir, runner) = tool("glab", "exit 0");
        assert_eq!(
            read_with(&runner, Forge::GitHub, 1).expect_err("no gh"),
            "gh not installed"
        );
    }
}
