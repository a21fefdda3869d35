//! Accepted as written, the store: every message Iris writes for a change (`iris gen`, the
//! hook, the studio) is remembered under `.git/iris/accepted.jsonl` with the change it was
//! written for, so `iris eval --accepted` can later say how much of it was committed as
//! written. Nothing of it leaves the machine; `iris eval --accepted --clear` forgets it.
//!
//! Remembering never fails a command: a store that cannot be written is only traced.

use std::io::Write;

use anyhow::{Context, Result};

use super::{ChangeKey, IrisDir};
use iris_studio_core::eval::{AcceptedReport, Committed, Remembered, accepted_report};
use iris_studio_git::GitRepo;

/// Messages kept: the oldest go first.
const KEEP: usize = 1_000;
/// Commits looked at for a match.
const SCAN: usize = 2_000;

/// Remembers that Iris wrote `written` for `change` in `stores`; `source` says what wrote
/// it: `gen`, `mcp` or `studio`.
pub fn remember(stores: &IrisDir, change: &ChangeKey, written: &str, source: &str) {
    if let Err(err) = try_remember(stores, change, written, source) {
        tracing::debug!("the written message was not remembered: {err:#}");
    }
}

fn try_remember(stores: &IrisDir, change: &ChangeKey, written: &str, source: &str) -> Result<()> {
    let entry = Remembered {
        parent: change.parent.clone(),
        tree: change.tree.clone(),
        written: written.to_string(),
        source: source.to_string(),
        at: super::now(),
    };
    let path = stores.accepted();
    std::fs::create_dir_all(path.parent().unwrap_or(&path))?;
    let mut entries = load_from(&path);
    if entries.len() >= KEEP {
        // Rewritten without the oldest, so the file stays bounded.
        entries.drain(..=entries.len() - KEEP);
        entries.push(entry);
        let lines: Vec<String> = entries
            .iter()
            .filter_map(|e| serde_json::to_string(e).ok())
            .collect();
        let tmp = path.with_extension("jsonl.tmp");
        std::fs::write(&tmp, lines.join("\n") + "\n")?;
        std::fs::rename(&tmp, &path)?;
    } else {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)?;
        writeln!(file, "{}", serde_json::to_string(&entry)?)?;
    }
    Ok(())
}

/// The messages remembered, oldest first; lines that do not read are skipped.
fn load_from(path: &std::path::Path) -> Vec<Remembered> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The report over the last `last` commits of HEAD (in `repo`, whose stores are `stores`)
/// that commit a change Iris wrote for.
pub fn report(repo: &GitRepo, stores: &IrisDir, last: usize) -> Result<AcceptedReport> {
    let remembered = load_from(&stores.accepted());
    let commits: Vec<Committed> = repo
        .log(SCAN)?
        .into_iter()
        .filter(|c| c.parent_count <= 1)
        .map(|c| {
            let (parent, tree) = repo.change_of(&c.id)?;
            Ok(Committed {
                id: c.id,
                parent,
                tree,
                message: c.message,
            })
        })
        .collect::<Result<_>>()?;
    Ok(accepted_report(&commits, &remembered, last))
}

/// Forgets every message remembered; says whether there were any.
pub fn clear(stores: &IrisDir) -> Result<bool> {
    let path = stores.accepted();
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_testkit::TestRepo;

    #[test]
    fn remembers_what_was_written_and_matches_it_with_the_commit() {
        let test = TestRepo::new();
        test.write("a.txt", "one\n");
        test.commit_all("first");
        test.write("a.txt", "two\n");
        test.git(&["add", "a.txt"]);
        let repo = GitRepo::discover(&test.path()).unwrap();
        let stores = IrisDir::of(&repo.state_dir());
        let staged = ChangeKey::staged(&repo, false).unwrap();
        remember(&stores, &staged, "Change a to two", "gen");
        test.git(&["commit", "-q", "-m", "Change a to two, by hand"]);
        let report = report(&repo, &stores, 20).unwrap();
        assert_eq!(report.rows.len(), 1);
        assert!(!report.rows[0].unedited);
        assert!(clear(&stores).unwrap());
        assert!(!clear(&stores).unwrap());
        assert!(super::report(&repo, &stores, 20).unwrap().rows.is_empty());
    }

    #[test]
    fn the_store_stays_bounded() {
        let test = TestRepo::new();
        test.write("a.txt", "one\n");
        test.commit_all("first");
        let repo = GitRepo::discover(&test.path()).unwrap();
        let stores = IrisDir::of(&repo.state_dir());
        let staged = ChangeKey::staged(&repo, false).unwrap();
        for i in 0..KEEP + 5 {
            remember(&stores, &staged, &format!("message {i}"), "gen");
        }
        let kept = load_from(&stores.accepted());
        assert_eq!(kept.len(), KEEP);
        // The oldest five went; the rest are kept in order, the newest last.
        let written: Vec<&str> = kept.iter().map(|e| e.written.as_str()).collect();
        let expected: Vec<String> = (5..KEEP + 5).map(|i| format!("message {i}")).collect();
        assert_eq!(written, expected);
    }
}
