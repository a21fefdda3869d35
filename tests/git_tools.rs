//! The git tools end to end: the real `iris` binary on temporary repositories, its answers
//! checked against what the `git` command line says about the same repository.

use crate::common::Iris;

use crate::common::{TestRepo, stdout};

/// `git diff --name-status` style pairs ("M", "src/a.rs") from the tool's listing.
fn tool_name_status(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let label = parts.next().unwrap_or_default();
            let rest: Vec<&str> = parts.collect();
            let code = match label {
                "added" => "A",
                "modified" => "M",
                "deleted" => "D",
                "renamed" => "R",
                "copied" => "C",
                "typechange" => "T",
                "conflict" => "U",
                other => panic!("unexpected label {other}"),
            };
            (code.to_string(), rest.last().unwrap_or(&"").to_string())
        })
        .collect()
}

/// The same pairs from `git diff --name-status` output (R100 -> R, new path kept).
fn git_name_status(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            let code = fields[0].chars().next().unwrap_or('?').to_string();
            (code, fields.last().unwrap_or(&"").to_string())
        })
        .collect()
}

fn sorted(mut v: Vec<(String, String)>) -> Vec<(String, String)> {
    v.sort();
    v
}

/// A repository with some history and a staged change of every kind.
fn repo_with_staged_changes() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.write("README.md", "# Demo\n\nA demo project.\n");
    repo.write(
        "old_name.txt",
        "this file will be renamed\nwith enough content\nto be detected\nas a rename by git\n",
    );
    repo.write("gone.txt", "to be deleted\n");
    repo.write("Cargo.lock", "# lock\nversion = 3\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.write("src/new_module.rs", "pub struct Config {\n    pub name: String,\n}\n\npub fn load() -> Config {\n    Config { name: String::new() }\n}\n");
    repo.write("README.md", "# Demo\n\nA demo project, now documented.\n");
    repo.write("Cargo.lock", "# lock\nversion = 4\n");
    repo.git(&["mv", "old_name.txt", "new_name.txt"]);
    repo.git(&["rm", "-q", "gone.txt"]);
    repo.git(&["add", "-A"]);
    repo
}

#[test]
fn changed_files_of_the_staged_change_match_git() {
    let repo = repo_with_staged_changes();
    let ours = tool_name_status(&repo.tool("git_changed_files", "{}"));
    let git = git_name_status(&repo.git(&["diff", "--cached", "--name-status"]));
    assert_eq!(sorted(ours), sorted(git));
    assert_eq!(
        git_name_status(&repo.git(&["diff", "--cached", "--name-status"])).len(),
        6
    );
}

#[test]
fn changed_files_of_a_commit_and_a_range_match_git() {
    let repo = repo_with_staged_changes();
    repo.git(&["commit", "-q", "-m", "Second"]);
    repo.write("src/third.rs", "fn third() {}\n");
    repo.commit_all("Third");

    let one_commit = tool_name_status(&repo.tool("git_changed_files", r#"{"to":"HEAD~1"}"#));
    let git = git_name_status(&repo.git(&["diff", "--name-status", "HEAD~2", "HEAD~1"]));
    assert_eq!(sorted(one_commit), sorted(git));

    let range =
        tool_name_status(&repo.tool("git_changed_files", r#"{"from":"HEAD~2","to":"HEAD"}"#));
    let git = git_name_status(&repo.git(&["diff", "--name-status", "HEAD~2", "HEAD"]));
    assert!(git.iter().any(|(_, p)| p == "src/third.rs"));
    assert_eq!(sorted(range), sorted(git));

    // The root commit is compared with the empty tree.
    let root = tool_name_status(&repo.tool("git_changed_files", r#"{"to":"HEAD~2"}"#));
    let git = git_name_status(&repo.git(&["show", "--name-status", "--format=", "HEAD~2"]));
    assert_eq!(sorted(root), sorted(git));
}

#[test]
fn changed_files_refuses_from_without_to() {
    let repo = repo_with_staged_changes();
    let out = repo.iris(&["tool", "git_changed_files", r#"{"from":"HEAD"}"#]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("'from' needs 'to'"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn log_matches_git_log() {
    let repo = TestRepo::new();
    for i in 0..15 {
        repo.write("counter.txt", format!("{i}\n"));
        repo.commit_all(&format!("Commit number {i}"));
    }
    let text = repo.tool("git_log", r#"{"count":12}"#);
    let ours: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    let git = repo.git(&["log", "-n", "12", "--format=%h"]);
    let git: Vec<&str> = git.lines().collect();
    assert_eq!(ours, git);
    assert!(text.contains("Commit number 14"));
    assert!(!text.contains("Commit number 2\n"));

    // The default is 10 commits.
    let text = repo.tool("git_log", "{}");
    assert_eq!(text.lines().count(), 11, "{text}");
}

#[test]
fn log_of_a_range_lists_its_commits_and_human_contributors() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    let base = repo.commit_all("Base");
    repo.git(&["tag", "v1.0"]);
    repo.write("a.txt", "b\n");
    repo.commit_as("Ada Lovelace", "ada@example.com", "Add engine");
    repo.write("a.txt", "c\n");
    repo.commit_as(
        "dependabot[bot]",
        "49699333+dependabot[bot]@users.noreply.github.com",
        "Bump deps",
    );
    repo.write("a.txt", "d\n");
    repo.commit_as("Ada Lovelace", "ada@example.com", "Tune engine");
    repo.write("a.txt", "e\n");
    repo.commit_as("Grace Hopper", "grace@example.com", "Fix compiler");

    let text = repo.tool("git_log", r#"{"from":"v1.0","to":"HEAD"}"#);
    let git = repo.git(&["log", "--format=%h", "v1.0..HEAD"]);
    for id in git.lines() {
        assert!(text.contains(id), "missing {id} in {text}");
    }
    assert!(!text.contains(&base[..7]), "the range start is excluded");
    let contributors = text
        .split("Contributors:")
        .nth(1)
        .expect("contributors section");
    assert_eq!(
        contributors.matches("Ada Lovelace").count(),
        1,
        "{contributors}"
    );
    assert!(contributors.contains("Grace Hopper"));
    assert!(!contributors.contains("dependabot"));

    // `to` defaults to HEAD.
    assert_eq!(repo.tool("git_log", r#"{"from":"v1.0"}"#), text);
}

#[test]
fn blame_matches_git_blame_porcelain() {
    let repo = TestRepo::new();
    repo.write("src/app.rs", "line one\nline two\nline three\nline four\n");
    let first = repo.commit_all("First version");
    repo.write(
        "src/app.rs",
        "line one\nline 2 changed\nline three\nline four\nline five\n",
    );
    let second = repo.commit_as("Grace Hopper", "grace@example.com", "Second version");

    let text = repo.tool(
        "git_blame",
        r#"{"file":"src/app.rs","start_line":1,"end_line":5}"#,
    );
    let porcelain = repo.git(&["blame", "--porcelain", "HEAD", "--", "src/app.rs"]);
    // Porcelain header lines: "<40-hex sha> <orig line> <final line> [<group size>]".
    let mut expected: Vec<(usize, String)> = porcelain
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f.len() >= 3 && f[0].len() == 40 && f[0].chars().all(|c| c.is_ascii_hexdigit()))
                .then(|| (f[2].parse().unwrap_or(0), f[0][..7].to_string()))
        })
        .collect();
    expected.sort();
    let ours: Vec<(usize, String)> = text
        .lines()
        .filter(|l| l.contains("| "))
        .map(|l| {
            let id = l[..7].to_string();
            let line = l[8..]
                .split('|')
                .next()
                .unwrap_or("")
                .trim()
                .parse()
                .unwrap_or(0);
            (line, id)
        })
        .collect();
    assert_eq!(ours, expected);
    assert!(
        text.contains(&format!("{}     2| line 2 changed", &second[..7])),
        "{text}"
    );
    assert!(text.contains(&format!("{}     1| line one", &first[..7])));
    // Most recent commits first, with their summaries.
    let recent = text
        .split("Most recent commits")
        .nth(1)
        .expect("recent section");
    let second_at = recent.find("Second version").expect("second listed");
    let first_at = recent.find("First version").expect("first listed");
    assert!(second_at < first_at);

    let one = repo.tool(
        "git_blame",
        r#"{"file":"src/app.rs","start_line":3,"end_line":3,"recent_commits":1}"#,
    );
    assert_eq!(one.lines().filter(|l| l.contains("| ")).count(), 1);
    assert!(one.contains("line three"));
}

#[test]
fn blame_refuses_bad_ranges_escapes_and_unknown_files() {
    let repo = TestRepo::new();
    repo.write("a.txt", "one\n");
    repo.commit_all("c");
    for (args, expect) in [
        (r#"{"file":"a.txt","start_line":5}"#, "past the end"),
        (
            r#"{"file":"a.txt","start_line":3,"end_line":2}"#,
            "before start_line",
        ),
        (r#"{"file":"../outside.txt"}"#, "leaves the repository"),
        (
            r#"{"file":"/etc/passwd"}"#,
            "relative to the repository root",
        ),
        (r#"{"file":"missing.txt"}"#, "not a file committed at HEAD"),
    ] {
        let out = repo.iris(&["tool", "git_blame", args]);
        assert_eq!(out.status.code(), Some(1), "{args}");
        assert!(stdout(&out).contains(expect), "{args}: {}", stdout(&out));
    }
}

#[test]
fn show_matches_git_show_stat() {
    let repo = repo_with_staged_changes();
    repo.git(&[
        "commit",
        "-q",
        "-m",
        "Second commit\n\nWith a body that explains why.",
    ]);
    let text = repo.tool("git_show", r#"{"commit":"HEAD"}"#);
    let git_stat = repo.git(&["show", "--stat", "--format=", "HEAD"]);
    let summary = git_stat.lines().last().expect("summary line").trim();
    assert!(text.contains(summary), "{summary:?} not in:\n{text}");
    for line in git_stat.lines().filter(|l| l.contains('|')) {
        let file = line.split('|').next().unwrap_or("").trim();
        // git abbreviates long renames with braces; match the new name's tail.
        let tail = file
            .rsplit(['/', ' '])
            .next()
            .unwrap_or(file)
            .trim_end_matches('}');
        assert!(text.contains(tail), "{tail} not in stat");
    }
    assert!(text.contains("With a body that explains why."));
    assert!(text.contains(&repo.git(&["rev-parse", "HEAD"]).trim().to_string()));
    assert!(text.contains("+pub fn two() -> u32 {"));

    // Limited to one file.
    let one = repo.tool("git_show", r#"{"commit":"HEAD","files":["README.md"]}"#);
    assert!(one.contains("+A demo project, now documented."));
    assert!(!one.contains("pub fn two"));
}

#[test]
fn show_bounds_its_output_and_checks_the_revision() {
    let repo = TestRepo::new();
    let big: String = (0..5000)
        .map(|i| format!("line {i} of a long file\n"))
        .collect();
    repo.write("big.txt", &big);
    repo.commit_all("Big");
    let text = repo.tool("git_show", r#"{"commit":"HEAD","max_output_chars":10}"#);
    assert!(
        text.contains("[output cut at 1000 of"),
        "clamped to 1000: {}",
        &text[text.len() - 200..]
    );
    assert!(text.chars().count() < 1300);
    let text = repo.tool("git_show", r#"{"commit":"HEAD","max_output_chars":999999}"#);
    assert!(text.contains("[output cut at 50000 of"));

    for (rev, expect) in [
        ("--output=/tmp/x", "may not start with '-'"),
        ("HEAD main", "whitespace"),
        ("no-such-branch", "unknown revision"),
        ("", "it is empty"),
    ] {
        let args = serde_json::json!({ "commit": rev }).to_string();
        let out = repo.iris(&["tool", "git_show", &args]);
        assert_eq!(out.status.code(), Some(1));
        assert!(stdout(&out).contains(expect), "{rev}: {}", stdout(&out));
    }
    // A tree is not a commit.
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]);
    let args = serde_json::json!({ "commit": tree.trim() }).to_string();
    let out = repo.iris(&["tool", "git_show", &args]);
    assert!(stdout(&out).contains("does not name a commit"));
}

#[test]
fn status_matches_git_status() {
    let repo = repo_with_staged_changes();
    repo.write("src/lib.rs", "// edited again after staging\n");
    repo.write("untracked.txt", "new\n");
    let text = repo.tool("git_status", r#"{"include_unstaged":true}"#);
    assert!(text.starts_with("Branch: main\n"), "{text}");
    let porcelain = repo.git(&["status", "--porcelain=v1"]);
    for line in porcelain.lines() {
        let (x, y) = (line.as_bytes()[0], line.as_bytes()[1]);
        let path = line[3..].rsplit(" -> ").next().unwrap_or("");
        assert!(text.contains(path), "{path} missing from:\n{text}");
        if x == b'?' {
            assert!(
                text.split("Untracked")
                    .nth(1)
                    .is_some_and(|s| s.contains(path))
            );
            continue;
        }
        if x != b' ' {
            let staged = text
                .split("Staged")
                .nth(1)
                .and_then(|s| s.split("\n\n").next())
                .unwrap_or("");
            assert!(staged.contains(path), "{path} not staged in:\n{text}");
        }
        if y != b' ' {
            let unstaged = text
                .split("Unstaged")
                .nth(1)
                .and_then(|s| s.split("\n\n").next())
                .unwrap_or("");
            assert!(unstaged.contains(path), "{path} not unstaged in:\n{text}");
        }
    }
    assert!(text.contains("renamed   old_name.txt -> new_name.txt"));

    // Without include_unstaged only the staged files are listed, with a count of the rest.
    let text = repo.tool("git_status", "{}");
    assert!(
        text.contains("1 unstaged and 1 untracked not listed"),
        "{text}"
    );
    assert!(!text.contains("untracked.txt"));
}

#[test]
fn works_from_a_subdirectory() {
    let repo = repo_with_staged_changes();
    let sub = repo.path().join("src");
    let out = repo.iris_in(&sub, &["tool", "git_changed_files", "{}"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("src/new_module.rs"));
    let info = repo.iris_in(&sub, &["tool", "git_repo_info"]);
    let expected_root = std::fs::canonicalize(repo.path()).unwrap();
    let text = stdout(&info);
    let root_line = text.lines().next().unwrap_or("");
    let shown = std::fs::canonicalize(root_line.trim_start_matches("Path: ")).unwrap();
    assert_eq!(shown, expected_root);
}

#[test]
fn repo_info_reports_branch_remote_count_and_default_branch() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("one");
    repo.write("a.txt", "b\n");
    repo.commit_all("two");
    repo.git(&[
        "remote",
        "add",
        "origin",
        "https://bob:s3cret@example.com/demo.git",
    ]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    let text = repo.tool("git_repo_info", "{}");
    assert!(text.contains("Branch: feature\n"), "{text}");
    assert!(
        text.contains("Remote: https://example.com/demo.git\n"),
        "{text}"
    );
    assert!(!text.contains("s3cret"));
    let count = repo.git(&["rev-list", "--count", "HEAD"]);
    assert!(text.contains(&format!("Commits: {}\n", count.trim())));
    assert!(text.contains("Default branch: main\n"));
}

#[test]
fn default_branch_follows_master_and_the_remote_head() {
    let repo = TestRepo::new();
    repo.git(&["checkout", "-q", "-b", "master"]);
    repo.write("a.txt", "a\n");
    repo.commit_all("one");
    assert!(
        repo.tool("git_repo_info", "{}")
            .contains("Default branch: master\n")
    );

    // A clone knows its remote's HEAD.
    let clone_dir = repo.path().parent().unwrap().join("clone");
    let src = repo.path().to_string_lossy().to_string();
    let out = repo.git_in(
        repo.path().parent().unwrap(),
        &["clone", "-q", &src, "clone"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let git_says = String::from_utf8_lossy(
        &repo
            .git_in(&clone_dir, &["symbolic-ref", "refs/remotes/origin/HEAD"])
            .stdout,
    )
    .trim()
    .to_string();
    assert_eq!(git_says, "refs/remotes/origin/master");
    repo.git_in(&clone_dir, &["checkout", "-q", "-b", "topic"]);
    repo.git_in(&clone_dir, &["branch", "-q", "-D", "master"]);
    let out = repo.iris_in(&clone_dir, &["tool", "git_repo_info"]);
    assert!(
        stdout(&out).contains("Default branch: origin/master\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn file_history_matches_git_log_for_the_path() {
    let repo = TestRepo::new();
    repo.write("a.txt", "1\n");
    repo.write("b.txt", "1\n");
    repo.commit_all("both");
    repo.write("b.txt", "2\n");
    repo.commit_all("only b");
    repo.write("a.txt", "2\n");
    repo.commit_all("only a");
    repo.write("a.txt", "3\n");
    repo.write("b.txt", "3\n");
    repo.commit_all("both again");
    let git = iris_studio_git::GitRepo::discover(&repo.path()).unwrap();
    let ours: Vec<String> = git
        .file_history("a.txt", 10)
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    let expected: Vec<String> = repo
        .git(&["log", "--format=%H", "--", "a.txt"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(ours, expected);
    assert_eq!(git.file_history("a.txt", 2).unwrap().len(), 2);
}
