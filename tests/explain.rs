//! `iris explain FILE` end to end: the real binary on a temporary repository, talking to the
//! fake provider. Each path (fast, tool calling, two-stage fallback) is checked by what the
//! app sent as well as by what it printed.

use crate::common::TestRepo;
use crate::common::agent::{Wire, failure, openai_env, run, success, write_user_config};
use crate::common::fake_provider::{FakeProvider, Recorded, Step};
use serde_json::{Value, json};

const TOOL: &str = "refer_to_source_code";

/// A Rust file of `functions` functions, six lines each: a doc line, the signature, two lines
/// of body, the closing brace and a blank line (function `i` spans lines `6i+2..=6i+5`).
fn rust_source(functions: usize) -> String {
    (0..functions)
        .map(|i| {
            format!(
                "/// Doubles {i}.\npub fn f_{i}(x: u32) -> u32 {{\n    let y = x + {i};\n    y * 2\n}}\n\n"
            )
        })
        .collect()
}

/// A repository holding `src/lib.rs` (`functions` functions), a text file of 300 lines, a
/// binary file and a directory.
fn repo_with(functions: usize) -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", rust_source(functions));
    let notes: String = (1..=300).map(|i| format!("note {i}\n")).collect();
    repo.write("notes.txt", notes);
    repo.write("logo.bin", [0u8, 159, 146, 150, 0, 1]);
    repo.commit_all("Initial commit");
    repo
}

/// An answer as a model writes it: one block over `ranges` (one past the end), a second one
/// with no valid range at all.
fn answer(ranges: Value) -> String {
    json!({
        "intent": "Doubles small numbers\nfor the rest of the crate.",
        "blocks": [
            {"id": "Doubling Numbers", "label": "Doubling", "description": "The functions.",
             "elements": {"functions": ["f_0", "f_1"], "state": [], "imports": [], "types": [],
                          "constants": []},
             "ranges": ranges},
            {"id": "ghost", "label": "Ghost", "description": "Nowhere.", "elements": {},
             "ranges": [[900, 950]]},
        ],
    })
    .to_string()
}

/// The same answer with the IRIS specification's field names.
fn specified_answer(ranges: Value) -> String {
    let mut answer: Value = serde_json::from_str(&answer(ranges)).unwrap();
    let fields = answer.as_object_mut().unwrap();
    let intent = fields.remove("intent").unwrap();
    let blocks = fields.remove("blocks").unwrap();
    fields.insert("file_intent".into(), intent);
    fields.insert("responsibilities".into(), blocks);
    answer.to_string()
}

#[test]
fn the_specified_spelling_is_read_and_printed() {
    let repo = repo_with(5);
    let fake = FakeProvider::start(vec![Step::text(specified_answer(json!([[2, 5]])))]);
    let json = json_of(&explain(&repo, &fake, &["src/lib.rs", "--json"]));
    assert_eq!(
        json["file_intent"],
        "Doubles small numbers\nfor the rest of the crate."
    );
    assert_eq!(json["responsibilities"][0]["ranges"], json!([[2, 5]]));
    assert!(json.get("intent").is_none() && json.get("blocks").is_none());
    // The model is asked for the specified names.
    let system = fake.requests()[0].raw_body.clone();
    assert!(
        system.contains("\"file_intent\"") && system.contains("\"responsibilities\""),
        "{system}"
    );
}

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_str(&success(out)).expect("JSON")
}

fn first_user_text(request: &Recorded) -> String {
    request.user_texts().join("\n")
}

fn explain(repo: &TestRepo, fake: &FakeProvider, args: &[&str]) -> std::process::Output {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    run(repo, &all, &openai_env(fake))
}

#[test]
fn a_small_file_goes_whole_in_one_request_without_tools() {
    let repo = repo_with(5); // 30 lines
    let fake = FakeProvider::start(vec![Step::text(answer(json!([[2, 5], [20, 99]])))]);
    let args = ["src/lib.rs", "--json", "-i", "Answer in French."];
    let json = json_of(&explain(&repo, &fake, &args));
    assert_eq!(json["path"], "src/lib.rs");
    assert_eq!(
        json["file_intent"],
        "Doubles small numbers\nfor the rest of the crate."
    );
    assert_eq!(
        json["metadata"],
        json!({"tool_reads": [], "tool_call_count": 0, "execution_path": "fast-path"})
    );
    // The ghost block had no line inside the file; the other's ranges were clamped.
    let blocks = json["responsibilities"].as_array().expect("blocks");
    assert_eq!(blocks.len(), 1, "{blocks:?}");
    assert_eq!(blocks[0]["id"], "doubling-numbers");
    assert_eq!(blocks[0]["ranges"], json!([[2, 5], [20, 30]]));
    assert_eq!(blocks[0]["elements"]["functions"], json!(["f_0", "f_1"]));

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert!(
        requests[0].tool_names().is_empty(),
        "no tools on the fast path"
    );
    let asked = first_user_text(&requests[0]);
    assert!(asked.starts_with("Explain the file src/lib.rs"), "{asked}");
    assert!(asked.contains("It has 30 lines."), "{asked}");
    assert!(asked.contains("     3|     let y = x + 0;"), "{asked}");
    assert!(asked.contains("    30| "), "{asked}");
    let system = requests[0].system_text();
    assert!(
        system.contains("responsibility blocks") && requests[0].raw_body.contains("\"ranges\""),
        "{system}"
    );
    assert!(
        !system.contains("\"metadata\""),
        "the model does not write the metadata"
    );
    // The user's own instructions, but no commit-message writing style.
    assert!(system.contains("## The user's instructions\nAnswer in French."));
    assert!(!system.contains("## Style"), "{system}");

    // Plain: the intent, each block with its lines and elements, then how it was made.
    let fake = FakeProvider::start(vec![Step::text(answer(json!([[2, 5], [8, 11]])))]);
    let text = success(&explain(&repo, &fake, &["src/lib.rs"]));
    assert_eq!(
        text.trim_end(),
        "Doubles small numbers\nfor the rest of the crate.\n\n\
         Doubling (doubling-numbers) lines 2-5, 8-11\n  The functions.\n  functions: f_0, f_1\n\n\
         fast-path: the whole file in one request"
    );
}

#[test]
fn a_larger_file_sends_its_outline_and_the_model_reads_with_the_tool() {
    for wire in Wire::ALL {
        let repo = repo_with(40); // 240 lines
        let fake = FakeProvider::start(vec![
            Step::ToolCalls(vec![
                (TOOL.into(), json!({"start_line": 8, "end_line": 11})),
                (TOOL.into(), json!({"start_line": 400, "end_line": 420})),
            ]),
            Step::text(answer(json!([[8, 11], [2, 5]]))),
        ]);
        let out = run(
            &repo,
            &["explain", "src/lib.rs", "--json"],
            &wire.env(&fake),
        );
        let json = json_of(&out);
        assert_eq!(
            json["metadata"],
            json!({"tool_reads": [{"start_line": 8, "end_line": 11}], "tool_call_count": 2,
                   "execution_path": "tool-calling"}),
            "{wire:?}"
        );
        assert_eq!(
            json["responsibilities"][0]["ranges"],
            json!([[2, 5], [8, 11]])
        );

        let requests = fake.requests();
        assert_eq!(requests.len(), 2, "{wire:?}");
        assert_eq!(requests[0].tool_names(), vec![TOOL.to_string()], "{wire:?}");
        let asked = first_user_text(&requests[0]);
        assert!(asked.contains("It has 240 lines."), "{asked}");
        assert!(asked.contains("src/lib.rs: Rust, 240 lines"), "{asked}");
        assert!(
            asked.contains("8-11       pub fn f_1(x: u32) -> u32  // Doubles 1."),
            "{asked}"
        );
        assert!(!asked.contains("let y = x + 1;"), "no bodies: {asked}");
        assert!(asked.contains("at most 30 reads"), "{asked}");
        // The valid read came back numbered, the invalid one as text the model reads.
        let results: Vec<String> = requests[1]
            .tool_results()
            .into_iter()
            .map(|(_, text)| text)
            .collect();
        assert_eq!(results.len(), 2, "{wire:?}: {results:?}");
        assert!(
            results
                .iter()
                .any(|r| r.contains("src/lib.rs lines 8-11 (of 240):")
                    && r.contains("     9|     let y = x + 1;")),
            "{wire:?}: {results:?}"
        );
        assert!(
            results
                .iter()
                .any(|r| r.contains("lines 400-420 are past the end: the file has 240 lines")),
            "{wire:?}: {results:?}"
        );
    }
}

#[test]
fn a_language_without_an_outline_sends_its_first_lines() {
    let repo = repo_with(5);
    let fake = FakeProvider::start(vec![
        Step::tool_call(TOOL, json!({"start_line": 101, "end_line": 300})),
        Step::text(answer(json!([[1, 300]]))),
    ]);
    let json = json_of(&explain(&repo, &fake, &["notes.txt", "--json"]));
    assert_eq!(json["metadata"]["execution_path"], "tool-calling");
    let requests = fake.requests();
    let asked = first_user_text(&requests[0]);
    assert!(
        asked.contains("There is no outline for its language; its first 100 lines:"),
        "{asked}"
    );
    assert!(asked.contains("   100| note 100") && !asked.contains("note 101"));
    let read = &requests[1].tool_results()[0].1;
    assert!(read.contains("   300| note 300"), "{read}");
}

#[test]
fn past_the_read_limit_the_model_is_told_to_answer() {
    let repo = repo_with(40);
    write_user_config(&repo, "explain_max_reads = 1\n");
    let fake = FakeProvider::start(vec![
        Step::tool_call(TOOL, json!({"start_line": 1, "end_line": 5})),
        Step::tool_call(TOOL, json!({"start_line": 6, "end_line": 10})),
        Step::text(answer(json!([[1, 10]]))),
    ]);
    let json = json_of(&explain(&repo, &fake, &["src/lib.rs", "--json"]));
    assert_eq!(
        json["metadata"],
        json!({"tool_reads": [{"start_line": 1, "end_line": 5}], "tool_call_count": 2,
               "execution_path": "tool-calling"})
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    assert!(first_user_text(&requests[0]).contains("at most 1 read,"));
    let told = requests[2].tool_results();
    assert!(
        told.last().is_some_and(
            |(_, text)| text.contains("read limit reached; answer now with what you have")
        ),
        "{told:?}"
    );
}

#[test]
fn without_a_valid_answer_it_falls_back_to_two_stages() {
    let repo = repo_with(40);
    let refused_tools = Step::Error {
        status: 400,
        body: json!({"error": {"message": "This model does not support tools.",
                               "type": "invalid_request_error"}})
        .to_string(),
        retry_after: None,
    };
    for first in [Step::text("It doubles numbers, I think."), refused_tools] {
        let fake = FakeProvider::start(vec![
            first,
            Step::text(json!({"ranges": [[8, 11], [500, 600], [2, 3]]}).to_string()),
            Step::text(answer(json!([[2, 11]]))),
        ]);
        let json = json_of(&explain(&repo, &fake, &["src/lib.rs", "--json"]));
        assert_eq!(
            json["metadata"],
            json!({"tool_reads": [{"start_line": 2, "end_line": 3},
                                  {"start_line": 8, "end_line": 11}],
                   "tool_call_count": 0, "execution_path": "two-stage"})
        );
        let requests = fake.requests();
        assert_eq!(requests.len(), 3, "the single stage, then two more");
        assert!(requests[1].tool_names().is_empty() && requests[2].tool_names().is_empty());
        let plan = first_user_text(&requests[1]);
        assert!(plan.contains("first of two steps"), "{plan}");
        assert!(plan.contains("8-11       pub fn f_1"), "{plan}");
        assert!(requests[1].system_text().contains("\"ranges\""));
        let second = first_user_text(&requests[2]);
        assert!(
            second.contains("src/lib.rs lines 8-11 (of 240):\n     8| pub fn f_1"),
            "{second}"
        );
        assert!(!second.contains("lines 500-"), "{second}");
    }
}

#[test]
fn when_both_stages_fail_the_error_says_so() {
    let repo = repo_with(40);
    let fake = FakeProvider::start(vec![
        Step::text("Nice file."),
        Step::text(json!({"ranges": [[1, 5]]}).to_string()),
        Step::text(json!({"intent": "", "blocks": []}).to_string()),
    ]);
    let err = failure(&explain(&repo, &fake, &["src/lib.rs"]), 4);
    assert!(
        err.contains("the single stage gave no usable answer")
            && err.contains("the two-stage fallback failed too")
            && err.contains("it has no intent")
            && err.contains("iris-file_intent-reply.txt"),
        "{err}"
    );
    assert_eq!(fake.requests().len(), 3);
    assert!(
        repo.path()
            .join(".git/iris/iris-file_intent-reply.txt")
            .exists()
    );
}

#[test]
fn a_file_that_cannot_be_explained_is_a_usage_error_before_anything_is_sent() {
    let repo = repo_with(5);
    std::fs::write(repo.home().join("outside.rs"), "fn x() {}\n").expect("outside file");
    let fake = FakeProvider::start(vec![]);
    for (path, why) in [
        ("../outside.rs", "leaves the repository"),
        (
            "missing.rs",
            "does not exist: paths are relative to the current directory",
        ),
        ("src", "is a directory"),
        ("logo.bin", "is a binary file"),
    ] {
        let err = failure(&explain(&repo, &fake, &[path]), 2);
        assert!(err.contains(why), "{path}: {err}");
    }
    assert_eq!(fake.requests().len(), 0, "nothing to explain, nothing sent");
}
