//! package-lock.json and npm-shrinkwrap.json: lockfileVersion 2 and 3 list every installed
//! package under `packages`, keyed by its path (`node_modules/a`,
//! `node_modules/a/node_modules/@s/b`); version 1 nests them under `dependencies`.

use serde_json::Value;

use super::Installed;
use super::toml_locks::first_line;

/// How deep version 1's nested `dependencies` are followed.
const MAX_DEPTH: usize = 64;

/// The packages of a package-lock.json.
pub(super) fn parse(text: &str) -> Result<Installed, String> {
    let lock: Value = serde_json::from_str(text).map_err(|e| first_line(&e.to_string()))?;
    let mut installed = Installed::default();
    if let Some(packages) = lock.get("packages").and_then(Value::as_object) {
        for (path, package) in packages {
            // The root ("") and a workspace's own folders are the project, not what it installs.
            let Some((_, name)) = path.rsplit_once("node_modules/") else {
                continue;
            };
            if package.get("link").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(version) = package.get("version").and_then(Value::as_str) {
                installed.add(name, version);
            }
        }
    } else if let Some(dependencies) = lock.get("dependencies") {
        nested(dependencies, &mut installed, 0);
    }
    Ok(installed)
}

/// Version 1's `dependencies`: each one's version, and those nested below it.
fn nested(dependencies: &Value, installed: &mut Installed, depth: usize) {
    let Some(dependencies) = dependencies.as_object() else {
        return;
    };
    for (name, dependency) in dependencies {
        if let Some(version) = dependency.get("version").and_then(Value::as_str) {
            installed.add(name, version);
        }
        if depth < MAX_DEPTH
            && let Some(more) = dependency.get("dependencies")
        {
            nested(more, installed, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_3_packages_by_path() {
        let lock = r#"{
  "name": "app",
  "version": "1.0.0",
  "lockfileVersion": 3,
  "packages": {
    "": {"name": "app", "version": "1.0.0"},
    "node_modules/lodash": {"version": "4.17.21"},
    "node_modules/@babel/core": {"version": "7.24.0", "dev": true},
    "node_modules/a/node_modules/lodash": {"version": "3.10.1"},
    "packages/ui": {"name": "ui", "version": "0.1.0"},
    "node_modules/ui": {"resolved": "packages/ui", "link": true}
  }
}"#;
        let installed = parse(lock).expect("parsed");
        assert_eq!(installed.len(), 2, "{installed:?}");
        assert_eq!(installed.versions("lodash").map(|v| v.len()), Some(2));
        assert!(installed.versions("@babel/core").is_some());
        assert!(installed.versions("app").is_none());
        assert!(installed.versions("ui").is_none());
    }

    #[test]
    fn version_1_nested_dependencies() {
        let lock = r#"{
  "lockfileVersion": 1,
  "dependencies": {
    "express": {"version": "4.18.2", "dependencies": {"debug": {"version": "2.6.9"}}},
    "debug": {"version": "4.3.4"}
  }
}"#;
        let installed = parse(lock).expect("parsed");
        assert_eq!(installed.versions("debug").map(|v| v.len()), Some(2));
        assert!(installed.versions("express").is_some());
        assert!(parse("{").is_err());
    }
}
