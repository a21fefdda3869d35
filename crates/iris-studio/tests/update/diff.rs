//! `update::diff`: the selected file's diff as it loads, scrolling it, its hunks (jumping,
//! staging) and side by side.

use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{ChangesFx, DiffMsg};
use iris_studio_tui::state::{Level, Mode, Pane};
use iris_studio_tui::update::update;

use super::support::{command, loaded, notice, staged, two_hunk_diff, with_diff};

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
fn stage_hunk_stages_the_hunk_at_the_top_of_the_diff_view() {
    let mut state = with_diff(Mode::COMMIT);
    let stage = |hunk| {
        vec![Effect::Changes(ChangesFx::StageHunk {
            path: "src/lib.rs".to_string(),
            hunk,
        })]
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
        Action::Diff(DiffMsg::Loaded {
            path: "src/lib.rs".to_string(),
            result: Ok(parts),
            staged: Some(1),
        }),
    );
    assert_eq!(state.diff.hunk_starts(), vec![1, 5, 11, 15]);
    let path = || "src/lib.rs".to_string();
    let mut at = |row: usize| {
        state.diff.scroll = row;
        command(&mut state, Command::StageHunk)
    };
    assert_eq!(
        at(0),
        vec![Effect::Changes(ChangesFx::UnstageHunk {
            path: path(),
            hunk: 0
        })]
    );
    assert_eq!(
        at(6),
        vec![Effect::Changes(ChangesFx::UnstageHunk {
            path: path(),
            hunk: 1
        })]
    );
    // The unstaged part counts its hunks from 0, as `git diff` numbers them.
    assert_eq!(
        at(11),
        vec![Effect::Changes(ChangesFx::StageHunk {
            path: path(),
            hunk: 0
        })]
    );
    assert_eq!(
        at(19),
        vec![Effect::Changes(ChangesFx::StageHunk {
            path: path(),
            hunk: 1
        })]
    );

    // A commit's diff (range modes) has no sides: nothing to stage, a hint instead.
    let mut state = loaded(Mode::PR, vec![]);
    state.diff.path = Some("commit 1234567".to_string());
    update(
        &mut state,
        Action::Diff(DiffMsg::Loaded {
            path: "commit 1234567".to_string(),
            result: Ok(two_hunk_diff()),
            staged: None,
        }),
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
fn diff_loaded_for_another_path_is_ignored() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs"), staged("src/lib.rs")]);
    command(&mut state, Command::Down);
    assert_eq!(state.diff.path.as_deref(), Some("src/lib.rs"));
    // a.rs's diff, asked for before the selection moved, arrives late.
    assert_eq!(
        update(
            &mut state,
            Action::Diff(DiffMsg::Loaded {
                path: "a.rs".to_string(),
                result: Ok(two_hunk_diff()),
                staged: Some(0),
            })
        ),
        vec![]
    );
    assert!(state.diff.loading);
    assert!(state.diff.files.is_empty());
    update(
        &mut state,
        Action::Diff(DiffMsg::Loaded {
            path: "src/lib.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        }),
    );
    assert!(!state.diff.loading);
    assert_eq!(state.diff.files, two_hunk_diff());
    // A failure is a notice, and the view stops loading.
    command(&mut state, Command::Up);
    update(
        &mut state,
        Action::Diff(DiffMsg::Loaded {
            path: "a.rs".to_string(),
            result: Err(Failure::other("bad object")),
            staged: Some(0),
        }),
    );
    assert!(!state.diff.loading);
    assert_eq!(
        notice(&state),
        (Level::Error, "diff of a.rs failed: bad object")
    );
}

#[test]
fn side_by_side_lays_the_diff_out_in_pairs_where_the_pane_is_wide_enough() {
    let mut state = with_diff(Mode::COMMIT);
    state.screen.size = (160, 45);
    state.focus = Pane::Diff;
    command(&mut state, Command::SideBySide);
    // 59 columns inside the diff pane: too narrow, so it stays unified and says so.
    assert!(state.screen.side_by_side && !state.diff.paired);
    assert!(
        notice(&state).1.contains("zoom it (z)"),
        "{:?}",
        state.notice
    );
    assert_eq!(state.diff.line_count(), 10);
    // Zoomed, it has the width: the changed line of hunk two pairs with its new text.
    state.diff.scroll = 9; // "fn twelve() {}", the last line of hunk two
    command(&mut state, Command::Zoom);
    assert!(state.diff.paired);
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
        vec![Effect::Changes(ChangesFx::StageHunk {
            path: "src/lib.rs".into(),
            hunk: 1
        })]
    );
    command(&mut state, Command::Zoom);
    assert!(!state.diff.paired);
    assert_eq!(
        state.diff.scroll, 5,
        "hunk two's header is row 5 either way"
    );
    command(&mut state, Command::SideBySide);
    assert_eq!(notice(&state).1, "diffs unified");
}
