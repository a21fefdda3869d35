//! `update::external`: the user's own editor (the artifact, the diff's or explore's file),
//! the clipboard and publishing.

use crossterm::event::KeyCode;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::{EditTarget, Effect};
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{
    ChangesFx, EditorFx, ExploreFx, ExternalFx, ExternalMsg, PublishFx, PublishMsg,
};
use iris_studio_tui::state::{Confirm, Level, Mode, Pane};
use iris_studio_tui::update::update;

use super::support::{
    command, explore_with_file, key, loaded, notice, press, review_with_a_hunch, staged,
    start_generation, text, with_diff, with_message,
};

#[test]
fn e_opens_the_artifact_in_the_users_editor_and_its_text_comes_back_as_a_version() {
    let mut state = with_message("Add one");
    state.focus = Pane::Editor;
    assert_eq!(
        command(&mut state, Command::EditExternal),
        vec![Effect::External(ExternalFx::Edit(EditTarget::Artifact {
            kind: ArtifactKind::Commit,
            text: "Add one".into()
        }))]
    );
    let effects = update(
        &mut state,
        Action::External(ExternalMsg::ArtifactEdited {
            kind: ArtifactKind::Commit,
            result: Ok("Add one and two\n\nBody.\n".into()),
        }),
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add one and two\n\nBody.");
    assert!(
        matches!(effects.as_slice(), [Effect::Editor(EditorFx::SaveDraft { draft, .. })] if draft.text == "Add one and two\n\nBody.")
    );
    assert_eq!(notice(&state).0, Level::Success);
    // Undo steps back over the editor's text.
    command(&mut state, Command::UndoVersion);
    assert_eq!(text(&state, Mode::COMMIT), "Add one");
    // An editor that failed, or changed nothing, leaves the text alone.
    let failed = update(
        &mut state,
        Action::External(ExternalMsg::ArtifactEdited {
            kind: ArtifactKind::Commit,
            result: Err(Failure::other("`vim` exited with exit status: 1")),
        }),
    );
    assert!(failed.is_empty());
    assert_eq!(text(&state, Mode::COMMIT), "Add one");
    assert_eq!(notice(&state).0, Level::Error);
    update(
        &mut state,
        Action::External(ExternalMsg::ArtifactEdited {
            kind: ArtifactKind::Commit,
            result: Ok("Add one\n".into()),
        }),
    );
    assert_eq!(notice(&state).1, "no change from the editor");
}

#[test]
fn e_is_refused_while_iris_writes_the_artifact() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.focus = Pane::Editor;
    start_generation(&mut state);
    assert!(command(&mut state, Command::EditExternal).is_empty());
    assert!(
        notice(&state).1.starts_with("Iris is writing the commit"),
        "{:?}",
        state.notice
    );
}

#[test]
fn e_on_the_diff_opens_its_file_at_the_line_in_view() {
    let mut state = with_diff(Mode::COMMIT);
    state.focus = Pane::Diff;
    state.diff.scroll = 7; // the added line of hunk two: new line 2 of a hunk starting at 1
    let file = |line| {
        vec![Effect::External(ExternalFx::Edit(EditTarget::File {
            path: "src/lib.rs".into(),
            line,
        }))]
    };
    assert_eq!(command(&mut state, Command::EditExternal), file(2));
    state.diff.scroll = 0;
    assert_eq!(command(&mut state, Command::EditExternal), file(1));
    // The file is read again once the editor closes.
    let effects = update(
        &mut state,
        Action::External(ExternalMsg::FileEdited {
            path: "src/lib.rs".into(),
            result: Ok(()),
        }),
    );
    assert_eq!(effects, vec![Effect::Changes(ChangesFx::LoadStatus)]);
}

#[test]
fn e_in_explore_opens_the_file_at_the_cursor_and_reopens_it_after() {
    let mut state = explore_with_file();
    command(&mut state, Command::Down);
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::EditExternal),
        vec![Effect::External(ExternalFx::Edit(EditTarget::File {
            path: "src/lib.rs".into(),
            line: 3
        }))]
    );
    let effects = update(
        &mut state,
        Action::External(ExternalMsg::FileEdited {
            path: "src/lib.rs".into(),
            result: Ok(()),
        }),
    );
    assert_eq!(
        effects,
        vec![
            Effect::Changes(ChangesFx::LoadStatus),
            Effect::Explore(ExploreFx::OpenFile {
                path: "src/lib.rs".into()
            })
        ]
    );
    // On the tree, a directory does not open.
    state.explore.files = vec!["src/lib.rs".into()];
    state.focus = Pane::Tree;
    state.explore.selected = 0;
    assert!(command(&mut state, Command::EditExternal).is_empty());
    assert!(
        notice(&state).1.contains("a directory"),
        "{:?}",
        state.notice
    );
}

#[test]
fn y_copies_the_artifact_or_explores_selected_lines() {
    let mut state = with_message("Add one\n\nBody");
    assert_eq!(
        command(&mut state, Command::Copy),
        vec![Effect::Publish(PublishFx::Copy {
            text: "Add one\n\nBody".into(),
            what: "commit".into()
        })]
    );
    update(
        &mut state,
        Action::Publish(PublishMsg::Copied(Ok(
            "copied the commit (13 characters) through the terminal".into(),
        ))),
    );
    assert_eq!(notice(&state).0, Level::Success);
    let mut state = explore_with_file();
    command(&mut state, Command::Down);
    command(&mut state, Command::SelectLines);
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::Copy),
        vec![Effect::Publish(PublishFx::Copy {
            text: "fn f2() {}\nfn f3() {}".into(),
            what: "src/lib.rs:2-3".into()
        })]
    );
    let mut empty = loaded(Mode::COMMIT, vec![]);
    assert!(command(&mut empty, Command::Copy).is_empty());
    assert_eq!(notice(&empty).1, "nothing to copy yet");
}

#[test]
fn p_publishes_the_pr_or_posts_the_review_after_asking() {
    let mut state = with_message("Add one");
    assert!(command(&mut state, Command::Publish).is_empty());
    assert!(notice(&state).1.contains("PR (4)"), "{:?}", state.notice);
    command(&mut state, Command::ModePr);
    state.range.from = Some("origin/main".into());
    state.range.to = Some("feature".into());
    // Nothing written yet: nothing to publish.
    command(&mut state, Command::Publish);
    assert!(state.overlay.confirm.is_none());
    state
        .artifacts
        .get_mut(&ArtifactKind::Pr)
        .unwrap()
        .replace("# Add one\n\n## Summary\n\nAdds one.");
    command(&mut state, Command::Publish);
    assert_eq!(state.overlay.confirm, Some(Confirm::Publish));
    assert!(key(&mut state, KeyCode::Char('n')).is_empty());
    command(&mut state, Command::Publish);
    assert_eq!(
        key(&mut state, KeyCode::Char('y')),
        vec![Effect::Publish(PublishFx::Publish {
            kind: ArtifactKind::Pr,
            text: "# Add one\n\n## Summary\n\nAdds one.".into(),
            base: Some("origin/main".into()),
            to: Some("feature".into()),
        })]
    );
    update(
        &mut state,
        Action::Publish(PublishMsg::Published(Err(Failure::other(
            "gh is not installed",
        )))),
    );
    assert_eq!(notice(&state), (Level::Error, "gh is not installed"));
    // The review is posted as it is, with no base.
    command(&mut state, Command::ModeReview);
    state
        .artifacts
        .get_mut(&ArtifactKind::Review)
        .unwrap()
        .replace("## Findings\n\nNone.");
    command(&mut state, Command::Publish);
    assert!(matches!(
        key(&mut state, KeyCode::Enter).as_slice(),
        [Effect::Publish(PublishFx::Publish {
            kind: ArtifactKind::Review,
            base: None,
            to: None,
            ..
        })]
    ));
}

#[test]
fn e_on_a_diff_still_loading_opens_its_file_from_the_top() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.focus = Pane::Diff;
    assert!(state.diff.loading && state.diff.files.is_empty());
    assert_eq!(
        command(&mut state, Command::EditExternal),
        vec![Effect::External(ExternalFx::Edit(EditTarget::File {
            path: "src/lib.rs".into(),
            line: 1
        }))]
    );
    let mut empty = loaded(Mode::COMMIT, vec![]);
    empty.focus = Pane::Diff;
    assert!(command(&mut empty, Command::EditExternal).is_empty());
    assert_eq!(notice(&empty).1, "select a changed file first");
}

#[test]
fn a_review_is_posted_as_the_list_shows_it() {
    let mut state = review_with_a_hunch();
    command(&mut state, Command::Publish);
    let effects = update(&mut state, press(KeyCode::Char('y')));
    let posted = match effects.as_slice() {
        [Effect::Publish(PublishFx::Publish { text, .. })] => text.clone(),
        other => panic!("expected Publish, got {other:?}"),
    };
    assert!(!posted.contains("Hunch"), "{posted}");
    assert!(posted.contains("## High (1)\n\n### Sure"), "{posted}");
    assert!(posted.ends_with("_1 less certain finding (under 70% confidence) left out._\n"));
    // Shown, every finding goes out as written.
    command(&mut state, Command::ShowUnsure);
    command(&mut state, Command::Publish);
    let effects = update(&mut state, press(KeyCode::Char('y')));
    assert!(
        matches!(effects.as_slice(), [Effect::Publish(PublishFx::Publish { text, .. })] if text.contains("Hunch"))
    );
}
