//! What the studio draws, pane by pane: the whole frame rendered into a 120x40 `TestBackend`
//! from representative states, compared with the snapshots in `tests/snapshots/`.
//!
//! The "dark" theme is adapted to `NoColor`, so the snapshots are about text; the few styles
//! that carry meaning without colour (the selection, the focused border, a title over 72
//! columns) are asserted cell by cell. After a deliberate change to the panes, review the new
//! snapshots (`cargo insta review`, or `INSTA_UPDATE=always cargo test --test studio_snapshots`
//! and `git diff`).

use iris_studio_tui::features::msgs::{EditorMsg, SetupMsg};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::change::{ChangeKind, DiffLine, FileDiff, Hunk, LineKind};
use iris_studio_core::protocol::progress::Progress;
use iris_studio_tui::action::Action;
use iris_studio_tui::highlight::{Highlights, Syntaxes};
use iris_studio_tui::keymap::Keymap;
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{
    Alternatives, ChatMessage, Confirm, FileEntry, Level, Mode, Notice, Pane, Speaker, State, Task,
    TaskKind,
};
use iris_studio_tui::theme::{ColorSupport, Theme};
use iris_studio_tui::ui::{self, Looks};
use iris_studio_tui::update::update;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;

fn render_buffer(state: &State) -> Buffer {
    render_with(state, ColorSupport::NoColor)
}

fn render_with(state: &State, support: ColorSupport) -> Buffer {
    let theme = Theme::builtin("dark")
        .expect("the dark theme is built in")
        .adapt(support);
    let keymap = Keymap::default();
    let highlights = Highlights::new(std::sync::Arc::new(Syntaxes::new()));
    let looks = Looks {
        theme: &theme,
        keymap: &keymap,
        highlights: &highlights,
    };
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test terminal");
    terminal
        .draw(|frame| ui::draw(frame, state, &looks))
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// The buffer as lines of text: a wide character's second cell is not printed twice, and
/// trailing blanks are dropped.
fn text_of(buffer: &Buffer) -> String {
    let width = usize::from(buffer.area.width);
    let mut out = String::new();
    for cells in buffer.content.chunks(width) {
        let mut row = String::new();
        let mut skip = 0u16;
        for cell in cells {
            if skip == 0 {
                row.push_str(cell.symbol());
            }
            let width = u16::try_from(cell.symbol().width()).unwrap_or(1);
            skip = skip.max(width).saturating_sub(1);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// The state as the reducer leaves it after an action: its panes' text wrapped again (for a
/// test that set the state by hand).
fn settled(state: &mut State) -> &State {
    state.refresh_rows();
    state
}

fn render(state: &State) -> String {
    text_of(&render_buffer(state))
}

/// The cells of row `y` whose symbol is part of `needle` (its first occurrence on the row).
fn find(buffer: &Buffer, y: u16, needle: &str) -> Option<u16> {
    let row: Vec<&str> = (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect();
    let first: String = needle.chars().next()?.to_string();
    (0..buffer.area.width).find(|&x| {
        row[usize::from(x)] == first
            && needle
                .chars()
                .enumerate()
                .all(|(i, c)| row.get(usize::from(x) + i) == Some(&c.to_string().as_str()))
    })
}

fn row_of(buffer: &Buffer, needle: &str) -> (u16, u16) {
    (0..buffer.area.height)
        .find_map(|y| find(buffer, y, needle).map(|x| (x, y)))
        .unwrap_or_else(|| panic!("`{needle}` is not on the screen:\n{}", text_of(buffer)))
}

// ---------------------------------------------------------------------------------------------
// States

fn entry(path: &str, staged: Option<ChangeKind>, unstaged: Option<ChangeKind>) -> FileEntry {
    FileEntry {
        path: path.to_string(),
        staged,
        unstaged,
        untracked: false,
        conflicted: false,
        relevance: None,
        secret: None,
    }
}

/// Every kind of mark the list shows, the staged files ranked.
fn files() -> Vec<FileEntry> {
    vec![
        FileEntry {
            relevance: Some(100),
            ..entry("src/studio/update.rs", Some(ChangeKind::Modified), None)
        },
        FileEntry {
            relevance: Some(64),
            ..entry(
                "src/studio/ui/status.rs",
                Some(ChangeKind::Modified),
                Some(ChangeKind::Modified),
            )
        },
        FileEntry {
            relevance: Some(35),
            ..entry("tests/studio_snapshots.rs", Some(ChangeKind::Added), None)
        },
        FileEntry {
            relevance: Some(8),
            ..entry("docs/old-notes.md", Some(ChangeKind::Deleted), None)
        },
        FileEntry {
            relevance: Some(3),
            ..entry("src/renamed.rs", Some(ChangeKind::Renamed), None)
        },
        entry("Cargo.toml", None, Some(ChangeKind::Modified)),
        FileEntry {
            conflicted: true,
            ..entry("src/merge.rs", None, None)
        },
        FileEntry {
            untracked: true,
            ..entry(
                "scratch/a-very-long-untracked-file-name-that-does-not-fit.txt",
                None,
                None,
            )
        },
    ]
}

fn diff_line(kind: LineKind, content: &str) -> DiffLine {
    DiffLine {
        kind,
        content: content.to_string(),
        no_newline: false,
    }
}

/// A Rust diff with context, added and removed lines, a tab and wide characters.
fn diff() -> Vec<FileDiff> {
    use LineKind::{Added, Context, Removed};
    vec![FileDiff {
        path: "src/studio/update.rs".to_string(),
        old_path: None,
        kind: ChangeKind::Modified,
        binary: false,
        large: None,
        hunks: vec![
            Hunk {
                header: "@@ -12,6 +12,7 @@ use super::state::{".to_string(),
                old_start: 12,
                old_lines: 6,
                new_start: 12,
                new_lines: 7,
                lines: vec![
                    diff_line(Context, "/// Lines a page moves."),
                    diff_line(Removed, "const PAGE: usize = 10;"),
                    diff_line(Added, "const PAGE: usize = 20;"),
                    diff_line(Added, "\tlet greeting = \"日本語のテキスト ✨\";"),
                    diff_line(Context, ""),
                    diff_line(
                        Context,
                        "pub fn update(state: &mut State, action: Action) {",
                    ),
                ],
            },
            Hunk {
                header: "@@ -80,3 +81,3 @@ fn notice(state: &mut State) {".to_string(),
                old_start: 80,
                old_lines: 3,
                new_start: 81,
                new_lines: 3,
                lines: vec![
                    diff_line(Context, "    state.notice = Some(Notice {"),
                    diff_line(Removed, "        level,"),
                    diff_line(Added, "        level: level.max(Level::Info),"),
                    diff_line(
                        Context,
                        "        text: text.into().split_whitespace().collect::<Vec<_>>().join(\" \"), // a line too long for the pane",
                    ),
                ],
            },
        ],
        additions: 3,
        deletions: 2,
        old_mode: None,
        new_mode: None,
    }]
}

/// A loaded studio in `mode` on branch `main`, the first file selected and its diff shown.
fn studio(mode: Mode) -> State {
    let mut state = State::new(mode);
    state.repo.branch = "main".to_string();
    state.changes.files = files();
    state.changes.loading = false;
    state.changes.has_staged = true;
    state.diff.path = Some("src/studio/update.rs".to_string());
    state.diff.files = diff();
    // What the working tree shows: the file's staged part (here all of it).
    state.diff.staged = Some(1);
    state
}

const LONG_TITLE: &str =
    "Render the studio's panes from plain state so that snapshots can pin every one of them";

fn with_commit_message(mut state: State) -> State {
    let message = format!(
        "{LONG_TITLE}\n\nEach pane reads the state and nothing else; the tests render\n\
         them into a TestBackend and compare the text."
    );
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace(&message);
    state
}

/// A task started 12.3 s before `now` (the state's time: drawing reads no clock, so the
/// elapsed time and the spinner's frame are the same on every run).
fn task(kind: TaskKind, mode: Mode, now: Instant) -> Task {
    Task {
        id: 1,
        mode,
        kind,
        started: now - Duration::from_millis(12_300),
        progress: Progress {
            activity: "reading the diff".to_string(),
            input_tokens: 1234,
            output_tokens: 56,
            ..Progress::default()
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Snapshots

#[test]
fn explore_mode_shows_the_tree_and_the_open_file_with_its_history() {
    let mut state = studio(Mode::Explore);
    state.explore.files = vec![
        "Cargo.toml".into(),
        "README.md".into(),
        "src/lib.rs".into(),
        "src/studio/update.rs".into(),
    ];
    state.explore.loaded = true;
    state.explore.expanded.insert("src".into());
    state.explore.selected = 3;
    state.explore.open = Some("src/lib.rs".into());
    state.explore.lines = Some(vec![
        "//! The crate.".into(),
        "".into(),
        "pub mod studio;\t// the TUI".into(),
    ]);
    state.explore.history = vec![iris_studio_tui::state::CommitRow {
        id: "0123456789abcdef".into(),
        short_id: "0123456".into(),
        summary: "Add the studio module".into(),
        author: "Ada".into(),
        date: "2026-11-21".into(),
    }];
    state.focus = Pane::Code;
    insta::assert_snapshot!("explore", render(&state));

    // The heat margin: the oldest line dim, an uncommitted one, the newest bright.
    use iris_studio_tui::state::Heat;
    state.explore.heat = Some(vec![Heat::Cold, Heat::Uncommitted, Heat::Hot]);
    insta::assert_snapshot!("explore_heat", render(&state));
    let buffer = render_with(&state, ColorSupport::TrueColor);
    let theme = Theme::builtin("dark")
        .expect("dark")
        .adapt(ColorSupport::TrueColor);
    let margin: Vec<(u16, u16)> = (0..HEIGHT)
        .flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
        .filter(|&(x, y)| buffer[(x, y)].symbol() == "▎")
        .collect();
    assert_eq!(margin.len(), 3, "one mark per line");
    let fg = |i: usize| buffer[margin[i]].fg;
    use iris_studio_tui::theme::Token;
    assert_eq!(fg(0), theme.style(Token::Border).fg.unwrap_or_default());
    assert_eq!(fg(1), theme.style(Token::Unstaged).fg.unwrap_or_default());
    assert_eq!(fg(2), theme.style(Token::Warning).fg.unwrap_or_default());
    assert_ne!(fg(0), fg(2), "old and new lines look different");
}

/// Explore with a five-line file open, lines 2-3 asked about.
fn explore_asking() -> State {
    use iris_studio_tui::state::{WhyKey, WhyView};
    let mut state = studio(Mode::Explore);
    state.explore.files = vec!["src/parse.rs".into()];
    state.explore.loaded = true;
    state.explore.open = Some("src/parse.rs".into());
    state.explore.lines = Some(vec![
        "use std::str::FromStr;".into(),
        "pub fn parse(input: &str) -> Option<u32> {".into(),
        "    input.trim().parse().ok()".into(),
        "}".into(),
        "".into(),
    ]);
    state.explore.digest = 9;
    state.explore.why = Some(WhyView {
        key: WhyKey {
            path: "src/parse.rs".into(),
            digest: 9,
            head: "h".into(),
            start: 2,
            end: 3,
        },
        answer: None,
        scroll: 0,
        commit: 0,
    });
    state.focus = Pane::Code;
    state
}

#[test]
fn the_answer_beside_the_code_streams_then_lists_the_commits_behind_the_lines() {
    use iris_studio_core::protocol::{BlamedCommit, Explained};
    let mut state = explore_asking();
    // Lines 4-5 selected with v while the answer about 2-3 streams in.
    state.explore.cursor = 4;
    state.explore.anchor = Some(3);
    let mut writing = task(TaskKind::Why, Mode::Explore, state.now);
    writing.progress.activity = "reading the history".into();
    writing.progress.streamed = "parse() trims its input since".into();
    state.iris.task = Some(writing);
    insta::assert_snapshot!("explore_why_streaming", render(settled(&mut state)));
    let buffer = render_buffer(settled(&mut state));
    let (x, y) = row_of(&buffer, "    input.trim()");
    assert!(
        !buffer[(x, y)].modifier.contains(Modifier::REVERSED),
        "line 3 was asked about, not selected"
    );
    let (x, y) = row_of(&buffer, "}");
    assert!(
        buffer[(x, y)].modifier.contains(Modifier::REVERSED),
        "line 4 is selected"
    );

    state.iris.task = None;
    state.explore.anchor = None;
    let commit = |short: &str, summary: &str| BlamedCommit {
        id: format!("{short}{}", "0".repeat(33)),
        short_id: short.into(),
        author: "Ada".into(),
        time: 0,
        date: "2026-10-02".into(),
        summary: summary.into(),
        lines: 1,
    };
    let why = state.explore.why.as_mut().unwrap();
    why.answer = Some(Explained {
        path: "src/parse.rs".into(),
        start_line: 2,
        end_line: 3,
        explanation: "parse() trims its input since 1a2b3c4: pasted numbers came with a \
                      newline.\n\n- 0f0f0f0 added parse()\n- 1a2b3c4 trimmed the input"
            .into(),
        commits: vec![
            commit("0f0f0f0", "Add the parser"),
            commit("1a2b3c4", "Trim pasted input"),
        ],
        cited: vec!["0f0f0f0".into(), "1a2b3c4".into()],
    });
    why.commit = 1;
    state.focus = Pane::Answer;
    insta::assert_snapshot!("explore_why_answered", render(settled(&mut state)));
    let buffer = render_buffer(settled(&mut state));
    let (x, y) = row_of(&buffer, "★ 1a2b3c4");
    assert!(
        buffer[(x + 2, y)].modifier.contains(Modifier::REVERSED),
        "the commit enter opens is highlighted"
    );

    // Enter on it: its diff in place of the code, the history below.
    let mut view = iris_studio_tui::state::DiffView {
        path: Some("commit 1a2b3c4 Trim pasted input".into()),
        files: diff(),
        ..Default::default()
    };
    view.loading = false;
    state.explore.commit = Some(iris_studio_tui::state::ShownCommit {
        id: "1a2b3c4".repeat(5) + "12345",
        view,
    });
    state.focus = Pane::Code;
    insta::assert_snapshot!("explore_why_commit", render(settled(&mut state)));
}

#[test]
fn the_blocks_beside_the_code_light_the_chosen_blocks_lines() {
    use iris_studio_core::artifact::intent::{
        BlockElements, ExecutionPath, FileIntent, IntentMetadata, LineRange, ResponsibilityBlock,
    };
    use iris_studio_tui::state::{IntentKey, IntentView};
    let mut state = explore_asking();
    state.explore.why = None;
    let block = |id: &str, label: &str, ranges: Vec<[usize; 2]>| ResponsibilityBlock {
        id: id.into(),
        label: label.into(),
        description: format!("{label}: what it is for, in a sentence or two."),
        elements: BlockElements {
            functions: vec!["parse".into()],
            imports: vec!["std::str::FromStr".into()],
            ..BlockElements::default()
        },
        ranges,
    };
    state.explore.intent = Some(IntentView {
        key: IntentKey {
            path: "src/parse.rs".into(),
            digest: 9,
        },
        intent: Some(FileIntent {
            path: "src/parse.rs".into(),
            intent: "Turns what the user typed into a number.".into(),
            blocks: vec![
                block("imports", "Imports", vec![[1, 1]]),
                block("parsing", "Parsing input", vec![[2, 4]]),
            ],
            metadata: IntentMetadata {
                tool_reads: vec![LineRange {
                    start_line: 2,
                    end_line: 4,
                }],
                tool_call_count: 1,
                execution_path: ExecutionPath::ToolCalling,
            },
        }),
        block: 1,
        scroll: 0,
    });
    state.focus = Pane::Blocks;
    insta::assert_snapshot!("explore_blocks", render(settled(&mut state)));
    let buffer = render_buffer(settled(&mut state));
    let bars = (0..HEIGHT)
        .filter(|&y| (0..WIDTH).any(|x| buffer[(x, y)].symbol() == "▌" && x < 80))
        .count();
    assert_eq!(
        bars, 3,
        "lines 2-4 of the chosen block are marked in the code"
    );
}

#[test]
fn the_diff_focused_and_scrolled() {
    let mut state = studio(Mode::COMMIT);
    state.focus = Pane::Diff;
    state.diff.scroll = 8;
    insta::assert_snapshot!("diff_scrolled", render(&state));
}

#[test]
fn commit_mode_with_a_long_title_in_the_editor() {
    let mut state = with_commit_message(studio(Mode::COMMIT));
    state.focus = Pane::Editor;
    state.repo.commit_flags.amend = true;
    state.notice = Some(Notice {
        level: Level::Success,
        text: "Iris wrote the commit message".to_string(),
    });
    insta::assert_snapshot!("commit_long_title", render(&state));
}

#[test]
fn commit_mode_with_an_earlier_version_shown() {
    let mut state = with_commit_message(studio(Mode::COMMIT));
    let buffer = state.artifacts.get_mut(&ArtifactKind::Commit).unwrap();
    buffer.replace("Render the panes from state");
    assert!(buffer.undo());
    state.focus = Pane::Editor;
    // Two versions: the long message (shown) and the short one it can step forward to.
    let screen = render(&state);
    assert!(screen.contains("┏ Commit (version 1 of 2) ━"), "{screen}");
    insta::assert_snapshot!("commit_earlier_version", screen);
}

#[test]
fn commit_mode_while_iris_writes() {
    let mut state = studio(Mode::COMMIT);
    let mut running = task(TaskKind::Generate, Mode::COMMIT, state.now);
    running.progress.activity = "writing".to_string();
    running.progress.streamed =
        "{\"emoji\": null, \"title\": \"Render the panes\", \"message\": \"Each pane reads"
            .to_string();
    state.iris.task = Some(running);
    insta::assert_snapshot!("commit_generating", render(&state));
    // With the model's prices known: the requests so far and what they cost.
    let mut priced = state;
    priced.iris.price = Some(iris_studio_config::prices::Price {
        input: 2.0,
        cached_input: 0.5,
        output: 10.0,
    });
    if let Some(task) = priced.iris.task.as_mut() {
        task.progress.requests = 2;
        task.progress.cached_tokens = 1000;
    }
    let screen = render(&priced);
    // 234 fresh and 1,000 cached input tokens, 56 output: $0.000468 + $0.0005 + $0.00056.
    assert!(
        screen.contains("· 2 requests · 1234↑ 56↓ tokens · $0.0015 ·"),
        "{screen}"
    );
}

#[test]
fn commit_mode_empty_with_and_without_a_provider() {
    let mut state = studio(Mode::COMMIT);
    state.changes.loading = true;
    state.changes.files.clear();
    state.diff = Default::default();
    // The status line turns a spinner while the status loads.
    let screen = render(&state);
    assert!(
        screen.contains("⠋ reading the repository's status…"),
        "{screen}"
    );
    insta::assert_snapshot!("commit_empty_loading", screen);
    // An error stays in view over the spinner.
    let mut failed = studio(Mode::Explore);
    failed.notice = Some(Notice {
        level: Level::Error,
        text: "listing the files failed: permission denied".to_string(),
    });
    let screen = render(&failed);
    assert!(screen.contains("listing the files failed"), "{screen}");

    let mut state = studio(Mode::COMMIT);
    state.changes.files.clear();
    state.diff = Default::default();
    state.iris.unavailable = Some("Iris is not configured: no API key".to_string());
    state.notice = Some(Notice {
        level: Level::Warning,
        text: "Iris is not configured: no API key".to_string(),
    });
    insta::assert_snapshot!("commit_empty_no_provider", render(&state));
}

#[test]
fn chat_open_with_a_conversation_and_a_reply_streaming() {
    let mut state = with_commit_message(studio(Mode::COMMIT));
    state.chat.open = true;
    state.focus = Pane::ChatInput;
    state.chat.messages = vec![
        ChatMessage {
            speaker: Speaker::User,
            text: "make it shorter".to_string(),
        },
        ChatMessage {
            speaker: Speaker::Iris,
            text: "I cut the title to 27 characters and kept the body.".to_string(),
        },
        ChatMessage {
            speaker: Speaker::User,
            text: "mention the tests\nin the body".to_string(),
        },
    ];
    state.chat.input.insert_str("and the 日本語 tab too");
    let mut running = task(TaskKind::Chat, Mode::COMMIT, state.now);
    running.progress.streamed = "Adding the tests to the".to_string();
    state.iris.task = Some(running);
    let screen = render(settled(&mut state));
    // The reply streams into the chat; the editor keeps showing the message discussed.
    assert_eq!(
        screen.matches("Adding the tests to the").count(),
        1,
        "{screen}"
    );
    assert!(screen.contains("Render the studio's panes"), "{screen}");
    insta::assert_snapshot!("chat_open", screen);
}

fn wheel(kind: MouseEventKind, (column, row): (u16, u16)) -> Action {
    Action::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn the_conversation_keeps_its_end_in_view_and_the_wheel_scrolls_it_back() {
    let mut state = with_commit_message(studio(Mode::COMMIT));
    state.screen.size = (WIDTH, HEIGHT);
    state.chat.open = true;
    state.focus = Pane::ChatInput;
    // Long replies wrap over several rows each: the last words must still be on screen.
    state.chat.messages = (1..=12)
        .map(|i| ChatMessage {
            speaker: if i % 2 == 1 {
                Speaker::User
            } else {
                Speaker::Iris
            },
            text: format!("message {i}: {}last-of-{i}", "words that wrap ".repeat(6)),
        })
        .collect();
    let screen = render(settled(&mut state));
    assert!(screen.contains("last-of-12"), "{screen}");
    assert!(!screen.contains("message 9:"), "{screen}");

    let log = PaneRects::compute(state.screen.size, &state)
        .chat_log
        .unwrap();
    let over_log = (log.x + 3, log.y + 3);
    for _ in 0..4 {
        update(&mut state, wheel(MouseEventKind::ScrollUp, over_log));
    }
    let screen = render(settled(&mut state));
    assert!(screen.contains("message 9:"), "{screen}");
    assert!(!screen.contains("last-of-12"), "{screen}");
    assert!(screen.contains("scrolled back"), "{screen}");
    assert_eq!(
        state.focus,
        Pane::ChatInput,
        "the wheel leaves the focus alone"
    );

    // Page down in the input goes forward a page at a time, back to following the end.
    for _ in 0..3 {
        update(
            &mut state,
            Action::Key(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE)),
        );
    }
    let screen = render(settled(&mut state));
    assert!(screen.contains("last-of-12"), "{screen}");
    assert!(!screen.contains("scrolled back"), "{screen}");
}

#[test]
fn the_wheel_over_the_editor_scrolls_a_long_message() {
    let mut state = studio(Mode::COMMIT);
    state.screen.size = (WIDTH, HEIGHT);
    state.focus = Pane::Changes;
    let message: Vec<String> = (1..=80).map(|i| format!("body line {i}")).collect();
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace(&message.join("\n"));
    let screen = render(&state);
    assert!(
        screen.contains("body line 1\n") || screen.contains("body line 1 "),
        "{screen}"
    );
    assert!(!screen.contains("body line 50"), "{screen}");
    let editor = PaneRects::compute(state.screen.size, &state)
        .editor
        .unwrap();
    for _ in 0..10 {
        update(
            &mut state,
            wheel(MouseEventKind::ScrollDown, (editor.x + 3, editor.y + 3)),
        );
    }
    let screen = render(&state);
    assert!(screen.contains("body line 50"), "{screen}");
    assert!(!screen.contains("body line 30"), "{screen}");
    assert_eq!(
        state.focus,
        Pane::Changes,
        "the wheel leaves the focus alone"
    );
    update(
        &mut state,
        wheel(MouseEventKind::ScrollUp, (editor.x + 3, editor.y + 3)),
    );
    assert!(render(&state).contains("body line 28"));
}

#[test]
fn long_lines_scroll_sideways_in_the_diff_and_keep_their_colours() {
    use iris_studio_tui::command::Command;
    let mut state = studio(Mode::COMMIT);
    let long = "a line too long for the pane";
    assert!(!render(&state).contains(long));
    for _ in 0..8 {
        update(&mut state, Action::Command(Command::ScrollRight));
    }
    let screen = render(&state);
    assert!(screen.contains(long), "{screen}");
    assert!(screen.contains("src/studio/update.rs →64"), "{screen}");
    // Never past the longest line: some of it stays in view.
    for _ in 0..50 {
        update(&mut state, Action::Command(Command::ScrollRight));
    }
    let longest = "        text: text.into().split_whitespace().collect::<Vec<_>>().join(\" \"), // a line too long for the pane".len();
    assert_eq!(state.diff.hscroll, longest - 8);
    // The wheel's sideways turn scrolls back.
    let diff = PaneRects::compute(state.screen.size, &state).view.unwrap();
    for _ in 0..20 {
        update(
            &mut state,
            wheel(MouseEventKind::ScrollLeft, (diff.x + 3, diff.y + 3)),
        );
    }
    assert_eq!(state.diff.hscroll, 0);
    assert!(!render(&state).contains(long));
}

#[test]
fn a_conflicted_file_says_how_to_resolve_it() {
    let mut state = studio(Mode::COMMIT);
    state.changes.files[0].conflicted = true;
    let screen = render(&state);
    assert!(
        screen.contains("a merge conflict: resolve it in the file,"),
        "{screen}"
    );
    assert!(screen.contains("then stage it (s)"), "{screen}");
}

#[test]
fn help_overlay_lists_the_keys_of_the_mode() {
    let mut state = studio(Mode::COMMIT);
    state.overlay.help = true;
    insta::assert_snapshot!("help_commit", render(&state));
    let mut state = studio(Mode::Explore);
    state.explore.loaded = true;
    state.overlay.help = true;
    insta::assert_snapshot!("help_explore", render(&state));
}

#[test]
fn confirm_dialogs() {
    let mut state = with_commit_message(studio(Mode::COMMIT));
    state.repo.commit_flags.amend = true;
    state.repo.commit_flags.no_verify = true;
    state.overlay.confirm = Some(Confirm::Commit);
    insta::assert_snapshot!("confirm_commit", render(&state));
    let mut state = studio(Mode::REVIEW);
    state.overlay.confirm = Some(Confirm::Quit);
    insta::assert_snapshot!("confirm_quit", render(&state));
    // Publishing says what it does in each mode.
    state.overlay.confirm = Some(Confirm::Publish);
    let screen = render(&state);
    assert!(
        screen.contains("Post this review on the branch"),
        "{screen}"
    );
    let mut state = studio(Mode::PR);
    state.overlay.confirm = Some(Confirm::Publish);
    insta::assert_snapshot!("confirm_publish_pr", render(&state));
    // A reword shows the commit's old and new titles.
    state.range.reword = Some(iris_studio_tui::state::Rewording {
        id: "abc12340000".into(),
        short_id: "abc1234".into(),
        old: "wip".into(),
        new: "Render the parse tree\n\nSo the demo shows it.".into(),
    });
    state.overlay.confirm = Some(Confirm::Reword);
    let screen = render(&state);
    for line in [
        "Reword abc1234?",
        "was: wip",
        "now: Render the parse tree (and a line of body)",
        "Only the message changes. (y/n)",
    ] {
        assert!(screen.contains(line), "{line:?} in {screen}");
    }
}

#[test]
fn an_approval_question_over_the_panes() {
    use iris_studio_core::protocol::{ApprovalRequest, Reply, Risk};
    let mut state = with_commit_message(studio(Mode::COMMIT));
    let ask = |tool: &str| ApprovalRequest {
        tool: tool.to_string(),
        args: "StaticAnalysisArgs { analyzer: None, paths: [\"src/lib.rs\"] }".to_string(),
        risk: Risk::Execute,
        reply: Reply::default(),
    };
    state.iris.approvals.push_back(ask("static_analysis"));
    state.iris.approvals.push_back(ask("static_analysis"));
    insta::assert_snapshot!("approval_execute", render(&state));
}

#[test]
fn a_staged_file_with_a_secret_is_marked_in_the_list() {
    let mut state = studio(Mode::COMMIT);
    state.changes.files = vec![
        FileEntry {
            relevance: Some(75),
            secret: Some("aws-access-key".into()),
            ..entry(".env", Some(ChangeKind::Added), None)
        },
        FileEntry {
            relevance: Some(60),
            ..entry("src/lib.rs", Some(ChangeKind::Modified), None)
        },
    ];
    state.notice = Some(Notice {
        level: Level::Warning,
        text: "a secret was withheld from Iris: aws-access-key at .env:1 (sent as a marker)"
            .to_string(),
    });
    insta::assert_snapshot!("files_secret_marked", render(&state));
}

/// In a jj workspace the list is `@`'s change: marked `@` and its kind, titled with the
/// change, and the diff's files are "in @".
#[test]
fn a_jj_change_s_files_are_marked_as_in_at() {
    let mut state = studio(Mode::COMMIT);
    state.repo.jj_change = Some("kxzzsmnu".into());
    state.repo.branch = "jj @ kxzzsmnu (main)".into();
    state.changes.files = vec![
        FileEntry {
            relevance: Some(80),
            ..entry("src/lib.rs", Some(ChangeKind::Modified), None)
        },
        FileEntry {
            relevance: Some(40),
            ..entry("notes.txt", Some(ChangeKind::Added), None)
        },
    ];
    let text = render(&state);
    assert!(text.contains("Files of @ kxzzsmnu (2)"), "{text}");
    assert!(
        text.contains("│@M  80% src/lib.rs") || text.contains("┃@M  80% src/lib.rs"),
        "{text}"
    );
    assert!(text.contains("@A  40% notes.txt"), "{text}");
    assert!(text.contains("· in @"), "{text}");
    assert!(!text.contains("· staged"), "{text}");
}

#[test]
fn review_mode_with_markdown_and_an_error_notice() {
    let mut state = studio(Mode::REVIEW);
    state.changes.selected = 5;
    state.diff.path = Some("Cargo.toml".to_string());
    state.diff.loading = true;
    state.diff.files.clear();
    state.artifacts.get_mut(&ArtifactKind::Review).unwrap().replace(
        "## Summary\n\nThe studio's panes draw from state.\n\n## Issues\n\n- **minor** `PAGE` changed without a test",
    );
    state.notice = Some(Notice {
        level: Level::Error,
        text: "diff of Cargo.toml failed: bad object".to_string(),
    });
    insta::assert_snapshot!("review", render(&state));
}

// ---------------------------------------------------------------------------------------------
// Styles that carry meaning without colour

#[test]
fn the_selected_file_is_reversed_and_the_focused_pane_bold() {
    let mut state = studio(Mode::COMMIT);
    state.changes.selected = 2;
    let buffer = render_buffer(&state);
    let (x, y) = row_of(&buffer, "tests/studio_snapsho");
    assert!(
        buffer[(x, y)].modifier.contains(Modifier::REVERSED),
        "the selected row is reversed"
    );
    let (x, y) = row_of(&buffer, "src/studio/update.rs");
    assert!(!buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    // The file list has the focus: its corner is thick and bold, the diff's is not.
    assert_eq!(buffer[(0, 1)].symbol(), "┏");
    assert!(buffer[(0, 1)].modifier.contains(Modifier::BOLD));
    let (x, y) = row_of(&buffer, "╭ src/studio/update.rs");
    assert!(!buffer[(x, y)].modifier.contains(Modifier::BOLD));
}

#[test]
fn the_title_length_is_marked_past_72_columns() {
    let state = with_commit_message(studio(Mode::COMMIT));
    let buffer = render_buffer(&state);
    let length = LONG_TITLE.chars().count();
    assert!(length > 72);
    let (x, y) = row_of(&buffer, &format!("title {length}/72"));
    assert!(buffer[(x, y)].modifier.contains(Modifier::UNDERLINED));

    let mut state = studio(Mode::COMMIT);
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("Short title");
    let buffer = render_buffer(&state);
    let (x, y) = row_of(&buffer, "title 11/72");
    assert!(!buffer[(x, y)].modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn syntax_colours_follow_the_terminals_colour_support() {
    let state = studio(Mode::COMMIT);
    let colours = |support| {
        let buffer = render_with(&state, support);
        let (x, y) = row_of(&buffer, "+const PAGE: usize = 20;");
        // The text after the sign, where syntect colours the code.
        (x + 1..x + 24)
            .filter_map(|x| buffer[(x, y)].fg.into())
            .filter(|c| *c != Color::Reset)
            .collect::<Vec<Color>>()
    };
    // NO_COLOR: no colour at all, syntax colours included.
    assert_eq!(colours(ColorSupport::NoColor), vec![]);
    // 256 and 16 colours: syntect's RGB colours are mapped to the palette.
    let indexed = colours(ColorSupport::Ansi256);
    assert!(!indexed.is_empty());
    assert!(
        indexed.iter().all(|c| matches!(c, Color::Indexed(_))),
        "{indexed:?}"
    );
    let ansi = colours(ColorSupport::Ansi16);
    assert!(
        ansi.iter()
            .all(|c| !matches!(c, Color::Rgb(..) | Color::Indexed(_))),
        "{ansi:?}"
    );
    let rgb = colours(ColorSupport::TrueColor);
    assert!(rgb.iter().any(|c| matches!(c, Color::Rgb(..))), "{rgb:?}");
}

#[test]
fn a_click_selects_the_file_drawn_under_it_in_a_scrolled_list() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    use iris_studio_tui::action::Action;
    use iris_studio_tui::update::update;

    let mut state = studio(Mode::COMMIT);
    state.changes.files = (0..60)
        .map(|i| entry(&format!("file{i:02}.rs"), Some(ChangeKind::Modified), None))
        .collect();
    // The selection near the end: the list scrolls to keep it in view.
    state.changes.selected = 55;
    for wanted in ["file55.rs", "file20.rs", "file35.rs", "file54.rs"] {
        let buffer = render_buffer(&state);
        let (x, y) = row_of(&buffer, wanted);
        update(
            &mut state,
            Action::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: x,
                row: y,
                modifiers: KeyModifiers::NONE,
            }),
        );
        assert_eq!(state.changes.selected_file().unwrap().path, wanted);
    }
    // The list's borders are not rows.
    let before = state.changes.selected;
    for row in [1, HEIGHT - 2] {
        update(
            &mut state,
            Action::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: 5,
                row,
                modifiers: KeyModifiers::NONE,
            }),
        );
        assert_eq!(state.changes.selected, before, "row {row}");
    }
}

#[test]
fn a_zoomed_diff_side_by_side_keeps_its_syntax_colours() {
    use iris_studio_tui::command::Command;
    let mut state = studio(Mode::COMMIT);
    state.screen.size = (WIDTH, HEIGHT);
    state.focus = Pane::Diff;
    update(&mut state, Action::Command(Command::SideBySide));
    assert!(!state.diff.paired, "46 columns are too few");
    update(&mut state, Action::Command(Command::Zoom));
    assert!(state.diff.paired);
    insta::assert_snapshot!("diff_zoomed_side_by_side", render(&state));
    // The old line on the left in the removed colour, its new text beside it in the added one.
    let buffer = render_with(&state, ColorSupport::TrueColor);
    let (x_old, y) = row_of(&buffer, "const PAGE: usize = 10;");
    let x_new = find(&buffer, y, "const PAGE: usize = 20;").expect("the new line beside it");
    assert!(x_old < 60 && x_new > 60, "{x_old} {x_new}");
    let sign = |x: u16| buffer[(x - 1, y)].fg;
    assert_ne!(
        sign(x_old),
        sign(x_new),
        "the signs keep their diff colours"
    );
    // Syntax colours: the keyword and the number differ in colour on both sides.
    let (keyword, number) = (buffer[(x_new, y)].fg, buffer[(x_new + 19, y)].fg);
    assert_ne!(keyword, number);
    assert_eq!(buffer[(x_old, y)].fg, keyword);
}

#[test]
fn the_setup_overlay_lists_local_models_takes_a_masked_key_and_shows_what_it_writes() {
    use iris_studio_config::ProviderKind;
    use iris_studio_config::setup::LocalServer;
    use iris_studio_tui::command::Command;
    let mut state = studio(Mode::COMMIT);
    state.iris.unavailable = Some("Iris is not configured".into());
    state.start.setup_facts.file = Some("~/.config/iris/config.toml".into());
    state.start.setup_facts.env_keys = vec![(ProviderKind::Gemini, "GEMINI_API_KEY")];
    update(&mut state, Action::Command(Command::Setup));
    insta::assert_snapshot!("setup_probing", render(&state));
    update(
        &mut state,
        Action::Setup(SetupMsg::ServersFound(vec![
            LocalServer {
                label: "Ollama",
                provider: ProviderKind::Ollama,
                base_url: "http://127.0.0.1:11434".into(),
                models: vec!["llama3.1:8b".into(), "qwen2.5-coder:7b".into()],
            },
            LocalServer {
                label: "LM Studio",
                provider: ProviderKind::OpenAiCompatible,
                base_url: "http://127.0.0.1:1234/v1".into(),
                models: vec![],
            },
        ])),
    );
    let key = |code| Action::Key(KeyEvent::new(code, KeyModifiers::NONE));
    update(&mut state, key(KeyCode::Down));
    insta::assert_snapshot!("setup_choose", render(&state));
    // The chosen model is highlighted.
    let buffer = render_buffer(&state);
    let (x, y) = row_of(&buffer, "qwen2.5-coder:7b");
    assert!(buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    // A hosted provider's key shows as dots.
    for _ in 0..2 {
        update(&mut state, key(KeyCode::Down));
    }
    update(&mut state, key(KeyCode::Enter));
    for c in "sk-secret".chars() {
        update(&mut state, key(KeyCode::Char(c)));
    }
    let screen = render(&state);
    assert!(!screen.contains("sk-secret"), "{screen}");
    insta::assert_snapshot!("setup_key", screen);
    update(&mut state, key(KeyCode::Enter));
    let screen = render(&state);
    assert!(!screen.contains("sk-secret"), "{screen}");
    insta::assert_snapshot!("setup_confirm", screen);
}

#[test]
fn a_commit_message_that_breaks_the_projects_rules_names_the_rule_beside_the_title_meter() {
    let config = "module.exports = {\n  extends: ['@commitlint/config-conventional'],\n  \
                  rules: { 'scope-enum': [2, 'always', ['cli', 'studio']] },\n};\n";
    let rules = iris_studio_core::commit_rules::parse("commitlint.config.js", config).unwrap();
    let mut state = studio(Mode::COMMIT);
    let set = |state: &mut State, text: &str| {
        state
            .artifacts
            .get_mut(&ArtifactKind::Commit)
            .unwrap()
            .replace(text);
    };
    set(&mut state, "Added the rules marker.");
    // Without rules, only the length is measured.
    let screen = render(&state);
    assert!(
        screen.contains("title 23/72 ─") && !screen.contains('✖'),
        "{screen}"
    );
    update(
        &mut state,
        Action::Editor(EditorMsg::RulesLoaded(Ok(Some(Box::new(rules))))),
    );
    let screen = render(&state);
    assert!(
        screen.contains("title 23/72  ✖ subject-empty +2 "),
        "{screen}"
    );
    set(&mut state, "feat(git): add the rules marker");
    assert!(render(&state).contains("✖ scope-enum "));
    set(&mut state, "feat(studio): add the rules marker");
    let buffer = render_buffer(&state);
    let (x, y) = row_of(&buffer, "✔ rules");
    assert_eq!(y, HEIGHT - 2, "on the editor's bottom border");
    assert!(x > 80);
}

#[test]
fn alternatives_side_by_side_with_the_current_message_first() {
    let mut state = with_commit_message(studio(Mode::COMMIT));
    let current = state.artifacts[&ArtifactKind::Commit].text();
    state.overlay.alternatives = Some(Alternatives::new(
        ArtifactKind::Commit,
        &current,
        vec![
            "Draw each pane from the state alone\n\nThe panes no longer keep their own copies."
                .to_string(),
            "Test the panes through a TestBackend".to_string(),
        ],
    ));
    state.overlay.alternatives.as_mut().unwrap().selected = 1;
    let buffer = render_buffer(&state);
    // Three columns, numbered as the keys that pick them, left to right.
    let (first, row) = row_of(&buffer, " 1 · current ");
    let second = find(&buffer, row, " 2 ").expect("the second column");
    let third = find(&buffer, row, " 3 ").expect("the third column");
    assert!(first < second && second < third, "{first} {second} {third}");
    // The highlighted one is framed as the focused pane is (thick), the others rounded.
    assert_eq!(buffer[(second - 1, row)].symbol(), "┏");
    assert_eq!(buffer[(first - 1, row)].symbol(), "╭");
    assert_eq!(buffer[(third - 1, row)].symbol(), "╭");
    insta::assert_snapshot!("alternatives", render(&state));
}

#[test]
fn less_certain_findings_are_folded_in_the_list_until_shown() {
    let mut state = studio(Mode::REVIEW);
    state.artifacts.get_mut(&ArtifactKind::Review).unwrap().replace(
        "# Code review\n\n## High (2)\n\n### Unchecked unwrap (`src/app.rs:12`) · 95%\n\nIt panics.\n\n\
         ### Maybe racy (`src/app.rs:40`) · 40%\n\nPerhaps.\n\n## Low (1)\n\n### Typo (`README.md`)\n\nteh\n",
    );
    let folded = render(&state);
    assert!(folded.contains(" Findings (2, 1 folded) "), "{folded}");
    assert!(
        folded.contains("▸ 1 under 70% sure folded: f shows"),
        "{folded}"
    );
    assert!(!folded.contains("Maybe racy ·"), "{folded}");
    insta::assert_snapshot!("findings_folded", folded);
    // One not found in the change folds whatever its confidence, and is named so.
    let mut unverified = studio(Mode::REVIEW);
    unverified.artifacts.get_mut(&ArtifactKind::Review).unwrap().replace(
        "# Code review\n\n## High (1)\n\n### Invented (`src/app.rs:9`) · 95% · unverified\n\n\
         _Not found in the change: the code it quotes is not there._\n\n## Low (1)\n\n### Typo (`README.md`)\n\nteh\n",
    );
    let shown = render(&unverified);
    assert!(shown.contains(" Findings (1, 1 folded) "), "{shown}");
    assert!(
        shown.contains("▸ 1 folded, 1 unverified: f shows"),
        "{shown}"
    );
    state.overlay.confirm = Some(Confirm::Publish);
    let asked = render(&state);
    assert!(asked.contains("without the 1 folded finding"), "{asked}");
    state.overlay.confirm = None;
    state.findings.show_unsure = true;
    let shown = render(&state);
    assert!(shown.contains(" Findings (3) "), "{shown}");
    assert!(
        shown.contains("Maybe racy · src/app.rs:40 · 40%"),
        "{shown}"
    );
    assert!(!shown.contains("folded"), "{shown}");
}

#[test]
fn d_asks_why_a_finding_is_dismissed_and_whose_memory_keeps_it() {
    use iris_studio_tui::state::{Dismissing, Reason};
    let mut state = studio(Mode::REVIEW);
    state
        .artifacts
        .get_mut(&ArtifactKind::Review)
        .unwrap()
        .replace(
            "# Code review\n\n## High (1)\n\n### Unchecked unwrap (`src/app.rs:12`) · 95% · id \
         3fa9c01b2e\n\nIt panics.\n",
        );
    state.overlay.dismiss = Some(Dismissing::new(
        "3fa9c01b2e".into(),
        "Unchecked unwrap".into(),
    ));
    let asked = render(&state);
    assert!(asked.contains(" Dismiss this finding "), "{asked}");
    assert!(asked.contains("▸ false positive"), "{asked}");
    assert!(
        asked.contains("kept for you: .git/iris/review-memory.toml"),
        "{asked}"
    );
    insta::assert_snapshot!("dismiss_finding", asked);
    // Typed words show in their row, the team's file when tab chose it.
    let open = state.overlay.dismiss.as_mut().unwrap();
    open.chosen = Reason::OwnWords;
    open.words = "the caller validates it".into();
    open.team = true;
    let typed = render(&state);
    assert!(
        typed.contains("▸ in your words: the caller validates it▏"),
        "{typed}"
    );
    assert!(
        typed.contains("kept for the team: .iris/review-memory.toml (commit it)"),
        "{typed}"
    );
}

#[test]
fn the_split_view_lists_the_commits_with_the_selected_ones_hunks_and_message() {
    use iris_studio_core::split::{PlanGroup, SplitPlan, units};
    use iris_studio_tui::state::{PlannedChange, SplitView};
    let diff = "diff --git a/src/app.rs b/src/app.rs\nindex 1111111..2222222 100644\n--- \
                a/src/app.rs\n+++ b/src/app.rs\n@@ -1,3 +1,3 @@\n fn draw() {\n-    old()\n+    \
                new()\n }\n@@ -20,2 +20,3 @@ fn quit() {\n fn quit() {\n+    save();\n }\n\
                diff --git a/docs/guide.md b/docs/guide.md\nnew file mode 100644\nindex \
                0000000..3333333\n--- /dev/null\n+++ b/docs/guide.md\n@@ -0,0 +1 @@\n+# Guide\n";
    let files = iris_studio_core::change::parse_unified_diff(diff);
    let group = |message: &str, hunks: &[&str]| PlanGroup {
        message: message.into(),
        hunks: hunks.iter().map(|h| h.to_string()).collect(),
        reason: "They change one thing.".into(),
        left_out: false,
    };
    let mut state = studio(Mode::COMMIT);
    state.overlay.split_plan = Some(SplitView::new(PlannedChange {
        units: units(&files, |_| false),
        files,
        plan: SplitPlan {
            groups: vec![
                group("Draw with new()\n\nold() flickered.", &["h1"]),
                group("Save on quit", &["h2", "h3"]),
            ],
        },
        first_problems: vec![],
    }));
    let text = render(&state);
    assert!(text.contains("Split into 2 commits"), "{text}");
    assert!(text.contains("1. Draw with new()  1 hunk"), "{text}");
    assert!(text.contains("h1 src/app.rs:1-3"), "{text}");
    assert!(text.contains("old() flickered."), "{text}");
    insta::assert_snapshot!("split_view", text);
}
