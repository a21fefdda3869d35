//! `iris eval --reviews`: Iris' reviews scored on the bugs this repository later fixed. For
//! each fix commit (its message matching `--fixes`, or [`FIX_PATTERN`]), the lines it
//! changed are blamed at its parent; when they all come from one commit, that commit is
//! replayed as the change to review (as `iris eval` replays a commit: nothing of the fix or of
//! later history in view) and Iris reviews it. A finding on a fixed line, or within
//! [`NEAR`] lines of one in the same file, is a hit.
//!
//! The clean side: as many commits as fixes were reviewed, which no later fix points at
//! ([`choose_clean`]), are replayed and reviewed the same way; their findings per review say
//! what the reviewer flags in code nobody had to fix, so that flagging everything does not
//! pass for catching bugs.

use std::collections::{BTreeSet, HashMap};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use iris_studio_agent::IrisAgent;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_config::Config;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::artifact::review::ReviewOptions;
use iris_studio_core::eval::{
    FIX_PATTERN, NEAR, Placed, Scanned, choose_clean, fixed_lines, hits, median, without_flags,
};
use iris_studio_git::{CommitInfo, DiffTarget, GitRepo, LineOrigin, Replay};

use super::select::{self, Filters, Source};
use crate::app::Workspace;
use crate::output::exit::UsageError;

/// One review done: of a fix's introducing commit, or of a clean one (never a hit).
struct Reviewed {
    hit: bool,
    findings: usize,
    hitting: usize,
    input_tokens: u64,
    output_tokens: u64,
    seconds: f64,
}

/// What a review is of.
enum Side<'a> {
    /// The commit that wrote the lines `fix` changed, `targets` (file, line) as they were in it.
    Fix {
        fix: &'a CommitInfo,
        introducing: &'a str,
        targets: &'a [(String, u32)],
    },
    /// A commit no later fix points at.
    Clean(&'a CommitInfo),
}

impl Side<'_> {
    /// The commit reviewed.
    fn reviewed(&self) -> &str {
        match self {
            Side::Fix { introducing, .. } => introducing,
            Side::Clean(commit) => &commit.id,
        }
    }

    /// The lines a finding hits (none on the clean side).
    fn targets(&self) -> &[(String, u32)] {
        match self {
            Side::Fix { targets, .. } => targets,
            Side::Clean(_) => &[],
        }
    }
}

/// One side's reviews, by variant: those done and how many failed.
struct Tally {
    done: Vec<Vec<Reviewed>>,
    failed: Vec<usize>,
}

impl Tally {
    fn new(variants: usize) -> Self {
        Self {
            done: (0..variants).map(|_| Vec::new()).collect(),
            failed: vec![0; variants],
        }
    }

    /// Each variant's Iris reviews `side`'s commit in the replay; a row is printed for each.
    async fn review(
        &mut self,
        side: &Side<'_>,
        variants: &[(String, Config)],
        irises: &[IrisAgent],
        replay: &Replay,
        json: bool,
    ) {
        let several = variants.len() > 1;
        let each = variants
            .iter()
            .zip(irises)
            .zip(&mut self.done)
            .zip(&mut self.failed);
        for ((((label, _), iris), done), failed) in each {
            let asked = Asked { iris, replay };
            let row = asked.review(side.reviewed(), side.targets()).await;
            let variant = several.then_some(label.as_str());
            let (line, one) = row_of(side, row, json, variant);
            println!("{}", crate::output::said::shown(&line));
            match one {
                Some(one) => done.push(one),
                None => *failed += 1,
            }
        }
    }
}

/// Reviews each fix's introducing commit and scores the findings, then as many clean
/// commits, printing a row each and a summary.
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
    let history = select::history(repo, &scan)?;
    let choice = select::choose_from(repo, history.clone(), &scan, &filters)?;
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
            "{:<9} {:<9} {:>8} {:>5} {:>4} {:>8} {:>6}  {}title",
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
    let mut fixes = Tally::new(variants.len());
    // What each fix's lines blame to (`None`: they could not be blamed), for the clean side.
    let mut blames: HashMap<String, Option<Vec<String>>> = HashMap::new();
    // Each fix reviewed, and the commit reviewed for it.
    let mut traced: Vec<(String, String)> = Vec::new();
    for fix in &choice.commits {
        if traced.len() >= wanted {
            break;
        }
        let origins = blamed(repo, &fix.id);
        blames.insert(fix.id.clone(), commits_of(&origins));
        let (introducing, targets) =
            match origins.and_then(|origins| wrong_lines(repo, origins, filters.max_lines)) {
                Ok(found) => found,
                Err(why) => {
                    eprintln!("skipped {}: {why}", fix.short_id);
                    continue;
                }
            };
        traced.push((fix.id.clone(), introducing.clone()));
        let side = Side::Fix {
            fix,
            introducing: &introducing,
            targets: &targets,
        };
        fixes.review(&side, &variants, &irises, &replay, json).await;
    }

    // The clean side, read around the named fixes when fixes were named.
    let around = match &scan {
        Source::Commits(_) => Some(select::history(
            repo,
            &Source::Last {
                n: usize::MAX,
                top: ws.vcs.history_top()?,
            },
        )?),
        _ => None,
    };
    let clean = clean_commits(
        repo,
        around.as_deref().unwrap_or(&history),
        &filters,
        &traced,
        blames,
    )?;
    if !traced.is_empty() {
        eprintln!(
            "reviewing {} clean commit(s) beside them, the nearest to the fixes that no later fix \
             blames a line to{}",
            clean.len(),
            if clean.len() < traced.len() {
                format!(" (only these of the {} wanted)", traced.len())
            } else {
                String::new()
            }
        );
    }
    let mut cleans = Tally::new(variants.len());
    for commit in &clean {
        cleans
            .review(&Side::Clean(commit), &variants, &irises, &replay, json)
            .await;
    }
    drop(replay);

    let mut worse = false;
    let each = variants
        .iter()
        .zip(fixes.done.iter().zip(&fixes.failed))
        .zip(cleans.done.iter().zip(&cleans.failed));
    for (((label, _), (done, failed)), (clean, clean_failed)) in each {
        let mut summary = summary(done, *failed, clean, *clean_failed);
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
        worse |= super::all_failed(
            label,
            "reviews",
            done.len() + clean.len(),
            failed + clean_failed,
        );
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

/// Whether `summary` is worse than its baseline's: a hit rate lower by more than `margin`, or
/// more findings per clean review by more than `margin`; said on stderr either way. A baseline
/// without the clean side's figure (written before it was measured) gates on the hit rate.
fn compare(label: &str, summary: &Value, earlier: &[Value], margin: f64, only: bool) -> bool {
    let found = earlier
        .iter()
        .find(|e| e["variant"] == label)
        .or_else(|| (only && earlier.len() == 1).then(|| &earlier[0]));
    let Some(earlier) = found else {
        eprintln!("warning: the baseline has no summary for {label}; not compared");
        return false;
    };
    let mut regressions = Vec::new();
    match (summary["hit_rate"].as_f64(), earlier["hit_rate"].as_f64()) {
        (None, Some(_)) => regressions.push("no fix was reviewed".to_string()),
        (Some(now), Some(then)) if now + margin < then => regressions.push(format!(
            "hit rate {:.0}% against {:.0}%",
            now * 100.0,
            then * 100.0
        )),
        _ => {}
    }
    const CLEAN: &str = "findings_per_clean_review";
    match (
        summary[CLEAN].as_f64(),
        earlier.get(CLEAN).map(Value::as_f64),
    ) {
        (_, None) => eprintln!(
            "the baseline ({label}) has no findings per clean review (written before the clean \
             side was measured): gated on the hit rate only"
        ),
        (_, Some(None)) => {
            eprintln!("the baseline ({label}) reviewed no clean commit: gated on the hit rate only")
        }
        (None, Some(Some(_))) => regressions.push("no clean commit was reviewed".to_string()),
        (Some(now), Some(Some(then))) if now > then + margin => regressions.push(format!(
            "{now:.2} findings per clean review against {then:.2}"
        )),
        _ => {}
    }
    for regression in &regressions {
        eprintln!("worse than the baseline ({label}): {regression}");
    }
    if regressions.is_empty() {
        eprintln!("no worse than the baseline ({label})");
    }
    !regressions.is_empty()
}

/// The clean commits reviewed beside the fixes `traced` (each fix and the commit reviewed for
/// it), read in `history` (newest first) as [`choose_clean`] chooses them: a commit is a fix
/// when its message matches the fix pattern (`filters.only`), and a candidate is reviewable
/// when the filters keep it as they keep a fix. `blames` holds what the fixes already looked
/// at blame to; the others are blamed when needed.
fn clean_commits(
    repo: &GitRepo,
    history: &[CommitInfo],
    filters: &Filters,
    traced: &[(String, String)],
    mut blames: HashMap<String, Option<Vec<String>>>,
) -> Result<Vec<CommitInfo>> {
    let is_fix = |c: &CommitInfo| {
        c.parent_count == 1
            && filters
                .only
                .as_ref()
                .is_some_and(|fix| fix.is_match(&without_flags(&c.message)))
    };
    let scanned: Vec<Scanned> = history
        .iter()
        .map(|c| Scanned {
            id: &c.id,
            fix: is_fix(c),
        })
        .collect();
    let reviewed: Vec<(&str, &str)> = traced
        .iter()
        .map(|(fix, introducing)| (fix.as_str(), introducing.as_str()))
        .collect();
    let by_id: HashMap<&str, &CommitInfo> = history.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut error = None;
    let chosen = choose_clean(
        &scanned,
        &reviewed,
        traced.len(),
        |fix| {
            blames
                .entry(fix.to_string())
                .or_insert_with(|| {
                    let origins = blamed(repo, fix);
                    if let Err(why) = &origins {
                        eprintln!(
                            "the fix {} could not be blamed ({why}): no older commit is taken \
                             as clean",
                            &fix[..fix.len().min(7)]
                        );
                    }
                    commits_of(&origins)
                })
                .clone()
        },
        |id| match select::kept(repo, by_id[id], filters) {
            Ok(kept) => kept,
            Err(err) => {
                error.get_or_insert(err);
                false
            }
        },
    );
    if let Some(err) = error {
        return Err(err);
    }
    Ok(chosen.into_iter().map(|i| history[i].clone()).collect())
}

/// The lines `fix` changed (see [`fixed_lines`]), blamed at its parent; none when it changed
/// no earlier line (it only adds files, or binary ones).
fn blamed(repo: &GitRepo, fix: &str) -> std::result::Result<Vec<LineOrigin>, String> {
    let diff = repo
        .diff_files(&DiffTarget::Commit(fix.to_string()), &[])
        .map_err(|e| format!("its diff could not be read: {e}"))?;
    let parent = format!("{fix}^");
    let fixed = fixed_lines(&diff);
    let mut origins = Vec::new();
    for (path, lines) in &fixed {
        origins.extend(
            repo.line_origins(&parent, path, lines)
                .map_err(|e| format!("{path} could not be blamed: {e}"))?,
        );
    }
    if origins.is_empty() && !fixed.is_empty() {
        return Err("its lines could not be blamed".into());
    }
    Ok(origins)
}

/// The commits `origins` come from; `None` when they could not be blamed.
fn commits_of(origins: &std::result::Result<Vec<LineOrigin>, String>) -> Option<Vec<String>> {
    origins
        .as_ref()
        .ok()
        .map(|o| o.iter().map(|o| o.commit.clone()).collect())
}

/// The commit that wrote a fix's lines, [`blamed`] as `origins`, and those lines as they were
/// in it (file, line); why not, when the fix changed no earlier line or lines from several
/// commits, or that commit cannot be replayed.
fn wrong_lines(
    repo: &GitRepo,
    origins: Vec<LineOrigin>,
    max_lines: usize,
) -> std::result::Result<(String, Vec<(String, u32)>), String> {
    if origins.is_empty() {
        return Err("it changes no earlier line (it only adds files, or binary ones)".into());
    }
    let commits: BTreeSet<&str> = origins.iter().map(|o| o.commit.as_str()).collect();
    match commits.len() {
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

/// The row printed for a review, and what it adds to its side's summary.
fn row_of(
    side: &Side,
    result: ReviewResult,
    json: bool,
    variant: Option<&str>,
) -> (String, Option<Reviewed>) {
    let reviewed = side.reviewed();
    let short = &reviewed[..reviewed.len().min(7)];
    // The first column and the title: the fix's, or `clean` and the clean commit's.
    let (first, title) = match side {
        Side::Fix { fix, .. } => (fix.short_id.as_str(), fix.summary.as_str()),
        Side::Clean(commit) => ("clean", commit.summary.as_str()),
    };
    let mut line = match side {
        Side::Fix {
            fix,
            introducing,
            targets,
        } => json!({
            "variant": variant,
            "side": "fix",
            "fix": fix.id,
            "introduced_by": introducing,
            "title": fix.summary,
            "fixed_lines": targets,
        }),
        Side::Clean(commit) => json!({
            "variant": variant,
            "side": "clean",
            "commit": commit.id,
            "title": commit.summary,
        }),
    };
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
            let fix = matches!(side, Side::Fix { .. });
            let text = if json {
                line["findings"] = findings
                    .iter()
                    .map(|(p, hit)| {
                        let mut finding =
                            json!({"file": p.file, "line": p.line, "end_line": p.end_line});
                        if fix {
                            finding["hit"] = json!(hit);
                        }
                        finding
                    })
                    .collect();
                if fix {
                    line["hit"] = json!(done.hit);
                }
                line["input_tokens"] = json!(input_tokens);
                line["output_tokens"] = json!(output_tokens);
                line["seconds"] = json!(seconds);
                line.to_string()
            } else {
                let (hits, hit) = if fix {
                    let hit = if done.hit { "yes" } else { "no" };
                    (done.hitting.to_string(), hit)
                } else {
                    ("-".to_string(), "-")
                };
                format!(
                    "{first:<9} {short:<9} {:>8} {hits:>5} {hit:>4} {:>8} {seconds:>6.1}  {}{title}",
                    done.findings,
                    input_tokens + output_tokens,
                    variant.map(|v| format!("{v} · ")).unwrap_or_default(),
                )
            };
            (text, Some(done))
        }
        Err(err) if json => {
            line["error"] = json!(format!("{err:#}"));
            (line.to_string(), None)
        }
        Err(err) => (format!("{first:<9} {short:<9} error: {err:#}"), None),
    }
}

/// The summary of a model's reviews: the fixes' (a review that failed counts as a miss in the
/// hit rate) and the clean commits' (a review that failed is left out of their findings).
fn summary(reviewed: &[Reviewed], failed: usize, clean: &[Reviewed], clean_failed: usize) -> Value {
    let n = reviewed.len();
    let findings: usize = reviewed.iter().map(|r| r.findings).sum();
    let hitting: usize = reviewed.iter().map(|r| r.hitting).sum();
    let clean_findings: usize = clean.iter().map(|r| r.findings).sum();
    let seconds: Vec<f64> = reviewed.iter().chain(clean).map(|r| r.seconds).collect();
    let share = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
    let all = || reviewed.iter().chain(clean);
    json!({
        "summary": true,
        "reviewed": n,
        "failed": failed,
        "hits": reviewed.iter().filter(|r| r.hit).count(),
        "hit_rate": share(reviewed.iter().filter(|r| r.hit).count(), n + failed),
        "findings_per_review": share(findings, n),
        "finding_hit_share": share(hitting, findings),
        "clean_reviews": clean.len(),
        "clean_failed": clean_failed,
        "findings_per_clean_review": share(clean_findings, clean.len()),
        "input_tokens": all().map(|r| r.input_tokens).sum::<u64>(),
        "output_tokens": all().map(|r| r.output_tokens).sum::<u64>(),
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
    let per_clean = summary["findings_per_clean_review"]
        .as_f64()
        .map_or("-".to_string(), |v| format!("{v:.1}"));
    format!(
        "{} fixes reviewed, {} failed; hit rate {} (a finding within {NEAR} lines of a fixed \
         line; a failed review counts as a miss); {:.1} \
         findings per review, {} of them hits; {} input and {} output tokens; {:.1} s a review \
         by the median\nfindings per clean review: {per_clean} ({} clean commits reviewed, {} \
         failed: commits no later fix blames a line to)",
        summary["reviewed"],
        summary["failed"],
        percent("hit_rate"),
        summary["findings_per_review"].as_f64().unwrap_or(0.0),
        percent("finding_hit_share"),
        summary["input_tokens"],
        summary["output_tokens"],
        summary["median_seconds"].as_f64().unwrap_or(0.0),
        summary["clean_reviews"],
        summary["clean_failed"],
    )
}
