//! `update::stack`: PR mode over a stack of branches: the layer of the checked-out branch
//! shown and written with its place in the stack, `[` and `]` between layers keeping each
//! one's text, `P` publishing them all.

use crossterm::event::KeyCode;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::stack::{Layer, Stack};
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::features::msgs::{
    EditorFx, EditorMsg, GenerateFx, RangeFx, RangeMsg, StackFx, StackMsg,
};
use iris_studio_tui::layout::PaneRects;
use iris_studio_tui::state::{Confirm, Level, Mode, State};
use iris_studio_tui::update::update;

use super::support::{click, command, commit_row, generated, loaded, notice, press, text};

fn layer(branch: &str, parent: &str, title: &str) -> Layer {
    Layer {
        branch: branch.into(),
        parent: parent.into(),
        tip: format!("{branch}-tip"),
        titles: vec![title.into()],
    }
}

fn stack() -> Stack {
    Stack {
        base: "main".into(),
        layers: vec![
            layer("b1", "main", "Add the parser"),
            layer("b2", "b1", "Add the evaluator"),
            layer("b3", "b2", "Add the REPL"),
        ],
        current: 1,
        notes: Vec::new(),
    }
}

fn commits_of(state: &mut State, from: &str, title: &str) -> Vec<Effect> {
    update(
        state,
        Action::Range(RangeMsg::Commits {
            mode: Mode::PR,
            result: Ok((from.to_string(), vec![commit_row("abc1234", title)])),
        }),
    )
}

/// A generation's range, and its request's section on the stack.
type Generation = (Option<(String, String)>, Option<String>);

fn generations(effects: &[Effect]) -> Vec<Generation> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Generate(GenerateFx::Generate { range, stack, .. }) => Some((
                range.clone(),
                stack
                    .as_ref()
                    .map(iris_studio_core::stack::InStack::section),
            )),
            _ => None,
        })
        .collect()
}

/// PR mode on b2 of the stack, its layer's commits loaded and Iris writing it (task 1).
fn on_the_stack() -> State {
    let mut state = loaded(Mode::COMMIT, vec![]);
    state.iris.auto_generate = true;
    command(&mut state, Command::ModePr);
    let effects = commits_of(&mut state, "main", "Add the REPL");
    assert!(effects.contains(&Effect::Stack(StackFx::Load {
        base: "main".to_string()
    })));
    assert!(
        generations(&effects).is_empty(),
        "nothing written before the stack is known"
    );
    let effects = update(
        &mut state,
        Action::Stack(StackMsg::Loaded(Ok(Some(stack())))),
    );
    assert_eq!(
        effects,
        vec![Effect::Range(RangeFx::LoadCommits {
            mode: Mode::PR,
            from: Some("b1".to_string()),
            to: Some("b2".to_string()),
        })]
    );
    assert!(
        notice(&state).1.contains("one layer of a stack of 3"),
        "{:?}",
        state.notice
    );
    let effects = commits_of(&mut state, "b1", "Add the evaluator");
    let written = generations(&effects);
    assert_eq!(written.len(), 1);
    assert_eq!(written[0].0, Some(("b1".to_string(), "b2".to_string())));
    let section = written[0]
        .1
        .clone()
        .expect("the layer's place in the stack");
    assert!(
        section.contains("It goes into `b1`, not into `main`"),
        "{section}"
    );
    state
}

#[test]
fn pr_modes_notice_goes_when_another_mode_is_entered() {
    let mut state = on_the_stack();
    assert!(state.notice.is_some());
    command(&mut state, Command::ModeCommit);
    assert_eq!(
        state.notice, None,
        "PR mode's stack keys said in commit mode"
    );
}

#[test]
fn the_checked_out_layer_is_written_with_its_place_in_the_stack() {
    on_the_stack();
}

#[test]
fn moving_between_layers_keeps_each_ones_description() {
    let mut state = on_the_stack();
    // Not while Iris writes this one.
    assert!(command(&mut state, Command::NextLayer).is_empty());
    assert!(notice(&state).1.contains("still writing"));
    generated(&mut state, 1, "# Evaluate expressions\n\nb2's body");
    let effects = command(&mut state, Command::NextLayer);
    assert_eq!(
        effects,
        vec![Effect::Range(RangeFx::LoadCommits {
            mode: Mode::PR,
            from: Some("b2".to_string()),
            to: Some("b3".to_string()),
        })]
    );
    assert_eq!(text(&state, Mode::PR), "", "b3 has no description yet");
    let effects = commits_of(&mut state, "b2", "Add the REPL");
    let written = generations(&effects);
    assert_eq!(written[0].0, Some(("b2".to_string(), "b3".to_string())));
    generated(&mut state, 2, "# Add a REPL\n\nb3's body");
    assert!(command(&mut state, Command::NextLayer).is_empty());
    assert_eq!(
        notice(&state),
        (Level::Info, "this is the stack's top layer")
    );
    command(&mut state, Command::PrevLayer);
    assert_eq!(
        text(&state, Mode::PR),
        "# Evaluate expressions\n\nb2's body"
    );
    // Its commits come again: they are unchanged, nothing is written anew.
    let effects = commits_of(&mut state, "b1", "Add the evaluator");
    assert!(generations(&effects).is_empty(), "{effects:?}");
    // A click on the bottom layer's row shows it.
    let rects = PaneRects::compute(state.screen.size, &state);
    let area = rects.stack.expect("the stack's box");
    let effects = update(&mut state, click(area.x + 2, area.y + 1));
    assert_eq!(
        effects,
        vec![Effect::Range(RangeFx::LoadCommits {
            mode: Mode::PR,
            from: Some("main".to_string()),
            to: Some("b1".to_string()),
        })]
    );
}

#[test]
fn publishing_has_iris_write_the_layers_without_text_then_sends_them_all() {
    let mut state = on_the_stack();
    generated(&mut state, 1, "# Evaluate expressions\n\nb2's body");
    assert!(command(&mut state, Command::Publish).is_empty());
    assert_eq!(state.overlay.confirm, Some(Confirm::PublishStack));
    let effects = update(&mut state, press(KeyCode::Char('y')));
    assert_eq!(
        effects,
        vec![Effect::Stack(StackFx::Publish {
            task: Some(2),
            stack: stack(),
            texts: vec![
                String::new(),
                "# Evaluate expressions\n\nb2's body".to_string(),
                String::new()
            ],
        })]
    );
    assert!(
        notice(&state)
            .1
            .contains("Iris writes the 2 layers without a description"),
        "{:?}",
        state.notice
    );
    // A second P waits for the first.
    command(&mut state, Command::Publish);
    assert_eq!(state.overlay.confirm, None);
    // While she writes them the layers stay put; each one written lands in its own layer.
    assert!(command(&mut state, Command::PrevLayer).is_empty());
    update(
        &mut state,
        Action::Stack(StackMsg::LayerWritten {
            task: 2,
            index: 0,
            text: "# Parse expressions\n\nb1's body".into(),
        }),
    );
    update(
        &mut state,
        Action::Stack(StackMsg::LayerWritten {
            task: 2,
            index: 2,
            text: "# Add a REPL\n\nb3's body".into(),
        }),
    );
    assert_eq!(
        text(&state, Mode::PR),
        "# Evaluate expressions\n\nb2's body"
    );
    let lines = vec![
        "b1: created pull request https://github.com/o/r/pull/1 (into main)".to_string(),
        "b2: created pull request https://github.com/o/r/pull/2 (into b1)".to_string(),
    ];
    update(
        &mut state,
        Action::Stack(StackMsg::Published {
            task: Some(2),
            result: Ok(lines.clone()),
        }),
    );
    assert_eq!(
        state.overlay.report.as_ref().map(|r| r.text.clone()),
        Some(lines.join("\n"))
    );
    assert_eq!(notice(&state).0, Level::Success);
    assert!(state.iris.task.is_none());
    command(&mut state, Command::PrevLayer);
    assert_eq!(text(&state, Mode::PR), "# Parse expressions\n\nb1's body");
    // Without Iris, what has text is published, as no task of hers.
    state.iris.unavailable = Some("no provider".into());
    command(&mut state, Command::Publish);
    let effects = update(&mut state, press(KeyCode::Char('y')));
    assert!(
        matches!(
            &effects[..],
            [Effect::Stack(StackFx::Publish { task: None, .. })]
        ),
        "{effects:?}"
    );
    // A range picked with R is no layer: P publishes that one PR, as without a stack.
    update(
        &mut state,
        Action::Stack(StackMsg::Published {
            task: None,
            result: Ok(Vec::new()),
        }),
    );
    state.overlay.report = None;
    state.range.from = Some("v0.9".into());
    command(&mut state, Command::Publish);
    assert_eq!(state.overlay.confirm, Some(Confirm::Publish));
}

#[test]
fn without_a_stack_the_layer_keys_say_so_and_the_pr_is_the_whole_range() {
    let mut state = loaded(Mode::PR, vec![]);
    assert!(command(&mut state, Command::NextLayer).is_empty());
    assert!(notice(&state).1.contains("in no stack of branches"));
    let mut commit = loaded(Mode::COMMIT, vec![]);
    assert!(command(&mut commit, Command::PrevLayer).is_empty());
    assert!(notice(&commit).1.contains("pull request mode (4)"));
    assert_eq!(ArtifactKind::Pr, Mode::PR.artifact().unwrap());
}

#[test]
fn each_layers_text_is_in_the_draft_and_goes_back_to_its_layer() {
    let mut state = on_the_stack();
    let effects = generated(&mut state, 1, "# Evaluate expressions\n\nb2's body");
    let Some(Effect::Editor(EditorFx::SaveDraft { draft, .. })) = effects.last() else {
        panic!("no draft saved: {effects:?}");
    };
    assert_eq!(draft.layer.as_deref(), Some("b2"));
    command(&mut state, Command::NextLayer);
    commits_of(&mut state, "b2", "Add the REPL");
    let effects = generated(&mut state, 2, "# Add a REPL\n\nb3's body");
    let Some(Effect::Editor(EditorFx::SaveDraft { draft, .. })) = effects.last().cloned() else {
        panic!("no draft saved: {effects:?}");
    };
    assert_eq!(draft.layer.as_deref(), Some("b3"));
    assert_eq!(draft.text, "# Add a REPL\n\nb3's body");
    assert_eq!(
        draft.layers["b2"].text,
        "# Evaluate expressions\n\nb2's body"
    );
    // A text typed in a layer left for another is unsaved until the draft has it.
    command(&mut state, Command::PrevLayer);
    state.focus = iris_studio_tui::state::Pane::Editor;
    update(&mut state, press(KeyCode::Char('!')));
    state.focus = iris_studio_tui::state::Pane::Commits;
    state
        .artifacts
        .get_mut(&ArtifactKind::Pr)
        .unwrap()
        .saved
        .clear();
    command(&mut state, Command::NextLayer);
    assert!(state.unsaved());

    // The studio opened again on b2: each layer gets its own text back.
    let mut state = loaded(Mode::COMMIT, vec![]);
    update(
        &mut state,
        Action::Editor(EditorMsg::DraftsLoaded(vec![(ArtifactKind::Pr, draft)])),
    );
    command(&mut state, Command::ModePr);
    commits_of(&mut state, "main", "Add the REPL");
    update(
        &mut state,
        Action::Stack(StackMsg::Loaded(Ok(Some(stack())))),
    );
    assert_eq!(
        text(&state, Mode::PR),
        "# Evaluate expressions\n\nb2's body"
    );
    command(&mut state, Command::NextLayer);
    assert_eq!(text(&state, Mode::PR), "# Add a REPL\n\nb3's body");
}
