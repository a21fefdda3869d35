//! `iris eval --evidence`: for each chosen commit, replayed as for `iris eval`, the first
//! request Iris would send for its change is built and kept (as `--dry-run` keeps it), never
//! sent: how much of what the author wrote it holds (the identifiers, paths and numbers of the
//! message: [`iris_studio_core::eval::Recall`]) and how large it is, by part. No model is asked and
//! no key is needed.

use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::runtime::dry_run::{Part, parts_of, sizes};
use iris_studio_agent::runtime::request::Section;
use iris_studio_config::{Config, Overrides};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::eval::{Recall, median};
use iris_studio_git::CommitInfo;

use super::select::{self, Filters, Source};
use crate::app::Workspace;
use crate::app::iris::configured;
use crate::output::exit::UsageError;

/// One commit's first request, measured.
pub(super) struct Measured {
    pub(super) recall: Recall,
    /// The recall without each source of the reason (its name), for those it carried.
    without: Vec<(&'static str, Recall)>,
    parts: Vec<Part>,
    tokens: usize,
}

/// Measures the first request of each chosen commit, printing a row each and a summary.
pub async fn run(
    ws: &Workspace,
    source: Source,
    filters: Filters,
    overrides: &Overrides,
    json: bool,
) -> Result<ExitCode> {
    let repo = &ws.repo;
    let config = Config::load(Some(&ws.root), overrides)?.sending_nothing();
    // The provider is checked before anything is replayed.
    configured(&config, &ws.root, &ws.stores, false)?;
    let source = source.resolved(ws.vcs.as_ref(), repo)?;
    let choice = select::choose(repo, &source, &filters)?;
    eprint!("{}", choice.describe(&source));
    if choice.commits.is_empty() {
        return Err(
            UsageError("no commit to measure (see above for the ones skipped)".into()).into(),
        );
    }
    let model = config.require_model().unwrap_or_default().to_string();
    eprintln!(
        "the first request each would send to {} {model}, kept, not sent",
        config.provider
    );
    let replay = crate::app::replayed::replay_of(repo)?;
    let replay_git = replay.root().join(".git");
    if !json {
        println!(
            "{:<9} {:>7} {:>7} {:>8} {:>9}  title",
            "commit", "terms", "found", "tokens", "evidence"
        );
    }
    let mut rows: Vec<Measured> = Vec::new();
    for commit in &choice.commits {
        replay
            .stage(&commit.id)
            .with_context(|| format!("cannot replay {}", commit.short_id))?;
        let measured = first_request(&config, replay.root(), &replay_git, commit).await;
        let line = match (&measured, json) {
            (Ok(m), true) => json!({
                "commit": commit.id,
                "title": commit.summary,
                "terms": m.recall.terms,
                "found": m.recall.found,
                "recall": m.recall.share(),
                "tokens": m.tokens,
                "parts": m.parts,
            })
            .to_string(),
            (Ok(m), false) => format!(
                "{:<9} {:>7} {:>7} {:>8} {:>9}  {}",
                commit.short_id,
                m.recall.terms.len(),
                m.recall.found.len(),
                m.tokens,
                part_tokens(&m.parts, "evidence"),
                commit.summary
            ),
            (Err(err), true) => {
                json!({"commit": commit.id, "title": commit.summary, "error": format!("{err:#}")})
                    .to_string()
            }
            (Err(err), false) => format!("{:<9} error: {err:#}", commit.short_id),
        };
        println!("{}", crate::output::said::shown(&line));
        if let Ok(m) = measured {
            rows.push(m);
        }
    }
    drop(replay);
    let summary = summary(&rows, choice.commits.len());
    if json {
        println!("{summary}");
    } else {
        println!("\n{}", summary_text(&summary));
    }
    Ok(if rows.is_empty() {
        ExitCode::from(crate::output::exit::GENERAL)
    } else {
        ExitCode::SUCCESS
    })
}

/// The request Iris would send first for `commit`'s change, kept and measured.
pub(super) async fn first_request(
    config: &Config,
    replay_root: &std::path::Path,
    replay_git: &std::path::Path,
    commit: &CommitInfo,
) -> Result<Measured> {
    let stores = crate::app::stores::IrisDir::of(replay_git);
    let iris = configured(config, replay_root, &stores, false)?;
    let (iris, kept) = crate::app::iris::with_dry_run(iris, true);
    let (sink, drained) = super::unattended();
    let written = iris
        .write(ArtifactKind::Commit, &Scope::Staged, false, &sink)
        .await;
    drop(sink);
    let _ = drained.await;
    let captured = kept
        .and_then(|k| k.captured())
        .ok_or_else(|| match written {
            Err(err) => anyhow::Error::new(err).context("no request was built"),
            Ok(_) => anyhow::anyhow!("no request was built"),
        })?;
    let body: Value = serde_json::from_slice(&captured.body).context("the request is not JSON")?;
    // Only what the commit brings: the instructions, tools and schema are every commit's.
    let handed = captured.handed();
    let text: String = parts_of(&body, handed.as_ref())
        .into_iter()
        .filter(|(part, _)| matches!(*part, "request" | "evidence" | "history"))
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join("\n");
    let count = crate::output::preview::counter(config.provider).1;
    let parts = sizes(&body, handed.as_ref(), &*count);
    let sections = captured.sections.unwrap_or_default();
    let without = Section::SOURCES
        .iter()
        .filter_map(|source| {
            let mut rest = text.clone();
            let mut carried = false;
            for (_, section) in sections.iter().filter(|(kind, _)| kind == source) {
                carried |= rest.contains(section.as_str());
                rest = rest.replace(section.as_str(), "");
            }
            carried.then(|| (source.name(), Recall::of(&commit.message, &rest)))
        })
        .collect();
    Ok(Measured {
        without,
        recall: Recall::of(&commit.message, &text),
        tokens: parts.iter().map(|p| p.tokens).sum(),
        parts,
    })
}

fn part_tokens(parts: &[Part], name: &str) -> usize {
    parts
        .iter()
        .find(|p| p.name == name)
        .map_or(0, |p| p.tokens)
}

/// The summary over the commits measured.
fn summary(rows: &[Measured], chosen: usize) -> Value {
    let shares: Vec<f64> = rows.iter().filter_map(|m| m.recall.share()).collect();
    let terms: usize = rows.iter().map(|m| m.recall.terms.len()).sum();
    let found: usize = rows.iter().map(|m| m.recall.found.len()).sum();
    let tokens: Vec<f64> = rows.iter().map(|m| m.tokens as f64).collect();
    let evidence: Vec<f64> = rows
        .iter()
        .map(|m| part_tokens(&m.parts, "evidence") as f64)
        .collect();
    // Over every commit measured: one without a source's section counts as it is.
    let without: serde_json::Map<String, Value> = Section::SOURCES
        .iter()
        .filter(|source| {
            rows.iter()
                .any(|m| m.without.iter().any(|(name, _)| *name == source.name()))
        })
        .map(|source| {
            let shares: Vec<f64> = rows
                .iter()
                .filter_map(|m| {
                    m.without
                        .iter()
                        .find(|(name, _)| *name == source.name())
                        .map_or(&m.recall, |(_, recall)| recall)
                        .share()
                })
                .collect();
            let mean =
                (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64);
            (source.name().to_string(), json!(mean))
        })
        .collect();
    json!({
        "summary": true,
        "recall_without": without,
        "commits": chosen,
        "measured": rows.len(),
        "with_terms": shares.len(),
        "recall_mean": (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64),
        "terms": terms,
        "found": found,
        "median_tokens": median(&tokens),
        "median_evidence_tokens": median(&evidence),
    })
}

fn summary_text(summary: &Value) -> String {
    let mut recall = summary["recall_mean"]
        .as_f64()
        .map_or("no message named code, paths or numbers".to_string(), |r| {
            format!("{:.0}% on average", r * 100.0)
        });
    if let Some(without) = summary["recall_without"].as_object() {
        for (name, share) in without {
            if let Some(share) = share.as_f64() {
                recall.push_str(&format!(" ({:.0}% without the {name})", share * 100.0));
            }
        }
    }
    format!(
        "{} of {} commits measured; evidence recall {recall} ({} of {} terms over {} messages \
         that have any); first request {} tokens by the median, its evidence {}",
        summary["measured"],
        summary["commits"],
        summary["found"],
        summary["terms"],
        summary["with_terms"],
        summary["median_tokens"].as_f64().map_or(0, |t| t as u64),
        summary["median_evidence_tokens"]
            .as_f64()
            .map_or(0, |t| t as u64),
    )
}
