//! GitHub Actions pins: the `uses: owner/action@ref` of a workflow's steps and jobs, with the
//! version its comment names (`@11bd7190... # v4.2.2`). A YAML parser drops comments, so a
//! workflow is read line by line for its `uses:` keys, on both whole versions of the file.

use std::collections::{BTreeMap, BTreeSet};

use super::versions;

/// The most of a pin's comment kept.
const MAX_COMMENT_CHARS: usize = 40;

/// Whether `path` is a GitHub Actions workflow.
pub fn is_workflow(path: &str) -> bool {
    path.strip_prefix(".github/workflows/").is_some_and(|name| {
        !name.contains('/') && (name.ends_with(".yml") || name.ends_with(".yaml"))
    })
}

/// One side of a pin's move: the ref, the version its comment names and the tag it was
/// found to be, when looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinRef {
    /// What follows the `@`: a commit id, a tag or a branch.
    pub reference: String,
    /// The line's comment (`v4.2.2`), when it has one.
    pub comment: Option<String>,
    /// The tag that points at the commit, when it was looked up.
    pub tag: Option<String>,
}

impl PinRef {
    /// Whether the ref is a commit id (40 or 64 hexadecimal digits).
    pub fn is_commit(&self) -> bool {
        matches!(self.reference.len(), 40 | 64)
            && self.reference.chars().all(|c| c.is_ascii_hexdigit())
    }

    /// Whether the exact version is known: the ref is no commit, its comment names a
    /// version to the patch (`v4.2.2`), or its tag was found.
    fn known(&self) -> bool {
        !self.is_commit()
            || self.tag.is_some()
            || self
                .comment
                .as_deref()
                .and_then(version_in)
                .is_some_and(|v| v.matches('.').count() >= 2)
    }

    /// `11bd7190... (# v4; tag v4.2.2)`, as the request says it.
    fn label(&self) -> String {
        let notes: Vec<String> = self
            .comment
            .iter()
            .map(|c| format!("# {c}"))
            .chain(self.tag.iter().map(|t| format!("tag {t}")))
            .collect();
        match notes.is_empty() {
            true => self.reference.clone(),
            false => format!("{} ({})", self.reference, notes.join("; ")),
        }
    }
}

/// An action whose pin a change moved, in the workflows it moved in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinMove {
    /// `owner/repo`, or `owner/repo/path` for an action in a folder of its repository.
    pub action: String,
    /// The workflows the pin moved in.
    pub files: Vec<String>,
    /// The pin before.
    pub old: PinRef,
    /// The pin after.
    pub new: PinRef,
}

impl PinMove {
    /// The repository whose tags tell a pinned commit's version, with the tag prefix the
    /// comments suggest (`v4`), when either side is a commit whose exact version is unknown.
    pub fn lookup(&self) -> Option<(String, Option<String>)> {
        if self.old.known() && self.new.known() {
            return None;
        }
        let repo: Vec<&str> = self.action.splitn(3, '/').take(2).collect();
        let prefix = [&self.new, &self.old]
            .iter()
            .find_map(|side| side.comment.as_deref().and_then(version_in))
            .and_then(|v| v.split('.').next())
            .map(str::to_string);
        Some((repo.join("/"), prefix))
    }

    /// Names each side's commit by the most specific of `tags` (name, commit) that points
    /// at it (`v4.2.2` before `v4`), where its version is not known yet.
    pub fn resolve(&mut self, tags: &[(String, String)]) {
        for side in [&mut self.old, &mut self.new] {
            if side.known() {
                continue;
            }
            side.tag = tags
                .iter()
                .filter(|(_, commit)| commit.eq_ignore_ascii_case(&side.reference))
                .map(|(name, _)| name)
                .max_by(|a, b| {
                    (a.matches('.').count(), a.len())
                        .cmp(&(b.matches('.').count(), b.len()))
                        .then_with(|| versions::compare(a, b))
                })
                .cloned();
        }
    }

    /// The line the request carries.
    pub(super) fn line(&self) -> String {
        format!(
            "- {} moved from {} to {}, in {}",
            self.action,
            self.old.label(),
            self.new.label(),
            self.files.join(", ")
        )
    }
}

/// The version a pin's comment names: its first word that reads as one (`v4.2.2`, `4`),
/// after a `tag=` or `pin@`.
fn version_in(comment: &str) -> Option<&str> {
    comment
        .split(|c: char| c.is_whitespace() || matches!(c, '=' | '@' | ',' | ':'))
        .find(|word| {
            word.strip_prefix('v')
                .unwrap_or(word)
                .starts_with(|c: char| c.is_ascii_digit())
        })
}

/// The pins a workflow holds: each action with its refs, and each ref's comment.
fn pins(text: &str) -> BTreeMap<String, BTreeMap<String, Option<String>>> {
    let mut pins: BTreeMap<String, BTreeMap<String, Option<String>>> = BTreeMap::new();
    for line in text.lines() {
        let item = line.trim_start();
        let item = item.strip_prefix("- ").map_or(item, str::trim_start);
        let Some(value) = item.strip_prefix("uses:") else {
            continue;
        };
        // A YAML comment starts at a `#` after a space.
        let (value, comment) = match value.find(" #") {
            Some(at) => (&value[..at], Some(value[at + 2..].trim())),
            None => (value, None),
        };
        let value = value.trim().trim_matches(['"', '\'']);
        if value.starts_with("./") || value.starts_with("docker://") {
            continue;
        }
        let Some((action, reference)) = value.rsplit_once('@') else {
            continue;
        };
        let comment = comment
            .filter(|c| !c.is_empty())
            .map(|c| c.chars().take(MAX_COMMENT_CHARS).collect());
        pins.entry(action.to_string())
            .or_default()
            .entry(reference.to_string())
            .or_insert(comment);
    }
    pins
}

/// The pins that moved between two versions of the workflow at `path`.
pub(super) fn moves(path: &str, old: &str, new: &str) -> Vec<PinMove> {
    let (old, new) = (pins(old), pins(new));
    let actions: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let empty = BTreeMap::new();
    let mut moves = Vec::new();
    for action in actions {
        let (before, after) = (
            old.get(action).unwrap_or(&empty),
            new.get(action).unwrap_or(&empty),
        );
        let only = |a: &BTreeMap<String, Option<String>>, b: &BTreeMap<String, Option<String>>| {
            a.keys().filter(|r| !b.contains_key(*r)).cloned().collect()
        };
        let moved = versions::pair(only(before, after), only(after, before));
        let side = |refs: &BTreeMap<String, Option<String>>, reference: String| PinRef {
            comment: refs.get(&reference).cloned().flatten(),
            reference,
            tag: None,
        };
        for (from, to) in moved.updated {
            moves.push(PinMove {
                action: action.clone(),
                files: vec![path.to_string()],
                old: side(before, from),
                new: side(after, to),
            });
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v4.1.1
      - name: Cache
        uses: actions/cache@13aacd865c20de90d75de3b17ebe84f7a17d57d2 # v4
      - uses: ./local-action
      - uses: github/codeql-action/init@v2
  reuse:
    uses: org/workflows/.github/workflows/ci.yml@main
";

    const NEW: &str = "name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
      - name: Cache
        uses: 'actions/cache@1bd1e32a3bdc45362d1e726936510720a7c30a57' # v4
      - uses: ./local-action
      - uses: github/codeql-action/init@v3
  reuse:
    uses: org/workflows/.github/workflows/ci.yml@main
";

    #[test]
    fn workflows_are_known_by_their_folder() {
        assert!(is_workflow(".github/workflows/ci.yml"));
        assert!(is_workflow(".github/workflows/release.yaml"));
        assert!(!is_workflow(".github/dependabot.yml"));
        assert!(!is_workflow("docs/.github/workflows/ci.yml"));
    }

    #[test]
    fn moved_pins_with_their_comments() {
        let moves = moves(".github/workflows/ci.yml", OLD, NEW);
        let lines: Vec<String> = moves.iter().map(PinMove::line).collect();
        assert_eq!(
            lines,
            [
                "- actions/cache moved from 13aacd865c20de90d75de3b17ebe84f7a17d57d2 (# v4) to \
                 1bd1e32a3bdc45362d1e726936510720a7c30a57 (# v4), in .github/workflows/ci.yml",
                "- actions/checkout moved from b4ffde65f46336ab88eb53be808477a3936bae11 (# \
                 v4.1.1) to 11bd71901bbe5b1630ceea73d27597364c9af683 (# v4.2.2), in \
                 .github/workflows/ci.yml",
                "- github/codeql-action/init moved from v2 to v3, in .github/workflows/ci.yml",
            ]
        );
        // Only the cache's commit needs its tag.
        let lookups: Vec<_> = moves.iter().filter_map(PinMove::lookup).collect();
        assert_eq!(
            lookups,
            [("actions/cache".to_string(), Some("v4".to_string()))]
        );
    }

    #[test]
    fn a_commit_is_named_by_its_most_specific_tag() {
        let mut cache = moves(".github/workflows/ci.yml", OLD, NEW).remove(0);
        let tags = [
            (
                "v4".to_string(),
                "1bd1e32a3bdc45362d1e726936510720a7c30a57".to_string(),
            ),
            (
                "v4.2.0".to_string(),
                "1bd1e32a3bdc45362d1e726936510720a7c30a57".to_string(),
            ),
            (
                "v4.1.2".to_string(),
                "13aacd865c20de90d75de3b17ebe84f7a17d57d2".to_string(),
            ),
            (
                "v4.1".to_string(),
                "13aacd865c20de90d75de3b17ebe84f7a17d57d2".to_string(),
            ),
        ];
        cache.resolve(&tags);
        assert_eq!(cache.old.tag.as_deref(), Some("v4.1.2"));
        assert_eq!(cache.new.tag.as_deref(), Some("v4.2.0"));
        assert!(cache.lookup().is_none());
        assert!(
            cache.line().contains("(# v4; tag v4.2.0)"),
            "{}",
            cache.line()
        );
    }

    #[test]
    fn comment_versions() {
        assert_eq!(version_in("v4.2.2"), Some("v4.2.2"));
        assert_eq!(version_in("tag=v4.1.1"), Some("v4.1.1"));
        assert_eq!(version_in("pin@v4"), Some("v4"));
        assert_eq!(version_in("the latest"), None);
    }
}
