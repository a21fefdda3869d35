//! Running one checked call on a repository: the same capabilities, rules and safety as the
//! command line, the result as text and as JSON.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::tools::{Call, Model, ReviewScope};
use crate::shared::exit::UsageError;
use crate::shared::staged::require_staged;
use iris_agent::capability::requests::Scope;
use iris_agent::capability::write::Written;
use iris_agent::{EventSink, IrisAgent};
use iris_config::{Config, Overrides};
use iris_core::artifact::ArtifactKind;
use iris_core::protocol::LinesAsked;
use iris_git::{CommitOptions, GitRepo};

/// What a call produced: the text a person reads, the JSON a program reads, and warnings.
#[derive(Debug, Default)]
pub struct Done {
    pub text: String,
    pub json: Value,
    pub warnings: Vec<String>,
}

/// Runs `call` on the repository at `root`; `sink` receives Iris' events as she works.
/// (The repository handle is not `Sync`: it is opened, used and dropped between awaits.)
pub async fn run(root: &Path, overrides: &Overrides, call: Call, sink: &EventSink) -> Result<Done> {
    match call {
        Call::CheckMessage { message } => check(&GitRepo::discover(root)?, &message),
        Call::Commit { message, no_verify } => commit(root.to_path_buf(), message, no_verify).await,
        Call::Write(call) => {
            let (iris, job, root) = {
                let repo = GitRepo::discover(root)?;
                let root = repo.root();
                let config = Config::load(Some(&root), overrides)?;
                let iris = IrisAgent::from_config(
                    &config,
                    &root,
                    crate::shared::IrisDir::of(&repo.state_dir()).path(),
                    true,
                )?;
                (iris, job_of(&repo, &config, call)?, root)
            };
            write(&iris, job, sink, &root).await
        }
    }
}

/// A call that asks a model, with what the repository decides about it settled first.
enum Job {
    Artifact {
        kind: ArtifactKind,
        scope: Scope,
        critic: bool,
    },
    Review {
        scope: Scope,
        min_confidence: u8,
    },
    ExplainFile(String),
    ExplainLines(LinesAsked),
}

fn job_of(repo: &GitRepo, config: &Config, call: Model) -> Result<Job> {
    let vcs = match crate::shared::jj::open(repo)? {
        Some(jj) => Vcs::Jj(jj),
        None => Vcs::Git(repo),
    };
    let artifact = |kind, scope| Job::Artifact {
        kind,
        scope,
        critic: false,
    };
    Ok(match call {
        Model::CommitMessage { critic } => Job::Artifact {
            kind: ArtifactKind::Commit,
            scope: vcs.staged("nothing is staged: stage your changes with `git add` first")?,
            critic,
        },
        Model::Review {
            scope,
            min_confidence,
        } => Job::Review {
            scope: match scope {
                ReviewScope::Staged => vcs.staged(
                    "nothing is staged to review: stage changes, or ask for include_unstaged, a commit or a range",
                )?,
                ReviewScope::Uncommitted => vcs.uncommitted()?,
                ReviewScope::Commit(rev) => vcs.commit(rev)?,
                ReviewScope::Range { from, to } => vcs.range(Some(from), to, None)?,
            },
            min_confidence: min_confidence.unwrap_or(config.review_min_confidence),
        },
        Model::PrDescription { from, to } => artifact(ArtifactKind::Pr, vcs.range(from, to, None)?),
        Model::Changelog(r) => artifact(
            ArtifactKind::Changelog,
            vcs.range(Some(r.from), r.to, r.version)?,
        ),
        Model::ReleaseNotes(r) => artifact(
            ArtifactKind::ReleaseNotes,
            vcs.range(Some(r.from), r.to, r.version)?,
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

/// Where a call's scopes come from: git's index and revisions, or a jj workspace's `@` (jj
/// has no staging area) and revisions (`trunk()` the default base, `@` or `@-` the end).
enum Vcs<'a> {
    Git(&'a GitRepo),
    Jj(iris_git::jj::Jj),
}

impl Vcs<'_> {
    /// The staged change (`@` in jj); `none` is said when nothing is staged.
    fn staged(&self, none: &str) -> Result<Scope> {
        match self {
            Vcs::Git(repo) => {
                require_staged(repo, none)?;
                Ok(Scope::Staged)
            }
            Vcs::Jj(jj) => Ok(Scope::Commit(
                crate::shared::jj::change_to_describe(jj, "@")?.commit_id,
            )),
        }
    }

    /// Every uncommitted change (`@` in jj).
    fn uncommitted(&self) -> Result<Scope> {
        match self {
            Vcs::Git(_) => Ok(Scope::Uncommitted),
            // jj has no staging area to be empty: `@` is all of it.
            Vcs::Jj(_) => self.staged(""),
        }
    }

    /// One commit (a jj change).
    fn commit(&self, rev: String) -> Result<Scope> {
        match self {
            Vcs::Git(repo) => {
                UsageError::unless_revisions(repo, &[&rev])?;
                Ok(Scope::Commit(rev))
            }
            Vcs::Jj(jj) => Ok(Scope::Commit(crate::shared::jj::commit_of(jj, &rev)?)),
        }
    }

    /// The commits after `from` (without one, the default branch; `trunk()` in jj) up to
    /// `to` (`HEAD`: in jj `@`, or `@-` when `@` is empty), shipping in `version`.
    fn range(&self, from: Option<String>, to: String, version: Option<String>) -> Result<Scope> {
        let (from, to) = match self {
            Vcs::Git(repo) => {
                let from = match from {
                    Some(from) => from,
                    None => repo.default_branch().ok_or_else(|| {
                        UsageError(
                            "no default branch (main, master or the remote's HEAD) was found: pass `from`"
                                .into(),
                        )
                    })?,
                };
                UsageError::unless_revisions(repo, &[&from, &to])?;
                (from, to)
            }
            Vcs::Jj(jj) => {
                let to = (to != "HEAD").then_some(to);
                crate::shared::jj::range(jj, from.as_deref(), to.as_deref())?
            }
        };
        Ok(Scope::Range { from, to, version })
    }
}

async fn write(iris: &IrisAgent, job: Job, sink: &EventSink, root: &Path) -> Result<Done> {
    match job {
        Job::Artifact {
            kind,
            scope,
            critic,
        } => {
            let done = done(iris.write(kind, &scope, critic, sink).await?);
            // Remembered with its change, as `iris gen` does: `iris eval --accepted` finds it.
            if kind == ArtifactKind::Commit
                && let Ok(repo) = GitRepo::discover(root)
            {
                crate::shared::accepted::remember(&repo, &done.text, "mcp", false);
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
            Ok(done(crate::shared::written::confident(
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

/// `commit` in a jj workspace: `jj commit` (`@` described, a new empty change on top), after
/// the commit rules and the secret scan jj's missing hooks leave to Iris.
fn jj_commit(
    repo: &GitRepo,
    jj: &iris_git::jj::Jj,
    message: &str,
    no_verify: bool,
) -> Result<String> {
    let change = crate::shared::jj::change_to_describe(jj, "@")?;
    if !no_verify {
        let config = Config::load(Some(&repo.root()), &iris_config::Overrides::default())?;
        let scanner = iris_agent::iris::secret_scanner(&config, &repo.root())?;
        if let Some(why) = crate::shared::jj::refused(repo, jj, "@", message, scanner.as_deref())? {
            return Err(UsageError(format!(
                "not committed: {why} (jj runs no git hooks, so Iris checks; no_verify skips)"
            ))
            .into());
        }
    }
    jj.commit(message)?;
    Ok(format!("jj commit: {} described", change.short_id))
}

/// A written artifact as the command line prints it, with what it warns about.
fn done(written: Written) -> Done {
    Done {
        warnings: crate::shared::written::warnings_of(&written),
        text: written.text.trim_end().to_string(),
        json: written.json,
    }
}

/// `check_commit_message`: the repository's rules, no model.
fn check(repo: &GitRepo, message: &str) -> Result<Done> {
    let Some(rules) = iris_config::project::commit_rules(&repo.root())? else {
        return Ok(Done {
            text: crate::shared::commit_rules::NO_RULES.into(),
            json: json!({"rules": null, "valid": true, "violations": []}),
            warnings: Vec::new(),
        });
    };
    let violations = rules.check(message);
    let (text, failed) = crate::shared::commit_rules::report(&rules, &violations);
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

/// `commit`: the staged changes, through `git commit` (hooks and signing apply).
async fn commit(root: PathBuf, message: String, no_verify: bool) -> Result<Done> {
    let summary = tokio::task::spawn_blocking(move || -> Result<String> {
        let repo = GitRepo::discover(&root)?;
        if let Some(jj) = crate::shared::jj::open(&repo)? {
            return jj_commit(&repo, &jj, &message, no_verify);
        }
        require_staged(
            &repo,
            "nothing is staged to commit: stage your changes with `git add` first",
        )?;
        let options = CommitOptions {
            amend: false,
            no_verify,
        };
        Ok(repo.commit(&message, options)?)
    })
    .await
    .context("the commit task failed")??;
    Ok(Done {
        json: json!({"committed": true, "summary": summary}),
        text: summary,
        warnings: Vec::new(),
    })
}
