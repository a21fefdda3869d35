//! `iris eval --reviews`: Iris' reviews scored on the bugs this repository later fixed. For
//! each fix commit (its message matching `--fixes`, or [`FIX_PATTERN`]), the lines it
//! changed are blamed at its parent; when they all come from one commit, that commit is
//! replayed as the change to review (as `iris eval` replays a commit: nothing of the fix or of
//! later history in view) and Iris reviews it. A finding on a fixed line, or within
//! [`NEAR`] lines of one in the same file, is a hit.

use std::collections::BTreeSet;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use iris_agent::IrisAgent;
use iris_agent::capability::requests::Scope;
use iris_config::Config;
use iris_core::artifact::ArtifactKind;
use iris_core::artifact::review::ReviewOptions;
use iris_core::eval::{FIX_PATTERN, NEAR, Placed, fixed_lines, hits, median};
use iris_git::{CommitInfo, DiffTarget, GitRepo, Replay};

use super::select::{self, Filters, Source};
use crate::app::Workspace;
use crate::output::exit::UsageError;

/// One fix, reviewed.
struct Reviewed {
    hit: bool,
    findings: usize,
    hitting: usize,
    input_tokens: u64,
    output_tokens: u64,
    seconds: f64,
}

/// Reviews each fix's introducing commit and scores the findings, printing a row each and
/// a summary.
pub async fn run(
    ws: &Workspace,
    (source, mut filters): (Source, Filters),
    fixes: Option<&str>,
    variants: Vec<(String, Config)>,
    review: ReviewOptions,
    json: bool,
    baseline: Option<(Vec<Value>, f64)>,
) -> Result<ExitCode> {
    let repo = &ws.repo;
    let source = source.resolved(ws.vcs.as_ref(), repo)?;
    let pattern = fixes.unwrap_or(FIX_PATTERN);
    filters.only = Some(
        regex::Regex::new(pattern)
            .map_err(|e| UsageError(format!("--fixes is not a regular expression: {e}")))?,
    );
    // `--last N` is the last N fixes that can be reviewed: the history is read on until then.
    let (scan, wanted) = match &source {
        Source::Last { n, top } => (
            Source::Last {
                n: usize::MAX,
                top: top.clone(),
            },
            *n,
        ),
        other => (other.clone(), usize::MAX),
    };
    let choice = select::choose(repo, &scan, &filters)?;
    for (id, why) in &choice.skipped {
        eprintln!("skipped {id}: {why}");
    }
    if choice.commits.is_empty() {
        return Err(UsageError(format!(
            "no fix commit to learn from: no message matches `{pattern}` (--fixes REGEX \
             chooses), or the filters above left none"
        ))
        .into());
    }
    match &source {
        Source::Last { n, .. } => {
            eprintln!("reviewing the commits behind the last {n} fixes that can be")
        }
        _ => eprintln!(
            "reviewing the commits behind {} fixes",
            choice.commits.len()
        ),
    }
    let replay = crate::app::replayed::replay_of(repo)?;
    // Each variant's Iris reviews in the replay but saves a reply she cannot read in the
    // user's stores, which outlive the replay.
    let irises = variants
        .iter()
        .map(|(_, config)| {
            let iris = crate::app::iris::configured(config, replay.root(), &ws.stores, false)?;
            Ok(iris.with_review(ReviewOptions {
                verify: review.verify || config.review_verify,
                ..review.clone()
            }))
        })
        .collect::<Result<Vec<_>>>()?;
    let several = variants.len() > 1;
    if !json {
        println!(
            "{:<9} {:<9} {:>8} {:>5} {:>4} {:>8} {:>6}  {}fix",
            "fix",
            "wrote",
            "findings",
            "hits",
            "hit",
            "tokens",
            "secs",
            if several { "model · " } else { "" }
        );
    }
    let mut reviewed: Vec<Vec<Reviewed>> = variants.iter().map(|_| Vec::new()).collect();
    let mut failed = vec![0usize; variants.len()];
    let mut taken = 0;
    for fix in &choice.commits {
        if taken >= wanted {
            break;
        }
        let (introducing, targets) = match wrong_lines(repo, fix, filters.max_lines) {
            Ok(found) => found,
            Err(why) => {
                eprintln!("skipped {}: {why}", fix.short_id);
                continue;
            }
        };
        taken += 1;
        let each = variants
            .iter()
            .zip(&irises)
            .zip(&mut reviewed)
            .zip(&mut failed);
        for ((((label, _), iris), done), failed) in each {
            let asked = Asked {
                iris,
                replay: &replay,
            };
            let row = asked.review(&introducing, &targets).await;
            let variant = several.then_some(label.as_str());
            let (line, one) = row_of(fix, &introducing, &targets, row, json, variant);
            println!("{}", crate::output::said::shown(&line));
            match one {
                Some(one) => done.push(one),
                None => *failed += 1,
            }
        }
    }
    drop(replay);
    let mut worse = false;
    for (((label, _), done), failed) in variants.iter().zip(&reviewed).zip(&failed) {
        let mut summary = summary(done, *failed);
        summary["variant"] = json!(label);
        if json {
            println!("{summary}");
        } else if several {
            println!("\n{label}: {}", summary_text(&summary));
        } else {
            println!("\n{}", summary_text(&summary));
        }
        if let Some((earlier, margin)) = &baseline {
            worse |= compare(label, &summary, earlier, *margin, variants.len() == 1);
        }
        worse |= super::all_failed(label, "reviews", done.len(), *failed);
    }
    Ok(if worse {
        ExitCode::from(crate::output::exit::GENERAL)
    } else {
        ExitCode::SUCCESS
    })
}

/// The summaries of an earlier `--reviews --json` run, in the file at `path`.
pub fn read_baseline(path: &std::path::Path) -> Result<Vec<Value>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the baseline {}", path.display()))?;
    let summaries: Vec<Value> = text
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|v| v["summary"] == true && v.get("hit_rate").is_some())
        .collect();
    if summaries.is_empty() {
        return Err(UsageError(format!(
            "{} holds no summary of `iris eval --reviews --json`",
            path.display()
        ))
        .into());
    }
    Ok(summaries)
}

/// Whether `summary` is worse than its baseline's (a hit rate lower by more than `margin`),
/// said on stderr either way.
fn compare(label: &str, summary: &Value, earlier: &[Value], margin: f64, only: bool) -> bool {
    let found = earlier
        .iter()
        .find(|e| e["variant"] == label)
        .or_else(|| (only && earlier.len() == 1).then(|| &earlier[0]));
    let Some(earlier) = found else {
        eprintln!("warning: the baseline has no summary for {label}; not compared");
        return false;
    };
    match (summary["hit_rate"].as_f64(), earlier["hit_rate"].as_f64()) {
        (None, Some(_)) => {
            eprintln!("worse than the baseline ({label}): no fix was reviewed");
            true
        }
        (Some(now), Some(then)) if now + margin < then => {
            eprintln!(
                "worse than the baseline ({label}): hit rate {:.0}% against {:.0}%",
                now * 100.0,
                then * 100.0
            );
            true
        }
        _ => {
            eprintln!("no worse than the baseline ({label})");
            false
        }
    }
}

/// The commit that wrote the lines `fix` changed, and those lines as they were in it (file,
/// line); why not, when the fix changed no earlier line or lines from several commits.
fn wrong_lines(
    repo: &GitRepo,
    fix: &CommitInfo,
    max_lines: usize,
) -> std::result::Result<(String, Vec<(String, u32)>), String> {
    let diff = repo
        .diff_files(&DiffTarget::Commit(fix.id.clone()), &[])
        .map_err(|e| format!("its diff could not be read: {e}"))?;
    let fixed = fixed_lines(&diff);
    if fixed.is_empty() {
        return Err("it changes no earlier line (it only adds files, or binary ones)".into());
    }
    let parent = format!("{}^", fix.id);
    let mut origins = Vec::new();
    for (path, lines) in &fixed {
        origins.extend(
            repo.line_origins(&parent, path, lines)
                .map_err(|e| format!("{path} could not be blamed: {e}"))?,
        );
    }
    let commits: BTreeSet<&str> = origins.iter().map(|o| o.commit.as_str()).collect();
    match commits.len() {
        0 => Err("its lines could not be blamed".into()),
        1 => {
            let commit = origins[0].commit.clone();
            let info = repo
                .commit_info(&commit)
                .map_err(|e| format!("{commit} could not be read: {e}"))?;
            if info.parent_count != 1 {
                return Err(format!(
                    "its lines come from {}, which has no single parent to replay it on",
                    info.short_id
                ));
            }
            let size = repo
                .change_size(&commit)
                .map_err(|e| format!("{} could not be read: {e}", info.short_id))?;
            if size.lines > max_lines {
                return Err(format!(
                    "its lines come from {}, which changes {} lines, more than --max-lines {max_lines}",
                    info.short_id, size.lines
                ));
            }
            let targets = origins.into_iter().map(|o| (o.path, o.line)).collect();
            Ok((commit, targets))
        }
        n => Err(format!("its lines come from {n} commits")),
    }
}

/// What a review is written with: a model's Iris, as the review's options say, and the
/// replay.
struct Asked<'a> {
    iris: &'a IrisAgent,
    replay: &'a Replay,
}

impl Asked<'_> {
    /// Iris reviews `introducing` in the replay: the findings placed, and what it cost.
    async fn review(&self, introducing: &str, targets: &[(String, u32)]) -> ReviewResult {
        let started = Instant::now();
        self.replay.stage(introducing)?;
        let (sink, drained) = super::unattended();
        let written = self
            .iris
            .for_item()
            .write(ArtifactKind::Review, &Scope::Staged, false, &sink)
            .await;
        drop(sink);
        let _ = drained.await;
        let written = written?;
        let findings = written.json["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                let number = |key: &str| f[key].as_u64().map(|n| n as u32);
                let placed = Placed {
                    file: f["file"].as_str().unwrap_or_default().to_string(),
                    line: number("line"),
                    end_line: number("end_line"),
                };
                let hit = hits(&placed, targets);
                (placed, hit)
            })
            .collect();
        Ok((
            findings,
            written.input_tokens,
            written.output_tokens,
            started.elapsed().as_secs_f64(),
        ))
    }
}

type ReviewResult = Result<(Vec<(Placed, bool)>, u64, u64, f64)>;

/// The row printed for a fix, and what it adds to the summary.
fn row_of(
    fix: &CommitInfo,
    introducing: &str,
    targets: &[(String, u32)],
    result: ReviewResult,
    json: bool,
    variant: Option<&str>,
) -> (String, Option<Reviewed>) {
    let short = &introducing[..introducing.len().min(7)];
    match result {
        Ok((findings, input_tokens, output_tokens, seconds)) => {
            let hitting = findings.iter().filter(|(_, hit)| *hit).count();
            let done = Reviewed {
                hit: hitting > 0,
                findings: findings.len(),
                hitting,
                input_tokens,
                output_tokens,
                seconds,
            };
            let line = if json {
                json!({
                    "variant": variant,
                    "fix": fix.id,
                    "introduced_by": introducing,
                    "title": fix.summary,
                    "fixed_lines": targets,
                    "findings": findings
                        .iter()
                        .map(|(p, hit)| json!({"file": p.file, "line": p.line, "end_line": p.end_line, "hit": hit}))
                        .collect::<Vec<_>>(),
                    "hit": done.hit,
                    "input_tokens": input_tokens,
                    "output_tokens": output_tokens,
                    "seconds": seconds,
                })
                .to_string()
            } else {
                format!(
                    "{:<9} {:<9} {:>8} {:>5} {:>4} {:>8} {:>6.1}  {}{}",
                    fix.short_id,
                    short,
                    done.findings,
                    done.hitting,
                    if done.hit { "yes" } else { "no" },
                    input_tokens + output_tokens,
                    seconds,
                    variant.map(|v| format!("{v} · ")).unwrap_or_default(),
                    fix.summary
                )
            };
            (line, Some(done))
        }
        Err(err) if json => (
            json!({"variant": variant, "fix": fix.id, "introduced_by": introducing, "title": fix.summary, "error": format!("{err:#}")})
                .to_string(),
            None,
        ),
        Err(err) => (format!("{:<9} {short:<9} error: {err:#}", fix.short_id), None),
    }
}

/// The summary of a model's reviews; a review that failed counts as a miss in the hit rate.
fn summary(reviewed: &[Reviewed], failed: usize) -> Value {
    let n = reviewed.len();
    let findings: usize = reviewed.iter().map(|r| r.findings).sum();
    let hitting: usize = reviewed.iter().map(|r| r.hitting).sum();
    let seconds: Vec<f64> = reviewed.iter().map(|r| r.seconds).collect();
    let share = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
    json!({
        "summary": true,
        "reviewed": n,
        "failed": failed,
        "hits": reviewed.iter().filter(|r| r.hit).count(),
        "hit_rate": share(reviewed.iter().filter(|r| r.hit).count(), n + failed),
        "findings_per_review": (n > 0).then(|| findings as f64 / n as f64),
        "finding_hit_share": share(hitting, findings),
        "input_tokens": reviewed.iter().map(|r| r.input_tokens).sum::<u64>(),
        "output_tokens": reviewed.iter().map(|r| r.output_tokens).sum::<u64>(),
        "median_seconds": median(&seconds),
        "near": NEAR,
    })
}

fn summary_text(summary: &Value) -> String {
    let percent = |key: &str| {
        summary[key]
            .as_f64()
            .map_or("-".to_string(), |v| format!("{:.0}%", v * 100.0))
    };
    format!(
        "{} fixes reviewed, {} failed; hit rate {} (a finding within {NEAR} lines of a fixed \
         line; a failed review counts as a miss); {:.1} \
         findings per review, {} of them hits; {} input and {} output tokens; {:.1} s a review \
         by the median",
        summary["reviewed"],
        summary["failed"],
        percent("hit_rate"),
        summary["findings_per_review"].as_f64().unwrap_or(0.0),
        percent("finding_hit_share"),
        summary["input_tokens"],
        summary["output_tokens"],
        summary["median_seconds"].as_f64().unwrap_or(0.0),
    )
}
