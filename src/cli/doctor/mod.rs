//! `iris doctor`: checks what Iris needs (git and the repository, the hooks, the configuration
//! and the provider, jj, gh and glab, the stores) and says what to do about each problem.
//!
//! Each group of checks has its file: the facts it needs, gathered here at the edge (programs
//! run, files read, a server asked, each within a deadline, the slow ones at once), and pure
//! functions that turn them into [`check::Check`]s.

mod check;
mod config;
mod hooks;
mod provider;
mod repo;
mod stores;
mod tools;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use iris_studio_config::{Config, FileKind, Overrides, PROJECT_FILE};
use iris_studio_git::{GitError, GitRepo};

use crate::app::stores::IrisDir;
use crate::app::vcs::GitOnly;
use crate::publish::{Forge, forge_of, tool_state};
use check::Check;

/// `iris doctor`'s flags.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Also ask a hosted provider for its list of models (a request that costs nothing) with
    /// the key and the address a run uses: a key that expired shows here.
    #[arg(long)]
    pub online: bool,
    /// Print the checks as a JSON list of {check, status, detail, fix}.
    #[arg(long)]
    pub json: bool,
}

/// How long git, jj, gh and glab each have to say their version or their login.
const TOOL_DEADLINE: Duration = Duration::from_secs(5);

/// Runs every check and prints them: exit 0 with warnings at most, 1 with a problem.
pub fn run(args: DoctorArgs, runtime: &tokio::runtime::Runtime) -> Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let opened = match GitRepo::discover(&cwd) {
        Ok(repo) => Ok(Some(repo)),
        Err(GitError::NotARepository(_)) => Ok(None),
        Err(e) => Err(e.to_string()),
    };
    let repo = opened.as_ref().ok().and_then(Option::as_ref);
    let dir = repo.map_or_else(|| cwd.clone(), GitRepo::root);
    let forge = repo
        .and_then(GitRepo::remote_url)
        .and_then(|url| forge_of(&url));
    let checks = std::thread::scope(|scope| {
        // The programs run at once, each within its deadline, while the rest is gathered.
        let git =
            scope.spawn(|| iris_studio_git::git_version(TOOL_DEADLINE).map_err(|e| e.to_string()));
        let jj = scope.spawn(|| crate::app::vcs::jj_found(TOOL_DEADLINE));
        let forge_tool = |tool: Forge| {
            let dir = &dir;
            scope.spawn(move || tools::ForgeFacts {
                forge: tool,
                state: tool_state(dir, tool, forge == Some(tool), TOOL_DEADLINE),
                needed: forge == Some(tool),
            })
        };
        let gh = forge_tool(Forge::GitHub);
        let glab = forge_tool(Forge::GitLab);
        let (configuration, provider) = configuration(repo, args.online, runtime);
        let repo_facts = repo::RepoFacts {
            git: joined(git),
            repo: opened
                .as_ref()
                .map(|r| r.as_ref().map(repo::Shape::of))
                .map_err(Clone::clone),
        };
        let mut checks = repo::checks(&repo_facts);
        checks.extend(configuration);
        checks.extend(provider);
        if let Some(repo) = repo {
            checks.extend(hook_checks(repo));
        }
        checks.push(tools::jj(&tools::JjFacts {
            found: joined(jj),
            needed: repo.is_some_and(crate::app::vcs::is_jj),
        }));
        for handle in [gh, glab] {
            checks.push(tools::forge_tool(&joined(handle)));
        }
        if let Some(repo) = repo {
            let dir = IrisDir::of(&repo.state_dir());
            checks.push(stores::check(&stores::StoreFacts::read(dir.path())));
        }
        checks
    });
    print(&checks, args.json)?;
    Ok(ExitCode::from(check::exit_code(&checks)))
}

/// A thread's answer (its panic, should it panic, goes on here).
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The config files' checks, and the provider's (its server asked on `runtime`).
fn configuration(
    repo: Option<&GitRepo>,
    online: bool,
    runtime: &tokio::runtime::Runtime,
) -> (Vec<Check>, Vec<Check>) {
    let root = repo.map(GitRepo::root);
    let files: Vec<config::FileFacts> = [
        iris_studio_config::user_config_path().map(|path| (FileKind::User, path)),
        root.as_ref()
            .map(|root| (FileKind::Project, root.join(PROJECT_FILE))),
    ]
    .into_iter()
    .flatten()
    .map(|(kind, path)| config::FileFacts::read(kind, &path))
    .collect();
    let loaded = Config::load(root.as_deref(), &Overrides::default()).map_err(|e| e.0);
    let reach = match &loaded {
        Ok(config) => runtime.block_on(provider::reach(provider::ask(config, online))),
        Err(_) => provider::Reach::NotChecked("the configuration does not load".into()),
    };
    let facts = provider::ProviderFacts {
        config: loaded,
        files_broken: config::any_broken(&files),
        reach,
    };
    (
        files.iter().map(config::check).collect(),
        provider::checks(&facts),
    )
}

/// The hooks' checks: not used in a jj workspace.
fn hook_checks(repo: &GitRepo) -> Vec<Check> {
    if let Some(why) = crate::app::vcs::open(repo).refuses(GitOnly::Hooks) {
        return hooks::not_used(&why);
    }
    match super::hook::hook_facts(repo) {
        Ok(facts) => hooks::checks(&facts),
        Err(e) => hooks::unreadable(&format!("{e:#}")),
    }
}

/// The checks on stdout, as lines or as JSON.
fn print(checks: &[Check], json: bool) -> Result<()> {
    let text = match json {
        true => format!("{}\n", check::json(checks)),
        false => check::text(checks),
    };
    super::print_exact(&text)
}
