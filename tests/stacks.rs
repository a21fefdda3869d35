//! Stacked pull requests end to end: a stack built with the git command line (main <- b1 <-
//! b2 <- b3), the fake provider checking that each layer's request holds that layer's change
//! only, and a fake `gh` that keeps what it was asked and answers `pr list`, `pr create` and
//! `pr edit` as gh does (its PRs are numbered from 11).

use std::path::Path;

use crate::common::agent::{approval, failure, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, fake_bin, path_with, stderr};
use serde_json::json;

/// The fake gh. `pr list --head=B` answers `list-B.json` (or `[]`); `pr create` keeps its
/// arguments and body as `created-B.*` and prints the next PR's URL; `pr edit N` keeps them
/// as `edited-N.*`. A file `fail-create-B` makes the create of B fail as gh does.
pub(crate) const GH: &str = r#"LOG=$(dirname "$0")
head=""
for a in "$@"; do case "$a" in --head=*) head="${a#--head=}";; esac; done
case "${3:-}" in -*|"") echo "$1 $2" ;; *) echo "$1 $2 $3" ;; esac >> "$LOG/calls"
case "$1 $2" in
  "pr list")
    if [ -f "$LOG/list-$head.json" ]; then cat "$LOG/list-$head.json"; else echo '[]'; fi ;;
  "pr create")
    if [ -f "$LOG/fail-create-$head" ]; then
      echo "pull request create failed: GraphQL: Head sha can't be blank (createPullRequest)" >&2
      exit 1
    fi
    n=$(cat "$LOG/n" 2>/dev/null || echo 10); n=$((n+1)); echo "$n" > "$LOG/n"
    printf '%s\n' "$@" > "$LOG/created-$head.args"
    cat > "$LOG/created-$head.body"
    echo "Creating pull request for $head in acme/app"
    echo "https://github.com/acme/app/pull/$n" ;;
  "pr edit")
    printf '%s\n' "$@" > "$LOG/edited-$3.args"
    cat > "$LOG/edited-$3.body"
    echo "https://github.com/acme/app/pull/$3" ;;
  *) echo "unknown command: $*" >&2; exit 1 ;;
esac
"#;

const TITLES: [&str; 3] = ["Parse expressions", "Evaluate expressions", "Add a REPL"];

pub(crate) fn pr_reply(title: &str) -> String {
    json!({
        "title": title, "summary": format!("{title}."), "description": "",
        "changes": [], "testing": [], "breaking_changes": [],
        "reviewer_notes": [], "related_issues": [],
    })
    .to_string()
}

/// Each titled layer's writer reply, then the critic's approval.
fn script(titles: &[&str]) -> Vec<Step> {
    titles
        .iter()
        .flat_map(|t| [Step::text(pr_reply(t)), Step::text(approval())])
        .collect()
}

/// The stack, on GitHub, every branch pushed as it is.
pub(crate) fn pushed_stack() -> TestRepo {
    let repo = TestRepo::stack();
    repo.git(&["remote", "add", "origin", "https://github.com/acme/app.git"]);
    for branch in ["main", "b1", "b2", "b3"] {
        let target = format!("refs/remotes/origin/{branch}");
        repo.git(&["update-ref", &target, branch]);
    }
    repo
}

fn env(fake: &FakeProvider, gh: &Path) -> Vec<(&'static str, String)> {
    let mut env = openai_env(fake);
    env.push(("PATH", path_with(gh).to_string_lossy().into_owned()));
    env
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The body PR `number` of `branch` has on the fake forge now: as last edited, else opened.
fn body_now(dir: &Path, branch: &str, number: u64) -> String {
    let edited = dir.join(format!("edited-{number}.body"));
    match std::fs::read_to_string(edited) {
        Ok(body) => body,
        Err(_) => read(dir, &format!("created-{branch}.body")),
    }
}

/// The user text of the writer's request for each layer (every other request is the critic's).
fn layer_requests(fake: &FakeProvider) -> Vec<String> {
    fake.requests()
        .iter()
        .step_by(2)
        .map(|r| r.user_texts().join("\n"))
        .collect()
}

#[test]
fn each_layer_is_written_from_its_own_change_and_carries_the_stack() {
    let repo = TestRepo::stack();
    repo.git(&["checkout", "-q", "b2"]);
    let fake = FakeProvider::start(script(&TITLES));
    let out = run(&repo, &["pr", "--stack"], &openai_env(&fake));
    let printed = success(&out);
    let err = stderr(&out);
    // The stack is printed before writing, read from the middle branch up and down.
    assert!(
        err.starts_with(
            "the stack on main (3 layers, bottom first):\n  1. b1 (main..b1, 2 commits)\n  \
             2. b2 (b1..b2, 1 commit)  <- HEAD\n  3. b3 (b2..b3, 1 commit)\n"
        ),
        "{err}"
    );
    // Each request holds its layer's change and nothing of the others'.
    let requests = layer_requests(&fake);
    assert_eq!(requests.len(), 3);
    let changes = ["pub fn lex()", "pub fn eval()", "pub fn repl()"];
    for (i, request) in requests.iter().enumerate() {
        for (j, change) in changes.iter().enumerate() {
            assert_eq!(
                request.contains(change),
                i == j || (i == 0 && *change == "pub fn lex()"),
                "layer {i}'s request and `{change}`:\n{request}"
            );
        }
        assert!(!(i != 0 && request.contains("pub fn parse()")), "{request}");
    }
    assert!(requests[0].contains("pub fn parse()"));
    // The layers below are named by their titles only.
    assert!(
        requests[2].contains("1. `b1`: Add the parser; Add the lexer")
            && requests[2].contains("2. `b2`: Add the evaluator")
            && requests[2].contains("It goes into `b2`, not into `main`"),
        "{}",
        requests[2]
    );
    // Each printed description carries the stack, itself marked.
    for (i, title) in TITLES.iter().enumerate() {
        assert!(printed.contains(&format!("# {title}\n")), "{printed}");
        let marked = format!("{}. **{title}** (`b{}`) ← this pull request", i + 1, i + 1);
        assert!(printed.contains(&marked), "{marked} in:\n{printed}");
    }
    assert_eq!(printed.matches("<!-- /iris:stack -->").count(), 3);
    // Every list names every layer by the title written for it, above as below.
    for (i, title) in TITLES.iter().enumerate() {
        let named = format!("{}. {title} (`b{}`)\n", i + 1, i + 1);
        assert_eq!(printed.matches(&named).count(), 2, "{named} in:\n{printed}");
    }
}

#[test]
fn create_opens_each_layer_into_the_one_below_then_links_them_all() {
    let repo = pushed_stack();
    let gh = fake_bin(&[("gh", GH)]);
    let fake = FakeProvider::start(script(&TITLES));
    let out = create(&repo, &fake, gh.path());
    success(&out);
    let dir = gh.path();
    assert_eq!(
        read(dir, "calls"),
        "pr list\npr list\npr list\npr create\npr create\npr create\npr edit 11\npr edit 12\n",
        "b3 was opened linking every layer below it: it needs no edit"
    );
    for (branch, base) in [("b1", "main"), ("b2", "b1"), ("b3", "b2")] {
        let args = read(dir, &format!("created-{branch}.args"));
        assert!(
            args.contains(&format!("--base={base}\n--head={branch}\n")),
            "{args}"
        );
    }
    // b2 was opened knowing b1's PR; the edits link every layer.
    let opened = read(dir, "created-b2.body");
    assert!(
        opened.contains("1. [Parse expressions](https://github.com/acme/app/pull/11) (`b1`)"),
        "{opened}"
    );
    let edited = read(dir, "edited-12.body");
    assert!(
        edited.contains("1. [Parse expressions](https://github.com/acme/app/pull/11) (`b1`)")
            && edited.contains("2. **Evaluate expressions** (`b2`) ← this pull request")
            && edited.contains("3. [Add a REPL](https://github.com/acme/app/pull/13) (`b3`)"),
        "{edited}"
    );
    assert_eq!(read(dir, "edited-12.args"), "pr\nedit\n12\n--body-file=-\n");
    let err = stderr(&out);
    assert!(
        err.contains("b3: created pull request https://github.com/acme/app/pull/13 (into b2)"),
        "{err}"
    );
}

/// `iris pr --stack --create` with the provider `fake` and the forge tool in `tool`.
fn create(repo: &TestRepo, fake: &FakeProvider, tool: &Path) -> std::process::Output {
    run(repo, &["pr", "--stack", "--create"], &env(fake, tool))
}

/// What gh lists for a layer whose PR was opened with `body`.
fn listed(number: u64, title: &str, body: &str, base: &str) -> String {
    json!([{
        "number": number, "url": format!("https://github.com/acme/app/pull/{number}"),
        "title": title, "body": body, "baseRefName": base,
    }])
    .to_string()
}

#[test]
fn update_rewrites_only_the_layers_that_moved_and_keeps_text_around_the_stack_block() {
    let repo = pushed_stack();
    let gh = fake_bin(&[("gh", GH)]);
    let fake = FakeProvider::start(script(&TITLES));
    success(&create(&repo, &fake, gh.path()));
    let dir = gh.path();
    // The forge now holds the three PRs as they were last edited; the user added a line by
    // hand above b1's stack block.
    let b1 =
        body_now(dir, "b1", 11).replace("<!-- iris:stack", "Tested by hand.\n\n<!-- iris:stack");
    std::fs::write(dir.join("list-b1.json"), listed(11, TITLES[0], &b1, "main")).unwrap();
    // b2's PR was rewritten by hand, its stack list deleted: the text is the user's.
    std::fs::write(
        dir.join("list-b2.json"),
        listed(12, TITLES[1], "Written by hand.", "b1"),
    )
    .unwrap();
    std::fs::write(
        dir.join("list-b3.json"),
        listed(13, TITLES[2], &body_now(dir, "b3", 13), "b2"),
    )
    .unwrap();
    std::fs::remove_file(dir.join("calls")).unwrap();
    // b3's change changes; b1 and b2 do not.
    repo.write("src/repl.rs", "pub fn repl() { loop {} }\n");
    repo.commit_all("Loop the REPL");
    repo.git(&["update-ref", "refs/remotes/origin/b3", "b3"]);
    let fake = FakeProvider::start(script(&["Add a looping REPL"]));
    let out = run(
        &repo,
        &["pr", "--stack", "--update"],
        &env(&fake, gh.path()),
    );
    let printed = success(&out);
    assert_eq!(
        fake.requests().len(),
        2,
        "one layer written, and its critic"
    );
    assert!(layer_requests(&fake)[0].contains("loop {}"));
    assert!(printed.contains("# Add a looping REPL"), "{printed}");
    let err = stderr(&out);
    assert!(
        err.contains("b1: its change is the one its description was written for: kept"),
        "{err}"
    );
    // b1 keeps its hand-written line; its list shows b3's new title.
    let b1_now = read(dir, "edited-11.body");
    assert!(
        b1_now.contains("Tested by hand.\n\n<!-- iris:stack"),
        "{b1_now}"
    );
    assert!(
        b1_now.contains("3. [Add a looping REPL](https://github.com/acme/app/pull/13) (`b3`)"),
        "{b1_now}"
    );
    assert!(
        err.contains("b2: its pull request has no stack list of Iris', so its text is yours: kept"),
        "{err}"
    );
    let b2_now = read(dir, "edited-12.body");
    assert!(
        b2_now.starts_with("Written by hand.\n\n<!-- iris:stack change="),
        "{b2_now}"
    );
    assert_eq!(
        read(dir, "edited-13.args"),
        "pr\nedit\n13\n--body-file=-\n--title=Add a looping REPL\n"
    );
    assert!(
        err.contains(
            "b3: updated pull request https://github.com/acme/app/pull/13 (description re-written)"
        ),
        "{err}"
    );
    assert!(!read(dir, "calls").contains("pr create"));
}

#[test]
fn a_stack_the_remote_does_not_have_as_it_is_here_stops_before_any_request() {
    let repo = pushed_stack();
    // main is two commits ahead of origin's, b2 is not on origin, and origin's b3 is another
    // commit (b3 was rebased here): only a forced push replaces it.
    repo.git(&["checkout", "-q", "main"]);
    for n in ["1", "2"] {
        repo.write(&format!("notes/{n}.md"), n);
        repo.commit_all(&format!("Note {n}"));
    }
    repo.git(&["rebase", "-q", "--update-refs", "main", "b3"]);
    repo.git(&["update-ref", "refs/remotes/origin/b1", "b1"]);
    repo.git(&["update-ref", "-d", "refs/remotes/origin/b2"]);
    let elsewhere = repo.git(&["commit-tree", "main^{tree}", "-p", "main", "-m", "old b3"]);
    repo.git(&["update-ref", "refs/remotes/origin/b3", elsewhere.trim()]);
    let gh = fake_bin(&[("gh", GH)]);
    let fake = FakeProvider::start(script(&TITLES));
    for publish in ["--create", "--update"] {
        let out = run(&repo, &["pr", "--stack", publish], &env(&fake, gh.path()));
        let line = failure(&out, 2);
        for said in [
            "origin does not have the stack as it is here, so nothing was written or published: \
             main (origin has an older commit of it), b2 (not on origin), b3 (origin has it \
             elsewhere, rebased here?)",
            "push with `git push origin main` and `git push -u origin b2` and \
             `git push --force-with-lease origin b3`; then publish again",
        ] {
            assert!(line.contains(said), "{said} in:\n{line}");
        }
        assert!(!line.contains("b1 ("), "{line}");
    }
    assert!(fake.requests().is_empty(), "no request is spent");
    assert!(!gh.path().join("calls").exists(), "gh was not asked");
}

/// The stack with a bare repository as `origin`, nothing pushed to it.
fn stack_with_a_bare_origin() -> (TestRepo, tempfile::TempDir) {
    let repo = TestRepo::stack();
    let bare = tempfile::tempdir().unwrap();
    repo.git(&["init", "-q", "--bare", &bare.path().to_string_lossy()]);
    repo.git(&["remote", "add", "origin", &bare.path().to_string_lossy()]);
    (repo, bare)
}

#[test]
fn create_with_nothing_pushed_spends_nothing_and_the_push_said_makes_the_remote_ready() {
    let (repo, _bare) = stack_with_a_bare_origin();
    let gh = fake_bin(&[("gh", GH)]);
    let fake = FakeProvider::start(script(&TITLES));
    let out = create(&repo, &fake, gh.path());
    failure(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("push with `git push -u origin main b1 b2 b3`"),
        "{err}"
    );
    assert!(fake.requests().is_empty(), "no request is spent");
    // The push said is the one that makes the remote ready: what stops it now is the forge.
    repo.git(&["push", "-q", "-u", "origin", "main", "b1", "b2", "b3"]);
    let out = create(&repo, &fake, gh.path());
    let line = failure(&out, 1);
    assert!(line.contains("neither GitHub nor GitLab"), "{line}");
    assert!(!stderr(&out).contains("does not have the stack"));
}

#[test]
fn a_stack_without_a_remote_to_read_stops_before_any_request() {
    let repo = TestRepo::stack();
    let fake = FakeProvider::start(script(&TITLES));
    let out = run(&repo, &["pr", "--stack", "--create"], &openai_env(&fake));
    let line = failure(&out, 2);
    assert!(
        line.contains("the remote cannot be read: this repository has no remote"),
        "{line}"
    );
    assert!(fake.requests().is_empty());
}

#[test]
fn a_failure_half_way_says_which_requests_exist_and_the_text_is_on_stdout() {
    let repo = pushed_stack();
    let gh = fake_bin(&[("gh", GH)]);
    std::fs::write(gh.path().join("fail-create-b3"), "").unwrap();
    let fake = FakeProvider::start(script(&TITLES));
    let out = create(&repo, &fake, gh.path());
    let line = failure(&out, 1);
    assert!(
        line.contains("these exist: b1 https://github.com/acme/app/pull/11, b2 https://github.com/acme/app/pull/12")
            && line.contains("Head sha can't be blank"),
        "{line}"
    );
    let printed = crate::common::stdout(&out);
    for title in TITLES {
        assert!(printed.contains(&format!("# {title}")), "{printed}");
    }
}

#[test]
fn a_detached_head_is_told_to_check_out_a_branch() {
    let repo = TestRepo::stack();
    repo.git(&["checkout", "-q", "--detach", "b2"]);
    let fake = FakeProvider::start(Vec::new());
    let line = failure(&run(&repo, &["pr", "--stack"], &openai_env(&fake)), 2);
    assert!(line.contains("HEAD is not on one"), "{line}");
}

/// The fake glab: as the fake gh, with glab's verbs and the description as an argument.
const GLAB: &str = r#"LOG=$(dirname "$0")
head=""
for a in "$@"; do case "$a" in --source-branch=*) head="${a#--source-branch=}";; esac; done
case "${3:-}" in -*|"") echo "$1 $2" ;; *) echo "$1 $2 $3" ;; esac >> "$LOG/calls"
case "$1 $2" in
  "mr list") echo '[]' ;;
  "mr create")
    n=$(cat "$LOG/n" 2>/dev/null || echo 0); n=$((n+1)); echo "$n" > "$LOG/n"
    printf '%s\n' "$@" > "$LOG/created-$head.args"
    echo "!$n $head"
    echo " https://gitlab.com/acme/app/-/merge_requests/$n" ;;
  "mr update")
    printf '%s\n' "$@" > "$LOG/edited-$3.args"
    echo " https://gitlab.com/acme/app/-/merge_requests/$3" ;;
  *) echo "unknown command: $*" >&2; exit 1 ;;
esac
"#;

#[test]
fn on_gitlab_each_layer_is_a_merge_request_into_the_one_below() {
    let repo = pushed_stack();
    repo.git(&["remote", "set-url", "origin", "git@gitlab.com:acme/app.git"]);
    let glab = fake_bin(&[("glab", GLAB)]);
    let fake = FakeProvider::start(script(&TITLES));
    let out = create(&repo, &fake, glab.path());
    success(&out);
    let dir = glab.path();
    assert_eq!(
        read(dir, "calls"),
        "mr list\nmr list\nmr list\nmr create\nmr create\nmr create\nmr update 1\nmr update 2\n"
    );
    let b2 = read(dir, "created-b2.args");
    assert!(
        b2.contains("--yes\n--target-branch=b1\n--source-branch=b2\n"),
        "{b2}"
    );
    let edited = read(dir, "edited-1.args");
    assert!(
        edited.contains(
            "2. [Evaluate expressions](https://gitlab.com/acme/app/-/merge_requests/2) (`b2`)"
        ),
        "{edited}"
    );
    assert!(
        stderr(&out).contains(
            "b3: created merge request https://gitlab.com/acme/app/-/merge_requests/3 (into b2)"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_prints_a_line_a_layer_and_the_dry_run_shows_the_first_layers_request() {
    let repo = TestRepo::stack();
    let fake = FakeProvider::start(script(&TITLES));
    let printed = success(&run(
        &repo,
        &["pr", "--stack", "--json"],
        &openai_env(&fake),
    ));
    let lines: Vec<serde_json::Value> = printed
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["branch"], "b2");
    assert_eq!(lines[1]["base"], "b1");
    assert_eq!(lines[1]["pr"]["title"], "Evaluate expressions");
    assert_eq!(lines[1]["change"].as_str().map(str::len), Some(12));
    let fake = FakeProvider::start(Vec::new());
    let shown = success(&run(
        &repo,
        &["pr", "--stack", "--dry-run"],
        &openai_env(&fake),
    ));
    assert!(fake.requests().is_empty());
    assert!(
        shown.contains("It is the bottom layer: it goes into `main`")
            && shown.contains("pub fn lex()"),
        "{shown}"
    );
}

#[test]
fn a_forge_tool_that_answers_no_json_list_stops_before_anything_is_opened() {
    let repo = pushed_stack();
    let gh = fake_bin(&[(
        "gh",
        "echo \"$1 $2\" >> \"$(dirname \"$0\")/calls\"; echo 'unknown flag: --json'",
    )]);
    let fake = FakeProvider::start(Vec::new());
    let line = failure(&create(&repo, &fake, gh.path()), 1);
    assert!(
        line.contains("gh pr list answered with no JSON list for b1 (unknown flag: --json)"),
        "{line}"
    );
    assert_eq!(read(gh.path(), "calls"), "pr list\n");
    assert!(
        fake.requests().is_empty(),
        "nothing written before the lookup"
    );
}

#[test]
fn a_merged_layer_is_left_as_it_is_and_linked() {
    let repo = pushed_stack();
    let gh = fake_bin(&[("gh", GH)]);
    let merged = json!([{
        "number": 5, "url": "https://github.com/acme/app/pull/5", "title": "Parse it all",
        "body": "Merged text.", "baseRefName": "main", "state": "MERGED",
    }]);
    std::fs::write(gh.path().join("list-b1.json"), merged.to_string()).unwrap();
    let fake = FakeProvider::start(script(&TITLES[1..]));
    let out = create(&repo, &fake, gh.path());
    success(&out);
    assert_eq!(
        fake.requests().len(),
        4,
        "b2 and b3 written, each with its critic"
    );
    let dir = gh.path();
    let calls = read(dir, "calls");
    assert!(!calls.contains("pr edit 5"), "{calls}");
    assert_eq!(calls.matches("pr create").count(), 2, "{calls}");
    let b2 = read(dir, "created-b2.body");
    assert!(
        b2.contains("1. [Parse it all](https://github.com/acme/app/pull/5) (`b1`)"),
        "{b2}"
    );
    let err = stderr(&out);
    assert!(
        err.contains(
            "b1: pull request https://github.com/acme/app/pull/5 is merged: left as it is"
        ),
        "{err}"
    );
}
