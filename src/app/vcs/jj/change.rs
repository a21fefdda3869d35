//! jj's changes as Iris writes from them: the change to write for (said when it is
//! conflicted, empty or a merge), a range's ends (`trunk()` the default base) and a pull
//! request's bookmarks, and the checks jj's missing hooks would have made before a
//! description is set (the project's commit rules, the secret scan of the change).

use anyhow::Result;

use crate::output::exit::UsageError;
use iris_studio_core::secrets::Scanner;
use iris_studio_git::GitRepo;
use iris_studio_git::jj::{Jj, JjChange};

/// The change `rev` names, refused when it is conflicted (its conflicts listed as jj lists
/// them), changes nothing, or is a merge.
pub(super) fn change_to_describe(jj: &Jj, rev: &str) -> Result<JjChange> {
    let change = named(jj, rev)?;
    if let Some(why) = not_written_from(&change) {
        let conflicts = match change.conflict {
            true => format!(":\n{}", jj.conflicts(rev).unwrap_or_default().trim_end()),
            false => String::new(),
        };
        return Err(UsageError(format!("{why}{conflicts}")).into());
    }
    if change.empty {
        return Err(UsageError(format!(
            "the change {} ({rev}) is empty: there is nothing to describe (edit files, or name \
             another change with -r)",
            change.short_id
        ))
        .into());
    }
    Ok(change)
}

/// Why Iris cannot write from `change`'s commit, when she cannot: a conflicted change (its
/// tree in jj's git store holds jj's conflict files) or a merge (jj shows it against its
/// merged parents, which are no commit; git's tree diffs against one of them).
pub(super) fn not_written_from(change: &JjChange) -> Option<String> {
    if change.conflict {
        Some(format!(
            "the change {} has unresolved conflicts; resolve them first (`jj resolve`)",
            change.short_id
        ))
    } else if change.parents.len() > 1 {
        Some(format!(
            "the change {} merges {} changes: Iris writes a change from its one parent's \
             diff; describe a merge with `jj describe`",
            change.short_id,
            change.parents.len()
        ))
    } else {
        None
    }
}

/// The commit id of the one change `rev` names (a change id, a bookmark, `@`, `trunk()`),
/// for the tools that read jj's commits from its git store. jj's root is no commit there.
pub(super) fn commit_of(jj: &Jj, rev: &str) -> Result<String> {
    Ok(not_root(jj, rev)?.commit_id)
}

/// A jj range's branches for its PR: the base change's bookmark and the top change's.
pub(super) fn pr_bookmarks(from: &JjChange, to: &JjChange) -> Result<(String, String)> {
    let Some(head) = to.bookmarks.first() else {
        return Err(UsageError(format!(
            "the change {} has no bookmark to open the pull request from: `jj bookmark create \
             NAME -r {}`, then `jj git push -b NAME`",
            to.short_id, to.short_id
        ))
        .into());
    };
    let Some(base) = from.bookmarks.first() else {
        return Err(UsageError(format!(
            "the base change {} has no bookmark for the pull request to go into: --from BOOKMARK",
            from.short_id
        ))
        .into());
    };
    Ok((base.clone(), head.clone()))
}

/// The one change `rev` names, refused when it is jj's root.
fn not_root(jj: &Jj, rev: &str) -> Result<JjChange> {
    let change = named(jj, rev)?;
    if change.is_root() {
        let hint = if rev == TRUNK {
            " (trunk() is the root when no remote has a main, master or trunk bookmark)"
        } else {
            ""
        };
        return Err(UsageError(format!(
            "'{rev}' is jj's root, before any change{hint}: name the change or bookmark \
             the range starts after (--from)"
        ))
        .into());
    }
    Ok(change)
}

/// Where a range of jj changes starts when none is named.
const TRUNK: &str = "trunk()";

/// A range of jj changes as commit ids: after `from` (default `trunk()`) up to `to`
/// (default `@`, or `@-` when the working copy is empty, as after `jj commit`).
pub(super) fn range(jj: &Jj, from: Option<&str>, to: Option<&str>) -> Result<(String, String)> {
    let (from, to) = range_changes(jj, from, to)?;
    Ok((from.commit_id, to.commit_id))
}

/// [`range`]'s two ends as changes (their bookmarks name a pull request's branches).
pub(super) fn range_changes(
    jj: &Jj,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<(JjChange, JjChange)> {
    let from = not_root(jj, from.unwrap_or(TRUNK))?;
    let to = match to {
        Some(to) => not_root(jj, to)?,
        None => {
            let at = jj.change("@")?;
            if at.empty { not_root(jj, "@-")? } else { at }
        }
    };
    Ok((from, to))
}

/// The one change `rev` names; a name jj does not know is the user's to fix.
fn named(jj: &Jj, rev: &str) -> Result<JjChange> {
    jj.change(rev).map_err(|e| match e {
        iris_studio_git::GitError::UnknownRevision(_) => UsageError(format!(
            "'{rev}' names no change in this jj repository (`jj log` lists them)"
        ))
        .into(),
        other => anyhow::Error::from(other),
    })
}

/// What a git hook would have refused before `message` becomes `rev`'s description (jj
/// runs no hooks), or a commit of a conflicted change: an error-level break of the project's
/// commit rules, or a secret among the lines the change adds. `None` when it may go.
pub(super) fn refused(
    repo: &GitRepo,
    jj: &Jj,
    rev: &str,
    message: &str,
    scanner: Option<&Scanner>,
) -> Result<Option<String>> {
    let change = jj.change(rev)?;
    if change.conflict {
        return Ok(Some(format!(
            "the change {} has unresolved conflicts (`jj resolve --list`)",
            change.short_id
        )));
    }
    if let Some(rules) = iris_studio_config::project::commit_rules(&repo.root())? {
        let errors: Vec<String> = rules
            .check(message)
            .into_iter()
            .filter(|v| v.error)
            .map(|v| format!("{}: {}", v.rule, v.message))
            .collect();
        if !errors.is_empty() {
            return Ok(Some(format!(
                "the message breaks the commit rules of {}: {}",
                rules.source,
                errors.join("; ")
            )));
        }
    }
    if let Some(scanner) = scanner {
        let findings = scanner.redact(&added_lines(&jj.diff(rev)?)).findings;
        if !findings.is_empty() {
            let said: Vec<String> = findings.iter().map(ToString::to_string).collect();
            return Ok(Some(format!(
                "the change adds what looks like a secret ({}); take it out, or list its \
                 fingerprint ({}) in .irissecretsignore",
                said.join(", "),
                findings
                    .iter()
                    .map(|f| f.fingerprint.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(None)
}

/// A git diff with the text of its removed lines dropped (the `-` kept, so every line keeps
/// its place and the scanner still says where an added secret is): what a change adds.
fn added_lines(diff: &str) -> String {
    diff.lines()
        .map(|line| {
            if line.starts_with('-') && !line.starts_with("---") {
                "-"
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removed_lines_lose_their_text_and_keep_their_place() {
        let diff = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old secret\n+new\n context";
        assert_eq!(
            added_lines(diff),
            "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-\n+new\n context"
        );
    }
}
