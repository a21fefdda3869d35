//! Running one checked call on a repository: the same capabilities, rules and safety as the
//! command line, the result as text and as JSON.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::tools::{Call, Model, ReviewScope};
use crate::app::Workspace;
use crate::app::stores::{ChangeKey, IrisDir};
use crate::app::vcs::{Base, ChangeAsked, How, Recording};
use crate::output::exit::UsageError;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::capability::write::Written;
use iris_studio_agent::{EventSink, IrisAgent};
use iris_studio_config::Overrides;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::protocol::LinesAsked;

/// What a call produced: the text a person reads, the JSON a program reads, and warnings.
#[derive(Debug, Default)]
pub struct Done {
    pub text: String,
    pub json: Value,
    pub warnings: Vec<String>,
}

/// Runs `call` on the repository at `root`; `sink` receives Iris' events as she works. What
/// opens or changes the repository runs on a blocking thread, off the runtime that serves
/// the other calls.
pub async fn run(root: &Path, overrides: &Overrides, call: Call, sink: &EventSink) -> Result<Done> {
    let (root, overrides) = (root.to_path_buf(), overrides.clone());
    match call {
        Call::CheckMessage { message } => {
            blocking(move || check(&Workspace::open(&root, &overrides)?, &message)).await
        }
        Call::Commit { message, no_verify } => {
            blocking(move || commit(&root, &overrides, &message, no_verify)).await
        }
        Call::Write(call) => {
            let (iris, job, stores) = blocking(move || {
                let ws = Workspace::open(&root, &overrides)?;
                let iris = ws.iris(true)?;
                let job = job_of(&ws, call)?;
                Ok((iris, job, ws.stores))
            })
            .await?;
            write(&iris, job, sink, stores).await
        }
    }
}

/// `work` on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .context("the repository's task failed")?
}

/// A call that asks a model, with what the repository decides about it settled first.
enum Job {
    Artifact {
        kind: ArtifactKind,
        scope: Scope,
        critic: bool,
        /// The change a commit message is written for, as the stores key it.
        key: Option<ChangeKey>,
    },
    Review {
        scope: Scope,
        min_confidence: u8,
    },
    ExplainFile(String),
    ExplainLines(LinesAsked),
}

/// What `call` asks of the repository, settled: its scope read through the version control
/// (git's index and revisions; jj's `@` and revisions, `trunk()` the default base).
fn job_of(ws: &Workspace, call: Model) -> Result<Job> {
    let (repo, vcs, config) = (&ws.repo, &ws.vcs, &ws.config);
    let staged = |none: &str, keyed: bool| {
        let asked = ChangeAsked {
            nothing_staged: Some(none),
            keyed,
            ..ChangeAsked::default()
        };
        vcs.change(repo, &asked)
    };
    let range = |from: Option<String>, to: String, version: Option<String>| {
        let base = Base::DefaultBranch(
            "no default branch (main, master or the remote's HEAD) was found: pass `from`",
        );
        let (from, to) = vcs.range(repo, from.as_deref(), Some(&to), base)?;
        UsageError::unless_commits(repo, &from, &to)?;
        anyhow::Ok(Scope::Range { from, to, version })
    };
    let artifact = |kind, scope| Job::Artifact {
        kind,
        scope,
        critic: false,
        key: None,
    };
    Ok(match call {
        Model::CommitMessage { critic } => {
            let change = staged(
                "nothing is staged: stage your changes with `git add` first",
                true,
            )?;
            Job::Artifact {
                kind: ArtifactKind::Commit,
                scope: change.scope,
                critic,
                key: change.key,
            }
        }
        Model::Review {
            scope,
            min_confidence,
        } => Job::Review {
            scope: match scope {
                ReviewScope::Staged => staged(
                    "nothing is staged to review: stage changes, or ask for include_unstaged, a commit or a range",
                    false,
                )?
                .scope,
                ReviewScope::Uncommitted => {
                    let asked = ChangeAsked {
                        unstaged: true,
                        nothing_staged: Some(
                            "nothing has changed to review: no tracked file differs from HEAD; \
                             ask for a commit or a range",
                        ),
                        ..ChangeAsked::default()
                    };
                    vcs.change(repo, &asked)?.scope
                }
                ReviewScope::Commit(rev) => Scope::Commit(vcs.commit(repo, &rev)?),
                ReviewScope::Range { from, to } => range(Some(from), to, None)?,
            },
            min_confidence: min_confidence.unwrap_or(config.review_min_confidence),
        },
        Model::PrDescription { from, to } => artifact(ArtifactKind::Pr, range(from, to, None)?),
        Model::Changelog(r) => {
            artifact(ArtifactKind::Changelog, range(Some(r.from), r.to, r.version)?)
        }
        Model::ReleaseNotes(r) => artifact(
            ArtifactKind::ReleaseNotes,
            range(Some(r.from), r.to, r.version)?,
        ),
        Model::ExplainFile { file } => Job::ExplainFile(file),
        Model::ExplainLines { file, start, end } => Job::ExplainLines(LinesAsked {
            path: file,
            start,
            end,
            working_copy: false,
        }),
    })
}

async fn write(iris: &IrisAgent, job: Job, sink: &EventSink, stores: IrisDir) -> Result<Done> {
    match job {
        Job::Artifact {
            kind,
            scope,
            critic,
            key,
        } => {
            let done = done(iris.write(kind, &scope, critic, sink).await?);
            // Remembered with its change, as `iris gen` does: `iris eval --accepted` finds it.
            if let Some(key) = key {
                let text = done.text.clone();
                let _ = blocking(move || {
                    crate::app::stores::accepted::remember(&stores, &key, &text, "mcp");
                    Ok(())
                })
                .await;
            }
            Ok(done)
        }
        Job::Review {
            scope,
            min_confidence,
        } => {
            let written = iris
                .write(ArtifactKind::Review, &scope, false, sink)
                .await?;
            Ok(done(crate::output::written::confident(
                written,
                min_confidence,
            )?))
        }
        Job::ExplainFile(file) => {
            let explained = iris.explain_file(&file, sink).await?;
            Ok(Done {
                text: explained.to_text().trim_end().to_string(),
                json: serde_json::to_value(&explained)?,
                warnings: Vec::new(),
            })
        }
        Job::ExplainLines(asked) => {
            let explained = iris.explain_lines(&asked, sink).await?;
            Ok(Done {
                text: explained.explanation.trim_end().to_string(),
                json: serde_json::to_value(&explained)?,
                warnings: Vec::new(),
            })
        }
    }
}

/// A written artifact as the command line prints it, with what it warns about.
fn done(written: Written) -> Done {
    Done {
        warnings: crate::output::written::warnings_of(&written),
        text: written.text.trim_end().to_string(),
        json: written.json,
    }
}

/// `check_commit_message`: the repository's rules, no model.
fn check(ws: &Workspace, message: &str) -> Result<Done> {
    let Some(rules) = iris_studio_config::project::commit_rules(&ws.root)? else {
        return Ok(Done {
            text: crate::output::commit_rules::NO_RULES.into(),
            json: json!({"rules": null, "valid": true, "violations": []}),
            warnings: Vec::new(),
        });
    };
    let violations = rules.check(message);
    let (text, failed) = crate::output::commit_rules::report(&rules, &violations);
    let listed: Vec<Value> = violations
        .iter()
        .map(|v| json!({"rule": v.rule, "message": v.message, "error": v.error}))
        .collect();
    Ok(Done {
        text: text.trim_end().to_string(),
        json: json!({"rules": rules.source, "valid": !failed, "violations": listed}),
        warnings: rules.notes.clone(),
    })
}

/// `commit`: the change being made recorded with `message` (git commit, hooks and signing
/// applying; jj commit, after the checks jj's missing hooks leave to Iris).
fn commit(root: &Path, overrides: &Overrides, message: &str, no_verify: bool) -> Result<Done> {
    let ws = Workspace::open(root, overrides)?;
    let asked = ChangeAsked {
        nothing_staged: Some(
            "nothing is staged to commit: stage your changes with `git add` first",
        ),
        recording: Some(How::Commit),
        ..ChangeAsked::default()
    };
    let change = ws.vcs.change(&ws.repo, &asked)?;
    let scanner = match no_verify {
        true => None,
        false => ws.secret_scanner()?,
    };
    let recording = Recording {
        how: How::Commit,
        no_verify,
        scanner: scanner.as_deref(),
    };
    let summary = ws.vcs.record(&ws.repo, &change, message, &recording)?;
    Ok(Done {
        json: json!({"committed": true, "summary": summary}),
        text: summary,
        warnings: Vec::new(),
    })
}
