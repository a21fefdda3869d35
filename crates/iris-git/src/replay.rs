//! Replaying history (`iris eval`): a throwaway repository that shows one commit of the
//! user's repository as a staged change over its parent, and the facts eval and the
//! accepted-as-written log match commits by.
//!
//! The replay borrows the user's objects (read-only, through `objects/info/alternates`) and
//! has one ref of its own: the branch at the commit's parent. So whatever reads it (the
//! evidence, every tool, the history of commit messages, `git` itself) sees the repository as
//! it was before the commit; no ref leads to the commit or anything after it. The user's
//! working tree, index, HEAD, refs and stash are never touched: the replay writes only in its
//! own temporary directory, which goes when it is dropped.

use std::path::{Path, PathBuf};

use git2::{Repository, build::CheckoutBuilder};

use super::{GitError, GitRepo, Result};

/// A temporary repository showing one commit at a time as staged over its parent.
pub struct Replay {
    dir: tempfile::TempDir,
    repo: Repository,
    branch: String,
}

/// The prefix of a replay's temporary directory.
pub const REPLAY_PREFIX: &str = "iris-eval-";

impl Replay {
    /// An empty replay of `source`, with its branch named `branch` (the user's default
    /// branch reads naturally; it must be a valid branch name).
    pub fn new(source: &GitRepo, branch: &str) -> Result<Self> {
        let io = |context: &str| {
            let context = context.to_string();
            move |source| GitError::Io { context, source }
        };
        let dir = tempfile::Builder::new()
            .prefix(REPLAY_PREFIX)
            .tempdir()
            .map_err(io("cannot create a temporary directory for the replay"))?;
        let init = Repository::init(dir.path())?;
        // No reflog: the branch's earlier positions are later commits of the history.
        init.config()?.set_bool("core.logAllRefUpdates", false)?;
        let alternates = init.path().join("objects").join("info").join("alternates");
        let objects = source.objects_dir();
        std::fs::write(&alternates, format!("{}\n", objects.display()))
            .map_err(io("cannot link the replay to the repository's objects"))?;
        drop(init);
        let repo = Repository::open(dir.path())?;
        if !git2::Reference::is_valid_name(&format!("refs/heads/{branch}")) {
            return Err(GitError::Unsupported(format!(
                "'{branch}' is not a valid branch name"
            )));
        }
        Ok(Self {
            dir,
            repo,
            branch: branch.to_string(),
        })
    }

    /// Where the replay's working tree is.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Shows commit `id` (a full id) as staged: the branch and HEAD at its first parent,
    /// the index and the working tree at the commit.
    pub fn stage(&self, id: &str) -> Result<()> {
        let oid = crate::parse_oid(&self.repo, id)
            .map_err(|_| GitError::UnknownRevision(id.to_string()))?;
        let commit = self.repo.find_commit(oid)?;
        let parent = commit.parent(0).map_err(|_| {
            GitError::Unsupported(format!("commit {id} has no parent to replay it on"))
        })?;
        let branch = format!("refs/heads/{}", self.branch);
        self.repo
            .reference(&branch, parent.id(), true, "iris eval: replay")?;
        self.repo.set_head(&branch)?;
        // Whatever logged the move anyway: an earlier position (HEAD@{1}) would be the commit
        // replayed before, which comes after this one in the history.
        for name in [branch.as_str(), "HEAD"] {
            if self.repo.reflog(name).is_ok_and(|log| !log.is_empty()) {
                self.repo.reflog_delete(name)?;
            }
        }
        // The commit's author is the one committing: the sample prefers their messages.
        let author = commit.author();
        let mut config = self.repo.config()?.open_level(git2::ConfigLevel::Local)?;
        config.set_str("user.name", &String::from_utf8_lossy(author.name_bytes()))?;
        config.set_str("user.email", &String::from_utf8_lossy(author.email_bytes()))?;
        let mut checkout = CheckoutBuilder::new();
        checkout.force().remove_untracked(true);
        self.repo
            .checkout_tree(commit.tree()?.as_object(), Some(&mut checkout))?;
        Ok(())
    }
}

/// A commit's change in size: the files and lines it changes against its first parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeSize {
    /// Files changed.
    pub files: usize,
    /// Lines added plus lines removed.
    pub lines: usize,
}

impl GitRepo {
    /// The objects directory, shared by every worktree of the repository.
    fn objects_dir(&self) -> PathBuf {
        self.repo.commondir().join("objects")
    }

    /// What commit `id` changes against its first parent (against nothing for a root).
    pub fn change_size(&self, id: &str) -> Result<ChangeSize> {
        let stats = self.first_parent_diff(&self.resolve_commit(id)?)?.stats()?;
        Ok(ChangeSize {
            files: stats.files_changed(),
            lines: stats.insertions() + stats.deletions(),
        })
    }

    /// Whether this is a shallow clone: its oldest commits show no parents.
    pub fn is_shallow(&self) -> bool {
        self.repo.is_shallow()
    }

    /// The commit `rev`'s first parent (`None` for a root commit) and its tree: the change it
    /// commits, as the accepted-as-written log knows it.
    pub fn change_of(&self, rev: &str) -> Result<(Option<String>, String)> {
        let commit = self.resolve_commit(rev)?;
        let parent = commit.parent_id(0).ok().map(|id| id.to_string());
        Ok((parent, commit.tree_id().to_string()))
    }

    /// The change the index holds: the commit it goes on (HEAD, or HEAD's first parent when
    /// `amend`ing; `None` before the first commit) and the tree it makes. Writes the
    /// index's tree objects, as `git commit` is about to.
    pub fn staged_change(&self, amend: bool) -> Result<(Option<String>, String)> {
        let head = self.head_commit()?;
        let parent = match (head, amend) {
            (Some(head), false) => Some(head.id().to_string()),
            (Some(head), true) => head.parent_id(0).ok().map(|id| id.to_string()),
            (None, _) => None,
        };
        let tree = self.repo.index()?.write_tree()?;
        Ok((parent, tree.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_testkit::TestRepo;

    fn git(dir: &Path, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// A history of four commits: add, modify and delete, rename.
    fn history() -> TestRepo {
        let repo = TestRepo::new();
        repo.write("a.txt", "one\n");
        repo.write("b.txt", "bee\n");
        repo.commit_all("first");
        repo.write("a.txt", "one\ntwo\n");
        repo.write("c.txt", "sea\n");
        repo.commit_all("second");
        std::fs::remove_file(repo.path().join("b.txt")).unwrap();
        repo.commit_all("third");
        repo.git(&["mv", "c.txt", "d.txt"]);
        repo.commit_all("fourth");
        repo
    }

    #[test]
    fn a_replayed_commit_is_staged_over_its_parent_as_git_sees_it() {
        let repo = history();
        let source = GitRepo::discover(&repo.path()).unwrap();
        let replay = Replay::new(&source, "main").unwrap();
        for rev in ["HEAD~2", "HEAD~1", "HEAD", "HEAD~2"] {
            let id = git(&repo.path(), &["rev-parse", rev]).trim().to_string();
            replay.stage(&id).unwrap();
            let staged = git(replay.root(), &["diff", "--cached", "--name-status", "-M"]);
            let committed = git(
                &repo.path(),
                &["diff", "--name-status", "-M", &format!("{id}^"), &id],
            );
            assert_eq!(staged, committed, "{rev}");
            // The commit's author is the one committing.
            assert_eq!(
                git(replay.root(), &["config", "user.name"]),
                git(&repo.path(), &["log", "-1", "--format=%an", &id])
            );
            // Nothing unstaged, nothing untracked.
            assert_eq!(
                git(replay.root(), &["status", "--porcelain"])
                    .lines()
                    .count(),
                committed.lines().count()
            );
            assert_eq!(git(replay.root(), &["diff", "--name-only"]), "");
            // The history ends at the parent; no ref leads further, nor a reflog entry.
            assert_eq!(git(replay.root(), &["reflog", "--all"]), "", "{rev}");
            let log = git(replay.root(), &["log", "--all", "--format=%s"]);
            let expected = git(&repo.path(), &["log", "--format=%s", &format!("{id}^")]);
            assert_eq!(log, expected, "{rev}");
        }
    }

    #[test]
    fn the_users_repository_is_left_as_it_was_and_the_replay_goes_when_dropped() {
        let repo = history();
        repo.write("a.txt", "edited\n");
        repo.git(&["add", "a.txt"]);
        repo.write("untracked.txt", "u\n");
        let before = (
            git(&repo.path(), &["status", "--porcelain"]),
            git(&repo.path(), &["for-each-ref"]),
            git(&repo.path(), &["rev-parse", "HEAD"]),
        );
        let source = GitRepo::discover(&repo.path()).unwrap();
        let replay = Replay::new(&source, "main").unwrap();
        let dir = replay.root().to_path_buf();
        replay
            .stage(git(&repo.path(), &["rev-parse", "HEAD~1"]).trim())
            .unwrap();
        drop(replay);
        assert!(!dir.exists());
        let after = (
            git(&repo.path(), &["status", "--porcelain"]),
            git(&repo.path(), &["for-each-ref"]),
            git(&repo.path(), &["rev-parse", "HEAD"]),
        );
        assert_eq!(before, after);
    }

    #[test]
    fn sizes_and_changes_of_commits() {
        let repo = history();
        let source = GitRepo::discover(&repo.path()).unwrap();
        assert_eq!(
            source.change_size("HEAD~2").unwrap(),
            ChangeSize { files: 2, lines: 2 }
        );
        let (parent, tree) = source.change_of("HEAD").unwrap();
        assert_eq!(
            parent.clone().unwrap(),
            git(&repo.path(), &["rev-parse", "HEAD~1"]).trim()
        );
        assert_eq!(
            tree,
            git(&repo.path(), &["rev-parse", "HEAD^{tree}"]).trim()
        );
        // The index as it stands is HEAD's change once more, on HEAD; amending, on HEAD~1.
        let head = git(&repo.path(), &["rev-parse", "HEAD"]).trim().to_string();
        assert_eq!(
            source.staged_change(false).unwrap(),
            (Some(head), tree.clone())
        );
        assert_eq!(source.staged_change(true).unwrap(), (parent, tree));
        // A shallow clone's oldest commit has a parent that is not there.
        let shallow = TestRepo::new();
        let url = format!("file://{}", repo.path().display());
        shallow.git(&["clone", "-q", "--depth", "1", &url, "clone"]);
        let clone = GitRepo::discover(&shallow.path().join("clone")).unwrap();
        assert!(clone.is_shallow());
        assert!(!source.is_shallow());
        assert_eq!(clone.commit_info("HEAD").unwrap().parent_count, 0);
        let err = Replay::new(&source, "bad..name").err().unwrap();
        assert!(err.to_string().contains("not a valid branch name"));
    }
}
