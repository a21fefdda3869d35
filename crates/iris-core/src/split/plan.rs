//! The split plan: groups of units in commit order, each with its commit message. The model's
//! plan is untrusted: [`check_plan`] refuses one that names a unit twice, names one that does
//! not exist or has an empty group, and puts the units it left out in a last group of their
//! own. The edits the studio makes keep a checked plan checked.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::units::number_of;

/// The message of the group that holds the units a plan left out.
pub const LEFT_OUT_MESSAGE: &str = "Changes the split plan left out";
/// Characters of a group's message kept at most.
const MAX_MESSAGE_CHARS: usize = 4000;
/// Unknown ids a problem names before "and N more".
const SHOWN_IDS: usize = 3;
/// Characters of a group's reason kept at most.
const MAX_REASON_CHARS: usize = 600;

/// The change split into commits.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SplitPlan {
    /// The commits to make, in the order they are made. Each hunk id is in exactly one group.
    pub groups: Vec<PlanGroup>,
}

/// One commit of the plan.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlanGroup {
    /// The commit message: a title line, a blank line, then the body (the body may be empty).
    pub message: String,
    /// The ids of the hunks this commit takes (`h1`, `h3`, ...).
    pub hunks: Vec<String>,
    /// One sentence: why these hunks belong together.
    #[serde(default)]
    pub reason: String,
    /// The group holds the hunks the plan left out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[schemars(skip)]
    pub left_out: bool,
}

impl PlanGroup {
    /// The message's first line.
    pub fn title(&self) -> &str {
        self.message.lines().next().unwrap_or_default().trim()
    }
}

/// What is wrong with a plan, one problem each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanProblem {
    /// The plan has no group at all.
    NoGroups,
    /// A group's message has no title.
    NoMessage {
        /// The group, numbered from 1.
        group: usize,
    },
    /// A group names no hunk.
    Empty {
        /// The group, numbered from 1.
        group: usize,
    },
    /// Ids that are not units of the change, as the group names them (each once).
    Unknown {
        /// The group, numbered from 1.
        group: usize,
        /// The ids, trimmed.
        ids: Vec<String>,
    },
    /// A hunk named more than once (by two groups, or twice by one).
    Twice {
        /// The hunk's id.
        id: String,
        /// The group that named it first, numbered from 1.
        first: usize,
        /// The group that named it again (the same one when it repeated itself).
        second: usize,
    },
}

impl fmt::Display for PlanProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanProblem::NoGroups => write!(f, "the plan has no group"),
            PlanProblem::NoMessage { group } => write!(f, "group {group} has no message"),
            PlanProblem::Empty { group } => write!(f, "group {group} names no hunk"),
            PlanProblem::Unknown { group, ids } => match ids.as_slice() {
                [id] => write!(
                    f,
                    "group {group} names {id:?}, which is not a hunk of this change"
                ),
                _ => {
                    let shown: Vec<String> = ids
                        .iter()
                        .take(SHOWN_IDS)
                        .map(|id| format!("{id:?}"))
                        .collect();
                    let more = match ids.len().saturating_sub(SHOWN_IDS) {
                        0 => String::new(),
                        n => format!(" and {n} more"),
                    };
                    write!(
                        f,
                        "group {group} names {} ids that are not hunks of this change: {}{more}",
                        ids.len(),
                        shown.join(", ")
                    )
                }
            },
            PlanProblem::Twice { id, first, second } if first == second => {
                write!(f, "group {first} names {id} twice")
            }
            PlanProblem::Twice { id, first, second } => {
                write!(
                    f,
                    "{id} is in group {first} and in group {second}; a hunk goes in one"
                )
            }
        }
    }
}

/// `plan` checked against the units `ids` (in order): every problem, or the plan with ids
/// written as `hN`, each group's ids in the change's order, messages and reasons trimmed and
/// bounded, and the units it left out in a last group ([`LEFT_OUT_MESSAGE`]).
pub fn check_plan(plan: &SplitPlan, ids: &[String]) -> Result<SplitPlan, Vec<PlanProblem>> {
    let known: BTreeMap<usize, &String> = ids
        .iter()
        .filter_map(|id| Some((number_of(id)?, id)))
        .collect();
    let mut problems = Vec::new();
    if plan.groups.is_empty() {
        problems.push(PlanProblem::NoGroups);
    }
    let mut placed: BTreeMap<usize, usize> = BTreeMap::new();
    let mut groups = Vec::with_capacity(plan.groups.len() + 1);
    for (i, group) in plan.groups.iter().enumerate() {
        let number = i + 1;
        let message = bounded(
            &crate::controls::strip(group.message.trim()),
            MAX_MESSAGE_CHARS,
        );
        if message.lines().next().is_none_or(|l| l.trim().is_empty()) {
            problems.push(PlanProblem::NoMessage { group: number });
        }
        if group.hunks.is_empty() {
            problems.push(PlanProblem::Empty { group: number });
        }
        let mut taken = Vec::new();
        let mut unknown: Vec<String> = Vec::new();
        for id in &group.hunks {
            let Some(n) = number_of(id).filter(|n| known.contains_key(n)) else {
                let id = id.trim().to_string();
                if !unknown.contains(&id) {
                    unknown.push(id);
                }
                continue;
            };
            if let Some(&first) = placed.get(&n) {
                let twice = PlanProblem::Twice {
                    id: known[&n].clone(),
                    first,
                    second: number,
                };
                // A model that repeats itself names the same hunk many times: said once.
                if !problems.contains(&twice) {
                    problems.push(twice);
                }
                continue;
            }
            placed.insert(n, number);
            taken.push(n);
        }
        if !unknown.is_empty() {
            problems.push(PlanProblem::Unknown {
                group: number,
                ids: unknown,
            });
        }
        taken.sort_unstable();
        groups.push(PlanGroup {
            message,
            hunks: taken.iter().map(|n| known[n].clone()).collect(),
            reason: bounded(
                &crate::controls::strip(group.reason.trim()),
                MAX_REASON_CHARS,
            ),
            left_out: false,
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let left: Vec<String> = known
        .iter()
        .filter(|(n, _)| !placed.contains_key(n))
        .map(|(_, id)| (*id).clone())
        .collect();
    if !left.is_empty() {
        groups.push(PlanGroup {
            message: LEFT_OUT_MESSAGE.to_string(),
            reason: "The plan named none of these hunks; give them a message of your own.".into(),
            hunks: left,
            left_out: true,
        });
    }
    Ok(SplitPlan { groups })
}

fn bounded(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => text[..cut].trim_end().to_string(),
        None => text.to_string(),
    }
}

impl SplitPlan {
    /// The plan as markdown: each commit's title and its hunks.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("# Split plan\n");
        for (i, group) in self.groups.iter().enumerate() {
            out.push_str(&format!(
                "\n{}. {} ({})",
                i + 1,
                group.title(),
                group.hunks.join(", ")
            ));
        }
        out.push('\n');
        out
    }

    /// The group (0-based) holding `id`.
    pub fn group_of(&self, id: &str) -> Option<usize> {
        self.groups
            .iter()
            .position(|g| g.hunks.iter().any(|h| h == id))
    }

    /// Moves unit `id` to group `to` (0-based; one past the last makes a new group). A group
    /// left empty goes. Returns the group (0-based) the unit is in after the move.
    pub fn move_unit(&mut self, id: &str, to: usize) -> Option<usize> {
        let from = self.group_of(id)?;
        if to > self.groups.len() || to == from {
            return (to == from).then_some(from);
        }
        if to == self.groups.len() {
            self.groups.push(PlanGroup {
                message: format!("Split off {id}"),
                hunks: Vec::new(),
                reason: String::new(),
                left_out: false,
            });
        }
        self.groups[from].hunks.retain(|h| h != id);
        let hunks = &mut self.groups[to].hunks;
        hunks.push(id.to_string());
        hunks.sort_by_key(|h| number_of(h).unwrap_or(0));
        if self.groups[from].hunks.is_empty() {
            self.groups.remove(from);
            return Some(if to > from { to - 1 } else { to });
        }
        Some(to)
    }

    /// Merges group `from` into group `into` (0-based): its hunks join, its message's title
    /// goes into the body. Returns where the merged group is.
    pub fn merge(&mut self, into: usize, from: usize) -> Option<usize> {
        if into == from || into >= self.groups.len() || from >= self.groups.len() {
            return None;
        }
        let gone = self.groups.remove(from);
        let into = if from < into { into - 1 } else { into };
        let group = &mut self.groups[into];
        group.hunks.extend(gone.hunks.iter().cloned());
        group.hunks.sort_by_key(|h| number_of(h).unwrap_or(0));
        if !gone.left_out && !gone.title().is_empty() {
            let sep = if group.message.contains("\n\n") {
                "\n"
            } else {
                "\n\n"
            };
            group.message = format!("{}{sep}- {}", group.message.trim_end(), gone.title());
        }
        group.left_out &= gone.left_out;
        Some(into)
    }

    /// Sets group `group`'s message (0-based). A message with no title is refused.
    pub fn set_message(&mut self, group: usize, message: &str) -> Result<(), &'static str> {
        let message = message.trim();
        if message.lines().next().is_none_or(|l| l.trim().is_empty()) {
            return Err("a commit message needs a title");
        }
        let group = self.groups.get_mut(group).ok_or("no such group")?;
        group.message = bounded(&crate::controls::strip(message), MAX_MESSAGE_CHARS);
        group.left_out = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("h{i}")).collect()
    }

    fn group(message: &str, hunks: &[&str]) -> PlanGroup {
        PlanGroup {
            message: message.into(),
            hunks: hunks.iter().map(|s| s.to_string()).collect(),
            reason: "because".into(),
            left_out: false,
        }
    }

    /// What is wrong with `plan` over a change of `units` units, as said.
    fn said(plan: &SplitPlan, units: usize) -> Vec<String> {
        let problems = check_plan(plan, &ids(units)).unwrap_err();
        problems.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_good_plan_is_kept_in_the_change_order() {
        let plan = SplitPlan {
            groups: vec![group("fix: a", &["h3", "H1"]), group("feat: b", &["2"])],
        };
        let checked = check_plan(&plan, &ids(3)).unwrap();
        assert_eq!(checked.groups[0].hunks, vec!["h1", "h3"]);
        assert_eq!(checked.groups[1].hunks, vec!["h2"]);
        assert_eq!(checked.groups.len(), 2);
    }

    #[test]
    fn left_out_units_go_to_a_last_group_of_their_own() {
        let plan = SplitPlan {
            groups: vec![group("fix: a", &["h2"])],
        };
        let checked = check_plan(&plan, &ids(4)).unwrap();
        let last = checked.groups.last().unwrap();
        assert!(last.left_out);
        assert_eq!(last.message, LEFT_OUT_MESSAGE);
        assert_eq!(last.hunks, vec!["h1", "h3", "h4"]);
    }

    #[test]
    fn every_problem_is_named() {
        let plan = SplitPlan {
            groups: vec![
                group("fix: a", &["h1", "h1"]),
                group("", &["h2", "h9"]),
                group("feat: c", &[]),
                group("feat: d", &["h2"]),
            ],
        };
        let problems = said(&plan, 3);
        assert_eq!(
            problems,
            vec![
                "group 1 names h1 twice",
                "group 2 has no message",
                "group 2 names \"h9\", which is not a hunk of this change",
                "group 3 names no hunk",
                "h2 is in group 2 and in group 4; a hunk goes in one",
            ]
        );
        assert_eq!(
            check_plan(&SplitPlan::default(), &ids(1)).unwrap_err(),
            vec![PlanProblem::NoGroups]
        );
    }

    #[test]
    fn a_plan_that_repeats_itself_is_told_so_once() {
        let mut hunks = vec!["h1"; 50];
        hunks.extend(["10-21", "22-25", "x", "10-21", "y"]);
        let plan = SplitPlan {
            groups: vec![group("fix: a", &hunks)],
        };
        let problems = said(&plan, 2);
        assert_eq!(
            problems,
            vec![
                "group 1 names h1 twice",
                "group 1 names 4 ids that are not hunks of this change: \"10-21\", \"22-25\", \"x\" and 1 more",
            ]
        );
    }

    #[test]
    fn messages_lose_control_characters_and_are_bounded() {
        let long = format!("fix: \u{1b}[31mred\u{1b}[0m\n\n{}", "x".repeat(10_000));
        let plan = SplitPlan {
            groups: vec![group(&long, &["h1"])],
        };
        let checked = check_plan(&plan, &ids(1)).unwrap();
        assert!(checked.groups[0].message.starts_with("fix: [31mred[0m\n\n"));
        assert!(checked.groups[0].message.chars().count() <= MAX_MESSAGE_CHARS);
    }

    #[test]
    fn moving_and_merging_keep_every_unit_once() {
        let mut plan = SplitPlan {
            groups: vec![
                group("a", &["h1", "h2"]),
                group("b", &["h3"]),
                group("c", &["h4"]),
            ],
        };
        assert_eq!(plan.move_unit("h3", 0), Some(0));
        assert_eq!(plan.groups.len(), 2, "group b went empty");
        assert_eq!(plan.groups[0].hunks, vec!["h1", "h2", "h3"]);
        assert_eq!(plan.move_unit("h1", 2), Some(2));
        assert_eq!(plan.groups[2].hunks, vec!["h1"]);
        assert_eq!(plan.groups[2].title(), "Split off h1");
        assert_eq!(plan.merge(1, 2), Some(1));
        assert_eq!(plan.groups[1].hunks, vec!["h1", "h4"]);
        assert_eq!(plan.groups[1].message, "c\n\n- Split off h1");
        assert_eq!(plan.move_unit("h9", 0), None);
        assert_eq!(plan.merge(0, 0), None);
        assert!(check_plan(&plan, &ids(4)).is_ok_and(|p| p.groups.len() == 2));
        assert!(plan.set_message(0, "  \n").is_err());
        assert!(plan.set_message(0, "feat: new\n\nbody").is_ok());
        assert_eq!(plan.groups[0].title(), "feat: new");
    }
}
