//! Whether the remote is ready for a stack: its base and every layer there as they are here.
//! Checked before Iris writes a word of it or a forge tool is asked anything, so a stack the
//! remote does not have costs nothing: a PR into a base the remote has elsewhere shows other
//! commits than the ones described, and a layer's PR must show the commits written for.

use std::path::Path;

use iris_studio_core::stack::Stack;
use iris_studio_git::OnRemote;

use super::text::base_branch;
use super::{PublishError, open};

/// The command that gives a remote branches standing there as `OnRemote` says, when a push
/// does (the version control's own: `git push`, `jj git push`).
pub type PushCommand<'a> = dyn Fn(&str, &[String], OnRemote) -> Option<String> + 'a;

/// Checks the base and every layer of `stack` against the remote the forge's PRs live on:
/// each remote-tracking ref must be the commit the branch is here. Otherwise says which are
/// not, and the commands (`push`) that fix them.
pub fn stack_on_remote(
    repo_root: &Path,
    stack: &Stack,
    push: &PushCommand<'_>,
) -> Result<(), PublishError> {
    let repo = open(repo_root)?;
    let Some(remote) = repo.main_remote() else {
        return Err(PublishError(
            "the remote cannot be read: this repository has no remote to publish the stack to \
             (`git remote add origin URL`, then push the stack's branches)"
                .into(),
        ));
    };
    let remotes = repo.remote_names();
    // (its name on the remote, what names it here): a base `origin/main` is `main` there.
    let base = (base_branch(&stack.base, &remotes), stack.base.clone());
    let layers = stack
        .layers
        .iter()
        .map(|l| (l.branch.clone(), l.branch.clone()));
    let mut off = Vec::new();
    for (branch, here) in std::iter::once(base).chain(layers) {
        let state = repo.on_remote(&remote, &branch, &here).map_err(|e| {
            PublishError(format!(
                "the remote {remote} cannot be read here ({e}): nothing was written or published"
            ))
        })?;
        if state != OnRemote::Same && !off.iter().any(|(b, _)| *b == branch) {
            off.push((branch, state));
        }
    }
    if off.is_empty() {
        return Ok(());
    }
    Err(PublishError(not_ready(&remote, &off, push)))
}

/// What is said of the branches `off` (each with where it stands on `remote`): which, why,
/// and the commands that fix them, on one line.
fn not_ready(remote: &str, off: &[(String, OnRemote)], push: &PushCommand<'_>) -> String {
    let which: Vec<String> = off
        .iter()
        .map(|(branch, state)| {
            let why = match state {
                OnRemote::Missing | OnRemote::Same => format!("not on {remote}"),
                OnRemote::Behind => format!("{remote} has an older commit of it"),
                OnRemote::Diverged => format!("{remote} has it elsewhere, rebased here?"),
                OnRemote::Ahead => format!(
                    "{remote} has commits of it that are not here: bring it up to \
                     {remote}/{branch} and rebase the stack onto it"
                ),
            };
            format!("{branch} ({why})")
        })
        .collect();
    let mut pushes = Vec::new();
    for state in [OnRemote::Behind, OnRemote::Missing, OnRemote::Diverged] {
        let branches: Vec<String> = off
            .iter()
            .filter(|(_, s)| *s == state)
            .map(|(b, _)| b.clone())
            .collect();
        if branches.is_empty() {
            continue;
        }
        if let Some(command) = push(remote, &branches, state) {
            pushes.push(format!("`{command}`"));
        }
    }
    let fix = match pushes.is_empty() {
        true => String::new(),
        false => format!("; push with {}", pushes.join(" and ")),
    };
    format!(
        "{remote} does not have the stack as it is here, so nothing was written or published: \
         {}{fix}; then publish again",
        which.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_branch_off_the_remote_is_said_with_the_push_that_fixes_it() {
        let off = [
            ("main".to_string(), OnRemote::Behind),
            ("b1".to_string(), OnRemote::Missing),
            ("b2".to_string(), OnRemote::Missing),
            ("b3".to_string(), OnRemote::Ahead),
        ];
        let push = |remote: &str, branches: &[String], state: OnRemote| {
            let flag = if state == OnRemote::Missing {
                "-u "
            } else {
                ""
            };
            Some(format!("git push {flag}{remote} {}", branches.join(" ")))
        };
        assert_eq!(
            not_ready("origin", &off, &push),
            "origin does not have the stack as it is here, so nothing was written or published: \
             main (origin has an older commit of it), b1 (not on origin), b2 (not on origin), \
             b3 (origin has commits of it that are not here: bring it up to origin/b3 and \
             rebase the stack onto it); push with `git push origin main` and \
             `git push -u origin b1 b2`; then publish again"
        );
    }
}
