//! `iris review --post` on a pull request Iris reviewed before: what the last review
//! recorded decides what is reviewed (the commits since its head, or the whole range after a
//! force-push or with `--full`), which findings are new, which earlier ones the new commits
//! resolved, and what this post records for the next.

use anyhow::Result;

use crate::publish::{OnThePr, Posting, Recorded};
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::Review;
use iris_studio_core::artifact::review::memory::{Seen, resolved};
use iris_studio_git::GitRepo;

/// What this run reviews, given what is on the pull request.
#[derive(Debug)]
pub(super) enum Plan {
    /// The scope as asked; its post replaces Iris' earlier review. Says why, when there was
    /// an earlier one to build on.
    Whole(Option<String>),
    /// The commits after `since` up to `to`, beside the earlier review.
    Since { since: String, to: String },
    /// The last review covered `to` already.
    Nothing { to: String },
}

/// What to review: the commits since the recorded head when it is in the history of the
/// range's end (a range ending where the pull request's head is), else the whole scope.
pub(super) fn plan(repo: &GitRepo, scope: &Scope, on_pr: &OnThePr, full: bool) -> Result<Plan> {
    let Some(head) = on_pr.recorded.as_ref().and_then(|r| r.head.clone()) else {
        return Ok(Plan::Whole(None));
    };
    let Scope::Range { to, .. } = scope else {
        return Ok(Plan::Whole(None));
    };
    if full {
        return Ok(Plan::Whole(Some(
            "--full: reviewing the whole pull request".into(),
        )));
    }
    let to = repo.commit_id(to)?;
    let short = short_of(&head);
    if head == to {
        return Ok(Plan::Nothing { to });
    }
    if !repo.is_ancestor(&head, &to).unwrap_or(false) {
        return Ok(Plan::Whole(Some(format!(
            "Iris' last review covered {short}, which is not in the history of {} (a \
             force-push, or this clone is behind the pull request): reviewing the whole range",
            short_of(&to)
        ))));
    }
    Ok(Plan::Since { since: head, to })
}

/// A commit id as the messages name it: its first 7 digits.
pub(super) fn short_of(id: &str) -> &str {
    &id[..id.len().min(7)]
}

/// The findings on the pull request that still count: recorded by the last review, less
/// the ones its threads dismissed.
pub(super) fn earlier_open(on_pr: &OnThePr) -> Vec<Seen> {
    on_pr
        .recorded
        .iter()
        .flat_map(|r| r.findings.iter())
        .filter(|f| !on_pr.dismissed.iter().any(|d| d.id == f.id))
        .cloned()
        .collect()
}

/// The review without the findings on the pull request already (by id), and how many.
pub(super) fn without_posted(
    review: &Review,
    on_pr: &OnThePr,
    earlier: &[Seen],
) -> (Review, usize) {
    let mut kept = review.clone();
    kept.findings.retain(|f| {
        let id = Seen::of(f).id;
        !on_pr.posted.contains(&id) && !earlier.iter().any(|e| e.id == id)
    });
    let left = review.findings.len() - kept.findings.len();
    (kept, left)
}

/// The earlier findings `to` resolved (their file is gone or no longer holds the code they
/// quoted), and the ones still open.
pub(super) fn split_resolved(
    repo: &GitRepo,
    to: &str,
    earlier: Vec<Seen>,
) -> (Vec<Seen>, Vec<Seen>) {
    earlier
        .into_iter()
        .partition(|f| resolved(f, repo.text_at(to, &f.file).ok().flatten().as_deref()))
}

/// The lines a re-review adds to its text: what the new commits resolved, and what is still
/// open from before.
pub(super) fn since_text(since: &str, resolved: &[Seen], open: usize, already: usize) -> String {
    let mut text = String::new();
    if !resolved.is_empty() {
        text.push_str("## Resolved since the last review\n\n");
        for f in resolved {
            text.push_str(&format!("- {} (`{}`)\n", f.title, f.file));
        }
        text.push('\n');
    }
    let mut said = vec![format!("_Reviewed the commits since {}", short_of(since))];
    if open > 0 {
        said.push(match open {
            1 => "1 earlier finding is still open on the pull request".to_string(),
            n => format!("{n} earlier findings are still open on the pull request"),
        });
    }
    if already > 0 {
        said.push(match already {
            1 => "1 finding already on it is not repeated".to_string(),
            n => format!("{n} findings already on it are not repeated"),
        });
    }
    text.push_str(&said.join("; "));
    text.push_str("._\n");
    text
}

/// What the post records: the commit reviewed up to (when committed history was reviewed),
/// and the findings on the pull request after it.
pub(super) fn posting(
    head: Option<String>,
    open: Vec<Seen>,
    kept: &Review,
    keep_earlier: bool,
) -> Posting {
    let mut findings = open;
    for f in &kept.findings {
        let seen = Seen::of(f);
        if !findings.iter().any(|e| e.id == seen.id) {
            findings.push(seen);
        }
    }
    Posting {
        recorded: Recorded { head, findings },
        keep_earlier,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::artifact::review::memory::Dismissal;

    fn seen(id: &str, title: &str) -> Seen {
        Seen {
            id: id.into(),
            file: "src/lib.rs".into(),
            quote: None,
            title: title.into(),
            ..Seen::default()
        }
    }

    #[test]
    fn a_re_review_says_what_was_resolved_and_what_stays() {
        let text = since_text("0123456789abcdef", &[seen("a", "Overflow")], 2, 1);
        assert_eq!(
            text,
            "## Resolved since the last review\n\n- Overflow (`src/lib.rs`)\n\n_Reviewed the \
             commits since 0123456; 2 earlier findings are still open on the pull request; 1 \
             finding already on it is not repeated._\n"
        );
        assert_eq!(
            since_text("abc", &[], 0, 0),
            "_Reviewed the commits since abc._\n"
        );
    }

    #[test]
    fn dismissed_threads_leave_the_open_findings() {
        let on_pr = OnThePr {
            recorded: Some(Recorded {
                head: None,
                findings: vec![seen("a", "One"), seen("b", "Two")],
            }),
            dismissed: vec![Dismissal {
                id: "a".into(),
                ..Dismissal::default()
            }],
            ..OnThePr::default()
        };
        let open: Vec<String> = earlier_open(&on_pr).into_iter().map(|f| f.id).collect();
        assert_eq!(open, ["b"]);
    }

    #[test]
    fn the_record_decides_what_is_reviewed() {
        let repo = iris_studio_testkit::TestRepo::new();
        repo.write("a.txt", "one\n");
        let first = repo.commit_all("one");
        repo.write("a.txt", "two\n");
        let reviewed = repo.commit_all("two");
        repo.write("a.txt", "three\n");
        let pushed = repo.commit_all("three");
        let git = GitRepo::discover(&repo.path()).expect("repo");
        let on_pr = |head: &str| OnThePr {
            recorded: Some(Recorded {
                head: Some(head.to_string()),
                findings: Vec::new(),
            }),
            ..OnThePr::default()
        };
        let range = Scope::range(&first, "HEAD");
        let plan = |head: &str, full: bool| plan(&git, &range, &on_pr(head), full).expect("plan");
        assert!(
            matches!(plan(&reviewed, false), Plan::Since { since, to } if since == reviewed && to == pushed)
        );
        assert!(matches!(plan(&pushed, false), Plan::Nothing { .. }));
        assert!(
            matches!(plan(&reviewed, true), Plan::Whole(Some(why)) if why.starts_with("--full"))
        );
        // A force-push: the recorded head is gone from the history.
        repo.git(&["reset", "-q", "--hard", &first]);
        repo.write("a.txt", "rewritten\n");
        repo.commit_all("rewritten");
        assert!(
            matches!(plan(&reviewed, false), Plan::Whole(Some(why)) if why.contains("force-push"))
        );
        // A staged change records nothing to build on.
        let staged = super::plan(&git, &Scope::Staged, &on_pr(&reviewed), false).expect("plan");
        assert!(matches!(staged, Plan::Whole(None)));
    }
}
