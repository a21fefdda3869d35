//! `iris-workspace`: the repository's working tree as a boundary that every read stays
//! inside: the agent's workspace tools, Iris' reads of source and the studio's file views.
//!
//! A path the model gives is checked lexically (no `..` that climbs out, no absolute path), then
//! resolved with symbolic links followed and checked again, so a link whose target lies outside
//! the repository is refused, and so is anything inside `.git`. Walks honour `.gitignore`, skip
//! `.git` and never follow links, so they cannot leave the repository either.

// Every public item says what it is for (clippy's -D warnings makes this an error).
#![warn(missing_docs)]

use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use ignore::overrides::OverrideBuilder;
use ignore::{DirEntry, WalkBuilder, WalkState};

use iris_studio_core::paths::Escape;
use iris_studio_git::{check_relative_path, looks_binary};

/// Why a path or a glob is refused, worded for whoever gave it (a model, a user) to act on.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct OutOfBounds(pub String);

impl OutOfBounds {
    /// A refusal saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl From<iris_studio_git::GitError> for OutOfBounds {
    fn from(err: iris_studio_git::GitError) -> Self {
        Self(err.to_string())
    }
}

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
    /// The repository whose working tree is at `root`.
    pub fn open(root: &Path) -> Result<Self, OutOfBounds> {
        let root = root.canonicalize().map_err(|e| {
            OutOfBounds::new(format!(
                "cannot open the repository at {}: {e}",
                root.display()
            ))
        })?;
        Ok(Self { root })
    }

    /// The repository root, canonical (symbolic links resolved).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves a path the model gave, or says why it is refused.
    pub fn resolve(&self, path: &str) -> Result<WorkspacePath, OutOfBounds> {
        let clean = check_relative_path(path)?;
        let joined = self.root.join(&clean);
        let absolute = joined.canonicalize().map_err(|e| match e.kind() {
            ErrorKind::NotFound if joined.symlink_metadata().is_ok() => OutOfBounds::new(format!(
                "'{path}' is a symbolic link whose target does not exist"
            )),
            ErrorKind::NotFound => OutOfBounds::new(format!(
                "'{path}' does not exist in the repository (paths are relative to its root)"
            )),
            _ => OutOfBounds::new(format!("cannot open '{path}': {e}")),
        })?;
        match iris_studio_core::paths::escape_of(&self.root, &absolute) {
            Some(Escape::Outside) => {
                return Err(OutOfBounds::new(format!(
                    "invalid path '{path}': it resolves outside the repository (through a \
                     symbolic link); only files inside the repository can be read"
                )));
            }
            Some(Escape::GitData) => {
                return Err(OutOfBounds::new(format!(
                    "'{path}' is inside .git, git's own data, which the workspace tools do not \
                     read; the git tools give the history, diffs and blame"
                )));
            }
            None => {}
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
    ) -> Result<(), OutOfBounds>
    where
        S: Send,
        I: Fn() -> S + Sync,
        V: Fn(&mut S, &Path, String) + Sync,
    {
        let mut builder = self.walker(None);
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

    /// Visits the entries under `dir` (absolute and resolved, as [`Boundary::resolve_dir`] gives
    /// it) in parallel, down to `max_depth` levels below it (1: its own entries; `None`: all),
    /// skipping what [`Boundary::par_files`] skips (`.gitignore`d entries, `.git`) and following
    /// no link: a symbolic link is visited as the link itself. The walk starts at the root, so
    /// every `.gitignore` from the root down applies, and none from above it. Returns whether
    /// `dir` itself was reached: not when it is ignored or lies in an ignored directory.
    pub fn par_entries_under<S, I, V>(
        &self,
        dir: &Path,
        max_depth: Option<usize>,
        init: I,
        visit: V,
    ) -> bool
    where
        S: Send,
        I: Fn() -> S + Sync,
        V: Fn(&mut S, &DirEntry, String) + Sync,
    {
        let dir_depth = dir
            .strip_prefix(&self.root)
            .map_or(0, |inner| inner.components().count());
        let reached = AtomicBool::new(dir == self.root);
        let mut builder = self.walker(Some(dir.to_path_buf()));
        builder.max_depth(max_depth.map(|depth| dir_depth + depth));
        builder.build_parallel().run(|| {
            let mut state = init();
            let (visit, reached) = (&visit, &reached);
            Box::new(move |entry| {
                if let Ok(entry) = entry {
                    if entry.depth() > dir_depth {
                        let relative = self.relative(entry.path());
                        visit(&mut state, &entry, relative);
                    } else if entry.path() == dir {
                        reached.store(true, Ordering::Relaxed);
                    }
                }
                WalkState::Continue
            })
        });
        reached.into_inner()
    }

    /// Resolves a directory the model gave, like [`Boundary::resolve`], where `""`, `.` (and
    /// `src/..`) name the root itself.
    pub fn resolve_dir(&self, path: &str) -> Result<WorkspacePath, OutOfBounds> {
        if names_root(path) {
            return Ok(WorkspacePath {
                relative: String::new(),
                absolute: self.root.clone(),
            });
        }
        self.resolve(path)
    }

    /// [`Boundary::resolve_dir`] for a directory that must exist: a path that does not
    /// resolve gets `usage` (how the tool takes its directory) after the reason, a file is
    /// pointed to file_read.
    pub fn existing_dir(&self, path: &str, usage: &str) -> Result<WorkspacePath, OutOfBounds> {
        let dir = self
            .resolve_dir(path)
            .map_err(|e| OutOfBounds::new(format!("{e}\n({usage})")))?;
        if dir.absolute.is_file() {
            return Err(OutOfBounds::new(format!(
                "'{}' is a file, not a directory; read it with file_read",
                dir.relative
            )));
        }
        if !dir.absolute.is_dir() {
            return Err(OutOfBounds::new(format!(
                "'{}' is not a directory",
                dir.relative
            )));
        }
        Ok(dir)
    }

    /// Where a symbolic link of the repository leads, as the model should name it, or why it
    /// leads nowhere a tool follows (a missing target, outside the repository, inside `.git`).
    pub fn link_target(&self, link: &Path) -> Result<String, &'static str> {
        let target = link
            .canonicalize()
            .map_err(|_| "its target does not exist")?;
        let inner = target
            .strip_prefix(&self.root)
            .map_err(|_| "it leads outside the repository; not followed")?;
        if inner.components().any(|c| c.as_os_str() == ".git") {
            return Err("it leads into .git; not followed");
        }
        Ok(slash_path(inner))
    }

    /// The walk every tool's walk starts from: at the root, `.gitignore` honoured, hidden files
    /// kept, links never followed, `.git` skipped; with `under`, only the way down to that
    /// directory and what lies below it.
    fn walker(&self, under: Option<PathBuf>) -> WalkBuilder {
        let mut builder = WalkBuilder::new(&self.root);
        builder
            .hidden(false)
            .parents(false)
            .follow_links(false)
            .filter_entry(move |entry| {
                entry.file_name() != ".git"
                    && under.as_ref().is_none_or(|dir| {
                        entry.path().starts_with(dir) || dir.starts_with(entry.path())
                    })
            });
        builder
    }

    /// A gitignore-style glob selecting files (`*.rs`, `src/**/*.ts`, `!tests/**`), refused when it
    /// tries to reach outside the repository.
    fn file_filter(&self, pattern: &str) -> Result<ignore::overrides::Override, OutOfBounds> {
        check_glob(pattern)?;
        let mut builder = OverrideBuilder::new(&self.root);
        builder
            .add(pattern)
            .map_err(|e| OutOfBounds::new(format!("invalid file_pattern '{pattern}': {e}")))?;
        builder
            .build()
            .map_err(|e| OutOfBounds::new(format!("invalid file_pattern '{pattern}': {e}")))
    }
}

/// A file glob stays inside the repository: relative, with no `..` segment.
pub fn check_glob(pattern: &str) -> Result<(), OutOfBounds> {
    check_glob_named(pattern, "file_pattern")
}

/// [`check_glob`] for an argument of another name.
pub fn check_glob_named(pattern: &str, argument: &str) -> Result<(), OutOfBounds> {
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
        Some(why) => Err(OutOfBounds::new(format!(
            "invalid {argument} '{pattern}': {why}"
        ))),
        None => Ok(()),
    }
}

/// Whether a relative path names the root itself: `""`, `.`, `./`, `src/..`.
fn names_root(path: &str) -> bool {
    let mut depth = 0usize;
    for component in Path::new(path).components() {
        match component {
            Component::CurDir => {}
            Component::Normal(_) => depth += 1,
            Component::ParentDir => match depth.checked_sub(1) {
                Some(up) => depth = up,
                None => return false,
            },
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    depth == 0
}

fn slash_path(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// A file's text, unless it is binary or larger than `max_bytes`.
pub enum FileText {
    /// The file's text (invalid UTF-8 replaced).
    Text(String),
    /// The file is binary (git's rule), of `bytes` bytes.
    Binary {
        /// The file's size.
        bytes: u64,
    },
    /// The file is larger than asked, `bytes` bytes.
    TooLarge {
        /// The file's size.
        bytes: u64,
    },
}

/// Reads the file at `path` as text, unless it is binary or larger than `max_bytes`.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, Boundary) {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("repo/src")).expect("dirs");
        std::fs::write(dir.path().join("repo/src/a.rs"), "fn a() {}\n").expect("write");
        std::fs::write(dir.path().join("secret.txt"), "secret\n").expect("write");
        let ws = Boundary::open(&dir.path().join("repo")).expect("workspace");
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
    fn a_directory_may_be_the_root_itself() {
        let (_dir, ws) = workspace();
        for root in ["", ".", "./", "src/..", "./src/../."] {
            let resolved = ws.resolve_dir(root).expect(root);
            assert_eq!(resolved.relative, "", "{root}");
            assert_eq!(resolved.absolute, ws.root(), "{root}");
        }
        assert_eq!(ws.resolve_dir("./src/").expect("src").relative, "src");
        for out in ["..", "src/../..", "/"] {
            assert!(ws.resolve_dir(out).is_err(), "{out}");
        }
    }

    #[test]
    fn entries_under_a_directory_honour_the_root_gitignore_and_the_depth() {
        let (dir, ws) = workspace();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).expect("git dir");
        std::fs::write(repo.join(".gitignore"), "*.log\nsrc/gen/\n").expect("write");
        std::fs::create_dir_all(repo.join("src/deep/gen")).expect("dirs");
        std::fs::create_dir_all(repo.join("src/gen")).expect("dirs");
        for file in [
            "src/x.log",
            "src/deep/b.rs",
            "src/deep/gen/c.rs",
            "src/gen/d.rs",
        ] {
            std::fs::write(repo.join(file), "x\n").expect("write");
        }
        let seen = |dir: &Path, depth| {
            let found = std::sync::Mutex::new(Vec::new());
            let reached = ws.par_entries_under(
                dir,
                depth,
                || (),
                |(), _entry, relative| {
                    found.lock().expect("lock").push(relative);
                },
            );
            let mut found = found.into_inner().expect("lock");
            found.sort();
            (reached, found)
        };
        let src = ws.resolve_dir("src").expect("src").absolute;
        // Only what lies under src/, the root's .gitignore applied (src/gen/ is anchored).
        assert_eq!(
            seen(&src, Some(1)),
            (true, vec!["src/a.rs".into(), "src/deep".into()])
        );
        assert_eq!(
            seen(&src, None),
            (
                true,
                vec![
                    "src/a.rs".into(),
                    "src/deep".into(),
                    "src/deep/b.rs".into(),
                    "src/deep/gen".into(),
                    "src/deep/gen/c.rs".into()
                ]
            )
        );
        let gen_dir = ws.resolve_dir("src/gen").expect("src/gen").absolute;
        assert_eq!(seen(&gen_dir, None), (false, vec![]));
        let (reached, root) = seen(ws.root(), Some(1));
        assert!(reached);
        assert_eq!(root, [".gitignore", "src"]);
    }

    #[test]
    fn link_targets_are_named_inside_and_refused_outside() {
        let (dir, ws) = workspace();
        let repo = dir.path().join("repo");
        std::os::unix::fs::symlink("src/a.rs", repo.join("alias")).expect("symlink");
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), repo.join("out"))
            .expect("symlink");
        std::os::unix::fs::symlink("none", repo.join("broken")).expect("symlink");
        assert_eq!(ws.link_target(&repo.join("alias")), Ok("src/a.rs".into()));
        assert!(
            ws.link_target(&repo.join("out"))
                .is_err_and(|e| e.contains("outside"))
        );
        assert!(
            ws.link_target(&repo.join("broken"))
                .is_err_and(|e| e.contains("does not exist"))
        );
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
}
