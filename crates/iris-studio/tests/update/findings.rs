//! `features::findings`: review mode's `d`, from the question about the finding under the
//! cursor to the dismissal asked of the shell and the finding's block leaving the text once it
//! is kept.

use crossterm::event::{KeyCode, KeyModifiers};
use iris_studio_tui::action::Action;
use iris_studio_tui::command::Command;
use iris_studio_tui::effect::Effect;
use iris_studio_tui::failure::{Done, Failure};
use iris_studio_tui::features::msgs::{FindingsFx, FindingsMsg};
use iris_studio_tui::findings::shown_findings;
use iris_studio_tui::state::{Level, Mode, Pane, Reason, State};
use iris_studio_tui::update::update;

use super::support::{
    command, generated, key, loaded, notice, press_with, staged, start_generation, text, type_text,
};

const REVIEW: &str = "# Code review\n\nAdds a parser.\n\n## High (2)\n\n\
                      ### Sure (`src/a.rs:3`) · 95% · id 1a2b3c4d5e\n\nBody.\n\n\
                      ### Also (`src/a.rs:9`) · 90% · id 0f0f0f0f0f\n\nBody.\n\n\
                      ## Low (1)\n\n### Naming (`src/a.rs:12`)\n\nBody.\n";

/// Review mode with [`REVIEW`] written, the findings focused on the row `row`.
fn review_on(row: usize) -> State {
    let mut state = loaded(Mode::REVIEW, vec![staged("src/a.rs")]);
    let task = start_generation(&mut state);
    generated(&mut state, task, REVIEW);
    state.focus = Pane::Findings;
    for _ in 0..row {
        command(&mut state, Command::Down);
    }
    state
}

fn titles(state: &State) -> Vec<String> {
    shown_findings(state)
        .0
        .into_iter()
        .map(|r| r.title)
        .collect()
}

fn dismissed(state: &mut State, id: &str, result: Result<Done, Failure>) -> Vec<Effect> {
    let id = id.to_string();
    update(
        state,
        Action::Findings(FindingsMsg::Dismissed { id, result }),
    )
}

#[test]
fn d_asks_why_and_enter_dismisses_the_finding_under_the_cursor() {
    let mut state = review_on(1);
    assert!(command(&mut state, Command::DismissFinding).is_empty());
    let asked = state.overlay.dismiss.clone().expect("the question");
    assert_eq!(
        (
            asked.id.as_str(),
            asked.title.as_str(),
            asked.chosen,
            asked.team
        ),
        ("0f0f0f0f0f", "Also", Reason::FalsePositive, false)
    );
    // The question takes every key: a command reaches nothing under it.
    assert!(state.takes_every_key());
    command(&mut state, Command::Up);
    assert_eq!(state.findings.selected, 1);
    key(&mut state, KeyCode::Down);
    key(&mut state, KeyCode::Tab);
    let asked = state.overlay.dismiss.as_ref().expect("still asking");
    assert_eq!((asked.chosen, asked.team), (Reason::Intended, true));
    let effects = key(&mut state, KeyCode::Enter);
    assert_eq!(
        effects,
        [Effect::Findings(FindingsFx::Dismiss {
            id: "0f0f0f0f0f".into(),
            reason: "intended".into(),
            team: true,
        })]
    );
    assert!(state.overlay.dismiss.is_none());
    assert_eq!(notice(&state), (Level::Info, "dismissing 0f0f0f0f0f…"));
    // Nothing leaves the text before the shell has kept the dismissal.
    assert_eq!(titles(&state), ["Sure", "Also", "Naming"]);

    // Meanwhile the user edits the review: the edit stays.
    state.focus = Pane::Editor;
    type_text(&mut state, "Checked. ");
    let said = "dismissed 0f0f0f0f0f \"Also\" in src/a.rs: kept in the team's \
                (.iris/review-memory.toml)";
    dismissed(&mut state, "0f0f0f0f0f", Ok(Done(said.into())));
    let now = text(&state, Mode::REVIEW);
    assert_eq!(titles(&state), ["Sure", "Naming"]);
    assert!(now.contains("Checked. "), "{now}");
    assert!(
        now.contains("## High (1)\n\n### Sure") && !now.contains("### Also"),
        "{now}"
    );
    assert_eq!(notice(&state), (Level::Success, said));
    // The selection stays in the list; undo brings the finding back.
    assert_eq!(state.findings.selected, 1);
    command(&mut state, Command::UndoVersion);
    assert_eq!(titles(&state), ["Sure", "Also", "Naming"]);
}

#[test]
fn typed_words_are_the_reason_and_none_typed_is_no_reason() {
    let mut state = review_on(0);
    command(&mut state, Command::DismissFinding);
    // Letters that are keys elsewhere (q, j, d) are words here.
    type_text(&mut state, "qjd callers validatex");
    key(&mut state, KeyCode::Backspace);
    let asked = state.overlay.dismiss.as_ref().expect("still asking");
    assert_eq!(asked.chosen, Reason::OwnWords);
    assert!(!state.quit);
    let effects = key(&mut state, KeyCode::Enter);
    assert_eq!(
        effects,
        [Effect::Findings(FindingsFx::Dismiss {
            id: "1a2b3c4d5e".into(),
            reason: "qjd callers validate".into(),
            team: false,
        })]
    );

    // Up from the first choice goes round to the words; empty, they give no reason.
    command(&mut state, Command::DismissFinding);
    key(&mut state, KeyCode::Up);
    assert_eq!(
        state.overlay.dismiss.as_ref().map(|a| a.chosen),
        Some(Reason::OwnWords)
    );
    let effects = key(&mut state, KeyCode::Enter);
    assert!(
        matches!(&effects[..], [Effect::Findings(FindingsFx::Dismiss { reason, .. })] if reason.is_empty()),
        "{effects:?}"
    );
}

#[test]
fn esc_keeps_the_finding_and_changes_nothing() {
    let mut state = review_on(0);
    let before = text(&state, Mode::REVIEW);
    command(&mut state, Command::DismissFinding);
    type_text(&mut state, "never mind");
    assert!(key(&mut state, KeyCode::Esc).is_empty());
    assert!(state.overlay.dismiss.is_none());
    assert_eq!(text(&state, Mode::REVIEW), before);
    assert_eq!(notice(&state), (Level::Info, "kept the finding"));
    // ctrl-c closes it as it quits.
    command(&mut state, Command::DismissFinding);
    update(
        &mut state,
        press_with(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );
    assert!(state.overlay.dismiss.is_none());
}

#[test]
fn a_dismissal_not_kept_says_so_and_keeps_the_finding() {
    let mut state = review_on(0);
    command(&mut state, Command::DismissFinding);
    key(&mut state, KeyCode::Enter);
    let before = text(&state, Mode::REVIEW);
    dismissed(
        &mut state,
        "1a2b3c4d5e",
        Err(Failure::io("cannot write .git/iris/review-memory.toml")),
    );
    assert_eq!(text(&state, Mode::REVIEW), before);
    assert_eq!(
        notice(&state),
        (
            Level::Error,
            "the finding was not dismissed: cannot write .git/iris/review-memory.toml"
        )
    );
}

#[test]
fn d_asks_nothing_without_a_finding_with_an_id_or_while_iris_writes() {
    // A heading without its id (typed by hand, an older review) cannot be dismissed by it.
    let mut state = review_on(2);
    command(&mut state, Command::DismissFinding);
    assert!(state.overlay.dismiss.is_none());
    let (level, said) = notice(&state);
    assert_eq!(level, Level::Warning);
    assert!(said.starts_with("\"Naming\" has no id"), "{said}");

    // While Iris writes the review, its findings are not yet hers to dismiss.
    let mut state = review_on(0);
    start_generation(&mut state);
    command(&mut state, Command::DismissFinding);
    assert!(state.overlay.dismiss.is_none());
    assert_eq!(
        notice(&state),
        (
            Level::Info,
            "Iris is still writing the review: wait for her, or esc first"
        )
    );

    // Nothing to dismiss in an empty review; nothing to dismiss outside review mode.
    let mut empty = loaded(Mode::REVIEW, vec![staged("src/a.rs")]);
    command(&mut empty, Command::DismissFinding);
    assert_eq!(
        notice(&empty),
        (Level::Info, "there is no finding to dismiss")
    );
    let mut commit = loaded(Mode::COMMIT, vec![staged("src/a.rs")]);
    command(&mut commit, Command::DismissFinding);
    assert_eq!(
        notice(&commit),
        (Level::Info, "findings are dismissed in review mode (3)")
    );
}
