//! Benchmark: `iris eval --reviews` on a fixture history, with the fake provider's careful
//! model as the reviewer, on both sides: the commits behind six later fixes, and as many
//! commits that no later fix points at (the clean side). Prints the hit rate, the findings
//! per clean review, and requests, tokens and seconds per review.
//!
//! The careful model reads the full diff of every file of the change before it answers (as
//! the commit message benchmark's does), and its review follows one fixed rule on every
//! commit, fix side or clean: it flags each added line holding a construct a careful reader
//! checks twice ([`CHECKED_TWICE`]: an `unwrap()`, an `as` cast, a `- 1` or `+ 1`, a `<=`).
//! It knows nothing of which commits were fixed later. The critic then approves. The fixture
//! plants six bugs of which three hold such a construct on their line, and six clean functions
//! of which three do too. Beside it, the same model flagging every added line (but blank
//! ones): the reviewer a hit rate alone would call the best. The figures show what the
//! measure reports for such reviewers: they say how `iris eval --reviews` scores, not how
//! good any model is.
//!
//! Run: `cargo bench --bench eval_reviews`; `IRIS_BENCH_BIN=PATH` runs another build of iris.
#![allow(clippy::disallowed_methods)] // benchmarks run the real binary and git

#[path = "support/careful.rs"]
mod careful;
#[path = "../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use common::agent::{approval, openai_env};
use common::fake_provider::{FakeProvider, Step};
use common::{Iris, TestRepo, stderr, stdout};
use iris_studio_core::change::LineKind;
use iris_studio_git::{DiffTarget, GitRepo};
use serde_json::{Value, json};

/// What the careful reviewer flags on an added line.
const CHECKED_TWICE: [&str; 5] = [".unwrap()", " as ", " - 1", " + 1", " <= "];

/// A function that is wrong, and its fix: the line replaced and the fix's message.
struct Bug {
    file: &'static str,
    code: &'static str,
    wrong: &'static str,
    right: &'static str,
    fix: &'static str,
}

const BUGS: [Bug; 6] = [
    Bug {
        file: "src/last.rs",
        code: "/// The last element of `v`.\npub fn last(v: &[i32]) -> Option<i32> {\n    v.get(v.len() - 1).copied()\n}\n",
        wrong: "v.get(v.len() - 1).copied()",
        right: "v.last().copied()",
        fix: "Fix last on an empty slice",
    },
    Bug {
        file: "src/sum_to.rs",
        code: "/// The sum of 1 to `n`.\npub fn sum_to(n: u64) -> u64 {\n    (1..n).sum()\n}\n",
        wrong: "(1..n)",
        right: "(1..=n)",
        fix: "Fix sum_to: include n",
    },
    Bug {
        file: "src/port.rs",
        code: "/// The port `s` names.\npub fn port(s: &str) -> u16 {\n    s.trim().parse().unwrap()\n}\n",
        wrong: "-> u16 {\n    s.trim().parse().unwrap()",
        right: "-> Option<u16> {\n    s.trim().parse().ok()",
        fix: "Fix a crash on a port that is no number",
    },
    Bug {
        file: "src/percent.rs",
        code: "/// `part` in percent of `whole`.\npub fn percent(part: u32, whole: u32) -> u8 {\n    (part * 100 / whole) as u8\n}\n",
        wrong: "(part * 100 / whole) as u8",
        right: "(u64::from(part) * 100 / u64::from(whole.max(1))).min(100) as u8",
        fix: "Fix percent overflowing on large parts",
    },
    Bug {
        file: "src/sub.rs",
        code: "/// `a` minus `b`.\npub fn sub(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
        wrong: "a + b",
        right: "a - b",
        fix: "Fix sub: subtract instead of adding",
    },
    Bug {
        file: "src/in_range.rs",
        code: "/// Whether `x` is within `lo..=hi`.\npub fn in_range(x: i32, lo: i32, hi: i32) -> bool {\n    lo < x && x < hi\n}\n",
        wrong: "lo < x && x < hi",
        right: "lo <= x && x <= hi",
        fix: "Fix in_range at its bounds",
    },
];

/// Functions no later commit fixes: a file and its code.
const CLEAN: [(&str, &str); 6] = [
    (
        "src/words.rs",
        "/// How many words `s` holds.\npub fn words(s: &str) -> usize {\n    s.split_whitespace().count()\n}\n",
    ),
    (
        "src/next_id.rs",
        "/// The id after `id`.\npub fn next_id(id: u32) -> u32 {\n    id + 1\n}\n",
    ),
    (
        "src/clamp.rs",
        "/// `x` within `lo..=hi`.\npub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    if x <= lo {\n        lo\n    } else if x >= hi {\n        hi\n    } else {\n        x\n    }\n}\n",
    ),
    (
        "src/greet.rs",
        "/// A greeting for `name`.\npub fn greet(name: &str) -> String {\n    format!(\"hello, {name}\")\n}\n",
    ),
    (
        "src/first.rs",
        "/// The first element of `v`.\npub fn first(v: &[i32]) -> Option<i32> {\n    v.first().copied()\n}\n",
    ),
    (
        "src/mean.rs",
        "/// The mean of `v`.\npub fn mean(v: &[f64]) -> Option<f64> {\n    if v.is_empty() {\n        return None;\n    }\n    Some(v.iter().sum::<f64>() / v.len() as f64)\n}\n",
    ),
];

/// A reviewer: its name, and whether it flags an added line.
type Reviewer = (&'static str, fn(&str) -> bool);

const REVIEWERS: [Reviewer; 2] = [
    ("careful (checks twice)", |code| {
        CHECKED_TWICE.iter().any(|c| code.contains(c))
    }),
    ("flags every added line", |code| !code.trim().is_empty()),
];

fn main() {
    let repo = fixture();
    let git = GitRepo::discover(&repo.path()).expect("the fixture");
    // The first run only learns which commits are reviewed, in its order.
    let probe = FakeProvider::start(vec![Step::repeat(Step::text(review(Vec::new())))]);
    let (lines, _) = eval(&repo, &probe);
    let reviewed: Vec<String> = lines
        .iter()
        .filter_map(|l| l["introduced_by"].as_str().or(l["commit"].as_str()))
        .map(str::to_string)
        .collect();
    println!(
        "iris eval --reviews on the fixture history, the fake's careful model ({} commits \
         reviewed)",
        reviewed.len()
    );
    println!(
        "  {:<24} {:>8} {:>19} {:>25}",
        "reviewer", "hit rate", "findings per review", "findings per clean review"
    );
    for (name, flags) in REVIEWERS {
        let mut script = Vec::new();
        for id in &reviewed {
            let target = DiffTarget::Range {
                from: format!("{id}^"),
                to: id.clone(),
            };
            script.push(Step::Careful {
                needs: careful::diff_needs(&git, &target, json!({})),
                answer: review(flagged(&git, &target, flags)),
            });
            script.push(Step::text(approval()));
        }
        let fake = FakeProvider::start(script);
        let (lines, seconds) = eval(&repo, &fake);
        let summary = lines.last().expect("a summary");
        let figure = |key: &str| summary[key].as_f64().unwrap_or(f64::NAN);
        let count = |key: &str| summary[key].as_u64().unwrap_or(0);
        println!(
            "  {name:<24} {:>8} {:>19} {:>25}",
            format!("{:.0}%", figure("hit_rate") * 100.0),
            format!(
                "{:.1} of {}",
                figure("findings_per_review"),
                count("reviewed")
            ),
            format!(
                "{:.1} of {}",
                figure("findings_per_clean_review"),
                count("clean_reviews")
            ),
        );
        let each = reviewed.len().max(1) as f64;
        println!(
            "  {:<24} {:.2} requests and {:.0} input tokens (request characters / 4) a review, \
             {:.2} s by the median; the run {seconds:.1} s",
            "",
            fake.requests().len() as f64 / each,
            fake.estimated_input_tokens() as f64 / each,
            figure("median_seconds"),
        );
    }
}

/// The history (oldest first): each bug's function then a clean one, and each bug fixed
/// after the next pair (the last at the top).
fn fixture() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# A fixture\n");
    repo.commit_all("Start the crate");
    let mut due: Vec<&Bug> = Vec::new();
    for (bug, (file, code)) in BUGS.iter().zip(CLEAN) {
        repo.write(bug.file, bug.code);
        repo.commit_all(&format!("Add {}", name(bug.file)));
        repo.write(file, code);
        repo.commit_all(&format!("Add {}", name(file)));
        if due.len() == 1 {
            fix(&repo, due.remove(0));
        }
        due.push(bug);
    }
    for bug in due {
        fix(&repo, bug);
    }
    repo
}

fn name(file: &str) -> &str {
    file.trim_start_matches("src/").trim_end_matches(".rs")
}

fn fix(repo: &TestRepo, bug: &Bug) {
    let path = repo.path().join(bug.file);
    let code = std::fs::read_to_string(&path).expect("the bug's file");
    assert!(code.contains(bug.wrong), "{}", bug.file);
    repo.write(bug.file, code.replacen(bug.wrong, bug.right, 1));
    repo.commit_all(bug.fix);
}

/// The findings on the added lines of `target` that `flags`, each at its line, quoting it.
fn flagged(git: &GitRepo, target: &DiffTarget, flags: fn(&str) -> bool) -> Vec<Value> {
    let mut findings = Vec::new();
    for file in git.diff_files(target, &[]).expect("diff") {
        for hunk in &file.hunks {
            let mut line = hunk.new_start;
            for diff_line in &hunk.lines {
                if diff_line.kind == LineKind::Removed {
                    continue;
                }
                let code = diff_line.content.trim_end();
                if diff_line.kind == LineKind::Added && flags(code) {
                    findings.push(
                        json!({"severity": "medium", "file": file.path, "line": line,
                        "end_line": null, "title": "Check this line twice",
                        "body": "It holds a construct that goes wrong at the edges.",
                        "suggestion": null, "confidence": 80, "quote": code.trim()}),
                    );
                }
                line += 1;
            }
        }
    }
    findings
}

fn review(findings: Vec<Value>) -> String {
    json!({"summary": "A change.", "findings": findings, "strengths": []}).to_string()
}

/// Runs `iris eval --reviews --json` in `repo` against `fake`: its JSON lines and seconds.
fn eval(repo: &TestRepo, fake: &FakeProvider) -> (Vec<Value>, f64) {
    let started = std::time::Instant::now();
    let bin = std::env::var_os("IRIS_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::IRIS.into());
    let env = openai_env(fake);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = repo.iris_bin_env(&bin, &["eval", "--reviews", "--json"], &env);
    assert!(
        out.status.success(),
        "iris eval --reviews: {}",
        stderr(&out)
    );
    let lines = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    (lines, started.elapsed().as_secs_f64())
}
