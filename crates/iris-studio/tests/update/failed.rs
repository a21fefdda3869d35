//! Failures by their kind (`update/failed.rs`): what the reducer does about each, beyond
//! saying it.

use crossterm::event::KeyCode;
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::{Failure, FailureKind, GitFailure, ProviderFailure};
use iris_studio_tui::features::msgs::{ChangesMsg, SetupFx};
use iris_studio_tui::state::{Confirm, Level, Mode};
use iris_studio_tui::update::update;

use super::support::{a_commit, command, generation_failed, key, notice, text, with_message};

fn git_done(
    state: &mut iris_studio_tui::state::State,
    kind: GitFailure,
    words: &str,
) -> Vec<Effect> {
    update(
        state,
        Action::Changes(ChangesMsg::GitDone {
            result: Err(Failure::new(FailureKind::Git(kind), words)),
            tried: a_commit(),
        }),
    )
}

#[test]
fn a_locked_index_offers_the_same_work_again() {
    let mut state = with_message("Add a");
    git_done(
        &mut state,
        GitFailure::IndexLocked,
        "git commit failed (the message was not lost): fatal: Unable to create \
         '/home/someone/projects/a-long-name/.git/index.lock': File exists. Another git \
         process seems to be running in this repository.",
    );
    assert!(matches!(state.overlay.confirm, Some(Confirm::TryAgain(_))));
    assert_eq!(notice(&state).0, Level::Error);
    // Nothing covers the question: git's long words stay out of a report.
    assert!(state.overlay.report.is_none());
    // y: the commit that failed is asked for again, as it was.
    assert_eq!(
        key(&mut state, KeyCode::Char('y')),
        vec![Effect::Changes(a_commit())]
    );
    assert!(state.overlay.confirm.is_none());
    // n: nothing runs.
    git_done(&mut state, GitFailure::IndexLocked, "locked");
    assert_eq!(key(&mut state, KeyCode::Char('n')), vec![]);
    assert_eq!(text(&state, Mode::COMMIT), "Add a");
}

#[test]
fn a_failing_hook_shows_its_own_output_in_a_pane_that_scrolls() {
    let mut state = with_message("Add a");
    let output: String = (1..=60).map(|n| format!("lint error {n}\n")).collect();
    git_done(&mut state, GitFailure::HookFailed, &output);
    let report = state.overlay.report.as_ref().expect("the hook's output");
    assert!(report.title.contains("hook"), "{}", report.title);
    assert_eq!(report.text, output);
    assert!(notice(&state).1.contains("the message stays in the editor"));
    assert_eq!(text(&state, Mode::COMMIT), "Add a");
    command(&mut state, Command::Down);
    command(&mut state, Command::PageDown);
    assert_eq!(state.overlay.report.as_ref().map(|r| r.top), Some(21));
    command(&mut state, Command::Bottom);
    // The last screenful: 60 lines in a box of 32 rows.
    assert_eq!(state.overlay.report.as_ref().map(|r| r.top), Some(28));
    command(&mut state, Command::Top);
    assert_eq!(state.overlay.report.as_ref().map(|r| r.top), Some(0));
    command(&mut state, Command::Back);
    assert!(state.overlay.report.is_none());
}

#[test]
fn a_missing_key_or_a_refused_sign_in_opens_the_setup() {
    for kind in [ProviderFailure::NotSetUp, ProviderFailure::SignInRefused] {
        let mut state = with_message("Mine");
        let failure = Failure::new(
            FailureKind::Provider(kind.clone()),
            "openai: 401 invalid api key",
        );
        let effects = generation_failed(&mut state, failure);
        assert_eq!(effects, vec![Effect::Setup(SetupFx::Probe)], "{kind:?}");
        assert!(state.overlay.setup.is_some());
        assert!(notice(&state).1.contains("401 invalid api key"));
        assert_eq!(text(&state, Mode::COMMIT), "Mine");
    }
}

#[test]
fn a_rate_limit_says_when_to_try_again() {
    for (retry_after, when) in [
        (Some(20), "try again in 20 s"),
        (Some(300), "try again in 5 min"),
        (None, "try again in a minute"),
    ] {
        let mut state = with_message("Mine");
        let limited = FailureKind::Provider(ProviderFailure::RateLimited { retry_after });
        generation_failed(
            &mut state,
            Failure::new(limited, "openai: 429 Too Many Requests"),
        );
        let (level, said) = notice(&state);
        assert_eq!(level, Level::Warning);
        assert!(said.ends_with(when), "{said}");
        assert!(state.overlay.setup.is_none());
    }
}
