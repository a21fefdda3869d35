//! Benchmark: the studio while Iris writes an 8,000-character commit body at 200 tokens a
//! second (an 8-character piece every 5 ms), as the message forms in the editor.
//!
//! In process (the `iris_studio_tui` crate driven as the shell drives it, 120x40 TestBackend):
//! - every frame of the stream: the actions that arrived in its 16.7 ms (each streamed
//!   piece, a preview of the artifact every 40 ms as the agent sends it, the spinner's tick)
//!   applied, then the frame drawn; the worst and median frame, and what the frames cost per
//!   second of stream. The agent's side (rendering the preview from the reply so far) is
//!   timed on its own.
//! - allocations while drawing one frame of a diff with 30, 60 and 120 lines in view, counted
//!   by a counting global allocator (the same frame drawn again, as a spinner tick draws it).
//!
//! The real binary: its CPU share in a 120x40 pseudo-terminal while a fake provider streams,
//! for a structured reply (JSON, the way every artifact is asked for now, shown as it forms)
//! and plain text (shown as it streams). Each is measured for 3 s of streaming, five times;
//! the median is printed.
//!
//! `IRIS_BENCH_BIN=/path/to/iris` measures another build (a baseline) instead of this one
//! (the in-process figures are always this build's). Asserts nothing.
#![allow(clippy::disallowed_methods)] // benchmarks run the real binary and git

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/isolated.rs"]
mod isolated;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use iris_studio::studio::app::Progressing;
use iris_studio_agent::output::Previewer;
use iris_studio_core::artifact::{ArtifactKind, GeneratedMessage};
use iris_studio_core::change::{FileDiff, parse_unified_diff};
use iris_studio_core::protocol::AgentEvent;
use iris_studio_core::protocol::progress::Progress;
use iris_studio_tui::action::Action;
use iris_studio_tui::features::msgs::EditorMsg;
use iris_studio_tui::highlight::{Highlights, Syntaxes};
use iris_studio_tui::keymap::Keymap;
use iris_studio_tui::state::{Mode, Pane, State, Task, TaskKind};
use iris_studio_tui::theme::{ColorSupport, Theme};
use iris_studio_tui::ui::{Looks, draw};
use iris_studio_tui::update::update;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use common::pty::PtyProgram;
use isolated::base_command;

const RUNS: usize = 5;
const WAIT: Duration = Duration::from_secs(60);
const MEASURED: Duration = Duration::from_secs(3);

fn main() {
    let bin = std::env::var_os("IRIS_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_iris")));
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    make_repo(&repo);
    let body = prose(8_000);
    let json = format!(
        r#"{{"emoji": null, "title": "Add two() beside one()", "message": "{}"}}"#,
        body.trim_end()
    );
    in_process(&json);
    allocations();
    println!(
        "studio CPU while a commit message streams at 200 tokens/s ({})",
        bin.display()
    );
    let plain_seen = first_words(&body).to_string();
    for (what, reply, seen) in [
        (
            "structured reply (JSON)",
            json,
            "Add two() beside".to_string(),
        ),
        ("plain text reply", body.clone(), plain_seen),
    ] {
        let mut shares: Vec<f64> = (0..RUNS)
            .map(|_| streaming_share(&bin, &repo, &home, &reply, &seen))
            .collect();
        shares.sort_by(f64::total_cmp);
        println!(
            "  {what:<24} median {:.1}% of one core (runs: {})",
            shares[RUNS / 2],
            shares
                .iter()
                .map(|s| format!("{s:.1}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// Counts the allocations (and reallocations) the program makes.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's promises are the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One piece of the reply every 5 ms: 200 tokens a second.
const PIECE: usize = 8;
const PIECE_EVERY_MS: f64 = 5.0;
/// The agent renders its preview of the artifact at most this often.
const PREVIEW_EVERY_MS: f64 = 40.0;
/// The spinner's tick.
const TICK_EVERY_MS: f64 = 100.0;
/// At most 60 frames a second.
const FRAME_MS: f64 = 1000.0 / 60.0;

fn looks_theme() -> (Theme, Keymap) {
    let theme = Theme::builtin("dark")
        .expect("dark theme")
        .adapt(ColorSupport::TrueColor);
    (theme, Keymap::default())
}

/// A diff of one Rust file with `lines` lines, added, removed and context in turn.
fn diff_files(lines: usize) -> Vec<FileDiff> {
    let signs = [' ', '+', '-'];
    let mut body = String::new();
    let (mut old, mut new) = (0, 0);
    for i in 0..lines {
        let sign = signs[i % 3];
        old += usize::from(sign != '+');
        new += usize::from(sign != '-');
        body.push_str(&format!(
            "{sign}    let value_{i} = compute(&items[{i}], \"label {i}\", {i}u32); // step {i}\n"
        ));
    }
    let text = format!(
        "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,{old} +1,{new} @@ fn compute()\n{body}"
    );
    parse_unified_diff(&text)
}

/// The studio in commit mode over a 60-line diff, the previous message in the editor and
/// the project's commit rules loaded (regenerating over a message).
fn commit_studio(size: (u16, u16)) -> State {
    let mut state = State::new(Mode::COMMIT);
    state.screen.size = size;
    state.repo.branch = "main".into();
    state.changes.loading = false;
    state.diff.path = Some("src/lib.rs".into());
    state.diff.files = diff_files(60);
    let config = "module.exports = { extends: ['@commitlint/config-conventional'] };\n";
    let rules =
        iris_studio_core::commit_rules::parse("commitlint.config.js", config).expect("rules");
    let loaded = EditorMsg::RulesLoaded(Ok(Some(Box::new(rules))));
    update(&mut state, Action::Editor(loaded));
    let previous = format!("feat(studio): add two() beside one()\n\n{}", prose(1_500));
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .expect("the commit buffer")
        .replace(&previous);
    state
}

/// Streams `reply` into the studio as the shell feeds it, frame by frame.
fn in_process(reply: &str) {
    let (theme, keymap) = looks_theme();
    let highlights = Highlights::new(std::sync::Arc::new(Syntaxes::new()));
    let looks = Looks {
        theme: &theme,
        keymap: &keymap,
        highlights: &highlights,
    };
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let mut state = commit_studio((120, 40));
    let start = Instant::now();
    state.now = start;
    state.iris.task = Some(Task {
        id: 1,
        mode: Mode::COMMIT,
        kind: TaskKind::Generate,
        started: start,
        progress: Progress {
            activity: "starting".to_string(),
            ..Progress::default()
        },
    });
    // The studio was on screen before Iris began: its first frame (which loads the syntax
    // definitions) is not the stream's.
    terminal.draw(|f| draw(f, &state, &looks)).expect("draw");
    // What arrives, and when (ms into the reply).
    let mut arrivals: Vec<(f64, Arrival)> = Vec::new();
    let pieces: Vec<&str> = split_pieces(reply);
    for (i, piece) in pieces.iter().enumerate() {
        let at = i as f64 * PIECE_EVERY_MS;
        arrivals.push((at, Arrival::Piece(piece)));
        if i % ((PREVIEW_EVERY_MS / PIECE_EVERY_MS) as usize) == 0 || i + 1 == pieces.len() {
            arrivals.push((at, Arrival::Preview));
        }
    }
    let streaming_ms = pieces.len() as f64 * PIECE_EVERY_MS;
    let mut tick = TICK_EVERY_MS;
    while tick < streaming_ms {
        arrivals.push((tick, Arrival::Tick));
        tick += TICK_EVERY_MS;
    }
    arrivals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut agent = Agent::new();
    let mut frames: Vec<Duration> = Vec::new();
    let mut agent_time = Duration::ZERO;
    let mut agent_worst = Duration::ZERO;
    let mut next = 0;
    let mut frame_end = FRAME_MS;
    while next < arrivals.len() {
        // The agent's side runs on its own task: timed apart from the frame.
        let mut actions: Vec<Action> = Vec::new();
        while next < arrivals.len() && arrivals[next].0 < frame_end {
            let event = match arrivals[next].1 {
                Arrival::Piece(piece) => Some(agent.delta(piece)),
                Arrival::Preview => {
                    let started = Instant::now();
                    let preview = agent.preview();
                    let spent = started.elapsed();
                    agent_time += spent;
                    agent_worst = agent_worst.max(spent);
                    preview
                }
                Arrival::Tick => {
                    actions.push(Action::Tick(
                        start + Duration::from_secs_f64(arrivals[next].0 / 1000.0),
                    ));
                    None
                }
            };
            if let Some(event) = event {
                actions.push(Action::Agent { task: 1, event });
            }
            next += 1;
        }
        let started = Instant::now();
        for action in feed(actions) {
            state.now = start + Duration::from_secs_f64(frame_end / 1000.0);
            update(&mut state, action);
        }
        terminal.draw(|f| draw(f, &state, &looks)).expect("draw");
        frames.push(started.elapsed());
        frame_end += FRAME_MS;
    }
    let total: Duration = frames.iter().sum();
    let seconds = streaming_ms / 1000.0;
    frames.sort();
    println!(
        "in process: a {}-character reply streamed at 200 tokens/s ({:.1} s, {} frames of 120x40, the previous message under commit rules)",
        reply.len(),
        seconds,
        frames.len()
    );
    println!(
        "  frames (actions applied + drawn): median {:.3} ms, worst {:.3} ms; {:.2}% of a core per second of stream",
        frames[frames.len() / 2].as_secs_f64() * 1000.0,
        frames[frames.len() - 1].as_secs_f64() * 1000.0,
        100.0 * total.as_secs_f64() / seconds
    );
    println!(
        "  the agent's preview of the reply so far, every 40 ms: {:.2} ms in all, worst {:.3} ms",
        agent_time.as_secs_f64() * 1000.0,
        agent_worst.as_secs_f64() * 1000.0
    );
}

enum Arrival<'a> {
    Piece(&'a str),
    Preview,
    Tick,
}

fn split_pieces(reply: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = reply;
    while !rest.is_empty() {
        let mut end = PIECE.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let (piece, tail) = rest.split_at(end);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}

/// What the agent does with each piece of a structured reply: passes it on, and renders
/// the artifact as far as it is written (as `iris_studio_agent`'s previewing sink does, reading each
/// piece once).
struct Agent {
    previewer: Previewer<GeneratedMessage>,
    shown: String,
}

impl Agent {
    fn new() -> Self {
        Self {
            previewer: Previewer::new(iris_studio_core::artifact::schema::full_schema::<
                GeneratedMessage,
            >()),
            shown: String::new(),
        }
    }

    fn delta(&mut self, piece: &str) -> AgentEvent {
        self.previewer.push(piece);
        AgentEvent::TextDelta(piece.to_string())
    }

    fn preview(&mut self) -> Option<AgentEvent> {
        let text = self.previewer.render().filter(|t| *t != self.shown)?;
        self.shown.clone_from(&text);
        Some(AgentEvent::Preview {
            kind: ArtifactKind::Commit,
            text,
        })
    }
}

/// The actions of one frame, as the shell hands them to the reducer: streamed progress
/// folded (the shell's `Progressing`), everything else in its place.
fn feed(actions: Vec<Action>) -> Vec<Action> {
    let mut progressing = Progressing::default();
    let mut out = Vec::new();
    for action in actions {
        if Progressing::holds(&action) {
            progressing.push(action);
        } else {
            out.extend(progressing.take());
            out.push(action);
        }
    }
    out.extend(progressing.take());
    out
}

/// Allocations while drawing a frame of the diff pane (zoomed) with 30, 60 and 120 lines
/// in view: the same frame again, as a spinner tick or a streamed piece draws it.
fn allocations() {
    const FRAMES: usize = 50;
    let (theme, keymap) = looks_theme();
    let highlights = Highlights::new(std::sync::Arc::new(Syntaxes::new()));
    let looks = Looks {
        theme: &theme,
        keymap: &keymap,
        highlights: &highlights,
    };
    println!("in process: allocations drawing one frame of the diff (zoomed, highlighted)");
    for lines in [30, 60, 120] {
        // The tabs, the status line and the pane's borders around the lines.
        let height = lines as u16 + 4;
        let mut state = commit_studio((120, height));
        state.diff.files = diff_files(lines + 10);
        state.focus = Pane::Diff;
        state.screen.zoom = true;
        let mut terminal = Terminal::new(TestBackend::new(120, height)).expect("terminal");
        for _ in 0..3 {
            terminal.draw(|f| draw(f, &state, &looks)).expect("draw");
        }
        let mut counted = 0;
        let started = Instant::now();
        for _ in 0..FRAMES {
            terminal
                .draw(|f| {
                    let before = ALLOCATIONS.load(Ordering::Relaxed);
                    draw(f, &state, &looks);
                    counted += ALLOCATIONS.load(Ordering::Relaxed) - before;
                })
                .expect("draw");
        }
        let per_frame = started.elapsed() / FRAMES as u32;
        let shown = iris_studio_tui::layout::PaneRects::compute((120, height), &state)
            .view
            .map_or(0, |r| r.height.saturating_sub(2));
        println!(
            "  {shown:>3} lines in view: {:>6} allocations a frame ({:.3} ms a frame with the terminal's own work)",
            counted / FRAMES,
            per_frame.as_secs_f64() * 1000.0
        );
    }
}

/// About `len` characters of varied prose: a reply that repeats itself would be stopped as
/// a runaway before the measurement ends.
fn prose(len: usize) -> String {
    const WORDS: [&str; 24] = [
        "callers", "count", "to", "two", "now", "without", "adding", "one", "itself", "the",
        "function", "returns", "a", "constant", "beside", "its", "sibling", "and", "tests",
        "cover", "both", "paths", "through", "parser",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut out = String::new();
    while out.len() < len {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        out.push_str(WORDS[(seed >> 33) as usize % WORDS.len()]);
        out.push(if (seed >> 20).is_multiple_of(11) {
            '.'
        } else {
            ' '
        });
        if out.ends_with('.') {
            out.push(' ');
        }
    }
    out
}

fn first_words(text: &str) -> &str {
    let end = text.char_indices().nth(20).map_or(text.len(), |(i, _)| i);
    &text[..end]
}

fn make_repo(repo: &Path) {
    std::fs::create_dir_all(repo.join("src")).expect("repo");
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(args)
            .current_dir(repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "A")
            .env("GIT_AUTHOR_EMAIL", "a@example.com")
            .env("GIT_COMMITTER_NAME", "A")
            .env("GIT_COMMITTER_EMAIL", "a@example.com")
            .status()
            .expect("git")
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("src/lib.rs"), "pub fn one() -> u32 {\n    1\n}\n").expect("write");
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "Initial commit"]);
    std::fs::write(
        repo.join("src/lib.rs"),
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    )
    .expect("write");
    git(&["add", "-A"]);
}

/// Each thread of `pid`: its name and its user plus system clock ticks so far.
fn thread_ticks(pid: u32) -> std::collections::BTreeMap<u32, (String, u64)> {
    let mut out = std::collections::BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return out;
    };
    for task in tasks.flatten() {
        let Some(tid) = task
            .file_name()
            .to_str()
            .and_then(|t| t.parse::<u32>().ok())
        else {
            continue;
        };
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        let name = stat
            .split_once('(')
            .and_then(|(_, r)| r.rsplit_once(')'))
            .map_or(String::new(), |(n, _)| n.to_string());
        let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 = [11, 12]
            .iter()
            .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
            .sum();
        out.insert(tid, (name, ticks));
    }
    out
}

/// The studio's CPU over [`MEASURED`] of streaming, as a percentage of one core.
fn streaming_share(bin: &Path, repo: &Path, home: &Path, reply: &str, seen: &str) -> f64 {
    let fake = FakeProvider::start(vec![Step::paced(5, Step::text(reply))]);
    let mut command = base_command(bin, repo, home);
    command
        .args(["studio", "--mode", "commit"])
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", FAKE_API_KEY)
        .env("OPENAI_BASE_URL", fake.openai_base_url())
        .env("IRIS_LOCAL", "false");
    // Drafts are kept per repository: start each run without one.
    let _ = std::fs::remove_dir_all(repo.join(".git/iris"));
    let mut program = PtyProgram::spawn(command, 120, 40);
    // The reply has begun when its first words (or the old count of characters) show.
    program
        .wait_for(WAIT, |s| {
            s.contains(seen) || s.contains("characters so far")
        })
        .unwrap_or_else(|| panic!("nothing streamed:\n{}", program.text()));
    let pid = program.child.id();
    let threads0 = thread_ticks(pid);
    let (cpu0, wall0) = (program.cpu_time(), Instant::now());
    std::thread::sleep(MEASURED);
    let share = 100.0 * (program.cpu_time() - cpu0).as_secs_f64() / wall0.elapsed().as_secs_f64();
    if std::env::var_os("IRIS_BENCH_THREADS").is_some() {
        // Where the CPU went, by thread name (clock ticks over the measured seconds).
        let mut by_name: std::collections::BTreeMap<String, u64> = Default::default();
        for (tid, (name, ticks)) in thread_ticks(pid) {
            let before = threads0.get(&tid).map_or(0, |(_, t)| *t);
            *by_name.entry(name).or_default() += ticks.saturating_sub(before);
        }
        println!("    threads (ticks): {by_name:?}");
    }
    program.send(b"\x1b");
    std::thread::sleep(Duration::from_millis(100));
    program.send(b"q");
    let _ = program.wait_exit(Duration::from_secs(10));
    share
}
