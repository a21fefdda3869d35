//! `update::artifact`: generating the artifact, typing in it, the chat, versions and drafts,
//! the commit rules it is checked against, and the review's findings.

use crossterm::event::{KeyCode, KeyModifiers};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_tui::action::{Action, ChatOutcome};
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::Failure;
use iris_studio_tui::features::msgs::{
    ChatFx, ChatMsg, DiffFx, DiffMsg, EditorFx, EditorMsg, GenerateFx, GenerateMsg,
};
use iris_studio_tui::state::{
    ChatMessage, Confirm, Draft, Level, Mode, Notice, Pane, Speaker, State, TaskKind,
};
use iris_studio_tui::update::update;

use super::support::{
    STAGED, command, generated, generation_failed, loaded, notice, press, press_with,
    review_with_a_hunch, staged, start_generation, status, status_of, text, two_hunk_diff,
    type_text, unstaged, with_message,
};

#[test]
fn typing_in_the_editor_edits_the_artifact_and_saves_each_change_as_a_draft() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    state.focus = Pane::Editor;
    assert_eq!(
        update(&mut state, press(KeyCode::Char('H'))),
        vec![Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft("H".to_string()),
        })]
    );
    assert_eq!(
        type_text(&mut state, "i there"),
        vec![Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft("Hi there".to_string()),
        })]
    );
    // Backspace edits too; a key that changes nothing saves nothing.
    assert_eq!(
        update(&mut state, press(KeyCode::Backspace)),
        vec![Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: draft("Hi ther".to_string()),
        })]
    );
    assert_eq!(update(&mut state, press(KeyCode::Left)), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Hi ther");
    assert!(!state.unsaved(), "the draft was saved as it changed");
    // Only the commit message changed.
    assert_eq!(text(&state, Mode::REVIEW), "");
}

#[test]
fn chat_enter_sends_the_message_with_the_history_and_the_artifact() {
    let mut state = with_message("Add two()\n\nAdds a second function.");
    assert_eq!(command(&mut state, Command::OpenChat), vec![]);
    assert!(state.chat.open);
    assert_eq!(state.focus, Pane::ChatInput);

    // Alt-enter and shift-enter add a line; plain enter sends.
    assert_eq!(type_text(&mut state, "make it"), vec![]);
    assert_eq!(
        update(&mut state, press_with(KeyCode::Enter, KeyModifiers::ALT)),
        vec![]
    );
    assert_eq!(type_text(&mut state, "shorter"), vec![]);
    assert_eq!(state.chat.input.lines(), ["make it", "shorter"]);
    let effects = update(&mut state, press(KeyCode::Enter));
    let task = state.iris.task.as_ref().expect("a chat task").clone();
    assert_eq!(task.kind, TaskKind::Chat);
    assert_eq!(task.mode, Mode::COMMIT);
    assert_eq!(
        effects,
        vec![Effect::Chat(ChatFx::Send {
            task: task.id,
            kind: ArtifactKind::Commit,
            history: vec![],
            message: "make it\nshorter".to_string(),
            artifact: "Add two()\n\nAdds a second function.".to_string(),
        })]
    );
    assert!(state.chat.input.is_empty(), "the input is cleared");
    assert_eq!(
        state.chat.messages,
        vec![ChatMessage {
            speaker: Speaker::User,
            text: "make it\nshorter".to_string()
        }]
    );

    // While Iris answers, another message waits in the input.
    type_text(&mut state, "and add a body");
    assert_eq!(update(&mut state, press(KeyCode::Enter)), vec![]);
    assert_eq!(notice(&state).0, Level::Warning);
    assert!(notice(&state).1.contains("busy"), "{:?}", state.notice);
    assert_eq!(state.chat.input.lines(), ["and add a body"]);

    update(
        &mut state,
        Action::Chat(ChatMsg::Replied {
            task: task.id,
            result: Ok(ChatOutcome {
                reply: "Done.".to_string(),
            }),
        }),
    );
    // The next message carries the conversation so far as history.
    match update(&mut state, press(KeyCode::Enter)).as_slice() {
        [
            Effect::Chat(ChatFx::Send {
                task: second,
                history,
                message,
                ..
            }),
        ] => {
            assert!(*second > task.id);
            assert_eq!(message, "and add a body");
            assert_eq!(
                history,
                &vec![
                    ChatMessage {
                        speaker: Speaker::User,
                        text: "make it\nshorter".to_string()
                    },
                    ChatMessage {
                        speaker: Speaker::Iris,
                        text: "Done.".to_string()
                    },
                ]
            );
        }
        other => panic!("expected a Chat effect, got {other:?}"),
    }
}

#[test]
fn an_empty_chat_message_is_not_sent() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "   ");
    assert_eq!(update(&mut state, press(KeyCode::Enter)), vec![]);
    assert!(state.iris.task.is_none());
    assert!(state.chat.messages.is_empty());
}

#[test]
fn generate_starts_a_task_in_the_current_mode() {
    let mut state = loaded(Mode::REVIEW, vec![staged("a.rs")]);
    assert_eq!(
        command(&mut state, Command::Generate),
        vec![Effect::Generate(GenerateFx::Generate {
            task: 1,
            kind: ArtifactKind::Review,
            range: None,
            stack: None,
        })]
    );
    let task = state.iris.task.as_ref().unwrap();
    assert_eq!(
        (task.id, task.mode, task.kind),
        (1, Mode::REVIEW, TaskKind::Generate)
    );
    assert_eq!(task.progress.activity, "starting");
    assert_eq!(state.iris.next_task_id, 2);
}

#[test]
fn generate_while_busy_warns_and_starts_nothing() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let first = start_generation(&mut state);
    assert_eq!(command(&mut state, Command::Generate), vec![]);
    assert_eq!(state.iris.task.as_ref().unwrap().id, first);
    assert_eq!(
        notice(&state),
        (
            Level::Warning,
            "Iris is busy: Esc cancels what she is doing"
        )
    );
}

#[test]
fn generate_without_a_provider_says_why() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    state.iris.unavailable = Some("Iris is not configured: no API key".to_string());
    assert_eq!(command(&mut state, Command::Generate), vec![]);
    assert!(state.iris.task.is_none());
    assert_eq!(
        notice(&state),
        (Level::Warning, "Iris is not configured: no API key")
    );
    // The chat will not open either.
    assert_eq!(command(&mut state, Command::OpenChat), vec![]);
    assert!(!state.chat.open);
    assert_eq!(state.focus, Pane::Changes);
    assert_eq!(notice(&state).0, Level::Warning);
}

#[test]
fn undo_and_redo_step_through_the_versions_and_save_the_draft() {
    let mut state = with_message("First title");
    let task = start_generation(&mut state);
    generated(&mut state, task, "Second title");
    // The draft carries the versions, so undo still works when the studio is reopened.
    let saved = |text: &str, position| {
        vec![Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: Draft {
                text: text.to_string(),
                versions: vec!["First title".to_string(), "Second title".to_string()],
                position,
                // What Iris wrote last stays known, whatever version is shown.
                by_iris: Some("Second title".to_string()),
                written_for: Some(STAGED.to_string()),
                ..Draft::default()
            },
        })]
    };
    assert_eq!(
        command(&mut state, Command::UndoVersion),
        saved("First title", 0)
    );
    assert_eq!(text(&state, Mode::COMMIT), "First title");
    assert_eq!(command(&mut state, Command::UndoVersion), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "First title");
    assert_eq!(
        command(&mut state, Command::RedoVersion),
        vec![Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: Draft {
                text: "Second title".to_string(),
                versions: vec!["First title".to_string()],
                position: 1,
                by_iris: Some("Second title".to_string()),
                written_for: Some(STAGED.to_string()),
                ..Draft::default()
            },
        })]
    );
    assert_eq!(text(&state, Mode::COMMIT), "Second title");
    assert_eq!(command(&mut state, Command::RedoVersion), vec![]);
    // The versions of one mode are not another's.
    command(&mut state, Command::ModeReview);
    assert_eq!(command(&mut state, Command::UndoVersion), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Second title");
}

#[test]
fn entering_commit_mode_with_staged_files_and_no_message_generates() {
    let mut state = loaded(Mode::Explore, vec![staged("a.rs")]);
    state.iris.auto_generate = true;
    assert_eq!(
        command(&mut state, Command::ModeCommit),
        vec![Effect::Generate(GenerateFx::Generate {
            task: 1,
            kind: ArtifactKind::Commit,
            range: None,
            stack: None,
        })]
    );
    assert_eq!(state.iris.task.as_ref().unwrap().kind, TaskKind::Generate);

    // Not with a message already there, nothing staged, without a provider, switched off,
    // or in a mode whose input is not the staged change.
    let mut with_text = loaded(Mode::Explore, vec![staged("a.rs")]);
    with_text.iris.auto_generate = true;
    with_text
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("Mine");
    assert_eq!(command(&mut with_text, Command::ModeCommit), vec![]);

    let mut nothing_staged = loaded(Mode::Explore, vec![unstaged("a.rs")]);
    nothing_staged.iris.auto_generate = true;
    assert_eq!(command(&mut nothing_staged, Command::ModeCommit), vec![]);

    let mut no_provider = loaded(Mode::Explore, vec![staged("a.rs")]);
    no_provider.iris.auto_generate = true;
    no_provider.iris.unavailable = Some("no key".to_string());
    assert_eq!(command(&mut no_provider, Command::ModeCommit), vec![]);
    assert_eq!(
        no_provider.notice, None,
        "no warning for what was not asked"
    );

    let mut off = loaded(Mode::Explore, vec![staged("a.rs")]);
    assert_eq!(command(&mut off, Command::ModeCommit), vec![]);

    // A review's input is the staged change too.
    let mut review = loaded(Mode::Explore, vec![staged("a.rs")]);
    review.iris.auto_generate = true;
    assert_eq!(
        command(&mut review, Command::ModeReview),
        vec![Effect::Generate(GenerateFx::Generate {
            task: 1,
            kind: ArtifactKind::Review,
            range: None,
            stack: None,
        })]
    );
}

#[test]
fn generated_lands_in_the_artifact_and_is_saved() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let task = start_generation(&mut state);
    assert_eq!(
        generated(&mut state, task, "Add two()\n\nBody."),
        vec![Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: Draft {
                by_iris: Some("Add two()\n\nBody.".to_string()),
                ..draft("Add two()\n\nBody.")
            },
        })]
    );
    assert!(state.iris.task.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Add two()\n\nBody.");
    assert_eq!(
        state.artifacts[&ArtifactKind::Commit].saved,
        "Add two()\n\nBody."
    );
    assert_eq!(
        state.notice,
        Some(Notice {
            level: Level::Success,
            text: "Iris wrote the commit message".to_string()
        })
    );
}

#[test]
fn a_failed_generation_is_a_notice_and_the_text_stays() {
    let mut state = with_message("Mine");
    let failure = Failure::other("openai: 500\n  Internal Server Error");
    let effects = generation_failed(&mut state, failure);
    assert_eq!(effects, vec![]);
    assert!(state.iris.task.is_none());
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
    // One line in the status bar.
    assert_eq!(
        notice(&state),
        (Level::Error, "openai: 500 Internal Server Error")
    );
    assert!(
        state.overlay.report.is_none(),
        "it fits: no report over the panes"
    );

    // An error too long for the status line is shown whole over the panes until esc.
    let long = format!("openai gpt-5: 400 Bad Request: {}", "detail ".repeat(30));
    let task = start_generation(&mut state);
    update(
        &mut state,
        Action::Generate(GenerateMsg::Written {
            task,
            kind: ArtifactKind::Commit,
            result: Err(Failure::other(long.clone())),
        }),
    );
    assert_eq!(
        state.overlay.report.as_ref().map(|r| r.text.as_str()),
        Some(long.trim_end())
    );
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
    command(&mut state, Command::Back);
    assert!(state.overlay.report.is_none());
}

#[test]
fn a_stale_generation_is_ignored() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    let first = start_generation(&mut state);
    command(&mut state, Command::Back);
    let second = start_generation(&mut state);
    assert_ne!(first, second);
    assert_eq!(generated(&mut state, first, "Old"), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "");
    assert_eq!(state.iris.task.as_ref().unwrap().id, second);
    generated(&mut state, second, "New");
    assert_eq!(text(&state, Mode::COMMIT), "New");
    assert!(state.iris.task.is_none());
}

#[test]
fn chat_replies_join_the_conversation() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "why?");
    let Some(Effect::Chat(ChatFx::Send { task, .. })) =
        update(&mut state, press(KeyCode::Enter)).pop()
    else {
        panic!("no chat effect");
    };
    // A reply from another task changes nothing.
    let reply = |task, result| Action::Chat(ChatMsg::Replied { task, result });
    assert_eq!(
        update(
            &mut state,
            reply(
                task + 7,
                Ok(ChatOutcome {
                    reply: "stale".into()
                })
            )
        ),
        vec![]
    );
    assert_eq!(state.chat.messages.len(), 1);
    assert!(state.iris.task.is_some());
    assert_eq!(
        update(
            &mut state,
            reply(
                task,
                Ok(ChatOutcome {
                    reply: "Because.".into()
                })
            )
        ),
        vec![]
    );
    assert!(state.iris.task.is_none());
    assert_eq!(
        state.chat.messages.last(),
        Some(&ChatMessage {
            speaker: Speaker::Iris,
            text: "Because.".into()
        })
    );
    // A failed reply is a notice, not a message.
    type_text(&mut state, "again");
    let Some(Effect::Chat(ChatFx::Send { task, .. })) =
        update(&mut state, press(KeyCode::Enter)).pop()
    else {
        panic!("no chat effect");
    };
    update(&mut state, reply(task, Err(Failure::other("timed out"))));
    assert!(state.iris.task.is_none());
    assert_eq!(state.chat.messages.len(), 3);
    assert_eq!(notice(&state), (Level::Error, "timed out"));
}

#[test]
fn artifact_updates_land_in_the_editor_while_the_task_runs() {
    let mut state = with_message("Add two() and a very long title nobody wants");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "make it shorter");
    let Some(Effect::Chat(ChatFx::Send { task, .. })) =
        update(&mut state, press(KeyCode::Enter)).pop()
    else {
        panic!("no chat effect");
    };
    let effects = update(
        &mut state,
        Action::Chat(ChatMsg::Updated {
            task,
            kind: ArtifactKind::Commit,
            text: "Add two()".to_string(),
        }),
    );
    assert_eq!(
        effects,
        vec![Effect::Editor(EditorFx::SaveDraft {
            kind: ArtifactKind::Commit,
            draft: Draft {
                text: "Add two()".to_string(),
                versions: vec!["Add two() and a very long title nobody wants".to_string()],
                position: 1,
                by_iris: Some("Add two()".to_string()),
                written_for: Some(STAGED.to_string()),
                ..Draft::default()
            },
        })]
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
    assert!(state.iris.task.is_some(), "the chat goes on after the edit");
    // The version before the edit is one step back.
    command(&mut state, Command::UndoVersion);
    assert_eq!(
        text(&state, Mode::COMMIT),
        "Add two() and a very long title nobody wants"
    );
}

#[test]
fn a_cancelled_tasks_artifact_update_is_dropped() {
    let mut state = with_message("Mine");
    command(&mut state, Command::OpenChat);
    type_text(&mut state, "rewrite it");
    let Some(Effect::Chat(ChatFx::Send { task, .. })) =
        update(&mut state, press(KeyCode::Enter)).pop()
    else {
        panic!("no chat effect");
    };
    command(&mut state, Command::Back);
    assert!(state.iris.task.is_none());
    let update_action = Action::Chat(ChatMsg::Updated {
        task,
        kind: ArtifactKind::Commit,
        text: "Theirs".to_string(),
    });
    assert_eq!(update(&mut state, update_action.clone()), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
    // Nor does it land while a newer task runs.
    start_generation(&mut state);
    assert_eq!(update(&mut state, update_action), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Mine");
}

#[test]
fn drafts_restore_only_into_empty_buffers() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    state
        .artifacts
        .get_mut(&ArtifactKind::Review)
        .unwrap()
        .replace("Typed before the drafts arrived");
    let effects = update(
        &mut state,
        Action::Editor(EditorMsg::DraftsLoaded(vec![
            (ArtifactKind::Commit, draft("Draft message")),
            (ArtifactKind::Review, draft("Old review")),
            (ArtifactKind::Pr, draft("Old PR")),
        ])),
    );
    assert_eq!(effects, vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Draft message");
    assert_eq!(
        text(&state, Mode::REVIEW),
        "Typed before the drafts arrived"
    );
    assert_eq!(text(&state, Mode::PR), "Old PR");
    assert_eq!(notice(&state), (Level::Info, "restored drafts: Commit, PR"));
    // A restored draft is saved already; it is no reason to ask before quitting.
    assert_eq!(
        state.artifacts[&ArtifactKind::Commit].saved,
        "Draft message"
    );
    assert!(!state.artifacts[&ArtifactKind::Pr].text().is_empty());

    // Nothing restored, no notice.
    let mut state = loaded(Mode::COMMIT, vec![]);
    update(&mut state, Action::Editor(EditorMsg::DraftsLoaded(vec![])));
    assert_eq!(state.notice, None);
}

#[test]
fn a_restored_draft_prevents_auto_generation() {
    let mut state = State::new(Mode::COMMIT);
    update(
        &mut state,
        Action::Editor(EditorMsg::DraftsLoaded(vec![(
            ArtifactKind::Commit,
            draft("Draft"),
        )])),
    );
    let effects = update(&mut state, status(vec![staged("a.rs")]));
    assert_eq!(
        effects,
        vec![Effect::Diff(DiffFx::Load {
            path: "a.rs".to_string()
        })]
    );
    assert!(state.iris.task.is_none());
}

/// A draft restored when the studio starts, written for `written_for`, in commit mode with
/// Iris writing on her own on arrival; `untouched`: the text is Iris' as she wrote it.
fn restored(written_for: &str, untouched: bool) -> State {
    let mut state = State::new(Mode::COMMIT);
    let mut old = draft("Fix the parser on the old branch");
    old.written_for = Some(written_for.to_string());
    if untouched {
        old.by_iris = Some(old.text.clone());
    }
    update(
        &mut state,
        Action::Editor(EditorMsg::DraftsLoaded(vec![(ArtifactKind::Commit, old)])),
    );
    state
}

#[test]
fn a_message_iris_wrote_for_another_change_is_written_anew_and_kept_a_version_back() {
    let mut state = restored("another change", true);
    let effects = update(&mut state, status(vec![staged("docs/new.md")]));
    // Not offered as this change's: emptied, and Iris writes for what is staged now.
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::Generate(GenerateFx::Generate {
                kind: ArtifactKind::Commit,
                ..
            })
        )),
        "{effects:?}"
    );
    assert_eq!(text(&state, Mode::COMMIT), "");
    let (level, said) = notice(&state);
    assert_eq!(level, Level::Info);
    assert!(
        said.starts_with("the staged change moved since Iris wrote"),
        "{said}"
    );
    // Her text for the earlier change is a version back.
    command(&mut state, Command::UndoVersion);
    assert_eq!(
        text(&state, Mode::COMMIT),
        "Fix the parser on the old branch"
    );
}

#[test]
fn a_message_the_user_edited_for_another_change_is_never_replaced_without_asking() {
    for write_anew in [true, false] {
        let mut state = restored("another change", false);
        let effects = update(&mut state, status(vec![staged("docs/new.md")]));
        assert!(
            !effects
                .iter()
                .any(|e| matches!(e, Effect::Generate(GenerateFx::Generate { .. }))),
            "{effects:?}"
        );
        assert_eq!(
            text(&state, Mode::COMMIT),
            "Fix the parser on the old branch"
        );
        assert_eq!(
            state.overlay.confirm,
            Some(Confirm::Moved(ArtifactKind::Commit))
        );
        let answer = if write_anew { 'y' } else { 'n' };
        let effects = update(&mut state, press(KeyCode::Char(answer)));
        assert_eq!(state.overlay.confirm, None);
        if write_anew {
            assert!(
                matches!(
                    effects.as_slice(),
                    [Effect::Generate(GenerateFx::Generate {
                        kind: ArtifactKind::Commit,
                        ..
                    })]
                ),
                "{effects:?}"
            );
        } else {
            // Kept, now as the user's text for this change: it is not asked about again.
            assert_eq!(
                effects,
                vec![Effect::Editor(EditorFx::SaveDraft {
                    kind: ArtifactKind::Commit,
                    draft: draft("Fix the parser on the old branch"),
                })]
            );
            assert_eq!(notice(&state), (Level::Info, "kept your commit message"));
            update(&mut state, status(vec![staged("docs/new.md")]));
            assert_eq!(state.overlay.confirm, None);
        }
        assert_eq!(
            text(&state, Mode::COMMIT),
            "Fix the parser on the old branch"
        );
    }
}

#[test]
fn a_draft_for_the_same_change_is_restored_as_it_was() {
    for untouched in [true, false] {
        let mut state = restored(STAGED, untouched);
        let effects = update(&mut state, status(vec![staged("src/lib.rs")]));
        assert!(
            !effects
                .iter()
                .any(|e| matches!(e, Effect::Generate(GenerateFx::Generate { .. }))),
            "{effects:?}"
        );
        assert_eq!(state.overlay.confirm, None);
        assert_eq!(
            text(&state, Mode::COMMIT),
            "Fix the parser on the old branch"
        );
    }
}

#[test]
fn a_review_written_for_a_change_that_moved_takes_its_findings_with_it() {
    let written = review_with_a_hunch();
    assert!(
        !iris_studio_tui::findings::shown_findings(&written)
            .0
            .is_empty()
    );
    let mut old = written.artifacts[&ArtifactKind::Review].draft();
    old.written_for = Some("another change".to_string());
    let mut state = State::new(Mode::REVIEW);
    update(
        &mut state,
        Action::Editor(EditorMsg::DraftsLoaded(vec![(ArtifactKind::Review, old)])),
    );
    update(&mut state, status(vec![staged("src/other.rs")]));
    assert_eq!(text(&state, Mode::REVIEW), "");
    assert!(
        iris_studio_tui::findings::shown_findings(&state)
            .0
            .is_empty(),
        "no finding points at the change that is gone"
    );
}

#[test]
fn a_change_moved_while_the_user_works_is_said_and_nothing_is_spent_or_asked() {
    for edited in [false, true] {
        let mut state = with_message("Add two()");
        if edited {
            state.focus = Pane::Editor;
            type_text(&mut state, "Kept: ");
        }
        // Staged in another window: the refresh says so, once.
        let effects = update(
            &mut state,
            status_of(vec![staged("b.rs")], "staged change 2"),
        );
        assert!(
            !effects
                .iter()
                .any(|e| matches!(e, Effect::Generate(GenerateFx::Generate { .. }))),
            "{effects:?}"
        );
        assert_eq!(state.overlay.confirm, None);
        let (level, said) = notice(&state);
        assert_eq!(level, Level::Warning);
        assert!(said.contains("ctrl-g has Iris write anew"), "{said}");
        assert!(text(&state, Mode::COMMIT).ends_with("Add two()"));
        state.notice = None;
        update(
            &mut state,
            status_of(vec![staged("b.rs")], "staged change 2"),
        );
        assert_eq!(state.notice, None, "said once");
    }
}

#[test]
fn selecting_a_finding_shows_its_file_at_its_line() {
    let mut state = loaded(
        Mode::REVIEW,
        vec![staged("README.md"), staged("src/app.rs")],
    );
    state.artifacts.get_mut(&ArtifactKind::Review).unwrap().replace(
        "# Code review\n\nOk.\n\n## High (1)\n\n### Unchecked unwrap (`src/app.rs:3`)\n\nIt panics.\n",
    );
    state.focus = Pane::Findings;
    let effects = command(&mut state, Command::Select);
    assert_eq!(
        effects,
        vec![Effect::Diff(DiffFx::Load {
            path: "src/app.rs".to_string()
        })]
    );
    assert_eq!(
        state.findings.pending_jump,
        Some(("src/app.rs".to_string(), 3))
    );
    let mut diff = two_hunk_diff();
    diff[0].path = "src/app.rs".to_string();
    update(
        &mut state,
        Action::Diff(DiffMsg::Loaded {
            path: "src/app.rs".to_string(),
            result: Ok(diff),
            staged: Some(0),
        }),
    );
    assert!(state.findings.pending_jump.is_none());
    assert_eq!(state.focus, Pane::Diff);
    assert!(state.diff.scroll > 0, "scrolled to the finding's line");
}

/// A draft of `text` with no earlier versions.
/// A draft written for the staged change [`status`] reports.
fn draft(text: impl Into<String>) -> Draft {
    Draft {
        text: text.into(),
        written_for: Some(STAGED.to_string()),
        ..Draft::default()
    }
}

#[test]
fn unreadable_commit_rules_are_a_warning_and_readable_ones_are_kept() {
    let mut state = loaded(Mode::COMMIT, vec![]);
    update(
        &mut state,
        Action::Editor(EditorMsg::RulesLoaded(Err(Failure::other(
            "cannot read the commit rules in .commitlintrc.json: expected value at line 1",
        )))),
    );
    assert_eq!(notice(&state).0, Level::Warning);
    assert!(state.repo.commit_rules.is_none());
    let rules = iris_studio_core::commit_rules::parse(
        ".commitlintrc.json",
        r#"{"rules": {"header-max-length": [2, "always", 50]}}"#,
    )
    .unwrap();
    update(
        &mut state,
        Action::Editor(EditorMsg::RulesLoaded(Ok(Some(Box::new(rules.clone()))))),
    );
    assert_eq!(state.repo.commit_rules, Some(rules));
}

#[test]
fn findings_under_the_threshold_are_folded_and_f_shows_them() {
    use iris_studio_tui::findings::shown_findings;
    let mut state = review_with_a_hunch();
    let titles = |state: &State| -> Vec<String> {
        shown_findings(state)
            .0
            .into_iter()
            .map(|r| r.title)
            .collect()
    };
    assert_eq!(titles(&state), ["Sure", "Naming"]);
    assert_eq!(shown_findings(&state).1.total(), 1);
    // The list moves over what it shows: the second row is Naming, not the hunch.
    state.focus = Pane::Findings;
    command(&mut state, Command::Down);
    command(&mut state, Command::Down);
    assert_eq!(state.findings.selected, 1);
    command(&mut state, Command::Select);
    assert_eq!(
        state.findings.pending_jump,
        Some(("src/a.rs".to_string(), 12))
    );

    command(&mut state, Command::ShowUnsure);
    assert_eq!(titles(&state), ["Sure", "Hunch", "Naming"]);
    // The selection stays on Naming, now the third row.
    assert_eq!(state.findings.selected, 2);
    assert_eq!(
        notice(&state),
        (
            Level::Info,
            "showing the findings under 70% confidence too (f folds them)"
        )
    );
    command(&mut state, Command::ShowUnsure);
    assert_eq!(titles(&state), ["Sure", "Naming"]);
    // The text itself keeps every finding.
    assert!(text(&state, Mode::REVIEW).contains("### Hunch"));

    // A lower threshold folds nothing; f means nothing outside review mode.
    state.findings.min_confidence = 30;
    assert_eq!(titles(&state), ["Sure", "Hunch", "Naming"]);
    let mut commit = loaded(Mode::COMMIT, vec![staged("src/a.rs")]);
    command(&mut commit, Command::ShowUnsure);
    assert_eq!(
        notice(&commit),
        (
            Level::Info,
            "less certain findings are folded in review mode (3)"
        )
    );
}

#[test]
fn a_reviews_findings_are_read_when_its_text_changes_and_only_filtered_after() {
    let mut state = review_with_a_hunch();
    let read = state.artifact().unwrap().facts().findings.clone();
    assert!(
        !read.is_empty(),
        "the review's findings are read with its text"
    );
    // The commit message is no review: nothing is read from it.
    let commit = &state.artifacts[&ArtifactKind::Commit];
    assert!(commit.facts().findings.is_empty());
    // Emptying the review empties what was read.
    state
        .artifacts
        .get_mut(&ArtifactKind::Review)
        .unwrap()
        .replace("");
    assert!(state.artifact().unwrap().facts().findings.is_empty());
}
