//! The command-line agents that come with a subscription (Claude Code, Codex, Gemini CLI),
//! run as Iris' model: what each is called, how it is installed and signed in to.

/// A command-line agent Iris can run as her model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CliAgent {
    /// Anthropic's Claude Code (`claude -p`).
    ClaudeCode,
    /// OpenAI's Codex CLI (`codex exec`).
    Codex,
    /// Google's Gemini CLI (`gemini`).
    GeminiCli,
}

/// The model setting that leaves the choice to the CLI (its own default, or the plan's).
pub const CLI_DEFAULT_MODEL: &str = "default";

impl CliAgent {
    /// Every agent, in the order they are listed.
    pub const ALL: [CliAgent; 3] = [Self::ClaudeCode, Self::Codex, Self::GeminiCli];

    /// The provider's name, as written in config files.
    pub fn name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::GeminiCli => "gemini-cli",
        }
    }

    /// The command run, looked up on PATH.
    pub fn program(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude",
            Self::Codex => "codex",
            Self::GeminiCli => "gemini",
        }
    }

    /// How the command is installed.
    pub fn install(self) -> &'static str {
        match self {
            Self::ClaudeCode => "npm install -g @anthropic-ai/claude-code",
            Self::Codex => "npm install -g @openai/codex",
            Self::GeminiCli => "npm install -g @google/gemini-cli",
        }
    }

    /// How the user signs in to their plan.
    pub fn login(self) -> &'static str {
        match self {
            Self::ClaudeCode => "run `claude` and sign in with /login",
            Self::Codex => "run `codex login`",
            Self::GeminiCli => "run `gemini` and choose how to sign in",
        }
    }

    /// The plan that pays, in words.
    pub fn plan(self) -> &'static str {
        match self {
            Self::ClaudeCode => "your Claude plan",
            Self::Codex => "your ChatGPT plan",
            Self::GeminiCli => "your Gemini plan",
        }
    }

    /// The agent named `name` (`claude-code`, `codex`, `gemini-cli`; `claude` and `gemini`
    /// are not: they are other providers' names or too close to them).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for agent in CliAgent::ALL {
            assert_eq!(CliAgent::parse(agent.name()), Some(agent));
        }
        assert_eq!(CliAgent::parse("claude"), None);
    }
}
