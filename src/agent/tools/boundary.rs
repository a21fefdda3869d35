//! The repository as the boundary the workspace tools stay inside.
//!
//! A path the model gives is checked lexically (no `..` that climbs out, no absolute path), then
//! resolved with symbolic links followed and checked again, so a link whose target lies outside
//! the repository is refused, and so is anything inside `.git`. Walks honour `.gitignore`, skip
//! `.git` and never follow links, so they cannot leave the repository either.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use grep_searcher::sinks::Lossy;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};
use ignore::overrides::OverrideBuilder;
use ignore::{WalkBuilder, WalkState};

use super::{ToolContext, ToolFailure};
use crate::git::{check_relative_path, looks_binary};

/// The repository root, resolved once, that every path is checked against.
pub struct Boundary {
    root: PathBuf,
}

/// A path inside the repository: as the model should name it, and where it really is.
#[derive(Debug, Clone)]
pub struct WorkspacePath {
    /// Relative to the root, with `/` separators and no `.` or `..` segments.
    pub relative: String,
    /// Absolute, symbolic links resolved; always under the root.
    pub absolute: PathBuf,
}

impl Boundary {
    pub fn open(ctx: &ToolContext) -> Result<Self, ToolFailure> {
        let root = ctx.repo_root.canonicalize().map_err(|e| {
            ToolFailure::new(format!(
                "cannot open the repository at {}: {e}",
                ctx.repo_root.display()
            ))
        })?;
        Ok(Self { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves a path the model gave, or says why it is refused.
    pub fn resolve(&self, path: &str) -> Result<WorkspacePath, ToolFailure> {
        let clean = check_relative_path(path)?;
        let joined = self.root.join(&clean);
        let absolute = joined.canonicalize().map_err(|e| match e.kind() {
            ErrorKind::NotFound if joined.symlink_metadata().is_ok() => ToolFailure::new(format!(
                "'{path}' is a symbolic link whose target does not exist"
            )),
            ErrorKind::NotFound => ToolFailure::new(format!(
                "'{path}' does not exist in the repository (paths are relative to its root)"
            )),
            _ => ToolFailure::new(format!("cannot open '{path}': {e}")),
        })?;
        if !absolute.starts_with(&self.root) {
            return Err(ToolFailure::new(format!(
                "invalid path '{path}': it resolves outside the repository (through a symbolic \
                 link); only files inside the repository can be read"
            )));
        }
        // git's own data is no source to read, and its config may hold credentials (a remote
        // URL with a token); a link into it is refused the same way.
        let inner = absolute.strip_prefix(&self.root).unwrap_or(&absolute);
        if inner.components().any(|c| c.as_os_str() == ".git") {
            return Err(ToolFailure::new(format!(
                "'{path}' is inside .git, git's own data, which the workspace tools do not read; \
                 the git tools give the history, diffs and blame"
            )));
        }
        Ok(WorkspacePath {
            relative: slash_path(&clean),
            absolute,
        })
    }

    /// A path under the root as the model should name it.
    pub fn relative(&self, absolute: &Path) -> String {
        slash_path(absolute.strip_prefix(&self.root).unwrap_or(absolute))
    }

    /// Visits every regular file of the repository in parallel: `.gitignore`d files, `.git` and
    /// symbolic links are skipped; with `file_pattern`, only the files that glob selects. Each
    /// worker thread gets its own state from `init`.
    pub fn par_files<S, I, V>(
        &self,
        file_pattern: Option<&str>,
        init: I,
        visit: V,
    ) -> Result<(), ToolFailure>
    where
        S: Send,
        I: Fn() -> S + Sync,
        V: Fn(&mut S, &Path, String) + Sync,
    {
        let mut builder = WalkBuilder::new(&self.root);
        builder
            .hidden(false)
            .parents(false)
            .follow_links(false)
            .filter_entry(|entry| entry.file_name() != ".git");
        if let Some(pattern) = file_pattern {
            builder.overrides(self.file_filter(pattern)?);
        }
        builder.build_parallel().run(|| {
            let mut state = init();
            let visit = &visit;
            Box::new(move |entry| {
                if let Ok(entry) = entry
                    && entry.file_type().is_some_and(|t| t.is_file())
                {
                    let relative = self.relative(entry.path());
                    visit(&mut state, entry.path(), relative);
                }
                WalkState::Continue
            })
        });
        Ok(())
    }

    /// A gitignore-style glob selecting files (`*.rs`, `src/**/*.ts`, `!tests/**`), refused when it
    /// tries to reach outside the repository.
    fn file_filter(&self, pattern: &str) -> Result<ignore::overrides::Override, ToolFailure> {
        check_glob(pattern)?;
        let mut builder = OverrideBuilder::new(&self.root);
        builder
            .add(pattern)
            .map_err(|e| ToolFailure::new(format!("invalid file_pattern '{pattern}': {e}")))?;
        builder
            .build()
            .map_err(|e| ToolFailure::new(format!("invalid file_pattern '{pattern}': {e}")))
    }
}

/// A file glob stays inside the repository: relative, with no `..` segment.
pub fn check_glob(pattern: &str) -> Result<(), ToolFailure> {
    let body = pattern.strip_prefix('!').unwrap_or(pattern);
    let why = if body.trim().is_empty() {
        Some("it is empty")
    } else if body.starts_with('/') || body.starts_with('\\') || Path::new(body).is_absolute() {
        Some("globs are relative to the repository root, not absolute")
    } else if body.split(['/', '\\']).any(|segment| segment == "..") {
        Some("'..' would leave the repository")
    } else {
        None
    };
    match why {
        Some(why) => Err(ToolFailure::new(format!(
            "invalid file_pattern '{pattern}': {why}"
        ))),
        None => Ok(()),
    }
}

fn slash_path(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// A file's text, unless it is binary or larger than `max_bytes`.
pub enum FileText {
    Text(String),
    Binary { bytes: u64 },
    TooLarge { bytes: u64 },
}

pub fn read_text(path: &Path, max_bytes: u64) -> std::io::Result<FileText> {
    let bytes = std::fs::metadata(path)?.len();
    if bytes > max_bytes {
        return Ok(FileText::TooLarge { bytes });
    }
    let content = std::fs::read(path)?;
    if looks_binary(&content) {
        return Ok(FileText::Binary { bytes });
    }
    Ok(FileText::Text(
        String::from_utf8_lossy(&content).into_owned(),
    ))
}

/// A line searcher that numbers lines and gives up on binary files.
pub fn line_searcher() -> Searcher {
    SearcherBuilder::new()
        .line_number(true)
        .binary_detection(BinaryDetection::quit(0))
        .build()
}

/// Builds a line matcher: `^`/`$` match at line ends and no match spans two lines.
pub fn line_matcher(pattern: &str, case_insensitive: bool) -> Result<RegexMatcher, String> {
    grep_regex::RegexMatcherBuilder::new()
        .multi_line(true)
        .line_terminator(Some(b'\n'))
        .case_insensitive(case_insensitive)
        .build(pattern)
        .map_err(|e| e.to_string())
}

/// Calls `found(line_number, line)` for each line of `path` the matcher matches, until it
/// returns false. Unreadable and binary files yield nothing.
pub fn matching_lines(
    searcher: &mut Searcher,
    matcher: &impl Matcher,
    path: &Path,
    mut found: impl FnMut(u64, &str) -> bool,
) {
    let _ = searcher.search_path(
        matcher,
        path,
        Lossy(|line_number, line| Ok(found(line_number, line))),
    );
}

/// Like [`matching_lines`], over text already read.
pub fn matching_lines_in(
    searcher: &mut Searcher,
    matcher: &impl Matcher,
    text: &[u8],
    mut found: impl FnMut(u64, &str) -> bool,
) {
    let _ = searcher.search_slice(
        matcher,
        text,
        Lossy(|line_number, line| Ok(found(line_number, line))),
    );
}

/// `line` without its line ending and surrounding blanks, cut to `max_chars` with an ellipsis.
pub fn trim_line(line: &str, max_chars: usize) -> String {
    let line = line.trim();
    match line.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, Boundary) {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("repo/src")).expect("dirs");
        std::fs::write(dir.path().join("repo/src/a.rs"), "fn a() {}\n").expect("write");
        std::fs::write(dir.path().join("secret.txt"), "secret\n").expect("write");
        let ctx = ToolContext::new(dir.path().join("repo"));
        let ws = Boundary::open(&ctx).expect("workspace");
        (dir, ws)
    }

    #[test]
    fn resolve_accepts_inner_paths_and_refuses_every_escape() {
        let (dir, ws) = workspace();
        let inside = ws.resolve("./src/../src/a.rs").expect("inside");
        assert_eq!(inside.relative, "src/a.rs");
        assert!(inside.absolute.ends_with("repo/src/a.rs"));

        let climb = ws.resolve("../secret.txt").expect_err("climbs out");
        assert!(climb.0.contains("leaves the repository"), "{climb}");
        let absolute = dir.path().join("secret.txt");
        let abs = ws
            .resolve(&absolute.to_string_lossy())
            .expect_err("absolute");
        assert!(abs.0.contains("relative to the repository root"), "{abs}");

        std::os::unix::fs::symlink(&absolute, dir.path().join("repo/link")).expect("symlink");
        let link = ws.resolve("link").expect_err("link out");
        assert!(link.0.contains("resolves outside the repository"), "{link}");

        std::fs::create_dir_all(dir.path().join("repo/.git")).expect("git dir");
        std::fs::write(dir.path().join("repo/.git/config"), "[remote]\n").expect("write");
        std::os::unix::fs::symlink(".git/config", dir.path().join("repo/config-link"))
            .expect("symlink");
        for path in [".git/config", "src/../.git/config", "config-link", ".git"] {
            let git = ws.resolve(path).expect_err(path);
            assert!(git.0.contains("inside .git"), "{path}: {git}");
        }

        let missing = ws.resolve("src/none.rs").expect_err("missing");
        assert!(missing.0.contains("does not exist"), "{missing}");
    }

    #[test]
    fn globs_that_leave_the_repository_are_refused() {
        assert!(check_glob("*.rs").is_ok());
        assert!(check_glob("src/**/*.ts").is_ok());
        assert!(check_glob("!tests/**").is_ok());
        assert!(check_glob("../*.rs").is_err());
        assert!(check_glob("src/../../x/*").is_err());
        assert!(check_glob("/etc/*").is_err());
        assert!(check_glob("!/etc/*").is_err());
        assert!(check_glob("  ").is_err());
    }

    #[test]
    fn lines_are_trimmed_to_their_bound() {
        assert_eq!(trim_line("  let x = 1;\n", 100), "let x = 1;");
        assert_eq!(trim_line("ééééé", 3), "ééé…");
    }
}
