//! Inline posting against fake `gh` and `glab` scripts that record every call (its
//! arguments and the JSON on its stdin) and answer as the forges' APIs do.

use serde_json::Value;

use super::super::run::Runner;
use super::super::tests::{runner_for, write_script};
use super::*;

const DIFF: &str = "\
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,3 +1,7 @@
 pub fn one() -> u32 {
     1
 }
+
+pub fn two() -> u32 {
+    2
+}
";

const REVIEW: &str = "# Code review\n\nAdds two().\n\n## High (1)\n\n\
                      ### Overflow (`src/lib.rs:6`) · 90%\n\nIt wraps.\n\n## Low (2)\n\n\
                      ### Untested (`src/lib.rs:5-7`)\n\nNo test.\n\n\
                      ### Old code (`src/main.rs:40`)\n\nElsewhere.\n";

/// A fake forge tool: `answers` is the body of a `case "$*" in ... esac`. Every call is
/// appended to `calls` as `=== ARGS` and, when it read any, `stdin: JSON`.
struct Tool {
    dir: tempfile::TempDir,
}

impl Tool {
    fn new(name: &str, answers: &str) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().display().to_string();
        std::fs::write(dir.path().join("diff"), DIFF).expect("diff");
        let script = format!(
            "#!/bin/sh\nLOG='{log}'\necho \"=== $*\" >> \"$LOG/calls\"\ninput=$(cat)\n\
             [ -n \"$input\" ] && printf 'stdin: %s\\n' \"$input\" >> \"$LOG/calls\"\n\
             case \"$*\" in\n{answers}\nesac\n"
        );
        write_script(&dir, name, &script);
        Self { dir }
    }

    fn runner(&self) -> Runner {
        runner_for(self.dir.path())
    }

    /// Each call: its arguments, and the JSON it was sent.
    fn calls(&self) -> Vec<(String, Option<Value>)> {
        let log = std::fs::read_to_string(self.dir.path().join("calls")).unwrap_or_default();
        let mut calls: Vec<(String, Option<Value>)> = Vec::new();
        for line in log.lines() {
            if let Some(args) = line.strip_prefix("=== ") {
                calls.push((args.to_string(), None));
            } else if let (Some(json), Some(last)) =
                (line.strip_prefix("stdin: "), calls.last_mut())
            {
                last.1 = serde_json::from_str(json).ok();
            }
        }
        calls
    }

    fn clear(&self) {
        let _ = std::fs::remove_file(self.dir.path().join("calls"));
    }
}

/// gh with pull request 7 at commit abc123; once a review is posted, its list shows it
/// (review 11, comment 21 with Iris' marker; 22 is somebody else's).
fn gh() -> Tool {
    Tool::new(
        "gh",
        r##"'pr view --json=number,headRefOid,url,state') echo '{"number":7,"headRefOid":"abc123","url":"https://github.com/acme/app/pull/7","state":"OPEN"}' ;;
'pr diff --color=never') cat "$LOG/diff" ;;
*'pulls/7/reviews?per_page=100 --paginate') cat "$LOG/reviews" 2>/dev/null || echo '[]' ;;
*'pulls/7/comments?per_page=100 --paginate') cat "$LOG/comments" 2>/dev/null || echo '[]' ;;
*'pulls/7/reviews --method=POST'*)
  echo '[{"id":11,"body":"# Code review <!-- iris-review -->"}]' > "$LOG/reviews"
  echo '[{"id":21,"body":"x <!-- iris-review-finding -->"},{"id":22,"body":"LGTM"}]' > "$LOG/comments"
  echo '{"id":11,"html_url":"https://github.com/acme/app/pull/7#pullrequestreview-11"}' ;;
*) echo '{}' ;;"##,
    )
}

#[test]
fn github_gets_one_review_with_its_findings_on_their_lines() {
    let tool = gh();
    let done =
        post_inline(&tool.runner(), Forge::GitHub, REVIEW, &Posting::default()).expect("posted");
    assert_eq!(
        done.summary,
        "posted the review on the pull request with 2 findings on their lines \
         https://github.com/acme/app/pull/7#pullrequestreview-11"
    );
    let calls = tool.calls();
    let args: Vec<&str> = calls.iter().map(|(a, _)| a.as_str()).collect();
    assert_eq!(
        args,
        [
            "pr view --json=number,headRefOid,url,state",
            "pr diff --color=never",
            "api repos/{owner}/{repo}/pulls/7/reviews?per_page=100 --paginate",
            "api repos/{owner}/{repo}/pulls/7/comments?per_page=100 --paginate",
            "api repos/{owner}/{repo}/pulls/7/reviews --method=POST --header=Content-Type: \
             application/json --input=-",
        ]
    );
    let review = calls[4].1.clone().expect("the review's JSON");
    assert_eq!(review["commit_id"], "abc123");
    assert_eq!(review["event"], "COMMENT");
    let comments = review["comments"].as_array().expect("comments");
    assert_eq!(comments.len(), 2);
    assert_eq!(
        (
            &comments[0]["path"],
            &comments[0]["line"],
            &comments[0]["side"]
        ),
        (
            &Value::from("src/lib.rs"),
            &Value::from(6),
            &Value::from("RIGHT")
        )
    );
    assert!(comments[0]["start_line"].is_null());
    assert_eq!(
        (&comments[1]["start_line"], &comments[1]["line"]),
        (&Value::from(5), &Value::from(7))
    );
    assert!(
        comments[0]["body"]
            .as_str()
            .is_some_and(|b| b.starts_with("**High** · Overflow · 90%\n\nIt wraps.")),
        "{comments:?}"
    );
    let body = review["body"].as_str().unwrap_or_default();
    assert!(body.contains("### Old code (`src/main.rs:40`)"), "{body}");
    assert!(
        !body.contains("Overflow") && !body.contains("## High"),
        "{body}"
    );
    assert!(body.ends_with("<!-- iris-review -->"), "{body}");
}

#[test]
fn posting_again_on_github_replaces_the_earlier_review() {
    let tool = gh();
    post_inline(&tool.runner(), Forge::GitHub, REVIEW, &Posting::default()).expect("first");
    tool.clear();
    post_inline(&tool.runner(), Forge::GitHub, REVIEW, &Posting::default()).expect("second");
    let calls = tool.calls();
    let args: Vec<&str> = calls.iter().map(|(a, _)| a.as_str()).collect();
    assert_eq!(
        args[5..],
        [
            "api repos/{owner}/{repo}/pulls/7/reviews/11 --method=PUT --header=Content-Type: \
             application/json --input=-",
            "api repos/{owner}/{repo}/pulls/comments/21 --method=DELETE",
        ]
    );
    assert_eq!(
        calls[5].1.as_ref().map(|v| v["body"].clone()),
        Some(Value::from(REPLACED))
    );
}

/// glab with merge request 3 and its diff refs; once posted, its notes show Iris' summary
/// (note 31) and a finding (note 32).
fn glab() -> Tool {
    Tool::new(
        "glab",
        r##"'mr view --output=json') echo '{"iid":3,"web_url":"https://gitlab.com/acme/app/-/merge_requests/3","state":"opened","diff_refs":{"base_sha":"b1","start_sha":"s1","head_sha":"h1"}}' ;;
'mr diff --color=never') cat "$LOG/diff" ;;
*'notes?per_page=100 --paginate') cat "$LOG/notes" 2>/dev/null || echo '[]' ;;
*'merge_requests/3/notes --method=POST'*)
  echo '[{"id":31,"body":"# Code review <!-- iris-review -->"},{"id":32,"body":"x <!-- iris-review-finding -->"},{"id":33,"body":"ok"}]' > "$LOG/notes"
  echo '{"id":31}' ;;
*) echo '{}' ;;"##,
    )
}

#[test]
fn gitlab_gets_positioned_discussions_and_one_summary_note() {
    let tool = glab();
    let done =
        post_inline(&tool.runner(), Forge::GitLab, REVIEW, &Posting::default()).expect("posted");
    assert_eq!(
        done.summary,
        "posted the review on the merge request with 2 findings on their lines \
         https://gitlab.com/acme/app/-/merge_requests/3"
    );
    let calls = tool.calls();
    let args: Vec<&str> = calls.iter().map(|(a, _)| a.as_str()).collect();
    let discussion = "api projects/:id/merge_requests/3/discussions --method=POST \
                      --header=Content-Type: application/json --input=-";
    assert_eq!(
        args,
        [
            "mr view --output=json",
            "mr diff --color=never",
            "api projects/:id/merge_requests/3/notes?per_page=100 --paginate",
            discussion,
            discussion,
            "api projects/:id/merge_requests/3/notes --method=POST --header=Content-Type: \
             application/json --input=-",
        ]
    );
    let position = calls[3].1.clone().expect("JSON")["position"].clone();
    assert_eq!(
        position,
        serde_json::json!({"position_type": "text", "base_sha": "b1", "start_sha": "s1",
                           "head_sha": "h1", "new_path": "src/lib.rs", "old_path": "src/lib.rs",
                           "new_line": 6})
    );

    tool.clear();
    post_inline(&tool.runner(), Forge::GitLab, REVIEW, &Posting::default()).expect("again");
    let args: Vec<String> = tool.calls().into_iter().map(|(a, _)| a).collect();
    assert_eq!(
        args[5..],
        [
            "api projects/:id/merge_requests/3/notes/31 --method=PUT --header=Content-Type: \
             application/json --input=-",
            "api projects/:id/merge_requests/3/notes/32 --method=DELETE",
        ]
    );
}

/// A finding GitLab refuses to place on its line goes into the summary note as its text,
/// without the hidden marker that ends its comment.
#[test]
fn gitlab_puts_a_finding_it_refuses_to_place_in_the_summary_without_its_marker() {
    let tool = Tool::new(
        "glab",
        r##"'mr view --output=json') echo '{"iid":3,"web_url":"https://gitlab.com/acme/app/-/merge_requests/3","state":"opened","diff_refs":{"base_sha":"b1","start_sha":"s1","head_sha":"h1"}}' ;;
'mr diff --color=never') cat "$LOG/diff" ;;
*'notes?per_page=100 --paginate') echo '[]' ;;
*'discussions --method=POST'*) echo 'line_code can not be blank' >&2; exit 1 ;;
*) echo '{"id":31}' ;;"##,
    );
    post_inline(&tool.runner(), Forge::GitLab, REVIEW, &Posting::default()).expect("posted");
    let calls = tool.calls();
    let (_, note) = calls
        .iter()
        .find(|(args, _)| args.contains("notes --method=POST"))
        .expect("the summary note");
    let body = note.as_ref().expect("JSON")["body"]
        .as_str()
        .expect("a body")
        .to_string();
    let refused = body
        .split_once("## Not placed on a line\n\n")
        .map(|(_, rest)| rest)
        .expect("the section of refused findings");
    assert!(refused.starts_with("**"), "{body}");
    assert!(!refused.contains("iris-review-finding"), "{body}");
    assert_eq!(
        refused.matches("-->").count(),
        1,
        "only the summary's own marker follows: {body}"
    );
}

#[test]
fn no_pull_request_is_a_clear_error() {
    let tool = Tool::new(
        "gh",
        "'pr view'*) echo 'no pull requests found for branch \"x\"' >&2; exit 1 ;;",
    );
    let err =
        post_inline(&tool.runner(), Forge::GitHub, REVIEW, &Posting::default()).expect_err("no PR");
    assert!(err.0.contains("no pull requests found"), "{err}");
}

/// A review Iris posted before, as its body and an inline finding come back from the forge.
fn earlier_review_json() -> (String, String) {
    let recorded = Recorded {
        head: Some("abc123".into()),
        findings: vec![iris_studio_core::artifact::review::memory::Seen {
            id: "1a2b3c4d5e".into(),
            file: "src/lib.rs".into(),
            quote: Some("a + b".into()),
            title: "Overflow".into(),
            ..iris_studio_core::artifact::review::memory::Seen::default()
        }],
    };
    let body = format!("# Code review\n\n{}\n{SUMMARY_MARKER}", recorded.marker());
    let finding =
        "**High** · Overflow · 90%\n\nIt wraps.\n\n<!-- iris-review-finding 1a2b3c4d5e -->";
    (
        serde_json::json!([{"id": 11, "body": body}]).to_string(),
        serde_json::json!(finding).to_string(),
    )
}

#[test]
fn on_github_the_record_the_findings_and_the_resolved_threads_are_read() {
    let (reviews, finding) = earlier_review_json();
    let tool = Tool::new(
        "gh",
        &format!(
            r##"'pr view --json=number,headRefOid,url,state') echo '{{"number":7,"headRefOid":"def456","state":"OPEN"}}' ;;
*'pulls/7/reviews?per_page=100 --paginate') printf '%s\n' '{reviews}' ;;
*'pulls/7/comments?per_page=100 --paginate') printf '%s\n' '[{{"id":21,"body":{finding}}},{{"id":22,"body":"LGTM"}}]' ;;
'api graphql'*) printf '%s\n' '{{"data":{{"repository":{{"pullRequest":{{"reviewThreads":{{"nodes":[{{"isResolved":true,"path":"src/lib.rs","comments":{{"nodes":[{{"body":{finding}}}]}}}}]}}}}}}}}}}' ;;"##
        ),
    );
    let on_pr = earlier::read(&tool.runner(), Forge::GitHub).expect("read");
    assert_eq!(
        on_pr.recorded.as_ref().and_then(|r| r.head.as_deref()),
        Some("abc123")
    );
    assert_eq!(on_pr.posted.iter().collect::<Vec<_>>(), ["1a2b3c4d5e"]);
    assert_eq!(on_pr.dismissed.len(), 1, "{on_pr:?}");
    assert_eq!(
        (
            on_pr.dismissed[0].quote.as_deref(),
            on_pr.dismissed[0].reason.as_str()
        ),
        (Some("a + b"), "resolved on the pull request")
    );
    assert_eq!(on_pr.threads_unread, None);
    let calls = tool.calls();
    let graphql = &calls.last().expect("a call").0;
    assert!(
        graphql
            .starts_with("api graphql --field=owner={owner} --field=name={repo} --field=number=7"),
        "{graphql}"
    );
}

#[test]
fn on_gitlab_a_discussion_answered_dismiss_counts_and_unread_threads_are_said() {
    let (reviews, finding) = earlier_review_json();
    let tool = Tool::new(
        "glab",
        &format!(
            r##"'mr view --output=json') echo '{{"iid":3,"diff_refs":{{"base_sha":"b1","start_sha":"s1","head_sha":"h1"}}}}' ;;
*'notes?per_page=100 --paginate') printf '%s\n' '{reviews}' ;;
*'discussions?per_page=100 --paginate') printf '%s\n' '[{{"notes":[{{"body":{finding},"resolved":false,"position":{{"new_path":"src/lib.rs"}}}},{{"body":"/dismiss intended"}}]}}]' ;;"##
        ),
    );
    let on_pr = earlier::read(&tool.runner(), Forge::GitLab).expect("read");
    assert_eq!(on_pr.dismissed.len(), 1, "{on_pr:?}");
    assert_eq!(on_pr.dismissed[0].reason, "intended");

    let broken = Tool::new(
        "gh",
        r##"'pr view --json=number,headRefOid,url,state') echo '{"number":7,"headRefOid":"def456","state":"OPEN"}' ;;
'api graphql'*) echo 'HTTP 403: Resource not accessible by integration' >&2; exit 1 ;;
*'--paginate') echo '[]' ;;"##,
    );
    let on_pr = earlier::read(&broken.runner(), Forge::GitHub).expect("the rest is read");
    assert!(
        on_pr
            .threads_unread
            .as_deref()
            .is_some_and(|why| why.contains("403")),
        "{on_pr:?}"
    );
}

#[test]
fn a_re_review_posts_beside_the_earlier_one_and_records_what_it_covered() {
    let tool = gh();
    post_inline(&tool.runner(), Forge::GitHub, REVIEW, &Posting::default()).expect("first");
    tool.clear();
    let posting = Posting {
        recorded: Recorded {
            head: Some("def456".into()),
            findings: Vec::new(),
        },
        keep_earlier: true,
    };
    post_inline(&tool.runner(), Forge::GitHub, REVIEW, &posting).expect("again");
    let calls = tool.calls();
    assert!(
        calls.iter().all(|(args, _)| !args.contains("DELETE")),
        "{calls:?}"
    );
    let review = calls[4].1.clone().expect("the review's JSON");
    let body = review["body"].as_str().unwrap_or_default();
    assert_eq!(
        Recorded::in_body(body).and_then(|r| r.head),
        Some("def456".to_string())
    );
}
