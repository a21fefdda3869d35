//! Reviews that remember: `iris review --dismiss ID --reason TEXT` keeps a finding out of
//! later reviews (moved lines and all), the reason goes to the reviewer, `--team` keeps it in
//! `.iris/review-memory.toml` for every clone.

use crate::common::agent::{openai_env, run, staged_repo, success};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{TestRepo, stderr, stdout};
use serde_json::{Value, json};

const UNWRAP: &str = "input.trim().parse().unwrap()";
const OTHER: &str = "let base = 10;";
const REASON: &str = "inputs are validated by the caller";

/// `src/parse.rs` with `above` lines of code before the unwrap.
fn parse_rs(above: usize) -> String {
    let mut text = String::from("pub fn parse(input: &str) -> u32 {\n");
    for i in 0..above {
        text.push_str(&format!("    let _pad{i} = {i};\n"));
    }
    text.push_str(&format!("    {OTHER}\n    {UNWRAP} * base\n}}\n"));
    text
}

/// A repository with `src/parse.rs` staged as a new file.
fn repo() -> TestRepo {
    let repo = staged_repo();
    repo.write(".irisconfig", "critic_enabled = false\n");
    repo.write("src/parse.rs", parse_rs(0));
    repo.git(&["add", "-A"]);
    repo
}

/// A high finding on the unwrap at `line` and, with `other`, a medium one on other code.
fn reply(line: u32, other: bool) -> String {
    let mut findings = vec![json!({
        "severity": "high", "file": "src/parse.rs", "line": line,
        "title": "Panics on bad input", "body": "unwrap() panics.",
        "confidence": 90, "category": "correctness", "quote": UNWRAP,
    })];
    if other {
        findings.push(json!({
            "severity": "medium", "file": "src/parse.rs", "line": line - 1,
            "title": "A magic base", "body": "Name the base.",
            "confidence": 90, "quote": OTHER,
        }));
    }
    json!({"summary": "Adds parse().", "findings": findings, "strengths": []}).to_string()
}

/// Reviews the staged change with the model replying `reply`; the run and what was asked.
fn review(repo: &TestRepo, args: &[&str], reply: String) -> (std::process::Output, Vec<String>) {
    let fake = FakeProvider::start(vec![Step::text(reply)]);
    let mut all = vec!["review"];
    all.extend_from_slice(args);
    let out = run(repo, &all, &openai_env(&fake));
    let asked = fake
        .requests()
        .iter()
        .flat_map(|r| r.user_texts())
        .collect();
    (out, asked)
}

/// Reviews `repo` once and dismisses the unwrap's finding with [`REASON`] (`more`: other
/// flags, such as `--team`); the dismissal's run and the finding's id.
fn dismiss_the_unwrap(repo: &TestRepo, more: &[&str]) -> (std::process::Output, String) {
    let (first, _) = review(repo, &["--json"], reply(3, false));
    let id = id_of(&first, "Panics on bad input");
    let mut args = vec!["review", "--dismiss", id.as_str(), "--reason", REASON];
    args.extend_from_slice(more);
    (success_output(run(repo, &args, &[])), id)
}

/// The id `--json` gives the finding titled `title`.
fn id_of(out: &std::process::Output, title: &str) -> String {
    let json: Value = serde_json::from_str(&stdout(out)).expect("JSON");
    let finding = json["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["title"] == title)
        .unwrap_or_else(|| panic!("no finding {title}: {json:#}"));
    finding["id"].as_str().expect("an id").to_string()
}

#[test]
fn a_dismissed_finding_stays_dismissed_when_its_code_moves_and_its_reason_is_sent() {
    let repo = repo();
    let (first, _) = review(&repo, &["--json", "--fail-on", "high"], reply(3, false));
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let id = id_of(&first, "Panics on bad input");
    assert_eq!(id.len(), 10);
    // The markdown prints it beside the finding.
    let (printed, _) = review(&repo, &[], reply(3, false));
    assert!(
        stdout(&printed).contains(&format!(
            "### Panics on bad input (`src/parse.rs:3`) · 90% · id {id}"
        )),
        "{}",
        stdout(&printed)
    );

    let unknown = run(&repo, &["review", "--dismiss", "0123456789"], &[]);
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    assert!(stderr(&unknown).contains("no finding 0123456789 in the last review"));
    let bad = run(
        &repo,
        &["review", "--dismiss", &id, "--commit", "HEAD"],
        &[],
    );
    assert_eq!(bad.status.code(), Some(2), "clap refuses: {}", stderr(&bad));

    let dismissed = run(
        &repo,
        &["review", "--dismiss", &id, "--reason", REASON],
        &[],
    );
    success(&dismissed);
    assert!(
        stderr(&dismissed).contains("kept in yours"),
        "{}",
        stderr(&dismissed)
    );
    let listed = success(&run(&repo, &["review", "--dismissed"], &[]));
    assert!(listed.contains(&id) && listed.contains(REASON), "{listed}");

    // The same code three lines down, the model raising it again with other code's finding.
    repo.write("src/parse.rs", parse_rs(3));
    repo.git(&["add", "-A"]);
    let (second, asked) = review(&repo, &["--fail-on", "high"], reply(6, true));
    let out = success(&second);
    assert!(!out.contains("Panics on bad input"), "{out}");
    assert!(out.contains("### A magic base (`src/parse.rs:5`)"), "{out}");
    assert!(
        out.contains(
            "_1 finding dismissed earlier left out: `iris review --dismissed` lists them._"
        ),
        "{out}"
    );
    let asked = asked.join("\n");
    assert!(asked.contains("## Dismissed before"), "{asked}");
    assert!(
        asked.contains(&format!(
            "\"Panics on bad input\" on `{UNWRAP}` in src/parse.rs is accepted here: {REASON}"
        )),
        "{asked}"
    );

    // Every output leaves it out: JSON, SARIF.
    let (json, _) = review(&repo, &["--json"], reply(6, true));
    let json: Value = serde_json::from_str(&success(&json)).expect("JSON");
    assert_eq!(
        json["findings"].as_array().map(Vec::len),
        Some(1),
        "{json:#}"
    );
    let (sarif, _) = review(&repo, &["--format", "sarif"], reply(6, true));
    let sarif = success(&sarif);
    assert!(!sarif.contains("Panics on bad input"), "{sarif}");

    // Taken back, it comes back.
    success(&run(&repo, &["review", "--undismiss", &id], &[]));
    let (again, _) = review(&repo, &["--fail-on", "high"], reply(6, true));
    assert_eq!(again.status.code(), Some(1), "{}", stdout(&again));
}

#[test]
fn the_dry_run_shows_the_notes() {
    let repo = repo();
    dismiss_the_unwrap(&repo, &[]);
    let fake = FakeProvider::start(vec![]);
    let out = success(&run(&repo, &["review", "--dry-run"], &openai_env(&fake)));
    assert!(
        out.contains("## Dismissed before") && out.contains(REASON),
        "{out}"
    );
}

#[test]
fn a_team_dismissal_is_committed_and_honoured_in_a_fresh_clone() {
    let origin = repo();
    let (team, id) = dismiss_the_unwrap(&origin, &["--team"]);
    assert!(stderr(&team).contains("the team's"));
    let file = std::fs::read_to_string(origin.path().join(".iris/review-memory.toml"))
        .expect("the team's file");
    assert!(file.contains(REASON) && file.contains(UNWRAP), "{file}");
    origin.git(&["add", ".iris/review-memory.toml"]);
    origin.git(&[
        "commit",
        "-q",
        "-m",
        "Remember a review",
        "--",
        ".iris/review-memory.toml",
    ]);

    let clone = TestRepo::new();
    std::fs::remove_dir_all(clone.path()).expect("an empty place");
    let url = format!("file://{}", origin.path().display());
    let cloned = clone.git_in(clone.home(), &["clone", "-q", &url, "repo"]);
    assert!(
        cloned.status.success(),
        "{}",
        String::from_utf8_lossy(&cloned.stderr)
    );
    clone.write("src/parse.rs", parse_rs(0));
    clone.git(&["add", "-A"]);
    let (out, _) = review(&clone, &["--fail-on", "high"], reply(3, true));
    let out = success(&out);
    assert!(!out.contains("Panics on bad input"), "{out}");
    assert!(
        out.contains("1 finding dismissed earlier left out"),
        "{out}"
    );
    let listed = success(&run(&clone, &["review", "--dismissed"], &[]));
    assert!(
        listed.contains(&id) && listed.contains("the team's"),
        "{listed}"
    );
}

/// `out`, asserted successful.
fn success_output(out: std::process::Output) -> std::process::Output {
    success(&out);
    out
}

#[test]
fn a_dismissal_follows_its_file_when_the_file_is_renamed() {
    let repo = repo();
    dismiss_the_unwrap(&repo, &[]);
    repo.git(&["commit", "-qm", "Add parse()"]);
    // The file moves as it is: git sees a rename, the reviewer names the new path.
    repo.git(&["mv", "src/parse.rs", "src/parsing.rs"]);
    let moved = reply(3, false).replace("src/parse.rs", "src/parsing.rs");
    let (second, _) = review(&repo, &["--fail-on", "high"], moved);
    let out = success(&second);
    assert!(!out.contains("Panics on bad input"), "{out}");
    assert!(
        out.contains("1 finding dismissed earlier left out"),
        "{out}"
    );
}

#[test]
fn an_edited_neighbour_line_keeps_the_dismissal() {
    let repo = repo();
    dismiss_the_unwrap(&repo, &[]);
    repo.write("src/parse.rs", parse_rs(0).replace(OTHER, "let base = 16;"));
    repo.git(&["add", "-A"]);
    let (again, _) = review(&repo, &["--fail-on", "high"], reply(3, false));
    let out = success(&again);
    assert!(!out.contains("Panics on bad input"), "{out}");
}

/// A finding that quotes nothing is known again by its title within the block its line is in
/// now, and not in another block of the same file.
#[test]
fn a_finding_without_a_quote_is_dismissed_in_its_block_only() {
    let repo = repo();
    let two = |above: &str| {
        format!(
            "{above}pub fn parse(input: &str) -> u32 {{\n    input.parse().unwrap_or(10)\n}}\n\n\
             pub fn print(n: u32) {{\n    println!(\"{{n}}\");\n}}\n"
        )
    };
    repo.write("src/parse.rs", two(""));
    repo.git(&["add", "-A"]);
    let unquoted = |line: u32| {
        json!({"summary": "Adds parse().", "strengths": [], "findings": [{
            "severity": "high", "file": "src/parse.rs", "line": line,
            "title": "Silent fallback on bad input", "body": "Say so.", "confidence": 90}]})
        .to_string()
    };
    let (first, _) = review(&repo, &["--json"], unquoted(2));
    let id = id_of(&first, "Silent fallback on bad input");
    success(&run(&repo, &["review", "--dismiss", &id], &[]));
    repo.write("src/parse.rs", two("// one\n// two\n// three\n"));
    repo.git(&["add", "-A"]);
    let (moved, _) = review(&repo, &[], unquoted(5));
    let out = success(&moved);
    assert!(!out.contains("Silent fallback"), "{out}");
    let (elsewhere, _) = review(&repo, &[], unquoted(9));
    let out = success(&elsewhere);
    assert!(
        out.contains("Silent fallback"),
        "print() is another block: {out}"
    );
    // The line's neighbour edited (the block's header): the line is found again, in its
    // block, and the finding stays dismissed.
    let edited =
        two("// one\n// two\n// three\n").replace("-> u32 {\n    input", "-> u64 {\n    input");
    repo.write("src/parse.rs", &edited);
    repo.git(&["add", "-A"]);
    let (neighbour, _) = review(&repo, &[], unquoted(5));
    let out = success(&neighbour);
    assert!(!out.contains("Silent fallback"), "{out}");
}
