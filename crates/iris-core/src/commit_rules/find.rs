//! Which file holds the rules (the reading is the caller's), and how each file name is read.

use super::tree::{self, Node};
use super::{CommitRules, RulesError, commitizen, config, js};

/// The files looked for at the repository root, in order: commitlint's own lookup order
/// (cosmiconfig's search places as commitlint sets them), then commitizen's.
pub const CONFIG_FILES: [&str; 25] = [
    "package.json",
    "package.yaml",
    ".commitlintrc",
    ".commitlintrc.json",
    ".commitlintrc.yaml",
    ".commitlintrc.yml",
    ".commitlintrc.js",
    ".commitlintrc.cjs",
    ".commitlintrc.mjs",
    "commitlint.config.js",
    "commitlint.config.cjs",
    "commitlint.config.mjs",
    ".commitlintrc.ts",
    ".commitlintrc.cts",
    ".commitlintrc.mts",
    "commitlint.config.ts",
    "commitlint.config.cts",
    "commitlint.config.mts",
    ".cz.toml",
    "cz.toml",
    ".cz.json",
    "cz.json",
    ".cz.yaml",
    "cz.yaml",
    "pyproject.toml",
];

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `package.json`: its `commitlint` key.
    PackageJson,
    /// `package.yaml`: its `commitlint` key.
    PackageYaml,
    /// `.commitlintrc`: JSON or YAML.
    JsonOrYaml,
    Json,
    Yaml,
    Script,
    /// `.cz.toml`, `cz.toml`, `pyproject.toml`: the `[tool.commitizen]` table.
    CommitizenToml,
    /// `.cz.json`, `cz.json`: the `commitizen` key.
    CommitizenJson,
    /// `.cz.yaml`, `cz.yaml`: the `commitizen` key.
    CommitizenYaml,
}

/// The format of a configuration file by its name, or `None` for a name no tool reads.
pub fn format_of(name: &str) -> Option<Format> {
    Some(match name {
        "package.json" => Format::PackageJson,
        "package.yaml" => Format::PackageYaml,
        ".commitlintrc" => Format::JsonOrYaml,
        ".commitlintrc.json" => Format::Json,
        ".commitlintrc.yaml" | ".commitlintrc.yml" => Format::Yaml,
        ".cz.toml" | "cz.toml" | "pyproject.toml" => Format::CommitizenToml,
        ".cz.json" | "cz.json" => Format::CommitizenJson,
        ".cz.yaml" | "cz.yaml" => Format::CommitizenYaml,
        _ if is_script(name) => Format::Script,
        _ => return None,
    })
}

fn is_script(name: &str) -> bool {
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    matches!(stem, ".commitlintrc" | "commitlint.config")
        && matches!(ext, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts")
}

/// The rules of the first configuration that `read` finds, in [`CONFIG_FILES`] order; `None`
/// when there is none. `read` gives a file's text by its name, `None` when there is no such
/// file (`iris_studio_config::project::commit_rules` reads the repository root). A `package.json`
/// without a `commitlint` key and a `pyproject.toml` without `[tool.commitizen]` do not count
/// (as the tools themselves skip them).
pub fn find(
    mut read: impl FnMut(&str) -> Result<Option<String>, RulesError>,
) -> Result<Option<CommitRules>, RulesError> {
    for name in CONFIG_FILES {
        let Some(text) = read(name)? else {
            continue;
        };
        let format = format_of(name).ok_or_else(|| RulesError::new(name, "unknown format"))?;
        if !holds_rules(format, &text) {
            continue;
        }
        return super::parse(name, &text).map(Some);
    }
    Ok(None)
}

/// Whether a file that may hold other things holds commit rules. A broken `package.json`
/// counts only when it mentions commitlint (it is not this module's to judge otherwise).
fn holds_rules(format: Format, text: &str) -> bool {
    match format {
        Format::PackageJson => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(value) => value.get("commitlint").is_some(),
            Err(_) => text.contains("\"commitlint\""),
        },
        Format::PackageYaml => match tree::from_yaml_text(text) {
            Ok(node) => node.get("commitlint").is_some(),
            Err(_) => text.contains("commitlint:"),
        },
        Format::CommitizenToml => match text.parse::<toml::Table>() {
            Ok(table) => table
                .get("tool")
                .and_then(|t| t.get("commitizen"))
                .is_some(),
            Err(_) => text.contains("[tool.commitizen"),
        },
        _ => true,
    }
}

/// Reads `text` as `format`; `file` names it in errors and in the rules' `source`.
pub fn parse_as(format: Format, file: &str, text: &str) -> Result<CommitRules, RulesError> {
    let fail = |reason: String| RulesError::new(file, reason);
    let json = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .map(|v| tree::from_json(&v))
            .map_err(|e| format!("not valid JSON: {e}"))
    };
    let yaml = |text: &str| tree::from_yaml_text(text).map_err(|e| format!("not valid YAML: {e}"));
    let key = |node: Node, key: &str| -> Result<Node, String> {
        node.get(key)
            .cloned()
            .ok_or_else(|| format!("it has no \"{key}\" key"))
    };
    match format {
        Format::PackageJson => {
            let node = json(text)
                .and_then(|n| key(n, "commitlint"))
                .map_err(fail)?;
            config::commitlint(file, &node)
        }
        Format::PackageYaml => {
            let node = yaml(text)
                .and_then(|n| key(n, "commitlint"))
                .map_err(fail)?;
            config::commitlint(file, &node)
        }
        Format::Json => config::commitlint(file, &json(text).map_err(fail)?),
        Format::Yaml => config::commitlint(file, &yaml(text).map_err(fail)?),
        Format::JsonOrYaml => {
            // cosmiconfig reads an extensionless rc file as YAML, which JSON is a subset of;
            // JSON first gives the better message for a file that looks like JSON.
            let node = match json(text) {
                Ok(node) => node,
                Err(json_err) => yaml(text).map_err(|yaml_err| {
                    fail(if text.trim_start().starts_with('{') {
                        json_err
                    } else {
                        yaml_err
                    })
                })?,
            };
            config::commitlint(file, &node)
        }
        Format::Script => {
            let (node, notes) = js::read(text).map_err(fail)?;
            let mut rules = config::commitlint(file, &node)?;
            rules.notes.splice(0..0, notes);
            Ok(rules)
        }
        Format::CommitizenToml => {
            let table = text
                .parse::<toml::Table>()
                .map_err(|e| fail(format!("not valid TOML: {}", e.message())))?;
            let settings = table
                .get("tool")
                .and_then(|t| t.get("commitizen"))
                .ok_or_else(|| fail("it has no [tool.commitizen] table".into()))?;
            commitizen::rules(file, &tree::from_toml(settings))
        }
        Format::CommitizenJson => {
            let node = json(text)
                .and_then(|n| key(n, "commitizen"))
                .map_err(fail)?;
            commitizen::rules(file, &node)
        }
        Format::CommitizenYaml => {
            let node = yaml(text)
                .and_then(|n| key(n, "commitizen"))
                .map_err(fail)?;
            commitizen::rules(file, &node)
        }
    }
}
