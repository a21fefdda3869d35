//! Benchmark (issue 11): requests and input tokens to explain a file, single stage (the outline,
//! then tool reads) against two stages (which ranges to read, then the answer), on real files
//! of this repository, in the same run.
//!
//! The model is the fake provider's careful model. What it reads is defined once
//! ([`careful_ranges`]) and the same for every path: the body of each top-level definition
//! longer than [`LONG_DEFINITION`] lines, longest first, within the two-stage plan's bounds
//! (a file without an outline: what follows its first lines). The single stage is measured
//! twice: a model that reads one range per turn (`Step::Careful`) and one that asks for all
//! of them in one turn (`Step::CarefulAtOnce`). The last two columns are a model for which
//! the outline is enough (it reads nothing). The answer is the same everywhere. Input tokens
//! are estimated as each request body's characters / 4.
//!
//! Run: `cargo bench --bench intent`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::TestRepo;
use common::fake_provider::{FakeProvider, Need, Step};
use iris_studio_agent::capability::intent::{
    ExecutionPath, FileIntent, HEAD_LINES, MAX_PLAN_LINES, MAX_PLAN_RANGES, MAX_READ_LINES,
    Strategy,
};
use iris_studio_agent::tools::outline::{DefinitionKind, outline};
use iris_studio_agent::{EventSink, IrisAgent};
use iris_studio_config::{Config, Overrides};
use iris_studio_git::GitRepo;
use serde_json::{Value, json};

/// Files of this repository, 200 to 1,500 lines (README.md has no outline).
const FILES: [&str; 5] = [
    "crates/iris-core/src/change/diff.rs",
    "crates/iris-agent/src/output/recover.rs",
    "crates/iris-config/src/keys.rs",
    "crates/iris-agent/src/tools/outline.rs",
    "README.md",
];
/// A careful model reads the body of a top-level definition longer than this.
const LONG_DEFINITION: usize = 25;
const TOOL: &str = "refer_to_source_code";

/// How one path went on one file.
struct Measured {
    requests: usize,
    tokens: usize,
    intent: FileIntent,
}

/// What one column measures: a way to explain, and the model's script for a file.
struct Column {
    title: &'static str,
    strategy: Strategy,
    /// Whether the model reads the careful ranges (else the outline is enough).
    reads: bool,
    script: fn(Vec<Need>, Value, String) -> Vec<Step>,
}

const COLUMNS: [Column; 5] = [
    Column {
        title: "single, 1 read/turn",
        strategy: Strategy::SingleStage,
        reads: true,
        script: |needs, _, answer| vec![Step::Careful { needs, answer }],
    },
    Column {
        title: "single, all at once",
        strategy: Strategy::SingleStage,
        reads: true,
        script: |needs, _, answer| vec![Step::CarefulAtOnce { needs, answer }],
    },
    Column {
        title: "two-stage",
        strategy: Strategy::TwoStage,
        reads: true,
        script: |_, plan, answer| vec![Step::text(plan.to_string()), Step::text(answer)],
    },
    Column {
        title: "single, no read",
        strategy: Strategy::SingleStage,
        reads: false,
        script: |_, _, answer| vec![Step::text(answer)],
    },
    Column {
        title: "two-stage, no read",
        strategy: Strategy::TwoStage,
        reads: false,
        script: |_, plan, answer| vec![Step::text(plan.to_string()), Step::text(answer)],
    },
];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = TestRepo::new();
    for file in FILES {
        let text = std::fs::read_to_string(root.join(file)).expect("a file of this repository");
        repo.write(file, text);
    }
    repo.commit_all("The files to explain");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");

    print!("{:<28} {:>5} {:>10}", "", "", "");
    for column in &COLUMNS {
        print!(" | {:>19}", column.title);
    }
    print!("\n{:<28} {:>5} {:>10}", "file", "lines", "read");
    for _ in &COLUMNS {
        print!(" | {:>8} {:>10}", "requests", "input tok");
    }
    println!();
    let mut totals = [(0, 0); COLUMNS.len()];
    for file in FILES {
        let text = std::fs::read_to_string(repo.path().join(file)).expect("copied file");
        let lines = text.lines().count();
        let ranges = careful_ranges(file, &text);
        let read: usize = ranges.iter().map(|(a, b)| b - a + 1).sum();
        print!(
            "{file:<28} {lines:>5} {:>10}",
            format!("{read} in {}", ranges.len())
        );
        for (column, total) in COLUMNS.iter().zip(totals.iter_mut()) {
            let wanted = if column.reads {
                ranges.clone()
            } else {
                Vec::new()
            };
            let needs: Vec<Need> = wanted
                .iter()
                .map(|&(start, end)| Need {
                    marker: format!("{file} lines {start}-{end} (of"),
                    tool: TOOL.into(),
                    args: json!({"start_line": start, "end_line": end}),
                })
                .collect();
            let plan = json!({"ranges": wanted.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>()});
            let script = (column.script)(needs, plan, answer(lines));
            let measured = runtime.block_on(measure(&repo, file, column.strategy, script));
            check(file, column, &wanted, &measured.intent);
            print!(" | {:>8} {:>10}", measured.requests, measured.tokens);
            total.0 += measured.requests;
            total.1 += measured.tokens;
        }
        println!();
    }
    print!("{:<28} {:>5} {:>10}", "total", "", "");
    for (requests, tokens) in totals {
        print!(" | {requests:>8} {tokens:>10}");
    }
    println!();
    let ratio = |a: usize, b: usize| totals[a].1 as f64 / totals[b].1 as f64;
    println!(
        "\ninput tokens, single stage against two stages: {:.2}x reading one range per turn, \
         {:.2}x reading all at once, {:.2}x when the outline is enough",
        ratio(0, 2),
        ratio(1, 2),
        ratio(3, 4)
    );
}

/// The ranges a careful model reads in `text` (the file at `path`), sorted by line.
fn careful_ranges(path: &str, text: &str) -> Vec<(usize, usize)> {
    let lines = text.lines().count();
    let outlined = outline(Path::new(path), text).filter(|o| !o.definitions.is_empty());
    let mut candidates: Vec<(usize, usize)> = match outlined {
        Some(outline) => {
            let mut long: Vec<(usize, usize)> = outline
                .definitions
                .iter()
                .filter(|d| d.indent == 0 && d.kind == DefinitionKind::Item)
                .map(|d| (d.start, d.end.min(d.start + MAX_READ_LINES - 1)))
                .filter(|(start, end)| end - start + 1 > LONG_DEFINITION)
                .collect();
            long.sort_by_key(|(start, end)| std::cmp::Reverse(end - start));
            long
        }
        None => (HEAD_LINES + 1..=lines)
            .step_by(MAX_READ_LINES)
            .map(|start| (start, (start + MAX_READ_LINES - 1).min(lines)))
            .collect(),
    };
    let mut budget = MAX_PLAN_LINES;
    candidates.retain(|&(start, end)| {
        let fits = end - start < budget;
        if fits {
            budget -= end - start + 1;
        }
        fits
    });
    candidates.truncate(MAX_PLAN_RANGES);
    candidates.sort_unstable();
    candidates
}

/// A valid answer: the file in three blocks.
fn answer(lines: usize) -> String {
    let third = lines / 3;
    let block = |id: &str, start: usize, end: usize| {
        json!({"id": id, "label": id, "description": "A third of the file.", "elements": {},
               "ranges": [[start, end]]})
    };
    json!({
        "intent": "Explained for the benchmark.",
        "blocks": [
            block("first-third", 1, third),
            block("second-third", third + 1, 2 * third),
            block("last-third", 2 * third + 1, lines),
        ],
    })
    .to_string()
}

/// Explains `file` with `strategy` against a fake provider playing `script`.
async fn measure(repo: &TestRepo, file: &str, strategy: Strategy, script: Vec<Step>) -> Measured {
    let fake = FakeProvider::start(script);
    let root = repo.path();
    let url = fake.openai_base_url();
    let env = |name: &str| match name {
        "IRIS_PROVIDER" => Some("openai".to_string()),
        "OPENAI_API_KEY" => Some("sk-bench".to_string()),
        "OPENAI_BASE_URL" => Some(url.clone()),
        // The fake on loopback stands for OpenAI's own servers.
        "IRIS_LOCAL" => Some("false".to_string()),
        _ => None,
    };
    let config = Config::load_from(None, Some(&root), &env, &Overrides::default()).expect("config");
    let git = GitRepo::discover(&root).expect("repository");
    let iris = IrisAgent::from_config(
        &config,
        &root,
        iris_studio::app::stores::IrisDir::of(git.git_dir()).path(),
        true,
    )
    .expect("agent");
    // The built-in capability, whatever the user overrides.
    let iris = iris.with_user_dir(None);
    let intent = iris
        .explain_file_with(file, strategy, &EventSink::none())
        .await
        .unwrap_or_else(|e| panic!("{file} with {strategy:?}: {e:#}"));
    Measured {
        requests: fake.requests().len(),
        tokens: fake.estimated_input_tokens(),
        intent,
    }
}

/// The run took the way its column meant and read the lines it was meant to.
fn check(file: &str, column: &Column, ranges: &[(usize, usize)], intent: &FileIntent) {
    let covered = |reads: &mut dyn Iterator<Item = (usize, usize)>| -> BTreeSet<usize> {
        reads.flat_map(|(a, b)| a..=b).collect()
    };
    let meta = &intent.metadata;
    let path = match column.strategy {
        Strategy::SingleStage => ExecutionPath::ToolCalling,
        Strategy::TwoStage => ExecutionPath::TwoStage,
    };
    assert_eq!(meta.execution_path, path, "{file}: {}", column.title);
    let read = covered(&mut meta.tool_reads.iter().map(|r| (r.start_line, r.end_line)));
    assert_eq!(
        read,
        covered(&mut ranges.iter().copied()),
        "{file}: {}: not the lines meant to be read",
        column.title
    );
}
