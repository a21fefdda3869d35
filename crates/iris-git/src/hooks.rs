//! Client-side hooks: where git looks for them (`core.hooksPath`, worktrees) and installing or
//! removing a hook that a marker line identifies as ours.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use git2::{Index, Repository};

use super::git_command::Git;
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

impl ManagedHook<'_> {
    /// Whether a hook's text is this one's: it holds the marker as a whole line.
    pub fn is_in(&self, text: &str) -> bool {
        is_ours(text, self.marker)
    }
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

/// What adding a step to the top of a hook did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepInstall {
    /// There was no hook: one holding only the step was written.
    Created {
        /// Where the hook is.
        path: PathBuf,
    },
    /// The step now opens the hook that was there, which runs after it as before.
    Added {
        /// Where the hook is.
        path: PathBuf,
    },
    /// The step was there and was rewritten.
    Updated {
        /// Where the hook is.
        path: PathBuf,
    },
    /// The hook is a file the repository tracks (husky's): left alone.
    Tracked {
        /// Where the hook is.
        path: PathBuf,
    },
    /// The hook is not a shell script (or not executable, so git skips it): left alone.
    Unfit {
        /// Where the hook is.
        path: PathBuf,
    },
}

impl GitRepo {
    /// The directory git runs hooks from, as `git rev-parse --git-path hooks` says: honours
    /// `core.hooksPath` (relative to the working tree root) and shares the main repository's
    /// hooks with its linked worktrees.
    pub fn hooks_dir(&self) -> Result<PathBuf> {
        let root = self.root();
        let ran = Git::plumbing()?
            .args(["rev-parse", "--git-path", "hooks"])
            .current_dir(&root)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_COMMON_DIR")
            .output()?;
        if !ran.success() {
            return Err(GitError::Unsupported(format!(
                "git rev-parse --git-path hooks failed: {}",
                ran.stderr().trim()
            )));
        }
        let text = ran.stdout();
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

    /// Puts `step` (one line of shell, which must never fail) at the top of the hook `name`,
    /// under `marker`; the hook's own lines run after it unchanged, under the same name (hook
    /// managers such as husky find their scripts by it). Without a hook, one holding only the
    /// step is written.
    pub fn add_hook_step(&self, name: &str, marker: &str, step: &str) -> Result<StepInstall> {
        let dir = self.hooks_dir()?;
        let path = dir.join(name);
        let Some(content) = read_hook(&path)? else {
            fs::create_dir_all(&dir)
                .map_err(|e| io_error(&format!("could not create {}", dir.display()), e))?;
            write_executable(&path, &format!("#!/bin/sh\n{marker}\n{step}\n"))?;
            return Ok(StepInstall::Created { path });
        };
        let ours = is_ours(&content, marker);
        if !ours && self.tracks(&path) {
            return Ok(StepInstall::Tracked { path });
        }
        if !ours && !iris_studio_process::is_executable(&path) {
            return Ok(StepInstall::Unfit { path });
        }
        let Some(updated) = with_step(&without_step(&content, marker), marker, step) else {
            return Ok(StepInstall::Unfit { path });
        };
        write_keeping_mode(&path, &updated)?;
        Ok(if ours {
            StepInstall::Updated { path }
        } else {
            StepInstall::Added { path }
        })
    }

    /// The hook `name`'s path and its text; `None` when there is no hook.
    pub fn hook_text(&self, name: &str) -> Result<(PathBuf, Option<String>)> {
        let path = self.hooks_dir()?.join(name);
        let text = read_hook(&path)?;
        Ok((path, text))
    }

    /// The hook `name`'s path, and whether it holds a line with any of `needles` (a missing
    /// hook holds none).
    pub fn hook_holds(&self, name: &str, needles: &[&str]) -> Result<(PathBuf, bool)> {
        let (path, text) = self.hook_text(name)?;
        let holds = text.is_some_and(|content| {
            content
                .lines()
                .any(|line| needles.iter().any(|n| line.contains(n)))
        });
        Ok((path, holds))
    }

    /// Takes the step under `marker` out of the hook `name`; a hook left with nothing else is
    /// removed. Whether there was a step.
    pub fn remove_hook_step(&self, name: &str, marker: &str) -> Result<bool> {
        let path = self.hooks_dir()?.join(name);
        let Some(content) = read_hook(&path)? else {
            return Ok(false);
        };
        if !is_ours(&content, marker) {
            return Ok(false);
        }
        let rest = without_step(&content, marker);
        let empty = rest
            .lines()
            .all(|l| l.trim().is_empty() || l.starts_with("#!") || l.trim() == "exit 0");
        if empty {
            fs::remove_file(&path)
                .map_err(|e| io_error(&format!("could not remove {}", path.display()), e))?;
        } else {
            write_keeping_mode(&path, &rest)?;
        }
        Ok(true)
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

/// `content` with the step (the marker line, then `step`) after its `#!` line; `None` when it
/// is not a shell script.
fn with_step(content: &str, marker: &str, step: &str) -> Option<String> {
    let (first, rest) = content.split_once('\n').unwrap_or((content, ""));
    is_shell(first).then(|| format!("{first}\n{marker}\n{step}\n{rest}"))
}

/// `content` without the step under `marker` (the marker line and the line after it).
fn without_step(content: &str, marker: &str) -> String {
    let mut out = String::new();
    let mut lines = content.split_inclusive('\n');
    while let Some(line) = lines.next() {
        if line.trim_end() == marker {
            lines.next();
            continue;
        }
        out.push_str(line);
    }
    out
}

/// Whether a `#!` line runs a POSIX-like shell (directly or through `env`).
fn is_shell(first_line: &str) -> bool {
    let Some(command) = first_line.strip_prefix("#!") else {
        return false;
    };
    let mut words = command.split_whitespace();
    let program = words.next().and_then(|p| p.rsplit('/').next());
    let program = match program {
        Some("env") => words.find(|w| !w.starts_with('-')),
        other => other,
    };
    matches!(
        program,
        Some("sh" | "bash" | "dash" | "zsh" | "ksh" | "ash")
    )
}

/// Rewrites a hook through a temporary file and a rename, keeping its permissions.
fn write_keeping_mode(path: &Path, content: &str) -> Result<()> {
    let permissions = fs::metadata(path)
        .map_err(|e| io_error(&format!("could not write {}", path.display()), e))?
        .permissions();
    replace_file(path, content, Some(permissions))
}

/// Writes a hook that runs (mode 0755).
fn write_executable(path: &Path, script: &str) -> Result<()> {
    #[cfg(unix)]
    let permissions = {
        use std::os::unix::fs::PermissionsExt;
        Some(fs::Permissions::from_mode(0o755))
    };
    #[cfg(not(unix))]
    let permissions = None;
    replace_file(path, script, permissions)
}

/// Writes through a temporary file and a rename, so git never runs a half-written hook.
fn replace_file(path: &Path, content: &str, permissions: Option<fs::Permissions>) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".iris-tmp");
    let tmp = PathBuf::from(tmp);
    let fail = |e| io_error(&format!("could not write {}", path.display()), e);
    fs::write(&tmp, content).map_err(fail)?;
    if let Some(permissions) = permissions {
        fs::set_permissions(&tmp, permissions).map_err(fail)?;
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
    fn a_step_opens_a_shell_hook_and_comes_out_whole() {
        let marker = "# iris step";
        let hook = "#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/h\"\n";
        let with = with_step(hook, marker, "run || :").unwrap_or_default();
        assert_eq!(
            with,
            "#!/usr/bin/env sh\n# iris step\nrun || :\n. \"$(dirname -- \"$0\")/h\"\n"
        );
        assert_eq!(without_step(&with, marker), hook);
        // Once only, however often it is added.
        let again =
            with_step(&without_step(&with, marker), marker, "run2 || :").unwrap_or_default();
        assert_eq!(again.matches(marker).count(), 1);
        assert!(again.contains("run2"));
        assert!(with_step("#!/usr/bin/env node\nconsole.log(1)\n", marker, "x").is_none());
        assert!(with_step("no shebang\n", marker, "x").is_none());
        for shell in [
            "#!/bin/sh",
            "#!/bin/bash -e",
            "#!/usr/bin/env bash",
            "#!/usr/bin/env -S sh -e",
        ] {
            assert!(is_shell(shell), "{shell}");
        }
        assert!(!is_shell("#!/usr/bin/python3"));
    }

    #[test]
    fn the_backup_sits_next_to_the_hook() {
        assert_eq!(
            backup_path(Path::new("/r/.git/hooks/prepare-commit-msg")),
            PathBuf::from("/r/.git/hooks/prepare-commit-msg.iris-backup")
        );
    }
}
