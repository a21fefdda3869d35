//! `iris-testkit`: what the workspace's tests share (a dev-dependency only).
//!
//! [`TestRepo`], a temporary git repository built and inspected with the real `git` command,
//! with its own git configuration so that the user's global settings never change a test's
//! outcome; [`secrets`], the corpus of leaks and lookalikes the secret scanner is held to;
//! and [`fake_provider`], an LLM provider on 127.0.0.1 speaking the real wire formats.
//! The end-to-end tests of the `iris` binary add its runners in `tests/common`.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]
// Fixtures are built with the real git and jj, and tests run the real binary.
#![allow(clippy::disallowed_methods)]

// Its steps and records are documented as wholes; their fields are named for what they hold.
#[allow(missing_docs)]
pub mod fake_provider;
pub mod jj;
pub mod secrets;

use std::cell::Cell;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

/// A repository in a temporary directory, with its own git configuration so that the
/// user's global settings never change a test's outcome.
pub struct TestRepo {
    dir: TempDir,
    config: PathBuf,
    clock: Cell<i64>,
}

impl Default for TestRepo {
    fn default() -> Self {
        Self::new()
    }
}

impl TestRepo {
    /// `git init` with `main` as the initial branch.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = dir.path().join(".test-gitconfig");
        std::fs::write(
            &config,
            "[user]\n\tname = Test Author\n\temail = author@example.com\n\
             [init]\n\tdefaultBranch = main\n[commit]\n\tgpgSign = false\n\
             [protocol \"file\"]\n\tallow = always\n[core]\n\tquotePath = false\n",
        )
        .expect("write git config");
        let repo = Self {
            dir,
            config,
            clock: Cell::new(1_700_000_000),
        };
        std::fs::create_dir(repo.path()).expect("repo dir");
        repo.git(&["init", "-q"]);
        repo
    }

    /// The working tree (a subdirectory of the temp dir, so the config file stays outside it).
    pub fn path(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    /// The HOME of the `iris` these tests run (XDG_CONFIG_HOME is its `xdg` folder).
    pub fn home(&self) -> &Path {
        self.dir.path()
    }

    /// The git configuration every git and iris command of a test reads (GIT_CONFIG_GLOBAL).
    pub fn git_config(&self) -> &Path {
        &self.config
    }

    /// Writes `content` to `rel` in the working tree, creating the directories it needs.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let path = self.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create dirs");
        }
        std::fs::write(path, content).expect("write file");
    }

    /// Runs git in the repository; panics with its stderr if it fails.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.git_output(args);
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Runs git and returns whatever happened (for commands expected to fail, like a conflicting merge).
    pub fn git_output(&self, args: &[&str]) -> Output {
        self.git_in(&self.path(), args)
    }

    /// Runs git in `dir` (a subdirectory, another worktree) with the test's git configuration,
    /// and returns whatever happened.
    pub fn git_in(&self, dir: &Path, args: &[&str]) -> Output {
        // Each commit gets its own, later time, so history order is never a tie.
        let now = self.clock.get() + 60;
        self.clock.set(now);
        let date = format!("{now} +0000");
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", &self.config)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .output()
            .expect("run git")
    }

    /// Stages everything and commits it; returns the new commit's id.
    pub fn commit_all(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }

    /// A merge of branch `other` into the current one that conflicts on `path` (each side
    /// changed it from a common base); returns the merge's output.
    pub fn conflicting_merge(&self, path: &str) -> Output {
        self.write(path, "base\n");
        self.commit_all("base");
        let current = self.git(&["rev-parse", "--abbrev-ref", "HEAD"]);
        self.git(&["checkout", "-q", "-b", "other"]);
        self.write(path, "theirs\n");
        self.commit_all("theirs");
        self.git(&["checkout", "-q", current.trim()]);
        self.write(path, "ours\n");
        self.commit_all("ours");
        self.git_output(&["merge", "other"])
    }

    /// `path` committed with 30 lines, then lines 2 and 28 changed in the working tree (not
    /// staged): a change of two hunks. Returns the changed content.
    pub fn two_hunk_change(&self, path: &str) -> String {
        let lines: Vec<String> = (1..=30).map(|i| format!("line {i}")).collect();
        self.write(path, lines.join("\n") + "\n");
        self.commit_all("base");
        let mut changed = lines;
        changed[1] = "line 2 changed".into();
        changed[27] = "line 28 changed".into();
        let changed = changed.join("\n") + "\n";
        self.write(path, &changed);
        changed
    }

    /// `.git/hooks/NAME` as an executable shell script running `body`.
    pub fn write_hook(&self, name: &str, body: &str) {
        let path = self.path().join(".git/hooks").join(name);
        write_executable(&path, &format!("#!/bin/sh\n{body}\n"));
    }

    /// Three concerns interleaved in the working tree, for splitting: logging (a.rs's first
    /// hunk h1, b.txt's first h3), a fix (a.rs's second, h2) and docs (b.txt's second h4, the
    /// new untracked docs/guide.md h5). The repository's own config names its committer, so
    /// `git commit` run without the test's environment works too.
    pub fn tangled() -> TestRepo {
        let repo = TestRepo::new();
        repo.git(&["config", "user.name", "Test Author"]);
        repo.git(&["config", "user.email", "author@example.com"]);
        repo.write("a.rs", TANGLED_A);
        repo.write("b.txt", TANGLED_B);
        repo.write(".irisconfig", "critic_enabled = false\n");
        repo.commit_all("base");
        let a = TANGLED_A
            .replace("    1\n", "    log(1)\n")
            .replace("    2\n", "    3\n");
        repo.write("a.rs", a);
        let b = TANGLED_B
            .replace("one\n", "one (logged)\n")
            .replace("twelve\n", "twelve\ndocs\n");
        repo.write("b.txt", b);
        repo.write("docs/guide.md", "# Guide\n");
        repo
    }

    /// Commits as someone else.
    pub fn commit_as(&self, name: &str, email: &str, message: &str) -> String {
        self.git(&["add", "-A"]);
        let author = format!("{name} <{email}>");
        self.git(&["commit", "-q", "-m", message, "--author", &author]);
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }

    /// A repository with one commit on its first branch, then `feature/two` adding `two()` to
    /// `src/lib.rs` in a second commit (checked out).
    pub fn feature_branch() -> TestRepo {
        let repo = TestRepo::new();
        repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
        repo.commit_all("Initial commit");
        repo.git(&["checkout", "-q", "-b", "feature/two"]);
        repo.write(
            "src/lib.rs",
            "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
        );
        repo.commit_all("Add two()");
        repo
    }

    /// A stack of three branches on `main`, each a layer of its own files: `b1` ("Add the
    /// lexer", "Add the parser": `src/lexer.rs`, `src/parser.rs`), `b2` ("Add the evaluator":
    /// `src/eval.rs`), `b3` ("Add the REPL": `src/repl.rs`); `b3` is checked out.
    pub fn stack() -> TestRepo {
        let repo = TestRepo::new();
        repo.write("README.md", "# calc\n");
        repo.commit_all("Initial commit");
        repo.git(&["branch", "-M", "main"]);
        // (branch, path, text, title): a branch starts where its name first appears.
        let commits = [
            ("b1", "src/lexer.rs", "pub fn lex() {}\n", "Add the lexer"),
            (
                "b1",
                "src/parser.rs",
                "pub fn parse() {}\n",
                "Add the parser",
            ),
            (
                "b2",
                "src/eval.rs",
                "pub fn eval() {}\n",
                "Add the evaluator",
            ),
            ("b3", "src/repl.rs", "pub fn repl() {}\n", "Add the REPL"),
        ];
        let mut on = "main";
        for (branch, path, text, title) in commits {
            if branch != on {
                repo.git(&["checkout", "-q", "-b", branch]);
                on = branch;
            }
            repo.write(path, text);
            repo.commit_all(title);
        }
        repo
    }

    /// A branch to absorb fixes into: on `main`, `a.txt` and `b.txt` of twenty lines (`a1` ...
    /// `a20`, see [`numbered`]); on `feature`, "X: change a3" changes line 3 of a.txt and
    /// "Y: change b5" line 5 of b.txt.
    pub fn two_commit_feature() -> TestRepo {
        let repo = TestRepo::new();
        repo.write("a.txt", numbered("a"));
        repo.write("b.txt", numbered("b"));
        repo.commit_all("base");
        repo.git(&["branch", "-M", "main"]);
        repo.git(&["checkout", "-q", "-b", "feature"]);
        repo.write("a.txt", numbered("a").replace("a3\n", "a3 (x)\n"));
        repo.commit_all("X: change a3");
        repo.write("b.txt", numbered("b").replace("b5\n", "b5 (y)\n"));
        repo.commit_all("Y: change b5");
        repo
    }

    /// Starts `bin` in the repository with its HOME, XDG_CONFIG_HOME and git config, every
    /// variable that configures iris or a provider unset, then `env`, and `stdin` as its input.
    pub fn spawn_bin(
        &self,
        bin: &Path,
        args: &[&str],
        env: &[(&str, &str)],
        stdin: &str,
    ) -> std::process::Child {
        use std::io::Write;
        let mut command = Command::new(bin);
        self.in_env(command.args(args), &self.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy();
            if IRIS_ENV_PREFIXES.iter().any(|p| name.starts_with(p)) {
                command.env_remove(name.as_ref());
            }
        }
        command.envs(env.iter().copied());
        let mut child = command.spawn().expect("run iris");
        let mut input = child.stdin.take().expect("stdin");
        input.write_all(stdin.as_bytes()).expect("write stdin");
        drop(input);
        child
    }

    /// The environment of the programs a test runs in this repository (HOME, XDG_CONFIG_HOME,
    /// the git config) on `command`, which runs in `dir`.
    pub fn in_env<'c>(&self, command: &'c mut Command, dir: &Path) -> &'c mut Command {
        command
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", &self.config)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.dir.path().join("xdg"))
            // jj's configuration is the test's (`$XDG_CONFIG_HOME/jj`), never the developer's.
            .env_remove("JJ_CONFIG")
            .env("NO_COLOR", "1")
    }

    /// Has the built-in capability `name` offer every tool (a user override `tools = ["*"]`),
    /// for tests whose scripted model calls a tool the capability does not offer.
    pub fn offer_every_tool(&self, name: &str) {
        let dir = self
            .user_config_path()
            .parent()
            .map(|d| d.join("capabilities"))
            .expect("a config dir");
        std::fs::create_dir_all(&dir).expect("capabilities dir");
        std::fs::write(dir.join(format!("{name}.toml")), "tools = [\"*\"]\n").expect("override");
    }

    /// The user config file the `iris` of these tests reads: `$XDG_CONFIG_HOME/iris/config.toml`.
    pub fn user_config_path(&self) -> PathBuf {
        self.dir.path().join("xdg").join("iris").join("config.toml")
    }
}

/// The prefixes of the environment variables that configure iris or its providers, or say
/// where the coding agents whose sessions Iris reads keep them (`GEMINI_CLI_HOME` among
/// `GEMINI_`).
pub const IRIS_ENV_PREFIXES: &[&str] = &[
    "IRIS_",
    "OPENAI_",
    "ANTHROPIC_",
    "GEMINI_",
    "GOOGLE_",
    "OLLAMA_",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
];

/// A command's standard output, as text (invalid UTF-8 replaced).
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A command's standard error, as text (invalid UTF-8 replaced).
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The base of [`TestRepo::tangled`]'s `a.rs`: `alpha` and `omega`, whose bodies change, with
/// one-line functions between them so their hunks stay apart.
pub const TANGLED_A: &str = "fn alpha() {\n    1\n}\n\nfn two() {}\nfn three() {}\nfn four() {}\n\
                             fn five() {}\nfn six() {}\nfn seven() {}\nfn eight() {}\n\nfn \
                             omega() {\n    2\n}\n";
/// The base of [`TestRepo::tangled`]'s `b.txt`: the words `one` to `twelve`, a line each.
pub const TANGLED_B: &str =
    "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";

/// A directory of executable shell scripts (fake analyzers, editors, CLIs) to put on PATH.
pub fn fake_bin(scripts: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, body) in scripts {
        write_executable(&dir.path().join(name), &format!("#!/bin/sh\n{body}\n"));
    }
    dir
}

/// Writes an executable file that is safe to run at once from a test. A file this process
/// opened for writing can be held open by a child another test thread forks at that moment
/// (until the child execs), and running it then fails with "Text file busy" (ETXTBSY). So
/// the text goes to a staging file, and `cp` (another process) writes the file that runs:
/// no descriptor of it is ever open in this process.
pub fn write_executable(path: &Path, text: &str) {
    let staging = tempfile::NamedTempFile::new().expect("staging file");
    std::fs::write(staging.path(), text).expect("write staging file");
    let copied = Command::new("cp")
        .arg(staging.path())
        .arg(path)
        .status()
        .expect("run cp");
    assert!(copied.success(), "cp to {} failed", path.display());
    let mode = Command::new("chmod")
        .arg("755")
        .arg(path)
        .status()
        .expect("run chmod");
    assert!(mode.success(), "chmod {} failed", path.display());
}

/// Whether the process `pid` still runs after `grace` (a zombie, waiting for init to reap
/// it, does not): false as soon as it has ended.
pub fn still_runs(pid: &str, grace: std::time::Duration) -> bool {
    let started = std::time::Instant::now();
    loop {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
        // The state follows the parenthesised name.
        let state = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.chars().next());
        if !matches!(state, Some(s) if s != 'Z' && s != 'X') {
            return false;
        }
        if started.elapsed() > grace {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// PATH with `dir` first, then the system's own directories (for `sleep`, `echo`, ...).
pub fn path_with(dir: &Path) -> OsString {
    let mut path = OsString::from(dir);
    path.push(":/usr/bin:/bin");
    path
}

/// Twenty lines `{name}1` to `{name}20`, each ending in a newline.
pub fn numbered(name: &str) -> String {
    (1..=20).map(|i| format!("{name}{i}\n")).collect()
}
