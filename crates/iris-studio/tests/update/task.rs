//! `update::task`: Iris' running task: its progress, cancelling it, and the notice it ends
//! with.

use iris_studio_core::protocol::AgentEvent;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::state::{Level, Mode, Pane, State};
use iris_studio_tui::update::update;

use super::support::{
    command, generated, loaded, notice, staged, start_generation, text, with_message,
};

#[test]
fn back_cancels_a_running_task_and_keeps_the_text() {
    let mut state = with_message("Add two()");
    state.focus = Pane::Editor;
    let task = start_generation(&mut state);
    assert_eq!(
        command(&mut state, Command::Back),
        vec![Effect::Cancel { task }]
    );
    assert!(state.iris.task.is_none());
    assert_eq!(state.focus, Pane::Editor, "the first back only cancels");
    assert_eq!(notice(&state).0, Level::Info);
    assert!(notice(&state).1.starts_with("cancelled"));
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
    // The cancelled task's late result is dropped.
    assert_eq!(generated(&mut state, task, "Late"), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
}

#[test]
fn agent_events_show_the_running_tasks_progress() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let task = start_generation(&mut state);
    let event = |state: &mut State, task: u64, event: AgentEvent| {
        assert_eq!(update(state, Action::Agent { task, event }), vec![]);
    };
    event(
        &mut state,
        task,
        AgentEvent::Status("running commit".into()),
    );
    assert_eq!(
        state.iris.task.as_ref().unwrap().progress.activity,
        "running commit"
    );
    event(
        &mut state,
        task,
        AgentEvent::TextDelta("{\"title\":".into()),
    );
    event(&mut state, task, AgentEvent::TextDelta(" \"Add\"".into()));
    let running = state.iris.task.as_ref().unwrap();
    assert_eq!(running.progress.activity, "writing");
    assert_eq!(running.progress.streamed, "{\"title\": \"Add\"");
    event(
        &mut state,
        task,
        AgentEvent::Usage {
            input: 21,
            output: 7,
            cached: 0,
        },
    );
    event(
        &mut state,
        task,
        AgentEvent::Usage {
            input: 21,
            output: 7,
            cached: 0,
        },
    );
    // A tool call starts a new turn: the text before it was thinking aloud.
    event(
        &mut state,
        task,
        AgentEvent::ToolStarted {
            name: "git_diff".into(),
            summary: "reading the diff".into(),
        },
    );
    let running = state.iris.task.as_ref().unwrap();
    assert_eq!(running.progress.activity, "reading the diff");
    assert_eq!(running.progress.streamed, "");
    assert_eq!(
        (
            running.progress.input_tokens,
            running.progress.output_tokens
        ),
        (42, 14)
    );
    for quiet in [
        AgentEvent::ToolFinished {
            name: "git_diff".into(),
            ok: true,
        },
        AgentEvent::Done("x".into()),
        AgentEvent::Error("y".into()),
    ] {
        event(&mut state, task, quiet);
    }
    assert_eq!(
        state.iris.task.as_ref().unwrap().progress.activity,
        "reading the diff"
    );
    // Another task's events are not this one's.
    event(&mut state, task + 1, AgentEvent::Status("other".into()));
    event(&mut state, task + 1, AgentEvent::TextDelta("other".into()));
    let running = state.iris.task.as_ref().unwrap();
    assert_eq!(
        (
            running.progress.activity.as_str(),
            running.progress.streamed.as_str()
        ),
        ("reading the diff", "")
    );
}

#[test]
fn withheld_secrets_are_counted_while_iris_works_and_told_when_she_is_done() {
    use iris_studio_core::protocol::AgentEvent;
    use iris_studio_core::secrets::{Finding, Location};
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    let finding = |line| Finding {
        rule: "aws-access-key".into(),
        location: Some(Location {
            path: ".env".to_string(),
            line,
        }),
        fingerprint: "aws-access-key:0123456789ab".to_string(),
    };
    for line in [1, 2] {
        update(
            &mut state,
            Action::Agent {
                task,
                event: AgentEvent::SecretWithheld(finding(line)),
            },
        );
    }
    assert_eq!(
        state
            .iris
            .task
            .as_ref()
            .map(|t| t.progress.secrets_withheld),
        Some(2)
    );
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "a secret was withheld from Iris: aws-access-key at .env:2 (sent as a marker)"
        )
    );
    generated(&mut state, task, "Add keys\n\nAdds the deployment keys.");
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "Iris wrote the commit message; 2 secrets withheld from her (sent as markers)"
        )
    );
    // Without secrets, success as before.
    let task = start_generation(&mut state);
    generated(&mut state, task, "Add keys\n\nAdds the deployment keys.");
    assert_eq!(notice(&state).0, Level::Success);
}

#[test]
fn a_warning_from_iris_is_a_warning_notice() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    update(
        &mut state,
        Action::Agent {
            task,
            event: AgentEvent::Warning("cannot read the commit rules in .commitlintrc.json".into()),
        },
    );
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "cannot read the commit rules in .commitlintrc.json"
        )
    );
}

#[test]
fn a_warning_during_a_generation_stays_in_the_notice_it_ends_with() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let task = start_generation(&mut state);
    for text in ["first problem", "the template was filled from the fields"] {
        let event = AgentEvent::Warning(text.to_string());
        update(&mut state, Action::Agent { task, event });
    }
    generated(&mut state, task, "Add two()");
    let (level, text) = notice(&state);
    assert_eq!(level, Level::Warning);
    assert!(text.starts_with("Iris wrote the"), "{text}");
    assert!(
        text.ends_with("; warning: the template was filled from the fields (and 1 more)"),
        "{text}"
    );
}
