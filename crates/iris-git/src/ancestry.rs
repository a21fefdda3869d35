//! What a re-review asks of history: a revision's full id, whether one commit is in the
//! history of another, and a file's text as a commit has it.

use crate::{GitRepo, Result, check_relative_path};

impl GitRepo {
    /// The full id of the commit `rev` names.
    pub fn commit_id(&self, rev: &str) -> Result<String> {
        Ok(self.resolve_commit(rev)?.id().to_string())
    }

    /// Whether `ancestor` is `rev` itself or in its history (a force-push that dropped it
    /// answers no).
    pub fn is_ancestor(&self, ancestor: &str, rev: &str) -> Result<bool> {
        let (ancestor, rev) = (
            self.resolve_commit(ancestor)?.id(),
            self.resolve_commit(rev)?.id(),
        );
        Ok(ancestor == rev || self.repo.graph_descendant_of(rev, ancestor)?)
    }

    /// The text of `path` (relative to the root) as commit `rev` has it, or `None` when the
    /// commit has no such file or it is binary.
    pub fn text_at(&self, rev: &str, path: &str) -> Result<Option<String>> {
        let clean = check_relative_path(path)?;
        let tree = self.resolve_commit(rev)?.tree()?;
        let Ok(entry) = tree.get_path(&clean) else {
            return Ok(None);
        };
        let Ok(blob) = self.repo.find_blob(entry.id()) else {
            return Ok(None);
        };
        if blob.is_binary() {
            return Ok(None);
        }
        Ok(Some(String::from_utf8_lossy(blob.content()).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use crate::GitRepo;
    use iris_studio_testkit::TestRepo;

    #[test]
    fn ancestry_and_text_at_a_commit() {
        let repo = TestRepo::new();
        repo.write("a.txt", "one\n");
        let first = repo.commit_all("one").trim().to_string();
        repo.write("a.txt", "two\n");
        repo.commit_all("two");
        let git = GitRepo::discover(&repo.path()).expect("repo");
        let first = git.commit_id(&first).expect("id");
        assert_eq!(git.commit_id("HEAD~1").expect("id"), first);
        assert!(git.is_ancestor(&first, "HEAD").expect("ancestry"));
        assert!(git.is_ancestor("HEAD", "HEAD").expect("itself"));
        assert!(!git.is_ancestor("HEAD", &first).expect("not back"));
        assert_eq!(
            git.text_at(&first, "a.txt").expect("text").as_deref(),
            Some("one\n")
        );
        assert_eq!(git.text_at("HEAD", "gone.txt").expect("none"), None);
    }
}
