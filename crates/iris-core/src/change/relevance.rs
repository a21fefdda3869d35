//! Score each changed file in [0, 1], with the reasons behind the score.
//!
//! The rules are the product's context strategy and are pinned by the tests below:
//!
//! | rule | points |
//! |---|---|
//! | base | 0.50 |
//! | new file / modified (also renamed, copied, type changed) / deleted | +0.15 / +0.10 / +0.05 |
//! | source code / config / docs (none for lock or generated files) | +0.15 / +0.10 / +0.02 |
//! | under `src/` | +0.10 |
//! | test file | -0.10 |
//! | lock or generated file | -0.20 |
//! | 10..=199 changed lines / 200 or more | +0.10 / +0.05 |
//! | each added function or type | +0.10 |
//!
//! The total is clamped to [0, 1].

use super::diff::ChangeKind;
use super::semantic::SemanticChange;

/// How relevant a file is to describing a change.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Relevance {
    /// In [0, 1].
    pub score: f32,
    /// One short phrase per rule that applied, in rule order.
    pub reasons: Vec<String>,
}

impl Relevance {
    /// The score as a rounded percentage.
    pub fn percent(&self) -> u32 {
        (self.score.clamp(0.0, 1.0) * 100.0).round() as u32
    }

    /// Five stars, `round(score * 5)` of them filled: `★★★☆☆`.
    pub fn stars(&self) -> String {
        let filled = ((self.score.clamp(0.0, 1.0) * 5.0).round() as usize).min(5);
        let mut stars = "★".repeat(filled);
        stars.push_str(&"☆".repeat(5 - filled));
        stars
    }
}

/// What kind of file a path is, for the type bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileCategory {
    /// Source code, by extension.
    Source,
    /// Configuration: known names, config extensions and dotfiles.
    Config,
    /// Documentation: under `docs/`, or a docs extension or name.
    Docs,
    /// Lock files, minified or generated code, vendored or built output.
    LockOrGenerated,
    /// Anything else.
    Other,
}

/// Score one changed file. Points are summed in hundredths so that documented totals such as
/// 0.40 come out exactly.
pub fn score_file(
    path: &str,
    kind: ChangeKind,
    changed_lines: usize,
    semantic: &[SemanticChange],
) -> Relevance {
    let mut points: i32 = 50;
    let mut reasons = Vec::new();
    let mut apply = |delta: i32, reason: String| {
        points += delta;
        reasons.push(reason);
    };

    let (delta, reason) = match kind {
        ChangeKind::Added => (15, "new file"),
        ChangeKind::Modified => (10, "modified"),
        ChangeKind::Deleted => (5, "deleted"),
        ChangeKind::Renamed => (10, "renamed"),
        ChangeKind::Copied => (10, "copied"),
        ChangeKind::TypeChanged => (10, "type changed"),
    };
    apply(delta, reason.to_owned());

    match file_category(path) {
        FileCategory::Source => apply(15, "source code".to_owned()),
        FileCategory::Config => apply(10, "config".to_owned()),
        FileCategory::Docs => apply(2, "docs".to_owned()),
        FileCategory::LockOrGenerated | FileCategory::Other => {}
    }
    if in_dir(path, "src") {
        apply(10, "under src/".to_owned());
    }
    if is_test_path(path) {
        apply(-10, "test file".to_owned());
    }
    if is_lock_or_generated(path) {
        apply(-20, "lock/generated file".to_owned());
    }
    match changed_lines {
        10..=199 => apply(10, format!("{changed_lines} lines changed")),
        200.. => apply(5, format!("{changed_lines} lines changed")),
        _ => {}
    }
    // Each new function or type counts; the reason names them once, grouped.
    let functions: Vec<&str> = semantic
        .iter()
        .filter_map(|c| match c {
            SemanticChange::AddsFunction(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let types: Vec<&str> = semantic
        .iter()
        .filter_map(|c| match c {
            SemanticChange::AddsType(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    for (names, one, many) in [
        (&functions, "function", "functions"),
        (&types, "type", "types"),
    ] {
        if !names.is_empty() {
            apply(10 * names.len() as i32, adds_reason(names, one, many));
        }
    }

    Relevance {
        score: points.clamp(0, 100) as f32 / 100.0,
        reasons,
    }
}

/// "adds function parse" or "adds 5 functions: a, b, c, ..." (at most three names).
fn adds_reason(names: &[&str], one: &str, many: &str) -> String {
    match names {
        [name] => format!("adds {one} {name}"),
        _ => {
            let shown: Vec<&str> = names.iter().take(3).copied().collect();
            let more = if names.len() > 3 { ", ..." } else { "" };
            format!("adds {} {many}: {}{more}", names.len(), shown.join(", "))
        }
    }
}

const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "py", "pyi", "go", "java", "kt",
    "kts", "swift", "rb", "c", "h", "cpp", "hpp", "cc", "hh", "cxx", "hxx", "m", "mm", "cs", "fs",
    "php", "scala", "lua", "sh", "bash", "zsh", "fish", "ps1", "pl", "pm", "ex", "exs", "erl",
    "hrl", "hs", "ml", "mli", "clj", "cljs", "dart", "r", "jl", "zig", "nim", "vue", "svelte",
    "sql", "groovy", "elm", "sol", "proto", "graphql",
];

const CONFIG_EXTENSIONS: &[&str] = &[
    "toml",
    "yaml",
    "yml",
    "json",
    "json5",
    "jsonc",
    "ini",
    "cfg",
    "conf",
    "properties",
    "env",
    "xml",
    "plist",
    "gradle",
    "tf",
    "nix",
];

const CONFIG_NAMES: &[&str] = &[
    "dockerfile",
    "containerfile",
    "makefile",
    "gnumakefile",
    "cmakelists.txt",
    "justfile",
    "procfile",
    "vagrantfile",
    "gemfile",
    "rakefile",
    "brewfile",
    "jenkinsfile",
];

const DOCS_EXTENSIONS: &[&str] = &[
    "md", "markdown", "mdx", "rst", "txt", "adoc", "asciidoc", "org",
];

const DOCS_NAMES: &[&str] = &[
    "readme",
    "license",
    "licence",
    "copying",
    "changelog",
    "changes",
    "authors",
    "contributing",
    "notice",
];

const LOCK_NAMES: &[&str] = &[
    "cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "poetry.lock",
    "pipfile.lock",
    "uv.lock",
    "pdm.lock",
    "gemfile.lock",
    "go.sum",
    "composer.lock",
    "flake.lock",
    "mix.lock",
    "pubspec.lock",
    "podfile.lock",
    "packages.lock.json",
    "gradle.lockfile",
];

/// Name endings of generated files.
const GENERATED_SUFFIXES: &[&str] = &[
    ".lock",
    ".min.js",
    ".min.css",
    ".map",
    ".pb.go",
    ".pb.h",
    ".pb.cc",
    "_pb2.py",
    "_pb2_grpc.py",
    ".g.dart",
    ".freezed.dart",
    ".designer.cs",
];

/// Directories whose content is generated or third-party.
const GENERATED_DIRS: &[&str] = &["dist", "vendor", "node_modules", "__generated__"];

/// Categorise a path; lock and generated files win over their extension.
pub fn file_category(path: &str) -> FileCategory {
    if is_lock_or_generated(path) {
        return FileCategory::LockOrGenerated;
    }
    if in_dir(path, "docs") || in_dir(path, "doc") {
        return FileCategory::Docs;
    }
    let name = file_name(path).to_ascii_lowercase();
    if CONFIG_NAMES.contains(&name.as_str()) || name.starts_with("dockerfile.") {
        return FileCategory::Config;
    }
    match extension(&name) {
        Some(ext) if SOURCE_EXTENSIONS.contains(&ext) => FileCategory::Source,
        Some(ext) if CONFIG_EXTENSIONS.contains(&ext) => FileCategory::Config,
        Some(ext) if DOCS_EXTENSIONS.contains(&ext) => FileCategory::Docs,
        // Dotfiles (`.gitignore`, `.env`, `.env.local`, `.editorconfig`) configure tools.
        _ if name.starts_with('.') => FileCategory::Config,
        None if DOCS_NAMES.contains(&name.as_str()) => FileCategory::Docs,
        _ => FileCategory::Other,
    }
}

/// Lock files, minified or generated code, and vendored or built output.
pub fn is_lock_or_generated(path: &str) -> bool {
    let name = file_name(path).to_ascii_lowercase();
    LOCK_NAMES.contains(&name.as_str())
        || GENERATED_SUFFIXES.iter().any(|s| name.ends_with(s))
        || name.contains(".generated.")
        || name.contains("_generated.")
        || GENERATED_DIRS.iter().any(|d| in_dir(path, d))
}

/// Test directories and the usual test file names of each ecosystem.
pub fn is_test_path(path: &str) -> bool {
    const TEST_DIRS: &[&str] = &["tests", "test", "__tests__", "spec", "specs", "testdata"];
    if TEST_DIRS.iter().any(|d| in_dir(path, d)) {
        return true;
    }
    let name = file_name(path);
    let lower = name.to_ascii_lowercase();
    let Some((stem, ext)) = lower.rsplit_once('.') else {
        return false;
    };
    let stem_ends = |marker: &str| stem.ends_with(marker);
    match ext {
        "go" => stem_ends("_test"),
        "py" => stem.starts_with("test_") || stem_ends("_test") || stem == "conftest",
        "rb" => stem_ends("_spec") || stem_ends("_test"),
        "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" | "mts" | "cts" => {
            stem_ends(".test") || stem_ends(".spec")
        }
        // JUnit style keeps its case: `FooTest.java`, `FooTests.kt`.
        "java" | "kt" | "scala" | "cs" | "swift" => {
            let stem = &name[..stem.len()];
            stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("Spec")
        }
        "php" => name[..stem.len()].ends_with("Test"),
        _ => false,
    }
}

/// True when `path` has a directory component named `dir`.
fn in_dir(path: &str, dir: &str) -> bool {
    let parent = match path.rsplit_once('/') {
        Some((parent, _)) => parent,
        None => return false,
    };
    parent.split('/').any(|segment| segment == dir)
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The extension of a file name; a leading dot (`.gitignore`) is not one.
fn extension(name: &str) -> Option<&str> {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => Some(ext),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPS: f32 = 1e-6;

    fn score(path: &str, kind: ChangeKind, lines: usize) -> f32 {
        score_file(path, kind, lines, &[]).score
    }

    #[test]
    fn modified_lock_file_scores_exactly_040() {
        let r = score_file("Cargo.lock", ChangeKind::Modified, 3, &[]);
        assert!((r.score - 0.40).abs() < EPS, "{r:?}");
        assert_eq!(r.reasons, ["modified", "lock/generated file"]);
        assert_eq!(r.percent(), 40);
        assert_eq!(r.stars(), "★★☆☆☆");
    }

    #[test]
    fn source_outranks_docs_with_the_same_change() {
        let source = score("lib/parser.py", ChangeKind::Modified, 20);
        let docs = score("guide/parser.md", ChangeKind::Modified, 20);
        assert!(source > docs, "{source} vs {docs}");
        assert!((source - 0.85).abs() < EPS);
        assert!((docs - 0.72).abs() < EPS);
    }

    #[test]
    fn new_source_file_with_function_outranks_modified_test() {
        let new_src = score_file(
            "src/config.rs",
            ChangeKind::Added,
            5,
            &[SemanticChange::AddsFunction("load".into())],
        );
        assert_eq!(
            new_src.reasons,
            [
                "new file",
                "source code",
                "under src/",
                "adds function load"
            ]
        );
        assert!((new_src.score - 1.0).abs() < EPS);
        let test = score_file("tests/config.rs", ChangeKind::Modified, 5, &[]);
        assert_eq!(test.reasons, ["modified", "source code", "test file"]);
        assert!((test.score - 0.65).abs() < EPS);
        assert!(new_src.score > test.score);
    }

    #[test]
    fn every_rule_and_reason() {
        let r = score_file(
            "app/src/model.ts",
            ChangeKind::Deleted,
            42,
            &[
                SemanticChange::AddsType("User".into()),
                SemanticChange::ModifiesImports,
                SemanticChange::AddsImpl("X".into()),
                SemanticChange::RefactorsCode,
            ],
        );
        assert_eq!(
            r.reasons,
            [
                "deleted",
                "source code",
                "under src/",
                "42 lines changed",
                "adds type User"
            ]
        );
        assert!((r.score - 1.0).abs() < EPS);
        let big = score_file("config/app.yaml", ChangeKind::Renamed, 250, &[]);
        assert_eq!(big.reasons, ["renamed", "config", "250 lines changed"]);
        assert!((big.score - 0.75).abs() < EPS);
        assert!((score("a.txt", ChangeKind::Copied, 9) - 0.62).abs() < EPS);
        assert!((score("blob.bin", ChangeKind::TypeChanged, 199) - 0.70).abs() < EPS);
        assert!((score("blob.bin", ChangeKind::Added, 0) - 0.65).abs() < EPS);
    }

    #[test]
    fn clamped_to_one() {
        let many: Vec<_> = (0..30)
            .map(|i| SemanticChange::AddsFunction(format!("f{i}")))
            .collect();
        let r = score_file("src/big.rs", ChangeKind::Added, 500, &many);
        assert!((r.score - 1.0).abs() < EPS);
        assert_eq!(r.percent(), 100);
        assert_eq!(r.stars(), "★★★★★");
        // The lowest reachable total (0.25) is well above zero.
        let low = score("vendor/test/x.min.js", ChangeKind::Deleted, 0);
        assert!((0.0..=1.0).contains(&low));
        assert!((low - 0.25).abs() < EPS);
    }

    #[test]
    fn percent_and_stars_round() {
        let r = |score| Relevance {
            score,
            reasons: Vec::new(),
        };
        assert_eq!(r(0.0).stars(), "☆☆☆☆☆");
        assert_eq!(r(0.72).percent(), 72);
        assert_eq!(r(0.72).stars(), "★★★★☆");
        assert_eq!(r(0.65).stars(), "★★★☆☆");
        assert_eq!(r(0.675).percent(), 68);
        assert_eq!(r(f32::NAN).stars().chars().count(), 5);
    }

    #[test]
    fn categories() {
        use FileCategory::*;
        for (path, category) in [
            ("src/main.rs", Source),
            ("web/App.TSX", Source),
            ("scripts/deploy.sh", Source),
            ("include/x.hpp", Source),
            ("Cargo.toml", Config),
            ("deploy/values.yml", Config),
            ("Dockerfile", Config),
            ("docker/Dockerfile.dev", Config),
            ("Makefile", Config),
            ("CMakeLists.txt", Config),
            (".gitignore", Config),
            (".env", Config),
            (".env.local", Config),
            ("README.md", Docs),
            ("notes.txt", Docs),
            ("LICENSE", Docs),
            ("docs/conf.py", Docs),
            ("doc/api.html", Docs),
            ("Cargo.lock", LockOrGenerated),
            ("web/package-lock.json", LockOrGenerated),
            ("logo.png", Other),
            ("bin/tool", Other),
        ] {
            assert_eq!(file_category(path), category, "{path}");
        }
    }

    #[test]
    fn lock_and_generated() {
        for path in [
            "Cargo.lock",
            "package-lock.json",
            "yarn.lock",
            "pnpm-lock.yaml",
            "poetry.lock",
            "Gemfile.lock",
            "go.sum",
            "composer.lock",
            "static/app.min.js",
            "api/types.generated.ts",
            "proto/user.pb.go",
            "dist/index.js",
            "vendor/github.com/x/y.go",
            "web/node_modules/a/index.js",
        ] {
            assert!(is_lock_or_generated(path), "{path}");
        }
        for path in ["src/lock.rs", "src/distance.rs", "vendored.md", "go.mod"] {
            assert!(!is_lock_or_generated(path), "{path}");
        }
    }

    #[test]
    fn test_paths() {
        for path in [
            "tests/cli.rs",
            "crate/tests/it.rs",
            "test/helper.js",
            "src/__tests__/App.tsx",
            "spec/models/user_spec.rb",
            "pkg/server_test.go",
            "test_parser.py",
            "pkg/parser_test.py",
            "web/button.test.ts",
            "web/button.spec.js",
            "src/main/java/FooTest.java",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/testing.rs",
            "src/contest.go",
            "latest.py",
            "Attest.java",
            "tests.md",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }

    #[test]
    fn src_segment() {
        assert!(in_dir("src/a.rs", "src"));
        assert!(in_dir("crates/x/src/a.rs", "src"));
        assert!(!in_dir("src", "src"));
        assert!(!in_dir("mysrc/a.rs", "src"));
        assert!(!in_dir("source/a.rs", "src"));
    }
}
