//! Secrets never reach the provider: the real `iris gen` on a repository that stages the
//! corpus of real-looking secrets (`iris_studio_testkit::secrets`), Iris reading every file through
//! her tools from the fake provider. What the provider received is searched for each secret;
//! the look-alikes must arrive untouched.

use crate::common::agent::{Wire, commit_json, openai_env, run, success, write_user_config};
use crate::common::fake_provider::{FakeProvider, Recorded, Step};
use crate::common::secrets::{leaks, lookalikes};
use crate::common::{TestRepo, stderr};
use serde_json::{Value, json};

/// Every string of a request body, decoded (a key block's newlines are real newlines here).
fn strings(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => {
            out.push_str(text);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(fields) => fields.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

fn sent(requests: &[Recorded]) -> String {
    let mut out = String::new();
    for request in requests {
        strings(&request.body, &mut out);
    }
    out
}

/// A repository whose one staged commit adds `files`.
fn staging(files: &[(String, String)]) -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n");
    repo.commit_all("Initial commit");
    for (path, text) in files {
        repo.write(path, text);
    }
    repo.git(&["add", "-A"]);
    repo
}

/// A repository staging each text in a file of its own (`{prefix}00.txt`, ...), and the paths.
fn one_file_each<'a>(
    prefix: &str,
    texts: impl Iterator<Item = &'a String>,
) -> (TestRepo, Vec<String>) {
    let files: Vec<(String, String)> = texts
        .enumerate()
        .map(|(i, text)| (format!("{prefix}{i:02}.txt"), format!("{text}\n")))
        .collect();
    let paths = files.iter().map(|(path, _)| path.clone()).collect();
    (staging(&files), paths)
}

/// Iris reads every file (at most 40 a turn: one streamed line of Ollama's wire holds a
/// turn's calls, and rig reads it whole only up to a size), asks for the diff, then writes.
fn reading(paths: &[String]) -> FakeProvider {
    let mut steps: Vec<Step> = paths
        .chunks(40)
        .map(|chunk| {
            Step::ToolCalls(
                chunk
                    .iter()
                    .map(|path| ("file_read".to_string(), json!({ "path": path })))
                    .collect(),
            )
        })
        .collect();
    steps.push(Step::tool_call("git_diff", json!({"detail": "standard"})));
    steps.push(Step::text(commit_json(
        "Add configuration",
        "Adds the settings files.",
    )));
    FakeProvider::start(steps)
}

#[test]
fn no_secret_of_the_corpus_reaches_the_provider_on_any_wire() {
    let leaks = leaks();
    let (repo, paths) = one_file_each("config/leak", leaks.iter().map(|(_, line, _)| line));
    for wire in Wire::EVERY {
        no_secret_reaches(&repo, &paths, &leaks, wire);
    }
}

/// The corpus' leaks, each in its file of `paths`, read by Iris over `wire`: none arrives.
fn no_secret_reaches(
    repo: &TestRepo,
    paths: &[String],
    leaks: &[(&'static str, String, String)],
    wire: Wire,
) {
    let fake = reading(paths);
    // The user's own words carry one too.
    let token = leaks
        .iter()
        .find(|(rule, _, _)| *rule == "github-token")
        .map(|(_, _, secret)| secret)
        .expect("the corpus has GitHub tokens");
    let instructions = format!("push with {token}");
    let out = run(
        repo,
        &["gen", "--print", "-i", &instructions],
        &wire.env(&fake),
    );
    success(&out);
    let requests = fake.requests();
    assert_eq!(requests.len(), paths.len().div_ceil(40) + 2, "{wire:?}");
    let text = sent(&requests);
    // A key block's secret is its body: none of its lines may arrive, whatever surrounds them.
    let mut reached = Vec::new();
    for (rule, _, secret) in leaks {
        let parts = secret
            .lines()
            .filter(|part| part.len() >= 16 || secret.len() < 16);
        if parts.clone().any(|part| text.contains(part)) {
            reached.push(*rule);
        }
    }
    println!(
        "{wire:?}: secrets sent to the provider: {} of {} (rules: {:?})",
        reached.len(),
        leaks.len(),
        reached
    );
    assert!(
        reached.is_empty(),
        "{wire:?}: these reached the provider: {reached:?}"
    );
    // Each file's read result kept its line with a marker naming the kind and the place.
    let results: Vec<(String, String)> = requests[1..]
        .iter()
        .flat_map(|r| r.tool_results())
        .collect();
    for (i, (rule, _, _)) in leaks.iter().enumerate() {
        let path = format!("config/leak{i:02}.txt");
        let read = results
            .iter()
            .find(|(_, text)| text.starts_with(&format!("{path}:")))
            .map(|(_, text)| text.as_str())
            .unwrap_or_default();
        assert!(
            read.contains(&format!("[secret: {rule}, {path}:")),
            "{wire:?}: {path} ({rule}):\n{read}"
        );
    }
    // The user is told, naming file and line; stderr shows no secret either.
    let err = stderr(&out);
    for i in 0..leaks.len() {
        let path = format!("config/leak{i:02}.txt:");
        assert!(
            err.lines()
                .any(|l| l.contains("withheld from the provider") && l.contains(&path)),
            "{wire:?}: {path} not reported:\n{err}"
        );
    }
    assert!(!leaks.iter().any(|(_, _, s)| err.contains(s.as_str())));
}

#[test]
fn look_alikes_reach_the_provider_untouched() {
    let lookalikes = lookalikes();
    let (repo, paths) = one_file_each("data/same", lookalikes.iter().map(|(_, line)| line));
    let fake = reading(&paths);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    success(&out);
    let text = sent(&fake.requests());
    let changed: Vec<&str> = lookalikes
        .iter()
        .filter(|(_, line)| line.lines().any(|l| !text.contains(l)))
        .map(|(what, _)| *what)
        .collect();
    println!(
        "look-alikes changed on the way: {} of {}",
        changed.len(),
        lookalikes.len()
    );
    assert!(changed.is_empty(), "{changed:?}");
    assert!(!stderr(&out).contains("withheld"), "{}", stderr(&out));
}

/// A GitHub token in a `.env` and another in `fixtures/`.
fn two_tokens() -> (TestRepo, Vec<String>, String, String) {
    let leaks = leaks();
    let tokens: Vec<&String> = leaks
        .iter()
        .filter(|(rule, _, _)| *rule == "github-token")
        .map(|(_, _, secret)| secret)
        .collect();
    let (env, fixture) = (tokens[0].clone(), tokens[1].clone());
    let files = vec![
        (".env".to_string(), format!("GITHUB_TOKEN={env}\n")),
        (
            "fixtures/token.txt".to_string(),
            format!("token: {fixture}\n"),
        ),
    ];
    let repo = staging(&files);
    let paths = files.into_iter().map(|(p, _)| p).collect();
    (repo, paths, env, fixture)
}

#[test]
fn the_ignore_file_lets_known_fixtures_through_and_the_scan_can_be_turned_off() {
    let (repo, paths, env, fixture) = two_tokens();
    repo.write(".irissecretsignore", "# test data\nfixtures/\n");
    let fake = reading(&paths);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    success(&out);
    let text = sent(&fake.requests());
    assert!(!text.contains(&env), "the .env token was sent");
    assert!(text.contains(&fixture), "the ignored fixture was withheld");
    let err = stderr(&out);
    assert!(err.contains("github-token at .env:1"), "{err}");
    assert!(!err.contains("fixtures/token.txt"), "{err}");

    // A fingerprint from the report ignores that one secret wherever it is.
    let fingerprint = err
        .split("fingerprint ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the report gives a fingerprint")
        .to_string();
    repo.write(".irissecretsignore", format!("fixtures/\n{fingerprint}\n"));
    let fake = reading(&paths);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    success(&out);
    assert!(sent(&fake.requests()).contains(&env));
    assert!(!stderr(&out).contains("withheld"), "{}", stderr(&out));

    // A broken ignore line is a configuration error naming the file and line.
    repo.write(".irissecretsignore", "fixtures/\ngithub-token:not-hex\n");
    let out = run(&repo, &["gen", "--print"], &openai_env(&reading(&paths)));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(".irissecretsignore"),
        "{}",
        stderr(&out)
    );

    // secret_scan = false in the user config: everything goes as it is.
    std::fs::remove_file(repo.path().join(".irissecretsignore")).expect("remove");
    write_user_config(&repo, "secret_scan = false\n");
    let fake = reading(&paths);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    success(&out);
    let text = sent(&fake.requests());
    assert!(text.contains(&env) && text.contains(&fixture));
}

#[test]
fn debug_traces_never_show_a_secret() {
    let (repo, _, env, _) = two_tokens();
    let fake = FakeProvider::start(vec![
        Step::tool_call("code_search", json!({ "query": env })),
        Step::text(commit_json("Add configuration", "Adds the settings files.")),
    ]);
    let out = run(&repo, &["--debug", "gen", "--print"], &openai_env(&fake));
    success(&out);
    let err = stderr(&out);
    assert!(err.contains("tool call"), "{err}");
    assert!(!err.contains(&env), "{err}");
    assert!(err.contains("[secret: github-token"), "{err}");
}

#[test]
fn the_user_and_the_project_add_rules_of_their_own_and_a_broken_one_is_named() {
    let mut r = crate::common::secrets::Rng::new(77);
    let project_token = format!("acme{}", r.pick(crate::common::secrets::HEX, 32));
    let user_token = format!("corp{}", r.pick(crate::common::secrets::ALNUM, 24));
    let files = vec![
        (
            "deploy.env".to_string(),
            format!("ACME={project_token}\nCORP={user_token}\n"),
        ),
        (
            "README.md".to_string(),
            "# demo, now deployed\n".to_string(),
        ),
    ];
    let repo = staging(&files);
    let paths: Vec<String> = files.into_iter().map(|(p, _)| p).collect();
    let rule = |id: &str, keyword: &str, body: &str| {
        format!(
            "[[rule]]\nid = \"{id}\"\nkeywords = [\"{keyword}\"]\npattern = '(?P<s>{keyword}{body})'\n"
        )
    };
    // Neither token is of a kind the built-in table knows.
    let fake = reading(&paths);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    success(&out);
    let text = sent(&fake.requests());
    assert!(text.contains(&project_token) && text.contains(&user_token));

    repo.write(
        ".irissecrets.toml",
        rule("acme-token", "acme", "[0-9a-f]{32}"),
    );
    let user_rules = repo.user_config_path().with_file_name("secrets.toml");
    std::fs::create_dir_all(user_rules.parent().expect("dir")).expect("config dir");
    std::fs::write(&user_rules, rule("corp-key", "corp", "[0-9A-Za-z]{24}")).expect("write");
    let fake = reading(&paths);
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    success(&out);
    let text = sent(&fake.requests());
    assert!(
        !text.contains(&project_token),
        "the project's rule was not used"
    );
    assert!(!text.contains(&user_token), "the user's rule was not used");
    assert!(
        text.contains("ACME=[secret: acme-token, deploy.env:1]"),
        "{text}"
    );
    assert!(
        text.contains("CORP=[secret: corp-key, deploy.env:2]"),
        "{text}"
    );
    let err = stderr(&out);
    assert!(err.contains("acme-token at deploy.env:1"), "{err}");

    // A rule whose pattern does not compile is a configuration error naming the file.
    repo.write(
        ".irissecrets.toml",
        "[[rule]]\nid = \"acme-token\"\nkeywords = [\"acme\"]\npattern = '(?P<s>acme[0-9'\n",
    );
    let out = run(&repo, &["gen", "--print"], &openai_env(&reading(&paths)));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(".irissecrets.toml") && err.contains("acme-token"),
        "{err}"
    );
}
