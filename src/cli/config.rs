//! `iris config`: the effective configuration with its sources, `iris config set` and
//! `iris config init` (in `init.rs`).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

use super::config_file::{note_overridden, repo_root, user_file};
use iris_studio_config::{
    Config, FileKind, Overrides, PROJECT_FILE, Source, display_path, set_value, user_config_path,
};

/// `iris config`: show the configuration, or one of its subcommands.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ConfigArgs {
    /// `init` or `set`; without one, the configuration is shown.
    #[command(subcommand)]
    pub action: Option<ConfigAction>,
    /// Show the configuration as these flags would make it.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// What `iris config` does besides showing the configuration.
#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Set up a provider: pick a model server running on this machine (Ollama, LM Studio,
    /// llama.cpp) or a hosted provider and its API key; written to your user config after
    /// you confirm
    Init,
    /// Write KEY = VALUE into your user config, or the project's .irisconfig with --project
    ///
    /// The file keeps its comments and other keys. KEY is one `iris config` shows, such as
    /// `preset` or `providers.anthropic.model`; `anthropic.model` is short for the latter.
    Set {
        /// The setting's name, as `iris config` shows it (such as `preset` or `anthropic.model`).
        key: String,
        /// The value; `-` reads it from standard input (keeps an API key out of shell history).
        #[arg(allow_hyphen_values = true)]
        value: String,
        /// Write the repository's .irisconfig (style and provider only: no keys, URLs or trust).
        #[arg(long)]
        project: bool,
    },
}

/// The flags that override the configuration; a command that runs the agent can flatten
/// these in too.
#[derive(Debug, Default, clap::Args)]
pub struct ConfigFlags {
    /// The provider: openai, anthropic, gemini (or google), ollama, openai-compatible (any
    /// server by URL); a named service: openrouter, groq, deepseek, mistral, together,
    /// fireworks, xai, cerebras, azure, lmstudio, vllm; or a CLI agent: claude-code, codex,
    /// gemini-cli.
    #[arg(long, value_name = "NAME")]
    pub provider: Option<String>,
    /// The provider's main model.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// The provider's fast model (for subagents).
    #[arg(long, value_name = "MODEL")]
    pub fast_model: Option<String>,
    /// The style preset.
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Use gitmoji in commit messages.
    #[arg(long, overrides_with = "no_gitmoji")]
    pub gitmoji: bool,
    /// Do not use gitmoji.
    #[arg(long)]
    pub no_gitmoji: bool,
    /// Extra instructions for Iris.
    #[arg(short = 'i', long, value_name = "TEXT")]
    pub instructions: Option<String>,
    /// Which tool calls ask you first: safe (running programs, every time), cautious (running
    /// programs, once per tool), paranoid (everything but reading), yolo (nothing).
    #[arg(long, value_name = "MODE")]
    pub safety: Option<String>,
    /// The language Iris writes in (`de`, `French`); commit types and trailers stay as the
    /// project's rules demand.
    #[arg(long, value_name = "LANG")]
    pub language: Option<String>,
}

impl ConfigFlags {
    /// The flags as overrides of the configuration files and the environment.
    pub fn overrides(&self) -> Overrides {
        let gitmoji = match (self.gitmoji, self.no_gitmoji) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        Overrides {
            provider: self.provider.clone(),
            model: self.model.clone(),
            fast_model: self.fast_model.clone(),
            preset: self.preset.clone(),
            gitmoji,
            instructions: self.instructions.clone(),
            safety: self.safety.clone(),
            language: self.language.clone(),
            ..Overrides::default()
        }
    }

    /// The workspace the user is in, configured with these flags.
    pub fn workspace(&self) -> Result<crate::app::Workspace> {
        crate::app::Workspace::current(&self.overrides())
    }

    /// The workspace the user is in, configured with these flags and `sessions`'.
    pub fn workspace_with(
        &self,
        sessions: super::session::AgentSessionFlags,
    ) -> Result<crate::app::Workspace> {
        crate::app::Workspace::current(&sessions.over(self.overrides()))
    }
}

/// Runs `iris config`: shows the configuration, or runs `init` (on `runtime`) or `set`.
pub fn run(args: ConfigArgs, runtime: &tokio::runtime::Runtime) -> Result<ExitCode> {
    match args.action {
        None => show(&args.flags.overrides()),
        Some(ConfigAction::Init) => super::init::run(runtime),
        Some(ConfigAction::Set {
            key,
            value,
            project,
        }) => set(&key, &value, project),
    }
}

/// Prints every setting as a TOML line with its source as a comment: copy a line into a
/// config file and it means the same thing there.
fn show(overrides: &Overrides) -> Result<ExitCode> {
    let root = repo_root()?;
    let config = Config::load(root.as_deref(), overrides)?;
    let mut out = String::new();
    let file_line = |label: &str, path: Option<PathBuf>| match path {
        Some(path) if path.is_file() => format!("# {label}: {}\n", display_path(&path)),
        Some(path) => format!("# {label}: {} (none)\n", display_path(&path)),
        None => format!("# {label}: none\n"),
    };
    out.push_str(&file_line("user file", user_config_path()));
    out.push_str(&file_line(
        "project file",
        root.map(|r| r.join(PROJECT_FILE)),
    ));
    let locality = config.locality();
    out.push_str(&format!(
        "# {} is {}: {} (`iris config set {}.local true|false` says otherwise)\n",
        config.provider,
        if locality.local { "local" } else { "hosted" },
        locality.why,
        config.provider
    ));
    out.push_str(&config.settings_text());
    super::print_exact(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn set(key: &str, value: &str, project: bool) -> Result<ExitCode> {
    let value = if value == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the value from standard input")?;
        text.trim_end_matches(['\n', '\r']).to_string()
    } else {
        value.to_string()
    };
    let (path, target) = if project {
        let root = super::current_repo_root()?;
        (root.join(PROJECT_FILE), FileKind::Project)
    } else {
        (user_file()?, FileKind::User)
    };
    let written = set_value(&path, target, key, &value)?;
    super::print_exact(&format!(
        "{} = {} in {}",
        written.key, written.value, written.file
    ))?;
    let ours = match target {
        FileKind::User => Source::UserFile(path),
        FileKind::Project => Source::ProjectFile(path),
    };
    note_overridden(std::slice::from_ref(&written), &ours);
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--help` names every provider the flag accepts.
    #[test]
    fn the_provider_flag_lists_every_provider() {
        use clap::Args as _;
        let command = ConfigFlags::augment_args(clap::Command::new("iris"));
        let help = command
            .get_arguments()
            .find(|a| a.get_id() == "provider")
            .and_then(|a| a.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let words: Vec<&str> = help
            .split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .collect();
        for kind in iris_studio_config::ProviderKind::all() {
            assert!(
                words.contains(&kind.name()),
                "{} missing: {help}",
                kind.name()
            );
        }
    }
}
