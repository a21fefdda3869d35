//! The real `iris studio` in a pseudo-terminal of 120x40 on a temporary repository, Iris
//! answering from the fake provider: open, let Iris write, edit, commit, quit. The screen is
//! read through a vt100 emulator; every wait is bounded, and the child is killed if the test
//! fails, so a broken studio fails the test instead of hanging it.
#![cfg(target_os = "linux")]

use crate::common::Iris;

use iris_studio::app::stores::{DraftStore, IrisDir};
use std::os::fd::{AsRawFd, OwnedFd};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use crate::common::TestRepo;
use crate::common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use crate::common::pty::PtyProgram;
use serde_json::json;

const COLS: u16 = 120;
const ROWS: u16 = 40;
/// The longest any one wait may take.
const TIMEOUT: Duration = Duration::from_secs(30);

const ENTER_ALTERNATE_SCREEN: &str = "\x1b[?1049h";
const LEAVE_ALTERNATE_SCREEN: &str = "\x1b[?1049l";
const ENABLE_MOUSE: &str = "\x1b[?1000h";
const DISABLE_MOUSE: &str = "\x1b[?1000l";

/// The terminal's line discipline flags (on Linux the master reports the slave's settings).
fn local_flags(master: &OwnedFd) -> libc::tcflag_t {
    // SAFETY: tcgetattr fills the termios it is given; the result is checked.
    unsafe {
        let mut termios: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(master.as_raw_fd(), &mut termios), 0);
        termios.c_lflag
    }
}

/// The studio running in the pseudo-terminal; killed when dropped if still running.
struct Studio {
    program: PtyProgram,
}

impl Studio {
    fn spawn(repo: &TestRepo, fake: &FakeProvider) -> Studio {
        Studio::spawn_with(repo, fake, &[])
    }

    /// The studio with Iris on the fake provider and `env` set besides.
    fn spawn_with(
        repo: &TestRepo,
        fake: &FakeProvider,
        env: &[(&str, &std::ffi::OsStr)],
    ) -> Studio {
        let mut command = Studio::command(repo, "commit");
        command
            .env("IRIS_PROVIDER", "openai")
            .env("OPENAI_API_KEY", FAKE_API_KEY)
            .env("OPENAI_BASE_URL", fake.openai_base_url())
            .env("IRIS_LOCAL", "false")
            .envs(env.iter().copied());
        Studio::run(command)
    }

    /// `iris studio --mode MODE` in the repository, nothing that configures iris or git taken
    /// from the developer's environment (no provider either).
    fn command(repo: &TestRepo, mode: &str) -> Command {
        repo.isolated_iris(&["studio", "--mode", mode])
    }

    fn run(command: Command) -> Studio {
        Studio {
            program: PtyProgram::spawn(command, COLS, ROWS),
        }
    }

    fn screen(&self) -> String {
        self.program.text()
    }

    /// Waits until the screen satisfies `check`; fails with the screen after the timeout.
    fn wait_for(&self, what: &str, check: impl Fn(&vt100::Screen) -> bool) {
        let start = Instant::now();
        loop {
            let closed = self.program.closed();
            if self.program.screen(&check) {
                return;
            }
            if closed {
                panic!(
                    "the studio exited while waiting for {what}; screen:\n{}",
                    self.screen()
                );
            }
            if start.elapsed() > TIMEOUT {
                panic!("timed out waiting for {what}; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_for_text(&self, text: &str) {
        self.wait_for(&format!("`{text}` on the screen"), |screen| {
            screen.contents().contains(text)
        });
    }

    fn send(&mut self, bytes: &[u8]) {
        self.program.send(bytes);
    }

    /// The character in the cell at (row, column).
    fn cell(&self, row: u16, col: u16) -> String {
        self.program.screen(|screen| {
            screen
                .cell(row, col)
                .map(|c| c.contents().to_string())
                .unwrap_or_default()
        })
    }

    /// Tab twice, from the files: the diff, then the editor (its border turns thick).
    fn focus_editor(&mut self) {
        self.send(b"\t\t");
        self.wait_for("the editor to have the focus", |screen| {
            screen
                .contents()
                .lines()
                .nth(1)
                .is_some_and(|line| line.contains("┏ Commit ━"))
        });
    }

    /// Waits for the studio to leave its focused editor (the file list takes the thick border).
    fn wait_for_files_focus(&self) {
        let start = Instant::now();
        while self.cell(1, 0) != "┏" {
            assert!(
                start.elapsed() < TIMEOUT,
                "esc did not leave the editor:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.program.child.try_wait().expect("wait for the studio") {
                return status;
            }
            if start.elapsed() > TIMEOUT {
                panic!("the studio did not exit; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Everything written, once the reader has seen the end of it.
    fn all_output(&self) -> Vec<u8> {
        let start = Instant::now();
        while !self.program.closed() {
            assert!(start.elapsed() < TIMEOUT, "the terminal output never ended");
            std::thread::sleep(Duration::from_millis(20));
        }
        self.program.bytes()
    }
}

fn rfind(haystack: &[u8], needle: &str) -> Option<usize> {
    haystack
        .windows(needle.len())
        .rposition(|w| w == needle.as_bytes())
}

#[test]
fn open_generate_edit_commit_quit_in_a_pseudo_terminal() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.git(&["add", "-A"]);
    let fake = FakeProvider::start(vec![Step::text(
        json!({
            "emoji": null,
            "title": "Add two()",
            "message": "Adds a second constant function."
        })
        .to_string(),
    )]);

    let mut studio = Studio::spawn(&repo, &fake);

    // Opened in commit mode with a staged change: Iris writes the message unasked.
    studio.wait_for_text("Adds a second constant function.");
    studio.wait_for_text("Iris wrote the commit");
    studio.wait_for_text("+pub fn two() -> u32 {");
    let screen = studio.screen();
    assert!(screen.contains("Files (1)"), "{screen}");
    assert!(screen.contains("+pub fn two() -> u32 {"), "{screen}");
    assert!(screen.contains("title 9/72"), "{screen}");
    assert_eq!(
        local_flags(&studio.program.master) & (libc::ICANON | libc::ECHO),
        0,
        "raw mode while the studio runs"
    );
    assert_eq!(fake.requests().len(), 1);

    // Type at the start of the title.
    studio.focus_editor();
    studio.send("Edited: ".as_bytes());
    studio.wait_for_text("Edited: Add two()");
    studio.wait_for_text("title 17/72");

    // ctrl-s asks; y commits.
    studio.send(b"\x13");
    studio.wait_for_text("Commit with this message? (y/n)");
    studio.send(b"y");
    // git's summary line (`[main 1234abc] Edited: Add two()`) in the status bar.
    studio.wait_for("the commit's summary", |screen| {
        screen.contents().contains("] Edited: Add two()")
    });
    studio.wait_for_text("Files (0)");

    // Esc leaves the editor (the file list takes the focus back), then q quits. They are sent
    // apart, or the terminal would read them as alt-q.
    studio.send(b"\x1b");
    studio.wait_for_files_focus();
    studio.send(b"q");
    let status = studio.wait_exit();
    assert!(status.success(), "the studio exited with {status}");

    assert_eq!(
        repo.git(&["log", "-1", "--format=%B"]).trim_end(),
        "Edited: Add two()\n\nAdds a second constant function."
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    // What Iris wrote was remembered with the commit: one word was added to her seven.
    let accepted = repo.iris(&["eval", "--accepted", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&accepted.stdout).unwrap();
    assert_eq!(report["rows"][0]["source"], "studio", "{report}");
    assert_eq!(report["rows"][0]["unedited"], false);
    assert_eq!(report["rows"][0]["distance"], 0.125);

    // The terminal was restored: the last things written leave the alternate screen and stop
    // the mouse reports, after the last time they were entered; raw mode is off.
    let output = studio.all_output();
    let entered = rfind(&output, ENTER_ALTERNATE_SCREEN).expect("the alternate screen was used");
    let left = rfind(&output, LEAVE_ALTERNATE_SCREEN).expect("the alternate screen was left");
    assert!(left > entered);
    let mouse_on = rfind(&output, ENABLE_MOUSE).expect("mouse capture was enabled");
    let mouse_off = rfind(&output, DISABLE_MOUSE).expect("mouse capture was disabled");
    assert!(mouse_off > mouse_on);
    assert!(
        mouse_off > left,
        "the mouse reports stop as the studio leaves"
    );
    let tail = String::from_utf8_lossy(&output[left..]).into_owned();
    let visible: String = regex::Regex::new(r"\x1b\[[0-9;?]*[A-Za-z]")
        .unwrap()
        .replace_all(&tail, "")
        .into_owned();
    assert_eq!(
        visible, "",
        "nothing but escape sequences after leaving the alternate screen: {tail:?}"
    );
    studio.program.screen(|screen| {
        assert!(!screen.alternate_screen());
        assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
        assert!(!screen.hide_cursor(), "the cursor is shown again");
    });
    assert_ne!(
        local_flags(&studio.program.master) & libc::ICANON,
        0,
        "canonical mode is back"
    );
    assert_ne!(
        local_flags(&studio.program.master) & libc::ECHO,
        0,
        "echo is back"
    );
}

/// Keys typed just before the studio is told to stop (SIGTERM, as a closing terminal or a
/// system shutdown sends) are in the draft it leaves, and the next studio offers them back.
#[test]
fn the_last_keys_before_a_sigterm_are_in_the_draft() {
    let repo = TestRepo::new();
    repo.write("notes.txt", "one\n");
    repo.commit_all("Initial commit");
    // Modified, not staged: commit mode opens with nothing for Iris to write about.
    repo.write("notes.txt", "one\ntwo\n");
    let fake = FakeProvider::start(vec![]);
    let mut studio = Studio::spawn(&repo, &fake);
    studio.wait_for_text("Files (1)");
    studio.focus_editor();
    let typed = "Keep every key I typed";
    studio.send(typed.as_bytes());
    // No waiting for the screen: the signal follows the keys at once, and the studio reads
    // the keys still waiting in the terminal before it saves the draft.
    // SAFETY: kill(2) on the child's own pid.
    unsafe { libc::kill(studio.program.child.id() as i32, libc::SIGTERM) };
    let status = studio.wait_exit();
    assert!(status.success(), "the studio exited with {status}");
    let drafts = DraftStore::new(&IrisDir::of(&repo.path().join(".git"))).load_all();
    assert_eq!(drafts.len(), 1, "a draft was written");
    assert_eq!(drafts[0].1.text, typed);

    let studio = Studio::spawn(&repo, &fake);
    studio.wait_for_text("restored drafts: Commit");
    studio.wait_for_text(typed);
    assert!(fake.requests().is_empty(), "nothing asked of Iris");
}

/// The git a job waits on runs in a process group of its own (so its deadline stops all it
/// starts), which the terminal's hang-up does not reach. Killed, the studio takes it along:
/// here a `git status` that would hang for a minute ends with the studio, not at its deadline.
#[test]
#[cfg(target_os = "linux")]
fn a_git_the_studio_waits_on_ends_when_the_studio_is_killed() {
    let repo = TestRepo::new();
    repo.write("notes.txt", "one\n");
    repo.commit_all("Initial commit");
    repo.write("notes.txt", "one\ntwo\n");
    let bin = tempfile::tempdir().expect("bin dir");
    let pid_file = bin.path().join("status-pid");
    let real_git = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v git"])
            .output()
            .expect("sh")
            .stdout,
    )
    .expect("utf-8");
    iris_studio_testkit::write_executable(
        &bin.path().join("git"),
        &format!(
            "#!/bin/sh\ncase \"$*\" in *\" status \"*) echo $$ > '{}'; exec sleep 60;; esac\nexec {} \"$@\"\n",
            pid_file.display(),
            real_git.trim()
        ),
    );
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").expect("PATH")
    );
    let fake = FakeProvider::start(vec![]);
    let mut studio = Studio::spawn_with(&repo, &fake, &[("PATH", path.as_ref())]);
    let start = Instant::now();
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|text| text.trim().parse::<i32>().ok())
        {
            break pid;
        }
        assert!(start.elapsed() < TIMEOUT, "the studio never ran git status");
        std::thread::sleep(Duration::from_millis(20));
    };
    studio.program.child.kill().expect("kill the studio");
    studio.wait_exit();
    // Gone, or a zombie no one has reaped yet: either way it runs no more.
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim()
                .starts_with('Z')
        })
    };
    let start = Instant::now();
    while running() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !running(),
        "git status (pid {pid}) outlived the killed studio"
    );
}

/// The trial's case: a message Iris wrote is left in the studio, the change is committed from
/// a terminal, and on another branch an unrelated file is staged. Opened again, the studio
/// does not offer the old message for the new change: Iris writes for what is staged now, and
/// the old message is a version back.
#[test]
fn a_message_written_for_another_change_is_not_offered_for_this_one() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() {}\n");
    repo.commit_all("Initial commit");
    repo.write("src/lib.rs", "pub fn one() {}\npub fn two() {}\n");
    repo.git(&["add", "-A"]);
    let message = |title: &str, body: &str| {
        Step::text(json!({"emoji": null, "title": title, "message": body}).to_string())
    };
    let fake = FakeProvider::start(vec![
        message("Add two()", "Adds a second function."),
        message("Document the tool", "Adds the tool's page."),
    ]);
    let mut studio = Studio::spawn(&repo, &fake);
    studio.wait_for_text("Adds a second function.");
    studio.send(b"q");
    assert!(studio.wait_exit().success());

    repo.git(&["commit", "-q", "-m", "Add two()"]);
    repo.git(&["checkout", "-q", "-b", "docs"]);
    repo.write("docs/tool.md", "# The tool\n");
    repo.git(&["add", "docs/tool.md"]);
    let studio = Studio::spawn(&repo, &fake);
    studio.wait_for_text("Adds the tool's page.");
    let screen = studio.screen();
    assert!(!screen.contains("Adds a second function."), "{screen}");
    assert_eq!(fake.requests().len(), 2, "Iris wrote for the new change");
}

/// `e` hands the terminal to the user's editor (a script named `vim`, so it is told the line)
/// and takes it back: the editor reads the keys typed, its text becomes the message's new
/// version, and the diff's file opens at its line.
#[test]
fn e_hands_the_terminal_to_the_editor_and_takes_the_text_back() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() {}\n",
    );
    repo.git(&["add", "-A"]);
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": "Add two()", "message": "Adds a function."}).to_string(),
    )]);
    // The editor says it is ready, reads one line from the terminal and writes it as the file.
    let bin = crate::common::fake_bin(&[(
        "vim",
        r#"for last; do :; done
printf 'EDITOR READY %s\n' "$*"
IFS= read -r line
printf '%s\n' "$line" > "$last""#,
    )]);
    let editor = bin.path().join("vim");
    let mut studio = Studio::spawn_with(&repo, &fake, &[("VISUAL", editor.as_os_str())]);
    studio.wait_for_text("Iris wrote the commit");

    studio.send(b"e");
    studio.wait_for_text("EDITOR READY");
    studio.program.screen(|screen| {
        assert!(
            !screen.alternate_screen(),
            "the editor has the normal screen"
        );
        assert!(screen.contents().contains("COMMIT_EDITMSG"));
    });
    assert_ne!(
        local_flags(&studio.program.master) & libc::ICANON,
        0,
        "the terminal is back in canonical mode for the editor"
    );
    // Keys go to the editor, not to the studio (R, e, d would be commands there).
    studio.send(b"Rewritten in my editor\r");
    studio.wait_for_text("came back from your editor");
    studio.wait_for_text("Rewritten in my editor");
    studio
        .program
        .screen(|screen| assert!(screen.alternate_screen()));
    assert_eq!(
        local_flags(&studio.program.master) & libc::ICANON,
        0,
        "raw mode again"
    );
    let drafts = DraftStore::new(&IrisDir::of(&repo.path().join(".git")));
    let wait_draft = |text: &str| {
        let start = Instant::now();
        while drafts.load_all().first().map(|d| d.1.text.as_str()) != Some(text) {
            assert!(start.elapsed() < TIMEOUT, "the draft never held {text:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait_draft("Rewritten in my editor");
    // Undo steps back over the editor's text.
    studio.send(b"\x1a");
    studio.wait_for_text("Adds a function.");
    wait_draft("Add two()\n\nAdds a function.");

    // From the diff pane, the file opens at the line shown at its top.
    studio.send(b"\t");
    studio.wait_for("the diff to have the focus", |screen| {
        screen
            .contents()
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("┏ src/lib.rs"))
    });
    studio.send(b"e");
    studio.wait_for_text("EDITOR READY +1 src/lib.rs");
    studio.send(b"// edited\r");
    // Back in the studio, the file read again: its change is now unstaged too.
    studio.wait_for("the studio back with the file's new state", |screen| {
        screen.alternate_screen() && screen.contents().contains("MM")
    });
    assert_eq!(
        std::fs::read_to_string(repo.path().join("src/lib.rs")).unwrap(),
        "// edited\n"
    );
    studio.send(b"q");
    let status = studio.wait_exit();
    assert!(status.success(), "the studio exited with {status}");
}

/// A first start with no provider: setup finds the Ollama on this machine (the fake, where
/// `OLLAMA_HOST` points), writes the chosen model after a yes, and Iris writes the message
/// with it at once, without a restart.
#[test]
fn a_first_run_sets_iris_up_with_the_local_ollama_and_she_writes_at_once() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() {}\n");
    repo.commit_all("Initial commit");
    repo.write("src/lib.rs", "pub fn one() {}\npub fn two() {}\n");
    repo.git(&["add", "-A"]);
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": "Add two()", "message": "Adds a second function."})
            .to_string(),
    )]);
    let host = fake.base_url().trim_start_matches("http://").to_string();
    let mut command = Studio::command(&repo, "commit");
    command.env("OLLAMA_HOST", &host);
    let mut studio = Studio::run(command);

    studio.wait_for_text("Set up Iris");
    studio.wait_for_text(&format!("Ollama at http://{host}"));
    studio.wait_for_text("▸   fake-model");
    studio.send(b"\r");
    studio.wait_for_text("providers.ollama.model = \"fake-model\"");
    let file = repo.home().join("xdg/iris/config.toml");
    assert!(!file.exists(), "nothing is written before the yes");
    studio.send(b"y");
    // Set up, she writes at once (her notice follows setup's).
    studio.wait_for_text("Adds a second function.");
    let written = std::fs::read_to_string(&file).expect("the user file");
    assert!(written.contains("provider = \"ollama\""), "{written}");
    assert!(written.contains("model = \"fake-model\""), "{written}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let requests = fake.requests();
    assert_eq!(requests.len(), 1, "one request, to Ollama's chat");
    assert_eq!(requests[0].path, "/api/chat");
    studio.send(b"q");
    assert!(studio.wait_exit().success());
}

/// P in PR mode asks, then opens the pull request through the user's gh (a script on PATH
/// that records what it was given) with the description Iris wrote.
#[test]
fn p_opens_the_pull_request_through_gh_with_the_description() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() {}\n");
    repo.commit_all("Initial commit");
    repo.git(&["branch", "-M", "main"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("src/lib.rs", "pub fn one() {}\npub fn two() {}\n");
    repo.commit_all("Add two");
    repo.git(&["remote", "add", "origin", "https://github.com/acme/app.git"]);
    let fake = FakeProvider::start(vec![Step::text(
        json!({
            "title": "Add two()",
            "summary": "Adds a second function.",
            "description": "",
            "changes": ["lib: two()"],
            "testing": [],
            "breaking_changes": [],
            "reviewer_notes": [],
            "related_issues": []
        })
        .to_string(),
    )]);
    let log = tempfile::tempdir().unwrap();
    let bin = crate::common::fake_bin(&[(
        "gh",
        &format!(
            r#"printf '%s\n' "$@" > "{log}/args-$1-$2"
case "$2" in
  view) echo "no pull requests found for branch feature" >&2; exit 1;;
  create) cat > "{log}/body"; echo https://github.com/acme/app/pull/7;;
esac"#,
            log = log.path().display()
        ),
    )]);
    let mut path = std::ffi::OsString::from(bin.path());
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let mut command = Studio::command(&repo, "pr");
    command
        .env("PATH", path)
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", FAKE_API_KEY)
        .env("OPENAI_BASE_URL", fake.openai_base_url())
        .env("IRIS_LOCAL", "false");
    let mut studio = Studio::run(command);
    studio.wait_for_text("Iris wrote the");
    studio.wait_for_text("Adds a second function.");
    studio.send(b"P");
    studio.wait_for_text("(gh/glab)? (y/n)");
    assert!(
        !log.path().join("body").exists(),
        "nothing published before the yes"
    );
    studio.send(b"y");
    studio.wait_for_text("pull request https://github.com/acme/app/pull/7");
    let args = std::fs::read_to_string(log.path().join("args-pr-create")).unwrap();
    assert_eq!(args, "pr\ncreate\n--title=Add two()\n--body-file=-\n");
    let body = std::fs::read_to_string(log.path().join("body")).unwrap();
    assert!(
        body.starts_with("## Summary\n\nAdds a second function."),
        "{body}"
    );
    assert!(
        !body.contains("# Add two()"),
        "the title is not repeated in the body"
    );
    studio.send(b"q");
    assert!(studio.wait_exit().success());
}

/// The commit reply in the schema's order, streamed in 8-character pieces 0.2 s apart.
fn slow_commit() -> FakeProvider {
    let reply = r#"{"emoji": null, "title": "Add two() beside one()", "message": "Adds a second constant function for callers that count to two."}"#;
    FakeProvider::start(vec![Step::paced(200, Step::text(reply))])
}

#[test]
fn the_commit_message_forms_on_the_screen_as_iris_writes_it() {
    let repo = crate::common::agent::staged_repo();
    let fake = slow_commit();
    let mut studio = Studio::spawn(&repo, &fake);
    // The title forms first (no JSON on the screen, no count of characters)...
    studio.wait_for("the title forming", |screen| {
        let text = screen.contents();
        text.contains("Add two()") && !text.contains("beside one()")
    });
    let screen = studio.screen();
    assert!(
        !screen.contains("\"title\"") && !screen.contains("characters so far"),
        "{screen}"
    );
    // ...then the body, while Iris is still writing...
    studio.wait_for("the body forming", |screen| {
        let text = screen.contents();
        text.contains("Add two() beside one()")
            && text.contains("Adds a")
            && !text.contains("count to two.")
    });
    assert!(!studio.screen().contains("Iris wrote the commit"));
    // ...and the finished message takes its place.
    studio.wait_for_text("Iris wrote the commit");
    studio.wait_for_text("count to two.");
    studio.send(b"q");
    studio.wait_exit();
}

#[test]
fn iris_gen_on_a_terminal_shows_the_title_forming_under_the_spinner() {
    let repo = crate::common::agent::staged_repo();
    let fake = slow_commit();
    let mut command = repo.isolated_iris(&["gen"]);
    command
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", FAKE_API_KEY)
        .env("OPENAI_BASE_URL", fake.openai_base_url())
        .env("IRIS_LOCAL", "false");
    let mut program = PtyProgram::spawn(command, COLS, ROWS);
    // The spinner on one line, the title forming on the next.
    program
        .wait_for(TIMEOUT, |text| {
            let lines: Vec<&str> = text.lines().collect();
            lines.windows(2).any(|w| {
                w[0].contains("writing")
                    && w[1].starts_with("  Add two()")
                    && !w[1].contains("one()")
            })
        })
        .unwrap_or_else(|| panic!("no title forming under the spinner:\n{}", program.text()));
    let status = program
        .wait_exit(TIMEOUT)
        .unwrap_or_else(|| panic!("still running:\n{}", program.text()));
    assert!(status.success(), "{status:?}");
    // The forming lines are gone: the done line, then the message.
    let text = program.text();
    assert!(text.contains("✓ done in"), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("  Add two()")),
        "{text}"
    );
    assert!(
        text.contains("Add two() beside one()\n\nAdds a second constant function"),
        "{text}"
    );
}

/// `x` in commit mode on the real binary: Iris' plan in the split view, enter and y make the
/// commits, u undoes them, esc closes the view.
#[test]
fn x_splits_the_change_into_commits_and_u_undoes_them() {
    let repo = TestRepo::tangled();
    let fake = FakeProvider::start(vec![Step::text(crate::split::three_groups())]);
    let mut studio = Studio::spawn(&repo, &fake);
    studio.wait_for_text("Files (3)");
    studio.send(b"x");
    studio.wait_for_text("Split into 3 commits");
    // A frame may reach the terminal in more than one read: each part is waited for.
    studio.wait_for_text("1. feat: log the values  2 hunks");
    studio.wait_for_text("h1 a.rs:1-5");
    studio.wait_for_text("+    log(1)");
    studio.wait_for_text("So a run can be followed.");
    studio.send(b"j");
    studio.wait_for_text("Commit 2 · h2 (1 of 1)");
    studio.send(b"\r");
    studio.wait_for_text("Make these 3 commits");
    studio.send(b"y");
    studio.wait_for_text("made 3 commits");
    assert_eq!(
        repo.git(&["log", "--format=%s"]),
        "docs: add a guide\nfix: omega returns 3\nfeat: log the values\nbase\n"
    );
    studio.send(b"u");
    studio.wait_for_text("Undid the split: 3 commits removed");
    assert_eq!(repo.git(&["log", "--format=%s"]), "base\n");
    studio.send(b"\x1b");
    studio.wait_for_text("the split view is closed");
    studio.send(b"q");
    assert!(studio.wait_exit().success());
    assert_eq!(fake.requests().len(), 1);
}

/// In a jj workspace the list is `@`'s change, the stage key says why it does nothing, and
/// c records the change with `jj commit`.
#[test]
fn in_a_jj_workspace_the_files_are_at_s_change_and_a_commit_is_jj_commit() {
    let repo = TestRepo::jj_adding_two(false);
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": "Add two()", "message": ""}).to_string(),
    )]);
    let mut studio = Studio::spawn(&repo, &fake);
    studio.wait_for_text("Files of @");
    studio.wait_for_text("Iris wrote the commit");
    studio.wait_for("the file marked as in @", |screen| {
        let contents = screen.contents();
        contents
            .lines()
            .any(|l| l.starts_with("┃@M") && l.contains("src/lib.rs"))
    });
    studio.wait_for_text("src/lib.rs +4 -0 · in @");
    studio.send(b"s");
    studio.wait_for_text("jj has no staging area");
    studio.send(b"c");
    studio.wait_for_text("Commit with this message? (y/n)");
    studio.send(b"y");
    studio.wait_for_text("jj commit: ");
    studio.wait_for_text("Files of @");
    studio.wait_for_text("(0)");
    studio.send(b"q");
    assert!(studio.wait_exit().success());
    assert_eq!(repo.jj_description("@-"), "Add two()\n");
    let requests = fake.requests();
    let asked = requests[0].user_texts().join("\n");
    assert!(
        asked.contains("Write the commit message for commit"),
        "{asked}"
    );
    assert!(asked.contains("- Add one()"), "{asked}");
}

/// The marks before `path` in the file list (staged, then unstaged), if it is listed.
fn marks_of(screen: &vt100::Screen, path: &str) -> Option<String> {
    let contents = screen.contents();
    let line = contents.lines().find(|line| line.contains(path))?;
    // After the pane's left border.
    Some(line.chars().skip(1).take(2).collect())
}

#[test]
fn the_studio_sees_a_file_changed_and_a_file_staged_outside_it() {
    let repo = TestRepo::new();
    repo.write("a.txt", "one\n");
    repo.write("b.txt", "one\n");
    repo.commit_all("Initial commit");
    repo.write("a.txt", "one\ntwo\n");
    repo.git(&["add", "a.txt"]);
    let fake = FakeProvider::start(vec![Step::text(
        json!({"emoji": null, "title": "Add two to a", "message": "A second line."}).to_string(),
    )]);
    let mut studio = Studio::spawn(&repo, &fake);
    studio.wait_for_text("Iris wrote the commit");
    studio.wait_for_text("Files (1)");
    // A word typed into the message stays through what follows.
    studio.focus_editor();
    studio.send(b"Kept: ");
    studio.wait_for_text("Kept: Add two to a");

    // Saved in another window: listed, unstaged, without a key pressed.
    repo.write("b.txt", "one\nthree\n");
    studio.wait_for("b.txt changed, listed", |screen| {
        screen.contents().contains("Files (2)")
            && marks_of(screen, "b.txt").as_deref() == Some(" M")
    });
    // Staged there: shown staged.
    repo.git(&["add", "b.txt"]);
    studio.wait_for("b.txt staged", |screen| {
        marks_of(screen, "b.txt").as_deref() == Some("M ")
    });
    let screen = studio.screen();
    assert!(screen.contains("Kept: Add two to a"), "{screen}");
    assert_eq!(fake.requests().len(), 1, "a refresh never asks Iris");

    // What git ignores is not listed (that the watcher leaves it out is the watcher's unit
    // test's to show).
    repo.write(".gitignore", "build/\n");
    studio.wait_for_text(".gitignore");
    std::fs::create_dir_all(repo.path().join("build")).expect("mkdir");
    repo.write("build/out.o", "binary\n");
    std::thread::sleep(Duration::from_millis(800));
    assert!(!studio.screen().contains("out.o"), "{}", studio.screen());

    studio.send(b"\x1b");
    studio.wait_for_files_focus();
    studio.send(b"q");
    assert!(studio.wait_exit().success());
}

/// With Claude Code as the model (no tools), a chat turn's `<artifact>` block replaces the
/// message in the editor, and the chat shows only what Iris said about it.
#[test]
fn a_cli_model_edits_the_message_from_the_chat() {
    let repo = TestRepo::new();
    repo.write("main.rs", "fn main() {}\n");
    repo.commit_all("Initial commit");
    repo.write("main.rs", "fn main() {\n    println!(\"hello\");\n}\n");
    repo.git(&["add", "main.rs"]);
    let result = |text: &str| {
        let json = json!({"type": "result", "subtype": "success", "is_error": false,
            "result": text, "total_cost_usd": 0.001,
            "usage": {"input_tokens": 100, "output_tokens": 10}});
        format!("'{json}'")
    };
    let first = result(r#"{"emoji": null, "title": "Add a greeting", "message": "Prints hello."}"#);
    let second = result(
        "<artifact>\nAdd a friendly greeting\n\nPrints hello.\n</artifact>\nMade the title warmer.",
    );
    let claude = crate::common::fake_bin(&[(
        "claude",
        &format!(
            "LOG=$(dirname \"$0\")\ncat > /dev/null\n\
             n=$(cat \"$LOG/count\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$LOG/count\"\n\
             if [ $n = 1 ]; then printf '%s\\n' {first}; else printf '%s\\n' {second}; fi"
        ),
    )]);
    let mut command = Studio::command(&repo, "commit");
    command
        .env("IRIS_PROVIDER", "claude-code")
        .env("PATH", crate::common::path_with(claude.path()));
    let mut studio = Studio::run(command);
    studio.wait_for_text("Add a greeting");
    studio.send(b"/");
    studio.send(b"Make the title warmer");
    studio.send(b"\r");
    studio.wait_for_text("Add a friendly greeting");
    studio.wait_for_text("Made the title warmer.");
    // Once the reply is whole, the block is gone from the chat: the new title is the
    // editor's.
    studio.wait_for("the block to leave the chat", |screen| {
        !screen.contents().contains("</artifact>")
    });
    let screen = studio.screen();
    assert!(screen.contains("Add a friendly greeting"), "{screen}");
    assert!(screen.contains("title 23/72"), "{screen}");
}

/// PR mode over a stack: the checked-out branch's layer is written from its own change, `]`
/// shows the layer above, and `P` has Iris write the layer still without a description, then
/// opens every layer's pull request into the one below through gh.
#[test]
fn pr_mode_describes_a_stack_layer_by_layer_and_publishes_it() {
    use crate::stacks::{GH, pr_reply, pushed_stack};
    let repo = pushed_stack();
    repo.git(&["checkout", "-q", "b2"]);
    let steps = ["Evaluate expressions", "Add a REPL", "Parse expressions"]
        .iter()
        .flat_map(|t| {
            [
                Step::text(pr_reply(t)),
                Step::text(crate::common::agent::approval()),
            ]
        })
        .collect();
    let fake = FakeProvider::start(steps);
    let gh = crate::common::fake_bin(&[("gh", GH)]);
    let mut command = Studio::command(&repo, "pr");
    command
        .env("PATH", crate::common::path_with(gh.path()))
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", FAKE_API_KEY)
        .env("OPENAI_BASE_URL", fake.openai_base_url())
        .env("IRIS_LOCAL", "false");
    let mut studio = Studio::run(command);
    // A layer is written once its text shows and Iris has stopped (her spinner says "esc
    // cancels"); keys for another layer wait for that.
    let written = |studio: &Studio, text: &'static str| {
        studio.wait_for(&format!("`{text}` written"), |screen| {
            let shown = screen.contents();
            shown.contains(text) && shown.contains("Iris wrote") && !shown.contains("esc cancels")
        });
    };
    studio.wait_for_text("Stack on main");
    studio.wait_for_text("Commits b1..b2");
    written(&studio, "Evaluate expressions.");
    let first = fake.requests()[0].user_texts().join("\n");
    assert!(
        first.contains("pub fn eval()") && !first.contains("pub fn lex()"),
        "{first}"
    );
    studio.send(b"]");
    studio.wait_for_text("Commits b2..b3");
    written(&studio, "Add a REPL.");
    studio.send(b"P");
    studio.wait_for_text("Publish the stack");
    studio.send(b"y");
    studio.wait_for_text("the stack is published");
    studio.wait_for_text("b3: created pull request https://github.com/acme/app/pull/13 (into b2)");
    let b1 = std::fs::read_to_string(gh.path().join("created-b1.args")).unwrap();
    assert!(b1.contains("--title=Parse expressions\n"), "{b1}");
    let edited = std::fs::read_to_string(gh.path().join("edited-11.body")).unwrap();
    assert!(
        edited.contains("3. [Add a REPL](https://github.com/acme/app/pull/13) (`b3`)"),
        "{edited}"
    );
    // The layer Iris wrote for publishing is in the studio too.
    studio.send(b"\x1b");
    // (An esc followed at once by `[` would read as an escape sequence.)
    studio.wait_for("the report closed", |screen| {
        !screen.contents().contains("Report (esc closes)")
    });
    studio.send(b"[");
    studio.wait_for_text("Commits b1..b2");
    studio.send(b"[");
    studio.wait_for_text("Commits main..b1");
    studio.wait_for_text("Parse expressions.");
    studio.send(b"q");
    studio.wait_for_text("(y/n)");
    studio.send(b"y");
    assert!(studio.wait_exit().success());
}
