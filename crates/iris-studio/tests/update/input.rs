//! `update::input`: keys no command claimed (the answer to a question, text for the focused
//! input), the mouse, and the terminal's resize and tick.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEventKind};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::features::msgs::{ChangesFx, DiffFx, ExploreMsg};
use iris_studio_tui::keymap::{KeyContext, Keymap};
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{CommitFlags, Confirm, FileEntry, Level, Mode, Pane, State};
use iris_studio_tui::update::update;

use super::support::{
    click, command, loaded, mouse, notice, press, staged, start_generation, text, unstaged,
    with_diff, with_message,
};

#[test]
fn keys_no_command_claims_do_nothing_in_the_file_list_and_the_diff() {
    // The printable keys the default keymap leaves free, routed as the studio routes a key
    // (a bound one would become its command, not reach the reducer as a key).
    let keymap = Keymap::default();
    let event = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    let free: Vec<char> = ('!'..='~')
        .filter(|c| keymap.lookup(KeyContext::Global, event(*c)).is_none())
        .collect();
    assert!(free.len() >= 5, "hardly a key is free: {free:?}");
    assert!(!free.contains(&'q') && !free.contains(&'s'), "{free:?}");
    for focus in [Pane::Changes, Pane::Diff] {
        let mut state = with_diff(Mode::COMMIT);
        state.focus = focus;
        let (selected, scroll) = (state.changes.selected, state.diff.scroll);
        for c in &free {
            assert_eq!(update(&mut state, Action::Key(event(*c))), vec![], "{c}");
            assert_eq!(state.notice, None, "{c} said something");
        }
        assert_eq!(text(&state, Mode::COMMIT), "");
        assert_eq!((state.focus, state.mode), (focus, Mode::COMMIT));
        assert_eq!(
            (state.changes.selected, state.diff.scroll),
            (selected, scroll)
        );
        assert!(state.chat.input.is_empty() && state.overlay.confirm.is_none());
    }
}

#[test]
fn confirm_commit_answered_no_cancels_and_yes_commits() {
    let mut state = with_message("Add two()");
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.overlay.confirm, Some(Confirm::Commit));
    // Any key but y / Y / enter is a no.
    assert_eq!(update(&mut state, press(KeyCode::Char('n'))), vec![]);
    assert_eq!(state.overlay.confirm, None);
    assert_eq!(notice(&state), (Level::Info, "cancelled"));

    command(&mut state, Command::Commit);
    assert_eq!(update(&mut state, press(KeyCode::Esc)), vec![]);
    assert_eq!(state.overlay.confirm, None);

    for yes in [KeyCode::Char('y'), KeyCode::Char('Y'), KeyCode::Enter] {
        command(&mut state, Command::Commit);
        assert_eq!(
            update(&mut state, press(yes)),
            vec![Effect::Changes(ChangesFx::Commit {
                message: "Add two()".to_string(),
                written: Some("Add two()".to_string()),
                flags: CommitFlags::default(),
            })],
            "{yes:?}"
        );
        assert_eq!(state.overlay.confirm, None);
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
    assert_eq!(state.overlay.confirm, Some(Confirm::Quit));
    assert!(!state.quit);
    update(&mut state, press(KeyCode::Char('n')));
    assert!(!state.quit);
    assert_eq!(state.overlay.confirm, None);
    command(&mut state, Command::Quit);
    assert_eq!(update(&mut state, press(KeyCode::Char('y'))), vec![]);
    assert!(state.quit);
}

#[test]
fn a_click_focuses_the_pane_under_it_and_selects_a_file_row() {
    let mut state = loaded(
        Mode::COMMIT,
        vec![staged("a.rs"), staged("b.rs"), unstaged("c.rs")],
    );
    let rects = PaneRects::compute(state.screen.size, &state);
    let files = rects.list.unwrap();
    let diff = rects.view.unwrap();
    let editor = rects.editor.unwrap();
    // The list's first row is under the top border.
    assert_eq!((files.x, files.y), (0, 1));
    state.focus = Pane::Editor;
    assert_eq!(
        update(&mut state, click(files.x + 3, files.y + 2)),
        vec![Effect::Diff(DiffFx::Load {
            path: "b.rs".to_string()
        })]
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
    let bottom = state.screen.size.1 - 1;
    assert_eq!(update(&mut state, click(5, bottom)), vec![]);
    assert_eq!(state.focus, Pane::Editor);
    assert_eq!(state.changes.selected, 1);
}

#[test]
fn a_click_in_the_chat_focuses_its_input() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::OpenChat);
    state.focus = Pane::Changes;
    let rects = PaneRects::compute(state.screen.size, &state);
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
    let area = PaneRects::compute(state.screen.size, &state).list.unwrap();
    let rows = usize::from(area.height - 2);
    command(&mut state, Command::Bottom);
    assert_eq!(
        (state.changes.selected, state.screen.list_tops.files),
        (59, 60 - rows)
    );
    // Up from the bottom: the highlight climbs, the rows stay.
    for _ in 0..5 {
        command(&mut state, Command::Up);
    }
    assert_eq!(
        (state.changes.selected, state.screen.list_tops.files),
        (54, 60 - rows)
    );
    // A click on the first row selects the first file shown, not one scrolled away.
    update(&mut state, click(area.x + 3, area.y + 1));
    assert_eq!(state.changes.selected, 60 - rows);
    assert_eq!(state.screen.list_tops.files, 60 - rows);
    // Above the top, the list follows.
    command(&mut state, Command::Up);
    assert_eq!(
        (state.changes.selected, state.screen.list_tops.files),
        (59 - rows, 59 - rows)
    );
    command(&mut state, Command::Top);
    assert_eq!(
        (state.changes.selected, state.screen.list_tops.files),
        (0, 0)
    );
}

#[test]
fn the_wheel_scrolls_the_diff_and_moves_through_the_files() {
    let mut state = with_diff(Mode::COMMIT);
    let rects = PaneRects::compute(state.screen.size, &state);
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
    let files = PaneRects::compute(state.screen.size, &state).list.unwrap();
    assert_eq!(
        update(
            &mut state,
            mouse(MouseEventKind::ScrollDown, files.x + 2, files.y + 5)
        ),
        vec![Effect::Diff(DiffFx::Load {
            path: "b.rs".to_string()
        })]
    );
    assert_eq!(state.changes.selected, 1);

    // Over the editor it takes the focus from no one.
    let editor = PaneRects::compute(state.screen.size, &state)
        .editor
        .unwrap();
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
        Action::Explore(ExploreMsg::Tree(Ok(vec!["a.rs".into(), "b.rs".into()]))),
    );
    assert_eq!(update(&mut state, Action::ResizeTo(200, 50)), vec![]);
    assert_eq!(state.screen.size, (200, 50));
    // Explore: files take 30% of 200 columns, so column 50 is the diff now (it was at 120).
    assert_eq!(
        PaneRects::compute(state.screen.size, &state)
            .list
            .unwrap()
            .width,
        60
    );
    update(&mut state, click(50, 3));
    assert_eq!((state.focus, state.explore.selected), (Pane::Tree, 1));
    update(&mut state, Action::ResizeTo(120, 40));
    update(&mut state, click(50, 3));
    assert_eq!((state.focus, state.explore.selected), (Pane::Code, 1));
}

#[test]
fn tick_changes_nothing_but_the_time() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let task = start_generation(&mut state);
    command(&mut state, Command::Commit);
    let seen = |state: &State| {
        (
            format!("{:?}", state.iris.task),
            format!("{:?}", state.notice),
            state.overlay.confirm.clone(),
            state.focus,
            text(state, Mode::COMMIT),
            state.changes.selected,
        )
    };
    let before = seen(&state);
    let later = state.now + std::time::Duration::from_secs(5);
    assert_eq!(update(&mut state, Action::Tick(later)), vec![]);
    assert_eq!(state.now, later, "the clock moves with the tick");
    assert_eq!(seen(&state), before);
    assert_eq!(state.iris.task.as_ref().map(|t| t.id), Some(task));
}

#[test]
fn the_layout_is_kept_with_the_screen_and_laid_out_again_only_when_it_changes() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let laid = state.screen.laid_out.expect("laid out by the last action");
    assert_eq!(laid.1, PaneRects::compute(state.screen.size, &state));
    // A key that moves nothing on screen keeps the layout as it was.
    command(&mut state, Command::Down);
    assert_eq!(state.screen.laid_out, Some(laid));
    // Opening the chat moves the panes: the kept layout is the new one, and drawing
    // reads it as it is.
    command(&mut state, Command::OpenChat);
    let (_, now) = state.screen.laid_out.expect("laid out");
    assert_ne!(now, laid.1);
    assert!(now.chat_log.is_some());
    assert_eq!(now, PaneRects::compute(state.screen.size, &state));
    assert_eq!(state.layout(), now);
    // A state changed without the reducer is laid out afresh, never read stale.
    state.screen.zoom = true;
    assert_eq!(
        state.layout(),
        PaneRects::compute(state.screen.size, &state)
    );
    assert_ne!(state.layout(), now);
}
