//! `update::split_plan`: `x` has Iris plan the split; in the view the user moves a hunk,
//! merges groups, edits a message, chats, applies (after asking) and undoes.

use crossterm::event::{KeyCode, KeyModifiers};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::change::parse_unified_diff;
use iris_studio_core::split::{PlanGroup, SplitPlan, units};
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::{EditTarget, Effect};
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{ChangesFx, ExternalFx, SplitFx, SplitMsg};
use iris_studio_tui::state::{Confirm, Level, Mode, PlannedChange, SplitPhase, State, TaskKind};
use iris_studio_tui::update::update;

use super::support::{command, key, loaded, notice, press_with, type_text, unstaged};

const DIFF: &str = "\
diff --git a/a.rs b/a.rs
index 1111111..2222222 100644
--- a/a.rs
+++ b/a.rs
@@ -1,3 +1,3 @@
 fn alpha() {
-    1
+    log(1)
 }
@@ -13,3 +13,3 @@ fn omega() {
 fn omega() {
-    2
+    3
 }
diff --git a/guide.md b/guide.md
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/guide.md
@@ -0,0 +1 @@
+# Guide
";

fn group(message: &str, hunks: &[&str]) -> PlanGroup {
    PlanGroup {
        message: message.into(),
        hunks: hunks.iter().map(|h| h.to_string()).collect(),
        reason: "one idea".into(),
        left_out: false,
    }
}

fn planned() -> PlannedChange {
    let files = parse_unified_diff(DIFF);
    PlannedChange {
        units: units(&files, |_| false),
        files,
        plan: SplitPlan {
            groups: vec![
                group("feat: log", &["h1"]),
                group("fix: omega", &["h2", "h3"]),
            ],
        },
        first_problems: vec![],
    }
}

/// The plan Iris writes in chat: the guide first.
fn docs_first() -> SplitPlan {
    SplitPlan {
        groups: vec![
            group("docs: guide", &["h3"]),
            group("feat: log", &["h1", "h2"]),
        ],
    }
}

/// Commit mode with a change, `x` pressed and the plan arrived.
fn open_view() -> State {
    let mut state = loaded(Mode::COMMIT, vec![unstaged("a.rs")]);
    let task = match command(&mut state, Command::Split).as_slice() {
        [Effect::Split(SplitFx::Plan { task })] => *task,
        other => panic!("expected PlanSplit, got {other:?}"),
    };
    assert!(matches!(
        state.iris.task.as_ref().map(|t| t.kind),
        Some(TaskKind::Split)
    ));
    update(
        &mut state,
        Action::Split(SplitMsg::Planned {
            task,
            result: Ok(Box::new(planned())),
        }),
    );
    assert!(state.iris.task.is_none());
    assert!(state.overlay.split_plan.is_some());
    assert!(state.takes_every_key(), "the view takes every key");
    state
}

fn hunks(state: &State) -> Vec<Vec<String>> {
    let view = state.overlay.split_plan.as_ref().expect("the view");
    view.plan.groups.iter().map(|g| g.hunks.clone()).collect()
}

#[test]
fn the_plan_opens_the_view_and_says_its_keys() {
    let state = open_view();
    let (level, said) = notice(&state);
    assert_eq!(level, Level::Success);
    assert!(
        said.starts_with("Iris planned 2 commits: ↑↓ group"),
        "{said}"
    );
}

#[test]
fn split_is_for_commit_mode_and_needs_a_change() {
    let mut state = loaded(Mode::REVIEW, vec![unstaged("a.rs")]);
    assert!(command(&mut state, Command::Split).is_empty());
    assert!(notice(&state).1.contains("commit mode (2)"));
    let mut state = loaded(Mode::COMMIT, vec![]);
    assert!(command(&mut state, Command::Split).is_empty());
    assert_eq!(notice(&state).1, "there is no change to split");
}

#[test]
fn a_failed_plan_is_an_error_and_no_view() {
    let mut state = loaded(Mode::COMMIT, vec![unstaged("a.rs")]);
    let [Effect::Split(SplitFx::Plan { task })] = command(&mut state, Command::Split)[..] else {
        panic!("PlanSplit");
    };
    let result = Err(Failure::other(
        "Iris' plan was not valid, and not when sent back either",
    ));
    update(
        &mut state,
        Action::Split(SplitMsg::Planned { task, result }),
    );
    assert!(state.overlay.split_plan.is_none());
    assert_eq!(notice(&state).0, Level::Error);
}

#[test]
fn m_and_a_number_moves_the_top_hunk_and_n_makes_a_new_group() {
    let mut state = open_view();
    key(&mut state, KeyCode::Down);
    key(&mut state, KeyCode::Char('n'));
    // h3 is at the top of the second group's diff: it goes to the first.
    key(&mut state, KeyCode::Char('m'));
    key(&mut state, KeyCode::Char('1'));
    assert_eq!(hunks(&state), vec![vec!["h1", "h3"], vec!["h2"]]);
    assert_eq!(notice(&state).1, "h3 is in commit 1 now");
    assert_eq!(state.overlay.split_plan.as_ref().unwrap().selected, 0);
    // The moved hunk stays at the top: on to a new group; then h1 joins it and the first
    // group, left empty, goes.
    key(&mut state, KeyCode::Char('m'));
    key(&mut state, KeyCode::Char('n'));
    assert_eq!(hunks(&state), vec![vec!["h1"], vec!["h2"], vec!["h3"]]);
    assert_eq!(state.overlay.split_plan.as_ref().unwrap().selected, 2);
    key(&mut state, KeyCode::Up);
    key(&mut state, KeyCode::Up);
    key(&mut state, KeyCode::Char('m'));
    key(&mut state, KeyCode::Char('3'));
    assert_eq!(hunks(&state), vec![vec!["h2"], vec!["h1", "h3"]]);
    // Anything but a number cancels.
    key(&mut state, KeyCode::Char('m'));
    key(&mut state, KeyCode::Char('z'));
    assert_eq!(hunks(&state), vec![vec!["h2"], vec!["h1", "h3"]]);
}

#[test]
fn capital_m_merges_the_selected_group_into_another() {
    let mut state = open_view();
    key(&mut state, KeyCode::Down);
    key(&mut state, KeyCode::Char('M'));
    key(&mut state, KeyCode::Char('1'));
    assert_eq!(hunks(&state), vec![vec!["h1", "h2", "h3"]]);
    let view = state.overlay.split_plan.as_ref().unwrap();
    assert_eq!(view.plan.groups[0].message, "feat: log\n\n- fix: omega");
}

#[test]
fn a_message_is_edited_in_place_or_in_the_editor() {
    let mut state = open_view();
    key(&mut state, KeyCode::Char('e'));
    for _ in 0.."feat: log".len() {
        key(&mut state, KeyCode::Backspace);
    }
    type_text(&mut state, "feat: trace the values");
    key(&mut state, KeyCode::Esc);
    let view = state.overlay.split_plan.as_ref().unwrap();
    assert!(view.editing.is_none());
    assert_eq!(view.plan.groups[0].message, "feat: trace the values");
    // E: the message goes to $EDITOR and comes back.
    let effects = key(&mut state, KeyCode::Char('E'));
    assert_eq!(
        effects,
        vec![Effect::External(ExternalFx::Edit(
            EditTarget::SplitMessage {
                group: 0,
                text: "feat: trace the values".into()
            }
        ))]
    );
    let result = Ok("feat: log every value\n\nBody.".to_string());
    update(
        &mut state,
        Action::Split(SplitMsg::MessageEdited { group: 0, result }),
    );
    assert_eq!(
        state.overlay.split_plan.as_ref().unwrap().plan.groups[0].title(),
        "feat: log every value"
    );
    // An empty message is refused, the old one kept.
    update(
        &mut state,
        Action::Split(SplitMsg::MessageEdited {
            group: 0,
            result: Ok("\n".into()),
        }),
    );
    assert_eq!(
        state.overlay.split_plan.as_ref().unwrap().plan.groups[0].title(),
        "feat: log every value"
    );
    assert_eq!(notice(&state).0, Level::Warning);
}

#[test]
fn the_chat_sends_the_plan_and_iris_replaces_it() {
    let mut state = open_view();
    key(&mut state, KeyCode::Char('/'));
    type_text(&mut state, "put the guide first");
    let effects = key(&mut state, KeyCode::Enter);
    let task = match effects.as_slice() {
        [
            Effect::Split(SplitFx::Chat {
                task,
                plan,
                message,
                history,
                units,
                ..
            }),
        ] => {
            assert_eq!(message, "put the guide first");
            assert!(history.is_empty());
            assert_eq!(plan.groups.len(), 2);
            assert_eq!(units.len(), 3);
            *task
        }
        other => panic!("expected SplitChat, got {other:?}"),
    };
    update(
        &mut state,
        Action::Split(SplitMsg::Updated {
            task,
            plan: docs_first(),
        }),
    );
    assert_eq!(hunks(&state), vec![vec!["h3"], vec!["h1", "h2"]]);
    update(
        &mut state,
        Action::Split(SplitMsg::ChatReplied {
            task,
            result: Ok("Done.".into()),
        }),
    );
    let view = state.overlay.split_plan.as_ref().unwrap();
    assert_eq!(view.chat.len(), 2);
    assert!(view.chat_task.is_none() && state.iris.task.is_none());
}

#[test]
fn esc_cancels_a_chat_reply_before_it_closes_the_view() {
    let mut state = open_view();
    key(&mut state, KeyCode::Char('/'));
    type_text(&mut state, "why?");
    let [Effect::Split(SplitFx::Chat { task, .. })] = key(&mut state, KeyCode::Enter)[..] else {
        panic!("SplitChat");
    };
    assert_eq!(key(&mut state, KeyCode::Esc), vec![Effect::Cancel { task }]);
    assert!(state.overlay.split_plan.is_some());
    assert_eq!(
        state
            .overlay
            .split_plan
            .as_ref()
            .unwrap()
            .chat
            .last()
            .unwrap()
            .text,
        "(cancelled)"
    );
    assert_eq!(
        key(&mut state, KeyCode::Esc),
        vec![Effect::Changes(ChangesFx::LoadStatus)]
    );
    assert!(state.overlay.split_plan.is_none());
}

#[test]
fn enter_asks_then_applies_with_progress_and_u_undoes() {
    let mut state = open_view();
    key(&mut state, KeyCode::Enter);
    assert_eq!(
        state.overlay.split_plan.as_ref().unwrap().phase,
        SplitPhase::Confirming
    );
    // Any other key: nothing is committed.
    assert!(key(&mut state, KeyCode::Char('n')).is_empty());
    assert_eq!(
        state.overlay.split_plan.as_ref().unwrap().phase,
        SplitPhase::Planning
    );
    key(&mut state, KeyCode::Enter);
    let effects = key(&mut state, KeyCode::Char('y'));
    match effects.as_slice() {
        [Effect::Split(SplitFx::Apply { units, plan })] => {
            assert_eq!(units.len(), 3);
            assert_eq!(plan.groups.len(), 2);
        }
        other => panic!("expected ApplySplit, got {other:?}"),
    }
    update(
        &mut state,
        Action::Split(SplitMsg::Step {
            done: 1,
            of: 2,
            step: "[main 1234567] feat: log".into(),
        }),
    );
    assert!(matches!(
        state.overlay.split_plan.as_ref().unwrap().phase,
        SplitPhase::Applying { done: 1, of: 2, .. }
    ));
    // Keys wait while commits are made.
    assert!(key(&mut state, KeyCode::Esc).is_empty());
    assert!(state.overlay.split_plan.is_some());
    let effects = update(
        &mut state,
        Action::Split(SplitMsg::Applied {
            result: Ok("made 2 commits".into()),
            undoable: true,
        }),
    );
    assert_eq!(effects, vec![Effect::Changes(ChangesFx::LoadStatus)]);
    assert_eq!(
        notice(&state).1,
        "made 2 commits · u undoes the split, esc closes"
    );
    assert_eq!(
        key(&mut state, KeyCode::Char('u')),
        vec![Effect::Split(SplitFx::Undo)]
    );
    update(
        &mut state,
        Action::Split(SplitMsg::Undone(Ok("Undid the split".into()))),
    );
    assert_eq!(
        state.overlay.split_plan.as_ref().unwrap().phase,
        SplitPhase::Planning
    );
}

#[test]
fn an_apply_refused_before_it_started_leaves_the_plan_to_change() {
    let mut state = open_view();
    key(&mut state, KeyCode::Enter);
    key(&mut state, KeyCode::Char('y'));
    let result = Err(Failure::other("the change moved since Iris planned it"));
    update(
        &mut state,
        Action::Split(SplitMsg::Applied {
            result,
            undoable: false,
        }),
    );
    assert_eq!(
        state.overlay.split_plan.as_ref().unwrap().phase,
        SplitPhase::Planning
    );
    assert_eq!(notice(&state).0, Level::Error);
}

#[test]
fn ctrl_c_leaves_the_view_for_the_quit_question() {
    // A message typed and not saved: ctrl-c closes the view and asks before quitting.
    let mut state = open_view();
    if let Some(buffer) = state.artifacts.get_mut(&ArtifactKind::Commit) {
        buffer.replace("Half a message");
    }
    update(
        &mut state,
        press_with(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    assert!(state.overlay.split_plan.is_none());
    assert_eq!(state.overlay.confirm, Some(Confirm::Quit));
    assert!(!state.quit);
    // Nothing unsaved: it quits.
    let mut state = open_view();
    update(
        &mut state,
        press_with(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    assert!(state.quit);
}

#[test]
fn j_and_k_scroll_a_long_diff_within_its_lines_and_n_starts_the_next_hunk_at_its_top() {
    let mut state = open_view();
    key(&mut state, KeyCode::Down);
    let view = state.overlay.split_plan.as_ref().unwrap();
    // h2: its place, header, 4 lines, a blank; the new file h3: its place, header, 1 line, a blank.
    assert_eq!(view.diff_lines(), 11);
    key(&mut state, KeyCode::Char('J'));
    key(&mut state, KeyCode::Char('J'));
    assert_eq!(
        state.overlay.split_plan.as_ref().unwrap().scroll,
        10,
        "never past the last line"
    );
    key(&mut state, KeyCode::Char('K'));
    assert_eq!(state.overlay.split_plan.as_ref().unwrap().scroll, 0);
    key(&mut state, KeyCode::PageDown);
    key(&mut state, KeyCode::Char('n'));
    let view = state.overlay.split_plan.as_ref().unwrap();
    assert_eq!((view.top, view.scroll), (1, 0));
    assert_eq!(view.top_unit().as_deref(), Some("h3"));
}

#[test]
fn z_steps_back_through_every_change_iris_included() {
    let mut state = open_view();
    key(&mut state, KeyCode::Char('m'));
    key(&mut state, KeyCode::Char('2'));
    assert_eq!(hunks(&state), vec![vec!["h1", "h2", "h3"]]);
    let [Effect::Split(SplitFx::Chat { task, .. })] = ({
        key(&mut state, KeyCode::Char('/'));
        type_text(&mut state, "split it again");
        key(&mut state, KeyCode::Enter)
    })[..] else {
        panic!("SplitChat");
    };
    update(
        &mut state,
        Action::Split(SplitMsg::Updated {
            task,
            plan: docs_first(),
        }),
    );
    assert_eq!(hunks(&state), vec![vec!["h3"], vec!["h1", "h2"]]);
    key(&mut state, KeyCode::Char('z'));
    assert_eq!(hunks(&state), vec![vec!["h1", "h2", "h3"]]);
    key(&mut state, KeyCode::Char('z'));
    assert_eq!(hunks(&state), vec![vec!["h1"], vec!["h2", "h3"]]);
    key(&mut state, KeyCode::Char('z'));
    assert_eq!(notice(&state).1, "this is the plan Iris made first");
}
