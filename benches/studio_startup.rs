//! Benchmark: the studio's start-up and its CPU use, side by side with gitui.
//!
//! On a generated repository of 20,000 tracked files with 2,000 staged, in a 120x40
//! pseudo-terminal, for several interleaved runs of each program it prints the median time to
//! the first frame and to the list of changed files on screen. Then it measures the studio's
//! CPU use while a reply streams at 200 tokens a second (the fake provider) and while idle.
//! gitui is looked for on PATH and in ~/.cargo/bin (`cargo install gitui --locked`); without it
//! only our figures are printed. Asserts nothing.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/generated.rs"]
mod generated;
#[path = "support/isolated.rs"]
mod isolated;

use std::path::Path;
use std::time::Duration;

use common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use common::pty::PtyProgram;
use generated::{generate, stage_changes};
use isolated::{base_command, find_gitui};

const RUNS: usize = 9;
const STAGED: usize = 2_000;
const WAIT: Duration = Duration::from_secs(60);

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).expect("repo dir");
    generate(&repo);
    stage_changes(&repo, STAGED);
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("home");
    let gitui = find_gitui();
    let (mut ours_first, mut ours_list, mut ours_ranked) = (vec![], vec![], vec![]);
    let (mut theirs_first, mut theirs_list) = (vec![], vec![]);
    for _ in 0..RUNS {
        let (first, list, ranked) = iris_startup(&repo, &home);
        ours_first.push(first);
        ours_list.push(list);
        ours_ranked.push(ranked);
        if let Some(gitui) = &gitui {
            let (first, list) = gitui_startup(gitui, &repo, &home);
            theirs_first.push(first);
            theirs_list.push(list);
        }
    }
    println!("20,000 tracked files, {STAGED} staged, 120x40, median of {RUNS} interleaved runs:");
    println!(
        "  iris studio: first frame {:>7.1} ms, list ranked by path and kind {:>7.1} ms, fully ranked (lines, definitions) {:>7.1} ms",
        ms(&mut ours_first),
        ms(&mut ours_list),
        ms(&mut ours_ranked)
    );
    match gitui {
        Some(_) => {
            let (f, l) = (ms(&mut theirs_first), ms(&mut theirs_list));
            println!(
                "  gitui:       first frame {f:>7.1} ms, changed files listed        {l:>7.1} ms"
            );
            println!(
                "  ratios (iris / gitui): first frame {:.2}, file list {:.2}, fully ranked list {:.2}",
                ms(&mut ours_first) / f,
                ms(&mut ours_list) / l,
                ms(&mut ours_ranked) / l
            );
        }
        None => println!("  gitui: not installed (cargo install gitui --locked), no comparison"),
    }
    cpu_use(&repo, &home);
}

fn ms(times: &mut [Duration]) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}

/// First frame: the mode tabs are drawn. List: the staged files listed, ranked from their
/// paths and kinds of change; complete: ranked with their changed lines and definitions too.
fn iris_startup(repo: &Path, home: &Path) -> (Duration, Duration, Duration) {
    let mut command = base_command(Path::new(env!("CARGO_BIN_EXE_iris")), repo, home);
    command.args(["studio", "--mode", "commit"]);
    let program = PtyProgram::spawn(command, 120, 40);
    let first = program
        .wait_for(WAIT, |s| s.contains("1 Explore"))
        .expect("iris drew no frame");
    let listed = format!("Files ({STAGED}");
    let list = program
        .wait_for(WAIT, |s| s.contains(&listed))
        .unwrap_or_else(|| panic!("iris listed no files:\n{}", program.text()));
    let complete = program
        .wait_for(WAIT, |s| s.contains(&listed) && !s.contains("ranking,"))
        .unwrap_or_else(|| panic!("iris never finished ranking:\n{}", program.text()));
    (first, list, complete)
}

/// First frame: anything on screen. List: one of the staged files is shown.
fn gitui_startup(gitui: &Path, repo: &Path, home: &Path) -> (Duration, Duration) {
    let program = PtyProgram::spawn(base_command(gitui, repo, home), 120, 40);
    let first = program
        .wait_for(WAIT, |s| !s.trim().is_empty())
        .expect("gitui drew no frame");
    let list = program
        .wait_for(WAIT, |s| {
            [".rs", ".md", ".toml"].iter().any(|ext| s.contains(ext))
        })
        .unwrap_or_else(|| panic!("gitui listed no files:\n{}", program.text()));
    (first, list)
}

/// CPU use while a reply streams at 200 tokens a second, then while idle.
fn cpu_use(repo: &Path, home: &Path) {
    let reply = "word ".repeat(800);
    // A chat-free way to get a long streamed reply: the commit message generation, paced at
    // 5 ms per event (200 a second); the text is plain, so the editor shows it as it streams.
    let fake = FakeProvider::start(vec![Step::paced(5, Step::text(reply))]);
    let mut command = base_command(Path::new(env!("CARGO_BIN_EXE_iris")), repo, home);
    command
        .args(["studio", "--mode", "commit"])
        .env("IRIS_PROVIDER", "openai")
        .env("OPENAI_API_KEY", FAKE_API_KEY)
        .env("OPENAI_BASE_URL", fake.openai_base_url())
        .env("IRIS_LOCAL", "false");
    let program = PtyProgram::spawn(command, 120, 40);
    program
        .wait_for(WAIT, |s| s.contains("word word"))
        .expect("no streamed text");
    let (cpu0, wall0) = (program.cpu_time(), std::time::Instant::now());
    std::thread::sleep(Duration::from_secs(3));
    let streaming = share(program.cpu_time() - cpu0, wall0.elapsed());
    // The reply ends (800 events at 5 ms: about 4 s); then nothing happens.
    program
        .wait_for(WAIT, |s| !s.contains("esc cancels"))
        .expect("the reply never ended");
    std::thread::sleep(Duration::from_millis(500));
    let (cpu0, wall0) = (program.cpu_time(), std::time::Instant::now());
    std::thread::sleep(Duration::from_secs(5));
    let idle = share(program.cpu_time() - cpu0, wall0.elapsed());
    println!(
        "  iris studio CPU: {streaming:.1}% of one core while a reply streams at 200 tokens/s, {idle:.1}% idle"
    );
}

fn share(cpu: Duration, wall: Duration) -> f64 {
    100.0 * cpu.as_secs_f64() / wall.as_secs_f64()
}
