//! `update::alternatives`: Iris writes versions of the commit message; one is picked, or the
//! current one kept (ctrl-c quits from them too).

use crossterm::event::{KeyCode, KeyModifiers};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::protocol::AgentEvent;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{EditorFx, GenerateFx, GenerateMsg};
use iris_studio_tui::state::{Level, Mode, Pane, State, Task, TaskKind};
use iris_studio_tui::update::update;

use super::support::{
    command, loaded, notice, press, press_with, staged, text, unstaged, with_message,
};

/// `a` on a message: the Alternatives effect's task id.
fn ask_alternatives(state: &mut State) -> u64 {
    match command(state, Command::Alternatives).as_slice() {
        [Effect::Generate(GenerateFx::Alternatives { task, kind, count })] => {
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
        .map_err(Failure::other);
    update(
        state,
        Action::Generate(GenerateMsg::Alternatives {
            task,
            kind: ArtifactKind::Commit,
            result,
        }),
    )
}

#[test]
fn alternatives_are_shown_beside_the_message_and_the_one_picked_becomes_a_version() {
    let mut state = with_message("Add two()");
    let task = ask_alternatives(&mut state);
    assert!(matches!(
        state.iris.task,
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
    assert!(state.iris.task.is_none());
    let shown = state
        .overlay
        .alternatives
        .as_ref()
        .expect("the versions are shown");
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
    assert!(state.overlay.confirm.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
    assert!(command(&mut state, Command::Commit).is_empty());
    update(&mut state, press(KeyCode::Right));
    update(&mut state, press(KeyCode::Right));
    update(&mut state, press(KeyCode::Right));
    assert_eq!(
        state.overlay.alternatives.as_ref().map(|a| a.selected),
        Some(0),
        "round"
    );
    update(&mut state, press(KeyCode::Left));
    assert_eq!(
        state.overlay.alternatives.as_ref().map(|a| a.selected),
        Some(2)
    );
    // `2` picks the first alternative: the newest version, saved, and undo steps back.
    let effects = update(&mut state, press(KeyCode::Char('2')));
    assert!(state.overlay.alternatives.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Add a second function");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Editor(EditorFx::SaveDraft { .. }))),
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
    assert!(state.overlay.alternatives.is_none());
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
    assert!(state.overlay.alternatives.is_none());
    assert_eq!(
        notice(&state),
        (
            Level::Info,
            "Iris wrote nothing different from the current message"
        )
    );
    let task = ask_alternatives(&mut state);
    alternatives_written(&mut state, task, Err("openai: 500 the server failed"));
    assert!(state.overlay.alternatives.is_none() && state.iris.task.is_none());
    assert_eq!(
        notice(&state),
        (Level::Error, "openai: 500 the server failed")
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
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
    assert!(state.overlay.alternatives.is_some());
    update(
        &mut state,
        press_with(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    assert!(state.overlay.alternatives.is_none());
    assert_eq!((state.quit, state.overlay.confirm), (true, None));
}
