//! The configuration files as `iris config set` and `iris config init` both write them: where
//! the user's file is, and which values just written a source of higher precedence hides here.

use std::path::PathBuf;

use anyhow::{Context, Result};

use iris_studio_config::{Assignment, Config, ConfigError, Overrides, Source, user_config_path};
use iris_studio_git::{GitError, GitRepo};

/// The repository root, or `None` outside any repository (the project file is then skipped).
pub fn repo_root() -> Result<Option<PathBuf>> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    match GitRepo::discover(&cwd) {
        Ok(repo) => Ok(Some(repo.root())),
        Err(GitError::NotARepository(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The user's config file, which may not exist yet.
pub fn user_file() -> Result<PathBuf, ConfigError> {
    user_config_path().ok_or_else(|| {
        ConfigError("cannot find your home directory: set XDG_CONFIG_HOME or HOME".into())
    })
}

/// Says on stderr which values just written (to the file `ours`) a source of higher
/// precedence hides here, unless it holds the same value.
pub fn note_overridden(written: &[Assignment], ours: &Source) {
    let Ok(root) = repo_root() else { return };
    let Ok(config) = Config::load(root.as_deref(), &Overrides::default()) else {
        return;
    };
    let settings = config.sources();
    for assignment in written {
        let Some(setting) = settings.iter().find(|s| s.key == assignment.key) else {
            continue;
        };
        let shown = setting.value.as_deref().unwrap_or("unset");
        // Two keys both show as "****": a hidden one is always worth a word.
        let same = shown == assignment.value && shown != iris_studio_config::MASKED;
        if setting.source != *ours && !same {
            eprintln!(
                "note: {} takes precedence here, so `{}` stays {shown}",
                setting.source, assignment.key
            );
        }
    }
}
