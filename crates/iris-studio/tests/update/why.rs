//! `update::why`: the selected lines asked about, the answer beside the code, and the commits
//! behind them.

use iris_studio_core::protocol::{AgentEvent, BlamedCommit, Explained, LinesAsked};
use iris_studio_tui::action::{Action, RepoSnapshot};
use iris_studio_tui::answer;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{ChangesMsg, WhyFx, WhyMsg};
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{Level, Mode, Pane, State, TaskKind};
use iris_studio_tui::update::update;

use super::support::{click, command, explore_with_file, loaded, notice, two_hunk_diff};

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
    assert_eq!(state.explore.selection(), Some((2, 4)));
    let effects = command(&mut state, Command::AskWhy);
    assert_eq!(
        effects,
        vec![Effect::Why(WhyFx::Explain {
            task: 1,
            asked: asked(3, 5)
        })]
    );
    assert_eq!(
        state.iris.task.as_ref().map(|t| t.kind),
        Some(TaskKind::Why)
    );
    assert!(
        state.explore.anchor.is_none(),
        "the selection became the question"
    );
    assert!(state.visible_panes().contains(&Pane::Answer));
    assert!(
        PaneRects::compute(state.screen.size, &state)
            .answer
            .is_some()
    );
    // Her words stream into the pane; the answer lands and is kept.
    update(
        &mut state,
        Action::Agent {
            task: 1,
            event: AgentEvent::TextDelta("They were".into()),
        },
    );
    assert_eq!(
        state.iris.task.as_ref().unwrap().progress.streamed,
        "They were"
    );
    update(
        &mut state,
        Action::Why(WhyMsg::Explained {
            task: 1,
            result: Ok(explained(3, 5)),
        }),
    );
    assert!(state.iris.task.is_none());
    let why = state.explore.why.as_ref().expect("the answer pane");
    assert_eq!(why.answer, Some(explained(3, 5)));
    assert_eq!(
        why.commit, 1,
        "the first cited commit is the one enter opens"
    );
    assert_eq!(notice(&state).0, Level::Success);

    // The same lines again: the answer at once, no request.
    select(&mut state, 3, 5);
    assert_eq!(command(&mut state, Command::AskWhy), vec![]);
    assert!(state.iris.task.is_none());
    assert!(notice(&state).1.contains("earlier"));
    // Other lines, or the same after a commit moved HEAD, are a new question.
    select(&mut state, 3, 4);
    assert_eq!(
        command(&mut state, Command::AskWhy),
        vec![Effect::Why(WhyFx::Explain {
            task: 2,
            asked: asked(3, 4)
        })]
    );
    command(&mut state, Command::Back);
    let moved = Action::Changes(ChangesMsg::Status(Ok(RepoSnapshot {
        branch: "main".into(),
        head: Some("f".repeat(40)),
        files: vec![],
        jj_change: None,
        change_key: None,
    })));
    update(&mut state, moved);
    select(&mut state, 3, 5);
    assert_eq!(
        command(&mut state, Command::AskWhy),
        vec![Effect::Why(WhyFx::Explain {
            task: 3,
            asked: asked(3, 5)
        })]
    );
}

#[test]
fn without_a_selection_w_asks_about_the_cursor_line_and_needs_a_history() {
    let mut state = explore_with_file();
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::AskWhy),
        vec![Effect::Why(WhyFx::Explain {
            task: 1,
            asked: asked(2, 2)
        })]
    );
    let mut unborn = explore_with_file();
    unborn.repo.head = None;
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
    assert!(state.explore.why.is_none());
    assert!(!state.visible_panes().contains(&Pane::Answer));
    update(
        &mut state,
        Action::Why(WhyMsg::Explained {
            task: 1,
            result: Ok(explained(1, 2)),
        }),
    );
    assert!(state.explore.why.is_none() && state.explore.answers.is_empty());
    // A failed answer closes the pane and says why.
    command(&mut state, Command::AskWhy);
    update(
        &mut state,
        Action::Why(WhyMsg::Explained {
            task: 2,
            result: Err(Failure::other("the provider said no")),
        }),
    );
    assert!(state.explore.why.is_none());
    assert_eq!(notice(&state), (Level::Error, "the provider said no"));
    // Esc clears a selection before it leaves the code.
    command(&mut state, Command::SelectLines);
    command(&mut state, Command::Back);
    assert_eq!((state.explore.anchor, state.focus), (None, Pane::Code));
}

#[test]
fn n_and_p_pick_a_commit_of_the_answer_and_enter_shows_its_diff_in_place_of_the_code() {
    let mut state = explore_with_file();
    command(&mut state, Command::AskWhy);
    update(
        &mut state,
        Action::Why(WhyMsg::Explained {
            task: 1,
            result: Ok(explained(1, 1)),
        }),
    );
    // A click on a commit's row chooses it.
    let area = PaneRects::compute(state.screen.size, &state)
        .answer
        .unwrap();
    let rows = answer::rows(
        state.explore.why.as_ref().unwrap(),
        "",
        usize::from(area.width - 2),
    );
    let row = answer::commit_row(&rows, 2).unwrap() as u16;
    update(&mut state, click(area.x + 3, area.y + 1 + row));
    assert_eq!(state.focus, Pane::Answer);
    assert_eq!(state.explore.why.as_ref().unwrap().commit, 2);
    command(&mut state, Command::Back); // back out of the answer: it closes...
    command(&mut state, Command::AskWhy); // ...and comes back at once
    state.focus = Pane::Code;
    command(&mut state, Command::NextPane);
    assert_eq!(
        state.focus,
        Pane::Answer,
        "tab goes from the code to the answer"
    );
    let chosen = |state: &State| state.explore.why.as_ref().unwrap().commit;
    command(&mut state, Command::NextHunk);
    command(&mut state, Command::NextHunk);
    assert_eq!(chosen(&state), 2, "no commit after the last");
    command(&mut state, Command::PrevHunk);
    assert_eq!(chosen(&state), 1);
    let id = blamed("bbbbbbb").id;
    assert_eq!(
        command(&mut state, Command::Select),
        vec![Effect::Why(WhyFx::ShowCommit { id: id.clone() })]
    );
    assert_eq!(state.focus, Pane::Code);
    assert!(state.explore.commit.as_ref().unwrap().view.loading);
    // Another commit's late diff is not this one.
    update(
        &mut state,
        Action::Why(WhyMsg::CommitShown {
            id: blamed("aaaaaaa").id,
            result: Ok(two_hunk_diff()),
        }),
    );
    assert!(state.explore.commit.as_ref().unwrap().view.files.is_empty());
    update(
        &mut state,
        Action::Why(WhyMsg::CommitShown {
            id,
            result: Ok(two_hunk_diff()),
        }),
    );
    let view = &state.explore.commit.as_ref().unwrap().view;
    assert_eq!((view.loading, view.files.len()), (false, 1));
    command(&mut state, Command::Down);
    assert_eq!(state.explore.commit.as_ref().unwrap().view.scroll, 1);
    assert_eq!(
        state.explore.cursor, 0,
        "the code's cursor stays where it was"
    );
    // Esc: back to the code, then the pane closes from its own focus.
    command(&mut state, Command::Back);
    assert!(state.explore.commit.is_none());
    state.focus = Pane::Answer;
    command(&mut state, Command::Back);
    assert!(state.explore.why.is_none());
    assert_eq!(state.focus, Pane::Code);
    // An answer-less explore says what n and p are for.
    command(&mut state, Command::NextHunk);
    assert!(notice(&state).1.contains("n / p"));
}
