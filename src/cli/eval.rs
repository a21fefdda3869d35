//! `iris eval`: the command line of [`crate::eval`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::config::ConfigFlags;
use crate::app::stores::accepted;
use crate::eval::{self, Filters, Plan, Source, Variant};
use crate::output::exit::UsageError;

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Replay the last N non-merge commits of HEAD (default 20); with --range, at most N of it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "commits")]
    pub last: Option<u32>,
    /// Replay these commits, in this order: `--commits a1b2c3d,HEAD~3`.
    #[arg(
        long,
        value_name = "REV,...",
        value_delimiter = ',',
        conflicts_with = "range"
    )]
    pub commits: Vec<String>,
    /// Replay the non-merge commits of FROM..TO.
    #[arg(long, value_name = "FROM..TO")]
    pub range: Option<String>,
    /// Skip commits that change more lines than this (added and deleted).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_lines: usize,
    /// Skip commits whose author (`Name <email>`) matches this regular expression, such as
    /// bots: `--skip-authors 'dependabot|renovate|\[bot\]'`.
    #[arg(long, value_name = "PATTERN")]
    pub skip_authors: Option<String>,
    /// Have each of these models of the provider write, side by side: `--models a,b`.
    #[arg(
        long,
        value_name = "MODEL,...",
        value_delimiter = ',',
        conflicts_with = "model"
    )]
    pub models: Vec<String>,
    /// Have Iris write in each of these presets, side by side (see `iris presets`).
    #[arg(
        long,
        value_name = "NAME,...",
        value_delimiter = ',',
        conflicts_with = "preset"
    )]
    pub presets: Vec<String>,
    /// Have the critic check each message, as `iris gen --critic` does.
    #[arg(long)]
    pub critic: bool,
    /// Print one JSON object per commit and one summary per variant (what --baseline reads).
    #[arg(long)]
    pub json: bool,
    /// Compare with an earlier `--json` run: exit 1 when the median distance is worse by
    /// more than --margin or a smaller share of messages was written (with --reviews: when
    /// the hit rate falls, or the findings per clean review rise, by more than --margin).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// How much worse than the baseline's a figure may be: the median distance (with
    /// --reviews, the hit rate as a share, and the findings per clean review).
    #[arg(
        long,
        value_name = "DISTANCE",
        default_value_t = 0.05,
        requires = "baseline"
    )]
    pub margin: f64,
    /// Report instead what became of the messages Iris wrote here (`iris gen`, the hook, the
    /// studio): the share committed unedited and the edit distance of your changes, over the
    /// last N (--last, default 20) such commits. Kept under .git/iris/, never sent anywhere.
    #[arg(long, conflicts_with_all = ["commits", "range", "models", "presets", "critic", "baseline"])]
    pub accepted: bool,
    /// Ask no model: measure instead the first request Iris would send for each commit (kept,
    /// never sent; no key needed): how many of the identifiers, paths and numbers of the
    /// author's message it holds, and its size by part.
    #[arg(long, conflicts_with_all = ["accepted", "models", "presets", "critic", "baseline"])]
    pub evidence: bool,
    /// Score Iris' reviews instead, on the bugs this repository fixed later: each fix
    /// commit's lines are blamed, the commit that wrote them is reviewed as it was, and a
    /// finding within 3 lines of a fixed line is a hit (--last N: the last N fixes). As many
    /// clean commits, which no later fix blames a line to, are reviewed too: their findings
    /// per review are what the reviewer flags in code nobody had to fix.
    #[arg(long, conflicts_with_all = ["accepted", "evidence", "presets", "critic"])]
    pub reviews: bool,
    /// With --reviews: give each review's findings a second look, as `iris review --verify`.
    #[arg(long, requires = "reviews")]
    pub verify: bool,
    /// With --reviews: review in one pass per aspect, as `iris review --aspects`.
    #[arg(
        long,
        value_name = "ASPECT,...",
        value_delimiter = ',',
        requires = "reviews"
    )]
    pub aspects: Vec<iris_studio_core::artifact::review::Aspect>,
    /// With --reviews: the messages that mark a fix (default: fix, bug, regression, crash,
    /// leak, or closes/fixes/resolves #N).
    #[arg(long, value_name = "REGEX", requires = "reviews")]
    pub fixes: Option<String>,
    /// With --accepted: forget the messages remembered.
    #[arg(long, requires = "accepted")]
    pub clear: bool,
    #[command(flatten)]
    pub config: ConfigFlags,
}

/// Runs the evaluation; ctrl-c (or a TERM) stops it, and the replay goes with it.
pub async fn run(args: EvalArgs) -> Result<ExitCode> {
    let ws = args.config.workspace()?;
    if args.accepted {
        return report_accepted(&args, &ws);
    }
    let overrides = args.config.overrides();
    let json = args.json;
    let evidence = args.evidence;
    let (reviews, fixes) = (args.reviews, args.fixes.clone());
    let mut aspects = Vec::new();
    for aspect in &args.aspects {
        if !aspects.contains(aspect) {
            aspects.push(*aspect);
        }
    }
    let review = iris_studio_core::artifact::review::ReviewOptions {
        aspects,
        verify: args.verify,
        // The eval measures the model: nothing dismissed or posted before is passed on.
        ..Default::default()
    };
    let mut plan = plan(args)?;
    if reviews {
        let configs = eval::configs_of(&ws, &mut plan.variants)?;
        let labelled = plan
            .variants
            .iter()
            .map(|v| v.label.clone())
            .zip(configs)
            .collect();
        let baseline = plan
            .baseline
            .as_deref()
            .map(eval::reviews::read_baseline)
            .transpose()?
            .map(|b| (b, plan.margin));
        let reviews = eval::reviews::run(
            &ws,
            (plan.source, plan.filters),
            fixes.as_deref(),
            labelled,
            review,
            json,
            baseline,
        );
        return until_interrupted(reviews).await;
    }
    if evidence {
        return until_interrupted(eval::evidence::run(
            &ws,
            plan.source,
            plan.filters,
            &overrides,
            json,
        ))
        .await;
    }
    until_interrupted(eval::run(&ws, plan)).await
}

/// `work`, unless ctrl-c (or a TERM) comes first: the replay goes with it.
async fn until_interrupted(
    work: impl std::future::Future<Output = Result<ExitCode>>,
) -> Result<ExitCode> {
    tokio::select! {
        result = work => result,
        () = interrupted() => {
            eprintln!("\r\x1b[2Kinterrupted: the evaluation stopped; your repository is as it was");
            Ok(ExitCode::from(130))
        }
    }
}

async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

fn plan(args: EvalArgs) -> Result<Plan> {
    let last = args.last.map(|n| n as usize);
    let source = match (&args.range, args.commits.is_empty()) {
        (Some(range), _) => {
            let (from, to) = range
                .split_once("..")
                .filter(|(from, to)| !from.is_empty() && !to.is_empty() && !to.starts_with('.'))
                .ok_or_else(|| UsageError(format!("--range takes FROM..TO, not '{range}'")))?;
            Source::Range {
                from: from.to_string(),
                to: to.to_string(),
                limit: last,
            }
        }
        (None, false) => Source::Commits(args.commits.clone()),
        (None, true) => Source::Last {
            n: last.unwrap_or(20),
            top: None,
        },
    };
    let skip_authors = args
        .skip_authors
        .as_deref()
        .map(regex::Regex::new)
        .transpose()
        .map_err(|e| UsageError(format!("--skip-authors is not a regular expression: {e}")))?;
    if !(0.0..=1.0).contains(&args.margin) {
        return Err(UsageError("--margin is a distance between 0 and 1".into()).into());
    }
    Ok(Plan {
        source,
        filters: Filters {
            max_lines: args.max_lines,
            skip_authors,
            only: None,
        },
        variants: variants(&args),
        critic: args.critic,
        json: args.json,
        baseline: args.baseline,
        margin: args.margin,
    })
}

/// Every model with every preset; a label names what differs (the model alone when
/// nothing does, filled in from the configuration).
fn variants(args: &EvalArgs) -> Vec<Variant> {
    // No list is the configured value alone.
    let each = |list: &[String]| -> Vec<Option<String>> {
        match list {
            [] => vec![None],
            _ => list.iter().cloned().map(Some).collect(),
        }
    };
    let (models, presets) = (each(&args.models), each(&args.presets));
    let mut variants = Vec::new();
    for model in &models {
        for preset in &presets {
            let mut overrides = args.config.overrides();
            overrides.model = model.clone().or(overrides.model);
            overrides.preset = preset.clone().or(overrides.preset);
            let label: Vec<&str> = [model, preset]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            variants.push(Variant {
                label: label.join(" · "),
                overrides,
            });
        }
    }
    variants
}

fn report_accepted(args: &EvalArgs, ws: &crate::app::Workspace) -> Result<ExitCode> {
    if args.clear {
        if accepted::clear(&ws.stores)? {
            eprintln!("forgot the messages Iris wrote here");
        } else {
            eprintln!("nothing was remembered here");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = accepted::report(&ws.repo, &ws.stores, args.last.map_or(20, |n| n as usize))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    if report.rows.is_empty() {
        println!(
            "no commit here carries a message Iris wrote yet (iris gen, the hook and the studio remember what they write)"
        );
        return Ok(ExitCode::SUCCESS);
    }
    for row in &report.rows {
        let how = if row.unedited {
            "as written".to_string()
        } else {
            format!("edited {:.2}", row.distance)
        };
        let short: String = row.commit.chars().take(7).collect();
        let title = crate::output::said::shown(&row.title);
        println!("{short}  {how:<12}  {:<7} {title}", row.source);
    }
    let n = report.rows.len();
    println!(
        "\n{n} commit(s) with a message Iris wrote: {:.0}% committed as written · distance of your edits median {:.2}, mean {:.2}",
        report.share_unedited.unwrap_or(0.0) * 100.0,
        report.median_distance.unwrap_or(0.0),
        report.mean_distance.unwrap_or(0.0)
    );
    Ok(ExitCode::SUCCESS)
}
