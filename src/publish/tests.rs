//! `publish_pr_with` and `post_review_with` against fake `gh` and `glab` scripts on a PATH of
//! their own (the process' environment is never changed).

use std::path::Path;
use std::time::{Duration, Instant};

use super::run::Runner;
use super::*;

/// A directory with an executable `name` running `body` (sh), and the runner that finds it.
struct Fake {
    dir: tempfile::TempDir,
}

impl Fake {
    fn new(name: &str, body: &str) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().display().to_string();
        // Each run appends "SUBCOMMAND VERB" to calls, and keeps its arguments (one a line)
        // and its stdin under that name.
        let script = format!(
            "#!/bin/sh\nLOG='{log}'\necho \"$1 $2\" >> \"$LOG/calls\"\n\
             printf '%s\\n' \"$@\" > \"$LOG/args-$1-$2\"\ncat > \"$LOG/stdin-$1-$2\"\n{body}\n"
        );
        write_script(&dir, name, &script);
        Self { dir }
    }

    fn runner(&self) -> Runner {
        runner_for(self.dir.path())
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default()
    }

    fn calls(&self) -> Vec<String> {
        self.read("calls").lines().map(str::to_string).collect()
    }
}

/// Writes the executable `name` into `dir`.
pub(super) fn write_script(dir: &tempfile::TempDir, name: &str, script: &str) {
    iris_studio_testkit::write_executable(&dir.path().join(name), script);
}

/// A runner in `dir` that finds the tools there first.
pub(super) fn runner_for(dir: &Path) -> Runner {
    let mut path = dir.as_os_str().to_os_string();
    path.push(":/usr/bin:/bin");
    Runner {
        dir: dir.to_path_buf(),
        path,
        timeout: Duration::from_secs(20),
    }
}

fn text() -> PrText {
    PrText {
        title: "Add two()".into(),
        body: "## Summary\n\nAdds two().".into(),
    }
}

/// A fake gh whose `pr view` prints `view` and exits `view_exit`; other commands print a URL.
fn gh(view: &str, view_exit: u8) -> Fake {
    Fake::new(
        "gh",
        &format!(
            "case \"$1 $2\" in\n\
             'pr view') echo '{view}'; exit {view_exit} ;;\n\
             'pr create') echo 'Creating pull request'; echo https://github.com/acme/app/pull/8 ;;\n\
             'pr edit') echo https://github.com/acme/app/pull/7 ;;\n\
             esac"
        ),
    )
}

#[test]
fn create_or_update_updates_the_open_pull_request_of_the_branch() {
    let fake = gh(
        r#"{"state":"OPEN","url":"https://github.com/acme/app/pull/7"}"#,
        0,
    );
    let done = publish_pr_with(
        &fake.runner(),
        Forge::GitHub,
        &text(),
        PrAction::CreateOrUpdate,
        Some("main"),
    )
    .expect("published");
    assert_eq!(fake.calls(), ["pr view", "pr edit"]);
    assert_eq!(
        done.summary,
        "updated pull request https://github.com/acme/app/pull/7"
    );
    assert_eq!(
        done.url.as_deref(),
        Some("https://github.com/acme/app/pull/7")
    );
    assert_eq!(
        fake.read("args-pr-edit"),
        "pr\nedit\n--title=Add two()\n--body-file=-\n--base=main\n"
    );
    assert_eq!(fake.read("stdin-pr-edit"), "## Summary\n\nAdds two().");
    assert_eq!(fake.read("args-pr-view"), "pr\nview\n--json=url,state\n");
}

#[test]
fn create_or_update_creates_when_the_branch_has_no_pull_request() {
    let fake = gh("no pull requests found for branch \"feature\"", 1);
    let done = publish_pr_with(
        &fake.runner(),
        Forge::GitHub,
        &text(),
        PrAction::CreateOrUpdate,
        None,
    )
    .expect("published");
    assert_eq!(fake.calls(), ["pr view", "pr create"]);
    assert_eq!(
        done.summary,
        "created pull request https://github.com/acme/app/pull/8"
    );
    assert_eq!(
        fake.read("args-pr-create"),
        "pr\ncreate\n--title=Add two()\n--body-file=-\n"
    );
    assert_eq!(fake.read("stdin-pr-create"), "## Summary\n\nAdds two().");
}

#[test]
fn create_or_update_creates_when_the_branch_pull_request_is_merged() {
    let fake = gh(
        r#"{"state":"MERGED","url":"https://github.com/acme/app/pull/3"}"#,
        0,
    );
    let done = publish_pr_with(
        &fake.runner(),
        Forge::GitHub,
        &text(),
        PrAction::CreateOrUpdate,
        None,
    )
    .expect("published");
    assert_eq!(fake.calls(), ["pr view", "pr create"]);
    assert!(done.summary.starts_with("created pull request"), "{done:?}");
}

#[test]
fn update_asks_for_the_url_when_the_tool_printed_none() {
    let fake = Fake::new(
        "glab",
        "case \"$1 $2\" in\n\
         'mr view') echo '{\"state\":\"opened\",\"web_url\":\"https://gitlab.com/acme/app/-/merge_requests/3\"}' ;;\n\
         'mr update') echo '- Updating merge request !3' ;;\n\
         esac",
    );
    let done = publish_pr_with(
        &fake.runner(),
        Forge::GitLab,
        &text(),
        PrAction::Update,
        None,
    )
    .expect("published");
    assert_eq!(fake.calls(), ["mr update", "mr view"]);
    assert_eq!(
        done.summary,
        "updated merge request https://gitlab.com/acme/app/-/merge_requests/3"
    );
    assert_eq!(
        fake.read("args-mr-update"),
        "mr\nupdate\n--title=Add two()\n--description=## Summary\n\nAdds two().\n"
    );
}

#[test]
fn gitlab_create_or_update_creates_with_the_target_branch() {
    let fake = Fake::new(
        "glab",
        "case \"$1 $2\" in\n\
         'mr view') echo 'no open merge request available for \"feature\"' >&2; exit 1 ;;\n\
         'mr create') echo '!4 Add two() (feature)'; echo ' https://gitlab.com/acme/app/-/merge_requests/4' ;;\n\
         esac",
    );
    let done = publish_pr_with(
        &fake.runner(),
        Forge::GitLab,
        &text(),
        PrAction::CreateOrUpdate,
        Some("develop"),
    )
    .expect("published");
    assert_eq!(fake.calls(), ["mr view", "mr create"]);
    assert_eq!(
        done.url.as_deref(),
        Some("https://gitlab.com/acme/app/-/merge_requests/4")
    );
    assert_eq!(
        fake.read("args-mr-create"),
        "mr\ncreate\n--title=Add two()\n--description=## Summary\n\nAdds two().\n--yes\n--target-branch=develop\n"
    );
}

#[test]
fn a_failing_tool_is_an_error_with_what_it_said() {
    let fake = Fake::new(
        "gh",
        "echo 'pull request create failed: GraphQL: No commits between main and feature' >&2; exit 1",
    );
    let err = publish_pr_with(
        &fake.runner(),
        Forge::GitHub,
        &text(),
        PrAction::Create,
        None,
    )
    .expect_err("fails");
    assert_eq!(
        err.to_string(),
        "gh pr create failed (exit 1): pull request create failed: GraphQL: No commits between main and feature"
    );
}

#[test]
fn a_missing_tool_says_which_and_where_to_get_it() {
    let empty = tempfile::tempdir().expect("temp dir");
    let runner = Runner {
        dir: empty.path().to_path_buf(),
        path: empty.path().as_os_str().to_os_string(),
        timeout: Duration::from_secs(5),
    };
    let err = publish_pr_with(&runner, Forge::GitHub, &text(), PrAction::Create, None)
        .expect_err("no gh");
    let message = err.to_string();
    assert!(
        message.contains("`gh` (the GitHub CLI) is not installed")
            && message.contains("https://cli.github.com"),
        "{message}"
    );
    let err = post_review_with(&runner, Forge::GitLab, "# Review").expect_err("no glab");
    assert!(
        err.to_string()
            .contains("https://gitlab.com/gitlab-org/cli"),
        "{err}"
    );
}

#[test]
fn a_tool_that_hangs_is_stopped_at_the_deadline() {
    let fake = Fake::new("gh", "sleep 30");
    let mut runner = fake.runner();
    runner.timeout = Duration::from_millis(300);
    let started = Instant::now();
    let err = post_review_with(&runner, Forge::GitHub, "# Review").expect_err("times out");
    assert!(
        err.to_string().contains("did not finish within 0.3 s"),
        "{err}"
    );
    // The sleeping grandchild was killed with its group, so nothing held the pipes open
    // until the drain's grace ran out.
    let limit = runner.timeout + iris_studio_process::DRAIN_GRACE;
    assert!(started.elapsed() < limit, "{:?}", started.elapsed());
}

#[test]
fn a_review_is_posted_as_a_comment_with_its_markdown_on_stdin() {
    let fake = Fake::new(
        "gh",
        "echo https://github.com/acme/app/pull/7#issuecomment-42",
    );
    let done = post_review_with(&fake.runner(), Forge::GitHub, "# Code review\n\nFine.\n")
        .expect("posted");
    assert_eq!(
        done.summary,
        "posted the review on the pull request https://github.com/acme/app/pull/7#issuecomment-42"
    );
    assert_eq!(fake.read("args-pr-comment"), "pr\ncomment\n--body-file=-\n");
    assert_eq!(fake.read("stdin-pr-comment"), "# Code review\n\nFine.");
    let err = post_review_with(&fake.runner(), Forge::GitHub, " \n").expect_err("empty");
    assert!(err.to_string().contains("empty"), "{err}");
}

#[test]
fn the_tool_runs_in_the_repository_without_prompts() {
    let fake = Fake::new(
        "gh",
        "pwd > \"$LOG/pwd\"; echo \"$GH_PROMPT_DISABLED $GLAB_NO_PROMPT $NO_COLOR $GIT_TERMINAL_PROMPT\" > \"$LOG/env\"",
    );
    post_review_with(&fake.runner(), Forge::GitHub, "x").expect("posted");
    let pwd = fake.read("pwd");
    assert_eq!(
        Path::new(pwd.trim()).canonicalize().ok(),
        fake.dir.path().canonicalize().ok()
    );
    assert_eq!(fake.read("env"), "1 1 1 0\n");
}
