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
        "iris-process",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "ratatui",
            "crossterm",
            "iris-core",
            "iris-git",
            "iris-config",
            "iris-workspace",
            "iris-agent",
            "iris-studio",
        ],
    ),
    (
        "iris-workspace",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "ratatui",
            "crossterm",
            "iris-config",
            "iris-agent",
            "iris-studio",
        ],
    ),
    (
        "iris-core",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "ratatui",
            "crossterm",
            "iris-git",
            "iris-config",
            "iris-workspace",
            "iris-agent",
            "iris-studio",
        ],
    ),
    (
        "iris-git",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "ratatui",
            "crossterm",
            "iris-config",
            "iris-workspace",
            "iris-agent",
            "iris-studio",
        ],
    ),
    (
        "iris-config",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "ratatui",
            "crossterm",
            "iris-git",
            "iris-workspace",
            "iris-agent",
            "iris-studio",
        ],
    ),
    (
        "iris-agent",
        &["ratatui", "crossterm", "syntect", "iris-studio"],
    ),
    (
        "iris-studio",
        &[
            "tokio",
            "rig-core",
            "reqwest",
            "git2",
            "iris-git",
            "iris-workspace",
            "iris-agent",
        ],
    ),
];

/// Every package each package reaches through normal dependencies, by name.
fn reach() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
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
    let app = &reach["iris"];
    for name in [
        "tokio",
        "rig-core",
        "git2",
        "ratatui",
        "iris-agent",
        "iris-studio",
    ] {
        assert!(app.contains(name), "iris should reach {name}");
    }
}

/// Inside iris-agent, the runtime (how a request reaches a provider and comes back) knows no
/// capability, tool or `IrisAgent`: every `crate::` path in it stays in `crate::runtime`. The
/// crates' own boundaries are the compiler's; this one is a module's, so it is read here.
#[test]
fn the_agents_runtime_reaches_nothing_above_it() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/iris-agent/src/runtime");
    let mut outside = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the runtime's folder") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let mut rest = code;
            while let Some(at) = rest.find("crate::") {
                let after = &rest[at + "crate::".len()..];
                if !after.starts_with("runtime") {
                    let name = path.file_name().and_then(|f| f.to_str()).unwrap_or("?");
                    outside.push(format!("{name}:{}: {}", n + 1, line.trim()));
                }
                rest = after;
            }
        }
    }
    assert!(outside.is_empty(), "the runtime reaches up: {outside:#?}");
}
