//! Benchmark: what running a CLI agent as the model costs over a direct provider.
//!
//! The same staged change and the same answer, two ways, interleaved: `iris gen --print
//! --no-stream` against the fake provider on 127.0.0.1 speaking Chat Completions (marked
//! hosted, so both are given the same evidence), and with `--provider claude-code` running a
//! fake `claude` on PATH that prints the answer as Claude Code's JSON result at once. Prints
//! the median wall time of each whole process and the difference: the CLI transport's own
//! overhead (a directory, a process, its output read back), not the real CLI's start-up,
//! which is its own (Node.js). Run: `cargo bench --bench cli_provider`. Asserts nothing about
//! time.

#[path = "../tests/common/mod.rs"]
mod common;
use common::Iris;

use std::time::{Duration, Instant};

use common::agent::{Wire, commit_json};
use common::fake_provider::{FakeProvider, Step};
use common::{TestRepo, fake_bin, path_with};

const RUNS: usize = 25;

fn main() {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.git(&["add", "-A"]);
    let answer = commit_json("Add two()", "Adds a second constant function.");
    let result = serde_json::json!({"type": "result", "subtype": "success", "is_error": false,
        "result": answer, "total_cost_usd": 0.001,
        "usage": {"input_tokens": 1000, "output_tokens": 20}});
    let claude = fake_bin(&[(
        "claude",
        &format!("cat > /dev/null\nprintf '%s\\n' '{result}'"),
    )]);
    let path = path_with(claude.path());
    let path = path.to_str().expect("utf-8 PATH");

    let (mut direct, mut cli) = (Vec::new(), Vec::new());
    for _ in 0..RUNS + 1 {
        let fake = FakeProvider::start(vec![Step::text(answer.clone())]);
        let env = Wire::Chat.env(&fake);
        let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        env.push(("IRIS_LOCAL", "false"));
        direct.push(timed(&repo, &env));
        cli.push(timed(
            &repo,
            &[("IRIS_PROVIDER", "claude-code"), ("PATH", path)],
        ));
    }
    // The first of each warmed the caches up.
    let (direct, cli) = (median(&direct[1..]), median(&cli[1..]));
    println!("iris gen --print --no-stream, the same answer, median of {RUNS} interleaved runs:");
    println!(
        "  direct provider (Chat Completions on 127.0.0.1): {:>7.1} ms",
        ms(direct)
    );
    println!(
        "  claude-code (a fake `claude` on PATH):           {:>7.1} ms",
        ms(cli)
    );
    println!(
        "  the CLI transport adds {:.1} ms ({:.2}x)",
        ms(cli) - ms(direct),
        cli.as_secs_f64() / direct.as_secs_f64()
    );
}

fn timed(repo: &TestRepo, env: &[(&str, &str)]) -> Duration {
    let started = Instant::now();
    let out = repo.iris_env(&["gen", "--print", "--no-stream"], env, "");
    let elapsed = started.elapsed();
    assert!(
        out.status.success(),
        "iris gen failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Add two()\n\nAdds a second constant function."
    );
    elapsed
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
