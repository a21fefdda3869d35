//! The two-stage path's first answer: which line ranges the model wants to read before it
//! explains the file, bounded before anything is read.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use iris_studio_core::artifact::intent::{clean_ranges, range_pair};

/// Ranges one plan may ask for at most.
pub const MAX_PLAN_RANGES: usize = 12;
/// Lines one plan may read in all.
pub const MAX_PLAN_LINES: usize = 1_200;

/// What the model answers in the first of the two stages. Its doc comments are the schema's
/// descriptions, so they are written for the model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ReadPlan {
    /// The line ranges to read before explaining the file, most important first, each
    /// `[start, end]` (1-based, inclusive). An empty list when the outline is enough.
    pub ranges: Vec<Vec<i64>>,
}

/// The ranges of `plan` that will be read from a file of `lines` lines: each clamped into
/// the file (impossible ones dropped), taken in the model's order while fewer than
/// [`MAX_PLAN_RANGES`] and [`MAX_PLAN_LINES`] lines in all (the last one cut to fit), then
/// sorted and merged.
pub fn bounded(plan: &ReadPlan, lines: usize) -> Vec<(usize, usize)> {
    let mut taken = Vec::new();
    let mut budget = MAX_PLAN_LINES;
    for range in &plan.ranges {
        if taken.len() == MAX_PLAN_RANGES || budget == 0 {
            break;
        }
        let Some(&(start, end)) = clean_ranges([range_pair(range)], lines).first() else {
            continue;
        };
        let end = end.min(start + budget - 1);
        budget -= end - start + 1;
        taken.push(Some((start as i64, end as i64)));
    }
    clean_ranges(taken, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(ranges: &[&[i64]]) -> ReadPlan {
        ReadPlan {
            ranges: ranges.iter().map(|r| r.to_vec()).collect(),
        }
    }

    #[test]
    fn a_plan_is_clamped_sorted_and_merged() {
        let asked = plan(&[
            &[80, 95],
            &[10, 20],
            &[15, 30],
            &[500, 600],
            &[9, 1],
            &[290, 400],
        ]);
        assert_eq!(bounded(&asked, 300), vec![(10, 30), (80, 95), (290, 300)]);
        assert!(bounded(&ReadPlan::default(), 300).is_empty());
    }

    #[test]
    fn a_plan_is_bounded_in_ranges_and_lines() {
        let many: Vec<Vec<i64>> = (0..30).map(|i| vec![i * 10 + 1, i * 10 + 2]).collect();
        let read = bounded(&ReadPlan { ranges: many }, 1_000);
        assert_eq!(read.len(), MAX_PLAN_RANGES);
        let huge = plan(&[&[1, 1_000], &[2_001, 3_000], &[5_000, 5_010]]);
        let read = bounded(&huge, 10_000);
        assert_eq!(read, vec![(1, 1_000), (2_001, 2_200)]);
        let total: usize = read.iter().map(|(a, b)| b - a + 1).sum();
        assert_eq!(total, MAX_PLAN_LINES);
    }
}
