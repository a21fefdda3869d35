//! What the tests share: states to start from (a status loaded, a diff, a message Iris
//! wrote, a file open in explore), the keys and clicks that drive them, and what they read back.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use iris_studio_core::change::{ChangeKind, DiffLine, FileDiff, Hunk, LineKind};
use iris_studio_tui::action::{Action, OpenedFile, RepoSnapshot};
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::features::msgs::{
    ChangesFx, ChangesMsg, DiffMsg, ExploreMsg, GenerateFx, GenerateMsg,
};
use iris_studio_tui::state::{FileEntry, Level, Mode, Pane, State};
use iris_studio_tui::update::update;

pub fn file(path: &str, staged: Option<ChangeKind>, unstaged: Option<ChangeKind>) -> FileEntry {
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

pub fn staged(path: &str) -> FileEntry {
    file(path, Some(ChangeKind::Modified), None)
}

pub fn unstaged(path: &str) -> FileEntry {
    file(path, None, Some(ChangeKind::Modified))
}

const HEAD: &str = "0123456789abcdef0123456789abcdef01234567";

/// The staged change [`status`] reports, as drafts are keyed by it.
pub const STAGED: &str = "staged change 1";

pub fn status(files: Vec<FileEntry>) -> Action {
    status_of(files, STAGED)
}

/// The status with `files`, the staged change keyed `key` (what drafts are written for).
pub fn status_of(files: Vec<FileEntry>, key: &str) -> Action {
    Action::Changes(ChangesMsg::Status(Ok(RepoSnapshot {
        branch: "main".to_string(),
        head: Some(HEAD.to_string()),
        files,
        jj_change: None,
        change_key: Some(key.to_string()),
    })))
}

/// A state in `mode` whose status has arrived with `files` and whose first diff is requested.
/// Auto-generation is off unless a test turns it on, so it never starts a task by surprise.
pub fn loaded(mode: Mode, files: Vec<FileEntry>) -> State {
    let mut state = State::new(mode);
    state.iris.auto_generate = false;
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
pub fn two_hunk_diff() -> Vec<FileDiff> {
    vec![FileDiff {
        path: "src/lib.rs".to_string(),
        old_path: None,
        kind: ChangeKind::Modified,
        binary: false,
        large: None,
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
pub fn with_diff(mode: Mode) -> State {
    let mut state = loaded(mode, vec![staged("src/lib.rs")]);
    update(
        &mut state,
        Action::Diff(DiffMsg::Loaded {
            path: "src/lib.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        }),
    );
    assert_eq!(state.diff.line_count(), 10);
    assert_eq!(state.diff.hunk_starts(), vec![1, 5]);
    state
}

pub fn press(code: KeyCode) -> Action {
    Action::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

pub fn press_with(code: KeyCode, modifiers: KeyModifiers) -> Action {
    Action::Key(KeyEvent::new(code, modifiers))
}

pub fn type_text(state: &mut State, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects = update(state, press(KeyCode::Char(c)));
    }
    effects
}

pub fn command(state: &mut State, command: Command) -> Vec<Effect> {
    update(state, Action::Command(command))
}

pub fn text(state: &State, mode: Mode) -> String {
    state.artifacts[&mode.artifact().unwrap()].text()
}

pub fn notice(state: &State) -> (Level, &str) {
    let notice = state.notice.as_ref().expect("a notice");
    (notice.level, notice.text.as_str())
}

/// Starts a generation in the current mode and returns its task id.
pub fn start_generation(state: &mut State) -> u64 {
    match command(state, Command::Generate).as_slice() {
        [Effect::Generate(GenerateFx::Generate { task, kind, .. })] => {
            assert_eq!(Some(*kind), state.mode.artifact());
            *task
        }
        other => panic!("expected one Generate effect, got {other:?}"),
    }
}

pub fn generated(state: &mut State, task: u64, text: &str) -> Vec<Effect> {
    let kind = state.mode.artifact().expect("a mode with an artifact");
    update(
        state,
        Action::Generate(GenerateMsg::Written {
            task,
            kind,
            result: Ok(text.to_string()),
        }),
    )
}

/// A commit-mode state with one staged file and a message Iris wrote.
pub fn with_message(message: &str) -> State {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    generated(&mut state, task, message);
    state
}

pub fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Action {
    Action::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

pub fn click(column: u16, row: u16) -> Action {
    mouse(MouseEventKind::Down(MouseButton::Left), column, row)
}

/// Explore with `src/lib.rs` (ten lines) open and the code focused.
pub fn explore_with_file() -> State {
    let mut state = loaded(Mode::Explore, vec![]);
    state.explore.open = Some("src/lib.rs".into());
    let lines = (1..=10).map(|i| format!("fn f{i}() {{}}")).collect();
    update(
        &mut state,
        Action::Explore(ExploreMsg::FileOpened {
            path: "src/lib.rs".into(),
            result: Ok(OpenedFile {
                lines: Some(lines),
                history: vec![],
                digest: 7,
            }),
        }),
    );
    state.focus = Pane::Code;
    state
}

pub fn key(state: &mut State, code: KeyCode) -> Vec<Effect> {
    update(state, press(code))
}

/// A review whose second finding is a hunch (40%), in review mode with src/a.rs changed.
pub fn review_with_a_hunch() -> State {
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

/// A commit of the range, its id the short one padded.
pub fn commit_row(short: &str, summary: &str) -> iris_studio_tui::state::CommitRow {
    iris_studio_tui::state::CommitRow {
        id: format!("{short}0000000000"),
        short_id: short.to_string(),
        summary: summary.to_string(),
        author: "Ada".to_string(),
        date: "2026-11-21".to_string(),
    }
}

/// A commit asked of git, as the reducer asks for one.
pub fn a_commit() -> ChangesFx {
    ChangesFx::Commit {
        message: "Add a".to_string(),
        written: None,
        flags: Default::default(),
    }
}

/// A generation started in `state` that ends in `failure`: the effects it leaves.
pub fn generation_failed(
    state: &mut State,
    failure: iris_studio_tui::failure::Failure,
) -> Vec<Effect> {
    let task = start_generation(state);
    update(
        state,
        Action::Generate(GenerateMsg::Written {
            task,
            kind: iris_studio_core::artifact::ArtifactKind::Commit,
            result: Err(failure),
        }),
    )
}
