//! The configuration files: the user's and the project's, each read and checked as every run
//! reads it (iris-config names a file's first unknown key or bad value, with its line).

use std::path::{Path, PathBuf};

use iris_studio_config::{FileKind, display_path, file};

use super::check::Check;

/// One config file: where, and what reading it gave (`Ok(None)`: there is none; `Ok(n)`: n
/// settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFacts {
    pub kind: FileKind,
    pub path: PathBuf,
    pub read: Result<Option<usize>, String>,
}

impl FileFacts {
    /// The file at `path`, read and checked.
    pub fn read(kind: FileKind, path: &Path) -> Self {
        let read = file::read(path).and_then(|text| match text {
            None => Ok(None),
            Some(text) => file::parse(&text, path, kind).map(|entries| Some(entries.len())),
        });
        Self {
            kind,
            path: path.to_path_buf(),
            read: read.map_err(|e| e.0),
        }
    }
}

/// A file's check.
pub fn check(facts: &FileFacts) -> Check {
    let (name, absent, set) = match facts.kind {
        FileKind::User => ("user config", "defaults and the environment apply", ""),
        FileKind::Project => ("project config", "the project sets nothing", " --project"),
    };
    let shown = display_path(&facts.path);
    match &facts.read {
        Ok(None) => Check::ok(name, format!("none at {shown} ({absent})")),
        Ok(Some(1)) => Check::ok(name, format!("{shown}: 1 setting")),
        Ok(Some(n)) => Check::ok(name, format!("{shown}: {n} settings")),
        Err(why) => Check::problem(
            name,
            why.clone(),
            format!(
                "correct it in {shown} (`iris config set{set} KEY VALUE` writes a value only once \
                 it is valid); every run refuses to start until then"
            ),
        ),
    }
}

/// Whether one of `files` could not be read or holds a mistake.
pub fn any_broken(files: &[FileFacts]) -> bool {
    files.iter().any(|f| f.read.is_err())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::doctor::check::Status;

    fn facts(kind: FileKind, read: Result<Option<usize>, String>) -> FileFacts {
        FileFacts {
            kind,
            path: PathBuf::from("/x/config.toml"),
            read,
        }
    }

    #[test]
    fn a_file_is_ok_absent_or_valid_and_a_problem_with_its_mistake() {
        let none = check(&facts(FileKind::User, Ok(None)));
        assert_eq!((none.check, none.status), ("user config", Status::Ok));
        assert!(none.detail.starts_with("none at /x/config.toml"));
        let two = check(&facts(FileKind::Project, Ok(Some(2))));
        assert_eq!(two.detail, "/x/config.toml: 2 settings");
        let bad = facts(
            FileKind::Project,
            Err("line 3: unknown key `gitmojii`".into()),
        );
        let broken = check(&bad);
        assert_eq!(broken.status, Status::Problem);
        assert_eq!(broken.detail, "line 3: unknown key `gitmojii`");
        assert!(
            broken
                .fix
                .unwrap_or_default()
                .contains("iris config set --project")
        );
        assert!(any_broken(&[facts(FileKind::User, Ok(None)), bad]));
    }
}
