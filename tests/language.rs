//! `language = "de"`: every artifact is asked for in that language, from the flag, the
//! environment or the project's `.irisconfig`, while commit types, trailers and JSON keys stay
//! as they are. The real binary on temporary repositories, talking to the fake provider.

use crate::common::agent::{commit_json, openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Recorded, Step};
use serde_json::json;

const GERMAN: &str = "## Language\nWrite every text you produce in German (de)";

fn system(request: &Recorded) -> String {
    request.system_text()
}

#[test]
fn the_flag_asks_for_the_language_and_types_and_trailers_stay() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json(
        "feat: two() hinzufügen",
        "Fügt eine zweite Funktion hinzu.",
    ))]);
    let out = run(
        &repo,
        &["gen", "--print", "--language", "de"],
        &openai_env(&fake),
    );
    assert_eq!(
        success(&out).trim(),
        "feat: two() hinzufügen\n\nFügt eine zweite Funktion hinzu."
    );
    let system = system(&fake.requests()[0]);
    assert!(system.contains(GERMAN), "{system}");
    for kept in ["conventional commit types", "Signed-off-by:", "JSON keys"] {
        assert!(system.contains(kept), "{kept} in {system}");
    }
}

#[test]
fn without_a_language_the_prompt_has_no_language_section() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    success(&run(&repo, &["gen", "--print"], &openai_env(&fake)));
    assert!(!system(&fake.requests()[0]).contains("## Language"));
}

#[test]
fn the_project_file_sets_it_for_every_artifact_and_the_environment_overrides_it() {
    let repo = staged_repo();
    repo.write(".irisconfig", "language = \"de\"\ncritic_enabled = false\n");
    let review = json!({
        "summary": "Fügt two() hinzu. Sieht gut aus.",
        "findings": [],
        "strengths": ["Klein und klar."]
    });
    let fake = FakeProvider::start(vec![
        Step::text(review.to_string()),
        Step::text(commit_json("Ajoute two()", "")),
    ]);
    let out = run(&repo, &["review"], &openai_env(&fake));
    assert!(success(&out).contains("Fügt two() hinzu."));
    let mut env = openai_env(&fake);
    env.push(("IRIS_LANGUAGE", "fr".to_string()));
    success(&run(&repo, &["gen", "--print"], &env));
    let requests = fake.requests();
    assert!(
        system(&requests[0]).contains(GERMAN),
        "the review in German"
    );
    let french = system(&requests[1]);
    assert!(
        french.contains("Write every text you produce in French (fr)"),
        "{french}"
    );
}
