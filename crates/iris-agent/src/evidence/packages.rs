//! The packages a change moves, as its request's Packages section: both versions of the
//! lock files and workflows it touches read from git (bounded by
//! [`iris_studio_core::packages::MAX_LOCK_BYTES`]), compared by iris-core, and the commits Actions
//! are pinned to named by their tags where a [`PinTags`] (the user's `gh`, at the edge)
//! answers in time.

use std::time::{Duration, Instant};

use iris_studio_core::packages::{self, Bumps, MAX_LOCK_BYTES};
use iris_studio_git::{DiffTarget, GitRepo};

/// Lists a repository's tags: what names a pinned commit by its release.
pub trait PinTags: Send + Sync {
    /// The tags of `repo` (`owner/name`) whose names hold `prefix` (every tag, as far as
    /// one answer goes, when `None`), each as (name, the commit it points at); why not,
    /// when they cannot be listed.
    fn tags(&self, repo: &str, prefix: Option<&str>) -> Result<Vec<(String, String)>, String>;
}

/// Repositories whose tags one request looks up, at most.
const MAX_LOOKUPS: usize = 4;
/// How long the lookups of one request may take together; past it, no more start.
const LOOKUP_BUDGET: Duration = Duration::from_secs(8);

/// What the change of `targets` does to its packages: each lock file's and workflow's two
/// versions compared.
pub fn read(repo: &GitRepo, targets: &[DiffTarget]) -> iris_studio_git::Result<Bumps> {
    let mut bumps = Bumps::default();
    for target in targets {
        let changed = repo.changed_sides(target, packages::reads, MAX_LOCK_BYTES)?;
        if !changed.read.is_empty() {
            bumps.extend(Bumps::of(&changed.read, &changed.paths));
        }
    }
    Ok(bumps)
}

/// Names the pinned commits whose versions the workflows' comments leave open by the tags
/// `tags` lists, a few repositories within a few seconds; one that does not answer leaves its
/// pins as they are (the section then says only that they moved).
pub fn name_pins(bumps: &mut Bumps, tags: &dyn PinTags) {
    let started = Instant::now();
    for (repo, prefix) in bumps.lookups().into_iter().take(MAX_LOOKUPS) {
        if started.elapsed() > LOOKUP_BUDGET {
            break;
        }
        match tags.tags(&repo, prefix.as_deref()) {
            Ok(found) => bumps.resolve(&repo, &found),
            Err(why) => tracing::debug!(repo, why, "the tags of a pinned action were not listed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_testkit::TestRepo;
    use std::sync::Mutex;

    struct Listed(Mutex<Vec<String>>);

    impl PinTags for Listed {
        fn tags(&self, repo: &str, prefix: Option<&str>) -> Result<Vec<(String, String)>, String> {
            if let Ok(mut asked) = self.0.lock() {
                asked.push(format!("{repo} {prefix:?}"));
            }
            match repo {
                "actions/cache" => Ok(vec![("v4.2.0".into(), "b".repeat(40))]),
                _ => Err("offline".into()),
            }
        }
    }

    #[test]
    fn a_staged_lock_and_pins_read_from_both_sides() {
        let repo = TestRepo::new();
        let lock = |v: &str| format!("[[package]]\nname = \"regex\"\nversion = \"{v}\"\n");
        let workflow = |cache: char, setup: char| {
            format!(
                "steps:\n  - uses: actions/cache@{} # v4\n  - uses: actions/setup-node@{}\n",
                cache.to_string().repeat(40),
                setup.to_string().repeat(40)
            )
        };
        repo.write("Cargo.lock", lock("1.10.2"));
        repo.write(".github/workflows/ci.yml", workflow('a', 'c'));
        repo.commit_all("first");
        repo.write("Cargo.lock", lock("1.10.3"));
        repo.write(".github/workflows/ci.yml", workflow('b', 'd'));
        repo.git(&["add", "-A"]);
        let git = GitRepo::discover(&repo.path()).expect("repo");
        let mut bumps = read(&git, &[DiffTarget::Staged]).expect("read");
        let asked = Listed(Mutex::default());
        name_pins(&mut bumps, &asked);
        let section = bumps.section().unwrap_or_default();
        assert!(
            section.contains("Cargo.lock: 1 updated\n- regex 1.10.2 -> 1.10.3"),
            "{section}"
        );
        assert!(
            section.contains("(# v4; tag v4.2.0), in .github/workflows/ci.yml"),
            "{section}"
        );
        assert!(
            section.contains(&format!(
                "- actions/setup-node moved from {} to {}, in",
                "c".repeat(40),
                "d".repeat(40)
            )),
            "{section}"
        );
        assert_eq!(
            asked.0.lock().map(|a| a.clone()).unwrap_or_default(),
            ["actions/cache Some(\"v4\")", "actions/setup-node None"]
        );
    }
}
