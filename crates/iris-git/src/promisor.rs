//! Partial clones (`git clone --filter=blob:none`, Scalar, many CI checkouts) leave out the
//! objects of older history and promise to fetch them on demand. libgit2 cannot fetch: a
//! missing blob makes a diff fail and a blame silently give every line to the newest commit.
//! So before libgit2 reads a history that may have holes, the objects it will need are fetched
//! the way git itself fetches them (one `git fetch` of the missing ids from the promisor
//! remote), and a fetch that fails is an error, never an answer from a history with holes.

use std::collections::BTreeSet;
use std::time::Duration;

use git2::{Diff, Oid};

use super::git_command::Git;
use super::{GitError, GitRepo, Result};

/// A fetch of missing objects may be large, but must not hang a run (a remote that never answers).
const FETCH_TIMEOUT: Duration = Duration::from_secs(300);

impl GitRepo {
    /// The remote a partial clone promises its missing objects from (`remote.NAME.promisor`,
    /// or the older `extensions.partialClone`); `None` in a whole repository.
    pub fn promisor_remote(&self) -> Option<&str> {
        self.promisor
            .get_or_init(|| promisor_of(&self.repo.config().ok()?))
            .as_deref()
    }

    /// Fetches those of `ids` this partial clone lacks, in one request; nothing in a whole
    /// repository.
    pub(crate) fn fill_holes(&self, ids: impl IntoIterator<Item = Oid>) -> Result<()> {
        let Some(remote) = self.promisor_remote() else {
            return Ok(());
        };
        let odb = self.repo.odb()?;
        let missing: BTreeSet<Oid> = ids
            .into_iter()
            .filter(|id| !id.is_zero() && !odb.exists(*id))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        fetch(self.repo.path(), remote, &missing).map_err(|why| {
            GitError::Unsupported(format!(
                "this is a partial clone: {} object(s) this answer needs are not here, and \
                 fetching them from '{remote}' failed: {why}",
                missing.len()
            ))
        })
    }

    /// [`Self::fill_holes`] for the blobs both sides of `diff` hold.
    pub(crate) fn fill_diff_holes(&self, diff: &Diff<'_>) -> Result<()> {
        if self.promisor_remote().is_none() {
            return Ok(());
        }
        let blobs = diff.deltas().flat_map(|d| {
            [d.old_file(), d.new_file()]
                .into_iter()
                .filter(|f| f.mode() != git2::FileMode::Commit)
                .map(|f| f.id())
        });
        self.fill_holes(blobs)
    }

    /// [`Self::fill_holes`] for every version of `path` in `newest`'s history (after `oldest`
    /// when given), which a blame of it reads. The versions are listed by git (`git log
    /// --raw`), which reads trees only.
    pub(crate) fn fill_history_holes(
        &self,
        path: &std::path::Path,
        newest: Oid,
        oldest: Option<Oid>,
    ) -> Result<()> {
        if self.promisor_remote().is_none() {
            return Ok(());
        }
        let ran = Git::plumbing()?
            .arg("--git-dir")
            .arg(self.repo.path())
            .args(["log", "--format=", "--raw", "--no-abbrev", "--no-renames"])
            .arg(newest.to_string())
            .args(oldest.map(|id| format!("^{id}")))
            .arg("--")
            .arg(path)
            .output()?;
        if !ran.success() {
            return Err(GitError::Unsupported(format!(
                "git log could not list the versions of '{}': {}",
                path.display(),
                ran.stderr().trim()
            )));
        }
        let text = ran.stdout();
        let format = self.repo.object_format();
        self.fill_holes(raw_blob_ids(&text).filter_map(|hex| Oid::from_str_ext(hex, format).ok()))
    }
}

/// The promisor remote a configuration names.
fn promisor_of(config: &git2::Config) -> Option<String> {
    let mut found = None;
    if let Ok(entries) = config.entries(Some(r"remote\..*\.promisor")) {
        entries
            .for_each(|entry| {
                if found.is_none()
                    && git2::Config::parse_bool(entry.value().unwrap_or_default()).unwrap_or(false)
                {
                    found = entry
                        .name()
                        .ok()
                        .and_then(|n| n.strip_prefix("remote."))
                        .and_then(|n| n.strip_suffix(".promisor"))
                        .map(str::to_string);
                }
            })
            .ok()?;
    }
    found.or_else(|| config.get_string("extensions.partialclone").ok())
}

/// The blob ids of `git log --raw` lines (`:100644 100644 OLD NEW M\tpath`), both sides.
fn raw_blob_ids(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter_map(|line| line.strip_prefix(':'))
        .flat_map(|line| {
            let mut fields = line.split_whitespace();
            let modes = (fields.next(), fields.next());
            let ids = (fields.next(), fields.next());
            match (modes, ids) {
                ((Some(old_mode), Some(new_mode)), (Some(old), Some(new))) => [
                    (old_mode != "160000").then_some(old),
                    (new_mode != "160000").then_some(new),
                ],
                _ => [None, None],
            }
        })
        .flatten()
}

/// What git runs to fetch a partial clone's missing objects (promisor-remote.c): the ids on
/// standard input, no negotiation, nothing written but the objects.
fn fetch(
    git_dir: &std::path::Path,
    remote: &str,
    ids: &BTreeSet<Oid>,
) -> std::result::Result<(), String> {
    let list: String = ids.iter().map(|id| format!("{id}\n")).collect();
    let ran = Git::plumbing()
        .map_err(|e| e.to_string())?
        .deadline(FETCH_TIMEOUT)
        .arg("--git-dir")
        .arg(git_dir)
        .args(["-c", "fetch.negotiationAlgorithm=noop", "fetch", remote])
        .args([
            "--no-tags",
            "--no-write-fetch-head",
            "--recurse-submodules=no",
        ])
        .args(["--filter=blob:none", "--stdin"])
        .output_with(list.as_bytes())
        .map_err(|e| match e {
            GitError::TimedOut { seconds, .. } => format!("git fetch took over {seconds} s"),
            e => e.to_string(),
        })?;
    if ran.success() {
        return Ok(());
    }
    let said = ran.stderr();
    Err(match said.trim() {
        "" => format!("git fetch ended with {}", ran.status),
        // git says the cause first ("fatal: ..."), then advice.
        said => said
            .lines()
            .find(|l| l.starts_with("fatal:") || l.starts_with("error:"))
            .unwrap_or(said)
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_lines_give_both_sides_but_not_gitlinks() {
        let text = ":100644 100644 aaa bbb M\tf.txt\n\n:000000 100644 000 ccc A\tg.txt\n:160000 160000 ddd eee M\tsub\n";
        let ids: Vec<&str> = raw_blob_ids(text).collect();
        assert_eq!(ids, ["aaa", "bbb", "000", "ccc"]);
    }
}
