//! `update::explore`: the repository's tree, the open file's heat margin, and the cursor and
//! the selection in its code.

use crossterm::event::{MouseButton, MouseEventKind};
use iris_studio_tui::action::{Action, OpenedFile};
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{ExploreFx, ExploreMsg};
use iris_studio_tui::state::{Mode, Pane, State};
use iris_studio_tui::update::update;

use super::support::{click, command, explore_with_file, loaded, mouse};

#[test]
fn enter_on_the_explore_tree_opens_directories_and_files() {
    let mut state = loaded(Mode::Explore, vec![]);
    update(
        &mut state,
        Action::Explore(ExploreMsg::Tree(Ok(vec![
            "README.md".into(),
            "src/lib.rs".into(),
        ]))),
    );
    state.focus = Pane::Tree;
    command(&mut state, Command::Down); // "src"
    assert!(command(&mut state, Command::Select).is_empty());
    assert!(state.explore.expanded.contains("src"));
    command(&mut state, Command::Down); // "src/lib.rs"
    assert_eq!(
        command(&mut state, Command::Select),
        vec![Effect::Explore(ExploreFx::OpenFile {
            path: "src/lib.rs".to_string()
        })]
    );
    assert_eq!(state.focus, Pane::Code);
}

#[test]
fn the_heat_margin_places_each_line_in_the_files_own_history() {
    use iris_studio_tui::state::Heat;
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
    state.explore.open = Some("b.rs".into());
    let aged = |path: &str| {
        Action::Explore(ExploreMsg::LinesAged {
            path: path.into(),
            result: Ok(vec![Some(1), Some(2)]),
        })
    };
    update(&mut state, aged("a.rs"));
    assert_eq!(state.explore.heat, None);
    update(&mut state, aged("b.rs"));
    assert_eq!(state.explore.heat, Some(vec![Heat::Cold, Heat::Hot]));
    update(
        &mut state,
        Action::Explore(ExploreMsg::LinesAged {
            path: "b.rs".into(),
            result: Err(Failure::other("binary")),
        }),
    );
    assert_eq!(
        state.explore.heat, None,
        "a file git cannot blame has no margin"
    );
}

#[test]
fn a_click_puts_the_cursor_on_a_line_and_a_drag_selects_lines() {
    let mut state = explore_with_file();
    // 120x40: the code pane starts at column 36, row 1; its first line is on row 2.
    update(&mut state, click(60, 4));
    assert_eq!((state.explore.cursor, state.explore.anchor), (2, None));
    update(
        &mut state,
        mouse(MouseEventKind::Drag(MouseButton::Left), 60, 7),
    );
    assert_eq!(state.explore.selection(), Some((2, 5)));
    assert_eq!(state.explore.anchor, Some(2));
    // Dragging below the file's end selects to its last line.
    update(
        &mut state,
        mouse(MouseEventKind::Drag(MouseButton::Left), 60, 25),
    );
    assert_eq!(state.explore.selection(), Some((2, 9)));
    // A click clears it.
    update(&mut state, click(60, 3));
    assert_eq!(state.explore.selection(), Some((1, 1)));
    assert_eq!(state.explore.anchor, None);
}

#[test]
fn the_cursor_moves_through_the_code_and_the_view_follows_it() {
    let mut state = loaded(Mode::Explore, vec![]);
    state.explore.open = Some("long.rs".into());
    update(
        &mut state,
        Action::Explore(ExploreMsg::FileOpened {
            path: "long.rs".into(),
            result: Ok(OpenedFile {
                lines: Some((0..200).map(|i| i.to_string()).collect()),
                history: vec![],
                digest: 1,
            }),
        }),
    );
    state.focus = Pane::Code;
    command(&mut state, Command::PageDown);
    command(&mut state, Command::PageDown);
    assert_eq!(state.explore.cursor, 40);
    // 40 rows: the code shows 28 lines, so the view has moved just enough.
    assert_eq!(state.explore.scroll, 40 + 1 - 28);
    command(&mut state, Command::Bottom);
    assert_eq!(state.explore.cursor, 199);
    command(&mut state, Command::Top);
    assert_eq!((state.explore.cursor, state.explore.scroll), (0, 0));
}
