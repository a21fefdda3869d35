//! How fast `repo_map` and `code_search` are on a generated repository of 20,000 source files,
//! with `grep -rn` for the same literal over the same files as the yardstick, measured in the
//! same run. It prints its figures and asserts nothing about time.
//!
//! It runs the release binary: `cargo build --release && cargo bench --bench workspace_tools`
//! (or point IRIS_BIN at another build). FILES overrides the number of files, RUNS the number
//! of timed runs (the median is reported).
#![allow(clippy::disallowed_methods)] // benchmarks run the real binary and git

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The literal searched for: lower case only, so a case-insensitive search and grep agree.
const NEEDLE: &str = "zq_needle_marker";
/// One file in this many holds the needle.
const NEEDLE_EVERY: usize = 97;

fn main() {
    let files: usize = env_number("FILES", 20_000);
    let runs: usize = env_number("RUNS", 7).max(1);
    let iris = iris_binary();
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");

    let started = Instant::now();
    let bytes = generate(&repo, files);
    commit(dir.path(), &repo);
    println!(
        "generated {files} files ({:.1} MB) and committed them in {:.1} s",
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );

    let repo_map = ["tool", "repo_map", "{}"];
    let search_args = format!(r#"{{"query":"{NEEDLE}","search_type":"text","max_results":100}}"#);
    let code_search = ["tool", "code_search", search_args.as_str()];
    let grep = ["-rn", "--exclude-dir=.git", NEEDLE, "."];

    // Sanity: both find the same lines, and a warm page cache for everyone.
    let found = output(&repo, &iris, &code_search);
    let total_found: usize = serde_json::from_str::<serde_json::Value>(&found)
        .ok()
        .and_then(|v| v["total_found"].as_u64())
        .unwrap_or(0) as usize;
    let grep_lines = output(&repo, Path::new("grep"), &grep).lines().count();
    println!("code_search total_found {total_found}, grep -rn lines {grep_lines}");
    if total_found != grep_lines {
        println!("WARNING: code_search and grep disagree on the number of matches");
    }
    let map = output(&repo, &iris, &repo_map);
    let analyzed = serde_json::from_str::<serde_json::Value>(&map)
        .ok()
        .and_then(|v| v["files_analyzed"].as_u64())
        .unwrap_or(0);
    println!("repo_map files_analyzed {analyzed}");

    // Interleaved, so that machine noise falls on all three alike.
    let (mut map_times, mut search_times, mut grep_times) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        map_times.push(time(&repo, &iris, &repo_map));
        search_times.push(time(&repo, &iris, &code_search));
        grep_times.push(time(&repo, Path::new("grep"), &grep));
    }
    let map = median(&mut map_times);
    let search = median(&mut search_times);
    let grep = median(&mut grep_times);
    println!("\nmedian of {runs} runs ({} cores):", cores());
    println!(
        "  repo_map                 {:>8.1} ms   (target: under 1000 ms)",
        ms(map)
    );
    println!("  code_search text         {:>8.1} ms", ms(search));
    println!("  grep -rn same literal    {:>8.1} ms", ms(grep));
    println!(
        "  code_search / grep       {:>8.2} x    (target: under 2 x)",
        search.as_secs_f64() / grep.as_secs_f64()
    );
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn iris_binary() -> PathBuf {
    let path = std::env::var_os("IRIS_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/iris"));
    if !path.is_file() {
        eprintln!(
            "no iris binary at {}: run `cargo build --release` first, or set IRIS_BIN",
            path.display()
        );
        std::process::exit(2);
    }
    path
}

/// Writes `count` source files in Rust, TypeScript, Python and Go, 100 to a directory;
/// returns the bytes written.
fn generate(repo: &Path, count: usize) -> usize {
    let mut bytes = 0;
    for i in 0..count {
        let dir = repo.join(format!("pkg{:03}/mod{:02}", i / 1000, (i / 100) % 10));
        if i % 100 == 0 {
            std::fs::create_dir_all(&dir).expect("create dirs");
        }
        let (ext, text) = match i % 4 {
            0 => ("rs", rust(i)),
            1 => ("ts", typescript(i)),
            2 => ("py", python(i)),
            _ => ("go", go(i)),
        };
        let text = if i % NEEDLE_EVERY == 0 {
            format!("{text}// {NEEDLE} found in file {i}\n")
        } else {
            text
        };
        bytes += text.len();
        std::fs::write(dir.join(format!("file{i}.{ext}")), text).expect("write file");
    }
    std::fs::write(repo.join(".gitignore"), "target/\nnode_modules/\n").expect("write");
    bytes
}

fn rust(i: usize) -> String {
    let mut s = format!(
        "use std::collections::HashMap;\nuse crate::pkg::Item{i};\n\n/// Holds state {i}.\npub struct State{i} {{\n    items: HashMap<String, usize>,\n}}\n\nimpl State{i} {{\n"
    );
    for f in 0..6 {
        s.push_str(&format!(
            "    pub fn step_{f}(&mut self, key: &str) -> usize {{\n        let count = self.items.entry(key.to_string()).or_insert(0);\n        *count += {f};\n        *count\n    }}\n\n"
        ));
    }
    s.push_str("}\n\nconst LIMIT: usize = 64;\n");
    s
}

fn typescript(i: usize) -> String {
    let mut s = format!(
        "import {{ helper }} from './helper';\nimport type {{ Config }} from '../config';\n\nexport interface Options{i} {{\n  name: string;\n  size: number;\n}}\n\nexport class Service{i} {{\n"
    );
    for f in 0..6 {
        s.push_str(&format!(
            "  async handle{f}(input: string): Promise<number> {{\n    const value = helper(input);\n    return value.length + {f};\n  }}\n\n"
        ));
    }
    s.push_str(&format!(
        "}}\n\nexport const create{i} = (o: Options{i}) => new Service{i}();\n"
    ));
    s
}

fn python(i: usize) -> String {
    let mut s = format!(
        "import os\nfrom pathlib import Path\n\nLIMIT = {i}\n\n\nclass Worker{i}:\n    \"\"\"Does job {i}.\"\"\"\n\n"
    );
    for f in 0..6 {
        s.push_str(&format!(
            "    def run_{f}(self, path):\n        total = 0\n        for line in Path(path).read_text().splitlines():\n            total += len(line) + {f}\n        return total\n\n"
        ));
    }
    s
}

fn go(i: usize) -> String {
    let mut s = format!(
        "package pkg\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\ntype Server{i} struct {{\n\tName string\n}}\n\n"
    );
    for f in 0..6 {
        s.push_str(&format!(
            "func (s *Server{i}) Handle{f}(in string) string {{\n\tout := strings.ToUpper(in)\n\treturn fmt.Sprintf(\"%s-%d\", out, {f})\n}}\n\n"
        ));
    }
    s
}

/// `git init`, add everything, commit, with a configuration of its own.
fn commit(tmp: &Path, repo: &Path) {
    let config = tmp.join("gitconfig");
    std::fs::write(
        &config,
        "[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgSign = false\n",
    )
    .expect("write git config");
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &["commit", "-q", "-m", "Generated"],
    ] {
        let status = Command::new("git")
            .args(args)
            .current_dir(repo)
            .env("GIT_CONFIG_GLOBAL", &config)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .status()
            .expect("run git");
        assert!(status.success(), "git {args:?} failed");
    }
}

fn output(repo: &Path, program: &Path, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Wall time of one run, its output read through a pipe. (Not /dev/null: GNU grep notices it
/// and stops at the first match.)
fn time(repo: &Path, program: &Path, args: &[&str]) -> Duration {
    let started = Instant::now();
    let status = Command::new(program)
        .args(args)
        .current_dir(repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stderr(Stdio::null())
        .output()
        .expect("run")
        .status;
    let elapsed = started.elapsed();
    // grep exits 1 when nothing matched; anything else is a broken run.
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "{program:?} {args:?} failed"
    );
    elapsed
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
