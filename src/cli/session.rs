//! What every writing command shares: the repository, the configuration and Iris opened
//! together, the output and range flags, and how the artifact is printed, copied and published.

use anyhow::{Context, Result};
use clap::Args;

use super::progress::ProgressLine;
use crate::app::Workspace;
use crate::app::sessions::{self, Consent, Face, Look};
use crate::app::stores::agent_sessions;
use crate::app::vcs::Base;
use crate::output::exit::UsageError;
use crate::output::said::shown;
use crate::output::written::warnings_of;
use crate::publish::{PublishError, Published};
use iris_studio_agent::IrisAgent;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_agent::capability::write::Written;
use iris_studio_agent::runtime::dry_run::DryRun;
use iris_studio_core::artifact::ArtifactKind;
use iris_studio_core::stack::InStack;

/// How the artifact is printed.
#[derive(Debug, Args, Clone, Copy)]
pub struct OutputFlags {
    /// Print plain markdown (the default output, without any decoration).
    #[arg(long, global = true)]
    pub raw: bool,
    /// Print the structured artifact as JSON.
    #[arg(long, global = true, conflicts_with = "raw")]
    pub json: bool,
    /// Take each reply whole instead of streaming it.
    #[arg(long, global = true)]
    pub no_stream: bool,
    /// Also copy the artifact, as printed, to the clipboard: through the terminal (OSC 52), so
    /// it works over ssh; stdout is unchanged. Without a terminal it only warns.
    #[arg(long, global = true)]
    pub copy: bool,
    /// Send nothing: gather the evidence and print the first request exactly as it would go
    /// out (secrets withheld), its size by part in characters and tokens, and what it would
    /// cost (--json: as JSON).
    #[arg(long, global = true)]
    pub dry_run: bool,
}

/// Whether what the user asked their coding agent goes in the request, for this run.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct AgentSessionFlags {
    /// Send what you asked your coding agent (Claude Code, Codex, Gemini CLI, aider) while
    /// making this change, so Iris can say why (this run; `agent_sessions = true` always)
    #[arg(long, overrides_with = "no_sessions")]
    pub sessions: bool,
    /// Send nothing of your coding agent's sessions (this run)
    #[arg(long)]
    pub no_sessions: bool,
}

impl AgentSessionFlags {
    /// `overrides` with these flags' word on `agent_sessions`.
    pub fn over(
        self,
        mut overrides: iris_studio_config::Overrides,
    ) -> iris_studio_config::Overrides {
        overrides.agent_sessions = match (self.sessions, self.no_sessions) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        overrides
    }
}

/// The commits FROM..TO an artifact covers, and the version they ship in.
#[derive(Debug, Args)]
pub struct RangeArgs {
    /// Start of the range (exclusive), e.g. the previous release tag; required in git. In a
    /// jj repository a change or bookmark, `trunk()` by default.
    #[arg(long, value_name = "REF")]
    pub from: Option<String>,
    /// End of the range (default HEAD; in a jj repository `@`, or `@-` when `@` is empty).
    #[arg(long, value_name = "REF")]
    pub to: Option<String>,
    /// The version these changes ship in.
    #[arg(long, value_name = "NAME")]
    pub version_name: Option<String>,
}

impl RangeArgs {
    /// The range, its revisions checked first.
    pub(super) fn checked_scope(&self, session: &Session<'_>) -> Result<Scope> {
        let needed = Base::Named(
            "--from REF is needed: the range starts after it (the previous release tag, say)",
        );
        let (from, to) = tokio::task::block_in_place(|| {
            let (from, to) = (self.from.as_deref(), self.to.as_deref());
            let (from, to) = session.ws.vcs.range(&session.ws.repo, from, to, needed)?;
            UsageError::unless_commits(&session.ws.repo, &from, &to)?;
            anyhow::Ok((from, to))
        })?;
        Ok(Scope::Range {
            from,
            to,
            version: self.version_name.clone(),
        })
    }
}

/// The workspace and Iris, ready to work.
pub(super) struct Session<'a> {
    /// The repository, its configuration and version control.
    pub ws: &'a Workspace,
    /// Iris as configured (keeping her first request with `--dry-run`).
    pub iris: IrisAgent,
    /// `--dry-run`: where the first request is kept instead of being sent.
    dry_run: Option<DryRun>,
    json: bool,
    /// Who runs Iris: the git hook never sends the coding agent's sessions.
    face: Face,
}

impl<'a> Session<'a> {
    /// Iris on `ws` as the output flags ask (streaming or not, keeping her first request
    /// with `--dry-run`).
    pub(super) fn on(ws: &'a Workspace, output: OutputFlags) -> Result<Self> {
        let (iris, dry_run) = ws.iris_run(!output.no_stream, output.dry_run)?;
        Ok(Self {
            ws,
            iris,
            dry_run,
            json: output.json,
            face: Face::User,
        })
    }

    /// The session of a run the user is not there for (the git hook): the coding agent's
    /// sessions stay out, and nothing is said about them.
    pub(super) fn unattended(mut self, unattended: bool) -> Self {
        if unattended {
            self.face = Face::Unattended;
        }
        self
    }

    /// Iris for writing over `scope`: with what the user asked their coding agent while
    /// making the change when they said yes; when nobody said, and a session exists, the
    /// line that says how is printed once per repository.
    pub(super) fn iris_for(&self, scope: &Scope) -> IrisAgent {
        let ws = self.ws;
        let env = sessions::Env::from_process();
        let consent = match sessions::consent(&ws.config, &ws.stores, &env, self.face) {
            // Said once is enough: nothing to read.
            Consent::Unasked if agent_sessions::hinted(&ws.stores) => Consent::No,
            consent => consent,
        };
        let look = || sessions::look(consent, &ws.repo, &ws.root, scope, &env);
        match tokio::task::block_in_place(look) {
            Look::Send(section) => self.iris.clone().with_sessions(section),
            Look::Found(_) => {
                eprintln!("{}", sessions::HINT);
                agent_sessions::remember_hinted(&ws.stores);
                self.iris.clone()
            }
            Look::Nothing => self.iris.clone(),
        }
    }

    /// Writes an artifact with the progress line on stderr.
    pub(super) async fn write(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        ask_critic: bool,
    ) -> Result<Written> {
        self.write_in(kind, scope, None, ask_critic).await
    }

    /// Writes an artifact, for one `layer` of a stack when given, with the progress line on
    /// stderr.
    pub(super) async fn write_in(
        &self,
        kind: ArtifactKind,
        scope: &Scope,
        layer: Option<&InStack>,
        ask_critic: bool,
    ) -> Result<Written> {
        // Before the progress line: the line about the sessions goes on stderr whole.
        let iris = self.iris_for(scope);
        let progress = ProgressLine::start().priced(self.price());
        let sink = progress.sink();
        let result = match layer {
            Some(layer) => iris.write_layer(scope, layer, ask_critic, &sink).await,
            None => iris.write(kind, scope, ask_critic, &sink).await,
        };
        // The progress line ends when the last sink is gone.
        drop(sink);
        progress.finish().await;
        let written = self.finish(result)?;
        warn_about(&written);
        Ok(written)
    }

    /// The selected model's prices, when known.
    pub(super) fn price(&self) -> Option<iris_studio_config::prices::Price> {
        self.ws.config.model_price().map(|(price, _)| price)
    }

    /// A run's result, or with `--dry-run` the request it kept, shown.
    pub(super) fn finish<T>(&self, result: iris_studio_agent::Result<T>) -> Result<T> {
        crate::output::preview::finish(self.dry_run.as_ref(), result, &self.ws.config, self.json)
    }
}

/// What a written artifact warns about on stderr: a critic that could not run, the commit
/// rules it still breaks.
pub(super) fn warn_about(written: &Written) {
    for warning in warnings_of(written) {
        eprintln!("warning: {warning}");
    }
}

/// The artifact as the flags ask for it: markdown, or its JSON with --json.
pub(super) fn rendered(written: &Written, output: OutputFlags) -> Result<String> {
    let text = if output.json {
        serde_json::to_string_pretty(&written.json)?
    } else {
        written.text.clone()
    };
    Ok(text.trim_end().to_string())
}

/// Prints the artifact on stdout, and copies it too with --copy.
pub(super) fn print_artifact(written: &Written, output: OutputFlags) -> Result<()> {
    let text = rendered(written, output)?;
    println!("{}", shown(&text));
    if output.copy {
        copy(&text);
    }
    Ok(())
}

/// Copies `text` to the clipboard through the terminal; a failure only warns (the text is on
/// stdout).
pub(super) fn copy(text: &str) {
    match crate::clipboard::copy_to_terminal(text) {
        Ok(()) => eprintln!("copied to the clipboard ({} chars)", text.chars().count()),
        Err(err) => eprintln!("warning: not copied to the clipboard: {err}"),
    }
}

/// The text of the `--plan` file a command takes back (reword, split): one that cannot be
/// read is the user's to fix, a usage error.
pub(super) fn plan_text(file: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(file)
        .map_err(|e| UsageError(format!("cannot read the plan {}: {e}", file.display())).into())
}

/// Runs a blocking publish off the async runtime; says what was published on stderr. A
/// failure is an error saying the artifact is on stdout anyway.
pub(super) async fn publish<F>(what: &str, job: F) -> Result<()>
where
    F: FnOnce() -> std::result::Result<Published, PublishError> + Send + 'static,
{
    let published = tokio::task::spawn_blocking(job)
        .await
        .context("the publishing task failed")?
        .with_context(|| format!("not published (the {what} is on stdout above)"))?;
    eprintln!("{}", published.summary);
    Ok(())
}
