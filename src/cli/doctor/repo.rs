//! git and the repository: the git Iris runs, where the repository is and how it is set up
//! (a jj workspace, SHA-256, a partial clone, a sparse checkout, `core.hooksPath`), and an
//! operation left in progress.

use std::path::PathBuf;

use iris_studio_git::GitRepo;

use super::check::Check;

/// What was learnt of git and the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoFacts {
    /// The git Iris runs and what `git --version` said, or why there is none.
    pub git: Result<(PathBuf, String), String>,
    /// The repository, or why there is none (`Ok(None)`: not inside one).
    pub repo: Result<Option<Shape>, String>,
}

/// How the repository is set up.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shape {
    pub root: PathBuf,
    /// Where HEAD is, as the user reads it.
    pub head: String,
    pub jj_workspace: bool,
    pub sha256: bool,
    /// A partial clone's promisor remote.
    pub promisor: Option<String>,
    pub sparse: bool,
    /// `core.hooksPath`, as set.
    pub hooks_path: Option<String>,
    /// The operation git is in the middle of (`rebase`).
    pub in_progress: Option<&'static str>,
}

impl Shape {
    /// `repo` as it is set up.
    pub fn of(repo: &GitRepo) -> Self {
        Self {
            root: repo.root(),
            head: repo
                .head_state()
                .map_or_else(|e| format!("HEAD unreadable ({e})"), |h| h.to_string()),
            jj_workspace: crate::app::vcs::is_jj(repo),
            sha256: repo.is_sha256(),
            promisor: repo.promisor_remote().map(str::to_string),
            sparse: repo.is_sparse(),
            hooks_path: repo.config_string("core.hooksPath"),
            in_progress: repo.in_progress(),
        }
    }
}

/// The checks of git, the repository and the operation in progress (the last only inside a
/// repository).
pub fn checks(facts: &RepoFacts) -> Vec<Check> {
    let mut checks = vec![git(&facts.git)];
    match &facts.repo {
        Ok(Some(shape)) => {
            checks.push(Check::ok("repository", repository(shape)));
            checks.push(operation(shape.in_progress));
        }
        Ok(None) => checks.push(Check::warning(
            "repository",
            "not inside a git repository: its hooks, its stores and the tools it needs are \
             not checked",
            "run `iris doctor` inside a repository to check those too",
        )),
        Err(why) => checks.push(Check::problem(
            "repository",
            format!("the repository cannot be opened: {why}"),
            "`git status` says more; repair or re-clone the repository",
        )),
    }
    checks
}

fn git(found: &Result<(PathBuf, String), String>) -> Check {
    match found {
        Ok((program, said)) => Check::ok("git", format!("{said} ({})", program.display())),
        Err(why) => Check::problem(
            "git",
            why.clone(),
            "install git; Iris runs the one in PATH's absolute directories",
        ),
    }
}

/// Where the repository is, on what, and what about it changes Iris' work.
fn repository(shape: &Shape) -> String {
    let mut said = vec![format!("{} on {}", shape.root.display(), shape.head)];
    if shape.jj_workspace {
        said.push("a jj workspace (jj makes every change)".to_string());
    }
    if shape.sha256 {
        said.push("SHA-256 object ids".to_string());
    }
    if let Some(remote) = &shape.promisor {
        said.push(format!(
            "a partial clone: objects older history needs are fetched from '{remote}' when \
             read (the network is needed then)"
        ));
    }
    if shape.sparse {
        said.push("a sparse checkout: the files left out are not counted as deleted".to_string());
    }
    if let Some(dir) = &shape.hooks_path {
        said.push(format!("hooks run from {dir} (core.hooksPath)"));
    }
    said.join("; ")
}

fn operation(in_progress: Option<&str>) -> Check {
    let Some(op) = in_progress else {
        return Check::ok("operation", "none in progress");
    };
    let fix = match op {
        "merge" => {
            "finish it with `git commit` (or `iris gen --auto-commit`), or `git merge --abort`"
                .to_string()
        }
        "bisect" => "`git bisect reset` when the bisect is done".to_string(),
        op => {
            format!("`git {op} --continue` once its conflicts are resolved, or `git {op} --abort`")
        }
    };
    let prepared = match op {
        "bisect" | "am" => "",
        _ => " `iris gen` starts from git's prepared message;",
    };
    Check::warning(
        "operation",
        format!(
            "a {op} is in progress:{prepared} `iris split`, `reword` and `absorb` wait until it is done"
        ),
        fix,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::doctor::check::Status;

    fn facts(repo: Result<Option<Shape>, String>) -> RepoFacts {
        RepoFacts {
            git: Ok((PathBuf::from("/usr/bin/git"), "git version 2.47.3".into())),
            repo,
        }
    }

    #[test]
    fn a_plain_repository_is_all_ok_and_its_odd_shapes_are_said() {
        let shape = Shape {
            root: PathBuf::from("/r"),
            head: "main".into(),
            ..Shape::default()
        };
        let checks = checks(&facts(Ok(Some(shape.clone()))));
        let shown: Vec<(&str, Status, &str)> = checks
            .iter()
            .map(|c| (c.check, c.status, c.detail.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                ("git", Status::Ok, "git version 2.47.3 (/usr/bin/git)"),
                ("repository", Status::Ok, "/r on main"),
                ("operation", Status::Ok, "none in progress"),
            ]
        );
        let odd = Shape {
            sha256: true,
            promisor: Some("origin".into()),
            sparse: true,
            hooks_path: Some(".husky".into()),
            ..shape
        };
        let said = repository(&odd);
        for part in [
            "SHA-256",
            "from 'origin'",
            "sparse checkout",
            ".husky (core.hooksPath)",
        ] {
            assert!(said.contains(part), "{part}: {said}");
        }
    }

    #[test]
    fn an_operation_in_progress_is_a_warning_with_how_to_end_it() {
        let rebase = operation(Some("rebase"));
        assert_eq!(rebase.status, Status::Warning);
        assert!(rebase.detail.starts_with("a rebase is in progress"));
        assert_eq!(
            rebase.fix.as_deref(),
            Some(
                "`git rebase --continue` once its conflicts are resolved, or `git rebase --abort`"
            )
        );
        assert!(
            operation(Some("merge"))
                .fix
                .unwrap_or_default()
                .contains("git merge --abort")
        );
    }

    #[test]
    fn outside_a_repository_is_a_warning_and_no_git_a_problem() {
        let outside = checks(&facts(Ok(None)));
        assert_eq!(outside.len(), 2);
        assert_eq!(outside[1].status, Status::Warning);
        let no_git = git(&Err("git is not installed".into()));
        assert_eq!(no_git.status, Status::Problem);
        assert!(no_git.fix.is_some());
    }
}
