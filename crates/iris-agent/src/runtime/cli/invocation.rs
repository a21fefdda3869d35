//! The command line each agent is run with: its own tools off, no session kept, the
//! instructions where it takes them, the prompt on standard input (a prompt after an option
//! that takes several values would be read as one of them).

use std::path::Path;

use iris_studio_config::CliAgent;

use super::asked::Asked;

/// A command to run in a directory of its own.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Invocation {
    /// The command, looked up on PATH.
    pub program: &'static str,
    /// Its arguments.
    pub args: Vec<String>,
    /// Environment variables to set.
    pub env: Vec<(String, String)>,
    /// Files to write in the directory first: their name and text.
    pub files: Vec<(&'static str, String)>,
    /// What goes to its standard input.
    pub stdin: String,
    /// The environment variables holding a key the CLI signs in with itself, left to it.
    pub own_keys: Vec<&'static str>,
}

/// Instructions longer than this go to standard input ahead of the request rather than in an
/// argument (Linux refuses an argument over 128 KiB).
const LONGEST_ARGUMENT: usize = 96 << 10;

/// Gemini CLI's settings for a run: no tools (core or the codebase investigator).
const GEMINI_SETTINGS: &str =
    r#"{"tools":{"core":[]},"experimental":{"codebaseInvestigatorSettings":{"enabled":false}}}"#;

impl Invocation {
    /// How `agent` is run for `asked`, in `dir` (where its files are written).
    pub fn of(agent: CliAgent, asked: &Asked, dir: &Path) -> Self {
        let in_dir = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let instructions = asked.instructions();
        let (instructions, stdin) = if instructions.len() > LONGEST_ARGUMENT {
            (
                "Follow the instructions at the start of the request.".to_string(),
                format!(
                    "# Instructions\n\n{instructions}\n\n# Request\n\n{}",
                    asked.prompt
                ),
            )
        } else {
            (instructions, asked.prompt.clone())
        };
        let mut own_keys = Vec::new();
        let mut args: Vec<String> = Vec::new();
        let mut env = Vec::new();
        let mut files = Vec::new();
        let arg = |args: &mut Vec<String>, items: &[&str]| {
            args.extend(items.iter().map(|s| s.to_string()))
        };
        match agent {
            CliAgent::ClaudeCode => {
                let format = if asked.stream { "stream-json" } else { "json" };
                arg(&mut args, &["-p", "--output-format", format]);
                if asked.stream {
                    arg(&mut args, &["--verbose", "--include-partial-messages"]);
                }
                arg(
                    &mut args,
                    &[
                        "--tools=",
                        "--max-turns",
                        "1",
                        "--no-session-persistence",
                        "--strict-mcp-config",
                        "--system-prompt",
                        &instructions,
                    ],
                );
                if let Some(model) = asked.model_flag() {
                    arg(&mut args, &["--model", model]);
                }
            }
            CliAgent::Codex => {
                arg(
                    &mut args,
                    &[
                        "exec",
                        "--json",
                        "--skip-git-repo-check",
                        "--sandbox",
                        "read-only",
                        "--disable",
                        "shell_tool",
                        "--disable",
                        "view_image_tool",
                        "-c",
                        "include_apply_patch_tool=false",
                        "-c",
                        &format!("developer_instructions={}", toml_string(&instructions)),
                    ],
                );
                if let Some(model) = asked.model_flag() {
                    arg(&mut args, &["-m", model]);
                }
                if let Some(effort) = &asked.effort {
                    arg(
                        &mut args,
                        &[
                            "-c",
                            &format!("model_reasoning_effort={}", toml_string(effort)),
                        ],
                    );
                }
                if let Some(schema) = &asked.schema {
                    files.push(("schema.json", schema.to_string()));
                    arg(&mut args, &["--output-schema", &in_dir("schema.json")]);
                }
                arg(&mut args, &["-"]);
            }
            CliAgent::GeminiCli => {
                let format = if asked.stream { "stream-json" } else { "json" };
                arg(&mut args, &["--output-format", format]);
                if let Some(model) = asked.model_flag() {
                    arg(&mut args, &["-m", model]);
                }
                files.push(("settings.json", GEMINI_SETTINGS.to_string()));
                // A file, however long.
                files.push(("system.md", asked.instructions()));
                own_keys = vec!["GEMINI_API_KEY", "GOOGLE_API_KEY"];
                env.push((
                    "GEMINI_CLI_SYSTEM_SETTINGS_PATH".into(),
                    in_dir("settings.json"),
                ));
                env.push(("GEMINI_SYSTEM_MD".into(), in_dir("system.md")));
            }
        }
        Self {
            program: agent.program(),
            args,
            env,
            files,
            stdin: if agent == CliAgent::GeminiCli {
                asked.prompt.clone()
            } else {
                stdin
            },
            own_keys,
        }
    }
}

/// `text` as a TOML string (Codex reads `-c` values as TOML).
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn asked(stream: bool) -> Asked {
        Asked {
            system: "You are Iris.".into(),
            prompt: "Write it.".into(),
            schema: Some(json!({"type": "object"})),
            stream,
            model: "default".into(),
            max_tokens: Some(500),
            effort: Some("low".into()),
        }
    }

    #[test]
    fn claude_code_has_no_tools_and_its_budget_in_the_instructions() {
        let run = Invocation::of(CliAgent::ClaudeCode, &asked(true), Path::new("/w"));
        assert_eq!(run.program, "claude");
        assert_eq!(&run.args[..3], ["-p", "--output-format", "stream-json"]);
        assert!(run.args.contains(&"--verbose".to_string()));
        assert!(run.args.contains(&"--tools=".to_string()));
        assert!(
            !run.args.contains(&"--model".to_string()),
            "default: the CLI's own"
        );
        let system = &run.args[run
            .args
            .iter()
            .position(|a| a == "--system-prompt")
            .unwrap()
            + 1];
        assert!(system.starts_with("You are Iris.") && system.contains("about 500 tokens"));
        assert_eq!(run.stdin, "Write it.");
        let plain = Invocation::of(CliAgent::ClaudeCode, &asked(false), Path::new("/w"));
        assert_eq!(&plain.args[..3], ["-p", "--output-format", "json"]);
        assert!(!plain.args.contains(&"--verbose".to_string()));
    }

    #[test]
    fn codex_reads_the_schema_from_a_file_and_the_instructions_as_toml() {
        let mut asked = asked(false);
        asked.model = "gpt-5-codex".into();
        asked.system = "Say \"hi\"\nthen stop".into();
        let run = Invocation::of(CliAgent::Codex, &asked, Path::new("/w"));
        assert_eq!(run.args[0], "exec");
        assert!(
            run.args
                .windows(2)
                .any(|w| w == ["--output-schema", "/w/schema.json"])
        );
        assert!(run.args.windows(2).any(|w| w == ["-m", "gpt-5-codex"]));
        assert_eq!(
            run.files,
            vec![("schema.json", r#"{"type":"object"}"#.to_string())]
        );
        let developer = run
            .args
            .iter()
            .find(|a| a.starts_with("developer_instructions="))
            .unwrap();
        let value: toml::Table = toml::from_str(developer).unwrap();
        let read = value["developer_instructions"].as_str().unwrap();
        assert!(read.starts_with("Say \"hi\"\nthen stop"), "{read}");
        assert!(
            !read.contains("JSON schema"),
            "the schema goes by --output-schema"
        );
        assert_eq!(run.args.last().map(String::as_str), Some("-"));
    }

    #[test]
    fn long_instructions_go_ahead_of_the_request_on_standard_input() {
        let mut asked = asked(false);
        asked.system = "x".repeat(LONGEST_ARGUMENT + 1);
        let run = Invocation::of(CliAgent::ClaudeCode, &asked, Path::new("/w"));
        assert!(run.args.iter().all(|a| a.len() < 1_000));
        assert!(run.stdin.starts_with("# Instructions\n\nxxx"));
        assert!(run.stdin.ends_with("# Request\n\nWrite it."));
        // Up to the limit, they stay an argument.
        let extra = asked.instructions().len() - asked.system.len();
        asked.system = "x".repeat(LONGEST_ARGUMENT - extra);
        assert_eq!(asked.instructions().len(), LONGEST_ARGUMENT);
        let run = Invocation::of(CliAgent::ClaudeCode, &asked, Path::new("/w"));
        assert_eq!(run.stdin, "Write it.");
    }

    #[test]
    fn gemini_cli_gets_its_settings_and_instructions_as_files() {
        let run = Invocation::of(CliAgent::GeminiCli, &asked(true), Path::new("/w"));
        assert_eq!(run.args, vec!["--output-format", "stream-json"]);
        assert!(
            run.env
                .contains(&("GEMINI_SYSTEM_MD".into(), "/w/system.md".into()))
        );
        assert!(
            run.files
                .iter()
                .any(|(name, text)| *name == "settings.json" && text.contains(r#""core":[]"#))
        );
        assert!(
            run.files
                .iter()
                .any(|(name, text)| *name == "system.md" && text.contains("You are Iris."))
        );
    }
}
