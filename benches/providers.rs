//! Benchmark (issue 51): the first request for the same staged change through `openai`,
//! through the named service `openrouter`, through `openai-compatible` at OpenRouter's
//! address (a hosted endpoint, which used to be taken for a small local model) and through a
//! server on this machine, side by side: its size by part, its output budget and its price.
//! Nothing is sent: each is `iris gen --dry-run --json`.
//!
//! Run: `cargo bench --bench providers`.

#[path = "../tests/common/mod.rs"]
mod common;
use common::{Iris, TestRepo};

use serde_json::Value;

/// A change of a few hundred lines over five files: big enough that a local server's share
/// of the diff is smaller than a hosted model's.
fn staged_change() -> TestRepo {
    let repo = TestRepo::new();
    let module = |n: usize, lines: usize| {
        (0..lines)
            .map(|i| format!("pub fn f{n}_{i}(x: u64) -> u64 {{\n    x * {i} + {n}\n}}\n"))
            .collect::<String>()
    };
    for n in 0..5 {
        repo.write(&format!("src/m{n}.rs"), module(n, 20));
    }
    repo.commit_all("Start the modules");
    for n in 0..5 {
        repo.write(&format!("src/m{n}.rs"), module(n, 120));
    }
    repo.git(&["add", "-A"]);
    repo
}

fn main() {
    let repo = staged_change();
    let key = "sk-bench-not-a-key";
    let setups: [(&str, Vec<(&str, &str)>); 4] = [
        (
            "openai",
            vec![("IRIS_PROVIDER", "openai"), ("OPENAI_API_KEY", key)],
        ),
        (
            "openrouter",
            vec![("IRIS_PROVIDER", "openrouter"), ("OPENROUTER_API_KEY", key)],
        ),
        (
            "compatible@openrouter",
            vec![
                ("IRIS_PROVIDER", "openai-compatible"),
                ("OPENAI_API_KEY", key),
                ("OPENAI_BASE_URL", "https://openrouter.ai/api/v1"),
                ("IRIS_MODEL", "anthropic/claude-sonnet-4.5"),
            ],
        ),
        (
            "compatible@127.0.0.1",
            vec![
                ("IRIS_PROVIDER", "openai-compatible"),
                ("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1"),
                ("IRIS_MODEL", "local"),
            ],
        ),
    ];
    let previews: Vec<(&str, Value)> = setups
        .iter()
        .map(|(name, env)| {
            let out = repo.iris_env(&["gen", "--dry-run", "--json"], env, "");
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let preview = serde_json::from_slice(&out.stdout).expect("the preview's JSON");
            (*name, preview)
        })
        .collect();

    print!("{:<20}", "tokens by part");
    for (name, _) in &previews {
        print!(" {name:>22}");
    }
    println!();
    let part_names: Vec<String> = previews[0].1["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    for part in part_names.iter().map(String::as_str).chain(["total"]) {
        print!("{part:<20}");
        for (_, preview) in &previews {
            let tokens = if part == "total" {
                preview["total"]["tokens"].as_u64()
            } else {
                preview["parts"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .find(|p| p["name"] == part)
                    .and_then(|p| p["tokens"].as_u64())
            };
            print!(" {:>22}", tokens.unwrap_or(0));
        }
        println!();
    }
    let row = |label: &str, cell: &dyn Fn(&Value) -> String| {
        print!("{label:<20}");
        for (_, preview) in &previews {
            print!(" {:>22}", cell(preview));
        }
        println!();
    };
    row("output budget", &|p| p["output_budget"].to_string());
    row("evidence chars", &|p| {
        let evidence = p["parts"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|x| x["name"] == "evidence");
        evidence
            .map_or(0, |e| e["chars"].as_u64().unwrap_or(0))
            .to_string()
    });
    row("tokens counted by", &|p| {
        p["tokens"]
            .as_str()
            .unwrap_or_default()
            .chars()
            .take(22)
            .collect()
    });
    row("schema", &|p| {
        let body = &p["body"];
        let schema = body
            .pointer("/response_format/json_schema/schema")
            .or_else(|| body.pointer("/text/format/schema"))
            .map(Value::to_string)
            .unwrap_or_default();
        match (schema.is_empty(), schema.contains("\"description\"")) {
            (true, _) => "none",
            (false, true) => "with descriptions",
            (false, false) => "bare",
        }
        .to_string()
    });
    row("input cost", &|p| match p["cost"]["input"].as_f64() {
        Some(dollars) => format!("${dollars:.4}"),
        None => "unknown".to_string(),
    });
    row("price source", &|p| {
        let source = p["cost"]["source"].as_str().unwrap_or("no price known");
        source.chars().take(22).collect()
    });
}
