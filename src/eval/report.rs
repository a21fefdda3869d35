//! What `iris eval` prints: a row per commit as it is scored (a table, or with `--json` one
//! object a line), then a summary per variant; and the baseline an earlier `--json` run left.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use iris_studio_core::eval::{Outcome, Recall, Summary};
use iris_studio_git::CommitInfo;

/// One commit's result for one variant.
pub struct Row<'a> {
    pub commit: &'a CommitInfo,
    pub variant: &'a str,
    /// The message Iris wrote.
    pub message: Option<String>,
    /// Why none came, in the run's own words.
    pub error: Option<String>,
    pub outcome: Outcome,
    /// What the first request held of the author's message (`--evidence`'s measure).
    pub evidence: Option<&'a Recall>,
}

/// Title columns are cut to this many characters.
const TITLE_WIDTH: usize = 38;

pub fn table_header(variants: bool) -> String {
    let variant = if variants {
        format!("{:<16} ", "variant")
    } else {
        String::new()
    };
    format!(
        "{:<9} {variant}{:>5} {:>5} {:>7} {:>6}  {:<TITLE_WIDTH$}  iris' title",
        "commit", "dist", "title", "tokens", "secs", "author's title"
    )
}

pub fn table_row(row: &Row<'_>, variants: bool) -> String {
    let variant = if variants {
        format!("{:<16} ", cut(row.variant, 16))
    } else {
        String::new()
    };
    let o = &row.outcome;
    let (distance, title_distance, written) = match &o.result {
        Ok(score) => (
            format!("{:.2}", score.distance),
            format!("{:.2}", score.title_distance),
            row.message.as_deref().map(title).unwrap_or_default(),
        ),
        Err(failure) => (
            "-".into(),
            "-".into(),
            format!("(none: {})", failure.as_str()),
        ),
    };
    format!(
        "{:<9} {variant}{distance:>5} {title_distance:>5} {:>7} {:>6.1}  {:<TITLE_WIDTH$}  {}",
        row.commit.short_id,
        o.input_tokens + o.output_tokens,
        o.seconds,
        cut(&row.commit.summary, TITLE_WIDTH),
        cut(&written, TITLE_WIDTH * 2),
    )
}

pub fn json_row(row: &Row<'_>) -> Value {
    let o = &row.outcome;
    let mut value = json!({
        "commit": row.commit.id,
        "variant": row.variant,
        "author_title": row.commit.summary,
        "iris_title": row.message.as_deref().map(title),
        "message": row.message,
        "requests": o.requests,
        "input_tokens": o.input_tokens,
        "output_tokens": o.output_tokens,
        "seconds": o.seconds,
        "failure": o.result.as_ref().err().map(|f| f.as_str()),
        "error": row.error,
    });
    if let (Ok(score), Some(map)) = (&o.result, value.as_object_mut())
        && let Ok(Value::Object(scores)) = serde_json::to_value(score)
    {
        map.extend(scores);
    }
    if let Some(recall) = row.evidence {
        value["evidence_terms"] = json!(recall.terms.len());
        value["evidence_found"] = json!(recall.found.len());
        value["evidence_recall"] = json!(recall.share());
    }
    value
}

/// Evidence recall over the commits: what the first requests held of the authors' messages.
pub fn evidence_summary(recalls: &[Recall]) -> (String, Value) {
    let shares: Vec<f64> = recalls.iter().filter_map(Recall::share).collect();
    let terms: usize = recalls.iter().map(|r| r.terms.len()).sum();
    let found: usize = recalls.iter().map(|r| r.found.len()).sum();
    let mean = (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64);
    let text = match mean {
        Some(mean) => format!(
            "evidence recall (the first request, as --evidence measures it): {:.0}% on average, \
             {found} of {terms} terms over {} messages that have any",
            mean * 100.0,
            shares.len()
        ),
        None => "evidence recall: no message named code, paths or numbers".to_string(),
    };
    let json = json!({"evidence": {"recall_mean": mean, "terms": terms, "found": found, "with_terms": shares.len()}});
    (text, json)
}

pub fn json_summary(variant: &str, summary: &Summary) -> Value {
    json!({ "variant": variant, "summary": summary })
}

/// The summary in words; `variant` is named when there are several.
pub fn summary_text(variant: Option<&str>, s: &Summary) -> String {
    let name = variant.map(|v| format!(" ({v})")).unwrap_or_default();
    let mut text = format!(
        "summary{name}: {}/{} written ({:.0}%)",
        s.written,
        s.commits,
        s.share_written * 100.0
    );
    if let (Some(median), Some(mean)) = (s.median_distance, s.mean_distance) {
        text.push_str(&format!(" · distance median {median:.2}, mean {mean:.2}"));
    }
    if let Some(title) = s.median_title_distance {
        text.push_str(&format!(" · title distance median {title:.2}"));
    }
    text.push_str(&format!(
        "\n  seconds p50 {:.1}, p90 {:.1} · {} request(s) · tokens in {} / out {}",
        s.p50_seconds, s.p90_seconds, s.requests, s.input_tokens, s.output_tokens
    ));
    if let Some(per) = s.tokens_per_message {
        text.push_str(&format!(" · {per:.0} per message"));
    }
    let mut shares = Vec::new();
    for (what, share) in [
        ("titles within 72", s.titles_within_72),
        ("type as the author's", s.type_agreement),
        ("body where the author wrote one", s.body_agreement),
    ] {
        if let Some(share) = share {
            shares.push(format!("{what} {:.0}%", share * 100.0));
        }
    }
    if !shares.is_empty() || s.rules_broken > 0 {
        shares.push(format!("commit rules broken {}", s.rules_broken));
        text.push_str(&format!("\n  {}", shares.join(" · ")));
    }
    if !s.failures.is_empty() {
        let failures: Vec<String> = s
            .failures
            .iter()
            .map(|(f, n)| format!("{} {n}", f.as_str()))
            .collect();
        text.push_str(&format!("\n  no message: {}", failures.join(", ")));
    }
    text
}

/// The summaries of an earlier `--json` run, by variant.
pub fn read_baseline(path: &Path) -> Result<Vec<(String, Summary)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the baseline {}", path.display()))?;
    let mut summaries = Vec::new();
    for line in text.lines().filter(|l| l.contains("\"summary\"")) {
        let value: Value = serde_json::from_str(line).with_context(|| {
            format!(
                "the baseline {} is not `iris eval --json` output",
                path.display()
            )
        })?;
        let summary: Summary =
            serde_json::from_value(value["summary"].clone()).with_context(|| {
                format!(
                    "the baseline {} holds a summary iris cannot read",
                    path.display()
                )
            })?;
        let variant = value["variant"].as_str().unwrap_or_default().to_string();
        summaries.push((variant, summary));
    }
    if summaries.is_empty() {
        anyhow::bail!(
            "the baseline {} holds no summary (write one with `iris eval --json > FILE`)",
            path.display()
        );
    }
    Ok(summaries)
}

/// A message's first line.
fn title(message: &str) -> String {
    message
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// `text` on one line, control characters shown escaped, at most `width` cells.
fn cut(text: &str, width: usize) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    iris_studio_core::text::clip(&shown, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_cut_and_control_characters_escaped() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("a longer title", 8), "a longe…");
        assert_eq!(cut("bell\u{7}\u{1b}[31m", 40), "bell\\u{7}\\u{1b}[31m");
    }
}
