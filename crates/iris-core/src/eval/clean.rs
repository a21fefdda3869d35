//! The clean side of `iris eval --reviews`: commits that no later fix points at, reviewed
//! beside the fixes' introducing commits, so that a reviewer that flags everything pays for it
//! in findings on code nobody had to fix.
//!
//! A commit of the scanned history is **clean** when it is no fix itself and no later fix's
//! changed lines blame to it: it wrote none of the lines any fix newer than it changed. That
//! is stricter than "not the commit a reviewed fix was traced to": the fixes skipped (their
//! lines from several commits, or the fix itself too large or by a skipped author) count too,
//! with every commit their lines blame to. A recent commit may still be clean only because its
//! bug has not been fixed yet; the figure leans, if anything, against the reviewer.

use std::collections::BTreeSet;

/// A commit of the scanned history, newest first, as the clean side sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scanned<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its message marks it as a fix (and it has one parent, as the fixes reviewed have).
    pub fix: bool,
}

/// The clean commits reviewed beside `reviewed`'s fixes: the indices into `history` (newest
/// first) of at most `wanted` of them, newest first.
///
/// `reviewed` pairs each fix reviewed with the commit reviewed for it. Candidates are the
/// commits from the top of `history` down to the oldest of those commits (the stretch of
/// history the fix side reviewed), taken nearest first to a reviewed fix (the newer on a
/// tie). A candidate is taken when it is no fix, when no fix newer than it blames a line to
/// it, and when `reviewable` says the replay can review it as the fix side would.
///
/// `blame` gives the commits a fix's changed lines blame to (none when it changed no earlier
/// line), or `None` when they could not be blamed: then no commit older than that fix can be
/// vouched for and none is taken. It is asked lazily, only for the fixes newer than a
/// candidate looked at, each once.
pub fn choose_clean(
    history: &[Scanned],
    reviewed: &[(&str, &str)],
    wanted: usize,
    mut blame: impl FnMut(&str) -> Option<Vec<String>>,
    mut reviewable: impl FnMut(&str) -> bool,
) -> Vec<usize> {
    let index = |id: &str| history.iter().position(|c| c.id == id);
    let anchors: Vec<usize> = reviewed.iter().filter_map(|(fix, _)| index(fix)).collect();
    let Some(&oldest_fix) = anchors.iter().max() else {
        return Vec::new();
    };
    let reach = reviewed
        .iter()
        .filter_map(|(_, introducing)| index(introducing))
        .chain([oldest_fix])
        .max()
        .map_or(0, |oldest| oldest + 1);
    let mut order: Vec<usize> = (0..reach).filter(|&i| !history[i].fix).collect();
    let distance = |i: usize| anchors.iter().map(|&a| a.abs_diff(i)).min();
    order.sort_by_key(|&i| (distance(i), i));

    let mut blamed_to = BTreeSet::new();
    // The fixes of `history[..folded]` are in `blamed_to`; the newest that could not be
    // blamed, when one could not.
    let mut folded = 0;
    let mut unblamed = None;
    let mut chosen = Vec::new();
    for i in order {
        if chosen.len() >= wanted {
            break;
        }
        while folded < i {
            let newer = history[folded];
            if newer.fix {
                match blame(newer.id) {
                    Some(origins) => blamed_to.extend(origins),
                    None => {
                        unblamed.get_or_insert(folded);
                    }
                }
            }
            folded += 1;
        }
        let vouched = unblamed.is_none_or(|u| u > i);
        if vouched && !blamed_to.contains(history[i].id) && reviewable(history[i].id) {
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// `spec` newest first: `F` a fix, `c` any other commit; ids are `"0"`, `"1"`...
    fn history(spec: &str) -> Vec<String> {
        (0..spec.len()).map(|i| i.to_string()).collect()
    }

    fn scanned<'a>(spec: &str, ids: &'a [String]) -> Vec<Scanned<'a>> {
        spec.chars()
            .zip(ids)
            .map(|(kind, id)| Scanned {
                id,
                fix: kind == 'F',
            })
            .collect()
    }

    /// The ids chosen, and the fixes asked to blame, in order.
    fn choose(
        spec: &str,
        reviewed: &[(&str, &str)],
        wanted: usize,
        origins: &[(&str, Option<&[&str]>)],
        unreviewable: &[&str],
    ) -> (Vec<String>, Vec<String>) {
        let ids = history(spec);
        let history = scanned(spec, &ids);
        let origins: BTreeMap<&str, Option<Vec<String>>> = origins
            .iter()
            .map(|(fix, o)| (*fix, o.map(|o| o.iter().map(|s| s.to_string()).collect())))
            .collect();
        let mut asked = Vec::new();
        let chosen = choose_clean(
            &history,
            reviewed,
            wanted,
            |fix| {
                asked.push(fix.to_string());
                origins.get(fix).cloned().unwrap_or(Some(Vec::new()))
            },
            |id| !unreviewable.contains(&id),
        );
        (chosen.iter().map(|&i| ids[i].clone()).collect(), asked)
    }

    #[test]
    fn the_nearest_commits_to_the_fixes_no_fix_blames_to() {
        //           0123456
        let spec = "cFcFccc";
        // Fix 1 was traced to 4; fix 3 to 6, and it blames 5 too.
        let origins: &[(&str, Option<&[&str]>)] = &[("1", Some(&["4"])), ("3", Some(&["5", "6"]))];
        let reviewed = [("1", "4"), ("3", "6")];
        // 0, 2 and 4 are one away from a fix, 5 two, 6 three; 4, 5 and 6 are blamed to.
        let (chosen, asked) = choose(spec, &reviewed, 3, origins, &[]);
        assert_eq!(chosen, ["0", "2"]);
        assert_eq!(asked, ["1", "3"], "each fix blamed once");
        // Two wanted: the fixes older than the two nearest are not blamed at all.
        let (chosen, asked) = choose(spec, &reviewed, 2, origins, &[]);
        assert_eq!(chosen, ["0", "2"]);
        assert_eq!(asked, ["1"]);
    }

    #[test]
    fn ties_go_to_the_newer_commit_and_the_count_is_kept() {
        let spec = "ccFcc";
        let (chosen, _) = choose(spec, &[("2", "4")], 1, &[("2", Some(&["4"]))], &[]);
        assert_eq!(chosen, ["1"]);
        let (chosen, _) = choose(spec, &[("2", "4")], 5, &[("2", Some(&["4"]))], &[]);
        assert_eq!(chosen, ["0", "1", "3"], "fewer when fewer are clean");
    }

    #[test]
    fn nothing_older_than_the_oldest_commit_reviewed_nor_than_an_unblamed_fix() {
        // Fix 1 traced to 2: nothing past 2 is a candidate.
        let (chosen, _) = choose("cFcccc", &[("1", "2")], 3, &[("1", Some(&["2"]))], &[]);
        assert_eq!(chosen, ["0"]);
        // Fix 2 could not be blamed: 3 and older cannot be vouched for.
        let origins: &[(&str, Option<&[&str]>)] = &[("0", Some(&["5"])), ("2", None)];
        let (chosen, _) = choose("FcFccc", &[("0", "5")], 5, origins, &[]);
        assert_eq!(chosen, ["1"]);
    }

    #[test]
    fn commits_the_replay_cannot_review_are_passed_over() {
        let (chosen, _) = choose("cFccc", &[("1", "4")], 2, &[("1", Some(&["4"]))], &["0"]);
        assert_eq!(chosen, ["2", "3"]);
    }

    #[test]
    fn no_fix_reviewed_no_clean_commit() {
        let (chosen, asked) = choose("cFc", &[], 3, &[], &[]);
        assert!(chosen.is_empty() && asked.is_empty());
        let (chosen, _) = choose("cFc", &[("9", "2")], 3, &[], &[]);
        assert!(
            chosen.is_empty(),
            "a fix outside the history anchors nothing"
        );
    }
}
