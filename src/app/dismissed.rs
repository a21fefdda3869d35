//! Reviews leave out what was dismissed before: the one step `iris review` and the studio's
//! reviews share. The dismissals are read once, before the review is asked for (they go in
//! its request as notes, through `ReviewOptions`), then drop the same findings from what the
//! reviewer wrote, a dismissal made on a path the change renames holding on the new one, with
//! a closing line saying how many were left out.

use std::cell::RefCell;
use std::collections::HashMap;

use anyhow::Result;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_core::artifact::Review;
use iris_studio_core::artifact::review::memory::{
    Dismissal, Seen, dismissed_line, without_dismissed,
};
use iris_studio_git::GitRepo;

use super::stores::review_memory::ReviewMemory;

/// How the user lists the dismissed findings, as the closing line says it.
const LIST_DISMISSED: &str = "`iris review --dismissed`";

/// A repository's dismissed findings, read before a review is written.
#[derive(Debug, Clone)]
pub struct Dismissed {
    memory: ReviewMemory,
    /// Every dismissal, the user's then the team's.
    pub dismissals: Vec<Dismissal>,
}

impl Dismissed {
    /// The dismissals `memory` keeps (a broken file is an error that names it). Blocking.
    pub fn read(memory: ReviewMemory) -> Result<Self> {
        let dismissals = memory.all()?;
        Ok(Self { memory, dismissals })
    }

    /// `review`, written for `scope` in `repo`, without the findings dismissed before, its
    /// kept findings remembered as the last review's (what `--dismiss ID` and the studio's
    /// dismissal look an id up in); and, when some were left out, the closing line saying how
    /// many. Blocking: it reads the renames of the change and the files' texts.
    pub fn leave_out(
        &self,
        repo: &GitRepo,
        scope: &Scope,
        review: &Review,
    ) -> (Review, Option<String>) {
        let renames = if self.dismissals.is_empty() {
            HashMap::new()
        } else {
            renames_in(repo, scope)
        };
        // Each file is read once, however many findings and dismissals ask for it.
        let texts = RefCell::new(HashMap::new());
        let text_of = |file: &str| {
            texts
                .borrow_mut()
                .entry(file.trim().to_string())
                .or_insert_with(|| text_in(repo, scope, file))
                .clone()
        };
        let (kept, left_out) = without_dismissed(review, &self.dismissals, &renames, text_of);
        // Only a finding that quotes nothing is remembered by its line's text.
        let seen: Vec<Seen> = kept
            .findings
            .iter()
            .map(|f| match Seen::of(f) {
                seen if seen.quote.is_some() => seen,
                _ => Seen::of_in(f, text_of(&f.file).as_deref()),
            })
            .collect();
        self.memory.remember_seen(&seen);
        let line = (left_out > 0).then(|| dismissed_line(left_out, LIST_DISMISSED));
        (kept, line)
    }
}

/// The files `scope` renames, old path to new: a dismissal made on the old path holds on the
/// new one. A change git cannot list renames nothing (the dismissals still hold in place).
fn renames_in(repo: &GitRepo, scope: &Scope) -> HashMap<String, String> {
    scope
        .diff_targets()
        .iter()
        .filter_map(|target| repo.change_list(target, &[]).ok())
        .flat_map(|list| list.files)
        .filter_map(|file| Some((file.old_path?, file.path)))
        .collect()
}

/// A file's text as `scope` reviews it: at the range's end or the commit, else in the
/// working tree.
fn text_in(repo: &GitRepo, scope: &Scope, file: &str) -> Option<String> {
    match scope {
        Scope::Range { to: rev, .. } | Scope::Commit(rev) => repo.text_at(rev, file).ok().flatten(),
        _ => {
            let path = iris_studio_git::check_relative_path(file).ok()?;
            std::fs::read_to_string(repo.root().join(path)).ok()
        }
    }
}
