//! `iris eval`: how good Iris' commit messages are on this repository's own history.
//!
//! Each chosen commit is replayed ([`iris_studio_git::Replay`]): Iris sees its change as staged over
//! its parent, in a throwaway repository whose history ends at the parent, and writes the
//! message through the same path as `iris gen` (the same prompt, evidence, preset, commit
//! rules, language and critic). The message is scored against the one its author committed
//! ([`iris_studio_core::eval`]). The user's work tree, index and history are never written to; a
//! reply Iris cannot read is saved in the user's `.git/iris/`, which outlives the replay.

pub mod evidence;
mod report;
pub mod reviews;
mod select;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use tokio::sync::mpsc::unbounded_channel;

use crate::app::Workspace;
use crate::app::iris::configured;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::{EventSink, IrisAgent};
use iris_studio_config::{Config, Overrides};
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::commit_rules::error_count;
use iris_studio_core::eval::{Outcome, compare, history_uses_types, median, score, summarize};
use iris_studio_core::protocol::progress::Progress;
use iris_studio_core::protocol::{AgentEvent, Decision};
use iris_studio_git::CommitInfo;

use crate::output::exit::{GENERAL, UsageError};
use report::Row;
pub use report::read_baseline;
pub use select::{Filters, Source};

/// One way of writing that is measured: a model, a preset.
#[derive(Debug, Clone)]
pub struct Variant {
    /// What sets it apart (`model · preset`), as the report names it; empty is the
    /// configured model's name, filled in when the run starts.
    pub label: String,
    /// The configuration this variant writes with.
    pub overrides: Overrides,
}

/// What to evaluate and how to report it.
pub struct Plan {
    /// Which commits are replayed.
    pub source: Source,
    /// What keeps a commit out.
    pub filters: Filters,
    /// The ways of writing compared, each on every commit (at least one).
    pub variants: Vec<Variant>,
    /// Have the critic check each message (`--critic`).
    pub critic: bool,
    /// One JSON object per commit and per variant's summary, instead of a table.
    pub json: bool,
    /// An earlier `--json` run to compare with.
    pub baseline: Option<PathBuf>,
    /// How much worse than the baseline's the median distance may be (0 to 1).
    pub margin: f64,
}

/// Each variant's configuration, its provider and model checked before anything runs; a
/// variant without a label takes its model's name.
pub fn configs_of(ws: &Workspace, variants: &mut [Variant]) -> Result<Vec<Config>> {
    let mut configs = Vec::new();
    for variant in variants {
        let config = ws.config_with(&variant.overrides)?;
        configured(&config, &ws.root, &ws.stores, true)?;
        if variant.label.is_empty() {
            variant.label = config.require_model()?.to_string();
        }
        configs.push(config);
    }
    Ok(configs)
}

/// Replays and scores the plan's commits, printing each row as it comes and a summary per
/// variant; the exit code is 1 when a variant did worse than the baseline.
pub async fn run(ws: &Workspace, plan: Plan) -> Result<ExitCode> {
    let repo = &ws.repo;
    // Every variant's configuration, provider and model are checked before anything runs,
    // and so is the baseline.
    let mut plan = plan;
    let configs = configs_of(ws, &mut plan.variants)?;
    let baseline = plan.baseline.as_deref().map(read_baseline).transpose()?;
    plan.source = plan.source.resolved(ws.vcs.as_ref(), repo)?;
    let choice = select::choose(repo, &plan.source, &plan.filters)?;
    eprint!("{}", choice.describe(&plan.source));
    if choice.commits.is_empty() {
        return Err(
            UsageError("no commit to evaluate (see above for the ones skipped)".into()).into(),
        );
    }
    let uses_types = history_uses_types(choice.commits.iter().map(|c| c.summary.as_str()));
    let replay = crate::app::replayed::replay_of(repo)?;
    let replay_git = replay.root().join(".git");
    // Each variant's Iris works in the replay but saves a reply she cannot read in the
    // user's stores, which outlive the replay.
    let irises = configs
        .iter()
        .map(|config| configured(config, replay.root(), &ws.stores, true))
        .collect::<iris_studio_agent::Result<Vec<_>>>()?;

    let several = plan.variants.len() > 1;
    if !plan.json {
        println!("{}", report::table_header(several));
    }
    let mut bar = Bar::new(choice.commits.len());
    let mut outcomes: Vec<Vec<Outcome>> = vec![Vec::new(); plan.variants.len()];
    let mut recalls = Vec::new();
    for (done, commit) in choice.commits.iter().enumerate() {
        bar.draw(done, &outcomes[0], Some(&commit.short_id));
        replay
            .stage(&commit.id)
            .with_context(|| format!("cannot replay {}", commit.short_id))?;
        let variants = plan.variants.iter().zip(&configs).zip(&irises);
        for (i, ((variant, config), iris)) in variants.enumerate() {
            // What this variant's first request holds of the author's message, asking no
            // model (a local model is sent less).
            let recall = evidence::first_request(config, replay.root(), &replay_git, commit)
                .await
                .ok()
                .map(|m| m.recall);
            let mut row = write_one(iris, commit, variant, uses_types, plan.critic).await;
            row.evidence = recall.as_ref();
            bar.clear();
            let line = if plan.json {
                report::json_row(&row).to_string()
            } else {
                report::table_row(&row, several)
            };
            // The titles are the history's and the model's: untrusted on a terminal.
            println!("{}", crate::output::said::shown(&line));
            let _ = std::io::stdout().flush();
            outcomes[i].push(row.outcome);
            bar.draw(done, &outcomes[0], Some(&commit.short_id));
            if i == 0 {
                recalls.extend(recall);
            }
        }
    }
    bar.draw(choice.commits.len(), &outcomes[0], None);
    bar.clear();
    drop(replay);
    let (evidence_text, evidence_json) = report::evidence_summary(&recalls);

    let mut worse = false;
    for (variant, outcomes) in plan.variants.iter().zip(&outcomes) {
        let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
        worse |= all_failed(&variant.label, "messages", outcomes.len() - failed, failed);
        let summary = summarize(outcomes);
        if plan.json {
            let mut line = report::json_summary(&variant.label, &summary);
            line["evidence"] = evidence_json["evidence"].clone();
            println!("{line}");
        } else {
            println!(
                "\n{}",
                report::summary_text(several.then_some(variant.label.as_str()), &summary)
            );
        }
        let Some(baseline) = &baseline else { continue };
        let earlier = baseline
            .iter()
            .find(|(label, _)| *label == variant.label)
            .or_else(|| (baseline.len() == 1 && plan.variants.len() == 1).then(|| &baseline[0]));
        match earlier {
            Some((_, earlier)) => {
                let verdict = compare(&summary, earlier, plan.margin);
                for regression in &verdict.regressions {
                    eprintln!("worse than the baseline ({}): {regression}", variant.label);
                }
                if !verdict.is_worse() {
                    eprintln!("no worse than the baseline ({})", variant.label);
                }
                worse |= verdict.is_worse();
            }
            None => eprintln!(
                "warning: the baseline has no summary for {}; not compared",
                variant.label
            ),
        }
    }
    if !plan.json {
        println!("  {evidence_text}");
    }
    Ok(if worse {
        ExitCode::from(GENERAL)
    } else {
        ExitCode::SUCCESS
    })
}

/// Whether every one of `label`'s `items` failed (`done` went through, `failed` did not):
/// said on stderr, and the run exits 1, so a run that did nothing does not pass for one
/// that did.
pub(super) fn all_failed(label: &str, items: &str, done: usize, failed: usize) -> bool {
    let all = done == 0 && failed > 0;
    if all {
        eprintln!("error: all {failed} {items} failed with {label} (the errors are above)");
    }
    all
}

/// Iris writes `commit`'s message in the replay, and it is scored.
async fn write_one<'a>(
    iris: &IrisAgent,
    commit: &'a CommitInfo,
    variant: &'a Variant,
    uses_types: bool,
    critic: bool,
) -> Row<'a> {
    let started = Instant::now();
    let (sink, drained) = unattended();
    let result = iris
        .for_item()
        .write(ArtifactKind::Commit, &Scope::Staged, critic, &sink)
        .await;
    drop(sink);
    let progress = drained.await.unwrap_or_default();
    let seconds = started.elapsed().as_secs_f64();
    let (message, error, outcome) = match result {
        Ok(written) => {
            let scored = score(
                &commit.message,
                &written.text,
                uses_types,
                error_count(&written.rule_violations),
            );
            let outcome = Outcome {
                result: Ok(scored),
                requests: written.requests,
                input_tokens: written.input_tokens,
                output_tokens: written.output_tokens,
                seconds,
            };
            (Some(written.text), None, outcome)
        }
        Err(err) => {
            let outcome = Outcome {
                result: Err(err.failure()),
                requests: progress.requests,
                input_tokens: progress.input_tokens,
                output_tokens: progress.output_tokens,
                seconds,
            };
            (None, Some(format!("{err:#}")), outcome)
        }
    };
    Row {
        commit,
        variant: &variant.label,
        message,
        error,
        outcome,
        evidence: None,
    }
}

/// A sink for a run nobody watches: a tool call that would ask is refused (as without a
/// terminal), a secret kept out is said on stderr, and the rest is summed up.
pub(super) fn unattended() -> (EventSink, tokio::task::JoinHandle<Progress>) {
    let (tx, mut rx) = unbounded_channel();
    let task = tokio::spawn(async move {
        let mut progress = Progress::default();
        while let Some(event) = rx.recv().await {
            match &event {
                AgentEvent::Approval(request) => request.reply.send(Decision::Deny),
                AgentEvent::SecretWithheld(finding) => {
                    eprintln!("\r\x1b[2K{}", crate::output::said::withheld_line(finding));
                }
                _ => {}
            }
            progress.apply(&event);
        }
        progress
    });
    (EventSink::new(tx), task)
}

/// The progress bar on stderr, with the running median distance; drawn on a terminal only.
struct Bar {
    total: usize,
    drawing: bool,
}

impl Bar {
    fn new(total: usize) -> Self {
        Self {
            total,
            drawing: std::io::stderr().is_terminal(),
        }
    }

    fn draw(&mut self, done: usize, outcomes: &[Outcome], now: Option<&str>) {
        if !self.drawing {
            return;
        }
        const WIDTH: usize = 20;
        let filled = WIDTH * done / self.total.max(1);
        let distances: Vec<f64> = outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().ok().map(|s| s.distance))
            .collect();
        let mut line = format!(
            "\r\x1b[2K[{}{}] {done}/{}",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            self.total
        );
        if let Some(m) = median(&distances) {
            line.push_str(&format!(" · median distance {m:.2}"));
        }
        if let Some(id) = now {
            line.push_str(&format!(" · writing for {id}"));
        }
        let mut err = std::io::stderr();
        let _ = write!(err, "{line}");
        let _ = err.flush();
    }

    fn clear(&mut self) {
        if self.drawing {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}
