//! The `.git/iris/` folder: everything Iris keeps in a repository, named in one place. It lives
//! in the git directory so it is never committed and goes away with the clone; in a jj
//! workspace it is `.jj/iris/` (jj's git store is jj's alone).

use std::path::{Path, PathBuf};

/// A repository's `.git/iris/` folder (of the linked worktree's own git directory).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IrisDir(PathBuf);

impl IrisDir {
    /// The folder inside `state_dir` (`GitRepo::state_dir`: the git directory, or `.jj`).
    pub fn of(state_dir: &Path) -> Self {
        Self(state_dir.join("iris"))
    }

    /// The folder itself: where a model's unreadable replies are saved for the user to read.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The studio's drafts, a file per artifact.
    pub fn drafts(&self) -> PathBuf {
        self.0.join("drafts")
    }

    /// Where a text waits for the user's editor (`COMMIT_EDITMSG`, `SPLIT_MSG`, ...).
    pub fn edit_file(&self, name: &str) -> PathBuf {
        self.0.join("edit").join(name)
    }

    /// In a jj workspace, jj's operation from before the last split, which its undo
    /// restores.
    pub fn jj_split_undo(&self) -> PathBuf {
        self.0.join("jj-split-undo")
    }

    /// The messages Iris wrote, remembered for `iris eval --accepted`.
    pub fn accepted(&self) -> PathBuf {
        self.0.join("accepted.jsonl")
    }

    /// The last message for each change, offered again after a failed commit.
    pub fn last_messages(&self) -> PathBuf {
        self.0.join("last-message.json")
    }

    /// The commit-msg hooks already told to have lost Iris' step, a path a line.
    pub fn hook_steps_lost(&self) -> PathBuf {
        self.0.join("hook-steps-lost")
    }

    /// The findings of the last review, so one can be dismissed by its id.
    pub fn review_findings(&self) -> PathBuf {
        self.0.join("review-findings.json")
    }

    /// The findings the user dismissed in this repository (`iris review --dismiss`).
    pub fn review_memory(&self) -> PathBuf {
        self.0.join("review-memory.toml")
    }

    /// The user's answer to whether their coding agent's sessions go in the requests here
    /// (`yes` or `no`).
    pub fn agent_sessions(&self) -> PathBuf {
        self.0.join("agent-sessions")
    }

    /// There when the command line said once that a coding agent's session exists here.
    pub fn agent_sessions_hinted(&self) -> PathBuf {
        self.0.join("agent-sessions-hinted")
    }

    /// The issues read from the forge for requests, kept a day.
    pub fn linked_issues(&self) -> PathBuf {
        self.0.join("linked-issues.json")
    }

    /// The full-screen studio's traces (with `--debug` or `IRIS_LOG`).
    pub fn studio_log(&self) -> PathBuf {
        self.0.join("studio.log")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_under_the_git_dirs_iris_folder() {
        let dir = IrisDir::of(Path::new("/r/.git"));
        assert_eq!(dir.path(), Path::new("/r/.git/iris"));
        assert_eq!(dir.drafts(), Path::new("/r/.git/iris/drafts"));
        assert_eq!(
            dir.edit_file("SPLIT_MSG"),
            Path::new("/r/.git/iris/edit/SPLIT_MSG")
        );
        assert_eq!(dir.accepted(), Path::new("/r/.git/iris/accepted.jsonl"));
        assert_eq!(
            dir.last_messages(),
            Path::new("/r/.git/iris/last-message.json")
        );
        assert_eq!(dir.studio_log(), Path::new("/r/.git/iris/studio.log"));
        assert_eq!(
            dir.review_findings(),
            Path::new("/r/.git/iris/review-findings.json")
        );
        assert_eq!(
            dir.review_memory(),
            Path::new("/r/.git/iris/review-memory.toml")
        );
        assert_eq!(
            dir.agent_sessions(),
            Path::new("/r/.git/iris/agent-sessions")
        );
        assert_eq!(
            dir.agent_sessions_hinted(),
            Path::new("/r/.git/iris/agent-sessions-hinted")
        );
        assert_eq!(
            dir.hook_steps_lost(),
            Path::new("/r/.git/iris/hook-steps-lost")
        );
    }
}
