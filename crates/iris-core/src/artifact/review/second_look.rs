//! The second look at a review's findings: the model is shown each finding with the code
//! around it and says whether it holds. Dropped findings are folded, never deleted.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Check, Review};
use crate::change::{FileDiff, LineKind};

/// Lines of code shown above and below a finding's line.
const AROUND: u32 = 6;

/// Whether one finding holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Verdict {
    /// The finding's id as the request gives it: `f1`, `f2`, ...
    pub id: String,
    /// true when the code shown proves the problem is real, false when it does not.
    pub keep: bool,
    /// Why, in one sentence, pointing at the code.
    pub reason: String,
}

/// The verdicts on a review's findings, one for each.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct SecondLook {
    /// One verdict for each finding of the request.
    pub verdicts: Vec<Verdict>,
}

impl SecondLook {
    /// One `- f1 keep: reason` line per verdict.
    pub fn to_markdown(&self) -> String {
        self.verdicts
            .iter()
            .map(|v| {
                let said = if v.keep { "keep" } else { "drop" };
                format!("- {} {said}: {}\n", v.id, v.reason.trim())
            })
            .collect()
    }
}

/// The findings worth a second look (those not already folded as unverified), as `f1`, `f2`,
/// ... each with its title, body and the code around its line; None when there is none.
pub fn second_look_request(review: &Review, diffs: &[FileDiff]) -> Option<String> {
    let mut out = String::new();
    for (i, finding) in review.findings.iter().enumerate() {
        if finding.check.as_ref().is_some_and(Check::folds) {
            continue;
        }
        let code = diffs
            .iter()
            .find(|d| d.path == finding.file)
            .map(|d| around(d, finding.line))
            .unwrap_or_default();
        out.push_str(&format!(
            "### f{} · {} · {} ({})\n\n{}\n\n```\n{}```\n\n",
            i + 1,
            finding.severity.name(),
            finding.title.trim(),
            finding.location(),
            finding.body.trim(),
            code
        ));
    }
    if out.is_empty() {
        return None;
    }
    Some(format!(
        "A reviewer reported these findings on a change. Look at each again with the code \
         around it (lines of the change marked +, removed lines -, unchanged lines without a \
         mark) and say whether it holds: keep it only when the code shows the problem is \
         real; drop it when the code contradicts it, it rests on a guess, or it is a matter \
         of taste. One verdict for each finding, by its id. Answer at once.\n\n{out}"
    ))
}

/// The hunk lines within AROUND of `line` (the file's first hunk for a finding without one),
/// numbered on the new side.
fn around(diff: &FileDiff, line: Option<u32>) -> String {
    let mut out = String::new();
    let near = |n: u32| line.is_none_or(|l| n.abs_diff(l) <= AROUND);
    for hunk in &diff.hunks {
        for (l, _, number) in hunk.numbered() {
            let mark = match l.kind {
                LineKind::Removed => "-",
                LineKind::Added => "+",
                LineKind::Context => " ",
            };
            if near(number) {
                out.push_str(&format!("{number:>5} {mark}{}\n", l.content));
            }
        }
        if line.is_none() && !out.is_empty() {
            break;
        }
    }
    out
}

/// Applies the verdicts: a finding dropped is folded with the reason (an id the model
/// invented, or a finding it left out, changes nothing). Returns how many were dropped.
pub fn apply_second_look(review: &mut Review, look: &SecondLook) -> usize {
    let mut dropped = 0;
    for verdict in look.verdicts.iter().filter(|v| !v.keep) {
        let index = verdict
            .id
            .trim()
            .trim_start_matches(['f', 'F'])
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1));
        let Some(finding) = index.and_then(|i| review.findings.get_mut(i)) else {
            continue;
        };
        if finding.check.as_ref().is_some_and(Check::folds) {
            continue;
        }
        let why = match verdict.reason.trim() {
            "" => "no reason given".to_string(),
            reason => reason.trim_end_matches('.').to_string(),
        };
        finding.check = Some(Check::Dropped { why });
        dropped += 1;
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::{Finding, Severity};
    use crate::change::parse_unified_diff;

    const DIFF: &str = "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1,2 +1,3 @@\n fn a() {\n-    1\n+    let x = v[9];\n+    x\n";

    fn review() -> Review {
        let finding = |title: &str, check: Option<Check>| Finding {
            severity: Severity::High,
            file: "a.rs".into(),
            line: Some(2),
            title: title.into(),
            body: "Index out of bounds.".into(),
            check,
            ..Finding::default()
        };
        Review {
            findings: vec![
                finding("Panics", Some(Check::Placed)),
                finding("Invented", Some(Check::Unverified { why: "x".into() })),
                finding("Taste", Some(Check::Placed)),
            ],
            ..Review::default()
        }
    }

    #[test]
    fn the_request_shows_each_checked_finding_with_its_code() {
        let asked = second_look_request(&review(), &parse_unified_diff(DIFF)).expect("asked");
        assert!(asked.contains("### f1 · high · Panics (a.rs:2)\n\nIndex out of bounds.\n\n```\n    1  fn a() {\n    2 -    1\n    2 +    let x = v[9];\n    3 +    x\n```"), "{asked}");
        assert!(
            !asked.contains("Invented") && asked.contains("### f3 · high · Taste"),
            "{asked}"
        );
        let mut none = review();
        none.findings.truncate(0);
        assert_eq!(second_look_request(&none, &[]), None);
    }

    #[test]
    fn dropped_findings_fold_with_the_reason_and_unknown_ids_change_nothing() {
        let mut review = review();
        let look = SecondLook {
            verdicts: vec![
                Verdict {
                    id: "f1".into(),
                    keep: true,
                    reason: "v has 3 items.".into(),
                },
                Verdict {
                    id: "f3".into(),
                    keep: false,
                    reason: "A matter of taste.".into(),
                },
                Verdict {
                    id: "f2".into(),
                    keep: false,
                    reason: "Folded already".into(),
                },
                Verdict {
                    id: "f9".into(),
                    keep: false,
                    reason: "Invented".into(),
                },
            ],
        };
        assert_eq!(apply_second_look(&mut review, &look), 1);
        assert_eq!(review.findings[0].check, Some(Check::Placed));
        assert_eq!(
            review.findings[2].check,
            Some(Check::Dropped {
                why: "A matter of taste".into()
            })
        );
        assert!(review.findings[2].folded(70));
        let md = review.to_markdown();
        assert!(
            md.contains(&format!(
                "### Taste (`a.rs:2`) · dropped · id {}\n\n_Dropped on a second look: A matter \
                 of taste._",
                crate::artifact::review::memory::finding_id(&review.findings[2])
            )),
            "{md}"
        );
        assert!(md.contains("1 dropped on a second look (folded)"), "{md}");
    }
}
