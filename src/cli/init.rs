//! `iris config init`: choose a model server on this machine or a hosted provider, and write
//! that choice into the user file after showing it and asking.
//!
//! Questions and lists go to stderr, answers come from stdin (an API key masked on a
//! terminal); only what was written goes to stdout. Nothing is written without a yes.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::prompt::{Prompter, Stopped};
use crate::probe::probe_local_servers;
use iris_studio_config::setup::{Choice, LocalServer, api_key_in_env, hosted, write_choice};
use iris_studio_config::{Config, MASKED, Overrides, ProviderKind, Source, display_path};

pub fn run(runtime: &tokio::runtime::Runtime) -> Result<ExitCode> {
    let path = super::config_file::user_file()?;
    let mut prompter = Prompter::stdio();
    match init(&path, runtime, &mut prompter) {
        Ok(code) => Ok(code),
        Err(err) if matches!(err.downcast_ref(), Some(Stopped::Interrupted)) => {
            eprintln!("{err}");
            Ok(ExitCode::from(130))
        }
        Err(err) => Err(err),
    }
}

fn init(
    path: &Path,
    runtime: &tokio::runtime::Runtime,
    prompter: &mut Prompter,
) -> Result<ExitCode> {
    let shown_path = display_path(path);
    // What the user file sets now: a file that does not load stops here, untouched.
    let current = user_file_settings(path)?;
    if let Some(provider) = current.get("provider") {
        eprintln!("{shown_path} already sets provider = {provider}; a new choice replaces it.");
    }

    eprintln!("Looking for model servers on this machine...");
    let servers = runtime.block_on(probe_local_servers());
    let clis = crate::probe::cli_agents_on_path();
    let (listing, entries) = menu(&servers, &clis);
    eprint!("{listing}");

    let question = format!("Choose 1-{} (or a provider's name): ", entries.len());
    let entry = loop {
        let answer = prompter.ask(&question)?;
        match pick(&answer, &entries) {
            Some(entry) => break entry,
            None => eprintln!("`{answer}` is not one of the choices."),
        }
    };
    let choice = match *entry {
        Entry::Local { server, model } => server.choice(model),
        Entry::Cli(kind) => iris_studio_config::setup::cli_choice(kind),
        Entry::Hosted(kind) => hosted_choice(kind, prompter)?,
    };

    eprintln!("\nThis goes into {shown_path}:");
    for line in choice.lines() {
        eprintln!("  {}", with_change(&line, &current));
    }
    if !prompter.confirm("Write it? [y/N] ", false)? {
        eprintln!("Nothing was written.");
        return Ok(ExitCode::SUCCESS);
    }
    let written = write_choice(path, &choice)?;
    let mut out = format!("Wrote {shown_path}:\n");
    for assignment in &written {
        out.push_str(&format!("  {} = {}\n", assignment.key, assignment.value));
    }
    out.push_str("Next: run `iris studio` in a git repository.\n");
    super::print_exact(&out)?;
    super::config_file::note_overridden(&written, &Source::UserFile(path.to_path_buf()));
    Ok(ExitCode::SUCCESS)
}

/// The values the user file sets now (as `iris config` shows them, keys masked), by key; a
/// file that does not load is an error.
fn user_file_settings(path: &Path) -> Result<BTreeMap<String, String>> {
    let config = Config::load_from(Some(path), None, &|_| None, &Overrides::default())?;
    let ours = Source::UserFile(path.to_path_buf());
    Ok(config
        .sources()
        .into_iter()
        .filter(|setting| setting.source == ours)
        .filter_map(|setting| Some((setting.key, setting.value?)))
        .collect())
}

/// A line to be written, with what the file has there now when that differs.
fn with_change(line: &str, current: &BTreeMap<String, String>) -> String {
    let Some((key, value)) = line.split_once(" = ") else {
        return line.to_string();
    };
    match current.get(key) {
        // Two keys both show as "****": say only that one is replaced.
        Some(_) if value == MASKED => format!("{line}   (replaces the key there)"),
        Some(old) if old == value => format!("{line}   (unchanged)"),
        Some(old) => format!("{line}   (now {old})"),
        None => line.to_string(),
    }
}

/// One thing the user can choose.
#[derive(Debug, PartialEq, Eq)]
enum Entry<'a> {
    Local {
        server: &'a LocalServer,
        model: &'a str,
    },
    Cli(ProviderKind),
    Hosted(ProviderKind),
}

/// The numbered list (local servers' models first, then the command-line agents on PATH,
/// then the hosted providers) and what each number stands for.
fn menu<'a>(servers: &'a [LocalServer], clis: &[ProviderKind]) -> (String, Vec<Entry<'a>>) {
    let mut text = String::from("\nModel servers on this machine:\n");
    let mut entries = Vec::new();
    if servers.is_empty() {
        text.push_str(
            "  none found (Ollama, LM Studio and llama.cpp's server are looked for at their \
             usual ports)\n",
        );
    }
    for server in servers {
        text.push_str(&format!("  {} at {}", server.label, server.base_url));
        if server.models.is_empty() {
            let hint = match server.provider {
                ProviderKind::Ollama => "no models yet: `ollama pull llama3.2` fetches one",
                _ => "no models loaded",
            };
            text.push_str(&format!(": {hint}\n"));
            continue;
        }
        text.push('\n');
        for model in &server.models {
            entries.push(Entry::Local { server, model });
            text.push_str(&format!("  {:>3}  {model}\n", entries.len()));
        }
    }
    if !clis.is_empty() {
        text.push_str("Command-line agents on this machine (your subscription, no key):\n");
    }
    for kind in clis {
        entries.push(Entry::Cli(*kind));
        let (program, plan) = kind.cli().map_or(("", ""), |a| (a.program(), a.plan()));
        text.push_str(&format!(
            "  {:>3}  {:<10} runs `{program}`, {plan} pays\n",
            entries.len(),
            kind.name(),
        ));
    }
    text.push_str("Hosted providers (an API key is needed):\n");
    for kind in hosted() {
        entries.push(Entry::Hosted(kind));
        let model = match kind.default_model() {
            "" => "(your deployment's name)",
            model => model,
        };
        text.push_str(&format!(
            "  {:>3}  {:<10} {model}\n",
            entries.len(),
            kind.name(),
        ));
    }
    (text, entries)
}

/// The entry an answer names: its number, or a hosted provider's name.
fn pick<'e, 'a>(answer: &str, entries: &'e [Entry<'a>]) -> Option<&'e Entry<'a>> {
    if let Ok(n) = answer.trim().parse::<usize>() {
        return entries.get(n.checked_sub(1)?);
    }
    let kind = ProviderKind::parse(answer)?;
    entries
        .iter()
        .find(|e| **e == Entry::Hosted(kind) || **e == Entry::Cli(kind))
}

/// A hosted provider: its model (the default unless another is typed) and its key, or the key
/// already in the environment.
fn hosted_choice(kind: ProviderKind, prompter: &mut Prompter) -> Result<Choice> {
    // Azure: the resource's address, and the deployment's name as the model.
    let base_url = if kind.needs_base_url() {
        loop {
            let url = prompter.ask("Endpoint (https://NAME.openai.azure.com): ")?;
            let url = url.trim().to_string();
            // The key goes in a header: never over plain http.
            match url.strip_prefix("https://") {
                Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => {
                    break Some(url);
                }
                _ => eprintln!("`{url}` is not an https:// address."),
            }
        }
    } else {
        None
    };
    let default = kind.default_model();
    let model = loop {
        let model = match default {
            "" => prompter.ask("Model (your deployment's name): ")?,
            default => prompter.ask(&format!("Model [{default}]: "))?,
        };
        match (model.is_empty(), default.is_empty()) {
            (false, _) => break model,
            (true, false) => break default.to_string(),
            (true, true) => eprintln!("A model is needed: the name of your deployment."),
        }
    };
    let from_env = match api_key_in_env(kind) {
        Some(var) => prompter.confirm(
            &format!(
                "{var} is set: use the key from the environment instead of storing one? [Y/n] "
            ),
            true,
        )?,
        None => false,
    };
    let api_key = if from_env {
        None
    } else {
        let question = format!("API key for {kind} (not shown as you type): ");
        loop {
            let key = prompter.secret(&question)?;
            if !key.is_empty() && !key.contains(char::is_control) {
                break Some(key);
            }
            eprintln!("An API key cannot be empty.");
        }
    };
    Ok(Choice {
        provider: kind,
        model,
        base_url,
        api_key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(label: &'static str, models: &[&str]) -> LocalServer {
        LocalServer {
            label,
            provider: ProviderKind::Ollama,
            base_url: "http://127.0.0.1:11434".into(),
            models: models.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn local_models_are_numbered_before_the_hosted_providers() {
        let servers = [
            server("Ollama", &["qwen3:0.6b", "llama3.2:latest"]),
            LocalServer {
                label: "LM Studio",
                provider: ProviderKind::OpenAiCompatible,
                base_url: "http://127.0.0.1:1234/v1".into(),
                models: vec![],
            },
        ];
        let (text, entries) = menu(&servers, &[]);
        assert!(
            text.starts_with(
                "\nModel servers on this machine:\n\
             \x20 Ollama at http://127.0.0.1:11434\n\
             \x20   1  qwen3:0.6b\n\
             \x20   2  llama3.2:latest\n\
             \x20 LM Studio at http://127.0.0.1:1234/v1: no models loaded\n\
             Hosted providers (an API key is needed):\n\
             \x20   3  openai     gpt-5\n\
             \x20   4  anthropic  claude-sonnet-4-5\n\
             \x20   5  gemini     gemini-2.5-pro\n"
            ),
            "{text}"
        );
        // The named services follow, each by its name; Azure asks for its deployment.
        assert!(text.contains("  6  openrouter "), "{text}");
        assert!(
            text.contains("  groq       openai/gpt-oss-120b\n"),
            "{text}"
        );
        assert!(
            text.contains("azure      (your deployment's name)"),
            "{text}"
        );
        assert!(
            !text.contains("lmstudio") && !text.contains("vllm"),
            "{text}"
        );
        assert_eq!(
            pick("groq", &entries),
            Some(&Entry::Hosted(ProviderKind::parse("groq").unwrap()))
        );
        assert_eq!(
            pick("2", &entries),
            Some(&Entry::Local {
                server: &servers[0],
                model: "llama3.2:latest"
            })
        );
        assert_eq!(
            pick("4", &entries),
            Some(&Entry::Hosted(ProviderKind::Anthropic))
        );
        assert_eq!(
            pick("Google", &entries),
            Some(&Entry::Hosted(ProviderKind::Gemini))
        );
        for wrong in ["0", "99", "", "ollama", "two", "-1"] {
            assert_eq!(pick(wrong, &entries), None, "{wrong}");
        }
    }

    #[test]
    fn the_command_line_agents_on_path_come_before_the_hosted_providers() {
        let claude = ProviderKind::parse("claude-code").unwrap();
        let (text, entries) = menu(&[], &[claude]);
        assert!(
            text.contains(
                "Command-line agents on this machine (your subscription, no key):\n\
                 \x20   1  claude-code runs `claude`, your Claude plan pays\n\
                 Hosted providers"
            ),
            "{text}"
        );
        assert_eq!(pick("1", &entries), Some(&Entry::Cli(claude)));
        assert_eq!(pick("claude-code", &entries), Some(&Entry::Cli(claude)));
    }

    #[test]
    fn with_nothing_running_the_list_says_so() {
        let (text, entries) = menu(&[], &[]);
        assert!(text.contains("  none found (Ollama, LM Studio"), "{text}");
        assert_eq!(
            pick("1", &entries),
            Some(&Entry::Hosted(ProviderKind::OpenAi))
        );
    }

    #[test]
    fn a_line_says_what_it_changes() {
        let current = BTreeMap::from([
            ("provider".to_string(), "\"openai\"".to_string()),
            (
                "providers.ollama.model".to_string(),
                "\"qwen3\"".to_string(),
            ),
            (
                "providers.openai.api_key".to_string(),
                "\"****\"".to_string(),
            ),
        ]);
        assert_eq!(
            with_change("provider = \"ollama\"", &current),
            "provider = \"ollama\"   (now \"openai\")"
        );
        assert_eq!(
            with_change("providers.ollama.model = \"qwen3\"", &current),
            "providers.ollama.model = \"qwen3\"   (unchanged)"
        );
        assert_eq!(
            with_change("providers.openai.api_key = \"****\"", &current),
            "providers.openai.api_key = \"****\"   (replaces the key there)"
        );
        assert_eq!(
            with_change("providers.ollama.base_url = \"x\"", &current),
            "providers.ollama.base_url = \"x\""
        );
    }
}
