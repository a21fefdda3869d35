//! The git tools in the odd states real repositories are in: no commit yet, detached HEAD,
//! a merge in progress, binary files, renames, deletions, submodules, non-UTF-8 paths and
//! very large files.

use crate::common::Iris;

use crate::common::{TestRepo, stdout};

#[test]
fn a_new_repository_with_no_commit_yet() {
    let repo = TestRepo::new();
    assert_eq!(repo.tool("git_log", "{}"), "No commits yet.\n");
    let info = repo.tool("git_repo_info", "{}");
    assert!(info.contains("Branch: main (no commits yet)"), "{info}");
    assert!(info.contains("Commits: 0"));

    repo.write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
    repo.git(&["add", "-A"]);
    let status = repo.tool("git_status", "{}");
    assert!(status.contains("added     src/main.rs"), "{status}");
    let diff = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(diff.contains("src/main.rs (added, +3 -0)"), "{diff}");
    assert!(diff.contains("+fn main() {"));
    let changed = repo.tool("git_changed_files", "{}");
    assert!(changed.contains("added     src/main.rs"));

    let out = repo.iris(&["tool", "git_blame", r#"{"file":"src/main.rs"}"#]);
    assert!(stdout(&out).contains("no commits yet"));
}

#[test]
fn a_detached_head() {
    let repo = TestRepo::new();
    repo.write("a.txt", "1\n");
    let first = repo.commit_all("one");
    repo.write("a.txt", "2\n");
    repo.commit_all("two");
    repo.git(&["checkout", "-q", "--detach", &first]);
    let status = repo.tool("git_status", "{}");
    assert!(
        status.contains(&format!("HEAD detached at {}", &first[..7])),
        "{status}"
    );
    let log = repo.tool("git_log", "{}");
    assert_eq!(log.lines().count(), 2, "only the commit HEAD is on: {log}");
}

#[test]
fn a_merge_in_progress_with_a_conflict() {
    let repo = TestRepo::new();
    let merge = repo.conflicting_merge("shared.txt");
    assert!(!merge.status.success(), "the merge must conflict");

    let status = repo.tool("git_status", "{}");
    assert!(status.contains("In progress: merge"), "{status}");
    assert!(status.contains("Conflicted (unmerged) (1):"), "{status}");
    assert!(status.contains("shared.txt"));
    let porcelain = repo.git(&["status", "--porcelain"]);
    assert!(porcelain.starts_with("UU shared.txt"));

    let changed = repo.tool("git_changed_files", "{}");
    assert!(changed.contains("conflict  shared.txt"), "{changed}");
    // The staged diff still answers.
    let diff = repo.iris(&["tool", "git_diff", "{}"]);
    assert!(
        diff.status.success(),
        "{}",
        String::from_utf8_lossy(&diff.stderr)
    );
}

#[test]
fn binary_files_are_reported_not_dumped() {
    let repo = TestRepo::new();
    repo.write(
        "logo.png",
        [0x89u8, b'P', b'N', b'G', 0, 0, 0, 13, 0xff, 0x00, 0x10],
    );
    repo.commit_all("logo");
    repo.write(
        "logo.png",
        [0x89u8, b'P', b'N', b'G', 0, 1, 2, 3, 0xfe, 0x00, 0x11, 0x12],
    );
    repo.git(&["add", "-A"]);
    let diff = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(diff.contains("logo.png (modified, binary)"), "{diff}");
    assert!(diff.contains("Binary files"), "{diff}");
    assert!(!diff.contains('\u{0}'));
    let git = repo.git(&["diff", "--cached", "--numstat"]);
    assert!(
        git.starts_with("-\t-\tlogo.png"),
        "git agrees it is binary: {git}"
    );
}

#[test]
fn renames_and_deletions() {
    let repo = TestRepo::new();
    let body: String = (0..20).map(|i| format!("line {i}\n")).collect();
    repo.write("docs/old.md", &body);
    repo.write("src/dead.rs", "fn dead() {}\n");
    repo.commit_all("start");
    repo.git(&["mv", "docs/old.md", "docs/new.md"]);
    repo.git(&["rm", "-q", "src/dead.rs"]);
    let diff = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(
        diff.contains("docs/old.md -> docs/new.md (renamed, +0 -0)"),
        "{diff}"
    );
    assert!(diff.contains("src/dead.rs (deleted, +0 -1)"), "{diff}");
    assert!(diff.contains("rename from docs/old.md"));
    let git = repo.git(&["diff", "--cached", "--name-status"]);
    assert!(git.contains("R100\tdocs/old.md\tdocs/new.md"));
    assert!(git.contains("D\tsrc/dead.rs"));
}

#[test]
fn submodules() {
    let library = TestRepo::new();
    library.write("lib.txt", "library\n");
    library.commit_all("library");
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.commit_all("start");
    let url = library.path().to_string_lossy().to_string();
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        &url,
        "libs/engine",
    ]);

    let status = repo.tool("git_status", "{}");
    assert!(status.contains("added     .gitmodules"), "{status}");
    assert!(status.contains("added     libs/engine"), "{status}");
    let diff = repo.tool("git_diff", r#"{"detail":"standard"}"#);
    assert!(diff.contains("+Subproject commit"), "{diff}");
    let changed = repo.tool("git_changed_files", "{}");
    let git = repo.git(&["diff", "--cached", "--name-status"]);
    for path in [".gitmodules", "libs/engine"] {
        assert!(changed.contains(path) && git.contains(path));
    }
    repo.git(&["commit", "-q", "-m", "add submodule"]);
    let show = repo.tool("git_show", r#"{"commit":"HEAD"}"#);
    assert!(show.contains("libs/engine"));
}

#[cfg(unix)]
#[test]
fn paths_that_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::new();
    repo.write("plain.txt", "x\n");
    repo.commit_all("start");
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9-latin1.txt");
    std::fs::write(repo.path().join(name), "bytes in the name\n").unwrap();
    repo.git(&["add", "-A"]);

    for (tool, args) in [
        ("git_status", "{}"),
        ("git_changed_files", "{}"),
        ("git_diff", r#"{"detail":"standard"}"#),
    ] {
        let text = repo.tool(tool, args);
        assert!(text.contains("caf\u{FFFD}-latin1.txt"), "{tool}: {text}");
    }
    repo.git(&["commit", "-q", "-m", "odd name"]);
    let show = repo.tool("git_show", r#"{"commit":"HEAD"}"#);
    assert!(show.contains("-latin1.txt"));
    let log = repo.tool("git_log", "{}");
    assert!(log.contains("odd name"));
}

#[test]
fn very_large_files_are_bounded() {
    let repo = TestRepo::new();
    repo.write("small.rs", "fn small() {}\n");
    repo.commit_all("start");
    // 4 MiB of text: larger than the diff layer reads line by line.
    let line = "a line of generated text that goes on and on and on to fill the file\n";
    let big: String = line.repeat(4 * 1024 * 1024 / line.len());
    repo.write("data/huge.txt", &big);
    repo.git(&["add", "-A"]);

    let out = repo.iris(&["tool", "git_diff", r#"{"detail":"standard"}"#]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("data/huge.txt"),
        "{}",
        &text[..text.len().min(500)]
    );
    assert!(text.len() < 70_000, "bounded: {} bytes", text.len());
    let named = repo.tool(
        "git_diff",
        r#"{"detail":"standard","files":["data/huge.txt"]}"#,
    );
    // Bounded, but not empty: the file is named (past the size the diff reads, it goes as
    // a file without lines).
    assert!(
        named.len() < 70_000,
        "bounded even when asked for: {}",
        named.len()
    );
    assert!(named.contains("data/huge.txt"), "{named}");

    repo.git(&["commit", "-q", "-m", "huge"]);
    let show = repo.tool("git_show", r#"{"commit":"HEAD"}"#);
    assert!(show.len() < 25_000);
    assert!(
        show.contains("huge") && show.contains("data/huge.txt"),
        "{show}"
    );
    let blame = repo.tool(
        "git_blame",
        r#"{"file":"data/huge.txt","start_line":10,"end_line":12}"#,
    );
    assert_eq!(blame.lines().filter(|l| l.contains("| a line")).count(), 3);
}
