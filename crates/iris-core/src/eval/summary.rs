//! A run's outcomes summed up, and the comparison with an earlier run (the regression gate).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Score;

/// Why no message came for a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The reply looped or made no progress and was cut.
    Runaway,
    /// The run passed its deadline.
    Deadline,
    /// The reply did not hold the artifact's JSON.
    Schema,
    /// The reply repeated its instructions instead of writing, even when asked again.
    Echo,
    /// The reply's title was no title (a line of the evidence, no words), even when asked
    /// again.
    NoTitle,
    /// The provider refused or could not be reached.
    Provider,
    /// Anything else.
    Other,
}

impl Failure {
    /// The snake_case name, as the summary's JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Failure::Runaway => "runaway",
            Failure::Deadline => "deadline",
            Failure::Schema => "schema",
            Failure::Echo => "echo",
            Failure::NoTitle => "no_title",
            Failure::Provider => "provider",
            Failure::Other => "other",
        }
    }
}

/// What came of one commit: a scored message or a failure, and what it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The message's score, or why there is none.
    pub result: Result<Score, Failure>,
    /// Requests made to the provider.
    pub requests: usize,
    /// Tokens sent to the model.
    pub input_tokens: u64,
    /// Tokens the model wrote.
    pub output_tokens: u64,
    /// Wall-clock time the commit took.
    pub seconds: f64,
}

/// A run in figures. Distances are over the messages written; the share written says how
/// many that was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Commits replayed.
    pub commits: usize,
    /// Commits a message was written for.
    pub written: usize,
    /// `written` over `commits` (0 for no commit).
    pub share_written: f64,
    /// Median word edit distance from the authors' messages.
    pub median_distance: Option<f64>,
    /// Mean word edit distance from the authors' messages.
    pub mean_distance: Option<f64>,
    /// Median word edit distance from the authors' titles.
    pub median_title_distance: Option<f64>,
    /// Median time per commit, in seconds.
    pub p50_seconds: f64,
    /// 90th percentile of the time per commit, in seconds.
    pub p90_seconds: f64,
    /// Requests made to the provider, over all commits.
    pub requests: usize,
    /// Tokens sent to the model, over all commits.
    pub input_tokens: u64,
    /// Tokens the model wrote, over all commits.
    pub output_tokens: u64,
    /// Input and output tokens per message written.
    pub tokens_per_message: Option<f64>,
    /// Share of written titles within 72 characters.
    pub titles_within_72: Option<f64>,
    /// Share of written messages with the author's conventional type, where types count.
    pub type_agreement: Option<f64>,
    /// Share of written messages with a body where the author wrote one.
    pub body_agreement: Option<f64>,
    /// Commit rules broken, over all messages written.
    pub rules_broken: usize,
    /// Commits without a message, by why.
    pub failures: BTreeMap<Failure, usize>,
}

/// Sums up a run's outcomes, one per commit replayed.
pub fn summarize(outcomes: &[Outcome]) -> Summary {
    let scores: Vec<&Score> = outcomes
        .iter()
        .filter_map(|o| o.result.as_ref().ok())
        .collect();
    let written = scores.len();
    let distances: Vec<f64> = scores.iter().map(|s| s.distance).collect();
    let titles: Vec<f64> = scores.iter().map(|s| s.title_distance).collect();
    let seconds: Vec<f64> = outcomes.iter().map(|o| o.seconds).collect();
    let input_tokens = outcomes.iter().map(|o| o.input_tokens).sum();
    let output_tokens = outcomes.iter().map(|o| o.output_tokens).sum();
    let mut failures = BTreeMap::new();
    for failure in outcomes.iter().filter_map(|o| o.result.as_ref().err()) {
        *failures.entry(*failure).or_insert(0) += 1;
    }
    Summary {
        commits: outcomes.len(),
        written,
        share_written: ratio(written, outcomes.len()).unwrap_or(0.0),
        median_distance: median(&distances),
        mean_distance: mean(&distances),
        median_title_distance: median(&titles),
        p50_seconds: percentile(&seconds, 0.5).unwrap_or(0.0),
        p90_seconds: percentile(&seconds, 0.9).unwrap_or(0.0),
        requests: outcomes.iter().map(|o| o.requests).sum(),
        input_tokens,
        output_tokens,
        tokens_per_message: (written > 0)
            .then(|| (input_tokens + output_tokens) as f64 / written as f64),
        titles_within_72: share(scores.iter().map(|s| Some(s.title_within_72))),
        type_agreement: share(scores.iter().map(|s| s.type_matches)),
        body_agreement: share(scores.iter().map(|s| s.body_where_author)),
        rules_broken: scores.iter().map(|s| s.rules_broken).sum(),
        failures,
    }
}

/// The share of `true` among the values that are judged (`Some`).
pub(super) fn share(values: impl Iterator<Item = Option<bool>>) -> Option<f64> {
    let judged: Vec<bool> = values.flatten().collect();
    ratio(judged.iter().filter(|&&b| b).count(), judged.len())
}

fn ratio(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

pub(super) fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The middle value (the mean of the two middle ones for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    let sorted = sorted(values);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The nearest-rank percentile `p` (0 to 1): the smallest value with at least `p` of the
/// values at or below it.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    let sorted = sorted(values);
    let rank = (p.clamp(0.0, 1.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.max(1) - 1).copied()
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// What the comparison with an earlier run found: empty when this run is no worse.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verdict {
    /// Each way this run is worse than the earlier one, in words.
    pub regressions: Vec<String>,
}

impl Verdict {
    /// Whether any regression was found (the gate fails).
    pub fn is_worse(&self) -> bool {
        !self.regressions.is_empty()
    }
}

/// Compares `current` with `baseline`: worse when its median distance is higher by more
/// than `margin`, or a smaller share of the commits got a message.
pub fn compare(current: &Summary, baseline: &Summary, margin: f64) -> Verdict {
    let mut regressions = Vec::new();
    // A tiny tolerance, so the same run read back from JSON is never "fewer".
    if current.share_written + 1e-9 < baseline.share_written {
        regressions.push(format!(
            "fewer messages written: {}/{} against {}/{} in the baseline",
            current.written, current.commits, baseline.written, baseline.commits
        ));
    }
    if let (Some(now), Some(before)) = (current.median_distance, baseline.median_distance)
        && now > before + margin + 1e-9
    {
        regressions.push(format!(
            "median distance {now:.3} against {before:.3} in the baseline (worse by more than {margin})"
        ));
    }
    Verdict { regressions }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(distance: f64, seconds: f64) -> Outcome {
        Outcome {
            result: Ok(Score {
                distance,
                title_distance: distance / 2.0,
                title_chars: 30,
                title_within_72: true,
                type_matches: Some(distance < 0.5),
                body_where_author: None,
                rules_broken: 1,
            }),
            requests: 1,
            input_tokens: 100,
            output_tokens: 20,
            seconds,
        }
    }

    fn failed(failure: Failure, seconds: f64) -> Outcome {
        Outcome {
            result: Err(failure),
            requests: 1,
            input_tokens: 100,
            output_tokens: 0,
            seconds,
        }
    }

    #[test]
    fn sums_up_a_run() {
        let run = [
            written(0.2, 1.0),
            written(0.6, 2.0),
            written(0.4, 3.0),
            failed(Failure::Runaway, 10.0),
        ];
        let s = summarize(&run);
        assert_eq!((s.commits, s.written), (4, 3));
        assert_eq!(s.share_written, 0.75);
        assert_eq!(s.median_distance, Some(0.4));
        assert!((s.mean_distance.unwrap() - 0.4).abs() < 1e-9);
        assert_eq!(s.median_title_distance, Some(0.2));
        // Seconds 1, 2, 3, 10: nearest rank p50 = 2, p90 = 10.
        assert_eq!((s.p50_seconds, s.p90_seconds), (2.0, 10.0));
        assert_eq!((s.requests, s.input_tokens, s.output_tokens), (4, 400, 60));
        assert!((s.tokens_per_message.unwrap() - 460.0 / 3.0).abs() < 1e-9);
        assert!((s.type_agreement.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.body_agreement, None);
        assert_eq!(s.rules_broken, 3);
        assert_eq!(s.failures.get(&Failure::Runaway), Some(&1));
    }

    #[test]
    fn an_empty_run_has_no_distances() {
        let s = summarize(&[]);
        assert_eq!(s.median_distance, None);
        assert_eq!(s.share_written, 0.0);
        assert_eq!(median(&[0.1, 0.3]), Some(0.2));
        assert_eq!(percentile(&[], 0.5), None);
        assert_eq!(percentile(&[5.0], 0.0), Some(5.0));
    }

    #[test]
    fn the_gate_fails_a_worse_median_or_fewer_messages_only() {
        let base = summarize(&[written(0.4, 1.0), written(0.4, 1.0)]);
        assert!(!compare(&base, &base, 0.05).is_worse());
        let slightly = summarize(&[written(0.44, 1.0), written(0.44, 1.0)]);
        assert!(!compare(&slightly, &base, 0.05).is_worse());
        let worse = summarize(&[written(0.5, 1.0), written(0.5, 1.0)]);
        let verdict = compare(&worse, &base, 0.05);
        assert!(verdict.is_worse());
        assert!(
            verdict.regressions[0].contains("median distance 0.500"),
            "{verdict:?}"
        );
        let fewer = summarize(&[written(0.1, 1.0), failed(Failure::Deadline, 1.0)]);
        let verdict = compare(&fewer, &base, 0.05);
        assert!(verdict.regressions[0].contains("fewer messages written: 1/2"));
        // Better is never a regression.
        assert!(!compare(&base, &worse, 0.05).is_worse());
    }

    #[test]
    fn a_summary_reads_back_from_its_json() {
        let s = summarize(&[written(0.4, 1.0), failed(Failure::Schema, 2.0)]);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"schema\":1"), "{json}");
        let back: Summary = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
    }
}
