//! The studio's reducer, family by family: each action on a plain `State`, asserting the state
//! it leaves and the effects it asks for. No terminal, git or network.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use iris_config::ProviderKind;
use iris_config::setup::{Choice, LocalServer};
use iris_core::artifact::ArtifactKind;
use iris_core::artifact::intent::{
    BlockElements, ExecutionPath, FileIntent, IntentMetadata, ResponsibilityBlock,
};
use iris_core::change::{ChangeKind, DiffLine, FileDiff, Hunk, LineKind};
use iris_core::protocol::AgentEvent;
use iris_core::protocol::{BlamedCommit, Explained, LinesAsked};
use iris_studio::action::{Action, ChatOutcome, OpenedFile, RepoSnapshot};
use iris_studio::command::Command;
use iris_studio::effect::{EditTarget, Effect};
use iris_studio::layout::PaneRects;
use iris_studio::state::Draft;
use iris_studio::state::{
    ChatMessage, CommitFlags, Confirm, FileEntry, Level, Mode, Notice, Pane, SetupStep, Speaker,
    State, Task, TaskKind,
};
use iris_studio::update::update;
use iris_studio::{answer, blocks};

// ---------------------------------------------------------------------------------------------
// Building states

fn file(path: &str, staged: Option<ChangeKind>, unstaged: Option<ChangeKind>) -> FileEntry {
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

fn staged(path: &str) -> FileEntry {
    file(path, Some(ChangeKind::Modified), None)
}

fn unstaged(path: &str) -> FileEntry {
    file(path, None, Some(ChangeKind::Modified))
}

fn status(files: Vec<FileEntry>) -> Action {
    Action::StatusLoaded(Ok(RepoSnapshot {
        branch: "main".to_string(),
        head: Some(HEAD.to_string()),
        files,
    }))
}

/// A state in `mode` whose status has arrived with `files` and whose first diff is requested.
/// Auto-generation is off unless a test turns it on, so it never starts a task by surprise.
fn loaded(mode: Mode, files: Vec<FileEntry>) -> State {
    let mut state = State::new(mode);
    state.auto_generate = false;
    update(&mut state, status(files));
    state
}

fn line(kind: LineKind, content: &str) -> DiffLine {
    DiffLine {
        kind,
        content: content.to_string(),
        no_newline: false,
    }
}

fn hunk(header: &str, lines: Vec<DiffLine>) -> Hunk {
    Hunk {
        header: header.to_string(),
        old_start: 1,
        old_lines: 1,
        new_start: 1,
        new_lines: 1,
        lines,
    }
}

/// `src/lib.rs` with two hunks: rendered rows 0 (file header), 1 (hunk), 2-4, 5 (hunk), 6-9.
fn two_hunk_diff() -> Vec<FileDiff> {
    vec![FileDiff {
        path: "src/lib.rs".to_string(),
        old_path: None,
        kind: ChangeKind::Modified,
        binary: false,
        hunks: vec![
            hunk(
                "@@ -1,2 +1,3 @@",
                vec![
                    line(LineKind::Context, "fn one() {}"),
                    line(LineKind::Added, "fn two() {}"),
                    line(LineKind::Context, ""),
                ],
            ),
            hunk(
                "@@ -10,3 +11,3 @@",
                vec![
                    line(LineKind::Context, "fn ten() {}"),
                    line(LineKind::Removed, "fn eleven() {}"),
                    line(LineKind::Added, "fn eleven() -> u32 { 11 }"),
                    line(LineKind::Context, "fn twelve() {}"),
                ],
            ),
        ],
        additions: 2,
        deletions: 1,
        old_mode: None,
        new_mode: None,
    }]
}

/// A state whose selected file's diff has arrived.
fn with_diff(mode: Mode) -> State {
    let mut state = loaded(mode, vec![staged("src/lib.rs")]);
    update(
        &mut state,
        Action::DiffLoaded {
            path: "src/lib.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        },
    );
    assert_eq!(state.diff.line_count(), 10);
    assert_eq!(state.diff.hunk_starts(), vec![1, 5]);
    state
}

fn press(code: KeyCode) -> Action {
    Action::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn press_with(code: KeyCode, modifiers: KeyModifiers) -> Action {
    Action::Key(KeyEvent::new(code, modifiers))
}

fn type_text(state: &mut State, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects = update(state, press(KeyCode::Char(c)));
    }
    effects
}

fn command(state: &mut State, command: Command) -> Vec<Effect> {
    update(state, Action::Command(command))
}

fn text(state: &State, mode: Mode) -> String {
    state.artifacts[&mode.artifact().unwrap()].text()
}

fn notice(state: &State) -> (Level, &str) {
    let notice = state.notice.as_ref().expect("a notice");
    (notice.level, notice.text.as_str())
}

/// Starts a generation in the current mode and returns its task id.
fn start_generation(state: &mut State) -> u64 {
    match command(state, Command::Generate).as_slice() {
        [Effect::Generate { task, kind, .. }] => {
            assert_eq!(Some(*kind), state.mode.artifact());
            *task
        }
        other => panic!("expected one Generate effect, got {other:?}"),
    }
}

fn generated(state: &mut State, task: u64, text: &str) -> Vec<Effect> {
    let kind = state.mode.artifact().expect("a mode with an artifact");
    update(
        state,
        Action::Generated {
            task,
            kind,
            result: Ok(text.to_string()),
        },
    )
}

/// A commit-mode state with one staged file and a message Iris wrote.
fn with_message(message: &str) -> State {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    generated(&mut state, task, message);
    state
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Action {
    Action::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

fn click(column: u16, row: u16) -> Action {
    mouse(MouseEventKind::Down(MouseButton::Left), column, row)
}

// ---------------------------------------------------------------------------------------------
// Key

#[test]
fn typing_in_the_editor_edits_the_artifact_and_saves_each_change_as_a_draft() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.focus = Pane::Editor;
    assert_eq!(
        update(&mut state, press(KeyCode::Char('H'))),
        vec![Effect::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft("H".to_string()),
        }]
    );
    assert_eq!(
        type_text(&mut state, "i there"),
        vec![Effect::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft("Hi there".to_string()),
        }]
    );
    // Backspace edits too; a key that changes nothing saves nothing.
    assert_eq!(
        update(&mut state, press(KeyCode::Backspace)),
        vec![Effect::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft("Hi ther".to_string()),
        }]
    );
    assert_eq!(update(&mut state, press(KeyCode::Left)), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Hi ther");
    assert!(!state.unsaved(), "the draft was saved as it changed");
    // Only the commit message changed.
    assert_eq!(text(&state, Mode::REVIEW), "");
}

#[test]
fn keys_no_command_claims_do_nothing_in_the_file_list_and_the_diff() {
    for focus in [Pane::Changes, Pane::Diff] {
        let mut state = with_diff(Mode::COMMIT);
        state.focus = focus;
        assert_eq!(type_text(&mut state, "xyz"), vec![]);
        assert_eq!(text(&state, Mode::COMMIT), "");
        assert_eq!(state.focus, focus);
        assert!(state.chat.input.is_empty());
    }
}

#[test]
fn chat_enter_sends_the_message_with_the_history_and_the_artifact() {
    let mut state = with_message("Add two()\n\nAdds a second function.");
    assert_eq!(command(&mut state, Command::OpenChat), vec![]);
    assert!(state.chat.open);
    assert_eq!(state.focus, Pane::ChatInput);

    // Alt-enter and shift-enter add a line; plain enter sends.
    assert_eq!(type_text(&mut state, "make it"), vec![]);
    assert_eq!(
        update(&mut state, press_with(KeyCode::Enter, KeyModifiers::ALT)),
        vec![]
    );
    assert_eq!(type_text(&mut state, "shorter"), vec![]);
    assert_eq!(state.chat.input.lines(), ["make it", "shorter"]);
    let effects = update(&mut state, press(KeyCode::Enter));
    let task = state.task.as_ref().expect("a chat task").clone();
    assert_eq!(task.kind, TaskKind::Chat);
    assert_eq!(task.mode, Mode::COMMIT);
    assert_eq!(
        effects,
        vec![Effect::Chat {
            task: task.id,
            kind: ArtifactKind::Commit,
            history: vec![],
            message: "make it\nshorter".to_string(),
            artifact: "Add two()\n\nAdds a second function.".to_string(),
        }]
    );
    assert!(state.chat.input.is_empty(), "the input is cleared");
    assert_eq!(
        state.chat.messages,
        vec![ChatMessage {
            speaker: Speaker::User,
            text: "make it\nshorter".to_string()
        }]
    );

    // While Iris answers, another message waits in the input.
    type_text(&mut state, "and add a body");
    assert_eq!(update(&mut state, press(KeyCode::Enter)), vec![]);
    assert_eq!(notice(&state).0, Level::Warning);
    assert!(notice(&state).1.contains("busy"), "{:?}", state.notice);
    assert_eq!(state.chat.input.lines(), ["and add a body"]);

    update(
        &mut state,
        Action::ChatReplied {
            task: task.id,
            result: Ok(ChatOutcome {
                reply: "Done.".to_string(),
            }),
        },
    );
    // The next message carries the conversation so far as history.
    match update(&mut state, press(KeyCode::Enter)).as_slice() {
        [
            Effect::Chat {
                task: second,
                history,
                message,
                ..
            },
        ] => {
            assert!(*second > task.id);
            assert_eq!(message, "and add a body");
            assert_eq!(
                history,
                &vec![
                    ChatMessage {
                        speaker: Speaker::User,
                        text: "make it\nshorter".to_string()
                    },
                    ChatMessage {
                        speaker: Speaker::Iris,
                        text: "Done.".to_string()
                    },
                ]
            );
        }
        other => panic!("expected a Chat effect, got {other:?}"),
    }
}

#[test]
fn an_empty_chat_message_is_not_sent() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "   ");
    assert_eq!(update(&mut state, press(KeyCode::Enter)), vec![]);
    assert!(state.task.is_none());
    assert!(state.chat.messages.is_empty());
}

#[test]
fn confirm_commit_answered_no_cancels_and_yes_commits() {
    let mut state = with_message("Add two()");
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.confirm, Some(Confirm::Commit));
    // Any key but y / Y / enter is a no.
    assert_eq!(update(&mut state, press(KeyCode::Char('n'))), vec![]);
    assert_eq!(state.confirm, None);
    assert_eq!(notice(&state), (Level::Info, "cancelled"));

    command(&mut state, Command::Commit);
    assert_eq!(update(&mut state, press(KeyCode::Esc)), vec![]);
    assert_eq!(state.confirm, None);

    for yes in [KeyCode::Char('y'), KeyCode::Char('Y'), KeyCode::Enter] {
        command(&mut state, Command::Commit);
        assert_eq!(
            update(&mut state, press(yes)),
            vec![Effect::Commit {
                message: "Add two()".to_string(),
                flags: CommitFlags::default(),
            }],
            "{yes:?}"
        );
        assert_eq!(state.confirm, None);
        assert_eq!(notice(&state), (Level::Info, "committing..."));
    }
    // The answer is not typed into the focused editor.
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
}

#[test]
fn confirm_quit_with_an_unsaved_artifact() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    // Text that reached the editor without a draft being saved.
    state
        .artifacts
        .get_mut(&ArtifactKind::Review)
        .unwrap()
        .editor
        .insert_str("not saved yet");
    assert!(state.unsaved());
    command(&mut state, Command::Quit);
    assert_eq!(state.confirm, Some(Confirm::Quit));
    assert!(!state.quit);
    update(&mut state, press(KeyCode::Char('n')));
    assert!(!state.quit);
    assert_eq!(state.confirm, None);
    command(&mut state, Command::Quit);
    assert_eq!(update(&mut state, press(KeyCode::Char('y'))), vec![]);
    assert!(state.quit);
}

// ---------------------------------------------------------------------------------------------
// Mouse and ResizeTo

#[test]
fn a_click_focuses_the_pane_under_it_and_selects_a_file_row() {
    let mut state = loaded(
        Mode::COMMIT,
        vec![staged("a.rs"), staged("b.rs"), unstaged("c.rs")],
    );
    let rects = PaneRects::compute(state.size, &state);
    let files = rects.list.unwrap();
    let diff = rects.view.unwrap();
    let editor = rects.editor.unwrap();
    // The list's first row is under the top border.
    assert_eq!((files.x, files.y), (0, 1));
    state.focus = Pane::Editor;
    assert_eq!(
        update(&mut state, click(files.x + 3, files.y + 2)),
        vec![Effect::LoadDiff {
            path: "b.rs".to_string()
        }]
    );
    assert_eq!((state.focus, state.changes.selected), (Pane::Changes, 1));
    assert_eq!(state.diff.path.as_deref(), Some("b.rs"));
    assert!(state.diff.loading);
    // The selected row again, or below the last file: focus only.
    assert_eq!(update(&mut state, click(files.x + 3, files.y + 2)), vec![]);
    assert_eq!(update(&mut state, click(files.x + 3, files.y + 10)), vec![]);
    assert_eq!(state.changes.selected, 1);

    assert_eq!(update(&mut state, click(diff.x + 5, diff.y + 5)), vec![]);
    assert_eq!(state.focus, Pane::Diff);
    assert_eq!(
        update(&mut state, click(editor.x + 5, editor.y + 5)),
        vec![]
    );
    assert_eq!(state.focus, Pane::Editor);
    // The tab line and the status line are no pane.
    assert_eq!(update(&mut state, click(5, 0)), vec![]);
    let bottom = state.size.1 - 1;
    assert_eq!(update(&mut state, click(5, bottom)), vec![]);
    assert_eq!(state.focus, Pane::Editor);
    assert_eq!(state.changes.selected, 1);
}

#[test]
fn a_click_in_the_chat_focuses_its_input() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::OpenChat);
    state.focus = Pane::Changes;
    let rects = PaneRects::compute(state.size, &state);
    for chat in [rects.chat_log.unwrap(), rects.chat_input.unwrap()] {
        state.focus = Pane::Changes;
        update(&mut state, click(chat.x + 2, chat.y + 2));
        assert_eq!(state.focus, Pane::ChatInput);
    }
}

#[test]
fn a_long_list_scrolls_only_when_the_selection_would_leave_it() {
    let files: Vec<FileEntry> = (0..60).map(|i| staged(&format!("f{i:02}.rs"))).collect();
    let mut state = loaded(Mode::COMMIT, files);
    let area = PaneRects::compute(state.size, &state).list.unwrap();
    let rows = usize::from(area.height - 2);
    command(&mut state, Command::Bottom);
    assert_eq!(
        (state.changes.selected, state.list_tops.files),
        (59, 60 - rows)
    );
    // Up from the bottom: the highlight climbs, the rows stay.
    for _ in 0..5 {
        command(&mut state, Command::Up);
    }
    assert_eq!(
        (state.changes.selected, state.list_tops.files),
        (54, 60 - rows)
    );
    // A click on the first row selects the first file shown, not one scrolled away.
    update(&mut state, click(area.x + 3, area.y + 1));
    assert_eq!(state.changes.selected, 60 - rows);
    assert_eq!(state.list_tops.files, 60 - rows);
    // Above the top, the list follows.
    command(&mut state, Command::Up);
    assert_eq!(
        (state.changes.selected, state.list_tops.files),
        (59 - rows, 59 - rows)
    );
    command(&mut state, Command::Top);
    assert_eq!((state.changes.selected, state.list_tops.files), (0, 0));
}

#[test]
fn the_wheel_scrolls_the_diff_and_moves_through_the_files() {
    let mut state = with_diff(Mode::COMMIT);
    let rects = PaneRects::compute(state.size, &state);
    let diff = rects.view.unwrap();
    let (col, row) = (diff.x + 4, diff.y + 4);
    for expected in 1..=3 {
        assert_eq!(
            update(&mut state, mouse(MouseEventKind::ScrollDown, col, row)),
            vec![]
        );
        assert_eq!(state.diff.scroll, expected);
    }
    assert_eq!(state.focus, Pane::Diff);
    update(&mut state, mouse(MouseEventKind::ScrollUp, col, row));
    assert_eq!(state.diff.scroll, 2);
    // Never past the last line.
    for _ in 0..20 {
        update(&mut state, mouse(MouseEventKind::ScrollDown, col, row));
    }
    assert_eq!(state.diff.scroll, 9);

    // Over the file list, the wheel moves the selection (and loads that file's diff).
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs"), staged("b.rs")]);
    let files = PaneRects::compute(state.size, &state).list.unwrap();
    assert_eq!(
        update(
            &mut state,
            mouse(MouseEventKind::ScrollDown, files.x + 2, files.y + 5)
        ),
        vec![Effect::LoadDiff {
            path: "b.rs".to_string()
        }]
    );
    assert_eq!(state.changes.selected, 1);

    // Over the editor it takes the focus from no one.
    let editor = PaneRects::compute(state.size, &state).editor.unwrap();
    state.focus = Pane::Diff;
    assert_eq!(
        update(
            &mut state,
            mouse(MouseEventKind::ScrollDown, editor.x + 2, editor.y + 2)
        ),
        vec![]
    );
    assert_eq!(state.focus, Pane::Diff);
    assert_eq!(state.changes.selected, 1);
}

#[test]
fn resize_changes_where_the_panes_are() {
    let mut state = loaded(Mode::Explore, vec![staged("a.rs"), staged("b.rs")]);
    // Explore's files pane shows the repository's tree: a click selects a row of it.
    update(
        &mut state,
        Action::TreeLoaded(Ok(vec!["a.rs".into(), "b.rs".into()])),
    );
    assert_eq!(update(&mut state, Action::ResizeTo(200, 50)), vec![]);
    assert_eq!(state.size, (200, 50));
    // Explore: files take 30% of 200 columns, so column 50 is the diff now (it was at 120).
    assert_eq!(
        PaneRects::compute(state.size, &state).list.unwrap().width,
        60
    );
    update(&mut state, click(50, 3));
    assert_eq!((state.focus, state.explorer.selected), (Pane::Tree, 1));
    update(&mut state, Action::ResizeTo(120, 40));
    update(&mut state, click(50, 3));
    assert_eq!((state.focus, state.explorer.selected), (Pane::Code, 1));
}

// ---------------------------------------------------------------------------------------------
// Tick

#[test]
fn tick_changes_nothing() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let task = start_generation(&mut state);
    let before = format!("{:?}", state.task);
    assert_eq!(
        update(&mut state, Action::Tick(std::time::Instant::now())),
        vec![]
    );
    assert_eq!(format!("{:?}", state.task), before);
    assert_eq!(state.task.as_ref().map(|t| t.id), Some(task));
}

// ---------------------------------------------------------------------------------------------
// Commands

#[test]
fn quit_without_unsaved_work_quits_at_once() {
    let mut state = with_message("Add two()");
    assert!(!state.unsaved());
    assert_eq!(command(&mut state, Command::Quit), vec![]);
    assert!(state.quit);
    assert_eq!(state.confirm, None);
}

#[test]
fn help_toggles_and_swallows_other_commands_while_open() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs"), staged("b.rs")]);
    command(&mut state, Command::Help);
    assert!(state.help);
    for swallowed in [
        Command::NextPane,
        Command::Down,
        Command::Generate,
        Command::StageAll,
        Command::ModeReview,
    ] {
        assert_eq!(command(&mut state, swallowed), vec![], "{swallowed:?}");
    }
    assert_eq!((state.focus, state.changes.selected), (Pane::Changes, 0));
    assert_eq!(state.mode, Mode::COMMIT);
    assert!(state.task.is_none());
    command(&mut state, Command::Help);
    assert!(!state.help);
    command(&mut state, Command::Help);
    command(&mut state, Command::Back);
    assert!(!state.help);
    assert_eq!(state.focus, Pane::Changes);
}

#[test]
fn panes_cycle_in_the_order_of_the_mode() {
    let cycle = |state: &mut State, command_: Command, n: usize| -> Vec<Pane> {
        (0..n)
            .map(|_| {
                command(state, command_);
                state.focus
            })
            .collect()
    };
    let mut state = loaded(Mode::COMMIT, vec![]);
    assert_eq!(
        cycle(&mut state, Command::NextPane, 3),
        [Pane::Diff, Pane::Editor, Pane::Changes]
    );
    assert_eq!(
        cycle(&mut state, Command::PrevPane, 3),
        [Pane::Editor, Pane::Diff, Pane::Changes]
    );
    let mut state = loaded(Mode::Explore, vec![]);
    assert_eq!(
        cycle(&mut state, Command::NextPane, 2),
        [Pane::Code, Pane::Tree]
    );
    let mut state = loaded(Mode::PR, vec![]);
    assert_eq!(
        cycle(&mut state, Command::NextPane, 3),
        [Pane::Editor, Pane::Diff, Pane::Commits]
    );
    // With the chat open, its input is the last stop.
    let mut state = loaded(Mode::COMMIT, vec![]);
    command(&mut state, Command::OpenChat);
    assert_eq!(
        cycle(&mut state, Command::NextPane, 4),
        [Pane::Changes, Pane::Diff, Pane::Editor, Pane::ChatInput]
    );
    assert_eq!(cycle(&mut state, Command::PrevPane, 1), [Pane::Editor]);
}

#[test]
fn moves_in_the_file_list_select_and_load_the_diff() {
    let files: Vec<FileEntry> = (0..25).map(|i| staged(&format!("f{i:02}.rs"))).collect();
    let mut state = loaded(Mode::COMMIT, files);
    let load = |i: usize| {
        vec![Effect::LoadDiff {
            path: format!("f{i:02}.rs"),
        }]
    };
    assert_eq!(
        command(&mut state, Command::Up),
        vec![],
        "already at the top"
    );
    assert_eq!(command(&mut state, Command::Down), load(1));
    assert_eq!(command(&mut state, Command::PageDown), load(21));
    assert_eq!(command(&mut state, Command::PageDown), load(24));
    assert_eq!(command(&mut state, Command::Down), vec![], "at the bottom");
    assert_eq!(command(&mut state, Command::PageUp), load(4));
    assert_eq!(command(&mut state, Command::Bottom), load(24));
    assert_eq!(command(&mut state, Command::Top), load(0));
    assert_eq!(state.changes.selected, 0);
    assert_eq!(command(&mut state, Command::Up), vec![]);
}

#[test]
fn moves_in_the_diff_scroll_within_its_lines() {
    let mut state = with_diff(Mode::COMMIT);
    state.focus = Pane::Diff;
    let mut scroll = |c: Command| {
        assert_eq!(command(&mut state, c), vec![]);
        state.diff.scroll
    };
    assert_eq!(scroll(Command::Down), 1);
    assert_eq!(scroll(Command::Down), 2);
    assert_eq!(scroll(Command::Up), 1);
    assert_eq!(scroll(Command::PageDown), 9);
    assert_eq!(scroll(Command::PageUp), 0);
    assert_eq!(scroll(Command::Bottom), 9);
    assert_eq!(scroll(Command::Top), 0);
    assert_eq!(state.changes.selected, 0);
}

#[test]
fn moves_in_the_editor_leave_the_list_and_the_diff_alone() {
    let mut state = with_diff(Mode::COMMIT);
    state.focus = Pane::Editor;
    for c in [Command::Down, Command::PageDown, Command::Bottom] {
        assert_eq!(command(&mut state, c), vec![]);
    }
    assert_eq!((state.changes.selected, state.diff.scroll), (0, 0));
}

#[test]
fn select_opens_the_diff_and_back_returns_to_the_files() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    command(&mut state, Command::Select);
    assert_eq!(state.focus, Pane::Diff);
    command(&mut state, Command::Select);
    assert_eq!(state.focus, Pane::Diff, "select elsewhere does nothing");
    command(&mut state, Command::Back);
    assert_eq!(state.focus, Pane::Changes);
    command(&mut state, Command::Back);
    assert_eq!(state.focus, Pane::Changes);

    state.focus = Pane::Editor;
    command(&mut state, Command::Back);
    assert_eq!(state.focus, Pane::Changes);

    // Back from the chat input closes the chat and leaves typing for the file list.
    command(&mut state, Command::OpenChat);
    assert_eq!(state.focus, Pane::ChatInput);
    command(&mut state, Command::Back);
    assert!(!state.chat.open);
    assert_eq!(state.focus, Pane::Changes);
}

#[test]
fn back_cancels_a_running_task_and_keeps_the_text() {
    let mut state = with_message("Add two()");
    state.focus = Pane::Editor;
    let task = start_generation(&mut state);
    assert_eq!(
        command(&mut state, Command::Back),
        vec![Effect::Cancel { task }]
    );
    assert!(state.task.is_none());
    assert_eq!(state.focus, Pane::Editor, "the first back only cancels");
    assert_eq!(notice(&state).0, Level::Info);
    assert!(notice(&state).1.starts_with("cancelled"));
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
    // The cancelled task's late result is dropped.
    assert_eq!(generated(&mut state, task, "Late"), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
}

#[test]
fn generate_starts_a_task_in_the_current_mode() {
    let mut state = loaded(Mode::REVIEW, vec![staged("a.rs")]);
    assert_eq!(
        command(&mut state, Command::Generate),
        vec![Effect::Generate {
            task: 1,
            kind: ArtifactKind::Review,
            range: None
        }]
    );
    let task = state.task.as_ref().unwrap();
    assert_eq!(
        (task.id, task.mode, task.kind),
        (1, Mode::REVIEW, TaskKind::Generate)
    );
    assert_eq!(task.progress.activity, "starting");
    assert_eq!(state.next_task_id, 2);
}

#[test]
fn generate_while_busy_warns_and_starts_nothing() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let first = start_generation(&mut state);
    assert_eq!(command(&mut state, Command::Generate), vec![]);
    assert_eq!(state.task.as_ref().unwrap().id, first);
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "Iris is busy: Esc cancels what she is doing"
        )
    );
}

#[test]
fn generate_without_a_provider_says_why() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    state.ai_unavailable = Some("Iris is not configured: no API key".to_string());
    assert_eq!(command(&mut state, Command::Generate), vec![]);
    assert!(state.task.is_none());
    assert_eq!(
        notice(&state),
        (Level::Warning, "Iris is not configured: no API key")
    );
    // The chat will not open either.
    assert_eq!(command(&mut state, Command::OpenChat), vec![]);
    assert!(!state.chat.open);
    assert_eq!(state.focus, Pane::Changes);
    assert_eq!(notice(&state).0, Level::Warning);
}

#[test]
fn generate_and_chat_in_explore_mode_explain_the_modes() {
    let mut state = loaded(Mode::Explore, vec![staged("a.rs")]);
    assert_eq!(command(&mut state, Command::Generate), vec![]);
    assert!(state.task.is_none());
    assert_eq!(notice(&state).0, Level::Info);
    assert!(notice(&state).1.contains("switch to a mode"));
    state.notice = None;
    assert_eq!(command(&mut state, Command::OpenChat), vec![]);
    assert!(!state.chat.open);
    assert!(notice(&state).1.contains("switch to a mode"));
}

#[test]
fn stage_commands_name_the_selected_file() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs"), unstaged("b.rs")]);
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::StageFile),
        vec![Effect::Stage {
            path: "b.rs".to_string()
        }]
    );
    assert_eq!(
        command(&mut state, Command::UnstageFile),
        vec![Effect::Unstage {
            path: "b.rs".to_string()
        }]
    );
    assert_eq!(
        command(&mut state, Command::StageAll),
        vec![Effect::StageAll]
    );
    assert_eq!(
        command(&mut state, Command::UnstageAll),
        vec![Effect::UnstageAll]
    );
    // Nothing selected, nothing to stage.
    let mut empty = loaded(Mode::COMMIT, vec![]);
    assert_eq!(command(&mut empty, Command::StageFile), vec![]);
    assert_eq!(command(&mut empty, Command::UnstageFile), vec![]);
    assert_eq!(command(&mut empty, Command::StageHunk), vec![]);
}

#[test]
fn stage_hunk_stages_the_hunk_at_the_top_of_the_diff_view() {
    let mut state = with_diff(Mode::COMMIT);
    let stage = |hunk| {
        vec![Effect::StageHunk {
            path: "src/lib.rs".to_string(),
            hunk,
        }]
    };
    // Above the first hunk (the file header), the first hunk.
    assert_eq!(command(&mut state, Command::StageHunk), stage(0));
    state.diff.scroll = 3;
    assert_eq!(command(&mut state, Command::StageHunk), stage(0));
    state.diff.scroll = 5;
    assert_eq!(command(&mut state, Command::StageHunk), stage(1));
    state.diff.scroll = 9;
    assert_eq!(command(&mut state, Command::StageHunk), stage(1));
    // A diff with no hunks (binary, untracked): nothing.
    state.diff.files[0].hunks.clear();
    state.diff.scroll = 0;
    assert_eq!(command(&mut state, Command::StageHunk), vec![]);
}

#[test]
fn a_hunk_of_the_staged_part_is_unstaged_and_one_of_the_unstaged_part_staged() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    // The file is partly staged: the staged part (2 hunks) above the unstaged part (2 hunks).
    let mut parts = two_hunk_diff();
    parts.extend(two_hunk_diff());
    update(
        &mut state,
        Action::DiffLoaded {
            path: "src/lib.rs".to_string(),
            result: Ok(parts),
            staged: Some(1),
        },
    );
    assert_eq!(state.diff.hunk_starts(), vec![1, 5, 11, 15]);
    let path = || "src/lib.rs".to_string();
    let mut at = |row: usize| {
        state.diff.scroll = row;
        command(&mut state, Command::StageHunk)
    };
    assert_eq!(
        at(0),
        vec![Effect::UnstageHunk {
            path: path(),
            hunk: 0
        }]
    );
    assert_eq!(
        at(6),
        vec![Effect::UnstageHunk {
            path: path(),
            hunk: 1
        }]
    );
    // The unstaged part counts its hunks from 0, as `git diff` numbers them.
    assert_eq!(
        at(11),
        vec![Effect::StageHunk {
            path: path(),
            hunk: 0
        }]
    );
    assert_eq!(
        at(19),
        vec![Effect::StageHunk {
            path: path(),
            hunk: 1
        }]
    );

    // A commit's diff (range modes) has no sides: nothing to stage, a hint instead.
    let mut state = loaded(Mode::PR, vec![]);
    state.diff.path = Some("commit 1234567".to_string());
    update(
        &mut state,
        Action::DiffLoaded {
            path: "commit 1234567".to_string(),
            result: Ok(two_hunk_diff()),
            staged: None,
        },
    );
    assert_eq!(command(&mut state, Command::StageHunk), vec![]);
    assert!(notice(&state).1.contains("commit mode"));
}

#[test]
fn next_and_previous_hunk_jump_between_hunk_headers() {
    let mut state = with_diff(Mode::COMMIT);
    let mut jump = |c: Command| {
        assert_eq!(command(&mut state, c), vec![]);
        state.diff.scroll
    };
    assert_eq!(jump(Command::NextHunk), 1);
    assert_eq!(jump(Command::NextHunk), 5);
    assert_eq!(jump(Command::NextHunk), 5, "no hunk after the last");
    assert_eq!(jump(Command::PrevHunk), 1);
    assert_eq!(jump(Command::PrevHunk), 1, "no hunk before the first");
    state.diff.scroll = 7;
    assert_eq!(command(&mut state, Command::PrevHunk), vec![]);
    assert_eq!(state.diff.scroll, 5);
}

#[test]
fn commit_asks_first_and_refuses_what_cannot_be_committed() {
    // Not in commit mode.
    let mut state = loaded(Mode::REVIEW, vec![staged("a.rs")]);
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.confirm, None);
    assert_eq!(
        notice(&state),
        (Level::Info, "commits are made in commit mode (2)")
    );

    // An empty (or blank) message.
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("  \n ");
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.confirm, None);
    assert_eq!(
        notice(&state),
        (Level::Warning, "the commit message is empty")
    );

    // Nothing staged.
    let mut state = loaded(Mode::COMMIT, vec![unstaged("a.rs")]);
    assert!(!state.changes.has_staged);
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("Add two()");
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.confirm, None);
    assert_eq!(notice(&state).0, Level::Warning);
    assert!(notice(&state).1.starts_with("nothing is staged"));

    // ... unless amending, which may only reword.
    command(&mut state, Command::ToggleAmend);
    command(&mut state, Command::Commit);
    assert_eq!(state.confirm, Some(Confirm::Commit));
    assert_eq!(
        update(&mut state, press(KeyCode::Char('y'))),
        vec![Effect::Commit {
            message: "Add two()".to_string(),
            flags: CommitFlags {
                amend: true,
                no_verify: false
            },
        }]
    );
}

#[test]
fn amend_and_no_verify_toggle_and_reach_the_commit() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::ToggleAmend);
    command(&mut state, Command::ToggleNoVerify);
    assert_eq!(
        state.commit_flags,
        CommitFlags {
            amend: true,
            no_verify: true
        }
    );
    command(&mut state, Command::ToggleAmend);
    assert_eq!(
        state.commit_flags,
        CommitFlags {
            amend: false,
            no_verify: true
        }
    );
    command(&mut state, Command::Commit);
    assert_eq!(
        update(&mut state, press(KeyCode::Enter)),
        vec![Effect::Commit {
            message: "Add two()".to_string(),
            flags: CommitFlags {
                amend: false,
                no_verify: true
            },
        }]
    );
}

#[test]
fn undo_and_redo_step_through_the_versions_and_save_the_draft() {
    let mut state = with_message("First title");
    let task = start_generation(&mut state);
    generated(&mut state, task, "Second title");
    // The draft carries the versions, so undo still works when the studio is reopened.
    let saved = |text: &str, position| {
        vec![Effect::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: Draft {
                text: text.to_string(),
                versions: vec!["First title".to_string(), "Second title".to_string()],
                position,
            },
        }]
    };
    assert_eq!(
        command(&mut state, Command::UndoVersion),
        saved("First title", 0)
    );
    assert_eq!(text(&state, Mode::COMMIT), "First title");
    assert_eq!(command(&mut state, Command::UndoVersion), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "First title");
    assert_eq!(
        command(&mut state, Command::RedoVersion),
        vec![Effect::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: Draft {
                text: "Second title".to_string(),
                versions: vec!["First title".to_string()],
                position: 1,
            },
        }]
    );
    assert_eq!(text(&state, Mode::COMMIT), "Second title");
    assert_eq!(command(&mut state, Command::RedoVersion), vec![]);
    // The versions of one mode are not another's.
    command(&mut state, Command::ModeReview);
    assert_eq!(command(&mut state, Command::UndoVersion), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Second title");
}

#[test]
fn refresh_reloads_the_status() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    assert_eq!(
        command(&mut state, Command::Refresh),
        vec![Effect::LoadStatus]
    );
}

#[test]
fn mode_commands_switch_the_mode_and_reset_the_focus() {
    let modes = [
        (Command::ModeExplore, Mode::Explore),
        (Command::ModeCommit, Mode::COMMIT),
        (Command::ModeReview, Mode::REVIEW),
        (Command::ModePr, Mode::PR),
        (Command::ModeChangelog, Mode::CHANGELOG),
        (Command::ModeReleaseNotes, Mode::RELEASE_NOTES),
    ];
    for (c, mode) in modes {
        let start = if mode == Mode::REVIEW {
            Mode::PR
        } else {
            Mode::REVIEW
        };
        let mut state = loaded(start, vec![unstaged("a.rs")]);
        state.focus = Pane::Diff;
        // Explore lists the repository's files, the range modes their commits.
        let expected = match mode {
            Mode::Explore => vec![Effect::LoadTree],
            Mode::PR | Mode::CHANGELOG | Mode::RELEASE_NOTES => vec![Effect::LoadCommits {
                mode,
                from: None,
                to: None,
            }],
            Mode::COMMIT | Mode::REVIEW => vec![],
        };
        assert_eq!(command(&mut state, c), expected, "{c:?}");
        assert_eq!((state.mode, state.focus), (mode, mode.list_pane()), "{c:?}");
    }
    // The same mode again changes nothing.
    let mut state = loaded(Mode::REVIEW, vec![]);
    state.focus = Pane::Editor;
    command(&mut state, Command::ModeReview);
    assert_eq!(state.focus, Pane::Editor);
    // Explore has no artifact to chat about: the chat closes.
    command(&mut state, Command::OpenChat);
    command(&mut state, Command::ModeExplore);
    assert!(!state.chat.open);
}

#[test]
fn entering_commit_mode_with_staged_files_and_no_message_generates() {
    let mut state = loaded(Mode::Explore, vec![staged("a.rs")]);
    state.auto_generate = true;
    assert_eq!(
        command(&mut state, Command::ModeCommit),
        vec![Effect::Generate {
            task: 1,
            kind: ArtifactKind::Commit,
            range: None
        }]
    );
    assert_eq!(state.task.as_ref().unwrap().kind, TaskKind::Generate);

    // Not with a message already there, nothing staged, without a provider, switched off,
    // or in a mode whose input is not the staged change.
    let mut with_text = loaded(Mode::Explore, vec![staged("a.rs")]);
    with_text.auto_generate = true;
    with_text
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("Mine");
    assert_eq!(command(&mut with_text, Command::ModeCommit), vec![]);

    let mut nothing_staged = loaded(Mode::Explore, vec![unstaged("a.rs")]);
    nothing_staged.auto_generate = true;
    assert_eq!(command(&mut nothing_staged, Command::ModeCommit), vec![]);

    let mut no_provider = loaded(Mode::Explore, vec![staged("a.rs")]);
    no_provider.auto_generate = true;
    no_provider.ai_unavailable = Some("no key".to_string());
    assert_eq!(command(&mut no_provider, Command::ModeCommit), vec![]);
    assert_eq!(
        no_provider.notice, None,
        "no warning for what was not asked"
    );

    let mut off = loaded(Mode::Explore, vec![staged("a.rs")]);
    assert_eq!(command(&mut off, Command::ModeCommit), vec![]);

    // A review's input is the staged change too.
    let mut review = loaded(Mode::Explore, vec![staged("a.rs")]);
    review.auto_generate = true;
    assert_eq!(
        command(&mut review, Command::ModeReview),
        vec![Effect::Generate {
            task: 1,
            kind: ArtifactKind::Review,
            range: None
        }]
    );
}

// ---------------------------------------------------------------------------------------------
// StatusLoaded and DiffLoaded

#[test]
fn status_loaded_fills_the_list_and_loads_the_first_diff() {
    let mut state = State::new(Mode::COMMIT);
    state.auto_generate = false;
    assert!(state.changes.files_loading);
    let effects = update(&mut state, status(vec![staged("a.rs"), unstaged("b.rs")]));
    assert_eq!(
        effects,
        vec![Effect::LoadDiff {
            path: "a.rs".to_string()
        }]
    );
    assert!(!state.changes.files_loading);
    assert!(state.changes.has_staged);
    assert_eq!(state.branch, "main");
    assert_eq!(state.changes.files.len(), 2);
    assert_eq!(state.diff.path.as_deref(), Some("a.rs"));

    // No files: no diff.
    let mut state = State::new(Mode::COMMIT);
    assert_eq!(update(&mut state, status(vec![])), vec![]);
    assert!(!state.changes.has_staged);
    assert_eq!(state.diff.path, None);
}

#[test]
fn status_loaded_keeps_the_selection_on_the_same_path() {
    let mut state = loaded(
        Mode::COMMIT,
        vec![staged("a.rs"), staged("b.rs"), staged("c.rs")],
    );
    command(&mut state, Command::Down);
    update(
        &mut state,
        Action::DiffLoaded {
            path: "b.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        },
    );
    state.diff.scroll = 4;
    // b.rs moved to the front (its relevance changed): the selection follows it, and its
    // diff reloads in place without jumping to the top.
    let effects = update(&mut state, status(vec![staged("b.rs"), staged("c.rs")]));
    assert_eq!(state.changes.selected, 0);
    assert_eq!(state.changes.selected_file().unwrap().path, "b.rs");
    assert_eq!(
        effects,
        vec![Effect::LoadDiff {
            path: "b.rs".to_string()
        }]
    );
    assert_eq!(state.diff.scroll, 4);
    assert!(state.diff.loading);
    assert_eq!(
        state.diff.files.len(),
        1,
        "the old diff shows until the new one"
    );

    // The selected path is gone: the first file, and its diff from the top.
    update(
        &mut state,
        Action::DiffLoaded {
            path: "b.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        },
    );
    let effects = update(&mut state, status(vec![staged("c.rs"), staged("d.rs")]));
    assert_eq!(state.changes.selected, 0);
    assert_eq!(
        effects,
        vec![Effect::LoadDiff {
            path: "c.rs".to_string()
        }]
    );
    assert_eq!(state.diff.scroll, 0);
    assert!(state.diff.files.is_empty());
}

#[test]
fn status_loaded_chooses_commit_or_explore_when_no_mode_was_given() {
    let mut state = State::new(Mode::COMMIT);
    state.choose_mode = true;
    state.auto_generate = false;
    update(&mut state, status(vec![]));
    assert_eq!(state.mode, Mode::Explore);
    assert!(!state.choose_mode);

    // Only a new file, or only a merge conflict: commit mode too.
    for entry in [
        FileEntry {
            untracked: true,
            ..file("new.rs", None, None)
        },
        FileEntry {
            conflicted: true,
            ..file("both.rs", None, None)
        },
    ] {
        let mut state = State::new(Mode::COMMIT);
        state.choose_mode = true;
        state.auto_generate = false;
        update(&mut state, status(vec![entry]));
        assert_eq!(state.mode, Mode::COMMIT);
    }

    let mut state = State::new(Mode::COMMIT);
    state.choose_mode = true;
    update(&mut state, status(vec![unstaged("a.rs")]));
    assert_eq!(state.mode, Mode::COMMIT);
    assert!(state.task.is_none(), "nothing staged, nothing to write");
    // Chosen once: a later status with nothing changed keeps the mode.
    update(&mut state, status(vec![]));
    assert_eq!(state.mode, Mode::COMMIT);

    // Something staged: commit mode, and Iris starts on the message.
    let mut state = State::new(Mode::Explore);
    state.choose_mode = true;
    let effects = update(&mut state, status(vec![staged("a.rs")]));
    assert_eq!(state.mode, Mode::COMMIT);
    assert_eq!(
        effects,
        vec![
            Effect::LoadDiff {
                path: "a.rs".to_string()
            },
            Effect::Generate {
                task: 1,
                kind: ArtifactKind::Commit,
                range: None
            },
        ]
    );
}

#[test]
fn status_failure_is_a_notice() {
    let mut state = State::new(Mode::COMMIT);
    assert_eq!(
        update(
            &mut state,
            Action::StatusLoaded(Err("not a repo".to_string()))
        ),
        vec![]
    );
    assert!(!state.changes.files_loading);
    assert_eq!(
        notice(&state),
        (Level::Error, "git status failed: not a repo")
    );
}

#[test]
fn diff_loaded_for_another_path_is_ignored() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs"), staged("src/lib.rs")]);
    command(&mut state, Command::Down);
    assert_eq!(state.diff.path.as_deref(), Some("src/lib.rs"));
    // a.rs's diff, asked for before the selection moved, arrives late.
    assert_eq!(
        update(
            &mut state,
            Action::DiffLoaded {
                path: "a.rs".to_string(),
                result: Ok(two_hunk_diff()),
                staged: Some(0),
            }
        ),
        vec![]
    );
    assert!(state.diff.loading);
    assert!(state.diff.files.is_empty());
    update(
        &mut state,
        Action::DiffLoaded {
            path: "src/lib.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        },
    );
    assert!(!state.diff.loading);
    assert_eq!(state.diff.files, two_hunk_diff());
    // A failure is a notice, and the view stops loading.
    command(&mut state, Command::Up);
    update(
        &mut state,
        Action::DiffLoaded {
            path: "a.rs".to_string(),
            result: Err("bad object".to_string()),
            staged: Some(0),
        },
    );
    assert!(!state.diff.loading);
    assert_eq!(
        notice(&state),
        (Level::Error, "diff of a.rs failed: bad object")
    );
}

// ---------------------------------------------------------------------------------------------
// Agent events and results

#[test]
fn agent_events_show_the_running_tasks_progress() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let task = start_generation(&mut state);
    let event = |state: &mut State, task: u64, event: AgentEvent| {
        assert_eq!(update(state, Action::Agent { task, event }), vec![]);
    };
    event(
        &mut state,
        task,
        AgentEvent::Status("running commit".into()),
    );
    assert_eq!(
        state.task.as_ref().unwrap().progress.activity,
        "running commit"
    );
    event(
        &mut state,
        task,
        AgentEvent::TextDelta("{\"title\":".into()),
    );
    event(&mut state, task, AgentEvent::TextDelta(" \"Add\"".into()));
    let running = state.task.as_ref().unwrap();
    assert_eq!(running.progress.activity, "writing");
    assert_eq!(running.progress.streamed, "{\"title\": \"Add\"");
    event(
        &mut state,
        task,
        AgentEvent::Usage {
            input: 21,
            output: 7,
        },
    );
    event(
        &mut state,
        task,
        AgentEvent::Usage {
            input: 21,
            output: 7,
        },
    );
    // A tool call starts a new turn: the text before it was thinking aloud.
    event(
        &mut state,
        task,
        AgentEvent::ToolStarted {
            name: "git_diff".into(),
            summary: "reading the diff".into(),
        },
    );
    let running = state.task.as_ref().unwrap();
    assert_eq!(running.progress.activity, "reading the diff");
    assert_eq!(running.progress.streamed, "");
    assert_eq!(
        (
            running.progress.input_tokens,
            running.progress.output_tokens
        ),
        (42, 14)
    );
    for quiet in [
        AgentEvent::ToolFinished {
            name: "git_diff".into(),
            ok: true,
        },
        AgentEvent::Done("x".into()),
        AgentEvent::Error("y".into()),
    ] {
        event(&mut state, task, quiet);
    }
    assert_eq!(
        state.task.as_ref().unwrap().progress.activity,
        "reading the diff"
    );
    // Another task's events are not this one's.
    event(&mut state, task + 1, AgentEvent::Status("other".into()));
    event(&mut state, task + 1, AgentEvent::TextDelta("other".into()));
    let running = state.task.as_ref().unwrap();
    assert_eq!(
        (
            running.progress.activity.as_str(),
            running.progress.streamed.as_str()
        ),
        ("reading the diff", "")
    );
}

#[test]
fn generated_lands_in_the_artifact_and_is_saved() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let task = start_generation(&mut state);
    assert_eq!(
        generated(&mut state, task, "Add two()\n\nBody."),
        vec![Effect::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft("Add two()\n\nBody.".to_string()),
        }]
    );
    assert!(state.task.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Add two()\n\nBody.");
    assert_eq!(
        state.artifacts[&ArtifactKind::Commit].saved,
        "Add two()\n\nBody."
    );
    assert_eq!(
        state.notice,
        Some(Notice {
            level: Level::Success,
            text: "Iris wrote the commit".to_string()
        })
    );
}

#[test]
fn a_failed_generation_is_a_notice_and_the_text_stays() {
    let mut state = with_message("Mine");
    let task = start_generation(&mut state);
    let effects = update(
        &mut state,
        Action::Generated {
            task,
            kind: ArtifactKind::Commit,
            result: Err("openai: 500\n  Internal Server Error".to_string()),
        },
    );
    assert_eq!(effects, vec![]);
    assert!(state.task.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
    // One line in the status bar.
    assert_eq!(
        notice(&state),
        (Level::Error, "openai: 500 Internal Server Error")
    );
    assert!(state.report.is_none(), "it fits: no report over the panes");

    // An error too long for the status line is shown whole over the panes until esc.
    let long = format!("openai gpt-5: 400 Bad Request: {}", "detail ".repeat(30));
    let task = start_generation(&mut state);
    update(
        &mut state,
        Action::Generated {
            task,
            kind: ArtifactKind::Commit,
            result: Err(long.clone()),
        },
    );
    assert_eq!(state.report.as_deref(), Some(long.trim_end()));
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
    command(&mut state, Command::Back);
    assert!(state.report.is_none());
}

#[test]
fn a_stale_generation_is_ignored() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let first = start_generation(&mut state);
    command(&mut state, Command::Back);
    let second = start_generation(&mut state);
    assert_ne!(first, second);
    assert_eq!(generated(&mut state, first, "Old"), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "");
    assert_eq!(state.task.as_ref().unwrap().id, second);
    generated(&mut state, second, "New");
    assert_eq!(text(&state, Mode::COMMIT), "New");
    assert!(state.task.is_none());
}

#[test]
fn chat_replies_join_the_conversation() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "why?");
    let Some(Effect::Chat { task, .. }) = update(&mut state, press(KeyCode::Enter)).pop() else {
        panic!("no chat effect");
    };
    // A reply from another task changes nothing.
    let reply = |task, result| Action::ChatReplied { task, result };
    assert_eq!(
        update(
            &mut state,
            reply(
                task + 7,
                Ok(ChatOutcome {
                    reply: "stale".into()
                })
            )
        ),
        vec![]
    );
    assert_eq!(state.chat.messages.len(), 1);
    assert!(state.task.is_some());
    assert_eq!(
        update(
            &mut state,
            reply(
                task,
                Ok(ChatOutcome {
                    reply: "Because.".into()
                })
            )
        ),
        vec![]
    );
    assert!(state.task.is_none());
    assert_eq!(
        state.chat.messages.last(),
        Some(&ChatMessage {
            speaker: Speaker::Iris,
            text: "Because.".into()
        })
    );
    // A failed reply is a notice, not a message.
    type_text(&mut state, "again");
    let Some(Effect::Chat { task, .. }) = update(&mut state, press(KeyCode::Enter)).pop() else {
        panic!("no chat effect");
    };
    update(&mut state, reply(task, Err("timed out".into())));
    assert!(state.task.is_none());
    assert_eq!(state.chat.messages.len(), 3);
    assert_eq!(notice(&state), (Level::Error, "timed out"));
}

#[test]
fn artifact_updates_land_in_the_editor_while_the_task_runs() {
    let mut state = with_message("Add two() and a very long title nobody wants");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "make it shorter");
    let Some(Effect::Chat { task, .. }) = update(&mut state, press(KeyCode::Enter)).pop() else {
        panic!("no chat effect");
    };
    let effects = update(
        &mut state,
        Action::ArtifactUpdated {
            task,
            kind: ArtifactKind::Commit,
            text: "Add two()".to_string(),
        },
    );
    assert_eq!(
        effects,
        vec![Effect::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: Draft {
                text: "Add two()".to_string(),
                versions: vec!["Add two() and a very long title nobody wants".to_string()],
                position: 1,
            },
        }]
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
    assert!(state.task.is_some(), "the chat goes on after the edit");
    // The version before the edit is one step back.
    command(&mut state, Command::UndoVersion);
    assert_eq!(
        text(&state, Mode::COMMIT),
        "Add two() and a very long title nobody wants"
    );
}

#[test]
fn a_cancelled_tasks_artifact_update_is_dropped() {
    let mut state = with_message("Mine");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "rewrite it");
    let Some(Effect::Chat { task, .. }) = update(&mut state, press(KeyCode::Enter)).pop() else {
        panic!("no chat effect");
    };
    command(&mut state, Command::Back);
    assert!(state.task.is_none());
    let update_action = Action::ArtifactUpdated {
        task,
        kind: ArtifactKind::Commit,
        text: "Theirs".to_string(),
    };
    assert_eq!(update(&mut state, update_action.clone()), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
    // Nor does it land while a newer task runs.
    start_generation(&mut state);
    assert_eq!(update(&mut state, update_action), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
}

// ---------------------------------------------------------------------------------------------
// GitDone and DraftsLoaded

#[test]
fn a_commit_clears_the_message_its_draft_and_the_flags() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::ToggleAmend);
    let effects = update(
        &mut state,
        Action::GitDone {
            result: Ok("committed 1234567 Add two()".to_string()),
            committed: true,
        },
    );
    assert_eq!(
        effects,
        vec![
            Effect::LoadStatus,
            Effect::ClearDraft {
                kind: ArtifactKind::Commit
            }
        ]
    );
    assert_eq!(text(&state, Mode::COMMIT), "");
    assert_eq!(state.artifacts[&ArtifactKind::Commit].saved, "");
    assert_eq!(state.commit_flags, CommitFlags::default());
    assert_eq!(
        notice(&state),
        (Level::Success, "committed 1234567 Add two()")
    );
    assert!(!state.unsaved());
}

#[test]
fn other_git_results_reload_the_status_and_keep_the_message() {
    let mut state = with_message("Add two()");
    assert_eq!(
        update(
            &mut state,
            Action::GitDone {
                result: Ok("staged a.rs".to_string()),
                committed: false,
            }
        ),
        vec![Effect::LoadStatus]
    );
    assert_eq!(notice(&state), (Level::Success, "staged a.rs"));
    assert_eq!(
        update(
            &mut state,
            Action::GitDone {
                result: Err("pre-commit hook failed:\nlint".to_string()),
                committed: true,
            }
        ),
        vec![Effect::LoadStatus]
    );
    // The hook's output is shown whole (until esc), the notice says where the message is.
    assert_eq!(notice(&state).0, Level::Error);
    assert!(notice(&state).1.contains("the message stays in the editor"));
    assert_eq!(
        state.report.as_deref(),
        Some("pre-commit hook failed:\nlint")
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
}

#[test]
fn drafts_restore_only_into_empty_buffers() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    state
        .artifacts
        .get_mut(&ArtifactKind::Review)
        .unwrap()
        .replace("Typed before the drafts arrived");
    let effects = update(
        &mut state,
        Action::DraftsLoaded(vec![
            (ArtifactKind::Commit, draft("Draft message")),
            (ArtifactKind::Review, draft("Old review")),
            (ArtifactKind::Pr, draft("Old PR")),
        ]),
    );
    assert_eq!(effects, vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Draft message");
    assert_eq!(
        text(&state, Mode::REVIEW),
        "Typed before the drafts arrived"
    );
    assert_eq!(text(&state, Mode::PR), "Old PR");
    assert_eq!(notice(&state), (Level::Info, "restored drafts: Commit, PR"));
    // A restored draft is saved already; it is no reason to ask before quitting.
    assert_eq!(
        state.artifacts[&ArtifactKind::Commit].saved,
        "Draft message"
    );
    assert!(!state.artifacts[&ArtifactKind::Pr].text().is_empty());

    // Nothing restored, no notice.
    let mut state = loaded(Mode::COMMIT, vec![]);
    update(&mut state, Action::DraftsLoaded(vec![]));
    assert_eq!(state.notice, None);
}

#[test]
fn a_restored_draft_prevents_auto_generation() {
    let mut state = State::new(Mode::COMMIT);
    update(
        &mut state,
        Action::DraftsLoaded(vec![(ArtifactKind::Commit, draft("Draft"))]),
    );
    let effects = update(&mut state, status(vec![staged("a.rs")]));
    assert_eq!(
        effects,
        vec![Effect::LoadDiff {
            path: "a.rs".to_string()
        }]
    );
    assert!(state.task.is_none());
}

// ---------------------------------------------------------------- ranges, findings, explore

fn commit_row(short: &str, summary: &str) -> iris_studio::state::CommitRow {
    iris_studio::state::CommitRow {
        id: format!("{short}0000000000"),
        short_id: short.to_string(),
        summary: summary.to_string(),
        author: "Ada".to_string(),
        date: "2026-11-21".to_string(),
    }
}

#[test]
fn the_range_modes_load_their_commits_then_generate_for_that_range() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    state.auto_generate = true;
    let effects = command(&mut state, Command::ModePr);
    assert_eq!(
        effects,
        vec![Effect::LoadCommits {
            mode: Mode::PR,
            from: None,
            to: None
        }]
    );
    let effects = update(
        &mut state,
        Action::CommitsLoaded {
            mode: Mode::PR,
            result: Ok((
                "main".to_string(),
                vec![commit_row("abc1234", "Add parser")],
            )),
        },
    );
    assert_eq!(
        effects,
        vec![
            Effect::LoadCommitDiff {
                id: "abc12340000000000".to_string()
            },
            Effect::Generate {
                task: 1,
                kind: ArtifactKind::Pr,
                range: Some(("main".to_string(), "HEAD".to_string())),
            },
        ]
    );
    assert_eq!(state.range.resolved_from.as_deref(), Some("main"));
}

#[test]
fn pick_range_takes_from_to_and_reloads_the_commits() {
    let mut state = loaded(Mode::CHANGELOG, vec![]);
    assert!(command(&mut state, Command::PickRange).is_empty());
    assert_eq!(state.focus, Pane::RangeInput);
    type_text(&mut state, "v1.0..v1.1");
    let effects = update(&mut state, press(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![Effect::LoadCommits {
            mode: Mode::CHANGELOG,
            from: Some("v1.0".to_string()),
            to: Some("v1.1".to_string()),
        }]
    );
    assert_eq!(state.focus, Pane::Commits);
    // Outside the range modes it only says where ranges belong.
    let mut commit = loaded(Mode::COMMIT, vec![]);
    assert!(command(&mut commit, Command::PickRange).is_empty());
    assert!(commit.range_input.is_none());
}

#[test]
fn selecting_a_finding_shows_its_file_at_its_line() {
    let mut state = loaded(
        Mode::REVIEW,
        vec![staged("README.md"), staged("src/app.rs")],
    );
    state.artifacts.get_mut(&ArtifactKind::Review).unwrap().replace(
        "# Code review\n\nOk.\n\n## High (1)\n\n### Unchecked unwrap (`src/app.rs:3`)\n\nIt panics.\n",
    );
    state.focus = Pane::Findings;
    let effects = command(&mut state, Command::Select);
    assert_eq!(
        effects,
        vec![Effect::LoadDiff {
            path: "src/app.rs".to_string()
        }]
    );
    assert_eq!(state.pending_jump, Some(("src/app.rs".to_string(), 3)));
    let mut diff = two_hunk_diff();
    diff[0].path = "src/app.rs".to_string();
    update(
        &mut state,
        Action::DiffLoaded {
            path: "src/app.rs".to_string(),
            result: Ok(diff),
            staged: Some(0),
        },
    );
    assert!(state.pending_jump.is_none());
    assert_eq!(state.focus, Pane::Diff);
    assert!(state.diff.scroll > 0, "scrolled to the finding's line");
}

#[test]
fn enter_on_the_explore_tree_opens_directories_and_files() {
    let mut state = loaded(Mode::Explore, vec![]);
    update(
        &mut state,
        Action::TreeLoaded(Ok(vec!["README.md".into(), "src/lib.rs".into()])),
    );
    state.focus = Pane::Tree;
    command(&mut state, Command::Down); // "src"
    assert!(command(&mut state, Command::Select).is_empty());
    assert!(state.explorer.expanded.contains("src"));
    command(&mut state, Command::Down); // "src/lib.rs"
    assert_eq!(
        command(&mut state, Command::Select),
        vec![Effect::OpenFile {
            path: "src/lib.rs".to_string()
        }]
    );
    assert_eq!(state.focus, Pane::Code);
}

#[test]
fn a_failed_commit_shows_the_whole_report_and_keeps_the_message() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("Add a");
    let report =
        "git commit failed (the message was not lost): hook said:\nline one\nline two".to_string();
    update(
        &mut state,
        Action::GitDone {
            result: Err(report.clone()),
            committed: true,
        },
    );
    assert_eq!(state.report.as_deref(), Some(report.as_str()));
    assert_eq!(text(&state, Mode::COMMIT), "Add a");
    assert_eq!(notice(&state).0, Level::Error);
    command(&mut state, Command::Back);
    assert!(state.report.is_none());
}

#[test]
fn the_first_ranking_lists_the_staged_files_and_the_complete_one_re_sorts_them() {
    use iris_studio::action::RankedFile;
    let mut state = State::new(Mode::COMMIT);
    state.auto_generate = false;
    assert_eq!(state.loading(), Some("reading the repository's status"));
    let ranked = |items: &[(&str, u32)]| {
        Ok(items
            .iter()
            .map(|(path, relevance)| RankedFile {
                path: path.to_string(),
                kind: ChangeKind::Modified,
                relevance: *relevance,
                secret: None,
            })
            .collect())
    };
    update(
        &mut state,
        Action::RankingLoaded {
            result: ranked(&[("src/a.rs", 85), ("README.md", 62)]),
            complete: false,
        },
    );
    let paths: Vec<&str> = state
        .changes
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["src/a.rs", "README.md"]);
    assert!(
        !state.changes.ranking_complete && state.changes.files_loading && state.changes.has_staged
    );
    assert_eq!(state.loading(), Some("reading the rest of the status"));
    update(
        &mut state,
        Action::RankingLoaded {
            result: ranked(&[("README.md", 90), ("src/a.rs", 70)]),
            complete: true,
        },
    );
    let order: Vec<(&str, Option<u32>)> = state
        .changes
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.relevance))
        .collect();
    assert_eq!(order, [("README.md", Some(90)), ("src/a.rs", Some(70))]);
    assert!(state.changes.ranking_complete);
    update(
        &mut state,
        status(vec![staged("README.md"), staged("src/a.rs")]),
    );
    assert_eq!(state.loading(), None, "nothing left to read");
    command(&mut state, Command::ModeExplore);
    assert_eq!(state.loading(), Some("listing the repository's files"));
    update(&mut state, Action::TreeLoaded(Ok(vec!["README.md".into()])));
    assert_eq!(state.loading(), None);
}

#[test]
fn a_click_in_the_range_modes_selects_the_commit_drawn_there() {
    let mut state = loaded(Mode::PR, vec![staged("a.rs")]);
    update(
        &mut state,
        Action::CommitsLoaded {
            mode: Mode::PR,
            result: Ok((
                "main".to_string(),
                vec![
                    commit_row("aaaaaaa", "First"),
                    commit_row("bbbbbbb", "Second"),
                ],
            )),
        },
    );
    let files = PaneRects::compute(state.size, &state).list.unwrap();
    let effects = update(&mut state, click(files.x + 2, files.y + 2));
    assert_eq!(state.range.selected, 1);
    assert_eq!(
        effects,
        vec![Effect::LoadCommitDiff {
            id: "bbbbbbb0000000000".to_string()
        }]
    );
    assert_eq!(
        state.changes.selected, 0,
        "the hidden changed-file list is untouched"
    );
}

/// A draft of `text` with no earlier versions.
fn draft(text: impl Into<String>) -> Draft {
    Draft {
        text: text.into(),
        ..Draft::default()
    }
}

#[test]
fn withheld_secrets_are_counted_while_iris_works_and_told_when_she_is_done() {
    use iris_core::protocol::AgentEvent;
    use iris_core::secrets::{Finding, Location};
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    let finding = |line| Finding {
        rule: "aws-access-key",
        location: Some(Location {
            path: ".env".to_string(),
            line,
        }),
        fingerprint: "aws-access-key:0123456789ab".to_string(),
    };
    for line in [1, 2] {
        update(
            &mut state,
            Action::Agent {
                task,
                event: AgentEvent::SecretWithheld(finding(line)),
            },
        );
    }
    assert_eq!(
        state.task.as_ref().map(|t| t.progress.secrets_withheld),
        Some(2)
    );
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "a secret was withheld from Iris: aws-access-key at .env:2 (sent as a marker)"
        )
    );
    generated(&mut state, task, "Add keys\n\nAdds the deployment keys.");
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "Iris wrote the commit; 2 secrets withheld from her (sent as markers)"
        )
    );
    // Without secrets, success as before.
    let task = start_generation(&mut state);
    generated(&mut state, task, "Add keys\n\nAdds the deployment keys.");
    assert_eq!(notice(&state).0, Level::Success);
}

#[test]
fn the_heat_margin_places_each_line_in_the_files_own_history() {
    use iris_studio::state::Heat;
    let times = [Some(100), None, Some(200), Some(160), Some(130), Some(101)];
    assert_eq!(
        Heat::of_times(&times),
        vec![
            Heat::Cold,
            Heat::Uncommitted,
            Heat::Hot,
            Heat::Warm,
            Heat::Cool,
            Heat::Cold
        ]
    );
    assert_eq!(Heat::of_times(&[None, None]), vec![Heat::Uncommitted; 2]);

    // The blame of a file the user has left changes nothing; the open file's lands, and
    // opening another file clears it.
    let mut state = State::new(Mode::Explore);
    state.explorer.open = Some("b.rs".into());
    let aged = |path: &str| Action::LinesAged {
        path: path.into(),
        result: Ok(vec![Some(1), Some(2)]),
    };
    update(&mut state, aged("a.rs"));
    assert_eq!(state.explorer.heat, None);
    update(&mut state, aged("b.rs"));
    assert_eq!(state.explorer.heat, Some(vec![Heat::Cold, Heat::Hot]));
    update(
        &mut state,
        Action::LinesAged {
            path: "b.rs".into(),
            result: Err("binary".into()),
        },
    );
    assert_eq!(
        state.explorer.heat, None,
        "a file git cannot blame has no margin"
    );
}

// ---------------------------------------------------------------------------------------------
// Explore: why these lines

const HEAD: &str = "0123456789abcdef0123456789abcdef01234567";

/// Explore with `src/lib.rs` (ten lines) open and the code focused.
fn explore_with_file() -> State {
    let mut state = loaded(Mode::Explore, vec![]);
    state.explorer.open = Some("src/lib.rs".into());
    let lines = (1..=10).map(|i| format!("fn f{i}() {{}}")).collect();
    update(
        &mut state,
        Action::FileOpened {
            path: "src/lib.rs".into(),
            result: Ok(OpenedFile {
                lines: Some(lines),
                history: vec![],
                digest: 7,
            }),
        },
    );
    state.focus = Pane::Code;
    state
}

fn blamed(short: &str) -> BlamedCommit {
    BlamedCommit {
        id: format!("{short}{}", "0".repeat(40 - short.len())),
        short_id: short.into(),
        author: "Ada".into(),
        time: 0,
        date: "2026-11-01".into(),
        summary: format!("commit {short}"),
        lines: 1,
    }
}

fn explained(start: usize, end: usize) -> Explained {
    Explained {
        path: "src/lib.rs".into(),
        start_line: start,
        end_line: end,
        explanation: "They were split out of main in bbbbbbb.".into(),
        commits: vec![blamed("aaaaaaa"), blamed("bbbbbbb"), blamed("ccccccc")],
        cited: vec!["bbbbbbb".into()],
    }
}

fn asked(start: usize, end: usize) -> LinesAsked {
    LinesAsked {
        path: "src/lib.rs".into(),
        start,
        end,
        working_copy: true,
    }
}

/// Moves the cursor to line `line` (1-based) and selects down to `end`.
fn select(state: &mut State, line: usize, end: usize) {
    command(state, Command::Top);
    for _ in 1..line {
        command(state, Command::Down);
    }
    command(state, Command::SelectLines);
    for _ in line..end {
        command(state, Command::Down);
    }
}

#[test]
fn selected_lines_are_asked_about_and_the_answer_is_kept_for_the_session() {
    let mut state = explore_with_file();
    select(&mut state, 3, 5);
    assert_eq!(state.explorer.selection(), Some((2, 4)));
    let effects = command(&mut state, Command::AskWhy);
    assert_eq!(
        effects,
        vec![Effect::ExplainLines {
            task: 1,
            asked: asked(3, 5)
        }]
    );
    assert_eq!(state.task.as_ref().map(|t| t.kind), Some(TaskKind::Why));
    assert!(
        state.explorer.anchor.is_none(),
        "the selection became the question"
    );
    assert!(state.visible_panes().contains(&Pane::Answer));
    assert!(PaneRects::compute(state.size, &state).answer.is_some());
    // Her words stream into the pane; the answer lands and is kept.
    update(
        &mut state,
        Action::Agent {
            task: 1,
            event: AgentEvent::TextDelta("They were".into()),
        },
    );
    assert_eq!(state.task.as_ref().unwrap().progress.streamed, "They were");
    update(
        &mut state,
        Action::LinesExplained {
            task: 1,
            result: Ok(explained(3, 5)),
        },
    );
    assert!(state.task.is_none());
    let why = state.explorer.why.as_ref().expect("the answer pane");
    assert_eq!(why.answer, Some(explained(3, 5)));
    assert_eq!(
        why.commit, 1,
        "the first cited commit is the one enter opens"
    );
    assert_eq!(notice(&state).0, Level::Success);

    // The same lines again: the answer at once, no request.
    select(&mut state, 3, 5);
    assert_eq!(command(&mut state, Command::AskWhy), vec![]);
    assert!(state.task.is_none());
    assert!(notice(&state).1.contains("earlier"));
    // Other lines, or the same after a commit moved HEAD, are a new question.
    select(&mut state, 3, 4);
    assert_eq!(
        command(&mut state, Command::AskWhy),
        vec![Effect::ExplainLines {
            task: 2,
            asked: asked(3, 4)
        }]
    );
    command(&mut state, Command::Back);
    let moved = Action::StatusLoaded(Ok(RepoSnapshot {
        branch: "main".into(),
        head: Some("f".repeat(40)),
        files: vec![],
    }));
    update(&mut state, moved);
    select(&mut state, 3, 5);
    assert_eq!(
        command(&mut state, Command::AskWhy),
        vec![Effect::ExplainLines {
            task: 3,
            asked: asked(3, 5)
        }]
    );
}

#[test]
fn without_a_selection_w_asks_about_the_cursor_line_and_needs_a_history() {
    let mut state = explore_with_file();
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::AskWhy),
        vec![Effect::ExplainLines {
            task: 1,
            asked: asked(2, 2)
        }]
    );
    let mut unborn = explore_with_file();
    unborn.head = None;
    assert_eq!(command(&mut unborn, Command::AskWhy), vec![]);
    assert!(notice(&unborn).1.contains("no history"));
    let mut nothing_open = loaded(Mode::Explore, vec![]);
    assert_eq!(command(&mut nothing_open, Command::AskWhy), vec![]);
    assert!(notice(&nothing_open).1.contains("open a file"));
    // Outside explore the keys say where they work.
    let mut commit = loaded(Mode::COMMIT, vec![]);
    assert_eq!(command(&mut commit, Command::SelectLines), vec![]);
    assert!(notice(&commit).1.contains("explore mode"));
}

#[test]
fn esc_cancels_a_question_closes_its_pane_and_drops_the_late_answer() {
    let mut state = explore_with_file();
    select(&mut state, 1, 2);
    command(&mut state, Command::AskWhy);
    assert_eq!(
        command(&mut state, Command::Back),
        vec![Effect::Cancel { task: 1 }]
    );
    assert!(state.explorer.why.is_none());
    assert!(!state.visible_panes().contains(&Pane::Answer));
    update(
        &mut state,
        Action::LinesExplained {
            task: 1,
            result: Ok(explained(1, 2)),
        },
    );
    assert!(state.explorer.why.is_none() && state.explorer.answers.is_empty());
    // A failed answer closes the pane and says why.
    command(&mut state, Command::AskWhy);
    update(
        &mut state,
        Action::LinesExplained {
            task: 2,
            result: Err("the provider said no".into()),
        },
    );
    assert!(state.explorer.why.is_none());
    assert_eq!(notice(&state), (Level::Error, "the provider said no"));
    // Esc clears a selection before it leaves the code.
    command(&mut state, Command::SelectLines);
    command(&mut state, Command::Back);
    assert_eq!((state.explorer.anchor, state.focus), (None, Pane::Code));
}

#[test]
fn n_and_p_pick_a_commit_of_the_answer_and_enter_shows_its_diff_in_place_of_the_code() {
    let mut state = explore_with_file();
    command(&mut state, Command::AskWhy);
    update(
        &mut state,
        Action::LinesExplained {
            task: 1,
            result: Ok(explained(1, 1)),
        },
    );
    // A click on a commit's row chooses it.
    let area = PaneRects::compute(state.size, &state).answer.unwrap();
    let rows = answer::rows(
        state.explorer.why.as_ref().unwrap(),
        "",
        usize::from(area.width - 2),
    );
    let row = answer::commit_row(&rows, 2).unwrap() as u16;
    update(&mut state, click(area.x + 3, area.y + 1 + row));
    assert_eq!(state.focus, Pane::Answer);
    assert_eq!(state.explorer.why.as_ref().unwrap().commit, 2);
    command(&mut state, Command::Back); // back out of the answer: it closes...
    command(&mut state, Command::AskWhy); // ...and comes back at once
    state.focus = Pane::Code;
    command(&mut state, Command::NextPane);
    assert_eq!(
        state.focus,
        Pane::Answer,
        "tab goes from the code to the answer"
    );
    let chosen = |state: &State| state.explorer.why.as_ref().unwrap().commit;
    command(&mut state, Command::NextHunk);
    command(&mut state, Command::NextHunk);
    assert_eq!(chosen(&state), 2, "no commit after the last");
    command(&mut state, Command::PrevHunk);
    assert_eq!(chosen(&state), 1);
    let id = blamed("bbbbbbb").id;
    assert_eq!(
        command(&mut state, Command::Select),
        vec![Effect::ShowCommit { id: id.clone() }]
    );
    assert_eq!(state.focus, Pane::Code);
    assert!(state.explorer.commit.as_ref().unwrap().view.loading);
    // Another commit's late diff is not this one.
    update(
        &mut state,
        Action::CommitShown {
            id: blamed("aaaaaaa").id,
            result: Ok(two_hunk_diff()),
        },
    );
    assert!(
        state
            .explorer
            .commit
            .as_ref()
            .unwrap()
            .view
            .files
            .is_empty()
    );
    update(
        &mut state,
        Action::CommitShown {
            id,
            result: Ok(two_hunk_diff()),
        },
    );
    let view = &state.explorer.commit.as_ref().unwrap().view;
    assert_eq!((view.loading, view.files.len()), (false, 1));
    command(&mut state, Command::Down);
    assert_eq!(state.explorer.commit.as_ref().unwrap().view.scroll, 1);
    assert_eq!(
        state.explorer.cursor, 0,
        "the code's cursor stays where it was"
    );
    // Esc: back to the code, then the pane closes from its own focus.
    command(&mut state, Command::Back);
    assert!(state.explorer.commit.is_none());
    state.focus = Pane::Answer;
    command(&mut state, Command::Back);
    assert!(state.explorer.why.is_none());
    assert_eq!(state.focus, Pane::Code);
    // An answer-less explore says what n and p are for.
    command(&mut state, Command::NextHunk);
    assert!(notice(&state).1.contains("n / p"));
}

#[test]
fn a_click_puts_the_cursor_on_a_line_and_a_drag_selects_lines() {
    let mut state = explore_with_file();
    // 120x40: the code pane starts at column 36, row 1; its first line is on row 2.
    update(&mut state, click(60, 4));
    assert_eq!((state.explorer.cursor, state.explorer.anchor), (2, None));
    update(
        &mut state,
        mouse(MouseEventKind::Drag(MouseButton::Left), 60, 7),
    );
    assert_eq!(state.explorer.selection(), Some((2, 5)));
    assert_eq!(state.explorer.anchor, Some(2));
    // Dragging below the file's end selects to its last line.
    update(
        &mut state,
        mouse(MouseEventKind::Drag(MouseButton::Left), 60, 25),
    );
    assert_eq!(state.explorer.selection(), Some((2, 9)));
    // A click clears it.
    update(&mut state, click(60, 3));
    assert_eq!(state.explorer.selection(), Some((1, 1)));
    assert_eq!(state.explorer.anchor, None);
}

#[test]
fn the_cursor_moves_through_the_code_and_the_view_follows_it() {
    let mut state = loaded(Mode::Explore, vec![]);
    state.explorer.open = Some("long.rs".into());
    update(
        &mut state,
        Action::FileOpened {
            path: "long.rs".into(),
            result: Ok(OpenedFile {
                lines: Some((0..200).map(|i| i.to_string()).collect()),
                history: vec![],
                digest: 1,
            }),
        },
    );
    state.focus = Pane::Code;
    command(&mut state, Command::PageDown);
    command(&mut state, Command::PageDown);
    assert_eq!(state.explorer.cursor, 40);
    // 40 rows: the code shows 28 lines, so the view has moved just enough.
    assert_eq!(state.explorer.scroll, 40 + 1 - 28);
    command(&mut state, Command::Bottom);
    assert_eq!(state.explorer.cursor, 199);
    command(&mut state, Command::Top);
    assert_eq!((state.explorer.cursor, state.explorer.scroll), (0, 0));
}

// ---------------------------------------------------------------------------------------------
// Explore: what the file is for

fn block(id: &str, label: &str, ranges: Vec<[usize; 2]>) -> ResponsibilityBlock {
    ResponsibilityBlock {
        id: id.into(),
        label: label.into(),
        description: format!("What {label} does."),
        elements: BlockElements {
            functions: vec!["f1".into()],
            ..BlockElements::default()
        },
        ranges,
    }
}

fn file_intent() -> FileIntent {
    FileIntent {
        path: "src/lib.rs".into(),
        intent: "Ten small functions for the examples.".into(),
        blocks: vec![
            block("first-half", "First half", vec![[1, 5]]),
            block("second-half", "Second half", vec![[6, 8], [10, 10]]),
        ],
        metadata: IntentMetadata {
            tool_reads: vec![],
            tool_call_count: 0,
            execution_path: ExecutionPath::FastPath,
        },
    }
}

#[test]
fn i_lists_the_blocks_and_choosing_one_brings_its_lines_into_view() {
    let mut state = explore_with_file();
    assert_eq!(
        command(&mut state, Command::FileIntent),
        vec![Effect::ExplainFile {
            task: 1,
            path: "src/lib.rs".into()
        }]
    );
    assert_eq!(state.task.as_ref().map(|t| t.kind), Some(TaskKind::Intent));
    assert!(state.visible_panes().contains(&Pane::Blocks));
    update(
        &mut state,
        Action::FileExplained {
            task: 1,
            result: Ok(file_intent()),
        },
    );
    assert_eq!(state.focus, Pane::Blocks);
    assert_eq!(notice(&state).0, Level::Success);
    assert_eq!(state.explorer.block_ranges(), vec![(0, 4)]);
    command(&mut state, Command::Down);
    assert_eq!(state.explorer.block_ranges(), vec![(5, 7), (9, 9)]);
    assert_eq!(state.explorer.cursor, 5, "the block's first line");
    // A click on a block's row chooses it.
    let area = PaneRects::compute(state.size, &state).blocks.unwrap();
    let view = state.explorer.intent.clone().unwrap();
    let rows = blocks::rows(&view, usize::from(area.width - 2));
    let row = blocks::block_row(&rows, 0).unwrap() as u16;
    update(&mut state, click(area.x + 3, area.y + 1 + row));
    assert_eq!(state.explorer.block_ranges(), vec![(0, 4)]);
    command(&mut state, Command::Down);
    command(&mut state, Command::Down);
    assert_eq!(
        state.explorer.intent.as_ref().unwrap().block,
        1,
        "no block after the last"
    );
    command(&mut state, Command::Select);
    assert_eq!(state.focus, Pane::Code);
    // Asked again while shown: the pane takes the focus, nothing is sent.
    assert_eq!(command(&mut state, Command::FileIntent), vec![]);
    assert_eq!(state.focus, Pane::Blocks);
    // Closed with esc, then asked again: at once, from the session's answers.
    command(&mut state, Command::Back);
    assert!(state.explorer.intent.is_none());
    assert_eq!(state.focus, Pane::Code);
    assert_eq!(command(&mut state, Command::FileIntent), vec![]);
    assert!(state.explorer.intent.as_ref().unwrap().intent.is_some());
    assert!(notice(&state).1.contains("earlier"));
    // With an answer about lines too: the blocks above, the answer below, beside the code.
    command(&mut state, Command::AskWhy);
    let rects = PaneRects::compute(state.size, &state);
    let (blocks, answer) = (rects.blocks.unwrap(), rects.answer.unwrap());
    assert_eq!((blocks.x, blocks.y + blocks.height), (answer.x, answer.y));
    assert!(blocks.x > rects.view.unwrap().x);
}

#[test]
fn blocks_are_about_their_file_and_esc_cancels_a_reading() {
    let mut state = explore_with_file();
    command(&mut state, Command::FileIntent);
    assert_eq!(
        command(&mut state, Command::Back),
        vec![Effect::Cancel { task: 1 }]
    );
    assert!(state.explorer.intent.is_none());
    update(
        &mut state,
        Action::FileExplained {
            task: 1,
            result: Ok(file_intent()),
        },
    );
    assert!(state.explorer.intent.is_none() && state.explorer.intents.is_empty());
    // A failure closes the pane and says why.
    command(&mut state, Command::FileIntent);
    update(
        &mut state,
        Action::FileExplained {
            task: 2,
            result: Err("no valid answer".into()),
        },
    );
    assert!(state.explorer.intent.is_none());
    assert_eq!(notice(&state), (Level::Error, "no valid answer"));
    // Edited text: the blocks no longer light its lines.
    command(&mut state, Command::FileIntent);
    update(
        &mut state,
        Action::FileExplained {
            task: 3,
            result: Ok(file_intent()),
        },
    );
    assert!(!state.explorer.block_ranges().is_empty());
    state.explorer.digest = 8;
    assert!(state.explorer.block_ranges().is_empty());
}

// ---------------------------------------------------------------------------------------------
// A developer's habits: zoom, side by side, the user's own editor

#[test]
fn zoom_gives_the_focused_pane_the_body_and_follows_the_focus() {
    let mut state = with_diff(Mode::COMMIT);
    state.size = (160, 45);
    state.focus = Pane::Diff;
    let tiled = PaneRects::compute(state.size, &state);
    assert_eq!(tiled.view.unwrap().width, 60, "38% of 160 columns");
    command(&mut state, Command::Zoom);
    let zoomed = PaneRects::compute(state.size, &state);
    assert_eq!(zoomed.view, Some(ratatui::layout::Rect::new(0, 1, 160, 43)));
    assert_eq!((zoomed.list, zoomed.editor), (None, None));
    // Tab moves the focus, and the zoom with it.
    command(&mut state, Command::NextPane);
    let zoomed = PaneRects::compute(state.size, &state);
    assert_eq!(state.focus, Pane::Editor);
    assert_eq!(
        zoomed.editor,
        Some(ratatui::layout::Rect::new(0, 1, 160, 43))
    );
    assert_eq!(zoomed.view, None);
    // A click lands on the zoomed pane.
    update(&mut state, click(100, 20));
    assert_eq!(state.focus, Pane::Editor);
    command(&mut state, Command::Zoom);
    assert_eq!(PaneRects::compute(state.size, &state), tiled);
}

#[test]
fn zoomed_chat_keeps_the_conversation_above_its_input() {
    let mut state = with_message("Add one");
    command(&mut state, Command::OpenChat);
    assert_eq!(state.focus, Pane::ChatInput);
    command(&mut state, Command::Zoom);
    let rects = PaneRects::compute(state.size, &state);
    let (log, input) = (rects.chat_log.unwrap(), rects.chat_input.unwrap());
    assert_eq!((log.y, log.width), (1, state.size.0));
    assert_eq!(input.y + input.height, state.size.1 - 1);
    assert_eq!(rects.editor, None);
}

#[test]
fn side_by_side_lays_the_diff_out_in_pairs_where_the_pane_is_wide_enough() {
    let mut state = with_diff(Mode::COMMIT);
    state.size = (160, 45);
    state.focus = Pane::Diff;
    command(&mut state, Command::SideBySide);
    // 59 columns inside the diff pane: too narrow, so it stays unified and says so.
    assert!(state.side_by_side && !state.diff.split);
    assert!(
        notice(&state).1.contains("zoom it (z)"),
        "{:?}",
        state.notice
    );
    assert_eq!(state.diff.line_count(), 10);
    // Zoomed, it has the width: the changed line of hunk two pairs with its new text.
    state.diff.scroll = 9; // "fn twelve() {}", the last line of hunk two
    command(&mut state, Command::Zoom);
    assert!(state.diff.split);
    assert_eq!(state.diff.line_count(), 9);
    assert_eq!(state.diff.hunk_starts(), vec![1, 5]);
    assert_eq!(state.diff.scroll, 8, "the top line stays in view");
    // The removed line and its new text share row 7.
    assert_eq!(state.diff.new_line_at(7), Some(("src/lib.rs", 2)));
    // Hunks are still found and staged by their place in the split rows.
    state.diff.scroll = 0;
    command(&mut state, Command::NextHunk);
    command(&mut state, Command::NextHunk);
    assert_eq!(state.diff.scroll, 5);
    assert_eq!(
        command(&mut state, Command::StageHunk),
        vec![Effect::StageHunk {
            path: "src/lib.rs".into(),
            hunk: 1
        }]
    );
    command(&mut state, Command::Zoom);
    assert!(!state.diff.split);
    assert_eq!(
        state.diff.scroll, 5,
        "hunk two's header is row 5 either way"
    );
    command(&mut state, Command::SideBySide);
    assert_eq!(notice(&state).1, "diffs unified");
}

#[test]
fn e_opens_the_artifact_in_the_users_editor_and_its_text_comes_back_as_a_version() {
    let mut state = with_message("Add one");
    state.focus = Pane::Editor;
    assert_eq!(
        command(&mut state, Command::EditExternal),
        vec![Effect::EditExternally(EditTarget::Artifact {
            kind: ArtifactKind::Commit,
            text: "Add one".into()
        })]
    );
    let effects = update(
        &mut state,
        Action::ArtifactEdited {
            kind: ArtifactKind::Commit,
            result: Ok("Add one and two\n\nBody.\n".into()),
        },
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add one and two\n\nBody.");
    assert!(
        matches!(effects.as_slice(), [Effect::SaveDraft { draft, .. }] if draft.text == "Add one and two\n\nBody.")
    );
    assert_eq!(notice(&state).0, Level::Success);
    // Undo steps back over the editor's text.
    command(&mut state, Command::UndoVersion);
    assert_eq!(text(&state, Mode::COMMIT), "Add one");
    // An editor that failed, or changed nothing, leaves the text alone.
    let failed = update(
        &mut state,
        Action::ArtifactEdited {
            kind: ArtifactKind::Commit,
            result: Err("`vim` exited with exit status: 1".into()),
        },
    );
    assert!(failed.is_empty());
    assert_eq!(text(&state, Mode::COMMIT), "Add one");
    assert_eq!(notice(&state).0, Level::Error);
    update(
        &mut state,
        Action::ArtifactEdited {
            kind: ArtifactKind::Commit,
            result: Ok("Add one\n".into()),
        },
    );
    assert_eq!(notice(&state).1, "no change from the editor");
}

#[test]
fn e_is_refused_while_iris_writes_the_artifact() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.focus = Pane::Editor;
    start_generation(&mut state);
    assert!(command(&mut state, Command::EditExternal).is_empty());
    assert!(
        notice(&state).1.starts_with("Iris is writing the commit"),
        "{:?}",
        state.notice
    );
}

#[test]
fn e_on_the_diff_opens_its_file_at_the_line_in_view() {
    let mut state = with_diff(Mode::COMMIT);
    state.focus = Pane::Diff;
    state.diff.scroll = 7; // the added line of hunk two: new line 2 of a hunk starting at 1
    let file = |line| {
        vec![Effect::EditExternally(EditTarget::File {
            path: "src/lib.rs".into(),
            line,
        })]
    };
    assert_eq!(command(&mut state, Command::EditExternal), file(2));
    state.diff.scroll = 0;
    assert_eq!(command(&mut state, Command::EditExternal), file(1));
    // The file is read again once the editor closes.
    let effects = update(
        &mut state,
        Action::FileEdited {
            path: "src/lib.rs".into(),
            result: Ok(()),
        },
    );
    assert_eq!(effects, vec![Effect::LoadStatus]);
}

#[test]
fn e_in_explore_opens_the_file_at_the_cursor_and_reopens_it_after() {
    let mut state = explore_with_file();
    command(&mut state, Command::Down);
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::EditExternal),
        vec![Effect::EditExternally(EditTarget::File {
            path: "src/lib.rs".into(),
            line: 3
        })]
    );
    let effects = update(
        &mut state,
        Action::FileEdited {
            path: "src/lib.rs".into(),
            result: Ok(()),
        },
    );
    assert_eq!(
        effects,
        vec![
            Effect::LoadStatus,
            Effect::OpenFile {
                path: "src/lib.rs".into()
            }
        ]
    );
    // On the tree, a directory does not open.
    state.explorer.files = vec!["src/lib.rs".into()];
    state.focus = Pane::Tree;
    state.explorer.selected = 0;
    assert!(command(&mut state, Command::EditExternal).is_empty());
    assert!(
        notice(&state).1.contains("a directory"),
        "{:?}",
        state.notice
    );
}

// ---------------------------------------------------------------------------------------------
// Setup, the clipboard, publishing

fn ollama(models: &[&str]) -> LocalServer {
    LocalServer {
        label: "Ollama",
        provider: ProviderKind::Ollama,
        base_url: "http://127.0.0.1:11434".into(),
        models: models.iter().map(|m| m.to_string()).collect(),
    }
}

fn key(state: &mut State, code: KeyCode) -> Vec<Effect> {
    update(state, press(code))
}

/// A first run: no provider, one file staged, setup open and its servers found.
fn first_run(servers: Vec<LocalServer>) -> State {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.auto_generate = true;
    state.ai_unavailable = Some("Iris is not configured".into());
    state.setup_facts.file = Some("~/.config/iris/config.toml".into());
    assert_eq!(
        command(&mut state, Command::Setup),
        vec![Effect::ProbeServers]
    );
    update(&mut state, Action::ServersFound(servers));
    state
}

#[test]
fn setup_picks_a_local_model_writes_it_after_yes_and_iris_starts_on_the_artifact() {
    let mut state = first_run(vec![ollama(&["llama3.1:8b", "qwen2.5-coder"])]);
    let setup = state.setup.as_ref().unwrap();
    assert_eq!(
        setup.options().len(),
        2 + 3,
        "two local models, three hosted providers"
    );
    // Commands are the overlay's keys now: 2 does not switch modes.
    command(&mut state, Command::ModeExplore);
    assert_eq!(state.mode, Mode::COMMIT);
    key(&mut state, KeyCode::Char('j'));
    assert!(key(&mut state, KeyCode::Enter).is_empty());
    let choice = Choice {
        provider: ProviderKind::Ollama,
        model: "qwen2.5-coder".into(),
        base_url: Some("http://127.0.0.1:11434".into()),
        api_key: None,
    };
    assert_eq!(
        state.setup.as_ref().unwrap().step,
        SetupStep::Confirm(choice.clone())
    );
    // n goes back, nothing written; enter and y write.
    assert!(key(&mut state, KeyCode::Char('n')).is_empty());
    assert_eq!(notice(&state).1, "nothing written");
    key(&mut state, KeyCode::Enter);
    assert_eq!(
        key(&mut state, KeyCode::Char('y')),
        vec![Effect::WriteSetup {
            choice: choice.clone()
        }]
    );
    // A failed write keeps the choice on screen.
    update(&mut state, Action::SetupWritten(Err("disk full".into())));
    assert_eq!(
        state.setup.as_ref().unwrap().step,
        SetupStep::Confirm(choice)
    );
    assert_eq!(notice(&state), (Level::Error, "setup failed: disk full"));
    key(&mut state, KeyCode::Char('y'));
    let effects = update(
        &mut state,
        Action::SetupWritten(Ok("Iris is set up: ollama · qwen2.5-coder".into())),
    );
    assert!(state.setup.is_none() && state.ai_unavailable.is_none());
    assert_eq!(notice(&state).0, Level::Success);
    assert!(matches!(
        effects.as_slice(),
        [
            Effect::LoadStatus,
            Effect::Generate {
                kind: ArtifactKind::Commit,
                ..
            }
        ]
    ));
}

#[test]
fn setup_takes_a_hosted_key_masked_or_keeps_one_in_the_environment() {
    let mut state = first_run(vec![]);
    // Nothing local: the hosted providers are the options.
    key(&mut state, KeyCode::Char('j'));
    key(&mut state, KeyCode::Enter);
    assert_eq!(
        state.setup.as_ref().unwrap().step,
        SetupStep::Key {
            provider: ProviderKind::Anthropic,
            typed: String::new()
        }
    );
    // Enter with nothing typed and no key in the environment asks for one.
    key(&mut state, KeyCode::Enter);
    assert!(notice(&state).1.starts_with("type the key"));
    for c in "sk-ant-x1".chars() {
        key(&mut state, KeyCode::Char(c));
    }
    key(&mut state, KeyCode::Backspace);
    key(&mut state, KeyCode::Char('2'));
    key(&mut state, KeyCode::Enter);
    let SetupStep::Confirm(choice) = state.setup.as_ref().unwrap().step.clone() else {
        panic!("not confirming: {:?}", state.setup);
    };
    assert_eq!(choice.api_key.as_deref(), Some("sk-ant-x2"));
    assert_eq!(choice.model, ProviderKind::Anthropic.default_model());
    assert!(choice.lines().iter().all(|l| !l.contains("sk-ant")));
    // esc from the confirmation goes back to the list; a key in the environment stays there.
    key(&mut state, KeyCode::Esc);
    state.setup_facts.env_keys = vec![(ProviderKind::OpenAi, "OPENAI_API_KEY")];
    key(&mut state, KeyCode::Char('k'));
    key(&mut state, KeyCode::Enter);
    key(&mut state, KeyCode::Enter);
    let SetupStep::Confirm(choice) = state.setup.as_ref().unwrap().step.clone() else {
        panic!("not confirming: {:?}", state.setup);
    };
    assert_eq!(
        (choice.provider, choice.api_key),
        (ProviderKind::OpenAi, None)
    );
    // esc twice: back to the list, then setup closes and says how to open it again.
    key(&mut state, KeyCode::Esc);
    key(&mut state, KeyCode::Esc);
    assert!(state.setup.is_none());
    assert!(notice(&state).1.contains("I opens setup again"));
    assert!(state.ai_unavailable.is_some());
}

#[test]
fn ctrl_c_quits_from_setup_and_the_mouse_does_nothing_under_it() {
    let mut state = first_run(vec![ollama(&["llama3.1"])]);
    let before = state.focus;
    // A click on the editor, which has no focus, changes nothing under setup.
    let rects = PaneRects::compute(state.size, &state);
    let editor = rects.editor.expect("the editor is on screen");
    assert_ne!(before, Pane::Editor);
    update(&mut state, click(editor.x + 2, editor.y + 2));
    assert_eq!(state.focus, before);
    update(
        &mut state,
        press_with(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    assert!(state.quit);
}

#[test]
fn y_copies_the_artifact_or_explores_selected_lines() {
    let mut state = with_message("Add one\n\nBody");
    assert_eq!(
        command(&mut state, Command::Copy),
        vec![Effect::CopyToClipboard {
            text: "Add one\n\nBody".into(),
            what: "commit".into()
        }]
    );
    update(
        &mut state,
        Action::Copied(Ok(
            "copied the commit (13 characters) through the terminal".into()
        )),
    );
    assert_eq!(notice(&state).0, Level::Success);
    let mut state = explore_with_file();
    command(&mut state, Command::Down);
    command(&mut state, Command::SelectLines);
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::Copy),
        vec![Effect::CopyToClipboard {
            text: "fn f2() {}\nfn f3() {}".into(),
            what: "src/lib.rs:2-3".into()
        }]
    );
    let mut empty = loaded(Mode::COMMIT, vec![]);
    assert!(command(&mut empty, Command::Copy).is_empty());
    assert_eq!(notice(&empty).1, "nothing to copy yet");
}

#[test]
fn p_publishes_the_pr_or_posts_the_review_after_asking() {
    let mut state = with_message("Add one");
    assert!(command(&mut state, Command::Publish).is_empty());
    assert!(notice(&state).1.contains("PR (4)"), "{:?}", state.notice);
    command(&mut state, Command::ModePr);
    state.range.from = Some("origin/main".into());
    // Nothing written yet: nothing to publish.
    command(&mut state, Command::Publish);
    assert!(state.confirm.is_none());
    state
        .artifacts
        .get_mut(&ArtifactKind::Pr)
        .unwrap()
        .replace("# Add one\n\n## Summary\n\nAdds one.");
    command(&mut state, Command::Publish);
    assert_eq!(state.confirm, Some(Confirm::Publish));
    assert!(key(&mut state, KeyCode::Char('n')).is_empty());
    command(&mut state, Command::Publish);
    assert_eq!(
        key(&mut state, KeyCode::Char('y')),
        vec![Effect::Publish {
            kind: ArtifactKind::Pr,
            text: "# Add one\n\n## Summary\n\nAdds one.".into(),
            base: Some("origin/main".into())
        }]
    );
    update(
        &mut state,
        Action::Published(Err("gh is not installed".into())),
    );
    assert_eq!(notice(&state), (Level::Error, "gh is not installed"));
    // The review is posted as it is, with no base.
    command(&mut state, Command::ModeReview);
    state
        .artifacts
        .get_mut(&ArtifactKind::Review)
        .unwrap()
        .replace("## Findings\n\nNone.");
    command(&mut state, Command::Publish);
    assert!(matches!(
        key(&mut state, KeyCode::Enter).as_slice(),
        [Effect::Publish {
            kind: ArtifactKind::Review,
            base: None,
            ..
        }]
    ));
}

#[test]
fn unreadable_commit_rules_are_a_warning_and_readable_ones_are_kept() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    update(
        &mut state,
        Action::RulesLoaded(Err(
            "cannot read the commit rules in .commitlintrc.json: expected value at line 1".into(),
        )),
    );
    assert_eq!(notice(&state).0, Level::Warning);
    assert!(state.commit_rules.is_none());
    let rules = iris_core::commit_rules::parse(
        ".commitlintrc.json",
        r#"{"rules": {"header-max-length": [2, "always", 50]}}"#,
    )
    .unwrap();
    update(
        &mut state,
        Action::RulesLoaded(Ok(Some(Box::new(rules.clone())))),
    );
    assert_eq!(state.commit_rules, Some(rules));
}

#[test]
fn a_warning_from_iris_is_a_warning_notice() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    update(
        &mut state,
        Action::Agent {
            task,
            event: AgentEvent::Warning("cannot read the commit rules in .commitlintrc.json".into()),
        },
    );
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "cannot read the commit rules in .commitlintrc.json"
        )
    );
}

#[test]
fn e_on_a_diff_still_loading_opens_its_file_from_the_top() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.focus = Pane::Diff;
    assert!(state.diff.loading && state.diff.files.is_empty());
    assert_eq!(
        command(&mut state, Command::EditExternal),
        vec![Effect::EditExternally(EditTarget::File {
            path: "src/lib.rs".into(),
            line: 1
        })]
    );
    let mut empty = loaded(Mode::COMMIT, vec![]);
    empty.focus = Pane::Diff;
    assert!(command(&mut empty, Command::EditExternal).is_empty());
    assert_eq!(notice(&empty).1, "select a changed file first");
}

/// `a` on a message: the Alternatives effect's task id.
fn ask_alternatives(state: &mut State) -> u64 {
    match command(state, Command::Alternatives).as_slice() {
        [Effect::Alternatives { task, kind, count }] => {
            assert_eq!((*kind, *count), (ArtifactKind::Commit, 3));
            *task
        }
        other => panic!("expected one Alternatives effect, got {other:?}"),
    }
}

fn alternatives_written(
    state: &mut State,
    task: u64,
    result: Result<Vec<&str>, &str>,
) -> Vec<Effect> {
    let result = result
        .map(|texts| texts.into_iter().map(str::to_string).collect())
        .map_err(str::to_string);
    update(
        state,
        Action::AlternativesWritten {
            task,
            kind: ArtifactKind::Commit,
            result,
        },
    )
}

#[test]
fn alternatives_are_shown_beside_the_message_and_the_one_picked_becomes_a_version() {
    let mut state = with_message("Add two()");
    let task = ask_alternatives(&mut state);
    assert!(matches!(
        state.task,
        Some(Task {
            kind: TaskKind::Alternatives,
            ..
        })
    ));
    // Iris wrote three; one is the message already in the editor.
    alternatives_written(
        &mut state,
        task,
        Ok(vec![
            "Add a second function",
            "Add two()",
            "Offer two() next to one()",
        ]),
    );
    assert!(state.task.is_none());
    let shown = state.alternatives.as_ref().expect("the versions are shown");
    let texts: Vec<(&str, bool)> = shown
        .versions
        .iter()
        .map(|v| (v.text.as_str(), v.current))
        .collect();
    assert_eq!(
        texts,
        vec![
            ("Add two()", true),
            ("Add a second function", false),
            ("Offer two() next to one()", false)
        ]
    );
    assert!(
        notice(&state).1.starts_with("3 versions side by side"),
        "{:?}",
        notice(&state)
    );
    // Every key goes to the versions: `c` types nothing into the focused editor, the arrows
    // move the highlight.
    state.focus = Pane::Editor;
    update(&mut state, press(KeyCode::Char('c')));
    assert!(state.confirm.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
    assert!(command(&mut state, Command::Commit).is_empty());
    update(&mut state, press(KeyCode::Right));
    update(&mut state, press(KeyCode::Right));
    update(&mut state, press(KeyCode::Right));
    assert_eq!(
        state.alternatives.as_ref().map(|a| a.selected),
        Some(0),
        "round"
    );
    update(&mut state, press(KeyCode::Left));
    assert_eq!(state.alternatives.as_ref().map(|a| a.selected), Some(2));
    // `2` picks the first alternative: the newest version, saved, and undo steps back.
    let effects = update(&mut state, press(KeyCode::Char('2')));
    assert!(state.alternatives.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Add a second function");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::SaveDraft { .. })),
        "{effects:?}"
    );
    assert_eq!(
        notice(&state),
        (Level::Success, "picked version 2 (undo steps back)")
    );
    command(&mut state, Command::UndoVersion);
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
}

#[test]
fn esc_or_the_current_version_keeps_the_message() {
    let mut state = with_message("Add two()");
    let task = ask_alternatives(&mut state);
    alternatives_written(&mut state, task, Ok(vec!["Add a second function"]));
    update(&mut state, press(KeyCode::Esc));
    assert!(state.alternatives.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
    assert_eq!(notice(&state), (Level::Info, "kept the current message"));

    let task = ask_alternatives(&mut state);
    alternatives_written(&mut state, task, Ok(vec!["Add a second function"]));
    update(&mut state, press(KeyCode::Enter));
    assert_eq!(
        text(&state, Mode::COMMIT),
        "Add two()",
        "enter on the current one"
    );
}

#[test]
fn alternatives_need_a_staged_change_the_commit_mode_and_something_new() {
    let mut explore = loaded(Mode::Explore, vec![staged("src/lib.rs")]);
    assert!(command(&mut explore, Command::Alternatives).is_empty());
    assert_eq!(
        notice(&explore),
        (
            Level::Info,
            "alternatives are written for the commit message (2)"
        )
    );
    let mut nothing = loaded(Mode::COMMIT, vec![unstaged("src/lib.rs")]);
    assert!(command(&mut nothing, Command::Alternatives).is_empty());
    assert_eq!(notice(&nothing).0, Level::Warning);

    let mut state = with_message("Add two()");
    let task = ask_alternatives(&mut state);
    alternatives_written(&mut state, task, Ok(vec!["Add two()"]));
    assert!(state.alternatives.is_none());
    assert_eq!(
        notice(&state),
        (
            Level::Info,
            "Iris wrote nothing different from the current message"
        )
    );
    let task = ask_alternatives(&mut state);
    alternatives_written(&mut state, task, Err("openai: 500 the server failed"));
    assert!(state.alternatives.is_none() && state.task.is_none());
    assert_eq!(
        notice(&state),
        (Level::Error, "openai: 500 the server failed")
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
}

/// A review whose second finding is a hunch (40%), in review mode with src/a.rs changed.
fn review_with_a_hunch() -> State {
    let mut state = loaded(Mode::REVIEW, vec![staged("src/a.rs")]);
    let task = start_generation(&mut state);
    generated(
        &mut state,
        task,
        "# Code review\n\n## High (2)\n\n### Sure (`src/a.rs:3`) · 95%\n\nBody.\n\n\
         ### Hunch (`src/a.rs:9`) · 40%\n\nBody.\n\n## Low (1)\n\n### Naming (`src/a.rs:12`)\n\nBody.\n",
    );
    state
}

#[test]
fn findings_under_the_threshold_are_folded_and_f_shows_them() {
    use iris_studio::findings::shown_findings;
    let mut state = review_with_a_hunch();
    let titles = |state: &State| -> Vec<String> {
        shown_findings(state)
            .0
            .into_iter()
            .map(|r| r.title)
            .collect()
    };
    assert_eq!(titles(&state), ["Sure", "Naming"]);
    assert_eq!(shown_findings(&state).1, 1);
    // The list moves over what it shows: the second row is Naming, not the hunch.
    state.focus = Pane::Findings;
    command(&mut state, Command::Down);
    command(&mut state, Command::Down);
    assert_eq!(state.finding, 1);
    command(&mut state, Command::Select);
    assert_eq!(state.pending_jump, Some(("src/a.rs".to_string(), 12)));

    command(&mut state, Command::ShowUnsure);
    assert_eq!(titles(&state), ["Sure", "Hunch", "Naming"]);
    // The selection stays on Naming, now the third row.
    assert_eq!(state.finding, 2);
    assert_eq!(
        notice(&state),
        (
            Level::Info,
            "showing the findings under 70% confidence too (f folds them)"
        )
    );
    command(&mut state, Command::ShowUnsure);
    assert_eq!(titles(&state), ["Sure", "Naming"]);
    // The text itself keeps every finding.
    assert!(text(&state, Mode::REVIEW).contains("### Hunch"));

    // A lower threshold folds nothing; f means nothing outside review mode.
    state.review_min_confidence = 30;
    assert_eq!(titles(&state), ["Sure", "Hunch", "Naming"]);
    let mut commit = loaded(Mode::COMMIT, vec![staged("src/a.rs")]);
    command(&mut commit, Command::ShowUnsure);
    assert_eq!(
        notice(&commit),
        (
            Level::Info,
            "less certain findings are folded in review mode (3)"
        )
    );
}

#[test]
fn a_warning_during_a_generation_stays_in_the_notice_it_ends_with() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    for text in ["first problem", "the template was filled from the fields"] {
        let event = AgentEvent::Warning(text.to_string());
        update(&mut state, Action::Agent { task, event });
    }
    generated(&mut state, task, "Add two()");
    let (level, text) = notice(&state);
    assert_eq!(level, Level::Warning);
    assert!(text.starts_with("Iris wrote the"), "{text}");
    assert!(
        text.ends_with("; warning: the template was filled from the fields (and 1 more)"),
        "{text}"
    );
}

#[test]
fn a_review_is_posted_as_the_list_shows_it() {
    let mut state = review_with_a_hunch();
    command(&mut state, Command::Publish);
    let effects = update(&mut state, press(KeyCode::Char('y')));
    let posted = match effects.as_slice() {
        [Effect::Publish { text, .. }] => text.clone(),
        other => panic!("expected Publish, got {other:?}"),
    };
    assert!(!posted.contains("Hunch"), "{posted}");
    assert!(posted.contains("## High (1)\n\n### Sure"), "{posted}");
    assert!(posted.ends_with("_1 less certain finding (under 70% confidence) left out._\n"));
    // Shown, every finding goes out as written.
    command(&mut state, Command::ShowUnsure);
    command(&mut state, Command::Publish);
    let effects = update(&mut state, press(KeyCode::Char('y')));
    assert!(matches!(effects.as_slice(), [Effect::Publish { text, .. }] if text.contains("Hunch")));
}

#[test]
fn ctrl_c_quits_from_the_versions_and_a_run_s_warning_is_kept_when_nothing_is_new() {
    let mut state = with_message("Add two()");
    let task = ask_alternatives(&mut state);
    let event = AgentEvent::Warning("a candidate failed: 500".to_string());
    update(&mut state, Action::Agent { task, event });
    alternatives_written(&mut state, task, Ok(vec!["Add two()"]));
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "Iris wrote nothing different from the current message; warning: a candidate \
             failed: 500"
        )
    );

    let task = ask_alternatives(&mut state);
    alternatives_written(&mut state, task, Ok(vec!["Add a second function"]));
    assert!(state.alternatives.is_some());
    update(
        &mut state,
        press_with(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    assert!(state.alternatives.is_none());
    assert!(state.quit || state.confirm == Some(Confirm::Quit));
}
