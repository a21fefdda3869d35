//! `iris gen -n N` and `--models`: several commit messages to choose from, written in
//! parallel, printed numbered for scripts and picked from on a terminal. The real binary on
//! temporary repositories, talking to the fake provider.

use crate::common::agent::{commit_json, failure, openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Recorded, Step};
use crate::common::stderr;

const TITLES: [&str; 3] = [
    "Add two()",
    "Offer a second constant",
    "Add two() beside one()",
];

fn three_replies() -> FakeProvider {
    FakeProvider::start(
        TITLES
            .iter()
            .map(|t| Step::text(commit_json(t, "")))
            .collect(),
    )
}

/// The "## Alternative i of n" heading a request carries, if any.
fn alternative(request: &Recorded) -> Option<String> {
    let asked = request.user_texts().join("\n");
    let at = asked.find("## Alternative ")?;
    asked[at..].lines().next().map(str::to_string)
}

#[test]
fn three_candidates_are_printed_numbered_and_each_but_the_first_asks_for_an_angle() {
    let repo = staged_repo();
    let fake = three_replies();
    let out = success(&run(
        &repo,
        &["gen", "-n", "3", "--print"],
        &openai_env(&fake),
    ));
    for heading in ["--- 1 ---\n", "\n\n--- 2 ---\n", "\n\n--- 3 ---\n"] {
        assert!(out.contains(heading), "{heading:?} in {out}");
    }
    for title in TITLES {
        let lines = out.lines().filter(|l| *l == title).count();
        assert_eq!(lines, 1, "{title} once in {out}");
    }
    let requests = fake.requests();
    assert_eq!(requests.len(), 3, "one run per candidate");
    let mut angles: Vec<Option<String>> = requests.iter().map(alternative).collect();
    angles.sort();
    assert_eq!(
        angles,
        vec![
            None,
            Some("## Alternative 2 of 3".to_string()),
            Some("## Alternative 3 of 3".to_string())
        ]
    );
}

#[test]
fn each_model_writes_one_labelled_with_its_name() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("Add two()", "")),
        Step::text(commit_json("Add a second function", "")),
    ]);
    let args = ["gen", "--models", "big-model,small-model", "--print"];
    let out = success(&run(&repo, &args, &openai_env(&fake)));
    assert!(out.starts_with("--- 1 (big-model) ---\n"), "{out}");
    assert!(out.contains("\n\n--- 2 (small-model) ---\n"), "{out}");
    let mut models: Vec<String> = fake.requests().iter().filter_map(Recorded::model).collect();
    models.sort();
    assert_eq!(models, ["big-model", "small-model"]);
}

#[test]
fn json_lists_every_candidate_and_repeats_count_once() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::repeat(Step::text(commit_json("Add two()", "")))]);
    let out = success(&run(
        &repo,
        &["gen", "-n", "3", "--json"],
        &openai_env(&fake),
    ));
    let all: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let all = all.as_array().expect("an array");
    assert_eq!(all.len(), 1, "three equal messages are one choice: {out}");
    assert_eq!(all[0]["number"], 1);
    assert_eq!(all[0]["message"]["title"], "Add two()");
    assert_eq!(fake.requests().len(), 3);
}

#[test]
fn a_failed_candidate_is_a_warning_while_others_succeed() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::error(400),
        Step::text(commit_json("Add two()", "")),
    ]);
    let out = run(&repo, &["gen", "-n", "2", "--print"], &openai_env(&fake));
    let printed = success(&out);
    assert_eq!(printed.trim_end(), "--- 1 ---\nAdd two()");
    assert!(
        stderr(&out).contains("warning: candidate ") && stderr(&out).contains(" of 2 failed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn committing_one_of_several_needs_a_terminal_to_pick_on() {
    let repo = staged_repo();
    let fake = three_replies();
    let out = run(
        &repo,
        &["gen", "-n", "2", "--auto-commit"],
        &openai_env(&fake),
    );
    let err = failure(&out, 2);
    assert!(err.contains("needs a terminal to pick one on"), "{err}");
    assert!(
        fake.requests().is_empty(),
        "refused before asking the model"
    );
    let out = run(&repo, &["gen", "-n", "9"], &openai_env(&fake));
    failure(&out, 2);
}

#[cfg(unix)]
mod on_a_terminal {
    use std::time::Duration;

    use super::{TITLES, staged_repo, three_replies};
    use crate::common::Iris;
    use crate::common::agent::openai_env;
    use crate::common::fake_provider::FakeProvider;
    use crate::common::pty::PtyProgram;

    const TIMEOUT: Duration = Duration::from_secs(30);

    fn wait_for(program: &PtyProgram, what: &str, ready: impl Fn(&str) -> bool) {
        let found = program.wait_for(TIMEOUT, ready);
        assert!(found.is_some(), "no {what} on:\n{}", program.text());
    }

    fn spawn(repo: &crate::common::TestRepo, fake: &FakeProvider, args: &[&str]) -> PtyProgram {
        let mut command = repo.isolated_iris(args);
        for (name, value) in openai_env(fake) {
            command.env(name, value);
        }
        PtyProgram::spawn(command, 100, 40)
    }

    /// The title shown under `--- n ---` on the screen.
    fn shown(text: &str, n: usize) -> String {
        let heading = format!("--- {n} ---");
        let mut lines = text.lines().skip_while(|l| l.trim_end() != heading);
        lines.nth(1).unwrap_or_default().trim_end().to_string()
    }

    #[test]
    fn the_user_picks_one_and_it_is_committed() {
        let repo = staged_repo();
        let fake = three_replies();
        let mut program = spawn(&repo, &fake, &["gen", "-n", "3", "--auto-commit"]);
        wait_for(&program, "the question", |s| s.contains("Which one? 1-3"));
        let second = shown(&program.text(), 2);
        assert!(
            TITLES.contains(&second.as_str()),
            "{second:?} in\n{}",
            program.text()
        );
        program.send(b"5\r");
        wait_for(&program, "the hint", |s| s.contains("a number from 1 to 3"));
        program.send(b"2\r");
        let status = program.child.wait().expect("iris exits");
        assert!(status.success(), "{}", program.text());
        let log = repo.git(&["log", "-1", "--format=%B"]);
        assert_eq!(log.trim_end(), second);
    }

    #[test]
    fn q_picks_none_and_commits_nothing() {
        let repo = staged_repo();
        let fake = three_replies();
        let mut program = spawn(&repo, &fake, &["gen", "-n", "2", "--auto-commit"]);
        wait_for(&program, "the question", |s| s.contains("Which one? 1-2"));
        program.send(b"q\r");
        let status = program
            .wait_exit(TIMEOUT)
            .unwrap_or_else(|| panic!("iris did not finish:\n{}", program.text()));
        assert_eq!(status.code(), Some(1), "{}", program.text());
        assert!(
            program
                .text()
                .contains("no message picked; nothing was committed")
        );
        assert_eq!(repo.git(&["rev-list", "--count", "HEAD"]).trim(), "1");
    }
}

#[test]
fn the_repository_is_read_once_for_every_candidate() {
    let repo = staged_repo();
    // Rules the reader cannot resolve: reading them warns, once per reading.
    repo.write(
        ".commitlintrc.json",
        r#"{"extends": ["@acme/commitlint-config"]}"#,
    );
    let fake = three_replies();
    let out = run(&repo, &["gen", "-n", "3", "--print"], &openai_env(&fake));
    success(&out);
    let err = stderr(&out);
    let readings = err
        .lines()
        .filter(|l| l.contains(".commitlintrc.json:"))
        .count();
    assert_eq!(readings, 1, "{err}");
    assert_eq!(fake.requests().len(), 3);
}
