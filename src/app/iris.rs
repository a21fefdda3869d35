//! Iris as configured, built here and nowhere else in the binary, so every face gets the same
//! Iris; and her first request kept instead of sent (`--dry-run`, the studio's `$`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;

use crate::app::stores::IrisDir;
use iris_studio_agent::IrisAgent;
use iris_studio_agent::runtime::dry_run::DryRun;
use iris_studio_config::{Config, Overrides};
use iris_studio_core::secrets::Scanner;

/// Builds Iris from the configuration as it is when called.
pub type Loader = Arc<dyn Fn() -> Result<IrisAgent> + Send + Sync>;

/// Iris as `config` says, working on the repository at `root` (the user's, or a replay of
/// its history); a reply she cannot read is saved in `stores`; `streaming` takes replies as
/// they come. The commits Actions are pinned to are named by their tags with the user's `gh`,
/// and with `linked_issues` the issues a change is for are read with the user's `gh`/`glab`.
pub fn configured(
    config: &Config,
    root: &Path,
    stores: &IrisDir,
    streaming: bool,
) -> iris_studio_agent::Result<IrisAgent> {
    let iris = IrisAgent::from_config(config, root, stores.path(), streaming)?;
    let iris = iris.with_pin_tags(Arc::new(crate::publish::GhTags::in_repo(root)));
    Ok(
        match super::linked_issues::ForgeIssues::of(config.linked_issues, root, stores) {
            Some(reader) => iris.with_issue_reader(reader),
            None => iris,
        },
    )
}

/// Iris built from the configuration as it is each time (files < environment < `overrides`).
pub fn loader(root: PathBuf, stores: IrisDir, overrides: Overrides) -> Loader {
    Arc::new(move || {
        let config = Config::load(Some(&root), &overrides)?;
        Ok(configured(&config, &root, &stores, true)?)
    })
}

/// Iris keeping her first request instead of sending it when `dry_run` (the run stops
/// there), and where it is kept.
pub fn with_dry_run(iris: IrisAgent, dry_run: bool) -> (IrisAgent, Option<DryRun>) {
    if !dry_run {
        return (iris, None);
    }
    let kept = DryRun::default();
    (iris.with_dry_run(kept.clone()), Some(kept))
}

/// The scanner every request passes, for `config` at `root` (`None`: the scan is off).
pub fn secret_scanner(config: &Config, root: &Path) -> Result<Option<Arc<Scanner>>> {
    iris_studio_agent::iris::secret_scanner(config, root)
}
