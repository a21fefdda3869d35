//! A revision that names no commit is the user's typo: every command that takes one fails at
//! once with exit 2, naming it (and the branch or tag it is likeliest a typo of), and sends
//! nothing to the provider.

use crate::common::agent::{openai_env, released_repo, run};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{Iris, TestRepo, stderr};

#[test]
fn an_unknown_revision_fails_at_once_naming_it_and_sends_nothing() {
    let repo = released_repo();
    let fake = FakeProvider::start(vec![Step::text("never asked")]);
    let env = openai_env(&fake);
    for args in [
        &["review", "--commit", "nosuch"][..],
        &["review", "--from", "v0.1.0", "--to", "nosuch"],
        &["changelog", "--from", "nosuch"],
        &["release-notes", "--from", "v0.1.0", "--to", "nosuch"],
        &["pr", "--from", "nosuch"],
        &["gen", "--check", "--rev", "nosuch"],
        &["studio", "--from", "nosuch"],
        &["eval", "--commits", "nosuch"],
        &["eval", "--range", "nosuch..HEAD"],
    ] {
        let started = std::time::Instant::now();
        let out = run(&repo, args, &env);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(
                "error: unknown revision 'nosuch': it does not name a commit in this repository"
            ),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(
            started.elapsed().as_secs() < 10,
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
    assert!(fake.requests().is_empty(), "a typo reached the provider");
}

#[test]
fn a_typo_of_a_branch_or_tag_names_the_likely_one() {
    let repo = released_repo();
    let fake = FakeProvider::start(vec![]);
    let env = openai_env(&fake);
    let out = run(&repo, &["changelog", "--from", "v0.1.O"], &env);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown revision 'v0.1.O'")
            && stderr(&out).contains("(did you mean 'v0.1.0'?)"),
        "{}",
        stderr(&out)
    );
    let out = run(&repo, &["review", "--commit", "mian"], &env);
    assert!(
        stderr(&out).contains("(did you mean 'main'?)"),
        "{}",
        stderr(&out)
    );
    assert!(fake.requests().is_empty());
}

#[test]
fn lines_that_are_not_there_are_a_usage_error_before_any_request() {
    let repo = released_repo();
    let fake = FakeProvider::start(vec![Step::text("never asked")]);
    let env = openai_env(&fake);
    for (args, says) in [
        (
            &["blame", "nosuch.rs:1-3"][..],
            "'nosuch.rs' is not a file committed at HEAD",
        ),
        (&["blame", "src/lib.rs:50-60"], "line 50 is past the end"),
        (&["explain", "nosuch.rs"], "'nosuch.rs' does not exist"),
    ] {
        let out = run(&repo, args, &env);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    assert!(fake.requests().is_empty());
}

/// `iris explain` and `iris blame` read a path as git does, relative to where the user
/// stands, and their errors say so.
#[test]
fn explain_and_blame_read_a_path_from_the_current_directory() {
    let repo = released_repo();
    let from_src = |args: &[&str]| {
        let mut iris = repo.isolated_iris(args);
        iris.current_dir(repo.path().join("src"))
            .env("IRIS_PROVIDER", "openai")
            .env("OPENAI_API_KEY", "sk-unused");
        iris.output().expect("run iris")
    };
    for args in [
        &["explain", "lib.rs", "--dry-run"][..],
        &["blame", "lib.rs:1-3", "--dry-run"],
        &["blame", "../src/lib.rs:2", "--dry-run"],
    ] {
        let out = from_src(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("src/lib.rs"),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    for (args, says) in [
        (
            &["explain", "src/lib.rs"][..],
            "'src/lib.rs' does not exist",
        ),
        (
            &["blame", "src/lib.rs:1-3"],
            "'src/lib.rs' is not a file committed at HEAD",
        ),
    ] {
        let out = from_src(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!(
                "{says}: paths are relative to the current directory, as git reads them (from \
                 here it is 'src/src/lib.rs' in the repository)"
            )),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// A shallow CI checkout of one branch does not hold the base: the error says so and how to
/// fetch it, instead of calling the branch unknown.
#[test]
fn a_base_missing_from_a_shallow_clone_is_said_with_how_to_fetch_it() {
    let source = TestRepo::new();
    source.write("a.txt", "one\n");
    source.commit_all("First");
    source.write("a.txt", "two\n");
    source.commit_all("Second");
    source.git(&["checkout", "-q", "-b", "feature"]);
    source.write("b.txt", "feature\n");
    source.commit_all("Feature work");
    let clone = source.home().join("shallow");
    let url = format!("file://{}", source.path().display());
    let out = source.git_in(
        source.home(),
        &[
            "clone", "-q", "--depth", "1", "--branch", "feature", &url, "shallow",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut review = source.isolated_iris(&["review", "--from", "main", "--dry-run"]);
    review
        .current_dir(&clone)
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", "sk-unused");
    let out = review.output().expect("run iris");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains("unknown revision 'main'")
            && said.contains("shallow clone")
            && said.contains("fetch-depth: 0"),
        "{said}"
    );

    // Without --from, the clone's only branch is its own base: said, not sent.
    let mut pr = source.isolated_iris(&["pr", "--dry-run"]);
    pr.current_dir(&clone)
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", "sk-unused");
    let out = pr.output().expect("run iris");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("holds no commit") && stderr(&out).contains("fetch-depth: 0"),
        "{}",
        stderr(&out)
    );
}

/// A range without commits, or no change at all, is a request about nothing: every command
/// refuses it with the same words and exit 2, before the provider hears of it. A range of
/// merges only is not empty.
#[test]
fn a_range_without_commits_or_an_empty_change_is_refused_before_any_request() {
    let repo = released_repo();
    let fake = FakeProvider::start(vec![Step::text("never asked")]);
    let env = openai_env(&fake);
    for args in [
        &["changelog", "--from", "HEAD", "--to", "HEAD"][..],
        &["release-notes", "--from", "HEAD", "--to", "HEAD"],
        &["review", "--from", "HEAD"],
        &["pr", "--from", "HEAD"],
    ] {
        let out = run(&repo, args, &env);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("HEAD..HEAD holds no commit: there is nothing to write about"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    for (args, says) in [
        (&["review"][..], "nothing is staged to review"),
        (
            &["review", "--include-unstaged"],
            "nothing has changed to review",
        ),
        (&["gen"], "nothing is staged"),
    ] {
        let out = run(&repo, args, &env);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    assert!(
        fake.requests().is_empty(),
        "a request about nothing was sent"
    );

    // A merge of a branch already on top of main: `feature..main` holds the merge alone.
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("b.txt", "b\n");
    repo.commit_all("Add b");
    repo.git(&["checkout", "-q", "main"]);
    repo.git(&["merge", "-q", "--no-ff", "-m", "Merge feature", "feature"]);
    let out = run(
        &repo,
        &["changelog", "--from", "feature", "--dry-run"],
        &env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // HEAD's own change with nothing staged is what --amend writes for.
    let out = run(&repo, &["gen", "--amend", "--dry-run"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(fake.requests().is_empty(), "a dry run sent a request");
}
