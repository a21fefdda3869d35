//! `update::commands`: what the commands do themselves: quit, help, the panes and the focus,
//! back, the modes, refresh and zoom.

use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::features::msgs::{ChangesFx, ExploreFx, RangeFx};
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{Level, Mode, Pane, State};
use iris_studio_tui::update::update;

use super::support::{click, command, loaded, notice, staged, unstaged, with_diff, with_message};

#[test]
fn quit_without_unsaved_work_quits_at_once() {
    let mut state = with_message("Add two()");
    assert!(!state.unsaved());
    assert_eq!(command(&mut state, Command::Quit), vec![]);
    assert!(state.quit);
    assert_eq!(state.overlay.confirm, None);
}

#[test]
fn help_toggles_and_swallows_other_commands_while_open() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs"), staged("b.rs")]);
    command(&mut state, Command::Help);
    assert!(state.overlay.help);
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
    assert!(state.iris.task.is_none());
    command(&mut state, Command::Help);
    assert!(!state.overlay.help);
    command(&mut state, Command::Help);
    command(&mut state, Command::Back);
    assert!(!state.overlay.help);
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
fn generate_and_chat_in_explore_mode_explain_the_modes() {
    let mut state = loaded(Mode::Explore, vec![staged("a.rs")]);
    assert_eq!(command(&mut state, Command::Generate), vec![]);
    assert!(state.iris.task.is_none());
    assert_eq!(notice(&state).0, Level::Info);
    assert!(notice(&state).1.contains("switch to a mode"));
    state.notice = None;
    assert_eq!(command(&mut state, Command::OpenChat), vec![]);
    assert!(!state.chat.open);
    assert!(notice(&state).1.contains("switch to a mode"));
}

#[test]
fn refresh_reloads_the_status() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    assert_eq!(
        command(&mut state, Command::Refresh),
        vec![Effect::Changes(ChangesFx::LoadStatus)]
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
            Mode::Explore => vec![Effect::Explore(ExploreFx::LoadTree)],
            Mode::PR | Mode::CHANGELOG | Mode::RELEASE_NOTES => {
                vec![Effect::Range(RangeFx::LoadCommits {
                    mode,
                    from: None,
                    to: None,
                })]
            }
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
fn zoom_gives_the_focused_pane_the_body_and_follows_the_focus() {
    let mut state = with_diff(Mode::COMMIT);
    state.screen.size = (160, 45);
    state.focus = Pane::Diff;
    let tiled = PaneRects::compute(state.screen.size, &state);
    assert_eq!(tiled.view.unwrap().width, 60, "38% of 160 columns");
    command(&mut state, Command::Zoom);
    let zoomed = PaneRects::compute(state.screen.size, &state);
    assert_eq!(zoomed.view, Some(ratatui::layout::Rect::new(0, 1, 160, 43)));
    assert_eq!((zoomed.list, zoomed.editor), (None, None));
    // Tab moves the focus, and the zoom with it.
    command(&mut state, Command::NextPane);
    let zoomed = PaneRects::compute(state.screen.size, &state);
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
    assert_eq!(PaneRects::compute(state.screen.size, &state), tiled);
}

#[test]
fn zoomed_chat_keeps_the_conversation_above_its_input() {
    let mut state = with_message("Add one");
    command(&mut state, Command::OpenChat);
    assert_eq!(state.focus, Pane::ChatInput);
    command(&mut state, Command::Zoom);
    let rects = PaneRects::compute(state.screen.size, &state);
    let (log, input) = (rects.chat_log.unwrap(), rects.chat_input.unwrap());
    assert_eq!((log.y, log.width), (1, state.screen.size.0));
    assert_eq!(input.y + input.height, state.screen.size.1 - 1);
    assert_eq!(rects.editor, None);
}
