//! The stack a branch is part of (main <- b1 <- b2 <- b3), read from git's history and from
//! what the stacking tools record: git-town's `git-town-branch.NAME.parent` config, and
//! Graphite's `refs/branch-metadata/NAME` (its older `.graphite_cache_persist` file).
//!
//! A branch's parent is the one its tool recorded, else the nearest local branch whose tip
//! lies on its first-parent history before the base. The stack is read down from the top
//! branch above the checked-out one (when the branches above form one line) to the base.

use std::collections::{HashMap, HashSet};

use git2::{BranchType, Oid};
use iris_studio_core::stack::{Layer, Stack};

use crate::{GitError, GitRepo, Result};

/// More layers than this is a loop in the records, not a stack.
const MAX_LAYERS: usize = 64;
/// How far down a branch's first-parent history a parent is looked for.
const MAX_WALK: usize = 5_000;

/// A parent a stacking tool recorded for a branch, and which tool.
#[derive(Debug, Clone)]
struct Recorded {
    parent: String,
    by: &'static str,
}

/// What one reading of a stack looks at: the base, every local branch's tip, the recorded
/// parents and the trunks.
struct Reading<'a> {
    base: &'a str,
    base_id: Oid,
    tips: HashMap<String, Oid>,
    records: HashMap<String, Recorded>,
    trunks: HashSet<String>,
}

impl Reading<'_> {
    /// The branch's tip; every name a reading walks to is a local branch.
    fn tip(&self, branch: &str) -> Result<Oid> {
        self.tips
            .get(branch)
            .copied()
            .ok_or_else(|| GitError::Unsupported(format!("'{branch}' is not a local branch")))
    }

    /// Whether the stack ends at `name`: the base, or a trunk a stacking tool knows.
    fn ends_at(&self, name: &str) -> bool {
        name == self.base || self.trunks.contains(name)
    }
}

impl GitRepo {
    /// The stack `branch` is part of, over `base` (the default branch, or `--from`).
    pub fn stack(&self, base: &str, branch: &str) -> Result<Stack> {
        let base_id = self.resolve_commit(base)?.id();
        let reading = Reading {
            base,
            base_id,
            tips: self.local_tips()?,
            records: self.recorded_parents(),
            trunks: self.trunks(),
        };
        let Some(&branch_tip) = reading.tips.get(branch) else {
            return Err(GitError::Unsupported(format!(
                "'{branch}' is not a local branch: a stack is read from branches"
            )));
        };
        let empty = |base: &str| Stack {
            base: base.to_string(),
            layers: Vec::new(),
            current: 0,
            notes: Vec::new(),
        };
        if reading.ends_at(branch) || branch_tip == base_id {
            // The base itself is no layer, and the branches on it are not its stack.
            return Ok(empty(base));
        }
        let mut notes = Vec::new();
        let top = self.top_above(&reading, branch, branch_tip, &mut notes);
        let mut layers = Vec::new();
        let mut current = top;
        let mut seen = HashSet::new();
        let mut stack_base = base.to_string();
        loop {
            if !seen.insert(current.clone()) || seen.len() > MAX_LAYERS {
                notes.push(format!(
                    "the recorded parents go round in a loop at {current}: the stack is cut there"
                ));
                break;
            }
            let tip = reading.tip(&current)?;
            let found = self.parent_of(&reading, &current, tip, &mut notes)?;
            let parent = found.name;
            let titles: Vec<String> = self
                .log_range(&parent, &current, 200)?
                .into_iter()
                .rev()
                .map(|c| c.summary)
                .collect();
            if titles.is_empty() {
                notes.push(format!(
                    "{current} has no commits of its own (it points where {parent} does): it is \
                     left out of the stack"
                ));
            } else {
                let mut same: Vec<&str> = reading
                    .tips
                    .iter()
                    .filter(|(name, id)| **id == tip && !reading.ends_at(name))
                    .map(|(name, _)| name.as_str())
                    .collect();
                if same.len() > 1 {
                    same.sort();
                    notes.push(format!(
                        "{} point at the same commit: {current} stands for them in the stack",
                        same.join(" and ")
                    ));
                }
                layers.push(Layer {
                    branch: current.clone(),
                    parent: parent.clone(),
                    tip: tip.to_string(),
                    titles,
                });
            }
            if found.is_base {
                stack_base = parent;
                break;
            }
            current = parent;
        }
        layers.reverse();
        // An empty layer's child goes into the layer below it.
        for i in 0..layers.len() {
            layers[i].parent = match i {
                0 => stack_base.clone(),
                _ => layers[i - 1].branch.clone(),
            };
        }
        if stack_base != base {
            notes.push(format!(
                "the stack sits on {stack_base}, not on {base}: its bottom layer's pull request \
                 goes into {stack_base}"
            ));
        }
        let current = layers
            .iter()
            .position(|l| l.branch == branch)
            .unwrap_or(layers.len().saturating_sub(1));
        Ok(Stack {
            base: stack_base,
            layers,
            current,
            notes,
        })
    }

    /// Each layer's change id ([`GitRepo::layer_change`]), bottom first.
    pub fn layer_changes(&self, stack: &Stack) -> Result<Vec<String>> {
        stack
            .layers
            .iter()
            .map(|l| self.layer_change(&l.parent, &l.branch))
            .collect()
    }

    /// An id of the change a layer's pull request shows (`parent...branch`), as `git
    /// patch-id` sees a change: the same when the layer was only moved onto a new parent tip
    /// (blob ids and line numbers shift), another when its change changed.
    pub fn layer_change(&self, parent: &str, branch: &str) -> Result<String> {
        let head = self.resolve_commit(branch)?.id();
        let fork = self
            .repo
            .merge_base(self.resolve_commit(parent)?.id(), head)?;
        let text = self.diff_text(
            &crate::DiffTarget::Range {
                from: fork.to_string(),
                to: head.to_string(),
            },
            &[],
        )?;
        let kept: String = text
            .lines()
            .filter(|l| !l.starts_with("index "))
            .map(|l| match l.strip_prefix("@@ ") {
                // `@@ -12,4 +14,5 @@ fn main`: the numbers move with the lines above.
                Some(rest) => rest.split_once(" @@").map_or(l, |(_, context)| context),
                None => l,
            })
            .flat_map(|l| [l, "\n"])
            .collect();
        let id = Oid::hash_object(git2::ObjectType::Blob, kept.as_bytes())?;
        Ok(id.to_string()[..12].to_string())
    }

    /// Where `branch` stands on `remote` as this clone last saw it (its remote-tracking
    /// branch), against the commit `here` names (the local branch, or `origin/main` itself
    /// when that is a stack's base). An error when a ref cannot be read.
    pub fn on_remote(&self, remote: &str, branch: &str, here: &str) -> Result<OnRemote> {
        let local = self.resolve_commit(here)?.id();
        let tracking = match self
            .repo
            .find_reference(&format!("refs/remotes/{remote}/{branch}"))
        {
            Ok(found) => found.resolve()?.target(),
            Err(e) if e.code() == git2::ErrorCode::NotFound => None,
            Err(e) => return Err(e.into()),
        };
        let Some(there) = tracking else {
            return Ok(OnRemote::Missing);
        };
        let descends = |a, b| self.repo.graph_descendant_of(a, b).unwrap_or(false);
        Ok(if local == there {
            OnRemote::Same
        } else if descends(local, there) {
            OnRemote::Behind
        } else if descends(there, local) {
            OnRemote::Ahead
        } else {
            OnRemote::Diverged
        })
    }

    /// Every local branch and the commit it points at.
    fn local_tips(&self) -> Result<HashMap<String, Oid>> {
        let mut tips = HashMap::new();
        for branch in self.repo.branches(Some(BranchType::Local))? {
            let (branch, _) = branch?;
            if let (Ok(Some(name)), Some(tip)) = (branch.name(), branch.get().target()) {
                tips.insert(name.to_string(), tip);
            }
        }
        Ok(tips)
    }

    /// The branch at the top of the line of branches above `branch`; `branch` itself when
    /// none is above it, or when those above fork (said in `notes`).
    fn top_above(
        &self,
        reading: &Reading<'_>,
        branch: &str,
        tip: Oid,
        notes: &mut Vec<String>,
    ) -> String {
        let mut above: Vec<(&String, Oid)> = reading
            .tips
            .iter()
            .filter(|(name, id)| {
                name.as_str() != branch
                    && !reading.ends_at(name)
                    && **id != tip
                    && self.repo.graph_descendant_of(**id, tip).unwrap_or(false)
            })
            .map(|(name, id)| (name, *id))
            .collect();
        // Branches whose recorded parent chain reaches `branch` are above it too.
        for (name, id) in &reading.tips {
            let mut at = name.as_str();
            for _ in 0..MAX_LAYERS {
                let Some(rec) = reading.records.get(at) else {
                    break;
                };
                if rec.parent == branch {
                    if !above.iter().any(|(n, _)| *n == name) {
                        above.push((name, *id));
                    }
                    break;
                }
                at = &rec.parent;
            }
        }
        if above.is_empty() {
            return branch.to_string();
        }
        above.sort_by(|a, b| a.0.cmp(b.0));
        // The top is the one whose stack, read down, holds every other branch above.
        for (name, id) in &above {
            let below = self.chain_down(reading, name, *id);
            if above.iter().all(|(other, _)| below.contains(*other)) && below.contains(branch) {
                return (*name).clone();
            }
        }
        let names: Vec<&str> = above.iter().map(|(n, _)| n.as_str()).collect();
        notes.push(format!(
            "the branches above {branch} ({}) are not one line: the stack is read up to {branch}; \
             check out the top of the one you mean",
            names.join(", ")
        ));
        branch.to_string()
    }

    /// The names of the branches below `branch` down to the base, as the stack reads them.
    fn chain_down(&self, reading: &Reading<'_>, branch: &str, tip: Oid) -> HashSet<String> {
        let mut names = HashSet::new();
        let mut scratch = Vec::new();
        let (mut current, mut tip) = (branch.to_string(), tip);
        while names.insert(current.clone()) && names.len() <= MAX_LAYERS {
            let found = match self.parent_of(reading, &current, tip, &mut scratch) {
                Ok(found) if !found.is_base => found,
                _ => break,
            };
            match reading.tip(&found.name) {
                Ok(next) => (current, tip) = (found.name, next),
                Err(_) => break,
            }
        }
        names
    }

    /// The branch below `branch` in its stack: the recorded one, else the nearest branch on
    /// its first-parent history, else the base.
    fn parent_of(
        &self,
        reading: &Reading<'_>,
        branch: &str,
        tip: Oid,
        notes: &mut Vec<String>,
    ) -> Result<Parent> {
        let from_history = self.history_parent(reading, branch, tip)?;
        let Some(recorded) = reading.records.get(branch) else {
            return Ok(from_history);
        };
        let parent = recorded.parent.as_str();
        if parent == from_history.name || reading.ends_at(parent) {
            return Ok(Parent {
                is_base: reading.ends_at(parent),
                name: parent.to_string(),
            });
        }
        let by = recorded.by;
        if let Some(&parent_tip) = reading.tips.get(parent) {
            notes.push(format!(
                "{by} records {branch}'s parent as {parent}, but its history has {} below it: \
                 Iris follows {by}",
                from_history.name
            ));
            if !self
                .repo
                .graph_descendant_of(tip, parent_tip)
                .unwrap_or(false)
            {
                notes.push(format!(
                    "{branch} is not on top of {parent}'s tip (restack it onto {parent}): its \
                     pull request shows commits {parent} does not have"
                ));
            }
            return Ok(Parent {
                is_base: false,
                name: parent.to_string(),
            });
        }
        if self.resolve_commit(parent).is_ok() {
            // A branch only on a remote, or a tag: the stack sits on it.
            return Ok(Parent {
                name: parent.to_string(),
                is_base: true,
            });
        }
        notes.push(format!(
            "{by} records {branch}'s parent as {parent}, which is not in this repository: Iris \
             follows the history ({})",
            from_history.name
        ));
        Ok(from_history)
    }

    /// The nearest local branch whose tip lies on `branch`'s first-parent history before the
    /// base (a trunk ends the stack there); the base when there is none. Branches sharing a
    /// tip: the first by name.
    fn history_parent(&self, reading: &Reading<'_>, branch: &str, tip: Oid) -> Result<Parent> {
        let mut by_tip: HashMap<Oid, Vec<&String>> = HashMap::new();
        for (name, id) in &reading.tips {
            if name != branch && name != reading.base {
                by_tip.entry(*id).or_default().push(name);
            }
        }
        let mut walk = self.repo.revwalk()?;
        walk.simplify_first_parent()?;
        walk.push(tip)?;
        walk.hide(reading.base_id)?;
        for id in walk.take(MAX_WALK) {
            let id = id?;
            if id == tip {
                continue;
            }
            if let Some(names) = by_tip.get_mut(&id) {
                names.sort();
                return Ok(Parent {
                    is_base: reading.ends_at(names[0]),
                    name: names[0].clone(),
                });
            }
        }
        Ok(Parent {
            name: reading.base.to_string(),
            is_base: true,
        })
    }

    /// The parents the stacking tools recorded, by branch: git-town's config first, then
    /// Graphite's metadata refs, then Graphite's older cache file.
    fn recorded_parents(&self) -> HashMap<String, Recorded> {
        let mut records = HashMap::new();
        for (branch, parent) in self.graphite_cache() {
            records.insert(
                branch,
                Recorded {
                    parent,
                    by: "Graphite",
                },
            );
        }
        for (branch, parent) in self.graphite_refs() {
            records.insert(
                branch,
                Recorded {
                    parent,
                    by: "Graphite",
                },
            );
        }
        for (branch, parent) in self.git_town_parents() {
            records.insert(
                branch,
                Recorded {
                    parent,
                    by: "git-town",
                },
            );
        }
        records
    }

    /// The branches the stacking tools treat as trunks, which stacks sit on: git-town's main
    /// and perennial branches, Graphite's trunks.
    fn trunks(&self) -> HashSet<String> {
        let mut trunks = HashSet::new();
        for key in ["git-town.main-branch", "git-town.perennial-branches"] {
            if let Some(value) = self.config_string(key) {
                trunks.extend(value.split_whitespace().map(str::to_string));
            }
        }
        let config = self.common_dir().join(".graphite_repo_config");
        if let Some(json) = std::fs::read(config)
            .ok()
            .and_then(|t| serde_json::from_slice::<serde_json::Value>(&t).ok())
        {
            let named = json.get("trunk").into_iter();
            let more = json
                .get("trunks")
                .and_then(|t| t.as_array())
                .into_iter()
                .flatten()
                .map(|t| t.get("name").unwrap_or(t));
            trunks.extend(
                named
                    .chain(more)
                    .filter_map(|t| t.as_str())
                    .map(str::to_string),
            );
        }
        trunks
    }

    /// git-town's `git-town-branch.NAME.parent` (and its older `git-town.branches.parent.NAME`).
    fn git_town_parents(&self) -> Vec<(String, String)> {
        let Ok(config) = self.repo.config() else {
            return Vec::new();
        };
        let mut found = Vec::new();
        if let Ok(mut entries) = config.entries(Some("git-town")) {
            while let Some(Ok(entry)) = entries.next() {
                let (Ok(name), Ok(value)) = (entry.name(), entry.value()) else {
                    continue;
                };
                let branch = name
                    .strip_prefix("git-town-branch.")
                    .and_then(|rest| rest.strip_suffix(".parent"))
                    .or_else(|| name.strip_prefix("git-town.branches.parent."));
                if let Some(branch) = branch.filter(|b| !b.is_empty()) {
                    found.push((branch.to_string(), value.trim().to_string()));
                }
            }
        }
        found
    }

    /// Graphite's `refs/branch-metadata/NAME`: a blob of JSON with `parentBranchName`.
    fn graphite_refs(&self) -> Vec<(String, String)> {
        let Ok(refs) = self.repo.references_glob("refs/branch-metadata/*") else {
            return Vec::new();
        };
        refs.flatten()
            .filter_map(|reference| {
                let branch = reference
                    .name()
                    .ok()?
                    .strip_prefix("refs/branch-metadata/")?;
                let blob = reference.peel_to_blob().ok()?;
                let json: serde_json::Value = serde_json::from_slice(blob.content()).ok()?;
                let parent = json.get("parentBranchName")?.as_str()?;
                Some((branch.to_string(), parent.to_string()))
            })
            .collect()
    }

    /// Graphite's older record, `.graphite_cache_persist` in the git directory:
    /// `{"branches": [["NAME", {"parentBranchName": ...}], ...]}`.
    fn graphite_cache(&self) -> Vec<(String, String)> {
        let path = self.common_dir().join(".graphite_cache_persist");
        let Ok(text) = std::fs::read(path) else {
            return Vec::new();
        };
        let Ok(json) = serde_json::from_slice::<serde_json::Value>(&text) else {
            return Vec::new();
        };
        json.get("branches")
            .and_then(|b| b.as_array())
            .into_iter()
            .flatten()
            .filter_map(|entry| {
                let branch = entry.get(0)?.as_str()?;
                let parent = entry.get(1)?.get("parentBranchName")?.as_str()?;
                Some((branch.to_string(), parent.to_string()))
            })
            .collect()
    }
}

/// Where a branch stands on a remote, as the clone last saw it (its remote-tracking branch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnRemote {
    /// The remote has it where it is here.
    Same,
    /// The remote has an older commit of it: a push brings it up to date.
    Behind,
    /// The remote has commits of it that are not here: it moved on since the branch here.
    Ahead,
    /// The remote has it elsewhere (the branch was rebased): only a forced push replaces it.
    Diverged,
    /// The remote does not have it.
    Missing,
}

/// A branch's parent in its stack, and whether that is where the stack ends.
struct Parent {
    name: String,
    is_base: bool,
}
