//! The workspace tools end to end (file_read, file_list, file_search, code_search, repo_map,
//! static_analysis, project_docs): the real `iris` binary on temporary repositories, every way
//! out of the repository tried and refused.

use crate::common::Iris;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{TestRepo, fake_bin, path_with, stdout};
use serde_json::Value;

/// `iris ARGS` in the repository with extra environment variables, and IRIS_TRUST_REPO unset
/// unless given, so that the developer's own environment never decides a test.
fn iris_env(repo: &TestRepo, args: &[&str], env: &[(&str, OsString)]) -> Output {
    let home = repo.path().parent().expect("temp dir").to_path_buf();
    let mut command = Command::new(env!("CARGO_BIN_EXE_iris"));
    command
        .args(args)
        .current_dir(repo.path())
        .env("GIT_CONFIG_GLOBAL", home.join(".test-gitconfig"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", &home)
        .env("NO_COLOR", "1")
        .env_remove("IRIS_TRUST_REPO");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("run iris")
}

/// `iris tool NAME ARGS`, which must succeed, parsed as JSON.
fn tool_json(repo: &TestRepo, name: &str, args: &str) -> Value {
    let text = repo.tool(name, args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{name} did not answer JSON ({e}):\n{text}"))
}

/// `iris tool NAME ARGS`, which must fail; returns what the model would read.
fn tool_failure(repo: &TestRepo, name: &str, args: &str) -> String {
    let out = repo.iris(&["tool", name, args]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name} {args} should fail: {}",
        stdout(&out)
    );
    stdout(&out)
}

/// A file outside the repository (beside it, in the test's temp dir) holding `content`.
fn outside_file(repo: &TestRepo, name: &str, content: &str) -> PathBuf {
    let path = repo.path().parent().expect("temp dir").join(name);
    std::fs::write(&path, content).expect("write outside file");
    path
}

fn symlink(target: &Path, repo: &TestRepo, link: &str) {
    std::os::unix::fs::symlink(target, repo.path().join(link)).expect("symlink");
}

/// (file, line) pairs of a code_search answer.
fn hits(answer: &Value) -> Vec<(String, u64)> {
    answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["file"].as_str().expect("file").to_string(),
                r["line"].as_u64().expect("line"),
            )
        })
        .collect()
}

fn files_of(answer: &Value) -> Vec<String> {
    let mut files: Vec<String> = hits(answer).into_iter().map(|(f, _)| f).collect();
    files.dedup();
    files
}

// ---------------------------------------------------------------- file_read

#[test]
fn file_read_shows_a_file_and_a_line_range_with_numbers() {
    let repo = TestRepo::new();
    repo.write(
        "src/lib.rs",
        "fn one() {}\nfn two() {}\nfn three() {}\nfn four() {}\n",
    );
    let whole = repo.tool("file_read", r#"{"path":"src/lib.rs"}"#);
    assert_eq!(
        whole,
        "src/lib.rs: lines 1-4 of 4\n     1| fn one() {}\n     2| fn two() {}\n     3| fn three() {}\n     4| fn four() {}\n"
    );
    let range = repo.tool(
        "file_read",
        r#"{"path":"./src/lib.rs","start_line":2,"num_lines":2}"#,
    );
    assert_eq!(
        range,
        "src/lib.rs: lines 2-3 of 4\n     2| fn two() {}\n     3| fn three() {}\n[1 more lines; read on with start_line: 4]\n"
    );
    let past = tool_failure(
        &repo,
        "file_read",
        r#"{"path":"src/lib.rs","start_line":9}"#,
    );
    assert!(
        past.contains("past the end of src/lib.rs, which has 4 lines"),
        "{past}"
    );
    let zero = tool_failure(
        &repo,
        "file_read",
        r#"{"path":"src/lib.rs","start_line":0}"#,
    );
    assert!(zero.contains("1-based"), "{zero}");
    let missing = tool_failure(&repo, "file_read", r#"{"path":"src/none.rs"}"#);
    assert!(
        missing.contains("'src/none.rs' does not exist"),
        "{missing}"
    );
    let dir = tool_failure(&repo, "file_read", r#"{"path":"src"}"#);
    assert!(dir.contains("is a directory"), "{dir}");
    let made = Command::new("mkfifo")
        .arg(repo.path().join("pipe"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let fifo = tool_failure(&repo, "file_read", r#"{"path":"pipe"}"#);
    assert!(fifo.contains("'pipe' is not a regular file"), "{fifo}");
}

#[test]
fn file_read_cuts_a_large_file_and_says_how_to_read_the_rest() {
    let repo = TestRepo::new();
    let text: String = (1..=2_500).map(|i| format!("line number {i}\n")).collect();
    repo.write("big.txt", &text);
    let first = repo.tool("file_read", r#"{"path":"big.txt"}"#);
    assert!(
        first.starts_with("big.txt: lines 1-1000 of 2500\n"),
        "{}",
        &first[..60]
    );
    assert!(first.contains("  1000| line number 1000\n"));
    assert!(!first.contains("line number 1001\n"));
    assert!(
        first.ends_with("read on with start_line: 1001]\n"),
        "{}",
        &first[first.len() - 150..]
    );
    // Asking for more than the bound is cut at the bound too.
    let next = repo.tool(
        "file_read",
        r#"{"path":"big.txt","start_line":1001,"num_lines":5000}"#,
    );
    assert!(next.starts_with("big.txt: lines 1001-2000 of 2500\n  1001| line number 1001\n"));
    assert!(next.ends_with("read on with start_line: 2001]\n"));
}

#[test]
fn file_read_reports_a_binary_file_without_dumping_it() {
    let repo = TestRepo::new();
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend_from_slice(b"HIDDEN-PAYLOAD");
    repo.write("logo.png", &bytes);
    let out = repo.tool("file_read", r#"{"path":"logo.png"}"#);
    assert_eq!(
        out,
        "logo.png is a binary file; its content is not shown.\n"
    );
}

#[test]
fn file_read_refuses_dot_dot_paths_that_climb_out() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "fn a() {}\n");
    outside_file(&repo, "outside.txt", "SECRET-OUTSIDE\n");
    for path in [
        "../outside.txt",
        "src/../../outside.txt",
        "./../outside.txt",
    ] {
        let out = tool_failure(&repo, "file_read", &format!(r#"{{"path":"{path}"}}"#));
        assert!(out.contains("it leaves the repository"), "{path}: {out}");
        assert!(!out.contains("SECRET-OUTSIDE"));
    }
    // `..` that stays inside is fine.
    let inside = repo.tool("file_read", r#"{"path":"src/../src/lib.rs"}"#);
    assert!(inside.contains("1| fn a() {}"));
}

#[test]
fn file_read_refuses_absolute_paths() {
    let repo = TestRepo::new();
    let outside = outside_file(&repo, "outside.txt", "SECRET-OUTSIDE\n");
    for path in [
        outside.to_string_lossy().into_owned(),
        "/etc/passwd".to_string(),
    ] {
        let out = tool_failure(&repo, "file_read", &format!(r#"{{"path":"{path}"}}"#));
        assert!(
            out.contains("paths are relative to the repository root"),
            "{out}"
        );
        assert!(!out.contains("SECRET-OUTSIDE") && !out.contains("root:"));
    }
}

#[test]
fn file_read_refuses_symbolic_links_that_resolve_outside() {
    let repo = TestRepo::new();
    let outside_dir = tempfile::tempdir().expect("temp dir");
    let secret = outside_dir.path().join("secret.txt");
    std::fs::write(&secret, "SECRET-OUTSIDE\n").expect("write");
    symlink(&secret, &repo, "innocent.txt");
    symlink(outside_dir.path(), &repo, "vendor");
    for path in ["innocent.txt", "vendor/secret.txt"] {
        let out = tool_failure(&repo, "file_read", &format!(r#"{{"path":"{path}"}}"#));
        assert!(
            out.contains("resolves outside the repository"),
            "{path}: {out}"
        );
        assert!(!out.contains("SECRET-OUTSIDE"));
    }
    // A link that stays inside the repository is followed.
    repo.write("docs/real.md", "inside the repo\n");
    symlink(Path::new("docs/real.md"), &repo, "alias.md");
    let out = repo.tool("file_read", r#"{"path":"alias.md"}"#);
    assert!(out.contains("1| inside the repo"), "{out}");
}

// ---------------------------------------------------------------- file_list

/// A repository with ignored build output and logs, a tracked dotfile folder and nested sources.
fn listed_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".gitignore", "target/\n*.log\n");
    repo.write("README.md", "# Listed\n");
    repo.write("src/lib.rs", "pub fn a() {}\n");
    repo.write("src/main.rs", "fn main() {}\n");
    repo.write("src/ui/pane.rs", "pub struct Pane;\n");
    repo.write("src/debug.log", "ignored\n");
    repo.write(".github/workflows/ci.yml", "on: push\n");
    repo.write("target/debug/build.rs", "// build output\n");
    repo.write("run.log", "ignored\n");
    repo.commit_all("initial");
    repo
}

#[test]
fn file_list_shows_the_root_and_a_subdirectory_without_ignored_entries() {
    let repo = listed_repo();
    let root = repo.tool("file_list", r#"{"path":""}"#);
    assert_eq!(
        root,
        "./ (the repository root): 2 directories, 2 files; 2 entries ignored by .gitignore not \
         shown\n\
         dir      .github/\n\
         dir      src/\n\
         file     .gitignore  14 bytes\n\
         file     README.md  9 bytes\n"
    );
    assert!(!root.contains(".git/") && !root.contains("target") && !root.contains("run.log"));
    // "." and no path at all are the root too.
    assert_eq!(repo.tool("file_list", r#"{"path":"."}"#), root);
    assert_eq!(repo.tool("file_list", "{}"), root);

    let src = repo.tool("file_list", r#"{"path":"src"}"#);
    assert_eq!(
        src,
        "src/: 1 directory, 2 files; 1 entry ignored by .gitignore not shown\n\
         dir      ui/\n\
         file     lib.rs  14 bytes\n\
         file     main.rs  13 bytes\n"
    );
    assert_eq!(repo.tool("file_list", r#"{"path":"./src/"}"#), src);
    let deep = repo.tool("file_list", r#"{"path":".github/workflows"}"#);
    assert_eq!(
        deep,
        ".github/workflows/: 1 file\nfile     ci.yml  9 bytes\n"
    );
}

#[test]
fn file_list_shows_where_links_lead_without_following_them_out() {
    let repo = listed_repo();
    let outside_dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside_dir.path().join("secret.txt"), "SECRET-OUTSIDE\n").expect("write");
    symlink(outside_dir.path(), &repo, "src/vendor");
    symlink(Path::new("lib.rs"), &repo, "src/alias.rs");
    symlink(Path::new("nowhere.rs"), &repo, "src/broken.rs");
    let src = repo.tool("file_list", r#"{"path":"src"}"#);
    assert_eq!(
        src,
        "src/: 1 directory, 2 files, 3 symlinks; 1 entry ignored by .gitignore not shown\n\
         dir      ui/\n\
         symlink  alias.rs -> src/lib.rs\n\
         symlink  broken.rs (its target does not exist)\n\
         file     lib.rs  14 bytes\n\
         file     main.rs  13 bytes\n\
         symlink  vendor (it leads outside the repository; not followed)\n"
    );
    let outside_name = outside_dir.path().to_string_lossy().into_owned();
    assert!(!src.contains(&outside_name) && !src.contains("secret.txt"));
}

#[test]
fn file_list_refuses_files_missing_paths_and_every_way_out() {
    let repo = listed_repo();
    let file = tool_failure(&repo, "file_list", r#"{"path":"src/lib.rs"}"#);
    assert!(
        file.contains("'src/lib.rs' is a file, not a directory; read it with file_read"),
        "{file}"
    );
    let missing = tool_failure(&repo, "file_list", r#"{"path":"docs"}"#);
    assert!(missing.contains("'docs' does not exist"), "{missing}");
    assert!(missing.contains("\"\" is the root"), "{missing}");

    outside_file(&repo, "outside.txt", "SECRET-OUTSIDE\n");
    for path in ["..", "../repo", "src/../../", "./../outside.txt"] {
        let out = tool_failure(&repo, "file_list", &format!(r#"{{"path":"{path}"}}"#));
        assert!(out.contains("it leaves the repository"), "{path}: {out}");
        assert!(!out.contains("outside.txt\n") && !out.contains(".test-gitconfig"));
    }
    let parent = repo
        .path()
        .parent()
        .expect("temp dir")
        .to_string_lossy()
        .into_owned();
    for path in [parent.as_str(), "/", "/etc"] {
        let out = tool_failure(&repo, "file_list", &format!(r#"{{"path":"{path}"}}"#));
        assert!(
            out.contains("paths are relative to the repository root"),
            "{path}: {out}"
        );
        assert!(!out.contains("outside.txt\n") && !out.contains("passwd"));
    }

    let outside_dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside_dir.path().join("secret.txt"), "SECRET-OUTSIDE\n").expect("write");
    symlink(outside_dir.path(), &repo, "vendor");
    for path in ["vendor", "vendor/", "./vendor/."] {
        let out = tool_failure(&repo, "file_list", &format!(r#"{{"path":"{path}"}}"#));
        assert!(
            out.contains("resolves outside the repository"),
            "{path}: {out}"
        );
        assert!(!out.contains("secret.txt"), "{out}");
    }

    for path in [".git", ".git/refs"] {
        let out = tool_failure(&repo, "file_list", &format!(r#"{{"path":"{path}"}}"#));
        assert!(out.contains("inside .git"), "{path}: {out}");
    }
    let ignored = tool_failure(&repo, "file_list", r#"{"path":"target/debug"}"#);
    assert!(
        ignored.contains("'target/debug' is ignored by .gitignore"),
        "{ignored}"
    );
    assert!(!ignored.contains("build.rs"));
}

#[test]
fn file_list_bounds_a_large_directory_and_says_how_many_more() {
    let repo = TestRepo::new();
    for i in 0..520 {
        repo.write(&format!("many/f{i:03}.txt"), "x");
    }
    repo.write("many/sub/a.txt", "x");
    let out = repo.tool("file_list", r#"{"path":"many"}"#);
    assert!(
        out.starts_with(
            "many/: 1 directory, 520 files\ndir      sub/\nfile     f000.txt  1 byte\n"
        ),
        "{}",
        &out[..120]
    );
    let entries = out
        .lines()
        .filter(|l| l.starts_with("file ") || l.starts_with("dir "))
        .count();
    assert_eq!(entries, 500);
    assert!(out.contains("file     f498.txt  1 byte\n"));
    assert!(!out.contains("f499.txt"), "the 501st entry is left out");
    assert!(
        out.ends_with(
            "[21 more entries not shown (at most 500 per call); list a subdirectory, or use \
             file_search with a pattern, to narrow]\n"
        ),
        "{}",
        &out[out.len() - 200..]
    );
}

// ---------------------------------------------------------------- file_search

/// A repository of Rust, TOML and Python files at several depths.
fn searched_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".gitignore", "target/\n*.log\n");
    repo.write("Cargo.toml", "[package]\n");
    repo.write("src/lib.rs", "\n");
    repo.write("src/Config.rs", "\n");
    repo.write("src/agent/mod.rs", "\n");
    repo.write("src/agent/tools/config_tool.rs", "\n");
    repo.write("tests/test_config.py", "\n");
    repo.write("capabilities/commit.toml", "\n");
    repo.write("target/debug/config.rs", "// build output\n");
    repo.write("config.log", "ignored\n");
    repo.commit_all("initial");
    repo
}

#[test]
fn file_search_matches_a_glob_by_name_or_by_path() {
    let repo = searched_repo();
    let rust = repo.tool("file_search", r#"{"pattern":"*.rs"}"#);
    assert_eq!(
        rust,
        "4 files match the glob '*.rs' in the repository:\n\
         src/Config.rs\n\
         src/agent/mod.rs\n\
         src/agent/tools/config_tool.rs\n\
         src/lib.rs\n"
    );
    let direct = repo.tool("file_search", r#"{"pattern":"src/*.rs"}"#);
    assert_eq!(
        direct,
        "2 files match the glob 'src/*.rs' in the repository:\nsrc/Config.rs\nsrc/lib.rs\n"
    );
    let deep = repo.tool("file_search", r#"{"pattern":"src/**/mod.rs"}"#);
    assert_eq!(
        deep,
        "1 file matches the glob 'src/**/mod.rs' in the repository:\nsrc/agent/mod.rs\n"
    );
    let toml = repo.tool("file_search", r#"{"pattern":"*.TOML"}"#);
    assert_eq!(
        toml,
        "2 files match the glob '*.TOML' in the repository:\nCargo.toml\ncapabilities/commit.toml\n"
    );
    let chars = repo.tool("file_search", r#"{"pattern":"[lm]?*.rs"}"#);
    assert_eq!(
        chars,
        "2 files match the glob '[lm]?*.rs' in the repository:\nsrc/agent/mod.rs\nsrc/lib.rs\n"
    );
}

#[test]
fn file_search_matches_a_substring_of_the_path_ignoring_case() {
    let repo = searched_repo();
    let config = repo.tool("file_search", r#"{"pattern":"CONFIG"}"#);
    assert_eq!(
        config,
        "3 files match the substring 'CONFIG' in the repository:\n\
         src/Config.rs\n\
         src/agent/tools/config_tool.rs\n\
         tests/test_config.py\n"
    );
    // A substring may span directories, and directories are listed on request.
    let tools = repo.tool("file_search", r#"{"pattern":"agent/tools"}"#);
    assert_eq!(
        tools,
        "1 file matches the substring 'agent/tools' in the repository:\n\
         src/agent/tools/config_tool.rs\n"
    );
    let dirs = repo.tool("file_search", r#"{"pattern":"agent","include_dirs":true}"#);
    assert_eq!(
        dirs,
        "4 files and directories match the substring 'agent' in the repository:\n\
         src/agent/\n\
         src/agent/mod.rs\n\
         src/agent/tools/\n\
         src/agent/tools/config_tool.rs\n"
    );
}

#[test]
fn file_search_inside_a_path_finds_only_what_lies_under_it() {
    let repo = searched_repo();
    let agent = repo.tool("file_search", r#"{"pattern":"*.rs","path":"src/agent"}"#);
    assert_eq!(
        agent,
        "2 files match the glob '*.rs' in src/agent/:\n\
         src/agent/mod.rs\n\
         src/agent/tools/config_tool.rs\n"
    );
    // A glob with '/' may be written from the directory searched as well as from the root.
    let relative = repo.tool(
        "file_search",
        r#"{"pattern":"tools/*.rs","path":"src/agent"}"#,
    );
    assert_eq!(
        relative,
        "1 file matches the glob 'tools/*.rs' in src/agent/:\nsrc/agent/tools/config_tool.rs\n"
    );
    let tests = repo.tool("file_search", r#"{"pattern":"config","path":"./tests"}"#);
    assert_eq!(
        tests,
        "1 file matches the substring 'config' in tests/:\ntests/test_config.py\n"
    );
    let file = tool_failure(
        &repo,
        "file_search",
        r#"{"pattern":"*","path":"src/lib.rs"}"#,
    );
    assert!(file.contains("'src/lib.rs' is a file"), "{file}");
    let missing = tool_failure(&repo, "file_search", r#"{"pattern":"*","path":"docs"}"#);
    assert!(missing.contains("'docs' does not exist"), "{missing}");
    let out = tool_failure(&repo, "file_search", r#"{"pattern":"*","path":".."}"#);
    assert!(out.contains("it leaves the repository"), "{out}");
    let ignored = tool_failure(&repo, "file_search", r#"{"pattern":"*","path":"target"}"#);
    assert!(
        ignored.contains("'target' is ignored by .gitignore"),
        "{ignored}"
    );
}

#[test]
fn file_search_skips_ignored_files_git_and_links_out() {
    let repo = searched_repo();
    let outside_dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside_dir.path().join("config.rs"), "SECRET-OUTSIDE\n").expect("write");
    symlink(outside_dir.path(), &repo, "vendor");
    symlink(
        &outside_dir.path().join("config.rs"),
        &repo,
        "linked_config.rs",
    );
    symlink(Path::new("src/Config.rs"), &repo, "alias_config.rs");
    std::fs::write(repo.path().join(".git/config_notes"), "x\n").expect("write");
    let config = repo.tool("file_search", r#"{"pattern":"config"}"#);
    assert_eq!(
        config,
        "4 files match the substring 'config' in the repository:\n\
         alias_config.rs -> src/Config.rs\n\
         src/Config.rs\n\
         src/agent/tools/config_tool.rs\n\
         tests/test_config.py\n"
    );
    let globbed = repo.tool("file_search", r#"{"pattern":"**/config*"}"#);
    assert!(
        !globbed.contains("target/") && !globbed.contains("vendor"),
        "{globbed}"
    );
    assert!(
        !globbed.contains(".git/") && !globbed.contains("config.log"),
        "{globbed}"
    );
    let through = tool_failure(&repo, "file_search", r#"{"pattern":"*","path":"vendor"}"#);
    assert!(
        through.contains("resolves outside the repository"),
        "{through}"
    );
    let git = tool_failure(&repo, "file_search", r#"{"pattern":"*","path":".git"}"#);
    assert!(git.contains("inside .git"), "{git}");
}

#[test]
fn file_search_bounds_its_answer_on_a_repository_with_many_files() {
    let repo = TestRepo::new();
    for i in 0..260 {
        repo.write(&format!("gen/d{}/file{i:03}.rs", i % 4), "\n");
    }
    let out = repo.tool("file_search", r#"{"pattern":"*.rs"}"#);
    assert!(
        out.starts_with("260 files match the glob '*.rs' in the repository; the first 200:\n"),
        "{}",
        &out[..100]
    );
    let paths: Vec<&str> = out.lines().filter(|l| l.starts_with("gen/")).collect();
    assert_eq!(paths.len(), 200);
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted, "paths come sorted");
    assert_eq!(paths[0], "gen/d0/file000.rs");
    assert!(
        out.ends_with(
            "[60 more not shown (at most 200 per call); narrow the pattern, or give a path to \
             search one directory]\n"
        ),
        "{}",
        &out[out.len() - 150..]
    );
    // A path narrows it within the bound.
    let narrow = repo.tool("file_search", r#"{"pattern":"*.rs","path":"gen/d1"}"#);
    assert!(
        narrow.starts_with("65 files match the glob '*.rs' in gen/d1/:\n"),
        "{narrow}"
    );
    assert!(!narrow.contains("more not shown"));
}

#[test]
fn file_search_answers_no_match_and_explains_an_invalid_pattern() {
    let repo = searched_repo();
    let none = repo.tool("file_search", r#"{"pattern":"*.go"}"#);
    assert!(
        none.starts_with(
            "no file matches the glob '*.go' in the repository (files ignored by .gitignore are \
             not searched); try "
        ),
        "{none}"
    );
    let none_in = repo.tool("file_search", r#"{"pattern":"widget","path":"src"}"#);
    assert!(
        none_in.starts_with("no file matches the substring 'widget' in src/"),
        "{none_in}"
    );
    assert!(none_in.contains("search the whole repository"), "{none_in}");
    let invalid = tool_failure(&repo, "file_search", r#"{"pattern":"src/[ab.rs"}"#);
    assert!(
        invalid.contains("invalid glob 'src/[ab.rs': unclosed character class"),
        "{invalid}"
    );
    for pattern in ["../*.rs", "/etc/*", "src/../../*"] {
        let args = serde_json::json!({ "pattern": pattern }).to_string();
        let out = tool_failure(&repo, "file_search", &args);
        assert!(
            out.contains(&format!("invalid pattern '{pattern}'")),
            "{out}"
        );
    }
    let empty = tool_failure(&repo, "file_search", r#"{"pattern":"  "}"#);
    assert!(empty.contains("pattern is empty"), "{empty}");
}

// ---------------------------------------------------------------- code_search

#[test]
fn code_search_text_is_a_case_insensitive_literal() {
    let repo = TestRepo::new();
    repo.write("a.txt", "say Hello.World here\nhelloXworld is no match\n");
    repo.write("src/b.rs", "// HELLO.WORLD in a comment\n");
    let text = repo.tool("code_search", r#"{"query":"hello.world"}"#);
    // The fields come in the documented order.
    let order: Vec<usize> = [
        "\"query\"",
        "\"search_type\"",
        "\"results\"",
        "\"total_found\"",
        "\"max_results\"",
    ]
    .iter()
    .map(|k| {
        text.find(k)
            .unwrap_or_else(|| panic!("{k} missing in {text}"))
    })
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    let answer: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(answer["query"], "hello.world");
    assert_eq!(answer["search_type"], "text");
    assert_eq!(answer["total_found"], 2);
    assert_eq!(answer["max_results"], 20);
    assert_eq!(
        hits(&answer),
        [("a.txt".to_string(), 1), ("src/b.rs".to_string(), 1)]
    );
    assert_eq!(answer["results"][0]["content"], "say Hello.World here");
}

#[test]
fn code_search_finds_definitions_per_language() {
    let repo = TestRepo::new();
    repo.write(
        "src/parser.rs",
        "pub struct ParseState {}\nconst PARSE_LIMIT: usize = 3;\n\npub fn parse_config(s: &str) {\n    let parse_count = 1;\n    parse_config(s);\n}\n",
    );
    repo.write(
        "web/parse.ts",
        "export interface ParseOptions {}\nexport function parseQuery(q: string) {}\nconst parseAll = async (x) => x;\nparseQuery('x');\n",
    );
    repo.write(
        "tool/parse.py",
        "class Parser:\n    def parse_line(self):\n        parse_depth = 3\n        return parse_line()\n",
    );
    repo.write(
        "cmd/parse.go",
        "package cmd\n\ntype Parser struct {}\n\nfunc (p *Parser) ParseArgs() {\n\tparseMode := 1\n}\n\nfunc parseFile() {}\n",
    );
    repo.write("notes.md", "fn parse_me is not code\n");

    let functions = tool_json(
        &repo,
        "code_search",
        r#"{"query":"parse","search_type":"function"}"#,
    );
    assert_eq!(
        hits(&functions),
        [
            ("cmd/parse.go".to_string(), 5),
            ("cmd/parse.go".to_string(), 9),
            ("src/parser.rs".to_string(), 4),
            ("tool/parse.py".to_string(), 2),
            ("web/parse.ts".to_string(), 2),
            ("web/parse.ts".to_string(), 3),
        ],
        "{functions:#}"
    );
    // Names ignore case; the keywords around them do not.
    let go_method = tool_json(
        &repo,
        "code_search",
        r#"{"query":"PARSEARGS","search_type":"function"}"#,
    );
    assert_eq!(hits(&go_method), [("cmd/parse.go".to_string(), 5)]);

    let classes = tool_json(
        &repo,
        "code_search",
        r#"{"query":"Parse","search_type":"class"}"#,
    );
    assert_eq!(
        hits(&classes),
        [
            ("cmd/parse.go".to_string(), 3),
            ("src/parser.rs".to_string(), 1),
            ("tool/parse.py".to_string(), 1),
            ("web/parse.ts".to_string(), 1),
        ],
        "{classes:#}"
    );
    let variables = tool_json(
        &repo,
        "code_search",
        r#"{"query":"parse","search_type":"variable"}"#,
    );
    assert_eq!(
        hits(&variables),
        [
            ("cmd/parse.go".to_string(), 6),
            ("src/parser.rs".to_string(), 2),
            ("src/parser.rs".to_string(), 5),
            ("tool/parse.py".to_string(), 3),
            ("web/parse.ts".to_string(), 3),
        ],
        "{variables:#}"
    );
    let not_a_name = tool_failure(
        &repo,
        "code_search",
        r#"{"query":"parse config","search_type":"function"}"#,
    );
    assert!(
        not_a_name.contains("a definition search takes a name"),
        "{not_a_name}"
    );
}

#[test]
fn code_search_pattern_is_a_regex_and_an_invalid_one_is_explained() {
    let repo = TestRepo::new();
    repo.write(
        "src/v.rs",
        "fn load_v1() {}\nfn load_v22() {}\nfn load_vx() {}\n",
    );
    let answer = tool_json(
        &repo,
        "code_search",
        r#"{"query":"load_v[0-9]+\\(","search_type":"pattern"}"#,
    );
    assert_eq!(
        hits(&answer),
        [("src/v.rs".to_string(), 1), ("src/v.rs".to_string(), 2)]
    );
    let bad = tool_failure(
        &repo,
        "code_search",
        r#"{"query":"load_(v","search_type":"pattern"}"#,
    );
    assert!(
        bad.contains("invalid regular expression 'load_(v'"),
        "{bad}"
    );
    assert!(bad.contains("search_type \"text\""), "{bad}");
    let empty = tool_failure(&repo, "code_search", r#"{"query":"  "}"#);
    assert!(empty.contains("query is empty"), "{empty}");
}

#[test]
fn code_search_max_results_defaults_to_20_and_is_capped_at_100() {
    let repo = TestRepo::new();
    let text: String = (1..=150).map(|i| format!("needle {i}\n")).collect();
    repo.write("many.txt", &text);
    let default = tool_json(&repo, "code_search", r#"{"query":"needle"}"#);
    assert_eq!(default["results"].as_array().map(Vec::len), Some(20));
    assert_eq!(default["total_found"], 150);
    assert_eq!(default["max_results"], 20);
    let lines: Vec<u64> = hits(&default).into_iter().map(|(_, l)| l).collect();
    assert_eq!(lines, (1..=20).collect::<Vec<u64>>());

    let capped = tool_json(
        &repo,
        "code_search",
        r#"{"query":"needle","max_results":500}"#,
    );
    assert_eq!(capped["results"].as_array().map(Vec::len), Some(100));
    assert_eq!(capped["max_results"], 100);
    let at_least_one = tool_json(
        &repo,
        "code_search",
        r#"{"query":"needle","max_results":0}"#,
    );
    assert_eq!(at_least_one["results"].as_array().map(Vec::len), Some(1));

    // A long matching line is shown cut, not whole.
    repo.write("long.txt", format!("needle{}\n", "x".repeat(2_000)));
    let long = tool_json(
        &repo,
        "code_search",
        r#"{"query":"needle","file_pattern":"long.txt"}"#,
    );
    let content = long["results"][0]["content"].as_str().expect("content");
    assert_eq!(content.chars().count(), 301, "{content}");
    assert!(content.starts_with("needlexxx") && content.ends_with('…'));
}

#[test]
fn code_search_skips_ignored_binary_and_git_files() {
    let repo = TestRepo::new();
    repo.write(".gitignore", "target/\n*.log\n");
    repo.write("src/ok.rs", "// needle here\n");
    repo.write(
        ".github/workflows/ci.yml",
        "# needle in a tracked dotfile\n",
    );
    repo.write("target/debug/gen.rs", "// needle in build output\n");
    repo.write("run.log", "needle in a log\n");
    repo.write("image.bin", b"\0\0binary\0needle\n");
    repo.commit_all("needle in the commit message");
    std::fs::write(repo.path().join(".git/description"), "needle\n").expect("write");
    let answer = tool_json(&repo, "code_search", r#"{"query":"needle"}"#);
    assert_eq!(
        files_of(&answer),
        [".github/workflows/ci.yml", "src/ok.rs"],
        "{answer:#}"
    );
}

#[test]
fn code_search_treats_dashes_and_shell_characters_as_plain_text() {
    let repo = TestRepo::new();
    repo.write(
        "script.txt",
        "run -rf $(touch pwned); `id` | cat > out && echo *\n",
    );
    repo.write("flags.txt", "--files\n");
    let query = r#"-rf $(touch pwned); `id` | cat > out && echo *"#;
    let args = serde_json::json!({ "query": query }).to_string();
    let answer = tool_json(&repo, "code_search", &args);
    assert_eq!(hits(&answer), [("script.txt".to_string(), 1)]);
    assert_eq!(answer["query"], query);
    let flag = tool_json(&repo, "code_search", r#"{"query":"--files"}"#);
    assert_eq!(hits(&flag), [("flags.txt".to_string(), 1)]);
    assert!(!repo.path().join("pwned").exists());
    assert!(!repo.path().join("out").exists());
}

#[test]
fn code_search_file_pattern_selects_files_and_refuses_escapes() {
    let repo = TestRepo::new();
    repo.write("src/a.rs", "needle\n");
    repo.write("src/deep/b.rs", "needle\n");
    repo.write("tool/c.py", "needle\n");
    let rust = tool_json(
        &repo,
        "code_search",
        r#"{"query":"needle","file_pattern":"*.rs"}"#,
    );
    assert_eq!(files_of(&rust), ["src/a.rs", "src/deep/b.rs"]);
    let python = tool_json(
        &repo,
        "code_search",
        r#"{"query":"needle","file_pattern":"tool/**"}"#,
    );
    assert_eq!(files_of(&python), ["tool/c.py"]);
    let not_rust = tool_json(
        &repo,
        "code_search",
        r#"{"query":"needle","file_pattern":"!*.rs"}"#,
    );
    assert_eq!(files_of(&not_rust), ["tool/c.py"]);
    for pattern in ["../*", "src/../../*", "/etc/*"] {
        let args = serde_json::json!({ "query": "needle", "file_pattern": pattern }).to_string();
        let out = tool_failure(&repo, "code_search", &args);
        assert!(
            out.contains(&format!("invalid file_pattern '{pattern}'")),
            "{out}"
        );
    }
}

#[test]
fn code_search_never_follows_links_out_of_the_repository() {
    let repo = TestRepo::new();
    repo.write("src/a.rs", "// nothing here\n");
    let outside_dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside_dir.path().join("secret.rs"), "needle outside\n").expect("write");
    symlink(&outside_dir.path().join("secret.rs"), &repo, "linked.rs");
    symlink(outside_dir.path(), &repo, "vendor");
    let answer = tool_json(&repo, "code_search", r#"{"query":"needle"}"#);
    assert_eq!(answer["total_found"], 0, "{answer:#}");
    let through = tool_json(
        &repo,
        "code_search",
        r#"{"query":"needle","file_pattern":"vendor/**"}"#,
    );
    assert_eq!(through["total_found"], 0, "{through:#}");
}

// ---------------------------------------------------------------- repo_map

fn polyglot_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "src/engine.rs",
        "use std::fmt;\nuse crate::config::Config;\n\npub struct Engine {}\n\nimpl Engine {\n    pub fn start(&self) {}\n}\n\npub enum Mode { A }\nconst LIMIT: usize = 3;\n",
    );
    repo.write("src/config.rs", "pub struct Config {}\n");
    repo.write(
        "web/app.ts",
        "import { x } from './x';\nexport class App {}\nexport function render() {}\n",
    );
    repo.write(
        "tool/cli.py",
        "import os\nfrom pathlib import Path\n\nclass Cli:\n    def run(self):\n        pass\n",
    );
    repo.write(
        "cmd/main.go",
        "package main\n\nimport \"fmt\"\n\ntype Server struct{}\n\nfunc (s *Server) Start() {}\n",
    );
    repo.write(
        "app/Main.kt",
        "import kotlin.io\n\ndata class User(val name: String)\nfun greet() {}\n",
    );
    repo.write(
        "ios/View.swift",
        "import SwiftUI\n\nstruct ContentView {}\nfunc draw() {}\n",
    );
    repo.write(
        "lib/tool.rb",
        "require 'json'\n\nmodule Tools\n  def self.build\n  end\nend\n",
    );
    repo.write(
        "nvim/init.lua",
        "local util = require('util')\nlocal function setup() end\n",
    );
    repo.write(
        "scripts/build.sh",
        "source ./env.sh\nbuild_all() {\n  echo hi\n}\n",
    );
    repo.write("README.md", "# Not source\n");
    repo.commit_all("Initial commit");
    repo
}

#[test]
fn repo_map_outlines_definitions_and_imports_in_each_language() {
    let repo = polyglot_repo();
    let map = tool_json(&repo, "repo_map", "{}");
    assert_eq!(map["files_analyzed"], 10, "{map:#}");
    assert_eq!(map["files_shown"], 10);
    assert_eq!(map["changed_files"], serde_json::json!([]));
    assert_eq!(map["mentioned_files"], serde_json::json!([]));
    let content = map["content"].as_str().expect("content");
    for expected in [
        "src/engine.rs (5 definitions, 2 imports)",
        "  imports: use std::fmt | use crate::config::Config",
        "  pub struct Engine {}\n",
        "  impl Engine\n",
        "  pub fn start(&self) {}\n",
        "  const LIMIT: usize = 3\n",
        "  export class App {}\n",
        "  export function render() {}\n",
        "  imports: import os | from pathlib import Path",
        "  class Cli:\n",
        "  def run(self):\n",
        "  type Server struct{}\n",
        "  func (s *Server) Start() {}\n",
        "  imports: import \"fmt\"",
        "  data class User(val name: String)\n",
        "  struct ContentView {}\n",
        "  module Tools\n",
        "  def self.build\n",
        "  imports: require 'json'",
        "  local function setup() end\n",
        "  imports: source ./env.sh",
        "  build_all()\n",
    ] {
        assert!(
            content.contains(expected),
            "missing {expected:?} in:\n{content}"
        );
    }
    assert!(!content.contains("README.md"));
    // The file with the most definitions comes first when nothing is changed or mentioned.
    assert!(content.starts_with("src/engine.rs"), "{content}");
}

#[test]
fn repo_map_ranks_mentioned_then_changed_files_first() {
    let repo = polyglot_repo();
    repo.write("src/config.rs", "pub struct Config {}\npub fn load() {}\n");
    let map = tool_json(
        &repo,
        "repo_map",
        r#"{"mentioned_files":["nvim/init.lua","./README.md"]}"#,
    );
    assert_eq!(map["changed_files"], serde_json::json!(["src/config.rs"]));
    assert_eq!(
        map["mentioned_files"],
        serde_json::json!(["nvim/init.lua", "README.md"])
    );
    let content = map["content"].as_str().expect("content");
    let order: Vec<&str> = content
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with('['))
        .map(|l| l.split(' ').next().unwrap_or_default())
        .collect();
    // The mentioned files first (the one with definitions ahead), then the changed one.
    assert_eq!(
        &order[..3],
        ["nvim/init.lua", "README.md", "src/config.rs"],
        "{content}"
    );
    assert!(
        content.contains("nvim/init.lua [mentioned] (1 definitions, 1 imports)"),
        "{content}"
    );
    assert!(
        content.contains("src/config.rs [changed] (2 definitions, 0 imports)"),
        "{content}"
    );
}

#[test]
fn repo_map_keeps_twelve_definitions_and_six_imports_per_file() {
    let repo = TestRepo::new();
    let mut text: String = (0..10).map(|i| format!("use crate::m{i};\n")).collect();
    text.extend((0..20).map(|i| format!("pub fn f{i}() {{}}\n")));
    repo.write("src/big.rs", &text);
    let map = tool_json(&repo, "repo_map", "{}");
    let content = map["content"].as_str().expect("content");
    assert!(
        content.starts_with("src/big.rs [changed] (20 definitions, 10 imports)\n"),
        "{content}"
    );
    assert!(content.contains("  imports: use crate::m0 | use crate::m1 | use crate::m2 | use crate::m3 | use crate::m4 | use crate::m5\n"));
    assert!(content.contains("  pub fn f11() {}\n") && !content.contains("pub fn f12()"));
    assert!(content.contains("  … 8 more definitions\n"), "{content}");
}

#[test]
fn repo_map_token_budget_and_max_files_are_clamped() {
    let repo = TestRepo::new();
    for i in 0..260 {
        repo.write(
            &format!("src/m{i:03}.rs"),
            format!("pub struct Item{i} {{}}\npub fn make_{i}() {{}}\n"),
        );
    }
    let default = tool_json(&repo, "repo_map", "{}");
    assert_eq!(default["files_analyzed"], 260);
    assert!(default["content"].as_str().expect("content").len() <= 2_000 * 4);
    assert!(
        default["content"]
            .as_str()
            .unwrap_or_default()
            .contains("more files not shown")
    );

    let huge = tool_json(
        &repo,
        "repo_map",
        r#"{"token_budget":100000,"max_files":1000}"#,
    );
    assert_eq!(huge["files_shown"], 200, "max_files is capped at 200");
    assert!(huge["content"].as_str().expect("content").len() <= 8_000 * 4);

    let tiny = tool_json(&repo, "repo_map", r#"{"token_budget":1,"max_files":0}"#);
    assert_eq!(tiny["files_shown"], 1, "max_files is at least 1");
    assert!(tiny["content"].as_str().expect("content").len() <= 200 * 4);

    let small = tool_json(&repo, "repo_map", r#"{"token_budget":300,"max_files":200}"#);
    let shown = small["files_shown"].as_u64().expect("count");
    assert!(
        shown > 1 && shown < 200,
        "the budget bounds the files shown: {shown}"
    );
}

#[test]
fn repo_map_skips_ignored_files() {
    let repo = polyglot_repo();
    repo.write(".gitignore", "generated/\n");
    repo.commit_all("Ignore generated code");
    repo.write(
        "generated/huge.rs",
        "pub fn generated_one() {}\npub fn generated_two() {}\n",
    );
    let map = tool_json(&repo, "repo_map", "{}");
    assert_eq!(map["files_analyzed"], 10);
    assert!(
        !map["content"]
            .as_str()
            .expect("content")
            .contains("generated")
    );
}

#[test]
fn repo_map_refuses_mentioned_files_outside_the_repository() {
    let repo = polyglot_repo();
    let outside = outside_file(&repo, "outside.rs", "pub fn secret() {}\n");
    symlink(&outside, &repo, "link.rs");
    let cases = [
        ("../outside.rs".to_string(), "it leaves the repository"),
        (
            outside.to_string_lossy().into_owned(),
            "relative to the repository root",
        ),
        ("link.rs".to_string(), "resolves outside the repository"),
    ];
    for (path, why) in cases {
        let args = serde_json::json!({ "mentioned_files": [path] }).to_string();
        let out = tool_failure(&repo, "repo_map", &args);
        assert!(out.contains(why), "{path}: {out}");
    }
    // The link is not walked into the map either.
    let map = tool_json(&repo, "repo_map", "{}");
    assert!(!map["content"].as_str().expect("content").contains("secret"));
}

// ---------------------------------------------------------------- static_analysis

fn python_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("pyproject.toml", "[project]\nname = \"demo\"\n");
    repo.write("demo.py", "import os\n");
    repo
}

#[test]
fn static_analysis_is_not_run_in_an_untrusted_repository() {
    let repo = python_repo();
    let marker = repo.path().parent().expect("temp").join("ran");
    let bin = fake_bin(&[("ruff", &format!("touch '{}'", marker.display()))]);
    let out = iris_env(
        &repo,
        &["tool", "static_analysis"],
        &[("PATH", path_with(bin.path()))],
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.starts_with("static_analysis was not run: this repository is not trusted"),
        "{text}"
    );
    assert!(
        text.contains("--trust-repo") && text.contains("IRIS_TRUST_REPO=1"),
        "{text}"
    );
    assert!(
        text.contains("It would run: ruff check . (pyproject.toml found)"),
        "{text}"
    );
    assert!(
        !marker.exists(),
        "the analyzer ran in an untrusted repository"
    );
    // A value that is not a yes does not trust it either.
    let out = iris_env(
        &repo,
        &["tool", "static_analysis"],
        &[
            ("PATH", path_with(bin.path())),
            ("IRIS_TRUST_REPO", "0".into()),
        ],
    );
    assert!(stdout(&out).contains("was not run"));
    assert!(!marker.exists());
}

#[test]
fn static_analysis_runs_the_installed_analyzer_when_trusted_and_says_why() {
    let repo = python_repo();
    let bin = fake_bin(&[(
        "ruff",
        "echo \"ruff args: $*\"\necho \"in: $(pwd)\"\necho 'demo.py:1:8: F401 unused import' >&2\nexit 1",
    )]);
    let env = [("PATH", path_with(bin.path()))];
    let flag = iris_env(&repo, &["tool", "--trust-repo", "static_analysis"], &env);
    let text = stdout(&flag);
    let root = repo.path().canonicalize().expect("root");
    assert_eq!(
        text,
        format!(
            "== ruff check . (ran because pyproject.toml found)\nruff args: check .\nin: {}\ndemo.py:1:8: F401 unused import\n[exit status 1]\n\n",
            root.display()
        )
    );
    let env_trust = iris_env(
        &repo,
        &["tool", "static_analysis", r#"{"analyzer":"python"}"#],
        &[
            ("PATH", path_with(bin.path())),
            ("IRIS_TRUST_REPO", "1".into()),
        ],
    );
    let text = stdout(&env_trust);
    assert!(
        text.starts_with(
            "== ruff check . (ran because analyzer \"Python\" was asked for)\nruff args: check .\n"
        ),
        "{text}"
    );
    // Asking for another language that the project does not use runs nothing of Python.
    let go = iris_env(
        &repo,
        &[
            "tool",
            "--trust-repo",
            "static_analysis",
            r#"{"analyzer":"go"}"#,
        ],
        &[("PATH", path_with(bin.path()))],
    );
    assert!(!stdout(&go).contains("ruff"), "{}", stdout(&go));
}

#[test]
fn static_analysis_kills_a_hanging_analyzer_at_its_timeout() {
    let repo = python_repo();
    let pid_file = repo.path().parent().expect("temp").join("child.pid");
    let script = format!(
        "echo partial findings\nsleep 300 &\necho $! > '{}'\nwait",
        pid_file.display()
    );
    let bin = fake_bin(&[("ruff", &script)]);
    let started = Instant::now();
    // 0 is clamped to 1 second.
    let out = iris_env(
        &repo,
        &[
            "tool",
            "--trust-repo",
            "static_analysis",
            r#"{"timeout_secs":0}"#,
        ],
        &[("PATH", path_with(bin.path()))],
    );
    let elapsed = started.elapsed();
    assert!(out.status.success());
    assert!(elapsed < Duration::from_secs(8), "took {elapsed:?}");
    let text = stdout(&out);
    assert!(text.contains("partial findings\n"), "{text}");
    assert!(
        text.contains("[timed out after 1 s: the analyzer and its child processes were stopped"),
        "{text}"
    );
    let pid = std::fs::read_to_string(&pid_file).expect("pid file");
    let pid = pid.trim();
    // Gone, or at most a zombie waiting for init to reap it.
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let alive = state
        .rsplit(')')
        .next()
        .and_then(|rest| rest.split_whitespace().next())
        .is_some_and(|s| s != "Z" && s != "X");
    assert!(
        !alive,
        "the analyzer's child {pid} is still running: {state}"
    );
}

#[test]
fn static_analysis_bounds_each_analyzers_output() {
    let repo = python_repo();
    let bin = fake_bin(&[(
        "ruff",
        "i=0\nwhile [ $i -lt 3000 ]; do echo \"finding number $i\"; i=$((i+1)); done",
    )]);
    let out = iris_env(
        &repo,
        &[
            "tool",
            "--trust-repo",
            "static_analysis",
            r#"{"max_output_chars":10}"#,
        ],
        &[("PATH", path_with(bin.path()))],
    );
    let text = stdout(&out);
    assert!(text.contains("finding number 0\n"));
    assert!(
        text.contains("[output cut at 512 of "),
        "max_output_chars is at least 512: {text}"
    );
    assert!(text.len() < 1_000, "{}", text.len());
    let out = iris_env(
        &repo,
        &[
            "tool",
            "--trust-repo",
            "static_analysis",
            r#"{"max_output_chars":1000000}"#,
        ],
        &[("PATH", path_with(bin.path()))],
    );
    assert!(
        stdout(&out).contains("[output cut at 40000 of "),
        "at most 40000"
    );
}

#[test]
fn static_analysis_says_what_it_looked_for_when_nothing_is_installed() {
    let repo = TestRepo::new();
    repo.write("package.json", "{}\n");
    repo.write("go.mod", "module demo\n");
    let empty = tempfile::tempdir().expect("temp dir");
    let out = iris_env(
        &repo,
        &["tool", "--trust-repo", "static_analysis"],
        &[("PATH", empty.path().as_os_str().to_owned())],
    );
    let text = stdout(&out);
    assert!(out.status.success());
    assert!(text.contains("== JavaScript/TypeScript: no analyzer installed (package.json found); looked for biome, then oxlint on PATH"), "{text}");
    assert!(
        text.contains(
            "== Go: no analyzer installed (go.mod found); looked for golangci-lint, then go on PATH"
        ),
        "{text}"
    );

    let bare = TestRepo::new();
    bare.write("notes.txt", "nothing to lint\n");
    let out = iris_env(&bare, &["tool", "--trust-repo", "static_analysis"], &[]);
    assert!(
        stdout(&out).starts_with(
            "No analyzer applies: the repository root has none of Cargo.toml, pyproject.toml"
        ),
        "{}",
        stdout(&out)
    );
}

// ---------------------------------------------------------------- project_docs

fn documented_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# Demo\n\nThe demo project.\n");
    repo.write("CONTRIBUTING.md", "Open a pull request.\n");
    repo.write("HISTORY.md", "## 1.0\n- First release\n");
    repo.write("LICENSE-MIT", "MIT License text\n");
    repo.write("LICENSE-APACHE", "Apache License text\n");
    repo.write("CODE_OF_CONDUCT.md", "Be kind.\n");
    repo.write("AGENTS.md", "Run cargo test before committing.\n");
    repo.write("CLAUDE.md", "Prefer small commits.\n");
    repo.write(".github/copilot-instructions.md", "Use British spelling.\n");
    repo.write(".cursorrules", "No unwrap outside tests.\n");
    repo
}

#[test]
fn project_docs_reads_each_kind_of_document() {
    let repo = documented_repo();
    let readme = repo.tool("project_docs", "{}");
    assert_eq!(readme, "=== README.md ===\n# Demo\n\nThe demo project.\n\n");
    let cases = [
        (
            "contributing",
            vec!["=== CONTRIBUTING.md ===\nOpen a pull request.\n"],
        ),
        (
            "changelog",
            vec!["=== HISTORY.md ===\n## 1.0\n- First release\n"],
        ),
        (
            "license",
            vec![
                "=== LICENSE-APACHE ===\nApache License text\n",
                "=== LICENSE-MIT ===\nMIT License text\n",
            ],
        ),
        (
            "code_of_conduct",
            vec!["=== CODE_OF_CONDUCT.md ===\nBe kind.\n"],
        ),
        (
            "agents",
            vec![
                "=== AGENTS.md ===\nRun cargo test before committing.\n",
                "=== CLAUDE.md ===\nPrefer small commits.\n",
                "=== .github/copilot-instructions.md ===\nUse British spelling.\n",
                "=== .cursorrules ===\nNo unwrap outside tests.\n",
            ],
        ),
    ];
    for (doc_type, expected) in &cases {
        let out = repo.tool("project_docs", &format!(r#"{{"doc_type":"{doc_type}"}}"#));
        for part in expected {
            assert!(out.contains(part), "{doc_type}: missing {part:?} in\n{out}");
        }
        assert!(
            !out.contains("The demo project"),
            "{doc_type} shows the README:\n{out}"
        );
    }
    let all = repo.tool("project_docs", r#"{"doc_type":"all"}"#);
    for part in cases
        .iter()
        .flat_map(|(_, parts)| parts)
        .chain(["=== README.md ===\n"].iter())
    {
        assert!(all.contains(part), "all: missing {part:?}");
    }
}

#[test]
fn project_docs_bounds_each_document_and_names_missing_ones() {
    let repo = TestRepo::new();
    let long: String = (0..3_000)
        .map(|i| format!("Paragraph {i} of the readme.\n"))
        .collect();
    repo.write("readme.rst", &long);
    let out = repo.tool("project_docs", r#"{"doc_type":"readme"}"#);
    assert!(
        out.starts_with("=== readme.rst ===\nParagraph 0 of the readme.\n"),
        "{}",
        &out[..80]
    );
    assert!(
        out.contains("[output cut at 20000 of "),
        "default max_chars is 20000"
    );
    assert!(out.contains(r#"read the rest with file_read {"path": "readme.rst"}"#));
    let small = repo.tool("project_docs", r#"{"max_chars":1000}"#);
    assert!(
        small.contains("[output cut at 1000 of ") && small.len() < 1_300,
        "{}",
        small.len()
    );

    let missing = repo.tool("project_docs", r#"{"doc_type":"changelog"}"#);
    assert_eq!(
        missing,
        "No changelog found (looked for CHANGELOG.md, HISTORY.md, CHANGES.md).\n\n"
    );
    let agents = repo.tool("project_docs", r#"{"doc_type":"agents"}"#);
    assert!(
        agents.starts_with("No agent instructions found (looked for AGENTS.md, CLAUDE.md"),
        "{agents}"
    );
}

#[test]
fn project_docs_context_is_a_concise_readme_and_agent_instructions_in_one_budget() {
    let repo = documented_repo();
    let mut readme = String::from(
        "[![CI](https://ci/badge.svg)](https://ci)\n<img src=\"logo.png\">\n# Demo\n\n\n\n",
    );
    readme.extend((0..400).map(|i| format!("Readme line {i}.\n")));
    repo.write("README.md", &readme);
    repo.write("AGENTS.md", "Agent rule.\n".repeat(50));
    let out = repo.tool("project_docs", r#"{"doc_type":"context","max_chars":2000}"#);
    assert!(
        out.chars().count() <= 2_000,
        "{} characters",
        out.chars().count()
    );
    assert!(
        out.starts_with("=== README.md ===\n# Demo\n\nReadme line 0.\n"),
        "{out}"
    );
    assert!(!out.contains("badge.svg") && !out.contains("<img"));
    // The agent instructions are whole; the README gives way to them.
    assert!(
        out.contains(&format!(
            "=== AGENTS.md ===\n{}",
            "Agent rule.\n".repeat(50)
        )),
        "{out}"
    );
    assert!(out.contains("=== CLAUDE.md ===\nPrefer small commits.\n"));
    assert!(out.contains("=== .cursorrules ===\nNo unwrap outside tests.\n"));
    assert!(out.contains("[output cut at "), "{out}");
    assert!(!out.contains("Readme line 399."));
    assert!(!out.contains("CONTRIBUTING") && !out.contains("MIT License"));
}

#[test]
fn project_docs_refuses_documents_linked_outside_the_repository() {
    let repo = TestRepo::new();
    let outside = outside_file(&repo, "notes.md", "SECRET-OUTSIDE\n");
    symlink(&outside, &repo, "README.md");
    let out = repo.tool("project_docs", "{}");
    assert!(out.starts_with("=== README.md === not shown: invalid path 'README.md': it resolves outside the repository"), "{out}");
    assert!(!out.contains("SECRET-OUTSIDE"));
}

// ---------------------------------------------------------------- the registry through `iris tool`

#[test]
fn every_core_tool_is_listed_and_runs_through_iris_tool() {
    let repo = polyglot_repo();
    let out = repo.iris(&["tool", "--list"]);
    let listed = stdout(&out);
    use iris_studio_agent::tools::registry::{CORE_TOOL_NAMES, MAIN_AGENT_EXTRA_TOOL_NAMES};
    assert_eq!(CORE_TOOL_NAMES.len(), 13);
    // Every tool but the two that delegate to a model can run from the command line.
    let runnable = MAIN_AGENT_EXTRA_TOOL_NAMES
        .iter()
        .filter(|name| !name.contains("analyze"));
    for name in CORE_TOOL_NAMES.iter().chain(runnable) {
        assert!(
            listed.lines().any(|l| l.split(' ').next() == Some(*name)),
            "{name} is not listed"
        );
    }
    assert!(!listed.contains("$defs"), "argument schemas are inline");
    for (name, args) in [
        ("file_read", r#"{"path":"src/config.rs"}"#),
        ("file_list", r#"{"path":"src"}"#),
        ("file_search", r#"{"pattern":"*.rs"}"#),
        ("code_search", r#"{"query":"Config"}"#),
        ("repo_map", "{}"),
        ("static_analysis", "{}"),
        ("project_docs", "{}"),
    ] {
        let out = repo.tool(name, args);
        assert!(!out.trim().is_empty(), "{name} said nothing");
    }
}
