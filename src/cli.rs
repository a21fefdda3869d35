//! The command line: commands, flags, exit codes.

mod absorb;
mod approve;
mod blame;
mod changelog;
mod check;
mod completions;
pub mod config;
mod config_file;
mod doctor;
mod eval;
mod explain;
mod generate;
mod hook;
mod init;
mod interrupt;
mod mcp;
mod pick;
mod pr;
mod pr_stack;
mod presets;
mod progress;
mod prompt;
mod release_notes;
mod review;
mod reword;
mod session;
mod split;
mod studio;
mod typed_path;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use rig_core::tool::server::ToolServer;

use crate::output::exit::{self, UsageError, exit_code, one_line};
use crate::output::said::shown;
use iris_studio_agent::runtime::safety::Safety;
use iris_studio_agent::tools::ToolContext;
use iris_studio_agent::tools::registry::{runnable_listed, runnable_tools, tool_set};
use iris_studio_agent::tools::workspace::Notes;
use iris_studio_config::Overrides;
use iris_studio_core::protocol::SafetyMode;
use iris_studio_git::GitRepo;

/// The command line as parsed: the global flags and the command.
#[derive(Debug, Parser)]
#[command(
    name = "iris",
    version,
    about = "Iris Studio: the prose around your code changes (run `iris` alone in a repository for the studio)"
)]
pub struct Cli {
    /// `--debug` (its help is [`DEBUG_HELP`], which `iris tool`'s own parser shares).
    #[arg(long, global = true, help = DEBUG_HELP)]
    pub debug: bool,

    /// `None` (`iris` alone): the studio inside a repository, the help outside one.
    #[command(subcommand)]
    pub command: Option<Command>,
}

const DEBUG_HELP: &str =
    "Trace each tool call (arguments, duration) and the configuration (keys masked) to stderr";

const TOOL_ABOUT: &str =
    "Run one of Iris' tools on this repository and print exactly what the model would receive";

/// The commands `iris` runs.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the full-screen studio over this repository.
    Studio(studio::StudioArgs),
    /// `iris tool` (its help is [`TOOL_ABOUT`], which its own parser shares).
    #[command(about = TOOL_ABOUT)]
    Tool(ToolArgs),
    /// Write the commit message for the staged changes (and commit with it).
    Gen(generate::GenArgs),
    /// Review the staged changes, a range or a commit: findings with severity, file and line.
    Review(review::ReviewArgs),
    /// Write a pull request description for a branch (default: default branch to HEAD).
    Pr(pr::PrArgs),
    /// Write the changelog entry for a range, optionally into CHANGELOG.md.
    Changelog(changelog::ChangelogArgs),
    /// Write the release notes for a range.
    ReleaseNotes(release_notes::ReleaseNotesArgs),
    /// Measure Iris' commit messages on this repository's own history: each chosen commit is
    /// replayed as a staged change and what Iris writes is scored against its author's message.
    Eval(eval::EvalArgs),
    /// Explain why lines of a file are as they are, from their history (FILE:START-END).
    Blame(blame::BlameArgs),
    /// Explain a file: why it exists and the responsibility blocks its code divides into.
    Explain(explain::ExplainArgs),
    /// Split a tangled change into atomic commits: Iris plans the groups and their messages,
    /// `--apply` commits them, `--undo` puts the change back.
    Split(split::SplitArgs),
    /// New messages for commits already made, each written from its own change with the
    /// history before it as the style sample; `--apply` rewrites the messages and nothing
    /// else, `--undo` puts the branch back.
    Reword(reword::RewordArgs),
    /// Fold staged fixes into the branch's commits they fix: each hunk goes to the commit
    /// that last touched its lines; `--apply` makes `fixup!` commits, `--squash` folds them
    /// in, `--undo` puts everything back.
    Absorb(absorb::AbsorbArgs),
    /// Show the effective configuration and where each value comes from; `set` changes it,
    /// `init` sets up a provider.
    Config(config::ConfigArgs),
    /// Install or remove the git hook that writes the message when you run `git commit`.
    Hook(hook::HookArgs),
    /// Check what Iris needs (git and the repository, the hooks, the configuration and the
    /// provider, jj, gh and glab, the stores) and say what to do about each problem; exit 1
    /// on a problem.
    Doctor(doctor::DoctorArgs),
    /// Serve Iris' tools to a coding agent (Claude Code, Codex, Cursor) over the Model Context
    /// Protocol on stdio.
    Mcp(mcp::McpArgs),
    /// List the writing style presets (for --preset).
    Presets,
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell.
    Completions(completions::CompletionsArgs),
    /// jj's diff editor for one group of `iris split` in a jj repository (run by jj).
    #[command(hide = true)]
    JjSplitTool(split::ToolArgs),
}

/// `iris tool`: one of Iris' tools run by hand.
#[derive(Debug, clap::Args)]
pub struct ToolArgs {
    /// List every tool with its description and argument schema.
    #[arg(long, conflicts_with_all = ["name", "args"])]
    pub list: bool,
    /// The tool to run (see --list).
    #[arg(required_unless_present = "list")]
    pub name: Option<String>,
    /// The tool's arguments as a JSON object.
    #[arg(default_value = "{}")]
    pub args: Option<String>,
    /// Trust this repository: let tools run its build scripts (static_analysis runs linters).
    /// Also IRIS_TRUST_REPO=1, or `trust_repo = true` in your user config.
    #[arg(long)]
    pub trust_repo: bool,
}

/// Parses the command line, runs the command and turns any error into one line and an exit code.
pub fn run() -> ExitCode {
    let cli = match parse(std::env::args_os().collect()) {
        Ok(cli) => cli,
        Err(err) => return report_clap_error(err),
    };
    // The studio owns the screen: its traces go to a file instead of stderr.
    let full_screen = matches!(cli.command, None | Some(Command::Studio(_)));
    init_tracing(cli.debug, full_screen);
    match execute(cli) {
        Ok(code) => code,
        // --dry-run showed the request it did not send: that was the whole job.
        Err(err)
            if err
                .chain()
                .any(|c| c.is::<crate::output::preview::DryRunShown>()) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {}", one_line(&err));
            ExitCode::from(exit_code(&err))
        }
    }
}

/// The command line as [`Cli`] parses it. `iris tool`, which scripts and coding agents run many
/// times over, is parsed by its own command alone: building every command's flags first was a
/// tenth of a short tool call.
fn parse(args: Vec<std::ffi::OsString>) -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    if args.get(1).is_some_and(|command| command == "tool") {
        let matches = tool_command().try_get_matches_from(args.into_iter().skip(1))?;
        return Ok(Cli {
            debug: matches.get_flag("debug"),
            command: Some(Command::Tool(ToolArgs::from_arg_matches(&matches)?)),
        });
    }
    Cli::try_parse_from(args)
}

/// `iris tool` as the whole command tree has it, with the global `--debug`. (The about comes
/// last: `ToolArgs`' doc comment would replace it.)
fn tool_command() -> clap::Command {
    let command = clap::Command::new("tool").bin_name("iris tool").arg(
        clap::Arg::new("debug")
            .long("debug")
            .action(clap::ArgAction::SetTrue)
            .help(DEBUG_HELP),
    );
    <ToolArgs as clap::Args>::augment_args(command).about(TOOL_ABOUT)
}

/// Help and version go to stdout with success; a wrong flag is one line on stderr and exit 2.
fn report_clap_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(exit::CONFIG)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            let rendered = err.render().to_string();
            let first = first_line(&rendered);
            let tip = rendered
                .lines()
                .find(|l| l.trim_start().starts_with("tip:"))
                .map(|l| format!(" ({})", l.trim()))
                .unwrap_or_default();
            eprintln!("{first}{tip}; see 'iris --help'");
            ExitCode::from(exit::CONFIG)
        }
    }
}

/// The first line of clap's error, with what it lists below when it ends in a colon
/// ("the following required arguments were not provided:" and the arguments).
fn first_line(rendered: &str) -> String {
    let mut lines = rendered.lines();
    let first = lines.next().unwrap_or("error: invalid command line");
    if !first.ends_with(':') {
        return first.to_string();
    }
    let listed: Vec<&str> = lines
        .take_while(|l| l.starts_with(' ') && !l.trim().is_empty())
        .map(str::trim)
        .collect();
    format!("{first} {}", listed.join(", "))
}

/// Traces to stderr, or for the full-screen studio to `.git/iris/studio.log` (where there is
/// a repository to put it in).
fn init_tracing(debug: bool, full_screen: bool) {
    let tracing_on = debug || std::env::var_os("IRIS_LOG").is_some();
    if !tracing_on {
        // Nothing to trace: no subscriber to build (a short command's start-up pays for it).
        return;
    }
    let filter = if debug {
        // A target prefix: every crate of the workspace (iris_studio,
        // iris_studio_core, iris_studio_agent, ...), none of the libraries below them.
        tracing_subscriber::EnvFilter::new("iris=debug")
    } else {
        tracing_subscriber::EnvFilter::try_from_env("IRIS_LOG")
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("off"))
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    let log_file = full_screen
        .then(|| {
            let repo = GitRepo::discover(&std::env::current_dir().ok()?).ok()?;
            let dir = crate::app::stores::IrisDir::of(&repo.state_dir());
            std::fs::create_dir_all(dir.path()).ok()?;
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(dir.studio_log())
                .ok()
        })
        .flatten();
    match log_file {
        Some(file) => builder
            .with_ansi(false)
            .with_writer(std::sync::Mutex::new(file))
            .init(),
        // Colours only for a person at a terminal: a log piped to a file stays plain text.
        None => builder
            .with_ansi(
                std::io::IsTerminal::is_terminal(&std::io::stderr())
                    && std::env::var_os("NO_COLOR").is_none(),
            )
            .with_writer(std::io::stderr)
            .init(),
    }
}

fn execute(cli: Cli) -> Result<ExitCode> {
    // Built only for the commands that need it, so a short one (`iris hook` on each commit)
    // does not start worker threads it never uses.
    let runtime = || runtime_of(tokio::runtime::Builder::new_multi_thread());
    let command = match cli.command {
        Some(command) => command,
        // `iris` alone: the studio inside a repository, the help outside one.
        None if in_repository() => Command::Studio(studio::StudioArgs::default()),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help()?;
            return Ok(ExitCode::from(exit::CONFIG));
        }
    };
    match command {
        Command::Studio(args) => runtime()?.block_on(studio::run(args)),
        // One call, answered on this thread: no worker threads to start.
        Command::Tool(args) => {
            runtime_of(tokio::runtime::Builder::new_current_thread())?.block_on(tool(args))
        }
        // Checking writes nothing and needs no runtime, provider or agent.
        Command::Gen(args) if args.check => check::run(args.rev.as_deref()),
        Command::Gen(args) => runtime()?.block_on(generate::run(args)),
        Command::Review(args) => runtime()?.block_on(review::run(args)),
        Command::Pr(args) if args.stack => runtime()?.block_on(pr_stack::run(args)),
        Command::Pr(args) => runtime()?.block_on(pr::run(args)),
        Command::Changelog(args) => runtime()?.block_on(changelog::run(args)),
        Command::ReleaseNotes(args) => runtime()?.block_on(release_notes::run(args)),
        Command::Blame(args) => runtime()?.block_on(blame::run(args)),
        Command::Explain(args) => runtime()?.block_on(explain::run(args)),
        Command::Split(args) => runtime()?.block_on(split::run(args)),
        Command::Reword(args) => runtime()?.block_on(reword::run(args)),
        Command::Absorb(args) => runtime()?.block_on(absorb::run(args)),
        Command::Eval(args) => runtime()?.block_on(eval::run(args)),
        Command::Config(args) => config::run(args, &runtime()?),
        Command::Hook(args) => hook::run(args),
        Command::Doctor(args) => doctor::run(args, &runtime()?),
        Command::Mcp(args) => runtime()?.block_on(mcp::run(args)),
        Command::Presets => presets::run(),
        Command::Completions(args) => completions::run(args),
        Command::JjSplitTool(args) => split::tool(args),
    }
}

/// tokio's runtime with its timers and IO.
fn runtime_of(mut builder: tokio::runtime::Builder) -> Result<tokio::runtime::Runtime> {
    builder
        .enable_all()
        .build()
        .context("could not start the async runtime")
}

fn in_repository() -> bool {
    std::env::current_dir().is_ok_and(|cwd| GitRepo::discover(&cwd).is_ok())
}

/// The repository the user is in, from any of its subdirectories.
fn current_repo() -> Result<GitRepo> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    Ok(GitRepo::discover(&cwd)?)
}

fn current_repo_root() -> Result<PathBuf> {
    Ok(current_repo()?.root())
}

async fn tool(args: ToolArgs) -> Result<ExitCode> {
    let overrides = Overrides {
        trust_repo: args.trust_repo.then_some(true),
        ..Overrides::default()
    };
    let ws = crate::app::Workspace::current(&overrides)?;
    // The user named this call: it needs no approval (trust still decides what may execute).
    // One call on a current-thread runtime: the tool's work needs no thread of its own.
    let ctx = ToolContext::new(ws.root.clone())
        .with_trust(ws.config.trust_repo)
        .with_safety(Safety::new(SafetyMode::Yolo))
        .working_on_this_thread();
    if args.list {
        let mut out = String::new();
        for (tool, risk) in runnable_listed(&ctx, &Notes::default()) {
            let def = tool.definition(String::new()).await;
            let schema = serde_json::to_string_pretty(&def.parameters)?;
            out.push_str(&format!(
                "{} ({risk})\n  {}\n  arguments: {}\n\n",
                def.name,
                def.description,
                schema.replace('\n', "\n  ")
            ));
        }
        print_exact(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let tools = runnable_tools(&ctx, &Notes::default());
    let name = args.name.unwrap_or_default();
    if !tools.iter().any(|t| t.name() == name) {
        let names: Vec<String> = tools.iter().map(|t| t.name()).collect();
        return Err(UsageError(format!(
            "unknown tool '{name}'; the tools are: {}",
            names.join(", ")
        ))
        .into());
    }
    let json = args.args.unwrap_or_else(|| "{}".to_string());
    // The same path an agent's tool call takes, so the text is exactly what the model reads.
    let server = ToolServer::new().run();
    server
        .append_toolset(tool_set(&ctx))
        .await
        .context("could not register the tools")?;
    match server.call_tool(&name, &json).await {
        Ok(text) => {
            print_exact(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            // rig wraps the tool's own failure in its error types ("Toolset error:
            // ToolCallError: ToolCallError: ..."); the last of their sources is the tool's.
            let own = std::iter::successors(Some(&err as &dyn std::error::Error), |e| e.source())
                .last()
                .map_or_else(
                    || err.to_string(),
                    |e| match e.is::<serde_json::Error>() {
                        true => format!("the arguments are not valid JSON for it: {e}"),
                        false => e.to_string(),
                    },
                );
            print_exact(&own)?;
            eprintln!("error: the tool '{name}' failed (its error is above)");
            Ok(ExitCode::from(exit::GENERAL))
        }
    }
}

/// Writes text as is, with a final newline, tolerating a closed pipe (`iris tool ... | head`).
fn print_exact(text: &str) -> Result<()> {
    let text = shown(text);
    let text = text.as_ref();
    let mut stdout = std::io::stdout().lock();
    let result = stdout
        .write_all(text.as_bytes())
        .and_then(|()| {
            if text.ends_with('\n') {
                Ok(())
            } else {
                stdout.write_all(b"\n")
            }
        })
        .and_then(|()| stdout.flush());
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("could not write to stdout"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parsed(result: Result<Cli, clap::Error>) -> String {
        match result {
            Ok(cli) => format!("{cli:?}"),
            Err(err) => format!("{:?}: {}", err.kind(), err.render()),
        }
    }

    #[test]
    fn iris_tool_parses_by_itself_as_the_whole_tree_parses_it() {
        let lines: [&[&str]; 10] = [
            &["tool", "git_status"],
            &["tool", "git_diff", r#"{"detail":"summary"}"#, "--debug"],
            &["tool", "--debug", "git_log"],
            &["tool", "git_status", "--trust-repo"],
            &["tool", "--list"],
            &["tool", "--list", "git_log"],
            &["tool"],
            &["tool", "git_status", "--nope"],
            &["tool", "a", "b", "c"],
            &["tool", "--help"],
        ];
        for line in lines {
            let args: Vec<std::ffi::OsString> = std::iter::once("iris")
                .chain(line.iter().copied())
                .map(Into::into)
                .collect();
            assert_eq!(
                parsed(parse(args.clone())),
                parsed(Cli::try_parse_from(args)),
                "iris {line:?}"
            );
        }
    }

    #[test]
    fn the_tool_command_has_the_help_of_the_whole_tree_s() {
        let mut tree = Cli::command();
        tree.build();
        let whole = tree.find_subcommand_mut("tool").expect("iris tool");
        let mut alone = tool_command();
        assert_eq!(
            alone.render_help().to_string(),
            whole.render_help().to_string()
        );
        assert_eq!(
            alone.render_usage().to_string(),
            whole.render_usage().to_string()
        );
    }
}
