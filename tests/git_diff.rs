//! `git_diff` end to end: ranking, size buckets, full diffs, ranges and left-out lock files.

use crate::common::Iris;

use crate::common::TestRepo;

fn position(text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("{needle} not in:\n{text}"))
}

/// The first request `iris gen --dry-run` shows: the evidence gathered up front.
fn dry_run(repo: &TestRepo) -> String {
    let out = repo.iris_env(
        &["gen", "--dry-run"],
        &[("IRIS_PROVIDER", "openai"), ("OPENAI_API_KEY", "sk-unused")],
        "",
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn repo_with_mixed_change() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# Demo\n");
    repo.write("Cargo.lock", "version = 3\n");
    repo.write("tests/engine_test.rs", "#[test]\nfn works() {}\n");
    repo.commit_all("start");
    repo.write("README.md", "# Demo\n\nNow with an engine.\n");
    repo.write("Cargo.lock", "version = 4\n");
    repo.write(
        "tests/engine_test.rs",
        "#[test]\nfn works() {\n    assert!(true);\n}\n",
    );
    repo.write(
        "src/engine.rs",
        "pub struct Engine;\n\npub fn start(engine: &Engine) -> bool {\n    let _ = engine;\n    true\n}\n",
    );
    repo.git(&["add", "-A"]);
    repo
}

#[test]
fn files_are_ranked_by_relevance_with_reasons() {
    let repo = repo_with_mixed_change();
    let text = repo.tool("git_diff", "{}");
    assert!(text.starts_with("Staged changes: 4 file(s), +"), "{text}");
    assert!(text.contains("Size: medium."), "{text}");
    let src = position(&text, "src/engine.rs (added");
    let test = position(&text, "tests/engine_test.rs (modified");
    let docs = position(&text, "README.md (modified");
    let lock = position(&text, "Cargo.lock (modified");
    assert!(src < test && src < docs && docs < lock, "{text}");
    assert!(text.contains("adds function start"));
    assert!(text.contains("adds type Engine"));
    assert!(text.contains(" 40% ★★☆☆☆ Cargo.lock"), "{text}");
    // The summary carries no diff text.
    assert!(!text.contains("@@"));
}

#[test]
fn standard_adds_diffs_and_leaves_lock_files_out() {
    let repo = repo_with_mixed_change();
    let text = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(text.contains("+pub fn start(engine: &Engine) -> bool {"));
    assert!(text.contains("[diff of Cargo.lock left out: lock or generated file, +1 -1]"));
    assert!(!text.contains("+version = 4"));
    // The diffs come in relevance order too.
    assert!(
        position(&text, "diff --git a/src/engine.rs") < position(&text, "diff --git a/README.md")
    );

    // Named files: only those, size "Filtered", and a lock file is shown when asked for.
    let named = repo.tool(
        "git_diff",
        r#"{"detail":"standard","files":["Cargo.lock"]}"#,
    );
    assert!(named.contains("Size: filtered."), "{named}");
    assert!(named.contains("+version = 4"));
    assert!(!named.contains("engine.rs"));
}

#[test]
fn ranges_and_single_commits() {
    let repo = repo_with_mixed_change();
    repo.git(&["commit", "-q", "-m", "engine"]);
    repo.write("src/engine.rs", "pub struct Engine;\n");
    repo.commit_all("shrink");

    let one = repo.tool("git_diff", r#"{"to":"HEAD~1","detail":"standard"}"#);
    assert!(
        one.starts_with("Changes of commit HEAD~1: 4 file(s)"),
        "{one}"
    );
    let range = repo.tool("git_diff", r#"{"from":"HEAD~2"}"#);
    assert!(
        range.starts_with("Changes in HEAD~2..HEAD: 4 file(s)"),
        "{range}"
    );
    let git = repo.git(&["diff", "--numstat", "HEAD~2", "HEAD"]);
    for line in git.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(range.contains(&format!("{} (", f[2])), "{}", f[2]);
        assert!(
            range.contains(&format!("+{} -{})", f[0], f[1])),
            "{line} in {range}"
        );
    }
    let nothing = repo.tool("git_diff", "{}");
    assert!(
        nothing.contains("no changes (nothing is staged"),
        "{nothing}"
    );
}

#[test]
fn a_large_change_points_to_subagents_and_stays_small() {
    let repo = TestRepo::new();
    repo.write("keep.txt", "x\n");
    repo.commit_all("start");
    for i in 0..30 {
        let body: String = (0..40)
            .map(|j| format!("pub fn f{i}_{j}() {{}}\n"))
            .collect();
        repo.write(&format!("src/m{i}.rs"), body);
    }
    repo.git(&["add", "-A"]);
    let text = repo.tool("git_diff", "{}");
    assert!(text.contains("Size: large."));
    assert!(text.contains("parallel_analyze"), "{text}");
    assert!(text.contains("adds 40 functions: f"), "{text}");
    let full = repo.git(&["diff", "--cached"]);
    assert!(
        text.len() * 5 < full.len(),
        "{} vs {}",
        text.len(),
        full.len()
    );
}

/// A name in another script reaches the model as it is, as git shows it with
/// `core.quotePath=false`: the file list and the diff headers agree.
#[test]
fn names_in_any_script_are_written_as_they_are() {
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n");
    repo.commit_all("Initial commit");
    repo.write("src/日本.md", "こんにちは\n");
    repo.write("src/файл.rs", "pub fn f() {}\n");
    repo.git(&["add", "-A"]);
    let text = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(
        text.contains("diff --git a/src/日本.md b/src/日本.md"),
        "{text}"
    );
    assert!(text.contains("+++ b/src/файл.rs"), "{text}");
    assert!(!text.contains("\\346"), "no octal escapes: {text}");
    let git = repo.git(&[
        "-c",
        "core.quotePath=false",
        "diff",
        "--cached",
        "--",
        "src/日本.md",
    ]);
    assert!(
        git.contains("diff --git a/src/日本.md b/src/日本.md"),
        "{git}"
    );
}

/// A text file too large to show (over 2 MiB) reaches the model as what it is: a large
/// text file with its size and lines, git's count, and the change's size follows from them.
#[test]
fn a_text_file_too_large_to_show_is_said_with_its_size_and_lines() {
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n");
    repo.commit_all("Initial commit");
    let rows = 100_000;
    let csv: String = (0..rows)
        .map(|i| format!("{i},name-{i},{},2026-12-07\n", i * 7))
        .collect();
    assert!(csv.len() > 2 * 1024 * 1024 + 1024, "{}", csv.len());
    repo.write("data/big.csv", &csv);
    repo.git(&["add", "-A"]);
    let numstat = repo.git(&["diff", "--cached", "--numstat"]);
    assert!(
        numstat.starts_with(&format!("{rows}\t0\tdata/big.csv")),
        "{numstat}"
    );
    let megabytes = csv.len() as f64 / (1024.0 * 1024.0);
    let said = format!("large text file, {megabytes:.1} MB, +{rows} -0; too large to show");
    for detail in ["summary", "standard"] {
        let text = repo.tool("git_diff", &format!(r#"{{"detail":"{detail}"}}"#));
        assert!(text.contains(&said), "{detail}: {text}");
        assert!(
            text.contains(&format!("+{rows} -0 ({rows} lines)")),
            "{text}"
        );
        assert!(text.contains("Size: large."), "{text}");
        assert!(!text.contains("binary"), "{text}");
    }
    let shown = dry_run(&repo);
    assert!(
        shown.contains(&said) && shown.contains("Size: large."),
        "{shown}"
    );
    // Once committed and grown, both sides' lines are said; git_show says it alike.
    repo.commit_all("Add the data");
    repo.write("data/big.csv", format!("{csv}{rows},last,0,2026-12-08\n"));
    repo.git(&["add", "-A"]);
    let text = repo.tool("git_diff", "{}");
    let grown = format!("{} lines, was {rows}: too large to diff", rows + 1);
    assert!(text.contains(&grown), "{text}");
    let show = repo.tool("git_show", r#"{"commit":"HEAD"}"#);
    assert!(
        show.contains(&format!("Text too large to show: 0 -> {rows} lines")),
        "{show}"
    );
    let stat = format!(" 1 file changed, {rows} insertions(+), 0 deletions(-)");
    assert!(show.contains(&stat) && !show.contains("Bin"), "{show}");
}

/// A file git LFS stores reaches the model as its object's size, not its pointer's text.
#[test]
fn an_lfs_pointer_is_said_as_the_object_s_size() {
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n");
    repo.commit_all("Initial commit");
    repo.write(
        "assets/big.bin",
        "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 123456\n",
    );
    repo.git(&["add", "-A"]);
    let text = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(
        text.contains("[assets/big.bin: an LFS object, 123456 bytes, added]"),
        "{text}"
    );
    assert!(!text.contains("oid sha256:"), "{text}");
    // The evidence gathered up front says it the same way.
    let shown = dry_run(&repo);
    assert!(
        shown.contains("an LFS object, 123456 bytes, added"),
        "{shown}"
    );
    assert!(!shown.contains("oid sha256:"), "{shown}");
    // And so does git_show once it is committed.
    repo.commit_all("Add the big asset");
    let show = repo.tool("git_show", r#"{"commit":"HEAD"}"#);
    assert!(
        show.contains("[assets/big.bin: an LFS object, 123456 bytes, added]"),
        "{show}"
    );
    assert!(!show.contains("oid sha256:"), "{show}");
}

/// A submodule's bump is told by the commits it brings, as `git diff --submodule=log` lists
/// them; a submodule that is not checked out is said to be.
#[test]
fn a_submodule_bump_lists_the_commits_it_brings() {
    let sub = TestRepo::new();
    sub.write("x.txt", "a\n");
    sub.commit_all("Sub first");
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n");
    repo.commit_all("Initial commit");
    let url = sub.path().display().to_string();
    repo.git(&["submodule", "add", "-q", &url, "sub"]);
    repo.commit_all("Add sub");
    sub.write("x.txt", "a\nb\n");
    sub.commit_all("Sub: fix the parser");
    sub.write("x.txt", "a\nb\nc\n");
    sub.commit_all("Sub: add a flag");
    let checkout = repo.path().join("sub");
    let out = repo.git_in(&checkout, &["pull", "-q", "origin", "HEAD"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    repo.git(&["add", "sub"]);

    let git_says = repo.git(&["diff", "--cached", "--submodule=log"]);
    let text = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    for line in git_says.lines() {
        assert!(text.contains(line), "missing `{line}`: {text}");
    }
    assert!(
        text.contains("  > Sub: add a flag\n  > Sub: fix the parser"),
        "{text}"
    );

    // Not checked out: said, with how to check it out.
    std::fs::remove_dir_all(&checkout).expect("remove the checkout");
    std::fs::create_dir(&checkout).expect("an empty directory, as git leaves it");
    let text = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(
        text.contains("its commits cannot be listed: not checked out here"),
        "{text}"
    );
}
