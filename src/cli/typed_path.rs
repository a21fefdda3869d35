//! A path the user typed on the command line, read as git reads one: relative to the
//! current directory, then turned into the repository path Iris works with. `iris explain`
//! and `iris blame` both read theirs here, and say so when it leads nowhere.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};

use crate::output::exit::UsageError;

/// A path as typed, and where it leads in the repository.
pub(super) struct TypedPath {
    /// What the user typed.
    typed: String,
    /// Relative to the repository root; left as typed when it leads outside (the check
    /// that follows refuses it).
    pub in_repo: String,
}

impl TypedPath {
    /// `typed`, read from the current directory, inside the repository at `root`.
    pub(super) fn read(typed: &str, root: &Path) -> Result<Self> {
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        Ok(Self {
            typed: typed.to_string(),
            in_repo: from_root(typed, &cwd, root),
        })
    }

    /// The usage error for a path that `is` not what the command reads ("does not exist"),
    /// saying how the path was read.
    pub(super) fn not_there(&self, is: &str) -> UsageError {
        let read_as = if self.in_repo == self.typed {
            String::new()
        } else {
            format!(" (from here it is '{}' in the repository)", self.in_repo)
        };
        UsageError(format!(
            "'{}' {is}: paths are relative to the current directory, as git reads them{read_as}",
            self.typed
        ))
    }
}

/// `file` as typed in `cwd`, relative to the repository `root` (where Iris reads paths
/// from); left as typed when it cannot be.
fn from_root(file: &str, cwd: &Path, root: &Path) -> String {
    let joined = lexical(&cwd.join(file));
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match joined.strip_prefix(&root) {
        Ok(inner) if !inner.as_os_str().is_empty() => inner.to_string_lossy().into_owned(),
        _ => file.to_string(),
    }
}

/// `path` with `.` and `..` taken away by their names, as git reads `../README.md` from a
/// subdirectory (a link is not followed: the repository's check refuses one that leads out).
fn lexical(path: &Path) -> PathBuf {
    let mut clean = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_taken_from_the_current_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let sub = root.join("src");
        assert_eq!(from_root("app.rs", &sub, &root), "src/app.rs");
        assert_eq!(from_root("src/app.rs", &sub, &root), "src/src/app.rs");
        assert_eq!(from_root("app.rs", &root, &root), "app.rs");
        assert_eq!(from_root("../README.md", &sub, &root), "README.md");
        assert_eq!(from_root("./a/../b.rs", &sub, &root), "src/b.rs");
        assert_eq!(
            from_root(&sub.join("a.rs").to_string_lossy(), &root, &root),
            "src/a.rs"
        );
        // Outside the repository: left for the check to refuse.
        assert_eq!(from_root("/etc/passwd", &root, &root), "/etc/passwd");
        assert_eq!(from_root("../x.rs", &root, &root), "../x.rs");
    }

    #[test]
    fn a_path_that_leads_nowhere_says_how_it_was_read() {
        let path = TypedPath {
            typed: "src/x.rs".into(),
            in_repo: "src/src/x.rs".into(),
        };
        assert_eq!(
            path.not_there("does not exist").0,
            "'src/x.rs' does not exist: paths are relative to the current directory, as git \
             reads them (from here it is 'src/src/x.rs' in the repository)"
        );
    }
}
