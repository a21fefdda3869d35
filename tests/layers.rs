//! The layers hold: `cargo metadata` shows that no crate of the workspace depends, directly
//! or through another crate, on what its layer may not use. A wrong-way import between the
//! workspace's crates does not compile; this catches the other half, a heavy dependency
//! (tokio, rig, git2, a terminal crate) added where it does not belong.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

/// Each crate, and what it may not reach through its normal (non-dev, non-build) dependencies.
const RULES: &[(&str, &[&str])] = &[
    (
        "iris-studio-process",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "ratatui",
            "crossterm",
            "iris-studio-core",
            "iris-studio-git",
            "iris-studio-config",
            "iris-studio-workspace",
            "iris-studio-agent",
            "iris-studio-tui",
        ],
    ),
    (
        "iris-studio-workspace",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "ratatui",
            "crossterm",
            "iris-studio-config",
            "iris-studio-agent",
            "iris-studio-tui",
        ],
    ),
    (
        "iris-studio-core",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "ratatui",
            "crossterm",
            "iris-studio-git",
            "iris-studio-config",
            "iris-studio-workspace",
            "iris-studio-agent",
            "iris-studio-tui",
        ],
    ),
    (
        "iris-studio-git",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "ratatui",
            "crossterm",
            "iris-studio-config",
            "iris-studio-workspace",
            "iris-studio-agent",
            "iris-studio-tui",
        ],
    ),
    (
        "iris-studio-config",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "ratatui",
            "crossterm",
            "iris-studio-git",
            "iris-studio-workspace",
            "iris-studio-agent",
            "iris-studio-tui",
        ],
    ),
    (
        "iris-studio-agent",
        &["ratatui", "crossterm", "syntect", "iris-studio-tui"],
    ),
    (
        "iris-studio-tui",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "iris-studio-git",
            "iris-studio-workspace",
            "iris-studio-agent",
        ],
    ),
];

/// The platform this test runs on, as rustc names it (`x86_64-unknown-linux-gnu`).
fn host() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("run rustc -vV");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc names its host")
        .to_string()
}

/// Every package each package reaches through normal dependencies on this platform, by
/// name. Offline: the lock file and what cargo has already fetched are enough (another
/// platform's crates, which it never fetched, are filtered out).
fn reach() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let name_of: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let mut direct: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().expect("resolve") {
        let normal = node["deps"].as_array().unwrap().iter().filter(|dep| {
            dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|kind| kind["kind"].is_null())
        });
        direct.insert(
            node["id"].as_str().unwrap(),
            normal.map(|dep| dep["pkg"].as_str().unwrap()).collect(),
        );
    }
    let mut reach = BTreeMap::new();
    for (&id, &name) in &name_of {
        let mut seen = BTreeSet::new();
        let mut todo = vec![id];
        while let Some(next) = todo.pop() {
            for &dep in direct.get(next).map(Vec::as_slice).unwrap_or_default() {
                if seen.insert(dep) {
                    todo.push(dep);
                }
            }
        }
        let names = seen.iter().map(|id| name_of[id].to_string()).collect();
        reach.insert(name.to_string(), names);
    }
    reach
}

#[test]
fn no_crate_reaches_what_its_layer_may_not_use() {
    let reach = reach();
    let mut broken = Vec::new();
    for (krate, forbidden) in RULES {
        let reached = reach
            .get(*krate)
            .unwrap_or_else(|| panic!("{krate} is not in the workspace"));
        for name in forbidden.iter().filter(|name| reached.contains(**name)) {
            broken.push(format!("{krate} depends on {name}"));
        }
    }
    assert!(broken.is_empty(), "layers broken: {broken:#?}");
    // The rules can fail: the binary reaches everything they forbid.
    let app = &reach["iris-studio"];
    for name in [
        "tokio",
        "rig-core",
        "git2",
        "ratatui",
        "iris-studio-agent",
        "iris-studio-tui",
    ] {
        assert!(app.contains(name), "iris should reach {name}");
    }
}

/// Every `crate::` path in the Rust files under `dir` (relative to the root package), with
/// where it is: `(file:line, what follows "crate::")`. Comments are left out.
fn crate_paths(dir: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (shown, code) in sources(dir) {
        let mut from = 0;
        while let Some(at) = code[from..].find("crate::") {
            let start = from + at + "crate::".len();
            let line = code[..start].matches('\n').count() + 1;
            for named in named_paths(&code[start..]) {
                found.push((format!("{shown}:{line}"), named));
            }
            from = start;
        }
    }
    found
}

/// The Rust files under `dir` (relative to the root package): each one's path and its code
/// without its line comments (lines kept, so a brace group may span lines).
fn sources(dir: &str) -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut todo = vec![root.join(dir)];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                todo.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let shown = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let code: String = text
                .lines()
                .map(|line| line.split("//").next().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n");
            found.push((shown, code));
        }
    }
    found
}

/// The paths a `crate::` is followed by: the rest of its line, or each item of a brace group
/// (`crate::{cli::x, shared}` names `cli::x` and `shared`), whatever lines it spans.
fn named_paths(rest: &str) -> Vec<String> {
    let Some(group) = rest.strip_prefix('{') else {
        return vec![rest.lines().next().unwrap_or_default().to_string()];
    };
    let (mut depth, mut item, mut items) = (0usize, String::new(), Vec::new());
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    items
        .into_iter()
        .map(|i| i.split_whitespace().collect::<String>())
        .filter(|i| !i.is_empty())
        .collect()
}

#[test]
fn a_brace_group_names_each_of_its_paths() {
    assert_eq!(
        named_paths("{\n    cli::x,\n    shared::{a, b},\n};\nfn f() {}"),
        ["cli::x", "shared::{a,b}"]
    );
    assert_eq!(named_paths("shared::said;\nmore"), ["shared::said;"]);
}

/// Inside iris-agent, the runtime (how a request reaches a provider and comes back) knows no
/// capability, tool or `IrisAgent`: every `crate::` path in it stays in `crate::runtime`. The
/// crates' own boundaries are the compiler's; these are modules', so they are read here.
#[test]
fn the_agents_runtime_reaches_nothing_above_it() {
    let outside: Vec<String> = crate_paths("crates/iris-agent/src/runtime")
        .into_iter()
        .filter(|(_, path)| !path.starts_with("runtime"))
        .map(|(at, path)| format!("{at}: crate::{path}"))
        .collect();
    assert!(outside.is_empty(), "the runtime reaches up: {outside:#?}");
}

/// The binary's faces stand side by side over the application layer: `iris mcp`, `iris eval`
/// and the studio's shell import neither the command line (which starts them) nor each
/// other, and the application layer (`src/app`) imports no face.
#[test]
fn no_face_imports_another() {
    const FACES: [&str; 4] = ["cli", "mcp", "eval", "studio"];
    let mut wrong = Vec::new();
    for dir in ["mcp", "eval", "studio", "app"] {
        wrong.extend(
            crate_paths(&format!("src/{dir}"))
                .into_iter()
                .filter(|(_, path)| {
                    let first = path.split([':', ';', ' ', ')']).next().unwrap_or_default();
                    first != dir && FACES.contains(&first)
                })
                .map(|(at, path)| format!("{at}: crate::{path}")),
        );
    }
    assert!(wrong.is_empty(), "a face imports another: {wrong:#?}");
}

/// Iris as configured is built in one place of the binary (`src/app/iris.rs`), so every
/// face gets the same Iris.
#[test]
fn iris_is_configured_in_one_place() {
    let built: Vec<String> = sources("src")
        .into_iter()
        .filter(|(_, code)| code.contains("IrisAgent::from_config"))
        .map(|(file, _)| file)
        .collect();
    assert_eq!(built, ["src/app/iris.rs"]);
}

/// One handle answers "which version control": only `src/app/vcs` speaks to jj, so no face
/// branches on git or jj (and a third system is one more implementation there).
#[test]
fn only_the_version_control_handle_speaks_to_jj() {
    let wrong: Vec<String> = sources("src")
        .into_iter()
        .filter(|(file, _)| !file.starts_with("src/app/vcs"))
        .filter(|(_, code)| {
            ["iris_studio_git::jj", "jj_workspace(", "Jj::"]
                .iter()
                .any(|jj| code.contains(jj))
        })
        .map(|(file, _)| file)
        .collect();
    assert!(wrong.is_empty(), "jj outside the handle: {wrong:#?}");
}

/// The command line's modules import each other one way at most: what two commands share
/// lives in a module of its own (or below the faces), not in one of them.
#[test]
fn no_two_command_line_modules_import_each_other() {
    let mut imports = BTreeSet::new();
    for (file, code) in sources("src/cli") {
        let module = file.trim_start_matches("src/cli/").trim_end_matches(".rs");
        for (at, _) in code.match_indices("super::") {
            let named: String = code[at + "super::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            imports.insert((module.to_string(), named));
        }
    }
    let both: Vec<String> = imports
        .iter()
        .filter(|(a, b)| a < b && imports.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{a} <-> {b}"))
        .collect();
    assert!(both.is_empty(), "modules importing each other: {both:#?}");
}
