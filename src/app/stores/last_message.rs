//! The last message for the change staged now, kept in `.git/iris/last-message.json`: what
//! `iris gen` (and so the hook) wrote, and what the user last tried to commit (the commit-msg
//! step of `iris hook install` records it before the project's own hook runs). After a commit
//! the project's hook turned down, the next `git commit` offers that text again, edits and all,
//! without a new request.
//!
//! Remembering never fails a command: a store that cannot be read counts as empty, one that
//! cannot be written is only traced. It is written whole through a rename, so a crash leaves
//! the old file or the new one.

use std::path::Path;

use anyhow::Result;

use iris_studio_core::last_message::{LastMessage, LastMessages, age, cleaned};
use iris_studio_git::GitRepo;

use super::{ChangeKey, IrisDir, now};

/// Remembers `message` for `change` (`tried`: the user committed with it).
pub fn remember(stores: &IrisDir, change: &ChangeKey, message: &str, tried: bool) {
    if let Err(err) = try_remember(stores, change, message, tried) {
        tracing::debug!("the last message was not remembered: {err:#}");
    }
}

fn try_remember(stores: &IrisDir, change: &ChangeKey, message: &str, tried: bool) -> Result<()> {
    let path = stores.last_messages();
    let mut all = load(&path);
    all.put(LastMessage {
        parent: change.parent.clone(),
        tree: change.tree.clone(),
        message: cleaned(message),
        at: now(),
        tried,
    });
    std::fs::create_dir_all(path.parent().unwrap_or(&path))?;
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, serde_json::to_string(&all)?)?;
    std::fs::rename(&tmp, &path)?;
    Ok(())
}

/// The message to offer again for the change staged now: the one the user last tried to
/// commit, or (`any`, for the hook) also the one Iris last wrote. Within the hour only.
///
/// A message titled as HEAD is not offered: it was tried on `git commit --amend` (the step
/// cannot tell an amend from a commit), and a new commit is not HEAD again.
pub fn recall(
    repo: &GitRepo,
    stores: &IrisDir,
    change: &ChangeKey,
    any: bool,
) -> Option<LastMessage> {
    let all = load(&stores.last_messages());
    let head_title = repo
        .commit_info("HEAD")
        .ok()
        .map(|head| title(&head.message).to_string());
    all.find(change.parent.as_deref(), &change.tree, now())
        .filter(|last| any || last.tried)
        .filter(|last| head_title.as_deref() != Some(title(&last.message)))
        .cloned()
}

fn title(message: &str) -> &str {
    message.lines().next().unwrap_or_default().trim()
}

fn load(path: &Path) -> LastMessages {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Where the message offered again comes from, in a sentence.
pub fn origin(last: &LastMessage) -> String {
    let when = age(last.at, now());
    if last.tried {
        format!("the message you last tried to commit this change with, {when}")
    } else {
        format!("the message Iris wrote for this change {when}")
    }
}

/// The comment lines the hook adds below a message offered again: where it comes from, how to
/// ask Iris anew, and what the repository's commit rules find wrong in it.
///
/// With a `core.commentChar` other than `#` there are none: git would keep them.
pub fn hook_comments(repo: &GitRepo, last: &LastMessage) -> String {
    let comment_char = repo.config_string("core.commentChar");
    if comment_char.as_deref().is_some_and(|c| c != "#") {
        return String::new();
    }
    let root = repo.root();
    let mut lines = vec![
        format!("Iris: {}.", origin(last)),
        "No new request was made; `IRIS_FRESH=1 git commit` asks Iris for a new message."
            .to_string(),
    ];
    match iris_studio_config::project::commit_rules(&root) {
        Ok(Some(rules)) => {
            let violations = rules.check(&last.message);
            if violations.is_empty() {
                lines.push(format!(
                    "The rules of {} find nothing wrong in it.",
                    rules.source
                ));
            } else {
                lines.push(format!("The rules of {} find:", rules.source));
                lines.extend(violations.iter().map(|v| format!("  {v}")));
            }
        }
        Ok(None) => {}
        Err(err) => lines.push(format!("The commit rules could not be read: {err}")),
    }
    lines.iter().map(|line| format!("# {line}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_testkit::TestRepo;

    fn staged(repo: &GitRepo) -> ChangeKey {
        ChangeKey::staged(repo, false).unwrap()
    }

    fn stores(repo: &GitRepo) -> IrisDir {
        IrisDir::of(&repo.state_dir())
    }

    #[test]
    fn a_tried_message_is_recalled_for_its_change_only() {
        let test = TestRepo::new();
        test.write("a.txt", "one\n");
        test.commit_all("first");
        test.write("a.txt", "two\n");
        test.git(&["add", "a.txt"]);
        let repo = GitRepo::discover(&test.path()).unwrap();
        remember(&stores(&repo), &staged(&repo), "Iris wrote this", false);
        assert!(recall(&repo, &stores(&repo), &staged(&repo), false).is_none());
        assert_eq!(
            recall(&repo, &stores(&repo), &staged(&repo), true)
                .unwrap()
                .message,
            "Iris wrote this"
        );
        remember(
            &stores(&repo),
            &staged(&repo),
            "fix: the user's edit\n# a comment\n",
            true,
        );
        let last = recall(&repo, &stores(&repo), &staged(&repo), false).unwrap();
        assert_eq!(last.message, "fix: the user's edit");
        assert!(origin(&last).contains("you last tried to commit"));
        // Once it is HEAD's title (an amend tried with it), it is not offered for a commit.
        test.git(&["commit", "-q", "-m", "fix: the user's edit"]);
        test.write("a.txt", "four\n");
        test.git(&["add", "a.txt"]);
        let repo = GitRepo::discover(&test.path()).unwrap();
        remember(&stores(&repo), &staged(&repo), "fix: the user's edit", true);
        assert!(recall(&repo, &stores(&repo), &staged(&repo), true).is_none());
        remember(&stores(&repo), &staged(&repo), "fix: another title", true);
        assert!(recall(&repo, &stores(&repo), &staged(&repo), true).is_some());
        test.write("a.txt", "three\n");
        test.git(&["add", "a.txt"]);
        let repo = GitRepo::discover(&test.path()).unwrap();
        assert!(recall(&repo, &stores(&repo), &staged(&repo), true).is_none());
    }

    #[test]
    fn a_broken_store_counts_as_empty_and_is_replaced() {
        let test = TestRepo::new();
        test.write("a.txt", "one\n");
        test.git(&["add", "a.txt"]);
        let repo = GitRepo::discover(&test.path()).unwrap();
        let path = stores(&repo).last_messages();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{ not json").unwrap();
        assert!(recall(&repo, &stores(&repo), &staged(&repo), true).is_none());
        remember(&stores(&repo), &staged(&repo), "Add a", false);
        assert_eq!(
            recall(&repo, &stores(&repo), &staged(&repo), true)
                .unwrap()
                .message,
            "Add a"
        );
    }

    #[test]
    fn the_hook_s_comments_say_what_the_rules_find() {
        let test = TestRepo::new();
        test.write(
            ".commitlintrc.json",
            r#"{"rules": {"type-enum": [2, "always", ["feat", "fix"]]}}"#,
        );
        let last = LastMessage {
            parent: None,
            tree: "t".into(),
            message: "chore: tidy".into(),
            at: now(),
            tried: true,
        };
        let repo = GitRepo::discover(&test.path()).unwrap();
        let text = hook_comments(&repo, &last);
        assert!(text.lines().all(|l| l.starts_with("# ")), "{text}");
        assert!(text.contains("IRIS_FRESH=1"), "{text}");
        assert!(text.contains("type-enum"), "{text}");
        // Lines git would not take for comments are not written.
        test.git(&["config", "core.commentChar", ";"]);
        let repo = GitRepo::discover(&test.path()).unwrap();
        assert_eq!(hook_comments(&repo, &last), "");
    }
}
