//! What Iris posted on the pull request before (the effect of reading it): the record its
//! last review left, the findings on lines, and the threads the team resolved or answered
//! with a dismissal, which count as dismissed.

use std::collections::BTreeSet;

use serde_json::Value;

use super::super::commands::{api_list, graphql, listed};
use super::super::inline::{FINDING_MARKER, SUMMARY_MARKER};
use super::super::run::Runner;
use super::super::{Forge, PublishError};
use super::state::{Recorded, finding_id_in, finding_title_in};
use super::{Pinned, pinned};
use iris_studio_core::artifact::review::memory::{Dismissal, Seen};

/// What is on the pull request from Iris' earlier reviews.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OnThePr {
    /// What the last review recorded, when one did.
    pub recorded: Option<Recorded>,
    /// The ids of the findings on lines (each once).
    pub posted: BTreeSet<String>,
    /// The findings whose thread was resolved, or answered "dismiss: why".
    pub dismissed: Vec<Dismissal>,
    /// Why the threads could not be read, when they could not (the rest still holds).
    pub threads_unread: Option<String>,
}

/// Reads what Iris posted on the current branch's PR/MR.
pub(crate) fn read(runner: &Runner, forge: Forge) -> Result<OnThePr, PublishError> {
    let pinned = pinned(runner, forge)?;
    let (summaries, findings) = match forge {
        Forge::GitHub => {
            let pull = format!("repos/{{owner}}/{{repo}}/pulls/{}", pinned.number);
            let reviews = runner.run(
                forge,
                &api_list(forge, &format!("{pull}/reviews?per_page=100")),
            )?;
            let comments = runner.run(
                forge,
                &api_list(forge, &format!("{pull}/comments?per_page=100")),
            )?;
            (listed(&reviews), listed(&comments))
        }
        Forge::GitLab => {
            let notes = listed(&runner.run(
                forge,
                &api_list(
                    forge,
                    &format!(
                        "projects/:id/merge_requests/{}/notes?per_page=100",
                        pinned.number
                    ),
                ),
            )?);
            (notes.clone(), notes)
        }
    };
    let recorded = summaries
        .iter()
        .filter_map(|item| item["body"].as_str())
        .filter(|body| body.contains(SUMMARY_MARKER))
        .filter_map(Recorded::in_body)
        .next_back();
    let posted = findings
        .iter()
        .filter_map(|item| item["body"].as_str())
        .filter(|body| body.contains(FINDING_MARKER))
        .filter_map(finding_id_in)
        .collect();
    let (dismissed, threads_unread) = match threads(runner, forge, &pinned) {
        Ok(threads) => (dismissed_in(&threads, recorded.as_ref()), None),
        Err(e) => (Vec::new(), Some(e.0)),
    };
    Ok(OnThePr {
        recorded,
        posted,
        dismissed,
        threads_unread,
    })
}

/// A thread of comments on a line: its file, whether it is resolved, its comments' bodies.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Thread {
    path: String,
    resolved: bool,
    bodies: Vec<String>,
}

/// The review threads of the PR/MR: GitHub's GraphQL API (the REST one has no resolved
/// state), GitLab's discussions.
fn threads(runner: &Runner, forge: Forge, pinned: &Pinned) -> Result<Vec<Thread>, PublishError> {
    let bodies = |comments: &Value| -> Vec<String> {
        comments
            .as_array()
            .map(|c| {
                c.iter()
                    .filter_map(|n| n["body"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    match forge {
        Forge::GitHub => {
            let query = "query($owner:String!,$name:String!,$number:Int!){repository(owner:\
                         $owner,name:$name){pullRequest(number:$number){reviewThreads(first:100)\
                         {nodes{isResolved path comments(first:20){nodes{body}}}}}}}";
            let out = runner.run(forge, &graphql(query, pinned.number))?;
            let answer: Value = serde_json::from_str(out.trim())
                .map_err(|_| PublishError(format!("gh answered no JSON for the threads: {out}")))?;
            let nodes = &answer["data"]["repository"]["pullRequest"]["reviewThreads"]["nodes"];
            Ok(nodes
                .as_array()
                .into_iter()
                .flatten()
                .map(|node| Thread {
                    path: node["path"].as_str().unwrap_or_default().to_string(),
                    resolved: node["isResolved"].as_bool().unwrap_or(false),
                    bodies: bodies(&node["comments"]["nodes"]),
                })
                .collect())
        }
        Forge::GitLab => {
            let out = runner.run(
                forge,
                &api_list(
                    forge,
                    &format!(
                        "projects/:id/merge_requests/{}/discussions?per_page=100",
                        pinned.number
                    ),
                ),
            )?;
            Ok(listed(&out)
                .iter()
                .map(|discussion| {
                    let notes = &discussion["notes"];
                    let first = &notes[0];
                    Thread {
                        path: first["position"]["new_path"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string(),
                        resolved: first["resolved"].as_bool().unwrap_or(false),
                        bodies: bodies(notes),
                    }
                })
                .collect())
        }
    }
}

/// The findings of Iris' threads the team resolved, or answered with a reply that starts
/// "dismiss" (its words after that are the reason). The record names the finding's quote.
fn dismissed_in(threads: &[Thread], recorded: Option<&Recorded>) -> Vec<Dismissal> {
    threads
        .iter()
        .filter_map(|thread| {
            let first = thread.bodies.first()?;
            let id = finding_id_in(first)?;
            let reason = thread.bodies[1..]
                .iter()
                .find_map(|reply| dismissal_reason(reply));
            if !thread.resolved && reason.is_none() {
                return None;
            }
            let known = recorded.and_then(|r| r.findings.iter().find(|f| f.id == id));
            let seen = known.cloned().unwrap_or_else(|| Seen {
                id,
                file: thread.path.clone(),
                title: finding_title_in(first).unwrap_or_default(),
                ..Seen::default()
            });
            let reason = reason.unwrap_or_else(|| "resolved on the pull request".into());
            Some(Dismissal::of(seen, &reason, ""))
        })
        .collect()
}

/// The reason of a reply that dismisses a finding: "dismiss", "/dismiss" or "dismissed",
/// then the words after it (a colon or dash dropped).
fn dismissal_reason(reply: &str) -> Option<String> {
    let text = reply.trim().trim_start_matches('/');
    let lower = text.to_ascii_lowercase();
    let rest = ["dismissed", "dismiss"]
        .iter()
        .find_map(|word| lower.starts_with(word).then(|| &text[word.len()..]))?;
    if rest.starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    let reason = rest.trim_start_matches([':', '-', ' ', '.', ',']).trim();
    Some(if reason.is_empty() {
        "dismissed on the pull request".to_string()
    } else {
        reason.to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(resolved: bool, bodies: &[&str]) -> Thread {
        Thread {
            path: "src/lib.rs".into(),
            resolved,
            bodies: bodies.iter().map(|b| b.to_string()).collect(),
        }
    }

    const IRIS: &str =
        "**High** · Overflow · 90%\n\nIt wraps.\n\n<!-- iris-review-finding 1a2b3c4d5e -->";

    #[test]
    fn resolved_or_dismissed_threads_of_iris_count_as_dismissed() {
        let recorded = Recorded {
            head: None,
            findings: vec![Seen {
                id: "1a2b3c4d5e".into(),
                file: "src/lib.rs".into(),
                quote: Some("a + b".into()),
                title: "Overflow".into(),
                ..Seen::default()
            }],
        };
        let found = dismissed_in(
            &[
                thread(true, &[IRIS]),
                thread(false, &[IRIS, "Dismiss: the inputs are small"]),
                thread(false, &[IRIS, "Good catch, fixing"]),
                thread(true, &["A person's own comment"]),
            ],
            Some(&recorded),
        );
        let seen: Vec<(&str, Option<&str>, &str)> = found
            .iter()
            .map(|d| (d.title.as_str(), d.quote.as_deref(), d.reason.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                ("Overflow", Some("a + b"), "resolved on the pull request"),
                ("Overflow", Some("a + b"), "the inputs are small"),
            ]
        );
        // Without the record, the thread still names the file and the title.
        let bare = dismissed_in(&[thread(true, &[IRIS])], None);
        assert_eq!(
            (bare[0].file.as_str(), bare[0].title.as_str()),
            ("src/lib.rs", "Overflow")
        );
    }

    #[test]
    fn a_dismissal_reply_is_told_from_other_words() {
        assert_eq!(
            dismissal_reason("/dismiss intended").as_deref(),
            Some("intended")
        );
        assert_eq!(
            dismissal_reason("Dismissed").as_deref(),
            Some("dismissed on the pull request")
        );
        assert_eq!(dismissal_reason("dismissive tone"), None);
        assert_eq!(dismissal_reason("I would not dismiss this"), None);
    }
}
