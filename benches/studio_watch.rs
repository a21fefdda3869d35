//! Benchmark: the studio watching a large working tree.
//!
//! A repository of 100,000 tracked files in 2,000 directories, with a `target/` of 1,000
//! directories git ignores. In a 120x40 pseudo-terminal it prints, without the watcher
//! (`IRIS_WATCH=0`) and with it: the studio's idle CPU over 10 s once the list is on screen;
//! with it also how long a file saved outside takes to show, and the CPU while a build writes
//! 100 files a second into the ignored `target/`. Asserts nothing.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/generated.rs"]
mod generated;
#[path = "support/isolated.rs"]
mod isolated;

use std::path::Path;
use std::time::{Duration, Instant};

use common::pty::PtyProgram;
use generated::run;
use isolated::base_command;

const FILES: usize = 100_000;
const DIRS: usize = 2_000;
const IGNORED_DIRS: usize = 1_000;
const WAIT: Duration = Duration::from_secs(120);
const IDLE: Duration = Duration::from_secs(10);

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).expect("repo dir");
    let started = Instant::now();
    generate(&repo);
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("home");
    println!(
        "{FILES} tracked files in {DIRS} directories, {IGNORED_DIRS} ignored directories (made in {:.0} s):",
        started.elapsed().as_secs_f64()
    );

    let program = studio(&repo, &home, false);
    let before = cpu_share(&program, IDLE);
    drop(program);
    let program = studio(&repo, &home, true);
    let after = cpu_share(&program, IDLE);
    println!(
        "  idle CPU over {} s: {before:.2}% of one core without watching, {after:.2}% watching",
        IDLE.as_secs()
    );

    // A file saved outside, until it is listed.
    let saved = Instant::now();
    std::fs::write(repo.join("d0007/f7.txt"), "changed outside\n").expect("write");
    program
        .wait_for(WAIT, |s| s.contains("Files (1)"))
        .expect("the change outside never showed");
    println!(
        "  a file saved outside is listed after {:.0} ms",
        saved.elapsed().as_secs_f64() * 1000.0
    );

    // A build writing into target/ (ignored) for 5 s.
    std::thread::sleep(Duration::from_secs(3));
    let (cpu0, wall0) = (program.cpu_time(), Instant::now());
    for i in 0..500 {
        let path = repo.join(format!("target/t{:04}/out{i}.o", i % IGNORED_DIRS));
        std::fs::write(path, "object\n").expect("write");
        std::thread::sleep(Duration::from_millis(10));
    }
    let building = share(program.cpu_time() - cpu0, wall0.elapsed());
    println!("  while a build writes 100 ignored files a second: {building:.2}% of one core");
}

/// The studio in commit mode, once it lists the (clean) working tree.
fn studio(repo: &Path, home: &Path, watch: bool) -> PtyProgram {
    let mut command = base_command(Path::new(env!("CARGO_BIN_EXE_iris")), repo, home);
    command
        .args(["studio", "--mode", "commit"])
        .env("IRIS_WATCH", if watch { "1" } else { "0" });
    let program = PtyProgram::spawn(command, 120, 40);
    program
        .wait_for(WAIT, |s| s.contains("Files (0)"))
        .unwrap_or_else(|| panic!("the studio listed nothing:\n{}", program.text()));
    // The watcher's first walk, and anything else starting, is over.
    std::thread::sleep(Duration::from_secs(3));
    program
}

fn cpu_share(program: &PtyProgram, over: Duration) -> f64 {
    let (cpu0, wall0) = (program.cpu_time(), Instant::now());
    std::thread::sleep(over);
    share(program.cpu_time() - cpu0, wall0.elapsed())
}

fn share(cpu: Duration, wall: Duration) -> f64 {
    100.0 * cpu.as_secs_f64() / wall.as_secs_f64()
}

fn generate(repo: &Path) {
    run(repo, "git", &["init", "-q", "-b", "main"]);
    run(repo, "git", &["config", "gc.auto", "0"]);
    std::fs::write(repo.join(".gitignore"), "target/\n").expect("gitignore");
    for d in 0..DIRS {
        std::fs::create_dir_all(repo.join(format!("d{d:04}"))).expect("mkdir");
    }
    for i in 0..FILES {
        let path = repo.join(format!("d{:04}/f{}.txt", i % DIRS, i / DIRS));
        std::fs::write(path, format!("file {i}\n")).expect("write");
    }
    for d in 0..IGNORED_DIRS {
        std::fs::create_dir_all(repo.join(format!("target/t{d:04}"))).expect("mkdir");
    }
    run(repo, "git", &["add", "-A"]);
    run(repo, "git", &["commit", "-q", "-m", "Generated base"]);
}
