//! `iris completions <shell>`: the shell completion script, on stdout.

use std::process::ExitCode;

use anyhow::Result;
use clap::CommandFactory;
use clap_complete::Shell;

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(args: CompletionsArgs) -> Result<ExitCode> {
    // Rendered first: clap_complete panics on a write error such as a closed pipe.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::Cli::command(), "iris", &mut script);
    super::print_exact(&String::from_utf8_lossy(&script))?;
    Ok(ExitCode::SUCCESS)
}
