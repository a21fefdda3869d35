//! `update::changes`: the status and the ranking that fill the changed files' list, moving in
//! it, staging and committing.

use crossterm::event::KeyCode;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::change::ChangeKind;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::{Done, Failure};
use iris_studio_tui::features::msgs::{
    ChangesFx, ChangesMsg, DiffFx, DiffMsg, EditorFx, EditorMsg, ExploreMsg, GenerateFx,
};
use iris_studio_tui::state::{CommitFlags, Confirm, Draft, FileEntry, Level, Mode, Pane, State};
use iris_studio_tui::update::update;

use super::support::{
    a_commit, command, file, key, loaded, notice, press, staged, status, text, two_hunk_diff,
    type_text, unstaged, with_message,
};

#[test]
fn moves_in_the_file_list_select_and_load_the_diff() {
    let files: Vec<FileEntry> = (0..25).map(|i| staged(&format!("f{i:02}.rs"))).collect();
    let mut state = loaded(Mode::COMMIT, files);
    let load = |i: usize| {
        vec![Effect::Diff(DiffFx::Load {
            path: format!("f{i:02}.rs"),
        })]
    };
    assert_eq!(
        command(&mut state, Command::Up),
        vec![],
        "already at the top"
    );
    assert_eq!(command(&mut state, Command::Down), load(1));
    assert_eq!(command(&mut state, Command::PageDown), load(21));
    assert_eq!(command(&mut state, Command::PageDown), load(24));
    assert_eq!(command(&mut state, Command::Down), vec![], "at the bottom");
    assert_eq!(command(&mut state, Command::PageUp), load(4));
    assert_eq!(command(&mut state, Command::Bottom), load(24));
    assert_eq!(command(&mut state, Command::Top), load(0));
    assert_eq!(state.changes.selected, 0);
    assert_eq!(command(&mut state, Command::Up), vec![]);
}

#[test]
fn stage_commands_name_the_selected_file() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs"), unstaged("b.rs")]);
    command(&mut state, Command::Down);
    assert_eq!(
        command(&mut state, Command::StageFile),
        vec![Effect::Changes(ChangesFx::Stage {
            path: "b.rs".to_string()
        })]
    );
    assert_eq!(
        command(&mut state, Command::UnstageFile),
        vec![Effect::Changes(ChangesFx::Unstage {
            path: "b.rs".to_string()
        })]
    );
    assert_eq!(
        command(&mut state, Command::StageAll),
        vec![Effect::Changes(ChangesFx::StageAll)]
    );
    assert_eq!(
        command(&mut state, Command::UnstageAll),
        vec![Effect::Changes(ChangesFx::UnstageAll)]
    );
    // Nothing selected, nothing to stage.
    let mut empty = loaded(Mode::COMMIT, vec![]);
    assert_eq!(command(&mut empty, Command::StageFile), vec![]);
    assert_eq!(command(&mut empty, Command::UnstageFile), vec![]);
    assert_eq!(command(&mut empty, Command::StageHunk), vec![]);
}

#[test]
fn commit_asks_first_and_refuses_what_cannot_be_committed() {
    // Not in commit mode.
    let mut state = loaded(Mode::REVIEW, vec![staged("a.rs")]);
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.overlay.confirm, None);
    assert_eq!(
        notice(&state),
        (Level::Info, "commits are made in commit mode (2)")
    );

    // An empty (or blank) message.
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("  \n ");
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.overlay.confirm, None);
    assert_eq!(
        notice(&state),
        (Level::Warning, "the commit message is empty")
    );

    // Nothing staged.
    let mut state = loaded(Mode::COMMIT, vec![unstaged("a.rs")]);
    assert!(!state.changes.has_staged);
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("Add two()");
    assert_eq!(command(&mut state, Command::Commit), vec![]);
    assert_eq!(state.overlay.confirm, None);
    assert_eq!(notice(&state).0, Level::Warning);
    assert!(notice(&state).1.starts_with("nothing is staged"));

    // ... unless amending, which may only reword.
    command(&mut state, Command::ToggleAmend);
    command(&mut state, Command::Commit);
    assert_eq!(state.overlay.confirm, Some(Confirm::Commit));
    assert_eq!(
        update(&mut state, press(KeyCode::Char('y'))),
        vec![Effect::Changes(ChangesFx::Commit {
            message: "Add two()".to_string(),
            written: None,
            flags: CommitFlags {
                amend: true,
                no_verify: false
            },
        })]
    );
}

#[test]
fn amend_and_no_verify_toggle_and_reach_the_commit() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::ToggleAmend);
    command(&mut state, Command::ToggleNoVerify);
    assert_eq!(
        state.repo.commit_flags,
        CommitFlags {
            amend: true,
            no_verify: true
        }
    );
    command(&mut state, Command::ToggleAmend);
    assert_eq!(
        state.repo.commit_flags,
        CommitFlags {
            amend: false,
            no_verify: true
        }
    );
    command(&mut state, Command::Commit);
    assert_eq!(
        update(&mut state, press(KeyCode::Enter)),
        vec![Effect::Changes(ChangesFx::Commit {
            message: "Add two()".to_string(),
            written: Some("Add two()".to_string()),
            flags: CommitFlags {
                amend: false,
                no_verify: true
            },
        })]
    );
}

#[test]
fn status_loaded_fills_the_list_and_loads_the_first_diff() {
    let mut state = State::new(Mode::COMMIT);
    state.iris.auto_generate = false;
    assert!(state.changes.loading);
    let effects = update(&mut state, status(vec![staged("a.rs"), unstaged("b.rs")]));
    assert_eq!(
        effects,
        vec![Effect::Diff(DiffFx::Load {
            path: "a.rs".to_string()
        })]
    );
    assert!(!state.changes.loading);
    assert!(state.changes.has_staged);
    assert_eq!(state.repo.branch, "main");
    assert_eq!(state.changes.files.len(), 2);
    assert_eq!(state.diff.path.as_deref(), Some("a.rs"));

    // No files: no diff.
    let mut state = State::new(Mode::COMMIT);
    assert_eq!(update(&mut state, status(vec![])), vec![]);
    assert!(!state.changes.has_staged);
    assert_eq!(state.diff.path, None);
}

#[test]
fn status_loaded_keeps_the_selection_on_the_same_path() {
    let mut state = loaded(
        Mode::COMMIT,
        vec![staged("a.rs"), staged("b.rs"), staged("c.rs")],
    );
    command(&mut state, Command::Down);
    update(
        &mut state,
        Action::Diff(DiffMsg::Loaded {
            path: "b.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        }),
    );
    state.diff.scroll = 4;
    // b.rs moved to the front (its relevance changed): the selection follows it, and its
    // diff reloads in place without jumping to the top.
    let effects = update(&mut state, status(vec![staged("b.rs"), staged("c.rs")]));
    assert_eq!(state.changes.selected, 0);
    assert_eq!(state.changes.selected_file().unwrap().path, "b.rs");
    assert_eq!(
        effects,
        vec![Effect::Diff(DiffFx::Load {
            path: "b.rs".to_string()
        })]
    );
    assert_eq!(state.diff.scroll, 4);
    assert!(state.diff.loading);
    assert_eq!(
        state.diff.files.len(),
        1,
        "the old diff shows until the new one"
    );

    // The selected path is gone: the first file, and its diff from the top.
    update(
        &mut state,
        Action::Diff(DiffMsg::Loaded {
            path: "b.rs".to_string(),
            result: Ok(two_hunk_diff()),
            staged: Some(0),
        }),
    );
    let effects = update(&mut state, status(vec![staged("c.rs"), staged("d.rs")]));
    assert_eq!(state.changes.selected, 0);
    assert_eq!(
        effects,
        vec![Effect::Diff(DiffFx::Load {
            path: "c.rs".to_string()
        })]
    );
    assert_eq!(state.diff.scroll, 0);
    assert!(state.diff.files.is_empty());
}

#[test]
fn status_loaded_chooses_commit_or_explore_when_no_mode_was_given() {
    let mut state = State::new(Mode::COMMIT);
    state.start.choose_mode = true;
    state.iris.auto_generate = false;
    update(&mut state, status(vec![]));
    assert_eq!(state.mode, Mode::Explore);
    assert!(!state.start.choose_mode);

    // Only a new file, or only a merge conflict: commit mode too.
    for entry in [
        FileEntry {
            untracked: true,
            ..file("new.rs", None, None)
        },
        FileEntry {
            conflicted: true,
            ..file("both.rs", None, None)
        },
    ] {
        let mut state = State::new(Mode::COMMIT);
        state.start.choose_mode = true;
        state.iris.auto_generate = false;
        update(&mut state, status(vec![entry]));
        assert_eq!(state.mode, Mode::COMMIT);
    }

    let mut state = State::new(Mode::COMMIT);
    state.start.choose_mode = true;
    update(&mut state, status(vec![unstaged("a.rs")]));
    assert_eq!(state.mode, Mode::COMMIT);
    assert!(
        state.iris.task.is_none(),
        "nothing staged, nothing to write"
    );
    // Chosen once: a later status with nothing changed keeps the mode.
    update(&mut state, status(vec![]));
    assert_eq!(state.mode, Mode::COMMIT);

    // Something staged: commit mode, and Iris starts on the message.
    let mut state = State::new(Mode::Explore);
    state.start.choose_mode = true;
    let effects = update(&mut state, status(vec![staged("a.rs")]));
    assert_eq!(state.mode, Mode::COMMIT);
    assert_eq!(
        effects,
        vec![
            Effect::Diff(DiffFx::Load {
                path: "a.rs".to_string()
            }),
            Effect::Generate(GenerateFx::Generate {
                task: 1,
                kind: ArtifactKind::Commit,
                range: None,
                stack: None,
            }),
        ]
    );
}

#[test]
fn status_failure_is_a_notice() {
    let mut state = State::new(Mode::COMMIT);
    assert_eq!(
        update(
            &mut state,
            Action::Changes(ChangesMsg::Status(Err(Failure::other("not a repo"))))
        ),
        vec![]
    );
    assert!(!state.changes.loading);
    assert_eq!(
        notice(&state),
        (Level::Error, "git status failed: not a repo")
    );
}

#[test]
fn a_commit_clears_the_message_its_draft_and_the_flags() {
    let mut state = with_message("Add two()");
    command(&mut state, Command::ToggleAmend);
    let effects = update(
        &mut state,
        Action::Changes(ChangesMsg::GitDone {
            result: Ok(Done::from("committed 1234567 Add two()")),
            tried: a_commit(),
        }),
    );
    assert_eq!(
        effects,
        vec![
            Effect::Changes(ChangesFx::LoadStatus),
            Effect::Editor(EditorFx::ClearDraft {
                kind: ArtifactKind::Commit
            })
        ]
    );
    assert_eq!(text(&state, Mode::COMMIT), "");
    assert_eq!(state.artifacts[&ArtifactKind::Commit].saved, "");
    assert_eq!(state.repo.commit_flags, CommitFlags::default());
    assert_eq!(
        notice(&state),
        (Level::Success, "committed 1234567 Add two()")
    );
    assert!(!state.unsaved());
}

#[test]
fn other_git_results_reload_the_status_and_keep_the_message() {
    let mut state = with_message("Add two()");
    assert_eq!(
        update(
            &mut state,
            Action::Changes(ChangesMsg::GitDone {
                result: Ok(Done::from("staged a.rs")),
                tried: ChangesFx::StageAll,
            })
        ),
        vec![Effect::Changes(ChangesFx::LoadStatus)]
    );
    assert_eq!(notice(&state), (Level::Success, "staged a.rs"));
    assert_eq!(
        update(
            &mut state,
            Action::Changes(ChangesMsg::GitDone {
                result: Err(Failure::other("pre-commit hook failed:\nlint")),
                tried: a_commit(),
            })
        ),
        vec![Effect::Changes(ChangesFx::LoadStatus)]
    );
    // The hook's output is shown whole (until esc), the notice says where the message is.
    assert_eq!(notice(&state).0, Level::Error);
    assert!(notice(&state).1.contains("the message stays in the editor"));
    assert_eq!(
        state.overlay.report.as_ref().map(|r| r.text.as_str()),
        Some("pre-commit hook failed:\nlint")
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add two()");
}

#[test]
fn a_failed_commit_shows_the_whole_report_and_keeps_the_message() {
    let mut state = loaded(Mode::COMMIT, vec![staged("a.rs")]);
    state
        .artifacts
        .get_mut(&ArtifactKind::Commit)
        .unwrap()
        .replace("Add a");
    let report =
        "git commit failed (the message was not lost): hook said:\nline one\nline two".to_string();
    update(
        &mut state,
        Action::Changes(ChangesMsg::GitDone {
            result: Err(Failure::other(report.clone())),
            tried: a_commit(),
        }),
    );
    assert_eq!(
        state.overlay.report.as_ref().map(|r| r.text.as_str()),
        Some(report.as_str())
    );
    assert_eq!(text(&state, Mode::COMMIT), "Add a");
    assert_eq!(notice(&state).0, Level::Error);
    command(&mut state, Command::Back);
    assert!(state.overlay.report.is_none());
}

#[test]
fn the_first_ranking_lists_the_staged_files_and_the_complete_one_re_sorts_them() {
    use iris_studio_tui::action::RankedFile;
    let mut state = State::new(Mode::COMMIT);
    state.iris.auto_generate = false;
    assert_eq!(state.loading(), Some("reading the repository's status"));
    let ranked = |items: &[(&str, u32)]| {
        Ok(items
            .iter()
            .map(|(path, relevance)| RankedFile {
                path: path.to_string(),
                kind: ChangeKind::Modified,
                relevance: *relevance,
                secret: None,
            })
            .collect())
    };
    update(
        &mut state,
        Action::Changes(ChangesMsg::Ranked {
            result: ranked(&[("src/a.rs", 85), ("README.md", 62)]),
            complete: false,
        }),
    );
    let paths: Vec<&str> = state
        .changes
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["src/a.rs", "README.md"]);
    assert!(!state.changes.ranking_complete && state.changes.loading && state.changes.has_staged);
    assert_eq!(state.loading(), Some("reading the rest of the status"));
    update(
        &mut state,
        Action::Changes(ChangesMsg::Ranked {
            result: ranked(&[("README.md", 90), ("src/a.rs", 70)]),
            complete: true,
        }),
    );
    let order: Vec<(&str, Option<u32>)> = state
        .changes
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.relevance))
        .collect();
    assert_eq!(order, [("README.md", Some(90)), ("src/a.rs", Some(70))]);
    assert!(state.changes.ranking_complete);
    update(
        &mut state,
        status(vec![staged("README.md"), staged("src/a.rs")]),
    );
    assert_eq!(state.loading(), None, "nothing left to read");
    command(&mut state, Command::ModeExplore);
    assert_eq!(state.loading(), Some("listing the repository's files"));
    update(
        &mut state,
        Action::Explore(ExploreMsg::Tree(Ok(vec!["README.md".into()]))),
    );
    assert_eq!(state.loading(), None);
}

#[test]
fn the_commit_carries_what_iris_wrote_beside_what_the_user_made_of_it() {
    let mut state = with_message("Add two()");
    // The user edits Iris' message in the editor (focus on it, type at its end).
    state.focus = Pane::Editor;
    key(&mut state, KeyCode::End);
    type_text(&mut state, " and three()");
    command(&mut state, Command::Commit);
    assert_eq!(
        update(&mut state, press(KeyCode::Enter)),
        vec![Effect::Changes(ChangesFx::Commit {
            message: "Add two() and three()".to_string(),
            written: Some("Add two()".to_string()),
            flags: CommitFlags::default(),
        })]
    );
}

#[test]
fn a_reopened_draft_still_knows_what_iris_wrote_for_the_commit() {
    let mut state = loaded(Mode::COMMIT, vec![staged("src/lib.rs")]);
    let draft = Draft {
        text: "Add two() at last".to_string(),
        by_iris: Some("Add two()".to_string()),
        ..Draft::default()
    };
    update(
        &mut state,
        Action::Editor(EditorMsg::DraftsLoaded(vec![(ArtifactKind::Commit, draft)])),
    );
    command(&mut state, Command::Commit);
    assert_eq!(
        update(&mut state, press(KeyCode::Enter)),
        vec![Effect::Changes(ChangesFx::Commit {
            message: "Add two() at last".to_string(),
            written: Some("Add two()".to_string()),
            flags: CommitFlags::default(),
        })]
    );
}

/// jj has no staging area: in a jj workspace each stage key does nothing and says why.
#[test]
fn in_a_jj_workspace_the_stage_keys_say_why_they_do_nothing() {
    let mut state = State::new(Mode::COMMIT);
    state.iris.auto_generate = false;
    update(
        &mut state,
        Action::Changes(ChangesMsg::Status(Ok(
            iris_studio_tui::action::RepoSnapshot {
                branch: "jj @ kxzzsmnu".into(),
                head: None,
                files: vec![staged("src/lib.rs")],
                jj_change: Some("kxzzsmnu".into()),
                change_key: Some("kxzzsmnu".into()),
            },
        ))),
    );
    assert_eq!(state.repo.jj_change.as_deref(), Some("kxzzsmnu"));
    for stage in [
        Command::StageFile,
        Command::UnstageFile,
        Command::StageAll,
        Command::UnstageAll,
        Command::StageHunk,
    ] {
        state.notice = None;
        assert_eq!(command(&mut state, stage), vec![], "{stage:?}");
        let (level, text) = notice(&state);
        assert_eq!(level, Level::Info);
        assert!(text.starts_with("jj has no staging area"), "{text}");
    }
    // The change is there to commit.
    assert!(state.changes.has_staged);
}
