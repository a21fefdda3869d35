//! `update::range`: the range modes' commits and the range picker.

use crossterm::event::KeyCode;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::features::msgs::{
    ChangesFx, DiffFx, GenerateFx, GenerateMsg, RangeFx, RangeMsg, StackFx, StackMsg,
};
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{Mode, Pane};
use iris_studio_tui::update::update;

use super::support::{click, command, commit_row, loaded, press, staged, type_text};

#[test]
fn the_range_modes_load_their_commits_then_generate_for_that_range() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    state.iris.auto_generate = true;
    let effects = command(&mut state, Command::ModePr);
    assert_eq!(
        effects,
        vec![Effect::Range(RangeFx::LoadCommits {
            mode: Mode::PR,
            from: None,
            to: None
        })]
    );
    let effects = update(
        &mut state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok((
                "main".to_string(),
                vec![commit_row("abc1234", "Add parser")],
            )),
        }),
    );
    assert_eq!(
        effects,
        vec![
            Effect::Diff(DiffFx::LoadCommit {
                id: "abc12340000000000".to_string()
            }),
            // Whether the branch is in a stack decides what is written.
            Effect::Stack(StackFx::Load {
                base: "main".to_string()
            }),
        ]
    );
    assert_eq!(state.range.resolved_from.as_deref(), Some("main"));
    // In none: the whole range.
    assert_eq!(
        update(&mut state, Action::Stack(StackMsg::Loaded(Ok(None)))),
        vec![Effect::Generate(GenerateFx::Generate {
            task: 1,
            kind: ArtifactKind::Pr,
            range: Some(("main".to_string(), "HEAD".to_string())),
            stack: None,
        })]
    );
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
        vec![Effect::Range(RangeFx::LoadCommits {
            mode: Mode::CHANGELOG,
            from: Some("v1.0".to_string()),
            to: Some("v1.1".to_string()),
        })]
    );
    assert_eq!(state.focus, Pane::Commits);
    // Outside the range modes it only says where ranges belong.
    let mut commit = loaded(Mode::COMMIT, vec![]);
    assert!(command(&mut commit, Command::PickRange).is_empty());
    assert!(commit.overlay.range_input.is_none());
}

#[test]
fn a_click_in_the_range_modes_selects_the_commit_drawn_there() {
    let mut state = loaded(Mode::PR, vec![staged("a.rs")]);
    update(
        &mut state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok((
                "main".to_string(),
                vec![
                    commit_row("aaaaaaa", "First"),
                    commit_row("bbbbbbb", "Second"),
                ],
            )),
        }),
    );
    let files = PaneRects::compute(state.screen.size, &state).list.unwrap();
    let effects = update(&mut state, click(files.x + 2, files.y + 2));
    assert_eq!(state.range.selected, 1);
    assert_eq!(
        effects,
        vec![Effect::Diff(DiffFx::LoadCommit {
            id: "bbbbbbb0000000000".to_string()
        })]
    );
    assert_eq!(
        state.changes.selected, 0,
        "the hidden changed-file list is untouched"
    );
}

#[test]
fn a_change_outside_keeps_a_range_mode_s_commit_and_its_diff() {
    let mut state = loaded(Mode::PR, vec![staged("a.rs")]);
    let commits = || {
        vec![
            commit_row("aaaaaaa", "First"),
            commit_row("bbbbbbb", "Second"),
        ]
    };
    update(
        &mut state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok(("main".to_string(), commits())),
        }),
    );
    command(&mut state, Command::Down);
    assert_eq!(state.range.selected, 1);
    let diff_path = state.diff.path.clone();
    assert_eq!(diff_path.as_deref(), Some("commit bbbbbbb"));

    // A file saved outside: the status and the commits are read again.
    let effects = update(&mut state, Action::ChangedOutside);
    assert!(
        effects.contains(&Effect::Changes(ChangesFx::LoadStatus)),
        "{effects:?}"
    );
    let effects = update(&mut state, super::support::status(vec![staged("a.rs")]));
    assert!(effects.is_empty(), "{effects:?}");
    let effects = update(
        &mut state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok(("main".to_string(), commits())),
        }),
    );
    assert!(
        effects.is_empty(),
        "nothing loaded or written anew: {effects:?}"
    );
    assert_eq!(state.range.selected, 1);
    assert_eq!(state.diff.path, diff_path);

    // A commit made outside on the same base keeps the selected commit.
    let mut more = vec![commit_row("ccccccc", "Third")];
    more.extend(commits());
    update(
        &mut state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok(("main".to_string(), more)),
        }),
    );
    assert_eq!(state.range.selected, 2);
    // Another range starts at its top.
    update(
        &mut state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok(("v1.0".to_string(), commits())),
        }),
    );
    assert_eq!(state.range.selected, 0);
}

#[test]
fn a_changelog_iris_wrote_for_other_commits_is_written_anew_for_the_range_shown() {
    let commits = |id: &str| {
        Action::Range(RangeMsg::Commits {
            mode: Mode::CHANGELOG,
            result: Ok(("v1.0".to_string(), vec![commit_row(id, "Add parser")])),
        })
    };
    let mut state = loaded(Mode::COMMIT, vec![]);
    state.iris.auto_generate = true;
    command(&mut state, Command::ModeChangelog);
    update(&mut state, commits("abc1234"));
    let Some(task) = state.iris.task.as_ref().map(|t| t.id) else {
        panic!("Iris writes the changelog");
    };
    update(
        &mut state,
        Action::Generate(GenerateMsg::Written {
            task,
            kind: ArtifactKind::Changelog,
            result: Ok("## Added\n\n- A parser".to_string()),
        }),
    );
    // The same range read again: the changelog stands.
    command(&mut state, Command::ModeCommit);
    state.range.loaded_for = None;
    command(&mut state, Command::ModeChangelog);
    let effects = update(&mut state, commits("abc1234"));
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Generate(GenerateFx::Generate { .. }))),
        "{effects:?}"
    );
    // A commit more on the branch: the range moved, and Iris writes for it.
    command(&mut state, Command::ModeCommit);
    state.range.loaded_for = None;
    command(&mut state, Command::ModeChangelog);
    let effects = update(&mut state, commits("def5678"));
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::Generate(GenerateFx::Generate {
                kind: ArtifactKind::Changelog,
                ..
            })
        )),
        "{effects:?}"
    );
    assert_eq!(state.artifacts[&ArtifactKind::Changelog].text(), "");
}
