//! `iris absorb`: each staged hunk goes to the commit of the branch that last touched the
//! lines it changes, as git-absorb does. A hunk's old lines are blamed at HEAD (for lines only
//! added, the old lines on either side of them); when every one was last changed by the same
//! commit of the branch, that commit is the hunk's target. A hunk whose lines were last
//! changed before the branch, or by two of its commits, or a whole file (new, deleted,
//! renamed, binary), stays staged with the reason.
//!
//! The targets' fixups are committed through the split's machinery (`fixup! <title>`, git's
//! autosquash form), the state before saved under `refs/iris/absorb/`; squashing them is a
//! `git rebase -i --autosquash` that, when it stops, is aborted and the absorb undone.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use git2::{BlameOptions, Oid, Sort};

use super::{Applied, ApplyOptions, Rewrite, SplitChange, SplitStop};
use crate::git_command::Git;
use crate::info::short_id;
use crate::{GitError, GitRepo, Result};
use iris_studio_core::change::LineKind;
use iris_studio_core::split::{PlanGroup, SplitPlan, UnitKind};

/// Where each staged hunk goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsorbPlan {
    /// The commit the branch starts from (full id): its commits are the ones after it.
    pub base: String,
    /// How the base was found, as the user reads it (`origin/main, the upstream`).
    pub base_name: String,
    /// The commits that get a fixup, oldest first.
    pub targets: Vec<AbsorbTarget>,
    /// The hunks that stay staged, with why.
    pub left: Vec<LeftHunk>,
    /// Titles two or more commits of the branch share.
    pub shared_titles: Vec<String>,
}

/// A commit of the branch and the hunks that fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsorbTarget {
    /// The commit's full id.
    pub id: String,
    /// Its short id.
    pub short_id: String,
    /// Its title (the first line of its message).
    pub title: String,
    /// The hunks (`h1`, ...) that go into its fixup.
    pub hunks: Vec<String>,
}

/// A staged hunk no commit of the branch takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftHunk {
    /// The hunk's id (`h3`).
    pub hunk: String,
    /// Where it is (`src/app.rs:10-14`).
    pub place: String,
    /// Why it stays.
    pub why: String,
}

impl AbsorbPlan {
    /// The fixup commits as a split plan, one group per target: `fixup! <title>`, or
    /// `fixup! <id>` where another commit of the branch has the same title (autosquash would
    /// take the oldest of them).
    pub fn fixups(&self) -> SplitPlan {
        SplitPlan {
            groups: self
                .targets
                .iter()
                .map(|t| PlanGroup {
                    message: if self.shared_titles.contains(&t.title) {
                        format!("fixup! {}", t.id)
                    } else {
                        format!("fixup! {}", t.title)
                    },
                    hunks: t.hunks.clone(),
                    reason: format!("fixes {}", t.short_id),
                    left_out: false,
                })
                .collect(),
        }
    }
}

/// The lines of HEAD's version of one file a hunk is judged by.
enum Judged {
    /// A whole file, which is never absorbed, and why.
    Whole(String),
    /// 1-based lines of the old file; `true` when they are the lines around an addition
    /// (the hunk removes nothing), which only need to agree where they come from the branch.
    Lines(Vec<u32>, bool),
}

impl GitRepo {
    /// Where the branch starts: `base` when given, else the fork point with HEAD's upstream,
    /// else with the default branch. Refused when the branch has no commit of its own.
    pub fn absorb_base(&self, base: Option<&str>) -> Result<(Oid, String)> {
        let repo = &self.repo;
        let head = self
            .head_commit()?
            .ok_or_else(|| GitError::Unsupported("the repository has no commits yet".into()))?
            .id();
        let (tip, name) = match base {
            Some(rev) => (self.resolve_commit(rev)?.id(), rev.to_string()),
            None => {
                let upstream = repo
                    .head()
                    .ok()
                    .filter(|head| head.is_branch())
                    .and_then(|head| git2::Branch::wrap(head).upstream().ok());
                match upstream {
                    Some(upstream) => {
                        let reference = upstream.get();
                        let name = reference.shorthand().unwrap_or("the upstream").to_string();
                        (
                            reference.peel_to_commit()?.id(),
                            format!("{name}, the upstream"),
                        )
                    }
                    None => {
                        let default = self.default_branch().ok_or_else(|| {
                            GitError::Unsupported(
                                "the branch has no upstream and no default branch was found: \
                                 name where it starts with --base"
                                    .into(),
                            )
                        })?;
                        let id = self.resolve_commit(&default)?.id();
                        (id, format!("{default}, the default branch"))
                    }
                }
            }
        };
        let fork = repo.merge_base(head, tip)?;
        if fork == head {
            return Err(GitError::Unsupported(format!(
                "the branch has no commit of its own since {name}: nothing to absorb into \
                 (name where it starts with --base)"
            )));
        }
        Ok((fork, name))
    }

    /// Where each hunk of the staged `change` goes, the branch starting after `base`.
    pub fn absorb_plan(
        &self,
        change: &SplitChange,
        base: Oid,
        base_name: &str,
    ) -> Result<AbsorbPlan> {
        let repo = &self.repo;
        let head = self
            .head_commit()?
            .ok_or_else(|| GitError::Unsupported("the repository has no commits yet".into()))?;
        let branch = self.branch_after(base)?;
        let mut order: HashMap<Oid, usize> = HashMap::new();
        let mut titles: HashMap<String, usize> = HashMap::new();
        for (i, id) in branch.iter().enumerate() {
            let commit = repo.find_commit(*id)?;
            *titles
                .entry(crate::lossy(commit.summary_bytes().unwrap_or_default()))
                .or_default() += 1;
            // Autosquash attaches no fixup to a merge: a merge is no target.
            if commit.parent_count() == 1 {
                order.insert(*id, i);
            }
        }
        let shared_titles: Vec<String> = titles
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(title, _)| title)
            .collect();
        // The lines each hunk is judged by, and every line of each file to blame.
        let mut judged: Vec<(usize, Judged)> = Vec::new();
        let mut wanted: BTreeMap<String, HashSet<u32>> = BTreeMap::new();
        for (u, unit) in change.units.iter().enumerate() {
            let judge = match &unit.kind {
                UnitKind::Whole { why } => Judged::Whole(format!(
                    "a {}: only hunks of changed lines are absorbed",
                    why.describe()
                )),
                UnitKind::Hunk { hunk, .. } => {
                    let (lines, around) = old_lines_of(hunk);
                    wanted
                        .entry(unit.path.clone())
                        .or_default()
                        .extend(lines.iter().copied());
                    Judged::Lines(lines, around)
                }
            };
            judged.push((u, judge));
        }
        // The commit that last changed each line, `None` for a line from before the branch.
        let mut blamed: HashMap<(String, u32), Option<Oid>> = HashMap::new();
        for (path, lines) in &wanted {
            let (Some(&first), Some(&last)) = (lines.iter().min(), lines.iter().max()) else {
                continue;
            };
            self.fill_history_holes(std::path::Path::new(path), head.id(), Some(base))?;
            let mut options = BlameOptions::new();
            options
                .newest_commit(head.id())
                .oldest_commit(base)
                .min_line(first as usize)
                .max_line(last as usize);
            let blame = repo.blame_file(std::path::Path::new(path), Some(&mut options))?;
            for &line in lines {
                if let Some(hunk) = blame.get_line(line as usize) {
                    let commit = hunk.final_commit_id();
                    let inside = !hunk.is_boundary() && order.contains_key(&commit);
                    blamed.insert((path.clone(), line), inside.then_some(commit));
                }
            }
        }
        let mut targets: BTreeMap<usize, AbsorbTarget> = BTreeMap::new();
        let mut left = Vec::new();
        for (u, judge) in judged {
            let unit = &change.units[u];
            let why = match judge {
                Judged::Whole(why) => Some(why),
                Judged::Lines(lines, _) if lines.is_empty() => {
                    Some("no line of HEAD's version is near it".to_string())
                }
                Judged::Lines(lines, around) => {
                    let mut commits: Vec<Option<Oid>> = lines
                        .iter()
                        .filter_map(|l| blamed.get(&(unit.path.clone(), *l)).copied())
                        .collect();
                    commits.sort();
                    commits.dedup();
                    // Lines added where a commit of the branch wrote next to older lines (the
                    // end of a block it added) go to that commit, as git-absorb has them.
                    if around && commits.iter().any(Option::is_some) {
                        commits.retain(Option::is_some);
                    }
                    match commits.as_slice() {
                        [Some(one)] => {
                            let commit = repo.find_commit(*one)?;
                            let target =
                                targets.entry(order[one]).or_insert_with(|| AbsorbTarget {
                                    id: one.to_string(),
                                    short_id: short_id(one),
                                    title: crate::lossy(commit.summary_bytes().unwrap_or_default()),
                                    hunks: Vec::new(),
                                });
                            target.hunks.push(unit.id.clone());
                            None
                        }
                        [None] => Some(format!(
                            "its lines were last changed before the branch (since {base_name})"
                        )),
                        [] => Some("git could not blame its lines".to_string()),
                        many if many.contains(&None) => Some(format!(
                            "some of its lines were last changed before the branch (since \
                             {base_name}), some on it"
                        )),
                        many => {
                            let named: Vec<String> = many.iter().flatten().map(short_id).collect();
                            Some(format!(
                                "its lines were last changed by {} commits ({}): it fixes more than one",
                                many.len(),
                                named.join(", ")
                            ))
                        }
                    }
                }
            };
            if let Some(why) = why {
                left.push(LeftHunk {
                    hunk: unit.id.clone(),
                    place: unit.place(),
                    why,
                });
            }
        }
        Ok(AbsorbPlan {
            base: base.to_string(),
            base_name: base_name.to_string(),
            targets: targets.into_values().collect(),
            left,
            shared_titles,
        })
    }

    /// Commits each target's fixup (`fixup! <title>`) through `git commit`; the hunks left
    /// out stay staged. The state before is saved for `iris absorb --undo`.
    pub fn absorb_fixups(
        &self,
        change: &SplitChange,
        plan: &AbsorbPlan,
        interrupted: Option<&AtomicBool>,
        progress: impl FnMut(super::Progress),
    ) -> std::result::Result<Applied, SplitStop> {
        let options = ApplyOptions {
            check: None,
            interrupted,
            what: Rewrite::Absorb,
            rest_stays_staged: true,
        };
        self.apply_split(change, &plan.fixups(), options, progress)
            .map_err(|mut stop| {
                // A fixup refused (a hook, ctrl-c) puts back everything, not only the rest.
                if stop.saved && !stop.commits.is_empty() {
                    match self.undo_absorb() {
                        Ok(_) => {
                            stop.why =
                                format!("{} (the fixups made before it were taken back)", stop.why);
                            stop.commits.clear();
                            stop.saved = false;
                        }
                        Err(e) => stop.why = format!("{} (and undoing failed: {e})", stop.why),
                    }
                }
                stop
            })
    }

    /// Folds the fixups into their targets: `git rebase -i --autosquash` from the base, with
    /// no editor. When the rebase stops (a conflict, a hook), it is aborted and the absorb
    /// undone, and the error says so. Returns the commit HEAD is at. In the foreground: the
    /// rebase runs the user's hooks and signing, and stopping it half-way would leave it so.
    pub fn squash_fixups(&self, base: &str) -> Result<String> {
        let ran = Git::foreground()?
            .arg("-C")
            .arg(self.root())
            .args([
                "rebase",
                "--interactive",
                "--autosquash",
                "--rebase-merges",
                "--no-autostash",
                "--no-update-refs",
                base,
            ])
            .env("GIT_SEQUENCE_EDITOR", "true")
            .env("GIT_EDITOR", "true")
            .output()?;
        if !ran.success() {
            let said = format!("{}\n{}", ran.stdout().trim(), ran.stderr().trim());
            let aborted = Git::foreground()
                .and_then(|mut git| {
                    git.arg("-C")
                        .arg(self.root())
                        .args(["rebase", "--abort"])
                        .output()
                })
                .is_ok_and(|ran| ran.success());
            let after = if !aborted {
                "and `git rebase --abort` failed too: finish it with git (`git rebase --abort`), \
                 then `iris absorb --undo`"
                    .to_string()
            } else {
                match self.undo_absorb() {
                    Ok(_) => {
                        "the rebase was aborted and the absorb undone: everything is as it was"
                            .to_string()
                    }
                    Err(e) => format!(
                        "the rebase was aborted; the fixups stand, and undoing failed ({e})"
                    ),
                }
            };
            return Err(GitError::Unsupported(format!(
                "squashing the fixups stopped ({}); {after}",
                said.trim()
            )));
        }
        let head = self
            .head_id()?
            .ok_or_else(|| GitError::Unsupported("no HEAD after the rebase".into()))?;
        self.mark_split_top(&head, Rewrite::Absorb)?;
        Ok(head)
    }
}

impl GitRepo {
    /// The branch's commits after `base` (a full id), oldest first.
    pub fn branch_commits(&self, base: &str) -> Result<Vec<String>> {
        let base = self
            .oid(base)
            .map_err(|_| GitError::UnknownRevision(base.into()))?;
        Ok(self
            .branch_after(base)?
            .iter()
            .map(Oid::to_string)
            .collect())
    }

    /// HEAD's commits after `base`, oldest first.
    fn branch_after(&self, base: Oid) -> Result<Vec<Oid>> {
        let head = self
            .head_commit()?
            .ok_or_else(|| GitError::Unsupported("the repository has no commits yet".into()))?;
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
        walk.push(head.id())?;
        walk.hide(base)?;
        Ok(walk.collect::<std::result::Result<_, _>>()?)
    }

    /// New messages for commits of the branch after a squash (`iris absorb --reword`), as
    /// `iris reword` gives them; the absorb's undo still puts everything back.
    pub fn reword_absorbed(&self, messages: &[(String, String)]) -> Result<crate::Reworded> {
        let done = self.reword(messages, None)?;
        self.mark_split_top(&done.head, Rewrite::Absorb)?;
        Ok(done)
    }
}

/// The old lines a hunk is judged by: the lines it removes, or for a hunk that only adds, the
/// old lines on either side of each place it adds at.
fn old_lines_of(hunk: &iris_studio_core::change::Hunk) -> (Vec<u32>, bool) {
    // `-5,0` means "after line 5": the next old line is 6.
    let mut old = if hunk.old_lines == 0 {
        hunk.old_start + 1
    } else {
        hunk.old_start
    };
    let last = hunk.old_start + hunk.old_lines.saturating_sub(1);
    let (mut removed, mut around) = (Vec::new(), Vec::new());
    for line in &hunk.lines {
        match line.kind {
            LineKind::Context => old += 1,
            LineKind::Removed => {
                removed.push(old);
                old += 1;
            }
            LineKind::Added => {
                around.extend([old.saturating_sub(1), old]);
            }
        }
    }
    if !removed.is_empty() {
        return (removed, false);
    }
    // The lines around an addition, kept to the lines the hunk shows (its context) so a line
    // past the end of the file is never asked for.
    around.retain(|&l| l >= 1 && (hunk.old_lines == 0 || (l >= hunk.old_start && l <= last)));
    around.sort_unstable();
    around.dedup();
    (around, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::change::{DiffLine, Hunk};

    fn hunk(old_start: u32, old_lines: u32, lines: &[(LineKind, &str)]) -> Hunk {
        Hunk {
            header: String::new(),
            old_start,
            old_lines,
            new_start: old_start,
            new_lines: 0,
            lines: lines
                .iter()
                .map(|(kind, text)| DiffLine {
                    kind: *kind,
                    content: text.to_string(),
                    no_newline: false,
                })
                .collect(),
        }
    }

    #[test]
    fn a_hunk_is_judged_by_its_removed_lines_or_the_lines_around_an_addition() {
        use LineKind::{Added, Context, Removed};
        let changed = hunk(
            10,
            4,
            &[
                (Context, "a"),
                (Removed, "b"),
                (Added, "B"),
                (Context, "c"),
                (Removed, "d"),
            ],
        );
        assert_eq!(old_lines_of(&changed), (vec![11, 13], false));
        let added = hunk(
            10,
            2,
            &[(Context, "a"), (Added, "x"), (Added, "y"), (Context, "b")],
        );
        assert_eq!(old_lines_of(&added), (vec![10, 11], true));
        let at_the_end = hunk(10, 1, &[(Context, "last"), (Added, "more")]);
        assert_eq!(old_lines_of(&at_the_end), (vec![10], true));
    }
}
