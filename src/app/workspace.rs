//! A workspace opened: the repository, its configuration, Iris' stores in it and the version
//! control in use, once for every face; Iris as configured is built from it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};

use super::iris;
use super::vcs::{self, Vcs};
use crate::app::stores::IrisDir;
use crate::app::stores::review_memory::ReviewMemory;
use iris_studio_agent::IrisAgent;
use iris_studio_agent::runtime::dry_run::DryRun;
use iris_studio_config::{Config, Overrides};
use iris_studio_core::secrets::Scanner;
use iris_studio_git::GitRepo;

/// What every face works on: the repository the user is in, opened once.
pub struct Workspace {
    /// The repository's git store (a jj workspace's too). Not `Sync`: keep it on one thread.
    pub repo: GitRepo,
    /// The top of the working tree.
    pub root: PathBuf,
    /// The configuration: defaults < user file < `.irisconfig` < environment < the flags.
    pub config: Config,
    /// Iris' own files in the repository (`.git/iris/`; `.jj/iris/` in a jj workspace).
    pub stores: IrisDir,
    /// The version control in use, git or jj.
    pub vcs: Arc<dyn Vcs>,
}

impl Workspace {
    /// The workspace holding `dir` (any folder inside it), configured with `overrides` over
    /// the files and the environment. Blocking.
    pub fn open(dir: &Path, overrides: &Overrides) -> Result<Self> {
        Self::open_with(dir, |root| Ok(Config::load(Some(root), overrides)?))
    }

    /// The workspace holding the current directory.
    pub fn current(overrides: &Overrides) -> Result<Self> {
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        Self::open(&cwd, overrides)
    }

    /// The workspace holding `dir`, configured as `load` reads it from the root (a test's
    /// own environment, say).
    pub fn open_with(dir: &Path, load: impl FnOnce(&Path) -> Result<Config>) -> Result<Self> {
        let repo = GitRepo::discover(dir)?;
        let root = repo.root();
        let config = load(&root)?;
        Ok(Self {
            stores: IrisDir::of(&repo.state_dir()),
            vcs: vcs::open(&repo),
            repo,
            root,
            config,
        })
    }

    /// Iris as the configuration says, working here; `streaming` takes her replies as they
    /// come.
    pub fn iris(&self, streaming: bool) -> iris_studio_agent::Result<IrisAgent> {
        iris::configured(&self.config, &self.root, &self.stores, streaming)
    }

    /// Iris as [`Workspace::iris`] gives her, or with `dry_run` keeping her first request
    /// instead of sending it (and a stand-in key where none is set: nothing is sent), with
    /// where it is kept.
    pub fn iris_run(
        &self,
        streaming: bool,
        dry_run: bool,
    ) -> iris_studio_agent::Result<(IrisAgent, Option<DryRun>)> {
        let iris = match dry_run {
            true => {
                let config = self.config.clone().sending_nothing();
                iris::configured(&config, &self.root, &self.stores, streaming)?
            }
            false => self.iris(streaming)?,
        };
        Ok(iris::with_dry_run(iris, dry_run))
    }

    /// How Iris is built again here from the configuration as it is then (after setup wrote
    /// it), with `overrides` over it.
    pub fn iris_loader(&self, overrides: Overrides) -> iris::Loader {
        iris::loader(self.root.clone(), self.stores.clone(), overrides)
    }

    /// The configuration with `overrides` instead of the workspace's own (one variant of
    /// several compared).
    pub fn config_with(&self, overrides: &Overrides) -> Result<Config> {
        Ok(Config::load(Some(&self.root), overrides)?)
    }

    /// What reviews remember here: the findings dismissed, the user's and the team's, and
    /// the last review's.
    pub fn review_memory(&self) -> ReviewMemory {
        ReviewMemory::of(&self.root, &self.stores)
    }

    /// The scanner every request passes, which also checks a change before a system that
    /// runs no hooks records it (`None`: the scan is off).
    pub fn secret_scanner(&self) -> Result<Option<Arc<Scanner>>> {
        iris::secret_scanner(&self.config, &self.root)
    }
}
