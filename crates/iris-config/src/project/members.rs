//! The members of the repository's workspace, from its manifests: a Cargo workspace's
//! `members`, npm/yarn `workspaces` or pnpm's `pnpm-workspace.yaml`, Go's `go.work`, else a
//! `packages/*` or `apps/*` layout. Only the manifests at the root and each member's own are
//! read, within bounds; a manifest that does not parse names no member.

use std::path::Path;

use iris_studio_core::scope::Member;

/// Members at most; a larger workspace is cut (its first ones, in folder order).
const MAX_MEMBERS: usize = 500;

/// The workspace's members, in folder order, each once.
pub fn workspace_members(root: &Path) -> Vec<Member> {
    let mut patterns = cargo_members(root);
    patterns.extend(npm_workspaces(root));
    patterns.extend(pnpm_packages(root));
    patterns.extend(go_work(root));
    if patterns.is_empty() {
        patterns = vec!["packages/*".to_string(), "apps/*".to_string()];
    }
    let mut dirs: Vec<String> = patterns.iter().flat_map(|p| expand(root, p)).collect();
    dirs.sort();
    dirs.dedup();
    dirs.truncate(MAX_MEMBERS);
    dirs.into_iter()
        .map(|dir| Member {
            name: member_name(&root.join(&dir)).unwrap_or_else(|| folder_name(&dir)),
            dir,
        })
        .collect()
}

fn read(path: &Path) -> Option<String> {
    super::read_bounded(path, &path.display().to_string()).ok()?
}

fn cargo_members(root: &Path) -> Vec<String> {
    let Some(manifest) = read(&root.join("Cargo.toml")).and_then(|t| t.parse::<toml::Table>().ok())
    else {
        return Vec::new();
    };
    strings(manifest.get("workspace").and_then(|w| w.get("members")))
}

fn strings(value: Option<&toml::Value>) -> Vec<String> {
    value
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

fn npm_workspaces(root: &Path) -> Vec<String> {
    let Some(package) = read(&root.join("package.json"))
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    else {
        return Vec::new();
    };
    let workspaces = package.get("workspaces");
    let list = workspaces
        .and_then(|w| w.get("packages"))
        .or(workspaces)
        .and_then(serde_json::Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// `packages:` in `pnpm-workspace.yaml`: its list items, quotes left out.
fn pnpm_packages(root: &Path) -> Vec<String> {
    let Some(text) = read(&root.join("pnpm-workspace.yaml")) else {
        return Vec::new();
    };
    let mut inside = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if !line.starts_with([' ', '\t', '-']) {
            inside = line.trim_end() == "packages:";
            continue;
        }
        if inside && let Some(item) = line.trim().strip_prefix('-') {
            found.push(item.trim().trim_matches(['\'', '"']).to_string());
        }
    }
    found
}

/// `use` directives of `go.work`, one-line or in a block.
fn go_work(root: &Path) -> Vec<String> {
    let Some(text) = read(&root.join("go.work")) else {
        return Vec::new();
    };
    let mut in_block = false;
    let mut found = Vec::new();
    for line in text.lines().map(str::trim) {
        if in_block {
            if line == ")" {
                in_block = false;
            } else if !line.is_empty() && !line.starts_with("//") {
                found.push(line.to_string());
            }
        } else if line == "use (" {
            in_block = true;
        } else if let Some(dir) = line.strip_prefix("use ") {
            found.push(dir.trim().to_string());
        }
    }
    found
}

/// A member pattern's folders: the folder itself, or with a last `*` each folder there.
/// Negated patterns (`!packages/old`) and other globs are left out.
fn expand(root: &Path, pattern: &str) -> Vec<String> {
    let pattern = pattern
        .trim()
        .trim_start_matches("./")
        .trim_end_matches('/');
    if pattern.starts_with('!') || pattern.is_empty() || pattern.contains("..") {
        return Vec::new();
    }
    match pattern
        .strip_suffix("/*")
        .or_else(|| pattern.strip_suffix("/**"))
    {
        Some(parent) if !parent.contains('*') => {
            let Ok(entries) = std::fs::read_dir(root.join(parent)) else {
                return Vec::new();
            };
            entries
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|name| !name.starts_with('.'))
                .map(|name| format!("{parent}/{name}"))
                .collect()
        }
        None if !pattern.contains('*') && root.join(pattern).is_dir() && pattern != "." => {
            vec![pattern.to_string()]
        }
        _ => Vec::new(),
    }
}

/// The member's name as its own manifest gives it.
fn member_name(dir: &Path) -> Option<String> {
    if let Some(cargo) = read(&dir.join("Cargo.toml")).and_then(|t| t.parse::<toml::Table>().ok()) {
        let name = cargo.get("package")?.get("name")?.as_str()?;
        return Some(name.to_string());
    }
    if let Some(package) = read(&dir.join("package.json"))
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    {
        let name = package.get("name")?.as_str()?;
        return Some(name.rsplit('/').next().unwrap_or(name).to_string());
    }
    let module = read(&dir.join("go.mod"))?;
    let path = module
        .lines()
        .find_map(|l| l.trim().strip_prefix("module "))?;
    Some(path.trim().rsplit('/').next()?.to_string())
}

fn folder_name(dir: &str) -> String {
    dir.rsplit('/').next().unwrap_or(dir).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, path: &str, text: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn names(root: &Path) -> Vec<(String, String)> {
        workspace_members(root)
            .into_iter()
            .map(|m| (m.name, m.dir))
            .collect()
    }

    #[test]
    fn a_cargo_workspace_names_its_crates() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\", \"xtask\"]\n",
        );
        write(
            root,
            "crates/core/Cargo.toml",
            "[package]\nname = \"acme-core\"\n",
        );
        write(
            root,
            "crates/cli/Cargo.toml",
            "[package]\nname = \"acme\"\n",
        );
        write(root, "xtask/Cargo.toml", "[package]\nname = \"xtask\"\n");
        assert_eq!(
            names(root),
            [
                ("acme".to_string(), "crates/cli".to_string()),
                ("acme-core".to_string(), "crates/core".to_string()),
                ("xtask".to_string(), "xtask".to_string()),
            ]
        );
    }

    #[test]
    fn npm_pnpm_go_and_a_plain_layout_name_theirs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "package.json",
            r#"{"workspaces": {"packages": ["packages/*"]}}"#,
        );
        write(
            root,
            "packages/web/package.json",
            r#"{"name": "@acme/web"}"#,
        );
        assert_eq!(
            names(root),
            [("web".to_string(), "packages/web".to_string())]
        );

        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "pnpm-workspace.yaml",
            "packages:\n  - 'apps/*'\n  - \"!apps/old\"\n",
        );
        write(root, "apps/site/package.json", r#"{"name": "site"}"#);
        write(root, "go.work", "go 1.22\n\nuse (\n\t./svc/api\n)\n");
        write(
            root,
            "svc/api/go.mod",
            "module github.com/acme/api\n\ngo 1.22\n",
        );
        assert_eq!(
            names(root),
            [
                ("site".to_string(), "apps/site".to_string()),
                ("api".to_string(), "svc/api".to_string()),
            ]
        );

        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "apps/admin/index.ts", "");
        assert_eq!(
            names(dir.path()),
            [("admin".to_string(), "apps/admin".to_string())]
        );
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "Cargo.toml", "[workspace\nbroken");
        assert!(names(dir.path()).is_empty());
    }
}
