//! jj's command line: found on PATH, its version checked, asked through templates (`jj log
//! -T`) and `jj diff --git`, and told to describe, commit and split changes. Every jj runs in
//! a process group of its own until a deadline (`iris_studio_process::output_or_kill`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use super::JjWorkspace;
use crate::{GitError, Result};

/// The oldest jj Iris drives: `jj split --message` (each group's description, set as it is
/// split off) came in jj 0.30, after `--config NAME=VALUE` (0.25), which sets up the split's
/// diff editor.
pub const MIN_VERSION: (u32, u32, u32) = (0, 30, 0);

/// How long one jj command may run (a snapshot of a large working copy included).
const DEADLINE: Duration = Duration::from_secs(300);

/// How long `jj --version` may take (it reads no repository).
const VERSION_DEADLINE: Duration = Duration::from_secs(30);

/// How users get jj, said when it is missing.
pub const INSTALL: &str = "install jj (https://jj-vcs.github.io/jj/latest/install-and-setup/; \
                       `cargo install jj-cli --locked`)";

/// Fields a change's template prints, in this order, separated by US (0x1f), each change
/// ended by RS (0x1e). The description, the one field anyone writes, comes as a JSON string,
/// so neither separator can be in it raw.
const CHANGE_TEMPLATE: &str = r#"commit_id ++ "\x1f" ++ change_id ++ "\x1f" ++ change_id.shortest(8) ++ "\x1f" ++ parents.map(|p| p.commit_id()).join(",") ++ "\x1f" ++ conflict ++ "\x1f" ++ empty ++ "\x1f" ++ immutable ++ "\x1f" ++ bookmarks.map(|b| b.name()).join(",") ++ "\x1f" ++ description.escape_json() ++ "\x1e""#;

/// One jj change as its template says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JjChange {
    /// The commit id in the git store (full hex).
    pub commit_id: String,
    /// jj's change id, stable across rewrites (full).
    pub change_id: String,
    /// The change id's shortest unique prefix (at least 8 characters), as users type it.
    pub short_id: String,
    /// The parents' commit ids; jj's root commit (all zeros) when the change sits on it.
    pub parents: Vec<String>,
    /// Whether the change holds unresolved conflicts.
    pub conflict: bool,
    /// Whether the change changes nothing.
    pub empty: bool,
    /// Whether jj holds it immutable (`immutable_heads()` and their ancestors).
    pub immutable: bool,
    /// The local bookmarks pointing at it.
    pub bookmarks: Vec<String>,
    /// Its description (empty when none is set).
    pub description: String,
}

impl JjChange {
    /// Whether this is jj's root, the empty commit before every change (no commit in git).
    pub fn is_root(&self) -> bool {
        is_zero(&self.commit_id)
    }

    /// Whether the change sits on jj's root: there is no parent to write it against.
    pub fn on_root(&self) -> bool {
        self.parents.iter().all(|p| is_zero(p))
    }
}

/// jj's root commit id: all zeros.
fn is_zero(id: &str) -> bool {
    id.bytes().all(|b| b == b'0')
}

/// jj's command line, run in one workspace.
#[derive(Debug, Clone)]
pub struct Jj {
    program: PathBuf,
    root: PathBuf,
    /// The version `jj --version` said.
    pub version: (u32, u32, u32),
}

impl Jj {
    /// jj for `workspace`, found on PATH and at least [`MIN_VERSION`]; a clear error naming
    /// the install or the version needed otherwise.
    pub fn open(workspace: &JjWorkspace) -> Result<Self> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let Some(program) = iris_studio_process::find_on_path("jj", &path) else {
            return Err(GitError::Unsupported(format!(
                "{} is a jj repository and jj is not installed (not found on PATH): {INSTALL}",
                workspace.root.display()
            )));
        };
        let said = version_of(&program, VERSION_DEADLINE)?;
        let version = parse_version(&said).ok_or_else(|| {
            GitError::Unsupported(format!(
                "`jj --version` said {said:?}, which is not a version Iris can read"
            ))
        })?;
        if version < MIN_VERSION {
            let (a, b, c) = version;
            let (x, y, z) = MIN_VERSION;
            return Err(GitError::Unsupported(format!(
                "jj {a}.{b}.{c} is too old: Iris needs jj {x}.{y}.{z} or newer ({INSTALL})"
            )));
        }
        Ok(Self {
            program,
            root: workspace.root.clone(),
            version,
        })
    }

    /// The workspace's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The one change `rev` names (a change id, a commit id, a bookmark, `@`, any revset
    /// that resolves to exactly one). Reading snapshots the working copy, as every jj
    /// command does.
    pub fn change(&self, rev: &str) -> Result<JjChange> {
        let mut changes = self.changes(rev)?;
        match changes.len() {
            1 => Ok(changes.remove(0)),
            0 => Err(GitError::UnknownRevision(rev.to_string())),
            n => Err(GitError::Unsupported(format!(
                "'{rev}' names {n} changes; name one (a change id, a bookmark, `@`)"
            ))),
        }
    }

    /// Every change `revset` names, newest first (jj's log order).
    pub fn changes(&self, revset: &str) -> Result<Vec<JjChange>> {
        check_revset(revset)?;
        let out = self.run(
            &["log", "--no-graph", "-r", revset, "-T", CHANGE_TEMPLATE],
            None,
        )?;
        out.split('\x1e')
            .filter(|record| !record.trim().is_empty())
            .map(parse_change)
            .collect()
    }

    /// `rev`'s own change as a git diff (`jj diff --git -r REV`).
    pub fn diff(&self, rev: &str) -> Result<String> {
        check_revset(rev)?;
        self.run(&["diff", "--git", "-r", rev], None)
    }

    /// Where `rev`'s conflicts are, as jj lists them (`jj resolve --list -r REV`).
    pub fn conflicts(&self, rev: &str) -> Result<String> {
        check_revset(rev)?;
        self.run(&["resolve", "--list", "-r", rev], None)
    }

    /// Sets `rev`'s description (`jj describe -r REV --stdin`; `force`: even when jj holds
    /// it immutable); jj's own lines back.
    pub fn describe(&self, rev: &str, message: &str, force: bool) -> Result<String> {
        check_revset(rev)?;
        let mut args = vec!["describe", "--stdin", "-r", rev];
        if force {
            args.push("--ignore-immutable");
        }
        self.run_said(&args, Some(&iris_studio_core::controls::strip(message)))
    }

    /// Puts the repository back as it was at operation `id` (`jj op restore`); jj's lines.
    pub fn restore(&self, id: &str) -> Result<String> {
        check_revset(id)?;
        self.run_said(&["op", "restore", id], None)
    }

    /// The id of jj's current operation (`jj op restore ID` goes back to it).
    pub fn operation(&self) -> Result<String> {
        let id = self.run(
            &["op", "log", "-n", "1", "--no-graph", "-T", "id.short(12)"],
            None,
        )?;
        Ok(id.trim().to_string())
    }

    /// Describes `@` and starts a new empty change on top (`jj commit`); jj's lines back.
    pub fn commit(&self, message: &str) -> Result<String> {
        let message = format!("--message={}", iris_studio_core::controls::strip(message));
        self.run_said(&["commit", &message], None)
    }

    /// Splits `rev` in two through a diff editor: `program` run with `args` then jj's right
    /// side (`$right`, which it leaves as the first part should be) makes the first part,
    /// which keeps `rev`'s change id and gets `message`; the rest becomes a new child change
    /// (what came after `rev` moves onto it). jj's lines back.
    pub fn split_with(
        &self,
        rev: &str,
        message: &str,
        program: &Path,
        args: &[String],
    ) -> Result<String> {
        check_revset(rev)?;
        let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
        let mut edit_args: Vec<String> = args.iter().map(|a| quoted(a)).collect();
        edit_args.push(quoted("$right"));
        let program = format!(
            "merge-tools.iris-split.program={}",
            quoted(&program.to_string_lossy())
        );
        let edit_args = format!(
            "merge-tools.iris-split.edit-args=[{}]",
            edit_args.join(", ")
        );
        let message = format!("--message={}", iris_studio_core::controls::strip(message));
        self.run_said(
            &[
                "split",
                "-r",
                rev,
                "--tool",
                "iris-split",
                "--config",
                &program,
                "--config",
                &edit_args,
                &message,
            ],
            None,
        )
    }

    /// Runs jj with `args` (and `stdin`); its stdout, or its stderr as the error.
    pub(crate) fn run(&self, args: &[&str], stdin: Option<&str>) -> Result<String> {
        Ok(self.output(args, stdin)?.0)
    }

    /// Runs a jj command that changes something; what it said on stderr (its summary).
    pub(crate) fn run_said(&self, args: &[&str], stdin: Option<&str>) -> Result<String> {
        let (out, err) = self.output(args, stdin)?;
        Ok(format!("{out}{err}").trim_end().to_string())
    }

    fn output(&self, args: &[&str], stdin: Option<&str>) -> Result<(String, String)> {
        #[allow(clippy::disallowed_methods)] // jj's launcher: found on PATH, run to a deadline
        let mut command = Command::new(&self.program);
        command
            .args(["--no-pager", "--color=never", "-R"])
            .arg(&self.root)
            .args(args)
            .current_dir(&self.root);
        let name = args.first().copied().unwrap_or_default();
        let what = format!("running `jj {name}`");
        let ran =
            iris_studio_process::output_or_kill(&mut command, stdin.map(str::as_bytes), DEADLINE)
                .map_err(|e| io(&what, e))?;
        let out = String::from_utf8_lossy(&ran.stdout).into_owned();
        let err = String::from_utf8_lossy(&ran.stderr).into_owned();
        let Some(status) = ran.status else {
            return Err(GitError::Unsupported(format!(
                "`jj {name}` did not finish within {} s and was stopped",
                DEADLINE.as_secs()
            )));
        };
        if !status.success() {
            let said = err.trim();
            let said = said.strip_prefix("Error: ").unwrap_or(said);
            return Err(GitError::Unsupported(format!(
                "`jj {}` failed: {said}",
                args.first().copied().unwrap_or_default()
            )));
        }
        Ok((out, err))
    }
}

/// What `program --version` said (trimmed), asked once per program in this process (every
/// `Jj::open` would otherwise start it again).
/// The jj on PATH, as `iris doctor` reports it: where it is, what `jj --version` says and the
/// version read from that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JjFound {
    /// The program found on PATH.
    pub program: PathBuf,
    /// What `jj --version` printed (`jj 0.45.1`).
    pub said: String,
    /// The version in it, when it could be read.
    pub version: Option<(u32, u32, u32)>,
}

/// The jj on PATH and its version, asked within `deadline`; `None` when jj is not on PATH.
pub fn jj_on_path(deadline: Duration) -> Result<Option<JjFound>> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let Some(program) = iris_studio_process::find_on_path("jj", &path) else {
        return Ok(None);
    };
    let said = version_of(&program, deadline)?;
    let version = parse_version(&said);
    Ok(Some(JjFound {
        program,
        said,
        version,
    }))
}

fn version_of(program: &Path, deadline: Duration) -> Result<String> {
    static SAID: LazyLock<Mutex<HashMap<PathBuf, String>>> = LazyLock::new(Default::default);
    if let Some(said) = SAID.lock().ok().and_then(|said| said.get(program).cloned()) {
        return Ok(said);
    }
    #[allow(clippy::disallowed_methods)] // jj's launcher: found on PATH, run to a deadline
    let mut command = Command::new(program);
    command.arg("--version");
    let ran = iris_studio_process::output_or_kill(&mut command, None, deadline)
        .map_err(|e| io("running `jj --version`", e))?;
    if ran.status.is_none() {
        return Err(GitError::TimedOut {
            command: "jj --version".into(),
            seconds: deadline.as_secs_f32(),
        });
    }
    let said = String::from_utf8_lossy(&ran.stdout).trim().to_string();
    if ran.status.is_some_and(|s| s.success())
        && let Ok(mut known) = SAID.lock()
    {
        known.insert(program.to_path_buf(), said.clone());
    }
    Ok(said)
}

fn io(context: &str, source: std::io::Error) -> GitError {
    GitError::Io {
        context: context.to_string(),
        source,
    }
}

/// A revset goes to jj as one argument; refused when jj could read it as an option.
fn check_revset(revset: &str) -> Result<()> {
    let problem = if revset.trim().is_empty() {
        Some("it is empty")
    } else if revset.starts_with('-') {
        Some("it may not start with '-'")
    } else if revset.chars().any(char::is_control) {
        Some("it may not contain control characters")
    } else {
        None
    };
    match problem {
        Some(why) => Err(GitError::InvalidRevision(revset.to_string(), why)),
        None => Ok(()),
    }
}

/// `jj 0.45.1` (or `jj 0.45.1-abcdef`) as numbers.
fn parse_version(said: &str) -> Option<(u32, u32, u32)> {
    let version = said.split_whitespace().nth(1)?;
    let mut parts = version
        .split(|c: char| !c.is_ascii_digit())
        .map(|p| p.parse::<u32>());
    Some((
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    ))
}

fn parse_change(record: &str) -> Result<JjChange> {
    let record = record.strip_prefix('\n').unwrap_or(record);
    let unreadable = || {
        GitError::Unsupported(format!(
            "jj's log said something Iris cannot read: {:?}",
            record.chars().take(200).collect::<String>()
        ))
    };
    let fields: Vec<&str> = record.splitn(9, '\x1f').collect();
    let [
        commit_id,
        change_id,
        short_id,
        parents,
        conflict,
        empty,
        immutable,
        bookmarks,
        description,
    ] = fields[..]
    else {
        return Err(unreadable());
    };
    let list = |text: &str| {
        text.split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    Ok(JjChange {
        commit_id: commit_id.to_string(),
        change_id: change_id.to_string(),
        short_id: short_id.to_string(),
        parents: list(parents),
        conflict: conflict == "true",
        empty: empty == "true",
        immutable: immutable == "true",
        bookmarks: list(bookmarks),
        description: serde_json::from_str(description).map_err(|_| unreadable())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_with_or_without_a_build_suffix() {
        assert_eq!(parse_version("jj 0.45.1"), Some((0, 45, 1)));
        assert_eq!(parse_version("jj 0.24.0-0a1b2c"), Some((0, 24, 0)));
        assert_eq!(parse_version("jj"), None);
        assert_eq!(parse_version("jj x.y"), None);
        assert!((0, 29, 9) < MIN_VERSION && (0, 30, 0) >= MIN_VERSION);
    }

    #[test]
    fn a_change_record_is_read_field_by_field() {
        let record = "\nc1\x1fzz\x1fzzzz\x1fp1,p2\x1ftrue\x1ffalse\x1ftrue\x1fmain\x1f\"Fix it\\n\\nBody \\u001e\\n\"";
        let change = parse_change(record).unwrap();
        assert_eq!(change.commit_id, "c1");
        assert_eq!(change.short_id, "zzzz");
        assert_eq!(change.parents, ["p1", "p2"]);
        assert!(change.conflict && !change.empty && change.immutable);
        assert_eq!(change.bookmarks, ["main"]);
        assert_eq!(change.description, "Fix it\n\nBody \u{1e}\n");
        assert!(!change.is_root() && !change.on_root());
        assert!(parse_change("c1\x1fzz").is_err());
        // A description that is not JSON is said, not guessed at.
        let raw = record.replace("\"Fix it", "Fix it");
        assert!(parse_change(&raw).is_err());
    }

    /// A description reaches jj without control characters, however it is set.
    #[test]
    fn descriptions_go_to_jj_without_control_characters() {
        let test = iris_studio_testkit::TestRepo::jj_workspace(false);
        test.write("a.txt", "a\n");
        let workspace = JjWorkspace {
            root: test.path(),
            colocated: false,
        };
        let jj = Jj::open(&workspace).unwrap();
        jj.describe("@", "Add a\u{1b}[2J\n\nWhy\u{7} it is.", false)
            .unwrap();
        assert_eq!(test.jj_description("@"), "Add a[2J\n\nWhy it is.\n");
        jj.commit("Then\u{1b}]0;title\u{7} b").unwrap();
        assert_eq!(test.jj_description("@-"), "Then]0;title b\n");
        // Reading them back: the change, its conflict state, where it sits.
        let change = jj.change("@-").unwrap();
        assert!(!change.conflict && !change.empty && !change.immutable && change.on_root());
        assert!(jj.change("root()").unwrap().is_root());
    }

    #[cfg(unix)]
    #[test]
    fn jj_is_asked_its_version_once_per_program() {
        let dir = tempfile::tempdir().unwrap();
        let asked = dir.path().join("asked");
        let jj = dir.path().join("jj");
        let script = format!(
            "#!/bin/sh\necho x >> '{}'\necho 'jj 0.45.1'\n",
            asked.display()
        );
        iris_studio_testkit::write_executable(&jj, &script);
        for _ in 0..3 {
            assert_eq!(version_of(&jj, VERSION_DEADLINE).unwrap(), "jj 0.45.1");
        }
        assert_eq!(std::fs::read_to_string(&asked).unwrap(), "x\n");
    }

    #[test]
    fn revsets_that_look_like_options_are_refused() {
        assert!(check_revset("main..@ & ~empty()").is_ok());
        assert!(check_revset("-r").is_err());
        assert!(check_revset(" ").is_err());
        assert!(check_revset("@\n").is_err());
    }
}
