//! What reviews remember, the stores: the findings the user dismissed (`.git/iris/
//! review-memory.toml`), those the team dismissed (`.iris/review-memory.toml` at the
//! repository's root, a file the team commits and CI reads), and the last review's findings
//! (`.git/iris/review-findings.json`), so `iris review --dismiss ID` knows what ID names.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::IrisDir;
use iris_studio_core::artifact::review::memory::{Dismissal, Seen};

/// The team's file, relative to the repository's root.
pub const TEAM_FILE: &str = ".iris/review-memory.toml";

/// Which store a dismissal is kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keeper {
    /// The user's, in `.git/iris/`.
    User,
    /// The team's, committed in the repository.
    Team,
}

impl Keeper {
    /// How the store is named to the user.
    pub fn name(self) -> &'static str {
        match self {
            Keeper::User => "yours (.git/iris/review-memory.toml)",
            Keeper::Team => "the team's (.iris/review-memory.toml)",
        }
    }
}

/// The two stores of a repository.
#[derive(Debug, Clone)]
pub struct ReviewMemory {
    user: PathBuf,
    team: PathBuf,
    seen: PathBuf,
}

/// A memory file: its dismissals, oldest first.
#[derive(Debug, Default, Serialize, Deserialize)]
struct MemoryFile {
    #[serde(default)]
    dismissed: Vec<Dismissal>,
}

impl ReviewMemory {
    /// The stores of the repository at `root` with `stores` as its `.git/iris/`.
    pub fn of(root: &Path, stores: &IrisDir) -> Self {
        Self {
            user: stores.review_memory(),
            team: root.join(TEAM_FILE),
            seen: stores.review_findings(),
        }
    }

    /// The file of `keeper`.
    pub fn path(&self, keeper: Keeper) -> &Path {
        match keeper {
            Keeper::User => &self.user,
            Keeper::Team => &self.team,
        }
    }

    /// The dismissals `keeper` keeps (none when its file does not exist).
    pub fn dismissals(&self, keeper: Keeper) -> Result<Vec<Dismissal>> {
        let path = self.path(keeper);
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(err) => {
                return Err(err).with_context(|| format!("cannot read {}", path.display()));
            }
        };
        let file: MemoryFile = toml::from_str(&text).with_context(|| {
            format!(
                "{} is not a review memory (fix or remove it): expected [[dismissed]] tables",
                path.display()
            )
        })?;
        Ok(file.dismissed)
    }

    /// Every dismissal, the user's then the team's.
    pub fn all(&self) -> Result<Vec<Dismissal>> {
        let mut all = self.dismissals(Keeper::User)?;
        all.extend(self.dismissals(Keeper::Team)?);
        Ok(all)
    }

    fn save(&self, keeper: Keeper, dismissed: Vec<Dismissal>) -> Result<()> {
        let path = self.path(keeper);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut text = String::from(
            "# Review findings dismissed, read by `iris review` (see `iris review --dismissed`).\n\n",
        );
        text.push_str(&toml::to_string(&MemoryFile { dismissed })?);
        let tmp = path.with_extension("toml.tmp");
        std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Keeps `dismissal` in `keeper`'s store, in place of one with the same id.
    pub fn dismiss(&self, keeper: Keeper, dismissal: Dismissal) -> Result<()> {
        let mut dismissed = self.dismissals(keeper)?;
        dismissed.retain(|d| d.id != dismissal.id);
        dismissed.push(dismissal);
        self.save(keeper, dismissed)
    }

    /// Dismisses the finding `id` of the last review in `keeper`'s store, for `reason` (may
    /// be empty): what is said of it (`dismissed ID "Title" in FILE: kept in yours (...)`), or
    /// `None` when the last review had no finding `id`.
    pub fn dismiss_seen(&self, keeper: Keeper, id: &str, reason: &str) -> Result<Option<String>> {
        let id = id.trim().to_ascii_lowercase();
        let Some(seen) = self.seen(&id) else {
            return Ok(None);
        };
        let dismissal = Dismissal::of(seen, reason, &iris_studio_git::utc_date(super::now()));
        let said = format!(
            "dismissed {id} \"{}\" in {}: kept in {}",
            dismissal.title,
            dismissal.file,
            keeper.name()
        );
        self.dismiss(keeper, dismissal)?;
        Ok(Some(said))
    }

    /// Takes the dismissal `id` out of `keeper`'s store; whether it was there.
    pub fn undismiss(&self, keeper: Keeper, id: &str) -> Result<bool> {
        let mut dismissed = self.dismissals(keeper)?;
        let before = dismissed.len();
        dismissed.retain(|d| d.id != id);
        if dismissed.len() == before {
            return Ok(false);
        }
        self.save(keeper, dismissed)?;
        Ok(true)
    }

    /// Remembers the last review's findings; a failure is only traced (it never fails a
    /// review).
    pub fn remember_seen(&self, seen: &[Seen]) {
        let written = self
            .seen
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(anyhow::Error::from)
            .and_then(|()| Ok(serde_json::to_string_pretty(seen)?))
            .and_then(|text| Ok(std::fs::write(&self.seen, text)?));
        if let Err(err) = written {
            tracing::debug!("the review's findings were not remembered: {err:#}");
        }
    }

    /// The finding `id` of the last review, if it had one.
    pub fn seen(&self, id: &str) -> Option<Seen> {
        let text = std::fs::read_to_string(&self.seen).ok()?;
        let seen: Vec<Seen> = serde_json::from_str(&text).ok()?;
        seen.into_iter().find(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dismissal(id: &str) -> Dismissal {
        Dismissal {
            id: id.into(),
            file: "src/a.rs".into(),
            quote: Some("a.unwrap()".into()),
            title: "Unwrap".into(),
            reason: "tests may panic".into(),
            date: "2026-01-01".into(),
            ..Dismissal::default()
        }
    }

    #[test]
    fn dismissals_are_kept_replaced_and_taken_back_per_store() {
        let dir = tempfile::tempdir().ok();
        let root = dir.as_ref().map_or(Path::new("/nonexistent"), |d| d.path());
        let memory = ReviewMemory::of(root, &IrisDir::of(&root.join(".git")));
        assert!(memory.all().is_ok_and(|all| all.is_empty()));
        assert!(memory.dismiss(Keeper::User, dismissal("a1")).is_ok());
        assert!(memory.dismiss(Keeper::User, dismissal("a1")).is_ok());
        assert!(memory.dismiss(Keeper::Team, dismissal("b2")).is_ok());
        assert!(root.join(TEAM_FILE).is_file());
        let ids: Vec<String> = memory
            .all()
            .unwrap_or_default()
            .into_iter()
            .map(|d| d.id)
            .collect();
        assert_eq!(ids, ["a1", "b2"]);
        assert!(memory.undismiss(Keeper::User, "b2").is_ok_and(|was| !was));
        assert!(memory.undismiss(Keeper::Team, "b2").is_ok_and(|was| was));
        assert_eq!(memory.all().map(|a| a.len()).ok(), Some(1));
        let seen = [Seen {
            id: "c3".into(),
            file: "src/a.rs".into(),
            quote: None,
            title: "T".into(),
            ..Seen::default()
        }];
        memory.remember_seen(&seen);
        assert_eq!(memory.seen("c3").map(|s| s.title), Some("T".into()));
        assert!(memory.seen("zz").is_none());
    }

    #[test]
    fn a_finding_of_the_last_review_is_dismissed_by_its_id() {
        let dir = tempfile::tempdir().ok();
        let root = dir.as_ref().map_or(Path::new("/nonexistent"), |d| d.path());
        let memory = ReviewMemory::of(root, &IrisDir::of(&root.join(".git")));
        memory.remember_seen(&[Seen {
            id: "c3".into(),
            file: "src/a.rs".into(),
            quote: Some("a.unwrap()".into()),
            title: "Unwrap".into(),
            ..Seen::default()
        }]);
        assert!(
            memory
                .dismiss_seen(Keeper::Team, "zz", "")
                .is_ok_and(|s| s.is_none())
        );
        let said = memory.dismiss_seen(Keeper::Team, " C3 ", " intended ");
        assert_eq!(
            said.ok().flatten().as_deref(),
            Some(
                "dismissed c3 \"Unwrap\" in src/a.rs: kept in the team's \
                 (.iris/review-memory.toml)"
            )
        );
        let kept = memory.dismissals(Keeper::Team).unwrap_or_default();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            (kept[0].quote.as_deref(), kept[0].reason.as_str()),
            (Some("a.unwrap()"), "intended")
        );
        assert_eq!(kept[0].date.len(), 10);
    }

    #[test]
    fn a_broken_file_is_named_in_the_error() {
        let dir = tempfile::tempdir().ok();
        let root = dir.as_ref().map_or(Path::new("/nonexistent"), |d| d.path());
        let memory = ReviewMemory::of(root, &IrisDir::of(&root.join(".git")));
        let _ = std::fs::create_dir_all(root.join(".iris"));
        let _ = std::fs::write(root.join(TEAM_FILE), "dismissed = 3\n");
        let err = memory
            .all()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("review-memory.toml is not a review memory"),
            "{err}"
        );
    }
}
