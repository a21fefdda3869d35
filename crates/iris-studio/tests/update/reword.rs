//! `update::reword`: PR mode's `r`, from Iris' new message to the question and the commit
//! reworded.

use crossterm::event::KeyCode;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::{Done, Failure};
use iris_studio_tui::features::msgs::{RangeFx, RangeMsg, RewordFx, RewordMsg};
use iris_studio_tui::state::{Confirm, Level, Mode, Rewording};
use iris_studio_tui::update::update;

use super::support::{command, commit_row, loaded, notice, press};

fn pr_with_commits() -> iris_studio_tui::state::State {
    let mut state = loaded(Mode::PR, vec![]);
    state.iris.auto_generate = false;
    update(
        &mut state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok((
                "main".to_string(),
                vec![
                    commit_row("bbb2222", "wip"),
                    commit_row("aaa1111", "Add parser"),
                ],
            )),
        }),
    );
    state
}

#[test]
fn r_has_iris_write_the_selected_commits_message_and_y_rewords_it() {
    let mut state = pr_with_commits();
    state.range.selected = 0;
    let effects = command(&mut state, Command::Reword);
    let task = state.iris.task.as_ref().expect("a task").id;
    assert_eq!(
        effects,
        vec![Effect::Reword(RewordFx::Write {
            task,
            commit: "bbb22220000000000".to_string()
        })]
    );
    let rewording = Rewording {
        id: "bbb22220000000000".to_string(),
        short_id: "bbb2222".to_string(),
        old: "wip".to_string(),
        new: "Render the parse tree\n\nSo the demo shows it.".to_string(),
    };
    let effects = update(
        &mut state,
        Action::Reword(RewordMsg::Written {
            task,
            result: Ok(rewording.clone()),
        }),
    );
    assert!(effects.is_empty());
    assert_eq!(state.overlay.confirm, Some(Confirm::Reword));
    assert_eq!(state.range.reword.as_ref(), Some(&rewording));
    assert!(state.iris.task.is_none());
    let effects = update(&mut state, press(KeyCode::Char('y')));
    assert_eq!(
        effects,
        vec![Effect::Reword(RewordFx::Apply {
            commit: rewording.id.clone(),
            message: rewording.new.clone(),
        })]
    );
    assert!(state.range.reword.is_none() && state.overlay.confirm.is_none());
    // Reworded: the commits (their ids changed) are read again.
    let effects = update(
        &mut state,
        Action::Reword(RewordMsg::Done(Ok(Done::from("Reworded")))),
    );
    assert_eq!(
        effects,
        vec![Effect::Range(RangeFx::LoadCommits {
            mode: Mode::PR,
            from: None,
            to: None
        })]
    );
    assert_eq!(notice(&state), (Level::Success, "Reworded"));
}

#[test]
fn n_keeps_the_message_and_a_refusal_is_said() {
    let mut state = pr_with_commits();
    command(&mut state, Command::Reword);
    let task = state.iris.task.as_ref().expect("a task").id;
    update(
        &mut state,
        Action::Reword(RewordMsg::Written {
            task,
            result: Ok(Rewording {
                id: "x".into(),
                short_id: "x".into(),
                old: "a".into(),
                new: "b".into(),
            }),
        }),
    );
    assert!(update(&mut state, press(KeyCode::Char('n'))).is_empty());
    assert!(state.overlay.confirm.is_none());
    assert!(
        state.range.reword.is_none(),
        "the refused message is dropped"
    );
    assert_eq!(notice(&state), (Level::Info, "cancelled"));
    command(&mut state, Command::Reword);
    let task = state.iris.task.as_ref().expect("a task").id;
    let refused = "bbb2222 is already on origin/main: rewording it would fork the history";
    update(
        &mut state,
        Action::Reword(RewordMsg::Written {
            task,
            result: Err(Failure::other(refused)),
        }),
    );
    assert_eq!(notice(&state), (Level::Error, refused));
    assert!(state.overlay.confirm.is_none());
}

#[test]
fn r_belongs_to_the_pull_request_mode() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    assert!(command(&mut state, Command::Reword).is_empty());
    assert!(
        notice(&state)
            .1
            .contains("reworded from the pull request's commits")
    );
    assert!(state.iris.task.is_none());
}
