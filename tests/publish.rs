//! Publishing and copying end to end: the real binary writes a PR description or a review
//! from the fake provider, then hands it to a fake `gh` or `glab` on PATH (shell scripts that
//! keep their arguments, stdin and working directory and print a URL); `--copy` is checked in
//! a pseudo-terminal (the OSC 52 sequence reaches the terminal) and without any terminal.

use crate::common::Iris;

use std::path::Path;
use std::process::{Command, Output};

use crate::common::agent::{approval, failure, openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, fake_bin, path_with, stderr, stdout};
use base64::Engine;
use serde_json::json;

/// The PR the fake model writes, and its markdown as `iris pr` prints it.
const PR_TITLE: &str = "Add two()";
const PR_BODY: &str = "## Summary\n\nAdds two().\n\n## Changes\n\n- src/lib.rs: add two()";

fn pr_json() -> String {
    json!({
        "title": PR_TITLE, "summary": "Adds two().", "description": "",
        "changes": ["src/lib.rs: add two()"], "testing": [], "breaking_changes": [],
        "reviewer_notes": [], "related_issues": [],
    })
    .to_string()
}

/// The writer's reply, then the critic's approval.
fn pr_script() -> Vec<Step> {
    vec![Step::text(pr_json()), Step::text(approval())]
}

/// `main` with one commit, then `feature/two` adding two(), with `origin` at `remote`.
fn feature_repo(remote: &str) -> TestRepo {
    let repo = TestRepo::feature_branch();
    repo.git(&["remote", "add", "origin", remote]);
    repo
}

/// A fake forge tool: each run keeps its arguments (one a line), stdin and directory beside
/// the script, named after its first two arguments (`args-pr-create`), then runs `then`.
fn fake_tool(name: &str, then: &str) -> tempfile::TempDir {
    let body = format!(
        "LOG=$(dirname \"$0\")\n\
         echo \"$1 $2\" >> \"$LOG/calls\"\n\
         printf '%s\\n' \"$@\" > \"$LOG/args-$1-$2\"\n\
         cat > \"$LOG/stdin-$1-$2\"\n\
         pwd > \"$LOG/pwd-$1-$2\"\n\
         {then}"
    );
    fake_bin(&[(name, &body)])
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The provider's environment plus PATH.
fn env_with_path(fake: &FakeProvider, path: &Path) -> Vec<(&'static str, String)> {
    let mut env = openai_env(fake);
    env.push(("PATH", path.to_string_lossy().into_owned()));
    env
}

fn with_tool(fake: &FakeProvider, tool: &tempfile::TempDir) -> Vec<(&'static str, String)> {
    env_with_path(fake, Path::new(&path_with(tool.path())))
}

fn same_dir(a: &str, b: &Path) -> bool {
    Path::new(a.trim()).canonicalize().ok() == b.canonicalize().ok()
}

#[test]
fn pr_create_opens_the_pull_request_with_the_title_and_the_body_on_stdin() {
    let repo = feature_repo("https://github.com/acme/app.git");
    let gh = fake_tool(
        "gh",
        "echo 'Creating pull request for feature/two into main in acme/app'\n\
         echo https://github.com/acme/app/pull/7",
    );
    let fake = FakeProvider::start(pr_script());
    let out = run(&repo, &["pr", "--create"], &with_tool(&fake, &gh));
    let printed = success(&out);
    assert_eq!(printed, format!("# {PR_TITLE}\n\n{PR_BODY}\n"));
    assert_eq!(read(gh.path(), "calls"), "pr create\n");
    assert_eq!(
        read(gh.path(), "args-pr-create"),
        "pr\ncreate\n--title=Add two()\n--body-file=-\n--base=main\n"
    );
    assert_eq!(read(gh.path(), "stdin-pr-create"), PR_BODY);
    assert!(same_dir(&read(gh.path(), "pwd-pr-create"), &repo.path()));
    let err = stderr(&out);
    assert!(
        err.lines()
            .any(|l| l == "created pull request https://github.com/acme/app/pull/7"),
        "{err}"
    );
}

#[test]
fn pr_update_edits_the_pull_request_and_names_the_base_as_the_forge_does() {
    let repo = feature_repo("git@github.com:acme/app.git");
    // The base as git names it: the remote-tracking branch.
    repo.git(&["update-ref", "refs/remotes/origin/main", "main"]);
    let gh = fake_tool("gh", "echo https://github.com/acme/app/pull/7");
    let fake = FakeProvider::start(pr_script());
    let out = run(
        &repo,
        &["pr", "--update", "--from", "origin/main", "--json"],
        &with_tool(&fake, &gh),
    );
    let printed = success(&out);
    // --json prints the structure; the forge still gets the markdown.
    let json: serde_json::Value = serde_json::from_str(&printed).expect("json");
    assert_eq!(json["title"], PR_TITLE);
    assert_eq!(read(gh.path(), "calls"), "pr edit\n");
    assert_eq!(
        read(gh.path(), "args-pr-edit"),
        "pr\nedit\n--title=Add two()\n--body-file=-\n--base=main\n"
    );
    assert_eq!(read(gh.path(), "stdin-pr-edit"), PR_BODY);
    assert!(
        stderr(&out).contains("updated pull request https://github.com/acme/app/pull/7"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn pr_update_without_from_keeps_the_base_of_the_pull_request() {
    let repo = feature_repo("https://github.com/acme/app.git");
    let gh = fake_tool("gh", "echo https://github.com/acme/app/pull/7");
    let fake = FakeProvider::start(pr_script());
    success(&run(&repo, &["pr", "--update"], &with_tool(&fake, &gh)));
    assert_eq!(
        read(gh.path(), "args-pr-edit"),
        "pr\nedit\n--title=Add two()\n--body-file=-\n"
    );
}

#[test]
fn on_gitlab_pr_create_opens_a_merge_request_with_glab() {
    let repo = feature_repo("git@gitlab.com:acme/app.git");
    let glab = fake_tool(
        "glab",
        "echo '!4 Add two() (feature/two)'\n\
         echo ' https://gitlab.com/acme/app/-/merge_requests/4'",
    );
    let fake = FakeProvider::start(pr_script());
    let out = run(&repo, &["pr", "--create"], &with_tool(&fake, &glab));
    success(&out);
    assert_eq!(
        read(glab.path(), "args-mr-create"),
        format!(
            "mr\ncreate\n--title=Add two()\n--description={PR_BODY}\n--yes\n--target-branch=main\n"
        )
    );
    assert!(
        stderr(&out)
            .contains("created merge request https://gitlab.com/acme/app/-/merge_requests/4"),
        "{}",
        stderr(&out)
    );
}

fn review_script() -> Vec<Step> {
    let review = json!({
        "summary": "Adds two().",
        "findings": [{"severity": "low", "file": "src/lib.rs", "line": 5, "end_line": null,
                      "title": "two() is untested", "body": "No test calls two().",
                      "suggestion": null}],
        "strengths": [],
    });
    vec![Step::text(review.to_string()), Step::text(approval())]
}

#[test]
fn review_post_comments_the_markdown_on_the_pull_request() {
    let repo = staged_repo();
    repo.git(&["remote", "add", "origin", "https://github.com/acme/app.git"]);
    let gh = fake_tool(
        "gh",
        "echo https://github.com/acme/app/pull/7#issuecomment-42",
    );
    let fake = FakeProvider::start(review_script());
    let out = run(
        &repo,
        &["review", "--post", "--no-inline", "--json"],
        &with_tool(&fake, &gh),
    );
    let printed = success(&out);
    assert!(
        printed.starts_with('{'),
        "--json still prints JSON: {printed}"
    );
    assert_eq!(
        read(gh.path(), "args-pr-comment"),
        "pr\ncomment\n--body-file=-\n"
    );
    let posted = read(gh.path(), "stdin-pr-comment");
    assert!(posted.starts_with("# Code review"), "{posted}");
    assert!(
        posted.contains("### two() is untested (`src/lib.rs:5`)"),
        "{posted}"
    );
    assert!(
        stderr(&out).contains(
            "posted the review on the pull request https://github.com/acme/app/pull/7#issuecomment-42"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn review_post_on_gitlab_sends_the_review_as_the_note_message() {
    let repo = staged_repo();
    repo.git(&[
        "remote",
        "add",
        "origin",
        "https://gitlab.example.com/acme/app.git",
    ]);
    let glab = fake_tool(
        "glab",
        "echo https://gitlab.example.com/acme/app/-/merge_requests/2#note_9",
    );
    let fake = FakeProvider::start(review_script());
    let out = run(
        &repo,
        &["review", "--post", "--no-inline"],
        &with_tool(&fake, &glab),
    );
    let printed = success(&out);
    // What was printed is the review the model wrote, and the note carries it whole.
    for part in ["Adds two().", "two() is untested", "src/lib.rs"] {
        assert!(printed.contains(part), "no `{part}` in:\n{printed}");
    }
    let args = read(glab.path(), "args-mr-note");
    assert_eq!(
        args,
        format!("mr\nnote\n--message={}\n", printed.trim_end())
    );
}

#[test]
fn without_gh_the_error_says_how_to_get_it_and_the_description_is_still_printed() {
    let repo = feature_repo("https://github.com/acme/app.git");
    let empty = tempfile::tempdir().expect("temp dir");
    let fake = FakeProvider::start(pr_script());
    let out = run(
        &repo,
        &["pr", "--create"],
        &env_with_path(&fake, empty.path()),
    );
    let line = failure(&out, 1);
    assert!(
        line.contains("`gh` (the GitHub CLI) is not installed or not on PATH")
            && line.contains("https://cli.github.com"),
        "{line}"
    );
    assert!(line.contains("the description is on stdout"), "{line}");
    assert_eq!(stdout(&out), format!("# {PR_TITLE}\n\n{PR_BODY}\n"));
}

#[test]
fn a_remote_on_another_host_fails_before_anything_is_written() {
    let repo = feature_repo("https://bitbucket.org/acme/app.git");
    let gh = fake_tool("gh", "echo https://github.com/acme/app/pull/7");
    let fake = FakeProvider::start(pr_script());
    let out = run(&repo, &["pr", "--create"], &with_tool(&fake, &gh));
    let line = failure(&out, 1);
    assert_eq!(
        line,
        "error: the remote bitbucket.org is neither GitHub nor GitLab: copy the description \
         instead (y in the studio, --copy)"
    );
    assert!(fake.requests().is_empty(), "no model run for nothing");
    assert!(!gh.path().join("calls").exists());

    let repo = staged_repo();
    let out = run(&repo, &["review", "--post"], &with_tool(&fake, &gh));
    let line = failure(&out, 1);
    assert!(
        line.contains("no remote to publish to: copy the review instead"),
        "{line}"
    );
}

#[test]
fn the_tools_own_error_is_in_ours() {
    let repo = feature_repo("https://github.com/acme/app.git");
    let gh = fake_tool(
        "gh",
        "echo 'pull request create failed: GraphQL: No commits between main and feature/two (createPullRequest)' >&2\n\
         exit 1",
    );
    let fake = FakeProvider::start(pr_script());
    let out = run(&repo, &["pr", "--create"], &with_tool(&fake, &gh));
    let line = failure(&out, 1);
    assert!(
        line.contains(
            "gh pr create failed (exit 1): pull request create failed: GraphQL: No commits between main and feature/two"
        ),
        "{line}"
    );
    assert!(stdout(&out).starts_with("# Add two()"), "{}", stdout(&out));
}

// --copy

const GEN_MESSAGE: &str = "Add two()\n\nAdds a second constant function.";

fn gen_script() -> Vec<Step> {
    let reply = json!({"emoji": null, "title": "Add two()",
                       "message": "Adds a second constant function."});
    vec![Step::text(reply.to_string())]
}

/// `iris ARGS` in `repo` with only the environment a test gives it.
fn iris_command(repo: &TestRepo, fake: &FakeProvider, args: &[&str]) -> Command {
    let mut command = repo.isolated_iris(args);
    // No gh or glab of the machine's: a test puts its fake first.
    command.env("PATH", "/usr/bin:/bin");
    for (name, value) in openai_env(fake) {
        command.env(name, value);
    }
    command
}

#[cfg(target_os = "linux")]
#[test]
fn copy_sends_the_artifact_to_the_terminal_as_osc_52() {
    use crate::common::pty::PtyProgram;
    use std::time::Duration;

    let repo = staged_repo();
    let fake = FakeProvider::start(gen_script());
    let mut program = PtyProgram::spawn(iris_command(&repo, &fake, &["gen", "--copy"]), 100, 30);
    let status = program
        .wait_exit(Duration::from_secs(60))
        .unwrap_or_else(|| panic!("still running:\n{}", program.text()));
    let bytes = String::from_utf8_lossy(&program.bytes()).into_owned();
    assert!(status.success(), "{status:?}\n{bytes}");
    let encoded = base64::engine::general_purpose::STANDARD.encode(GEN_MESSAGE);
    let sequence = format!("\x1b]52;c;{encoded}\x07");
    assert!(bytes.contains(&sequence), "{sequence:?} in {bytes:?}");
    assert!(
        bytes.contains(&format!(
            "copied to the clipboard ({} chars)",
            GEN_MESSAGE.chars().count()
        )),
        "{bytes:?}"
    );
    // The message itself is printed as before (the terminal turns \n into \r\n).
    assert!(
        bytes.contains(&GEN_MESSAGE.replace('\n', "\r\n")),
        "{bytes:?}"
    );
}

#[test]
fn copy_without_a_terminal_warns_and_still_succeeds() {
    use std::os::unix::process::CommandExt;

    let repo = staged_repo();
    let fake = FakeProvider::start(gen_script());
    let mut command = iris_command(&repo, &fake, &["gen", "--copy"]);
    // SAFETY: setsid is async-signal-safe; the child starts a session with no terminal.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out: Output = command
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run iris");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{GEN_MESSAGE}\n"));
    let err = stderr(&out);
    assert!(
        err.lines().any(|l| l.starts_with(
            "warning: not copied to the clipboard: there is no terminal to copy through"
        )),
        "{err}"
    );
    assert!(!stdout(&out).contains("\x1b]52"));
}

/// A gh that knows pull request 7 at the repository's HEAD, shows the staged change as its
/// diff, and records every call with the JSON it was sent.
fn inline_gh() -> tempfile::TempDir {
    fake_bin(&[(
        "gh",
        r##"LOG=$(dirname "$0")
echo "=== $*" >> "$LOG/calls"
input=$(cat)
[ -n "$input" ] && printf '%s\n' "$input" > "$LOG/sent"
case "$*" in
'pr view'*) echo "{\"number\":7,\"headRefOid\":\"$(git rev-parse HEAD)\",\"url\":\"https://github.com/acme/app/pull/7\",\"state\":\"OPEN\"}" ;;
'pr diff'*) git diff --cached ;;
*'--paginate') echo '[]' ;;
*'--method=POST'*) echo '{"html_url":"https://github.com/acme/app/pull/7#pullrequestreview-5"}' ;;
esac"##,
    )])
}

#[test]
fn review_post_puts_each_checked_finding_on_its_line() {
    let repo = staged_repo();
    repo.git(&["remote", "add", "origin", "https://github.com/acme/app.git"]);
    let gh = inline_gh();
    let review = json!({
        "summary": "Adds two().",
        "findings": [
            {"severity": "medium", "file": "src/lib.rs", "line": 9, "title": "two() is untested",
             "body": "No test calls two().", "confidence": 90, "quote": "pub fn two() -> u32 {"},
            {"severity": "high", "file": "src/gone.rs", "line": 1, "title": "Invented",
             "body": "Not there.", "confidence": 95}
        ],
        "strengths": [],
    });
    let fake = FakeProvider::start(vec![Step::text(review.to_string()), Step::text(approval())]);
    let out = run(&repo, &["review", "--post"], &with_tool(&fake, &gh));
    success(&out);
    assert!(
        stderr(&out).contains(
            "posted the review on the pull request with 1 finding on its line \
             https://github.com/acme/app/pull/7#pullrequestreview-5"
        ),
        "{}",
        stderr(&out)
    );
    let sent: serde_json::Value =
        serde_json::from_str(&read(gh.path(), "sent")).expect("the review's JSON");
    assert_eq!(sent["commit_id"], repo.git(&["rev-parse", "HEAD"]).trim());
    let comments = sent["comments"].as_array().expect("comments");
    // Moved from line 9 to line 5, where its quote is; the invented one is not posted.
    assert_eq!(comments.len(), 1, "{sent}");
    assert_eq!(
        (&comments[0]["path"], &comments[0]["line"]),
        (&json!("src/lib.rs"), &json!(5))
    );
    let body = sent["body"].as_str().unwrap_or_default();
    assert!(!body.contains("Invented"), "{body}");
    assert!(body.contains("1 moved to the line it quotes"), "{body}");
}

/// In a jj workspace a PR goes from the top change's bookmark into the base's, found by its
/// head (jj checks out no branch): `gh pr list --head`, then create, or edit by number.
#[test]
fn in_a_jj_workspace_pr_create_and_update_name_the_bookmarks() {
    let repo = TestRepo::jj_adding_two(false);
    repo.jj(&["commit", "-m", "Add two()"]);
    repo.jj(&[
        "git",
        "remote",
        "add",
        "origin",
        "https://github.com/acme/app.git",
    ]);
    repo.jj(&["bookmark", "create", "main", "-r", "@--"]);
    let fake = FakeProvider::start(pr_script());
    let gh = fake_tool(
        "gh",
        "if [ \"$2\" = list ]; then echo '[]'; else echo https://github.com/acme/app/pull/8; fi",
    );
    // gh's fake, jj, and the system's tools.
    let with_tool = |fake: &FakeProvider, gh: &tempfile::TempDir| {
        let jj = iris_studio_testkit::jj::jj_dir();
        let path = format!("{}:{}:/usr/bin:/bin", gh.path().display(), jj.display());
        env_with_path(fake, Path::new(&path))
    };
    // Without a bookmark on the top change there is nothing to open the PR from.
    let out = run(
        &repo,
        &["pr", "--from", "main", "--create"],
        &with_tool(&fake, &gh),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("has no bookmark to open the pull request from"));
    repo.jj(&["bookmark", "create", "feature/two", "-r", "@-"]);
    let fake = FakeProvider::start(pr_script());
    let out = run(
        &repo,
        &["pr", "--from", "main", "--create"],
        &with_tool(&fake, &gh),
    );
    success(&out);
    assert_eq!(read(gh.path(), "calls"), "pr list\npr create\n");
    let args = read(gh.path(), "args-pr-create");
    assert!(args.contains("--base=main\n--head=feature/two\n"), "{args}");
    assert_eq!(read(gh.path(), "stdin-pr-create"), PR_BODY);
    assert!(stderr(&out).contains("created pull request from feature/two"));

    // An open one is edited by its number.
    let listed = r#"[{"number": 8, "url": "https://github.com/acme/app/pull/8", "title": "t", "body": "b", "baseRefName": "main", "state": "OPEN"}]"#;
    let gh = fake_tool("gh", &format!("echo '{listed}'"));
    let fake = FakeProvider::start(pr_script());
    success(&run(
        &repo,
        &["pr", "--from", "main", "--update"],
        &with_tool(&fake, &gh),
    ));
    assert_eq!(read(gh.path(), "calls"), "pr list\npr edit\n");
    let args = read(gh.path(), "args-pr-edit");
    assert!(args.starts_with("pr\nedit\n8\n"), "{args}");
}

/// A gh that keeps what Iris posts: pull request 7 at the repository's HEAD, its diff from
/// the first commit, the posted review as the PR's one review (its body, the summary Iris
/// reads back), each post's JSON in `sent-N`, and no review threads.
fn keeping_gh() -> tempfile::TempDir {
    fake_bin(&[(
        "gh",
        r##"LOG=$(dirname "$0")
echo "=== $*" >> "$LOG/calls"
input=$(cat)
case "$*" in
'pr view'*) echo "{\"number\":7,\"headRefOid\":\"$(git rev-parse HEAD)\",\"url\":\"https://github.com/acme/app/pull/7\",\"state\":\"OPEN\"}" ;;
'pr diff'*) git diff "$(git rev-list --max-parents=0 HEAD)" HEAD ;;
*'reviews?per_page=100 --paginate') cat "$LOG/reviews" 2>/dev/null || echo '[]' ;;
*'--paginate') echo '[]' ;;
'api graphql'*) echo '{"data":{"repository":{"pullRequest":{"reviewThreads":{"nodes":[]}}}}}' ;;
*'reviews --method=POST'*)
  n=$(ls "$LOG" | grep -c '^sent-')
  printf '%s\n' "$input" > "$LOG/sent-$n"
  printf '[%s]' "$input" > "$LOG/reviews"
  echo '{"html_url":"https://github.com/acme/app/pull/7#pullrequestreview-5"}' ;;
*) echo '{}' ;;
esac"##,
    )])
}

fn finding(file_line: (&str, u32), title: &str, quote: &str) -> serde_json::Value {
    json!({"severity": "medium", "file": file_line.0, "line": file_line.1, "title": title,
           "body": format!("{title}."), "confidence": 90, "quote": quote})
}

fn review_of(findings: Vec<serde_json::Value>) -> Step {
    Step::text(json!({"summary": "A change.", "findings": findings, "strengths": []}).to_string())
}

/// `iris review --from FIRST --post` with `gh` on PATH.
fn post_from(repo: &TestRepo, first: &str, fake: &FakeProvider, gh: &tempfile::TempDir) -> Output {
    run(
        repo,
        &["review", "--from", first, "--post"],
        &with_tool(fake, gh),
    )
}

/// Posting again after a push reviews the new commit only: its finding goes on its line, the
/// one already on the PR is not posted twice, and the finding whose code the commit removed
/// is said to be resolved.
#[test]
fn review_post_again_reviews_what_is_new_and_says_what_was_resolved() {
    let repo = feature_repo("https://github.com/acme/app.git");
    repo.write(".irisconfig", "critic_enabled = false\n");
    let first = repo.git(&["rev-list", "--max-parents=0", "HEAD"]);
    let first = first.trim();
    let gh = keeping_gh();
    let untested = finding(
        ("src/lib.rs", 5),
        "two() is untested",
        "pub fn two() -> u32 {",
    );
    let magic = finding(("src/lib.rs", 2), "one() returns a magic number", "1");
    let fake = FakeProvider::start(vec![review_of(vec![untested, magic.clone()])]);
    let out = post_from(&repo, first, &fake, &gh);
    success(&out);
    let posted: serde_json::Value =
        serde_json::from_str(&read(gh.path(), "sent-0")).expect("the first review");
    assert_eq!(
        posted["comments"].as_array().map(Vec::len),
        Some(2),
        "{posted}"
    );
    let reviewed = repo.git(&["rev-parse", "HEAD"]);

    // The push: two() goes, three() comes.
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn three() -> u32 {\n    3\n}\n",
    );
    repo.commit_all("Replace two() with three()");
    let three = finding(
        ("src/lib.rs", 5),
        "three() is untested",
        "pub fn three() -> u32 {",
    );
    let fake = FakeProvider::start(vec![review_of(vec![three, magic])]);
    let out = post_from(&repo, first, &fake, &gh);
    success(&out);
    assert!(
        stderr(&out).contains(&format!("reviewing the commits since {}", &reviewed[..7])),
        "{}",
        stderr(&out)
    );
    let request = fake.requests()[0].user_texts().join("\n");
    assert!(request.contains("Already on the pull request"), "{request}");
    assert!(
        request.contains("\"one() returns a magic number\""),
        "{request}"
    );
    assert!(
        !request.contains("\"two() is untested\""),
        "resolved: {request}"
    );
    assert!(request.contains("+pub fn three() -> u32 {"), "{request}");
    assert!(
        !request.contains("+pub fn two()"),
        "only the new commit: {request}"
    );

    let again: serde_json::Value =
        serde_json::from_str(&read(gh.path(), "sent-1")).expect("the second review");
    let comments = again["comments"].as_array().expect("comments");
    let titles: Vec<&str> = comments.iter().filter_map(|c| c["body"].as_str()).collect();
    assert_eq!(titles.len(), 1, "{again}");
    assert!(titles[0].contains("three() is untested"), "{again}");
    let body = again["body"].as_str().unwrap_or_default();
    assert!(
        body.contains("## Resolved since the last review\n\n- two() is untested (`src/lib.rs`)"),
        "{body}"
    );
    assert!(
        body.contains("1 earlier finding is still open on the pull request")
            && body.contains("1 finding already on it is not repeated"),
        "{body}"
    );
    let calls = read(gh.path(), "calls");
    assert!(
        !calls.contains("DELETE"),
        "the earlier findings stay: {calls}"
    );

    // Nothing new: no request at all.
    let fake = FakeProvider::start(vec![]);
    let out = post_from(&repo, first, &fake, &gh);
    success(&out);
    assert!(
        stderr(&out).contains("nothing new to review"),
        "{}",
        stderr(&out)
    );
    assert!(fake.requests().is_empty());
}
