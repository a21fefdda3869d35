//! Client-side hooks: where git looks for them (`core.hooksPath`, worktrees) and installing or
//! removing a hook that a marker line identifies as ours.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use git2::{Index, Repository};

use super::{GitError, GitRepo, Result};

/// What a foreign hook is renamed to when `force` replaces it: `<name>.iris-backup`.
pub const BACKUP_SUFFIX: &str = ".iris-backup";

/// A hook script we manage.
#[derive(Debug, Clone, Copy)]
pub struct ManagedHook<'a> {
    /// The hook's name, such as `prepare-commit-msg`.
    pub name: &'a str,
    /// A line that only our script contains: a hook holding it is ours to replace or remove.
    pub marker: &'a str,
}

/// What installing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookInstall {
    /// Written where there was no hook, or over a foreign one moved to `backup`.
    Installed {
        /// Where the hook was written.
        path: PathBuf,
        /// Where the foreign hook it replaced was moved, if there was one.
        backup: Option<PathBuf>,
    },
    /// Our hook was already there and was rewritten.
    Updated {
        /// Where the hook is.
        path: PathBuf,
    },
    /// Someone else's hook is there: nothing was changed.
    Foreign {
        /// Where the foreign hook is.
        path: PathBuf,
    },
    /// Forced over a foreign hook, but a backup already exists: nothing was changed.
    BackupExists {
        /// Where the foreign hook is.
        path: PathBuf,
        /// The earlier backup (`<name>.iris-backup`) that a new one would overwrite.
        backup: PathBuf,
    },
}

/// What uninstalling did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookRemoval {
    /// Our hook was removed; the backup was moved back to `path` if there was one.
    Removed {
        /// Where the hook was.
        path: PathBuf,
        /// Whether a backed-up foreign hook was put back in its place.
        restored: bool,
    },
    /// There was no hook.
    Missing {
        /// Where git would look for the hook.
        path: PathBuf,
    },
    /// Someone else's hook is there: it was left alone.
    Foreign {
        /// Where the foreign hook is.
        path: PathBuf,
    },
}

impl GitRepo {
    /// The directory git runs hooks from, as `git rev-parse --git-path hooks` says: honours
    /// `core.hooksPath` (relative to the working tree root) and shares the main repository's
    /// hooks with its linked worktrees.
    pub fn hooks_dir(&self) -> Result<PathBuf> {
        let root = self.root();
        let output = Command::new("git")
            .args(["rev-parse", "--git-path", "hooks"])
            .current_dir(&root)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_COMMON_DIR")
            .output()
            .map_err(|e| io_error("could not run git rev-parse", e))?;
        if !output.status.success() {
            return Err(GitError::Unsupported(format!(
                "git rev-parse --git-path hooks failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            )));
        }
        let text = String::from_utf8_lossy(&output.stdout);
        let dir = text.trim_end_matches(['\n', '\r']);
        if dir.is_empty() {
            return Err(GitError::Unsupported(
                "git rev-parse --git-path hooks printed nothing".into(),
            ));
        }
        // A relative answer is relative to where git ran: the root.
        Ok(root.join(dir))
    }

    /// Writes `script` as the hook (mode 0755). A foreign hook is kept unless `force`, which
    /// first moves it to `<name>.iris-backup`.
    pub fn install_hook(
        &self,
        hook: ManagedHook<'_>,
        script: &str,
        force: bool,
    ) -> Result<HookInstall> {
        let dir = self.hooks_dir()?;
        let path = dir.join(hook.name);
        let backup = backup_path(&path);
        let existing = read_hook(&path)?;
        let mut moved = None;
        match existing {
            Some(content) if is_ours(&content, hook.marker) => {
                write_executable(&path, script)?;
                return Ok(HookInstall::Updated { path });
            }
            Some(_) if !force => return Ok(HookInstall::Foreign { path }),
            Some(_) if exists(&backup) => return Ok(HookInstall::BackupExists { path, backup }),
            Some(_) => {
                fs::rename(&path, &backup)
                    .map_err(|e| io_error(&format!("could not back up {}", path.display()), e))?;
                moved = Some(backup);
            }
            None => fs::create_dir_all(&dir)
                .map_err(|e| io_error(&format!("could not create {}", dir.display()), e))?,
        }
        write_executable(&path, script)?;
        Ok(HookInstall::Installed {
            path,
            backup: moved,
        })
    }

    /// Whether `path` (a hook) is a file this repository tracks, such as husky's
    /// `.husky/commit-msg`: moving it would be a change to the project.
    pub fn tracks(&self, path: &Path) -> bool {
        let (Ok(path), Ok(root)) = (fs::canonicalize(path), fs::canonicalize(self.root())) else {
            return false;
        };
        let Ok(relative) = path.strip_prefix(&root) else {
            return false;
        };
        self.repo
            .index()
            .is_ok_and(|index| index.get_path(relative, 0).is_some())
    }

    /// Removes our hook and puts a backup left by a forced install back in its place.
    pub fn uninstall_hook(&self, hook: ManagedHook<'_>) -> Result<HookRemoval> {
        let path = self.hooks_dir()?.join(hook.name);
        match read_hook(&path)? {
            None => Ok(HookRemoval::Missing { path }),
            Some(content) if !is_ours(&content, hook.marker) => Ok(HookRemoval::Foreign { path }),
            Some(_) => {
                fs::remove_file(&path)
                    .map_err(|e| io_error(&format!("could not remove {}", path.display()), e))?;
                let backup = backup_path(&path);
                let restored = exists(&backup);
                if restored {
                    fs::rename(&backup, &path).map_err(|e| {
                        io_error(&format!("could not restore {}", backup.display()), e)
                    })?;
                }
                Ok(HookRemoval::Removed { path, restored })
            }
        }
    }
}

/// Uses the index git gives its hooks in `GIT_INDEX_FILE` (a temporary one for `git commit -a`
/// or `git commit <paths>`) when it names a file in this repository's git dir, as git sets it;
/// a stray value from elsewhere is ignored.
pub(super) fn index_from_env(repo: &Repository) -> Result<()> {
    let Some(value) = std::env::var_os("GIT_INDEX_FILE").filter(|v| !v.is_empty()) else {
        return Ok(());
    };
    // Relative to the current directory, as git reads it.
    let (Ok(path), Ok(git_dir)) = (fs::canonicalize(&value), fs::canonicalize(repo.path())) else {
        return Ok(());
    };
    if path.parent() != Some(git_dir.as_path()) {
        return Ok(());
    }
    repo.set_index(&mut Index::open(&path)?)?;
    Ok(())
}

fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// The hook's bytes as text, `None` when there is no hook (a dangling link counts as one).
fn read_hook(path: &Path) -> Result<Option<String>> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == io::ErrorKind::NotFound && !exists(path) => Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Some(String::new())),
        Err(e) => Err(io_error(&format!("could not read {}", path.display()), e)),
    }
}

/// Whether anything, even a dangling symbolic link, is at `path`.
fn exists(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

fn is_ours(content: &str, marker: &str) -> bool {
    content.lines().any(|line| line.trim_end() == marker)
}

/// Writes through a temporary file and a rename, so git never runs a half-written hook.
fn write_executable(path: &Path, script: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".iris-tmp");
    let tmp = PathBuf::from(tmp);
    let fail = |e| io_error(&format!("could not write {}", path.display()), e);
    fs::write(&tmp, script).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).map_err(fail)?;
    }
    fs::rename(&tmp, path).map_err(fail)
}

fn io_error(context: &str, source: io::Error) -> GitError {
    GitError::Io {
        context: context.to_string(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_must_be_a_whole_line() {
        let marker = "# managed-by-iris";
        assert!(is_ours("#!/bin/sh\n# managed-by-iris\nexit 0\n", marker));
        assert!(is_ours("#!/bin/sh\r\n# managed-by-iris\r\n", marker));
        assert!(!is_ours("#!/bin/sh\n# not # managed-by-iris\n", marker));
        assert!(!is_ours("", marker));
    }

    #[test]
    fn the_backup_sits_next_to_the_hook() {
        assert_eq!(
            backup_path(Path::new("/r/.git/hooks/prepare-commit-msg")),
            PathBuf::from("/r/.git/hooks/prepare-commit-msg.iris-backup")
        );
    }
}
