//! `iris eval` end to end: the real binary replays commits of a temporary repository of a
//! dozen commits against the fake provider, and the user's repository stays as it was.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::agent::{commit_json, openai_env, run, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{Iris, TestRepo, stderr, stdout};

/// What Iris answers for every commit.
const ANSWER: &str = "Add the module";

/// Twelve commits, each adding `src/mNN.rs` with the marker `diff-marker-NN` in it. Titles
/// are "Add zebraNN module" and bodies "Body okapiNN words.", so a request that holds a
/// commit's message shows it; the last three are shaped for hand-computed scores:
/// - 12: "Add the module" with a body: title distance 0, whole 3 deleted of 6 = 0.5;
/// - 11: "Add zebra11 module" with a body: title 1/3, whole 4/6;
/// - 10: "Add zebra10 module" without one: 1/3 both.
fn history() -> TestRepo {
    let repo = TestRepo::new();
    for n in 1..=12 {
        repo.write(
            &format!("src/m{n:02}.rs"),
            format!("pub const MARK: &str = \"diff-marker-{n:02}\";\n"),
        );
        let title = if n == 12 {
            "Add the module".to_string()
        } else {
            format!("Add zebra{n:02} module")
        };
        let message = if n == 10 {
            title
        } else {
            format!("{title}\n\nBody okapi{n:02} words.")
        };
        repo.commit_all(&message);
    }
    repo
}

/// Everything of the user's repository eval must leave alone.
fn snapshot(repo: &TestRepo) -> Vec<String> {
    let read = |path: PathBuf| {
        std::fs::read(&path)
            .map(|b| format!("{b:?}"))
            .unwrap_or_default()
    };
    vec![
        repo.git(&[
            "status",
            "--porcelain=v2",
            "--branch",
            "--untracked-files=all",
        ]),
        repo.git(&["ls-files", "--stage"]),
        repo.git(&["for-each-ref"]),
        repo.git(&["stash", "list"]),
        repo.git(&["worktree", "list", "--porcelain"]),
        read(repo.path().join(".git/index")),
        read(repo.path().join(".git/HEAD")),
        read(repo.path().join("src/m01.rs")),
        read(repo.path().join("src/m02.rs")),
        read(repo.path().join("notes.txt")),
    ]
}

/// The user is in the middle of things: a stash, a staged and an unstaged change, an
/// untracked file, a branch, a tag, a note and a remote ref on later commits.
fn busy(repo: &TestRepo) {
    repo.write("src/m01.rs", "stashed\n");
    repo.git(&["stash", "push", "-q"]);
    repo.write("src/m01.rs", "staged\n");
    repo.git(&["add", "src/m01.rs"]);
    repo.write("src/m02.rs", "unstaged\n");
    repo.write("notes.txt", "untracked\n");
    repo.git(&["branch", "topic", "HEAD~1"]);
    repo.git(&["tag", "v1", "HEAD"]);
    repo.git(&["notes", "add", "-m", "a note about zebra12", "HEAD"]);
    repo.git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn close(value: &Value, expected: f64) -> bool {
    value.as_f64().is_some_and(|v| (v - expected).abs() < 1e-9)
}

#[test]
fn eval_scores_each_message_against_its_authors_and_leaves_the_repository_as_it_was() {
    let repo = history();
    busy(&repo);
    let before = snapshot(&repo);
    let fake = FakeProvider::start(vec![Step::Repeat(Box::new(Step::text(commit_json(
        ANSWER, "",
    ))))]);
    let out = run(
        &repo,
        &["eval", "--last", "3", "--json"],
        &openai_env(&fake),
    );
    let lines = json_lines(&success(&out));
    assert_eq!(snapshot(&repo), before, "the user's repository changed");

    // The choice is said first, on stderr.
    let err = stderr(&out);
    assert!(
        err.contains("evaluating 3 commit(s), the last 3 non-merge commits of HEAD"),
        "{err}"
    );
    assert_eq!(lines.len(), 4, "three commits and a summary");
    // Beside the scores, what each first request held of the author's message: the
    // commits' messages name no code here, and the summary says so.
    assert_eq!(lines[0]["evidence_terms"], 0, "{}", lines[0]);
    assert_eq!(lines[3]["evidence"]["terms"], 0, "{}", lines[3]);
    let titles: Vec<&str> = lines[..3]
        .iter()
        .map(|l| l["author_title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["Add the module", "Add zebra11 module", "Add zebra10 module"]
    );
    for line in &lines[..3] {
        assert_eq!(line["iris_title"], ANSWER);
        assert_eq!(line["failure"], Value::Null);
        assert_eq!(line["requests"], 1);
    }
    assert!(close(&lines[0]["distance"], 0.5) && close(&lines[0]["title_distance"], 0.0));
    assert!(
        close(&lines[1]["distance"], 4.0 / 6.0) && close(&lines[1]["title_distance"], 1.0 / 3.0)
    );
    assert!(
        close(&lines[2]["distance"], 1.0 / 3.0) && close(&lines[2]["title_distance"], 1.0 / 3.0)
    );
    assert_eq!(lines[0]["body_where_author"], false);
    assert_eq!(lines[2]["body_where_author"], Value::Null);

    let summary = &lines[3]["summary"];
    assert_eq!(summary["written"], 3);
    assert!(close(&summary["median_distance"], 0.5), "{summary}");
    assert!(close(&summary["mean_distance"], 0.5), "{summary}");
    assert!(
        close(&summary["median_title_distance"], 1.0 / 3.0),
        "{summary}"
    );
    assert_eq!(lines[3]["variant"], "gpt-5");

    // No request held an evaluated commit's message or a later one's (its diff marker says
    // which commit a request was for: later files do not exist yet).
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    for request in &requests {
        let body = &request.raw_body;
        let commit = (1..=12)
            .rev()
            .find(|n| body.contains(&format!("diff-marker-{n:02}")))
            .expect("the request holds its commit's diff");
        for later in commit..=12 {
            for token in [format!("zebra{later:02}"), format!("okapi{later:02}")] {
                assert!(
                    !body.contains(&token),
                    "the request for commit {commit} holds {token}"
                );
            }
        }
        // The history it was shown ends at the parent.
        if commit > 1 {
            assert!(
                body.contains(&format!("zebra{:02}", commit - 1)),
                "commit {commit}"
            );
        }
    }
}

#[test]
fn the_table_names_the_commits_and_the_summary_and_merges_and_bots_are_skipped() {
    let repo = history();
    // A bot's commit and a merge on top.
    repo.write("src/bot.rs", "bump\n");
    repo.git(&["add", "-A"]);
    repo.git(&[
        "-c",
        "user.name=dependabot[bot]",
        "-c",
        "user.email=bot@example.com",
        "commit",
        "-q",
        "-m",
        "Bump things",
    ]);
    repo.git(&["checkout", "-q", "-b", "side", "HEAD~2"]);
    repo.write("src/side.rs", "side\n");
    repo.commit_all("Add a side file");
    repo.git(&["checkout", "-q", "-"]);
    repo.git(&["merge", "-q", "--no-ff", "-m", "Merge side", "side"]);
    let fake = FakeProvider::start(vec![Step::Repeat(Box::new(Step::text(commit_json(
        ANSWER, "",
    ))))]);
    let out = run(
        &repo,
        &["eval", "--last", "2", "--skip-authors", r"\[bot\]"],
        &openai_env(&fake),
    );
    let table = success(&out);
    let err = stderr(&out);
    assert!(
        err.contains("author dependabot[bot] <bot@example.com> is skipped"),
        "{err}"
    );
    assert!(
        !err.contains("Merge side"),
        "a merge is no candidate: {err}"
    );
    let rows: Vec<&str> = table.lines().collect();
    assert!(rows[0].starts_with("commit"), "{table}");
    assert!(
        rows[1].contains("Add a side file") && rows[1].contains(ANSWER),
        "{table}"
    );
    assert!(
        rows[2].contains("Add the module") && rows[2].contains("0.50"),
        "{table}"
    );
    assert!(table.contains("summary: 2/2 written (100%)"), "{table}");
}

#[test]
fn a_baseline_gates_a_worse_run_and_passes_an_equal_one() {
    let repo = history();
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.jsonl");
    let answer = |title: &str| Step::Repeat(Box::new(Step::text(commit_json(title, ""))));
    let fake = FakeProvider::start(vec![answer(ANSWER)]);
    let out = run(
        &repo,
        &["eval", "--last", "3", "--json"],
        &openai_env(&fake),
    );
    std::fs::write(&baseline, success(&out)).unwrap();
    let gate = [
        "eval",
        "--last",
        "3",
        "--baseline",
        baseline.to_str().unwrap(),
    ];

    let same = FakeProvider::start(vec![answer(ANSWER)]);
    let out = run(&repo, &gate, &openai_env(&same));
    success(&out);
    assert!(
        stderr(&out).contains("no worse than the baseline"),
        "{}",
        stderr(&out)
    );

    let worse = FakeProvider::start(vec![answer("Rewrite everything from scratch today")]);
    let out = run(&repo, &gate, &openai_env(&worse));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("worse than the baseline (gpt-5): median distance"),
        "{}",
        stderr(&out)
    );

    // A provider that fails every commit writes fewer messages.
    let failing = FakeProvider::start(vec![Step::Repeat(Box::new(Step::error(500)))]);
    let out = run(&repo, &gate, &openai_env(&failing));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("fewer messages written: 0/3"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("(none: provider)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn models_are_compared_side_by_side() {
    let repo = history();
    let fake = FakeProvider::start(vec![Step::Repeat(Box::new(Step::text(commit_json(
        ANSWER, "",
    ))))]);
    let out = run(
        &repo,
        &["eval", "--last", "2", "--models", "m-one,m-two", "--json"],
        &openai_env(&fake),
    );
    let lines = json_lines(&success(&out));
    let variants: Vec<&str> = lines
        .iter()
        .map(|l| l["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        variants,
        ["m-one", "m-two", "m-one", "m-two", "m-one", "m-two"]
    );
    let models: Vec<String> = fake
        .requests()
        .iter()
        .map(|r| r.body["model"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(models, ["m-one", "m-two", "m-one", "m-two"]);
}

#[test]
fn bad_input_is_refused_before_anything_runs() {
    let repo = history();
    let fake = FakeProvider::start(vec![]);
    for (args, says) in [
        (vec!["eval", "--range", "HEAD"], "--range takes FROM..TO"),
        (
            vec!["eval", "--skip-authors", "("],
            "--skip-authors is not a regular expression",
        ),
        (
            vec!["eval", "--commits", "nosuch"],
            "unknown revision 'nosuch'",
        ),
        (
            vec!["eval", "--baseline", "/nonexistent/base.jsonl"],
            "cannot read the baseline",
        ),
    ] {
        let out = run(&repo, &args, &openai_env(&fake));
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    assert!(fake.requests().is_empty());
}

/// The replay directories left in `tmp`.
fn replays(tmp: &Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with("iris-eval-"))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_leaves_no_replay_behind_and_the_repository_as_it_was() {
    let repo = history();
    busy(&repo);
    let before = snapshot(&repo);
    let tmp = tempfile::tempdir().unwrap();
    let fake = FakeProvider::start(vec![Step::Slow {
        delay_ms: 5_000,
        then: Box::new(Step::text(commit_json(ANSWER, ""))),
    }]);
    let mut env: Vec<(&str, String)> = openai_env(&fake);
    env.push(("TMPDIR", tmp.path().display().to_string()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let child = repo.spawn_bin(
        Path::new(crate::common::IRIS),
        &["eval", "--last", "2"],
        &env,
        "",
    );
    let start = Instant::now();
    while fake.requests().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no request was sent"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        replays(tmp.path()).len(),
        1,
        "the replay is in the temporary directory"
    );
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    assert!(
        replays(tmp.path()).is_empty(),
        "left behind: {:?}",
        replays(tmp.path())
    );
    assert_eq!(snapshot(&repo), before);
}

#[test]
fn a_shallow_clone_is_evaluated_as_far_as_its_history_goes_and_says_why() {
    let origin = history();
    let repo = TestRepo::new();
    let url = format!("file://{}", origin.path().display());
    repo.git(&["clone", "-q", "--depth", "2", &url, "clone"]);
    let fake = FakeProvider::start(vec![Step::Repeat(Box::new(Step::text(commit_json(
        ANSWER, "",
    ))))]);
    let env: Vec<(&str, String)> = openai_env(&fake);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // In the clone, below the test repository's root.
    let mut command = std::process::Command::new(crate::common::IRIS);
    command.args(["eval", "--last", "5", "--json"]);
    repo.in_env(&mut command, &repo.path().join("clone"));
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if crate::common::IRIS_ENV_PREFIXES
            .iter()
            .any(|p| name.starts_with(p))
        {
            command.env_remove(name.as_ref());
        }
    }
    command.envs(env.iter().copied());
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("evaluating 1 commit(s)"), "{err}");
    assert!(
        err.contains("not in this shallow clone (`git fetch --unshallow`"),
        "{err}"
    );
    assert_eq!(json_lines(&stdout(&out)).len(), 2);
}

/// `--evidence` asks no model: with no provider configured and no key, each commit's first
/// request is built and measured against its author's message, and nothing is sent.
#[test]
fn evidence_measures_the_first_request_against_the_authors_message_without_a_model() {
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/parser.rs",
        "pub fn parse_header(line: &str) -> Option<&str> {\n    line.strip_prefix(\"# \")\n}\n",
    );
    repo.commit_all("Add `parse_header` to src/parser.rs (#4242)\n\nIt reads a header line.");
    repo.write("notes.txt", "plain words\n");
    repo.commit_all("Write some notes");
    let before = repo.git(&["rev-parse", "HEAD"]);

    let out = repo.iris_env(&["eval", "--evidence", "--last", "2", "--json"], &[], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out));
    assert_eq!(lines.len(), 3, "{}", stdout(&out));
    // Newest first: the notes name nothing; the parser's message names three terms, of which
    // the request holds the function and the path, not the issue number.
    assert_eq!(lines[0]["terms"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        lines[1]["terms"],
        serde_json::json!(["parse_header", "src/parser.rs", "4242"])
    );
    assert_eq!(
        lines[1]["found"],
        serde_json::json!(["parse_header", "src/parser.rs"])
    );
    assert!(close(&lines[1]["recall"], 2.0 / 3.0), "{}", lines[1]);
    let parts = lines[1]["parts"].as_array().expect("parts");
    assert!(
        parts
            .iter()
            .any(|p| p["name"] == "evidence" && p["tokens"].as_u64() > Some(0)),
        "{parts:?}"
    );
    let summary = &lines[2];
    assert_eq!(summary["measured"], 2);
    assert_eq!(summary["with_terms"], 1);
    assert_eq!(
        repo.git(&["rev-parse", "HEAD"]),
        before,
        "the repository is as it was"
    );
}

/// A commit that gets `sub` wrong (line 6 of src/calc.rs), one that only writes notes (the
/// clean commit: no fix blames a line to it), the fix of line 6, and a fix that only adds a
/// file.
fn fixed_history() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "src/calc.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    repo.commit_all("Initial commit");
    repo.write(
        "src/calc.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n\
         pub fn twice(a: i32) -> i32 {\n    let doubled = a * 2;\n    let result = doubled;\n    \
         let unused = 0;\n    let _ = unused;\n    result\n}\n",
    );
    repo.commit_all("Add sub and twice");
    repo.write("notes.txt", "notes\n");
    repo.commit_all("Write notes");
    let fixed = std::fs::read_to_string(repo.path().join("src/calc.rs"))
        .unwrap()
        .replacen(
            "}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a + b",
            "}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b",
            1,
        );
    repo.write("src/calc.rs", &fixed);
    repo.commit_all("Fix sub: subtract instead of adding");
    repo.write("build.toml", "[build]\n");
    repo.commit_all("Fix the build with a config file");
    repo
}

/// `--reviews`: a later fix points at the line the reviewed commit got wrong; a finding on it
/// hits, one elsewhere misses, and the review never sees the fix.
#[test]
fn reviews_are_scored_on_the_lines_a_later_commit_fixed() {
    let repo = fixed_history_without_critic();

    let finding = |line: u32| {
        serde_json::json!({"severity": "high", "file": "src/calc.rs", "line": line,
            "end_line": null, "title": "Look here", "body": "Because.", "suggestion": null,
            "confidence": 90, "quote": null})
    };
    let review = serde_json::json!({"summary": "Adds sub and twice.",
        "findings": [finding(6), finding(14)], "strengths": []})
    .to_string();
    // Then the clean commit's review, which finds nothing.
    let fake = FakeProvider::start(vec![Step::text(review), Step::text(review_of(&[]))]);
    let out = run(&repo, &["eval", "--reviews", "--json"], &openai_env(&fake));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("it changes no earlier line"),
        "the fix that only adds a file is skipped, saying why: {}",
        stderr(&out)
    );
    let lines = json_lines(&stdout(&out));
    assert_eq!(lines.len(), 3, "{}", stdout(&out));
    let row = &lines[0];
    assert_eq!(row["side"], "fix");
    assert_eq!(row["title"], "Fix sub: subtract instead of adding");
    assert_eq!(row["fixed_lines"], serde_json::json!([["src/calc.rs", 6]]));
    let hit: Vec<bool> = row["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["hit"].as_bool().unwrap())
        .collect();
    assert_eq!(hit, [true, false]);
    assert_eq!(row["hit"], true);
    assert_eq!(lines[1]["side"], "clean");
    let summary = &lines[2];
    assert_eq!(summary["reviewed"], 1);
    assert_eq!(summary["hit_rate"], 1.0);
    assert_eq!(summary["finding_hit_share"], 0.5);
    // Iris reviewed the commit that wrote the line, before the fix existed (and the clean
    // one too).
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].user_texts().join("\n").contains("+    a + b"));
    for request in &requests {
        let asked = request.user_texts().join("\n");
        assert!(
            !asked.contains("a - b") && !asked.contains("subtract"),
            "{asked}"
        );
    }
    // Against that run as the baseline, reviews that find only the other line are worse (and
    // flag the clean commit too).
    let baseline = repo.home().join("reviews.jsonl");
    std::fs::write(&baseline, stdout(&out)).expect("write baseline");
    let missing = serde_json::json!({"summary": "Adds sub and twice.",
        "findings": [finding(14)], "strengths": []})
    .to_string();
    let worse = FakeProvider::start(vec![Step::repeat(Step::text(missing))]);
    let out = run(
        &repo,
        &[
            "eval",
            "--reviews",
            "--baseline",
            baseline.to_str().unwrap(),
        ],
        &openai_env(&worse),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("worse than the baseline") && stderr(&out).contains("hit rate 0%"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("hit rate 0%"), "{}", stdout(&out));

    // A history without fixes is said, with the pattern used.
    let out = run(
        &repo,
        &["eval", "--reviews", "--fixes", "^Revert"],
        &openai_env(&fake),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no message matches `^Revert`"),
        "{}",
        stderr(&out)
    );
}

/// [`fixed_history`] where a review is one request: no critic checks it (each review's
/// reply is then the next step of the script).
fn fixed_history_without_critic() -> TestRepo {
    let repo = fixed_history();
    repo.write(".irisconfig", "critic_enabled = false\n");
    repo
}

/// A review whose findings are at these (file, line).
fn review_of(findings: &[(&str, u32)]) -> String {
    let findings: Vec<Value> = findings
        .iter()
        .map(|(file, line)| {
            serde_json::json!({"severity": "medium", "file": file, "line": line,
                "end_line": null, "title": "Look here", "body": "Because.", "suggestion": null,
                "confidence": 90, "quote": null})
        })
        .collect();
    serde_json::json!({"summary": "A change.", "findings": findings, "strengths": []}).to_string()
}

/// The clean side: the commit no later fix points at is replayed and reviewed as the fix's
/// introducing commit is, its row marked clean, and its findings per review summed up beside
/// the hit rate; fixes and the commit a fix was traced to are never taken as clean.
#[test]
fn the_clean_side_is_reviewed_beside_the_fixes_and_its_findings_counted() {
    let repo = fixed_history_without_critic();
    let notes = repo.git(&["rev-parse", "HEAD~2"]).trim().to_string();
    let fake = FakeProvider::start(vec![
        Step::text(review_of(&[("src/calc.rs", 6)])),
        Step::text(review_of(&[("notes.txt", 1), ("notes.txt", 2)])),
    ]);
    let out = run(&repo, &["eval", "--reviews", "--json"], &openai_env(&fake));
    let lines = json_lines(&success(&out));
    assert_eq!(lines.len(), 3, "{}", stdout(&out));
    let (fix, clean, summary) = (&lines[0], &lines[1], &lines[2]);
    assert_eq!(fix["side"], "fix");
    assert_eq!(fix["hit"], true);
    assert_eq!(clean["side"], "clean");
    assert_eq!(clean["commit"], notes.as_str());
    assert_eq!(clean["title"], "Write notes");
    assert_eq!(
        clean["findings"].as_array().map(Vec::len),
        Some(2),
        "{clean}"
    );
    assert_eq!(summary["clean_reviews"], 1);
    assert_eq!(summary["clean_failed"], 0);
    assert!(
        close(&summary["findings_per_clean_review"], 2.0),
        "{summary}"
    );
    // The fix side's figures are the fix side's alone.
    assert_eq!(summary["reviewed"], 1);
    assert!(close(&summary["findings_per_review"], 1.0), "{summary}");
    assert_eq!(summary["hit_rate"], 1.0);
    assert!(
        stderr(&out).contains("reviewing 1 clean commit(s) beside them"),
        "{}",
        stderr(&out)
    );
    // The clean commit was reviewed as it was: its change in view, nothing later.
    let asked = fake.requests()[1].user_texts().join("\n");
    assert!(asked.contains("+notes"), "{asked}");
    assert!(
        !asked.contains("a - b") && !asked.contains("build.toml"),
        "{asked}"
    );

    // A fix named: the clean commit is found in the history around it.
    let fake = FakeProvider::start(vec![
        Step::text(review_of(&[("src/calc.rs", 6)])),
        Step::text(review_of(&[])),
    ]);
    let out = run(
        &repo,
        &["eval", "--reviews", "--commits", "HEAD~1", "--json"],
        &openai_env(&fake),
    );
    let lines = json_lines(&success(&out));
    assert_eq!(lines[1]["commit"], notes.as_str(), "{}", stdout(&out));
    assert!(close(&lines[2]["findings_per_clean_review"], 0.0));

    // In the table, a row marked clean and the figure in the summary.
    let fake = FakeProvider::start(vec![
        Step::text(review_of(&[("src/calc.rs", 6)])),
        Step::text(review_of(&[("notes.txt", 1)])),
    ]);
    let table = success(&run(&repo, &["eval", "--reviews"], &openai_env(&fake)));
    let row = table
        .lines()
        .find(|l| l.starts_with("clean "))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(
        row.contains(&notes[..7]) && row.ends_with("Write notes"),
        "{row}"
    );
    assert!(
        table.contains("findings per clean review: 1.0 (1 clean commits reviewed, 0 failed"),
        "{table}"
    );
}

/// `--baseline` gates the clean side too: more findings per clean review than the baseline's
/// fail the run, the hit rate unchanged; a baseline written before the clean side was measured
/// gates on the hit rate alone, and says so.
#[test]
fn a_baseline_fails_a_run_that_flags_more_in_clean_commits() {
    let repo = fixed_history_without_critic();
    let hit = review_of(&[("src/calc.rs", 6)]);
    let fake = FakeProvider::start(vec![Step::text(hit.clone()), Step::text(review_of(&[]))]);
    let out = run(&repo, &["eval", "--reviews", "--json"], &openai_env(&fake));
    let earlier = success(&out);
    let baseline = repo.home().join("reviews.jsonl");
    std::fs::write(&baseline, &earlier).expect("write baseline");
    let gated = |clean: &[(&str, u32)], baseline: &Path| {
        let fake = FakeProvider::start(vec![Step::text(hit.clone()), Step::text(review_of(clean))]);
        let args = [
            "eval",
            "--reviews",
            "--baseline",
            baseline.to_str().unwrap(),
        ];
        run(&repo, &args, &openai_env(&fake))
    };

    // The same hit, and the clean commit as clean as before: no worse.
    let out = gated(&[], &baseline);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no worse than the baseline"),
        "{}",
        stderr(&out)
    );

    // The same hit, but two findings in the clean commit: worse, and said why.
    let out = gated(&[("notes.txt", 1), ("notes.txt", 2)], &baseline);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("worse than the baseline")
            && err.contains("2.00 findings per clean review against 0.00"),
        "{err}"
    );
    assert!(!err.contains("hit rate"), "the hit rate held: {err}");

    // A baseline from before the clean side: the hit rate alone gates, in one line said.
    let old: String = earlier
        .lines()
        .map(|line| {
            let mut value: Value = serde_json::from_str(line).unwrap();
            if value["summary"] == true {
                for key in ["clean_reviews", "clean_failed", "findings_per_clean_review"] {
                    value.as_object_mut().unwrap().remove(key);
                }
            }
            format!("{value}\n")
        })
        .collect();
    let old_baseline = repo.home().join("old-reviews.jsonl");
    std::fs::write(&old_baseline, old).expect("write the old baseline");
    let out = gated(&[("notes.txt", 1), ("notes.txt", 2)], &old_baseline);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("has no findings per clean review"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(said[0].contains("gated on the hit rate only"), "{err}");
    assert!(err.contains("no worse than the baseline"), "{err}");
}

/// The raw replies a run saved in the user's `.git/iris/`, by name.
fn saved_replies(repo: &TestRepo) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo.path().join(".git/iris"))
        .map(|dir| {
            dir.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|name| name.contains("-reply"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A run whose every item failed did nothing: it exits 1, and the replies that could not be
/// read are in the user's `.git/iris/`, one file each, not in the replay deleted at the end.
#[test]
fn a_run_whose_every_item_failed_exits_1_and_its_replies_outlive_it() {
    let repo = fixed_history();
    let fake = FakeProvider::start(vec![Step::repeat(Step::text("I cannot review this."))]);
    let out = run(&repo, &["eval", "--reviews"], &openai_env(&fake));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("error: all 2 reviews failed"),
        "the fix's and the clean commit's: {}",
        stderr(&out)
    );
    let saved = saved_replies(&repo);
    assert_eq!(saved.len(), 2, "{saved:?}");
    let said = format!("{}{}", stdout(&out), stderr(&out));
    for name in &saved {
        let path = repo.path().join(".git/iris").join(name);
        assert!(said.contains(&path.display().to_string()), "{said}");
    }

    let repo = history();
    let fake = FakeProvider::start(vec![Step::repeat(Step::text("Nothing to say."))]);
    let out = run(&repo, &["eval", "--last", "2"], &openai_env(&fake));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("error: all 2 messages failed"),
        "{}",
        stderr(&out)
    );
    let saved = saved_replies(&repo);
    assert!(
        saved.len() >= 2,
        "one file a reply, none overwritten: {saved:?}"
    );
}

#[test]
fn presets_are_compared_side_by_side_and_large_or_empty_commits_are_skipped() {
    let repo = history();
    // A commit of 30 lines and an empty one on top.
    let lines: String = (0..30)
        .map(|i| format!("pub const L{i}: u8 = {i};\n"))
        .collect();
    repo.write("src/big.rs", lines);
    repo.commit_all("Add thirty constants");
    repo.git(&["commit", "-q", "--allow-empty", "-m", "Nothing at all"]);
    let fake = FakeProvider::start(vec![Step::Repeat(Box::new(Step::text(commit_json(
        ANSWER, "",
    ))))]);
    let out = run(
        &repo,
        &[
            "eval",
            "--last",
            "1",
            "--max-lines",
            "20",
            "--presets",
            "conventional,default",
            "--json",
        ],
        &openai_env(&fake),
    );
    let lines = json_lines(&success(&out));
    let err = stderr(&out);
    assert!(err.contains("its diff is empty"), "{err}");
    assert!(
        err.contains("30 changed lines, more than --max-lines 20"),
        "{err}"
    );
    // The newest commit not skipped, in each preset, then a summary per preset.
    let variants: Vec<&str> = lines
        .iter()
        .map(|l| l["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        variants,
        ["conventional", "default", "conventional", "default"]
    );
    let asked: Vec<String> = fake.requests().iter().map(|r| r.system_text()).collect();
    assert_eq!(asked.len(), 2);
    assert_ne!(asked[0], asked[1], "each preset asks in its own words");
    assert!(
        asked
            .iter()
            .any(|s| s.to_lowercase().contains("conventional commits")),
        "{asked:?}"
    );
}

/// A Cargo.lock bump's terms are found in its Packages section, and the summary says what
/// the recall would be without it.
#[test]
fn evidence_weighs_each_source_of_the_reason() {
    let lock = |version: &str| {
        format!(
            "version = 4\n\n[[package]]\nname = \"demo\"\nversion = \"0.1.0\"\ndependencies = [\n \"libc\",\n]\n\n\
             [[package]]\nname = \"libc\"\nversion = \"{version}\"\n\
             source = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
        )
    };
    let repo = TestRepo::new();
    repo.write("Cargo.lock", lock("0.2.169"));
    repo.commit_all("Initial commit");
    repo.write("Cargo.lock", lock("0.2.170"));
    repo.commit_all("Bump libc from 0.2.169 to 0.2.170");
    let out = repo.iris_env(&["eval", "--evidence", "--last", "1", "--json"], &[], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out));
    assert_eq!(
        lines[0]["found"],
        serde_json::json!(["0.2.169", "0.2.170"]),
        "{}",
        lines[0]
    );
    let summary = &lines[1];
    assert!(close(&summary["recall_mean"], 1.0), "{summary}");
    let without = summary["recall_without"]["packages"]
        .as_f64()
        .expect("weighed");
    assert!(without < 1.0, "{summary}");
}
