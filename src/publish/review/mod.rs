//! Posting a review with its findings on their lines: a GitHub pull request review pinned to
//! the head commit, or GitLab merge request discussions with a position. Posting again
//! replaces what Iris posted before (found by its markers) instead of piling up; a re-review
//! of the new commits keeps the findings on lines from before and adds only its own.

use serde_json::{Value, json};

use super::commands::{api_list, api_send, listed, request_diff, view_pinned};
use super::inline::{
    FINDING_MARKER, InlineComment, REPLACED, SUMMARY_MARKER, lay_out, without_finding_marker,
};
use super::run::Runner;
use super::{Forge, PublishError, Published, published};
use iris_studio_core::change::parse_unified_diff;
use state::Recorded;

/// The PR/MR the comments are pinned to.
pub(super) struct Pinned {
    /// GitHub's number or GitLab's iid.
    number: u64,
    url: Option<String>,
    head: String,
    /// GitLab's diff refs (base and start commits).
    base: String,
    start: String,
}

/// What a post records for the next one, and whether the findings on lines from before stay
/// (a re-review of the new commits) or go (a whole review replaces them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Posting {
    /// The head reviewed and the findings on the pull request after this post.
    pub recorded: Recorded,
    /// The findings on lines from before stay (only the new ones are posted).
    pub keep_earlier: bool,
}

pub(crate) fn post_inline(
    runner: &Runner,
    forge: Forge,
    markdown: &str,
    posting: &Posting,
) -> Result<Published, PublishError> {
    if markdown.trim().is_empty() {
        return Err(PublishError("the review is empty: nothing to post".into()));
    }
    let pinned = pinned(runner, forge)?;
    let diff = runner.run(forge, &request_diff(forge))?;
    let mut laid = lay_out(markdown.trim(), &parse_unified_diff(&diff));
    let at = laid.body.rfind(SUMMARY_MARKER).unwrap_or(laid.body.len());
    laid.body
        .insert_str(at, &format!("{}\n", posting.recorded.marker()));
    let placed = laid.comments.len();
    let keep = posting.keep_earlier;
    let (url, unreplaced) = match forge {
        Forge::GitHub => post_github(runner, &pinned, &laid.body, &laid.comments, keep)?,
        Forge::GitLab => post_gitlab(runner, &pinned, laid.body, &laid.comments, keep)?,
    };
    let on_lines = match placed {
        1 => " with 1 finding on its line".to_string(),
        n => format!(" with {n} findings on their lines"),
    };
    let mut done = published(
        format!(
            "posted the review on the {}{on_lines}",
            forge.request_noun()
        ),
        url.or(pinned.url),
    );
    if let Some(why) = unreplaced {
        done.summary
            .push_str(&format!(" (the earlier review was not replaced: {why})"));
    }
    Ok(done)
}

pub(super) fn pinned(runner: &Runner, forge: Forge) -> Result<Pinned, PublishError> {
    let out = runner.run(forge, &view_pinned(forge))?;
    let view: Value = serde_json::from_str(out.trim()).map_err(|_| {
        PublishError(format!(
            "{} did not describe the {}: {}",
            forge.cli(),
            forge.request_noun(),
            out.trim()
        ))
    })?;
    let text = |value: &Value| value.as_str().unwrap_or_default().to_string();
    let pinned = match forge {
        Forge::GitHub => Pinned {
            number: view["number"].as_u64().unwrap_or_default(),
            url: view["url"].as_str().map(str::to_string),
            head: text(&view["headRefOid"]),
            base: String::new(),
            start: String::new(),
        },
        Forge::GitLab => Pinned {
            number: view["iid"].as_u64().unwrap_or_default(),
            url: view["web_url"].as_str().map(str::to_string),
            head: text(&view["diff_refs"]["head_sha"]),
            base: text(&view["diff_refs"]["base_sha"]),
            start: text(&view["diff_refs"]["start_sha"]),
        },
    };
    if pinned.number == 0 || pinned.head.is_empty() {
        return Err(PublishError(format!(
            "{} named no {} with a head commit to comment on",
            forge.cli(),
            forge.request_noun()
        )));
    }
    Ok(pinned)
}

/// The ids of the items of a list whose body holds `marker`.
fn marked(items: &[Value], marker: &str) -> Vec<u64> {
    items
        .iter()
        .filter(|item| item["body"].as_str().is_some_and(|b| b.contains(marker)))
        .filter_map(|item| item["id"].as_u64())
        .collect()
}

/// One review with its comments; then the earlier review's text replaced and its comments
/// deleted. Returns the review's URL, and why the earlier one was not replaced, if it was not.
fn post_github(
    runner: &Runner,
    pinned: &Pinned,
    body: &str,
    comments: &[InlineComment],
    keep_earlier: bool,
) -> Result<(Option<String>, Option<String>), PublishError> {
    let forge = Forge::GitHub;
    let pull = format!("repos/{{owner}}/{{repo}}/pulls/{}", pinned.number);
    let reviews = runner.run(
        forge,
        &api_list(forge, &format!("{pull}/reviews?per_page=100")),
    )?;
    let earlier = runner.run(
        forge,
        &api_list(forge, &format!("{pull}/comments?per_page=100")),
    )?;
    let (old_reviews, mut old_comments) = (
        marked(&listed(&reviews), SUMMARY_MARKER),
        marked(&listed(&earlier), FINDING_MARKER),
    );
    if keep_earlier {
        old_comments.clear();
    }
    let comments: Vec<Value> = comments
        .iter()
        .map(|c| {
            let mut comment =
                json!({"path": c.path, "line": c.line, "side": "RIGHT", "body": c.body});
            if let Some(start) = c.start_line {
                comment["start_line"] = json!(start);
                comment["start_side"] = json!("RIGHT");
            }
            comment
        })
        .collect();
    let review =
        json!({"commit_id": pinned.head, "body": body, "event": "COMMENT", "comments": comments});
    let out = runner.run(
        forge,
        &api_send(forge, "POST", &format!("{pull}/reviews"), Some(&review)),
    )?;
    let url = serde_json::from_str::<Value>(&out)
        .ok()
        .and_then(|v| v["html_url"].as_str().map(str::to_string));
    let replaced = json!({"body": REPLACED});
    let cleanup = old_reviews
        .iter()
        .map(|id| {
            api_send(
                forge,
                "PUT",
                &format!("{pull}/reviews/{id}"),
                Some(&replaced),
            )
        })
        .chain(old_comments.iter().map(|id| {
            api_send(
                forge,
                "DELETE",
                &format!("repos/{{owner}}/{{repo}}/pulls/comments/{id}"),
                None,
            )
        }));
    Ok((url, first_failure(runner, forge, cleanup)))
}

/// One discussion a finding, positioned on its line; then the summary note (Iris' earlier
/// one edited in place) and the earlier findings deleted. A finding GitLab refuses to place
/// goes into the summary.
fn post_gitlab(
    runner: &Runner,
    pinned: &Pinned,
    mut body: String,
    comments: &[InlineComment],
    keep_earlier: bool,
) -> Result<(Option<String>, Option<String>), PublishError> {
    let forge = Forge::GitLab;
    let request = format!("projects/:id/merge_requests/{}", pinned.number);
    let notes = listed(&runner.run(
        forge,
        &api_list(forge, &format!("{request}/notes?per_page=100")),
    )?);
    let (old_summary, mut old_findings) = (
        marked(&notes, SUMMARY_MARKER).first().copied(),
        marked(&notes, FINDING_MARKER),
    );
    if keep_earlier {
        old_findings.clear();
    }
    let mut refused = Vec::new();
    for comment in comments {
        let mut position = json!({
            "position_type": "text",
            "base_sha": pinned.base,
            "start_sha": pinned.start,
            "head_sha": pinned.head,
            "new_path": comment.path,
            "old_path": comment.old_path,
            "new_line": comment.line,
        });
        if let Some(old) = comment.old_line {
            position["old_line"] = json!(old);
        }
        let discussion = json!({"body": comment.body, "position": position});
        let sent = api_send(
            forge,
            "POST",
            &format!("{request}/discussions"),
            Some(&discussion),
        );
        if runner.run(forge, &sent).is_err() {
            refused.push(without_finding_marker(&comment.body).to_string());
        }
    }
    if !refused.is_empty() {
        let section = format!(
            "\n\n## Not placed on a line\n\n{}\n\n",
            refused.join("\n\n")
        );
        let at = body.rfind(SUMMARY_MARKER).unwrap_or(body.len());
        body.insert_str(at, section.trim_start_matches('\n'));
    }
    let note = json!({"body": body});
    let out = match old_summary {
        Some(id) => api_send(forge, "PUT", &format!("{request}/notes/{id}"), Some(&note)),
        None => api_send(forge, "POST", &format!("{request}/notes"), Some(&note)),
    };
    runner.run(forge, &out)?;
    let cleanup = old_findings
        .iter()
        .map(|id| api_send(forge, "DELETE", &format!("{request}/notes/{id}"), None));
    Ok((None, first_failure(runner, forge, cleanup)))
}

/// Runs every call, and says what the first that failed said.
fn first_failure(
    runner: &Runner,
    forge: Forge,
    calls: impl Iterator<Item = super::commands::Invocation>,
) -> Option<String> {
    let failures: Vec<String> = calls
        .filter_map(|call| runner.run(forge, &call).err().map(|e| e.0))
        .collect();
    failures.into_iter().next()
}

pub mod earlier;
pub mod state;

#[cfg(test)]
mod tests;
