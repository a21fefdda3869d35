//! `iris reword`: new messages for commits already made, and nothing else. Every tree, author,
//! author date and parent order stays; each commit from the first reworded one up to HEAD is
//! made again on its new parents through `git commit-tree` (so the user's identity and
//! `commit.gpgsign` apply), with the committer date of now, as git's own rebase sets it. The
//! working tree and the index are never touched: HEAD's tree is the same before and after.
//!
//! Where HEAD was is saved under [`BEFORE_REF`] (and the reword's result under [`TOP_REF`])
//! before the branch moves, so `iris reword --undo` puts it back.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

use git2::{Commit, Oid, Sort};

use super::git_command::Git;
use super::info::short_id;
use super::{GitError, GitRepo, Result, lossy};

/// Where HEAD was before the last reword.
const BEFORE_REF: &str = "refs/iris/reword/before";
/// Where the last reword left HEAD.
const TOP_REF: &str = "refs/iris/reword/top";

/// A commit a reword may give a new message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewordCommit {
    /// The commit's full id.
    pub id: String,
    /// Its id shortened as git shows it.
    pub short_id: String,
    /// Its message as recorded.
    pub message: String,
    /// A merge keeps its message: only the commits of one change are written anew.
    pub merge: bool,
}

/// What a reword did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reworded {
    /// Commits given a new message.
    pub reworded: usize,
    /// Commits made again (the reworded ones and every one after them up to HEAD).
    pub rewritten: usize,
    /// The commit HEAD is at now.
    pub head: String,
    /// Short ids of signed commits made again without a signature (`commit.gpgsign` is off).
    pub unsigned: Vec<String>,
}

impl Reworded {
    /// The warning about signed commits made again without a signature, when there are any.
    pub fn unsigned_warning(&self) -> Option<String> {
        let one = self.unsigned.len() == 1;
        (!self.unsigned.is_empty()).then(|| {
            format!(
                "{} {} signed; commit.gpgsign is off, so the new commit{} {} not (set it to sign \
                 them again)",
                self.unsigned.join(", "),
                if one { "was" } else { "were" },
                if one { "" } else { "s" },
                if one { "is" } else { "are" },
            )
        })
    }
}

impl GitRepo {
    /// The commits `range` names, oldest first: one revision, or `A..B` (what B has and A
    /// has not). Refused, naming why, unless every commit is on HEAD's history and has a
    /// parent, and A is an ancestor of B.
    pub fn reword_range(&self, range: &str) -> Result<Vec<RewordCommit>> {
        let repo = &self.repo;
        self.no_operation_in_progress()?;
        let head = self
            .head_commit()?
            .ok_or_else(|| GitError::Unsupported("the repository has no commits yet".into()))?
            .id();
        let on_head = |id: Oid| id == head || repo.graph_descendant_of(head, id).unwrap_or(false);
        let ids: Vec<Oid> = match range.split_once("..") {
            Some((from, to)) => {
                if to.starts_with('.') {
                    return Err(GitError::Unsupported(format!(
                        "'{range}': a symmetric difference (A...B) is no line of history; use \
                         A..B"
                    )));
                }
                let to = if to.is_empty() { "HEAD" } else { to };
                let from = self.resolve_commit(from)?.id();
                let to = self.resolve_commit(to)?.id();
                if !on_head(to) {
                    return Err(not_on_head(range));
                }
                if from != to && !repo.graph_descendant_of(to, from)? {
                    return Err(GitError::Unsupported(format!(
                        "'{range}' is not a line of history: its start is not an ancestor of \
                         its end"
                    )));
                }
                let mut walk = repo.revwalk()?;
                walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
                walk.push(to)?;
                walk.hide(from)?;
                walk.collect::<std::result::Result<Vec<_>, _>>()?
            }
            None => {
                let id = self.resolve_commit(range)?.id();
                if !on_head(id) {
                    return Err(not_on_head(range));
                }
                vec![id]
            }
        };
        if ids.is_empty() {
            return Err(GitError::Unsupported(format!(
                "'{range}' names no commit to reword"
            )));
        }
        ids.into_iter()
            .map(|id| {
                let commit = repo.find_commit(id)?;
                if commit.parent_count() == 0 {
                    return Err(GitError::Unsupported(format!(
                        "{} is the root commit: it has no parent to write its change against; \
                         leave it out of the range",
                        short_id(&id)
                    )));
                }
                Ok(RewordCommit {
                    id: id.to_string(),
                    short_id: short_id(&id),
                    message: lossy(commit.message_bytes()),
                    merge: commit.parent_count() > 1,
                })
            })
            .collect()
    }

    /// Which of `ids` a remote-tracking branch already has, each with the first such branch:
    /// rewriting them would fork the history others have.
    pub fn published(&self, ids: &[String]) -> Result<Vec<(String, String)>> {
        let repo = &self.repo;
        let mut remotes: Vec<(String, Oid)> = Vec::new();
        for reference in repo.references_glob("refs/remotes/*")? {
            let reference = reference?;
            if let (Ok(name), Ok(commit)) = (reference.shorthand(), reference.peel_to_commit()) {
                remotes.push((name.to_string(), commit.id()));
            }
        }
        let mut found = Vec::new();
        for id in ids {
            let oid = self
                .oid(id)
                .map_err(|_| GitError::UnknownRevision(id.clone()))?;
            let holder = remotes.iter().find(|(_, tip)| {
                *tip == oid || repo.graph_descendant_of(*tip, oid).unwrap_or(false)
            });
            if let Some((name, _)) = holder {
                found.push((short_id(&oid), name.clone()));
            }
        }
        Ok(found)
    }

    /// Refuses, naming them and the remote branch, when a remote-tracking branch has any of
    /// `ids`: rewriting them would fork the history others have. `anyway` says how to go on
    /// regardless.
    pub fn refuse_published(&self, ids: &[String], anyway: &str) -> Result<()> {
        let published = self.published(ids)?;
        let Some((_, branch)) = published.first() else {
            return Ok(());
        };
        let named: Vec<&str> = published.iter().map(|(id, _)| id.as_str()).collect();
        let which = match named.as_slice() {
            [one] => format!("{one} is"),
            many => format!("{} are", many.join(", ")),
        };
        Err(GitError::Unsupported(format!(
            "{which} already on {branch}: rewriting would fork the history others have; {anyway}"
        )))
    }

    /// Gives each commit of `messages` (full id, new message) its new message and makes every
    /// commit after it again on its new parents, then moves the branch (or a detached HEAD)
    /// to the new tip. Nothing moves when it fails or `interrupted` is set first.
    pub fn reword(
        &self,
        messages: &[(String, String)],
        interrupted: Option<&AtomicBool>,
    ) -> Result<Reworded> {
        let repo = &self.repo;
        self.no_operation_in_progress()?;
        let tip = self
            .head_commit()?
            .ok_or_else(|| GitError::Unsupported("the repository has no commits yet".into()))?
            .id();
        let mut new_message: HashMap<Oid, &str> = HashMap::new();
        for (id, message) in messages {
            let oid = self
                .oid(id)
                .map_err(|_| GitError::UnknownRevision(id.clone()))?;
            if oid != tip && !repo.graph_descendant_of(tip, oid)? {
                return Err(not_on_head(id));
            }
            new_message.insert(oid, message.as_str());
        }
        let mut walk = repo.revwalk()?;
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
        walk.push(tip)?;
        // The walk stops below the oldest reworded commits: a parent is hidden unless another
        // reworded commit is it or lies below it (then it is made again too).
        let targets: Vec<Oid> = new_message.keys().copied().collect();
        for id in &targets {
            for parent in repo.find_commit(*id)?.parent_ids() {
                let above_another = targets
                    .iter()
                    .any(|t| *t == parent || repo.graph_descendant_of(parent, *t).unwrap_or(false));
                if !above_another {
                    walk.hide(parent)?;
                }
            }
        }
        let sign = repo.config()?.get_bool("commit.gpgsign").unwrap_or(false);
        let mut made: HashMap<Oid, Oid> = HashMap::new();
        let mut changed: HashSet<Oid> = HashSet::new();
        let mut unsigned = Vec::new();
        for id in walk {
            let id = id?;
            if interrupted.is_some_and(|i| i.load(Ordering::SeqCst)) {
                return Err(GitError::Unsupported(
                    "interrupted: nothing was changed (the branch is where it was)".into(),
                ));
            }
            let commit = repo.find_commit(id)?;
            let parents: Vec<Oid> = commit
                .parent_ids()
                .map(|p| made.get(&p).copied().unwrap_or(p))
                .collect();
            let message = new_message.get(&id).copied();
            if message.is_none() && !commit.parent_ids().any(|p| changed.contains(&p)) {
                continue;
            }
            if !sign && commit.header_field_bytes("gpgsig").is_ok() {
                unsigned.push(short_id(&id));
            }
            let again = self.commit_again(&commit, &parents, message, sign)?;
            made.insert(id, again);
            changed.insert(id);
        }
        let new_tip = made.get(&tip).copied().unwrap_or(tip);
        repo.reference(BEFORE_REF, tip, true, "iris reword: where HEAD was")?;
        repo.reference(TOP_REF, new_tip, true, "iris reword: where it left HEAD")?;
        self.move_head(tip, new_tip, "iris reword")?;
        Ok(Reworded {
            reworded: new_message.len(),
            rewritten: made.len(),
            head: new_tip.to_string(),
            unsigned,
        })
    }

    /// Puts HEAD back where the last reword found it, when HEAD is still where it left it.
    /// Returns the commit HEAD is at again.
    pub fn undo_reword(&self) -> Result<String> {
        let repo = &self.repo;
        let target = |name: &str| repo.find_reference(name).ok().and_then(|r| r.target());
        let (Some(before), Some(top)) = (target(BEFORE_REF), target(TOP_REF)) else {
            return Err(GitError::Unsupported("there is no reword to undo".into()));
        };
        let head = self.head_commit()?.map(|c| c.id());
        if head != Some(top) {
            return Err(GitError::Unsupported(format!(
                "HEAD moved since the reword (it is at {}, the reword left it at {}): undoing \
                 would drop what came since, so nothing was changed",
                head.map(|h| short_id(&h))
                    .unwrap_or_else(|| "no commit".into()),
                short_id(&top)
            )));
        }
        self.move_head(top, before, "iris reword --undo")?;
        for name in [BEFORE_REF, TOP_REF] {
            if let Ok(mut reference) = repo.find_reference(name) {
                reference.delete()?;
            }
        }
        Ok(before.to_string())
    }

    /// Moves HEAD's branch (or a detached HEAD) from `from` to `to`, refusing when it moved.
    fn move_head(&self, from: Oid, to: Oid, why: &str) -> Result<()> {
        let repo = &self.repo;
        let head = repo.head()?;
        if head.is_branch() {
            let name = head
                .name()
                .map_err(|_| GitError::Unsupported("HEAD's branch name is not UTF-8".into()))?
                .to_string();
            repo.reference_matching(&name, to, true, from, why)?;
        } else {
            repo.set_head_detached(to)?;
        }
        Ok(())
    }

    /// `commit` made again on `parents`, with `message` instead of its own when given: its
    /// tree, author and author date as they were; the committer and signing as git sets them
    /// (in the foreground: signing may ask for a passphrase on the terminal).
    fn commit_again(
        &self,
        commit: &Commit<'_>,
        parents: &[Oid],
        message: Option<&str>,
        sign: bool,
    ) -> Result<Oid> {
        let author = commit.author();
        let when = author.when();
        let offset = when.offset_minutes();
        let date = format!(
            "@{} {}{:02}{:02}",
            when.seconds(),
            if offset < 0 { '-' } else { '+' },
            offset.abs() / 60,
            offset.abs() % 60
        );
        let mut git = Git::foreground()?;
        git.arg("-C")
            .arg(self.root())
            .args(["commit-tree", &commit.tree_id().to_string()]);
        for parent in parents {
            git.args(["-p", &parent.to_string()]);
        }
        if sign {
            git.arg("-S");
        }
        git.args(["-F", "-"])
            .env("GIT_AUTHOR_NAME", lossy(author.name_bytes()))
            .env("GIT_AUTHOR_EMAIL", lossy(author.email_bytes()))
            .env("GIT_AUTHOR_DATE", date);
        let text: Vec<u8> = match message {
            Some(message) => {
                let clean = iris_studio_core::controls::strip(message.trim());
                format!("{clean}\n").into_bytes()
            }
            None => commit.message_raw_bytes().to_vec(),
        };
        let ran = git.output_with(&text)?;
        if !ran.success() {
            return Err(GitError::Unsupported(format!(
                "git commit-tree failed for {} (nothing was changed): {}",
                short_id(&commit.id()),
                ran.stderr().trim()
            )));
        }
        let id = ran.stdout().trim().to_string();
        self.oid(&id).map_err(|_| {
            GitError::Unsupported(format!("git commit-tree printed no commit id: {id}"))
        })
    }
}

fn not_on_head(what: &str) -> GitError {
    GitError::Unsupported(format!(
        "'{what}' is not on HEAD's history: only the commits of the branch checked out can be \
         reworded"
    ))
}

#[cfg(test)]
mod tests {
    use super::Reworded;

    #[test]
    fn the_unsigned_warning_names_the_commits_and_agrees_in_number() {
        let done = |unsigned: &[&str]| Reworded {
            reworded: 1,
            rewritten: 2,
            head: "abc".into(),
            unsigned: unsigned.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(done(&[]).unsigned_warning(), None);
        assert_eq!(
            done(&["a1b2c3d"]).unsigned_warning().as_deref(),
            Some(
                "a1b2c3d was signed; commit.gpgsign is off, so the new commit is not (set it to \
                 sign them again)"
            )
        );
        let two = done(&["a1", "b2"]).unsigned_warning().unwrap_or_default();
        assert!(two.starts_with("a1, b2 were signed") && two.contains("new commits are not"));
    }
}
