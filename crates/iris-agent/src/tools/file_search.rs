//! `file_search`: the repository's files whose path matches a glob or contains a substring.

use iris_studio_core::protocol::Risk;
use std::fmt::Write;
use std::sync::Mutex;

use globset::{GlobBuilder, GlobMatcher};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure, blocking, bound_output};
use iris_studio_workspace::{Boundary, WorkspacePath, check_glob_named};

/// Paths shown in one call at most.
const MAX_PATHS: usize = 200;
/// Characters of the answer at most (200 very long paths would be a lot).
const MAX_CHARS: usize = 40_000;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FileSearchArgs {
    /// A glob when it holds `*`, `?` or `[` (`*.rs`, `src/**/mod.rs`, `test_*.py`), matched
    /// against the path relative to the repository root (a glob without `/` matches the file
    /// name at any depth); otherwise a substring of that path. Both ignore case.
    pub pattern: String,
    /// The directory to search in, relative to the repository root (default: the whole
    /// repository).
    #[serde(default)]
    pub path: Option<String>,
    /// Also list the directories whose path matches (default false: files only).
    #[serde(default)]
    pub include_dirs: bool,
}

pub struct FileSearch;

impl IrisTool for FileSearch {
    const NAME: &'static str = "file_search";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Finds files by path: pattern is a glob when it holds *, ? \
        or [ (`*.rs` matches file names at any depth, `src/**/*.ts` whole paths from the root), \
        otherwise a case-insensitive substring of the path (`config`). Searches under path \
        (default the whole repository); .gitignore honoured, .git never searched. Returns the \
        matching paths relative to the root, sorted, at most 200. Use it to find where a file is \
        when you know part of its name; to list one directory use file_list, to search file \
        contents use code_search, to read a file use file_read.";
    type Args = FileSearchArgs;

    async fn run(&self, ctx: &ToolContext, args: FileSearchArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

/// How a path is matched.
#[derive(Debug)]
enum PathMatcher {
    /// A glob; one without `/` is matched against the file name alone.
    Glob { glob: GlobMatcher, name_only: bool },
    /// A substring of the path, lowercase.
    Substring(String),
}

impl PathMatcher {
    fn new(pattern: &str) -> Result<Self, ToolFailure> {
        if !pattern.contains(['*', '?', '[']) {
            return Ok(Self::Substring(pattern.to_lowercase()));
        }
        check_glob_named(pattern, "pattern")?;
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .case_insensitive(true)
            .build()
            .map_err(|e| {
                ToolFailure::new(format!(
                    "invalid glob '{pattern}': {}\n(a pattern holding *, ? or [ is a glob: `*` \
                     matches within a name, `**/` any directories, `[abc]` one of the \
                     characters; give a plain substring to match it literally)",
                    e.kind()
                ))
            })?;
        Ok(Self::Glob {
            glob: glob.compile_matcher(),
            name_only: !pattern.contains('/'),
        })
    }

    /// Whether a path matches: `relative` to the root, or `in_dir` relative to the directory
    /// searched (a glob with `/` may be written either way).
    fn matches(&self, relative: &str, in_dir: &str) -> bool {
        match self {
            Self::Glob {
                glob,
                name_only: true,
            } => glob.is_match(relative.rsplit('/').next().unwrap_or(relative)),
            Self::Glob { glob, .. } => glob.is_match(relative) || glob.is_match(in_dir),
            Self::Substring(needle) => relative.to_lowercase().contains(needle.as_str()),
        }
    }

    fn describe(&self, pattern: &str) -> String {
        match self {
            Self::Glob { .. } => format!("the glob '{pattern}'"),
            Self::Substring(_) => format!("the substring '{pattern}'"),
        }
    }

    /// What to try when nothing matched.
    fn hint(&self) -> &'static str {
        match self {
            Self::Glob { .. } => {
                "try a broader glob (one without '/' matches file names at any depth, '**/' \
                 crosses directories) or a plain substring of the path"
            }
            Self::Substring(_) => "try a shorter substring, or a glob such as '*.rs' or '*name*'",
        }
    }
}

/// A path that matched, as the answer shows it.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Found {
    /// Relative to the root; what the answer is sorted by.
    path: String,
    /// `/` after a directory, ` -> target` after a link.
    suffix: String,
}

impl FileSearch {
    fn run_blocking(ctx: &ToolContext, args: FileSearchArgs) -> Result<String, ToolFailure> {
        let pattern = normalize(&args.pattern);
        if pattern.is_empty() {
            return Err(ToolFailure::new(
                "pattern is empty: give part of a file name or path (`config`) or a glob (`*.toml`)",
            ));
        }
        let matcher = PathMatcher::new(pattern)?;
        let boundary = Boundary::open(&ctx.repo_root)?;
        let dir = boundary.existing_dir(
            args.path.as_deref().unwrap_or(""),
            "path is the directory to search in, relative to the repository root; leave it out \
             to search the whole repository",
        )?;
        let found = find(&boundary, &dir, &matcher, args.include_dirs)?;
        let what = if args.include_dirs {
            ("file or directory", "files and directories")
        } else {
            ("file", "files")
        };
        let searched = if dir.relative.is_empty() {
            "the repository".to_string()
        } else {
            format!("{}/", dir.relative)
        };
        let answer = render(
            found,
            &format!("{} in {searched}", matcher.describe(pattern)),
            what,
            &format!(
                "{}{}, or file_list to see what a directory holds",
                matcher.hint(),
                if dir.relative.is_empty() {
                    ""
                } else {
                    ", or search the whole repository (no path)"
                }
            ),
        );
        Ok(bound_output(
            answer,
            MAX_CHARS,
            "narrow the pattern, or give a path to search one directory",
        ))
    }
}

/// The paths under `dir` that match, sorted.
fn find(
    boundary: &Boundary,
    dir: &WorkspacePath,
    matcher: &PathMatcher,
    include_dirs: bool,
) -> Result<Vec<Found>, ToolFailure> {
    // What a path under `dir` starts with (where it really is, when `dir` is a link).
    let prefix = match boundary.relative(&dir.absolute) {
        root if root.is_empty() => root,
        inner => format!("{inner}/"),
    };
    let found = Mutex::new(Vec::new());
    let reached = boundary.par_entries_under(
        &dir.absolute,
        None,
        || (),
        |(), entry, relative| {
            let Some(file_type) = entry.file_type() else {
                return;
            };
            let in_dir = relative.strip_prefix(&prefix).unwrap_or(&relative);
            if (file_type.is_dir() && !include_dirs) || !matcher.matches(&relative, in_dir) {
                return;
            }
            let suffix = if file_type.is_dir() {
                "/".to_string()
            } else if file_type.is_file() {
                String::new()
            } else if file_type.is_symlink() {
                // Only links that lead to something a tool reads.
                match boundary.link_target(entry.path()) {
                    Ok(target) => format!(" -> {target}"),
                    Err(_) => return,
                }
            } else {
                return;
            };
            if let Ok(mut found) = found.lock() {
                found.push(Found {
                    path: relative,
                    suffix,
                });
            }
        },
    );
    if !reached {
        return Err(ToolFailure::new(format!(
            "'{}' is ignored by .gitignore (or lies in an ignored directory), so it is not \
             searched; it is likely build output or dependencies",
            dir.relative
        )));
    }
    let mut found = found
        .into_inner()
        .map_err(|_| ToolFailure::new("the search stopped unexpectedly"))?;
    found.sort();
    Ok(found)
}

/// The pattern without surrounding blanks and leading `./`.
fn normalize(pattern: &str) -> &str {
    let mut pattern = pattern.trim();
    while let Some(rest) = pattern.strip_prefix("./") {
        pattern = rest;
    }
    pattern
}

/// The answer: how many matched, the first [`MAX_PATHS`] of them, and what was left out; or
/// that nothing matched and what to try.
/// `what` is what is searched for, in the singular and the plural.
fn render(found: Vec<Found>, query: &str, what: (&str, &str), hint: &str) -> String {
    let (one, many) = what;
    let total = found.len();
    if total == 0 {
        return format!(
            "no {one} matches {query} (files ignored by .gitignore are not searched); {hint}\n"
        );
    }
    let mut out = match total {
        1 => format!("1 {one} matches {query}:\n"),
        n if n <= MAX_PATHS => format!("{n} {many} match {query}:\n"),
        n => format!("{n} {many} match {query}; the first {MAX_PATHS}:\n"),
    };
    for found in found.iter().take(MAX_PATHS) {
        let _ = writeln!(out, "{}{}", found.path, found.suffix);
    }
    if total > MAX_PATHS {
        let _ = writeln!(
            out,
            "[{} more not shown (at most {MAX_PATHS} per call); narrow the pattern, or give a \
             path to search one directory]",
            total - MAX_PATHS
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(pattern: &str) -> PathMatcher {
        PathMatcher::new(pattern).expect("valid pattern")
    }

    #[test]
    fn a_pattern_with_glob_characters_is_a_glob_and_any_other_a_substring() {
        assert!(matches!(matcher("*.rs"), PathMatcher::Glob { .. }));
        assert!(matches!(matcher("file?.txt"), PathMatcher::Glob { .. }));
        assert!(matches!(matcher("[ab].rs"), PathMatcher::Glob { .. }));
        assert!(matches!(matcher("src/main.rs"), PathMatcher::Substring(_)));
        assert!(matches!(matcher("{a,b}"), PathMatcher::Substring(_)));
    }

    #[test]
    fn a_glob_without_a_slash_matches_the_file_name_at_any_depth() {
        let rs = matcher("*.rs");
        assert!(rs.matches("main.rs", "main.rs"));
        assert!(rs.matches("src/agent/mod.rs", "src/agent/mod.rs"));
        assert!(!rs.matches("src/rs/readme.md", "src/rs/readme.md"));
        assert!(matcher("MOD.RS").matches("src/agent/mod.rs", "agent/mod.rs"));
        let test = matcher("test_*.py");
        assert!(test.matches("pkg/tests/test_io.py", "pkg/tests/test_io.py"));
        assert!(!test.matches("test_dir/io.py", "test_dir/io.py"));
    }

    #[test]
    fn a_glob_with_a_slash_matches_the_whole_path_from_the_root_or_the_directory() {
        let direct = matcher("src/*.rs");
        assert!(direct.matches("src/lib.rs", "src/lib.rs"));
        assert!(!direct.matches("src/agent/mod.rs", "src/agent/mod.rs"));
        assert!(!direct.matches("lib/src/lib.rs", "lib/src/lib.rs"));
        let deep = matcher("src/**/*.rs");
        assert!(deep.matches("src/lib.rs", "src/lib.rs"));
        assert!(deep.matches("src/agent/tools/mod.rs", "src/agent/tools/mod.rs"));
        let anywhere = matcher("**/tools/*.rs");
        assert!(anywhere.matches("src/agent/tools/mod.rs", "src/agent/tools/mod.rs"));
        // Written relative to the directory searched (`path: "src"`).
        assert!(matcher("agent/*.rs").matches("src/agent/mod.rs", "agent/mod.rs"));
        assert!(matcher("SRC/*.RS").matches("src/lib.rs", "src/lib.rs"));
    }

    #[test]
    fn a_substring_ignores_case_and_may_span_directories() {
        let config = matcher("Config");
        assert!(config.matches("src/config.rs", "src/config.rs"));
        assert!(config.matches("CONFIG/mod.rs", "CONFIG/mod.rs"));
        assert!(!config.matches("src/conf.rs", "src/conf.rs"));
        assert!(matcher("agent/tools").matches("src/agent/tools/mod.rs", "agent/tools/mod.rs"));
    }

    #[test]
    fn an_invalid_glob_or_one_that_leaves_the_repository_is_explained() {
        let unclosed = PathMatcher::new("src/[ab.rs").expect_err("unclosed class");
        assert!(
            unclosed
                .0
                .starts_with("invalid glob 'src/[ab.rs': unclosed character class"),
            "{unclosed}"
        );
        assert!(unclosed.0.contains("give a plain substring"), "{unclosed}");
        for pattern in ["../*.rs", "/etc/*", "src/../../*"] {
            let out = PathMatcher::new(pattern).expect_err(pattern);
            assert!(
                out.0.starts_with(&format!("invalid pattern '{pattern}'")),
                "{out}"
            );
        }
        assert_eq!(normalize("  ././src/*.rs "), "src/*.rs");
    }

    const FILES: (&str, &str) = ("file", "files");

    fn found(path: &str) -> Found {
        Found {
            path: path.into(),
            suffix: String::new(),
        }
    }

    #[test]
    fn the_answer_lists_the_paths_and_what_was_left_out() {
        let one = render(
            vec![found("a.rs")],
            "the glob '*.rs' in the repository",
            FILES,
            "",
        );
        assert_eq!(
            one,
            "1 file matches the glob '*.rs' in the repository:\na.rs\n"
        );
        let many: Vec<Found> = (0..MAX_PATHS + 5)
            .map(|i| found(&format!("f{i:03}")))
            .collect();
        let out = render(many, "the substring 'f' in the repository", FILES, "");
        assert!(
            out.starts_with(
                "205 files match the substring 'f' in the repository; the first 200:\nf000\n"
            ),
            "{}",
            &out[..80]
        );
        assert!(out.contains("\nf199\n") && !out.contains("f200"));
        assert!(out.ends_with(
            "[5 more not shown (at most 200 per call); narrow the pattern, or give a path to \
             search one directory]\n"
        ));
        let none = render(vec![], "the glob '*.x' in src/", FILES, "try this");
        assert_eq!(
            none,
            "no file matches the glob '*.x' in src/ (files ignored by .gitignore are not \
             searched); try this\n"
        );
    }
}
