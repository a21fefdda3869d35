//! Both versions of the changed files a caller wants, whole, as text: what the parsers of
//! whole files read (a lock file's packages, a workflow's pins), each side read within a
//! bound, so a huge file is named by its size and never read.

use git2::FileMode;
use iris_studio_core::change::{SideText, Sides};

use super::patch::{FileSide, bytes_to_path, io_error, looks_binary};
use super::{DiffTarget, GitRepo, Result};

/// The files a change touches, and both versions of those wanted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedSides {
    /// Every path the change touches, in path order.
    pub paths: Vec<String>,
    /// Both versions of each wanted file, in path order.
    pub read: Vec<Sides>,
}

impl GitRepo {
    /// The files `target` changes, and both versions of those `wanted` says to read: the
    /// old side and the new (for the staged change HEAD's and the index's; for a commit its
    /// parent's and its own; for a range FROM's and TO's; the working tree's file for an
    /// unstaged one). A side larger than `max_bytes` is [`SideText::TooLarge`], unread.
    pub fn changed_sides(
        &self,
        target: &DiffTarget,
        wanted: impl Fn(&str) -> bool,
        max_bytes: u64,
    ) -> Result<ChangedSides> {
        let list = self.change_list(target, &[])?;
        let mut read = Vec::new();
        for (file, change) in list.files.iter().zip(&list.changes) {
            if !wanted(&file.path) {
                continue;
            }
            let (old, new) = change.sides();
            read.push(Sides {
                path: file.path.clone(),
                old: self.side_text(old, false, max_bytes)?,
                new: self.side_text(new, list.workdir, max_bytes)?,
            });
        }
        let paths = list.files.into_iter().map(|f| f.path).collect();
        Ok(ChangedSides { paths, read })
    }

    /// One side's text, read within `max_bytes`; `workdir` says it may be a working-tree
    /// file.
    fn side_text(&self, file: &FileSide, workdir: bool, max_bytes: u64) -> Result<SideText> {
        if !file.exists {
            return Ok(SideText::Absent);
        }
        if matches!(file.mode, FileMode::Commit | FileMode::Link) {
            return Ok(SideText::Binary);
        }
        let bytes = if self.in_workdir(file, workdir) {
            let Some(path) = &file.path else {
                return Ok(SideText::Absent);
            };
            let full = self.root().join(bytes_to_path(path));
            let size = std::fs::metadata(&full).map_err(io_error)?.len();
            if size > max_bytes {
                return Ok(SideText::TooLarge { bytes: size });
            }
            std::fs::read(&full).map_err(io_error)?
        } else {
            let (size, _) = self.repo.odb()?.read_header(file.id)?;
            if size as u64 > max_bytes {
                return Ok(SideText::TooLarge { bytes: size as u64 });
            }
            self.repo.find_blob(file.id)?.content().to_vec()
        };
        if looks_binary(&bytes) {
            return Ok(SideText::Binary);
        }
        Ok(SideText::Text(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_testkit::TestRepo;

    fn text(s: &str) -> SideText {
        SideText::Text(s.to_string())
    }

    #[test]
    fn both_sides_of_the_staged_a_commit_and_the_working_tree() {
        let repo = TestRepo::new();
        repo.write("Cargo.lock", "one\n");
        repo.write("src/main.rs", "fn main() {}\n");
        repo.commit_all("first");
        repo.write("Cargo.lock", "two\n");
        repo.write("Cargo.toml", "[package]\n");
        repo.git(&["add", "-A"]);
        let git = GitRepo::discover(&repo.path()).expect("repo");
        let wanted = |path: &str| path.ends_with(".lock");
        let staged = git
            .changed_sides(&DiffTarget::Staged, wanted, 1024)
            .expect("staged");
        assert_eq!(staged.paths, ["Cargo.lock", "Cargo.toml"]);
        assert_eq!(
            staged.read,
            [Sides {
                path: "Cargo.lock".into(),
                old: text("one\n"),
                new: text("two\n"),
            }]
        );

        repo.write("Cargo.lock", "three\n");
        let unstaged = git
            .changed_sides(&DiffTarget::Unstaged, wanted, 1024)
            .expect("unstaged");
        assert_eq!(unstaged.read[0].old, text("two\n"));
        assert_eq!(unstaged.read[0].new, text("three\n"));

        repo.git(&["add", "-A"]);
        repo.commit_all("second");
        let commit = git
            .changed_sides(&DiffTarget::Commit("HEAD".into()), wanted, 1024)
            .expect("commit");
        assert_eq!(commit.read[0].old, text("one\n"));
        assert_eq!(commit.read[0].new, text("three\n"));
        let bounded = git
            .changed_sides(&DiffTarget::Commit("HEAD".into()), wanted, 4)
            .expect("bounded");
        assert_eq!(bounded.read[0].new, SideText::TooLarge { bytes: 6 });
    }

    #[test]
    fn an_added_file_has_no_old_side() {
        let repo = TestRepo::new();
        repo.write("README.md", "hi\n");
        repo.commit_all("first");
        repo.write("yarn.lock", "lodash@^4:\n  version \"4.17.21\"\n");
        repo.git(&["add", "-A"]);
        let git = GitRepo::discover(&repo.path()).expect("repo");
        let staged = git
            .changed_sides(&DiffTarget::Staged, |_| true, 1024)
            .expect("staged");
        assert_eq!(staged.read[0].old, SideText::Absent);
        assert!(matches!(staged.read[0].new, SideText::Text(_)));
    }
}
