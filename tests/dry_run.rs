//! `--dry-run`: the first request shown, not sent: the fake provider receives nothing, and
//! what is shown is byte for byte what a real run then sends, secrets withheld.

use crate::common::agent::{commit_json, openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use serde_json::Value;

/// A token-shaped value made at run time (no secret-shaped literal in the source).
fn token() -> String {
    format!("{}{}", "ghp_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5")
}

/// The body a dry run printed: everything after the line that says it follows (one newline
/// of `println!` at the end left out).
fn shown_body(out: &str) -> &str {
    let marker = "The body, byte for byte:\n";
    let start = out.find(marker).map_or(0, |at| at + marker.len());
    out[start..].strip_suffix('\n').unwrap_or(&out[start..])
}

#[test]
fn a_dry_run_sends_nothing_and_shows_what_a_real_run_sends() {
    let repo = staged_repo();
    repo.write(
        "src/config.rs",
        format!("pub const TOKEN: &str = \"{}\";\n", token()),
    );
    repo.git(&["add", "-A"]);
    repo.write(".irisconfig", "critic_enabled = false\n");
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", "Adds two()."))]);
    let out = success(&run(&repo, &["gen", "--dry-run"], &openai_env(&fake)));
    assert!(fake.requests().is_empty(), "a dry run sends nothing");
    assert!(
        out.starts_with(
            "The first request to openai gpt-5, as it would go out; nothing was sent.\nPOST "
        ),
        "{out}"
    );
    let shown = shown_body(&out).to_string();
    assert!(
        !shown.contains(&token()),
        "the secret is withheld in the preview"
    );
    assert!(
        shown.contains("[secret: github-token, src/config.rs:1]"),
        "{shown}"
    );
    let rows = iris_studio_agent::runtime::dry_run::PARTS
        .iter()
        .chain(&["total"]);
    for part in rows {
        assert!(
            out.lines().any(|l| l.starts_with(part)),
            "no {part} row:\n{out}"
        );
    }
    assert!(
        out.contains("tokens counted with OpenAI's o200k_base tokenizer"),
        "{out}"
    );
    assert!(out.contains("estimated cost: $"), "{out}");

    // A real run sends exactly that.
    success(&run(&repo, &["gen"], &openai_env(&fake)));
    let sent = &fake.requests()[0].raw_body;
    assert_eq!(&shown, sent);
}

#[test]
fn json_gives_the_parts_and_the_cost_and_config_prices_win() {
    let repo = staged_repo();
    let fake = FakeProvider::start(Vec::new());
    let out = success(&run(
        &repo,
        &["review", "--dry-run", "--json"],
        &openai_env(&fake),
    ));
    assert!(fake.requests().is_empty());
    let preview: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(preview["model"], "openai gpt-5");
    assert!(preview["body"]["input"].is_array(), "{preview}");
    let parts = preview["parts"].as_array().expect("parts");
    assert_eq!(parts.len(), 6);
    let tokens: u64 = parts.iter().filter_map(|p| p["tokens"].as_u64()).sum();
    assert!(tokens > 0);
    // The evidence is counted apart from the request, where the capability says it begins.
    let chars = |name: &str| {
        parts
            .iter()
            .find(|p| p["name"] == name)
            .and_then(|p| p["chars"].as_u64())
            .unwrap_or_default()
    };
    assert!(
        chars("evidence") > chars("request") && chars("request") > 0,
        "{preview}"
    );
    assert_eq!(preview["cost"]["price_input"], 1.25);
    assert!(
        preview["cost"]["source"]
            .as_str()
            .unwrap_or_default()
            .starts_with("list prices of 20")
    );

    // The user's prices win over the table's.
    std::fs::create_dir_all(repo.user_config_path().parent().expect("dir")).expect("config dir");
    std::fs::write(
        repo.user_config_path(),
        "[providers.openai]\nprice_input = 2.5\nprice_output = 20\n",
    )
    .expect("user config");
    let out = success(&run(
        &repo,
        &["review", "--dry-run", "--json"],
        &openai_env(&fake),
    ));
    let preview: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(preview["cost"]["price_input"], 2.5);
    assert_eq!(preview["cost"]["price_output"], 20.0);
    assert_eq!(preview["cost"]["source"], "prices from your configuration");
    let total = preview["total"]["tokens"].as_f64().unwrap_or_default();
    let input = preview["cost"]["input"].as_f64().unwrap_or_default();
    assert!(
        (input - total * 2.5 / 1e6).abs() < 1e-9,
        "{input} for {total} tokens"
    );
    // A project file may not set them.
    repo.write(".irisconfig", "[providers.openai]\nprice_input = 0\n");
    let out = run(&repo, &["review", "--dry-run"], &openai_env(&fake));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn every_writing_command_takes_dry_run() {
    let repo = crate::common::agent::released_repo();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n// staged\n");
    repo.git(&["add", "-A"]);
    let fake = FakeProvider::start(Vec::new());
    for args in [
        &["gen", "--dry-run"][..],
        &["review", "--dry-run"],
        &["pr", "--from", "v0.1.0", "--dry-run"],
        &["changelog", "--from", "v0.1.0", "--dry-run"],
        &["release-notes", "--from", "v0.1.0", "--dry-run"],
        &["blame", "src/lib.rs:1-2", "--dry-run"],
        &["explain", "src/lib.rs", "--dry-run"],
    ] {
        let out = success(&run(&repo, args, &openai_env(&fake)));
        assert!(out.contains("nothing was sent"), "{args:?}: {out}");
    }
    assert!(fake.requests().is_empty());
}

/// A dry run sends nothing, so it needs no key: none is asked for, as with `eval --evidence`.
#[test]
fn a_dry_run_asks_for_no_api_key() {
    let repo = crate::common::agent::released_repo();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n// staged\n");
    repo.git(&["add", "-A"]);
    let keyless = [("IRIS_PROVIDER", "anthropic".to_string())];
    for args in [
        &["gen", "--dry-run"][..],
        &["review", "--dry-run"],
        &["changelog", "--from", "v0.1.0", "--dry-run"],
        &["explain", "src/lib.rs", "--dry-run"],
        &["reword", "HEAD", "--dry-run"],
    ] {
        let out = success(&run(&repo, args, &keyless));
        assert!(out.contains("nothing was sent"), "{args:?}: {out}");
    }
    // A real run still says which key is missing.
    let out = run(&repo, &["gen"], &keyless);
    assert_eq!(out.status.code(), Some(2));
    assert!(crate::common::stderr(&out).contains("ANTHROPIC_API_KEY"));
}

#[test]
fn max_cost_per_run_stops_a_run_before_the_request_that_would_pass_it() {
    let repo = staged_repo();
    repo.write(".irisconfig", "critic_enabled = false\n");
    let price = 1000.0; // dollars per million tokens: a request costs about $1 per 4,000 characters
    std::fs::create_dir_all(repo.user_config_path().parent().expect("dir")).expect("config dir");
    let config = |cap: Option<f64>| {
        let cap = cap
            .map(|c| format!("max_cost_per_run = {c}\n"))
            .unwrap_or_default();
        std::fs::write(
            repo.user_config_path(),
            // A request reserves its output budget too: a small one keeps this about input.
            format!(
                "{cap}max_output_tokens = 100\n[providers.openai]\nprice_input = {price}\n\
                 price_output = {price}\n"
            ),
        )
        .expect("user config");
    };
    // How big the first request is, from a dry run.
    config(None);
    let fake = FakeProvider::start(vec![
        Step::tool_call("git_diff", serde_json::json!({"detail": "standard"})),
        Step::text(commit_json("Add two()", "Adds two().")),
    ]);
    let out = success(&run(
        &repo,
        &["gen", "--dry-run", "--json"],
        &openai_env(&fake),
    ));
    let preview: Value = serde_json::from_str(&out).expect("JSON");
    let first = preview["total"]["chars"].as_f64().unwrap_or_default() / 4.0 * price / 1e6;
    // Room for the first request (its input and output budget) and half of it again: the
    // second carries the first and the tool's answer, so it would pass.
    config(Some(first * 1.5 + 0.1));
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_ne!(out.status.code(), Some(0));
    let err = crate::common::stderr(&out);
    assert!(err.contains("stopped before request 2"), "{err}");
    assert!(err.contains("past max_cost_per_run"), "{err}");
    assert_eq!(
        fake.requests().len(),
        1,
        "the second request was never sent"
    );
    // A cap without a known price is refused at once.
    std::fs::write(repo.user_config_path(), "max_cost_per_run = 1\nprovider = \"openai\"\n[providers.openai]\nmodel = \"gpt-unknown\"\n")
        .expect("user config");
    let out = run(&repo, &["gen", "--print"], &openai_env(&fake));
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        crate::common::stderr(&out)
    );
    assert!(crate::common::stderr(&out).contains("no price is known for openai gpt-unknown"));
}

#[test]
fn a_commit_s_history_sample_is_counted_as_history() {
    let repo = staged_repo();
    let fake = FakeProvider::start(Vec::new());
    let out = success(&run(
        &repo,
        &["gen", "--dry-run", "--json"],
        &openai_env(&fake),
    ));
    let preview: Value = serde_json::from_str(&out).expect("JSON");
    let chars = |name: &str| {
        preview["parts"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == name)
            .and_then(|p| p["chars"].as_u64())
            .unwrap_or_default()
    };
    // The sample of the repository's one commit, counted apart from the change's evidence:
    // it ends the request.
    let asked = preview["body"]["input"]
        .as_array()
        .and_then(|turns| turns.last())
        .map(|turn| {
            turn["content"][0]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .unwrap_or_default();
    let sample = &asked[asked
        .find(iris_studio_core::history::SAMPLE_INTRO)
        .expect("a sample")..];
    assert!(sample.contains("- Initial commit"), "{sample}");
    assert_eq!(chars("history"), sample.chars().count() as u64, "{preview}");
    assert!(chars("evidence") > 0 && chars("request") > 0, "{preview}");
}
