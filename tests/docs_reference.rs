//! The reference pages in `docs/reference/` are made from the code: the command line from
//! clap (every command's `--help`), the studio's keys from the default keymap, the exit codes
//! from the constants the binary exits with, the configuration keys from iris-config's list,
//! the tools from `iris tool --list`, the providers from iris-config's providers and the table
//! of named services, and the man pages (`docs/man`) from the same command tree as the command
//! line page. The test fails when a page is stale; make them again with
//! `IRIS_DOCS=write cargo test --test e2e docs_reference`.

use std::path::{Path, PathBuf};

use crate::common::Iris;
use clap::CommandFactory;
use iris_studio::cli::Cli;
use iris_studio::output::exit;
use iris_studio_tui::command::Command;
use iris_studio_tui::keymap::{KeyContext, Keymap};

const HEADER: &str =
    "<!-- Made by `IRIS_DOCS=write cargo test --test e2e docs_reference`: do not edit. -->\n\n";

/// Every command's help, as `iris COMMAND --help` prints it.
fn cli_page() -> String {
    let mut root = Cli::command().term_width(100);
    root.build();
    let mut page = format!(
        "{HEADER}# The command line\n\nEvery command, as `--help` prints it.\n\n```text\n{}\n```\n",
        root.render_long_help().to_string().trim_end()
    );
    let names: Vec<String> = root
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let Some(sub) = root.find_subcommand_mut(&name) else {
            continue;
        };
        let help = sub.render_long_help().to_string();
        page.push_str(&format!(
            "\n## iris {name}\n\n```text\n{}\n```\n",
            help.trim_end()
        ));
    }
    page
}

/// The studio's default keys, a table a context.
fn keys_page() -> String {
    let keymap = Keymap::default();
    let mut page = format!(
        "{HEADER}# The studio's keys\n\nThe default keys; `~/.config/iris/keymap.toml` rebinds \
         them by the command's name (see `assets/keymap.example.toml`).\n"
    );
    for context in KeyContext::ALL {
        page.push_str(&format!(
            "\n## {}\n\n| keys | command | what it does |\n| --- | --- | --- |\n",
            match context {
                KeyContext::Global => "Everywhere",
                KeyContext::Editing => "While typing",
            }
        ));
        for (keys, command) in keymap.help(context) {
            page.push_str(&format!(
                "| `{}` | `{}` | {} |\n",
                keys.replace('|', "\\|"),
                iris_studio_tui::keymap::command_name(command),
                command.describe()
            ));
        }
    }
    let unbound: Vec<String> = Command::ALL
        .iter()
        .filter(|&&c| {
            KeyContext::ALL
                .iter()
                .all(|&k| keymap.chords(k, c).is_empty())
        })
        .map(|&c| format!("`{}`", iris_studio_tui::keymap::command_name(c)))
        .collect();
    if !unbound.is_empty() {
        page.push_str(&format!(
            "\nWithout a default key (bind them in the keymap file): {}.\n",
            unbound.join(", ")
        ));
    }
    page
}

/// Every configuration key with its default and meaning, from iris-config's own list.
fn config_page() -> String {
    let settings = iris_studio_config::Config::default().sources();
    let mut page = format!(
        "{HEADER}# Configuration keys\n\nSet in `~/.config/iris/config.toml` (the user file), in \
         the project's `.irisconfig`, or with `iris config set KEY VALUE`; `iris config` shows each \
         value and where it comes from.\n\n| key | default | meaning |\n| --- | --- | --- |\n"
    );
    for setting in settings.iter().filter(|s| !s.key.contains('.')) {
        let default = match (&setting.value, &setting.hint) {
            (Some(value), _) => format!("`{value}`"),
            (None, Some(hint)) => format!("unset ({hint})"),
            (None, None) => "unset".to_string(),
        };
        page.push_str(&format!(
            "| `{}` | {} | {} |\n",
            setting.key,
            default.replace('|', "\\|"),
            setting.meaning.replace('|', "\\|")
        ));
    }
    page.push_str(
        "\nEach provider has a table of its own, `[providers.NAME]` (`providers.anthropic.model` \
         with `iris config set`):\n\n| key | meaning |\n| --- | --- |\n",
    );
    for setting in settings
        .iter()
        .filter(|s| s.key.starts_with("providers.openai."))
    {
        let field = setting.key.trim_start_matches("providers.openai.");
        page.push_str(&format!("| `{field}` | {} |\n", setting.meaning));
    }
    page
}

/// Iris' tools, as `iris tool --list` shows them (what the model is offered).
fn tools_page() -> String {
    let repo = crate::common::TestRepo::new();
    let out = repo.iris_env(&["tool", "--list"], &[], "");
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    format!(
        "{HEADER}# Iris' tools\n\nEvery tool Iris may call, whether it only reads, and its \
         arguments, as `iris tool --list` prints them; `iris tool NAME '{{...}}'` runs one and \
         prints exactly what the model would receive.\n\n```text\n{}\n```\n",
        crate::common::stdout(&out).trim_end()
    )
}

/// The exit codes the command line promises.
fn exit_codes_page() -> String {
    format!(
        "{HEADER}# Exit codes\n\n| code | meaning |\n| --- | --- |\n| 0 | done |\n\
         | {} | a failure of no other kind, or a check that did not pass (commit rules, \
         `review --fail-on`, `eval --baseline`, a problem `iris doctor` found) |\n\
         | {} | usage or configuration: a bad flag or file, a revision that names no commit, no \
         provider |\n| {} | git: not inside a repository, a git operation that failed |\n\
         | {} | the provider failed or the run ran out of time |\n",
        exit::GENERAL,
        exit::CONFIG,
        exit::GIT,
        exit::PROVIDER
    )
}

/// Every provider: the built-in ones, the named services (a row each of
/// `assets/services.toml`) and the command-line agents.
fn providers_page() -> String {
    use iris_studio_config::{ProviderKind, Wire};
    let code = |text: &str| {
        if text.is_empty() {
            "-".to_string()
        } else {
            format!("`{text}`")
        }
    };
    let yes = |b: bool| if b { "yes" } else { "no" };
    let wire = |kind: ProviderKind| match kind.wire() {
        Wire::Responses => "OpenAI Responses",
        Wire::ChatCompletions => "Chat Completions",
        Wire::Azure => "Azure OpenAI Chat Completions",
        Wire::Anthropic => "Anthropic Messages",
        Wire::Gemini => "Gemini API",
        Wire::Ollama => "Ollama chat",
        Wire::Cli => "a command on this machine",
    };
    let mut page = format!(
        "{HEADER}# Providers and named services\n\nSet one with `iris config set provider NAME` \
         (or `IRIS_PROVIDER`, or `--provider`); `iris config init` asks. A model is \
         `iris config set model NAME` (`IRIS_MODEL`, `--model`); the fast model runs Iris' \
         helpers. See [Configuration and providers](../configuration.md).\n\n## Built in\n\n\
         | provider | speaks | key (environment) | address (environment) | model | fast model |\n\
         | --- | --- | --- | --- | --- | --- |\n"
    );
    let built_in = ProviderKind::all().filter(|k| k.service().is_none() && k.cli().is_none());
    for kind in built_in {
        let keys: Vec<String> = kind.api_key_vars().iter().map(|v| code(v)).collect();
        let keys = match (keys.is_empty(), kind.requires_api_key()) {
            (true, _) => "none".to_string(),
            (false, true) => keys.join(" or "),
            (false, false) => format!("{} (if the server asks)", keys.join(" or ")),
        };
        let address = match (kind.base_url_var(), kind.default_base_url()) {
            (Some(var), Some(url)) => format!("`{var}`, else `{url}`"),
            (Some(var), None) if kind.needs_base_url() => format!("`{var}` (required)"),
            (Some(var), None) => format!("`{var}`, else the vendor's"),
            (None, _) => "-".to_string(),
        };
        let model = |m: &str| {
            if m.is_empty() {
                "the server's (required)".to_string()
            } else {
                code(m)
            }
        };
        page.push_str(&format!(
            "| `{}` | {} | {keys} | {address} | {} | {} |\n",
            kind.name(),
            wire(kind),
            model(kind.default_model()),
            model(kind.default_fast_model()),
        ));
    }
    page.push_str(&format!(
        "\n## Named services\n\nServers that speak OpenAI's Chat Completions under a name of \
         their own, each a row of `assets/services.toml` (facts checked {}). \"json\" says which \
         structured output the service takes; a local service usually runs on your machine.\n\n\
         | provider | service | address | key | model | fast model | tools | json | local |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
        iris_studio_config::service::checked()
    ));
    let mut notes = String::new();
    for kind in ProviderKind::all() {
        let Some(service) = kind.service() else {
            continue;
        };
        let address = match (service.base_url.as_str(), service.base_url_var.as_str()) {
            ("", "") => "yours (required)".to_string(),
            ("", var) => format!("`{var}` (required)"),
            (url, "") => code(url),
            (url, var) => format!("`{var}`, else `{url}`"),
        };
        let key = match (service.key_var.as_str(), service.key_required) {
            ("", _) => "none".to_string(),
            (var, true) => code(var),
            (var, false) => format!("`{var}` (optional)"),
        };
        let json = match (service.json_schema, service.json_object) {
            (true, _) => "schema",
            (false, true) => "object",
            (false, false) => "no",
        };
        page.push_str(&format!(
            "| `{}` | {} | {address} | {key} | {} | {} | {} | {json} | {} |\n",
            service.name,
            service.title,
            code(&service.model),
            code(kind.default_fast_model()),
            yes(service.tools),
            yes(service.local),
        ));
        if !service.note.is_empty() {
            notes.push_str(&format!("- **{}**: {}\n", service.title, service.note));
        }
    }
    if !notes.is_empty() {
        page.push_str(&format!("\n{notes}"));
    }
    page.push_str(
        "\n## Command-line agents\n\nThe agent your subscription comes with, run as the model \
         (see [Configuration and providers](../configuration.md)).\n\n\
         | provider | command | install | sign in | paid by |\n| --- | --- | --- | --- | --- |\n",
    );
    for agent in iris_studio_config::CliAgent::ALL {
        page.push_str(&format!(
            "| `{}` | `{}` | `{}` | {} | {} |\n",
            agent.name(),
            agent.program(),
            agent.install(),
            agent.login(),
            agent.plan()
        ));
    }
    page
}

/// The man pages: `iris.1`, then `iris-COMMAND.1` for each command, from the command tree
/// the command line page is made from.
fn man_pages() -> Vec<(String, String)> {
    let mut root = Cli::command();
    root.build();
    let render = |command: clap::Command| {
        let mut out = Vec::new();
        clap_mangen::Man::new(command)
            .render(&mut out)
            .expect("a man page renders");
        String::from_utf8(out).expect("roff is UTF-8")
    };
    let mut pages = vec![("man/iris.1".to_string(), render(root.clone()))];
    let commands = root
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help");
    for sub in commands {
        let name = sub.get_name().to_string();
        // Built, the command's display name is `iris-gen`: the page's title, `iris-gen(1)`.
        let sub = sub.clone().version(env!("CARGO_PKG_VERSION"));
        pages.push((format!("man/iris-{name}.1"), render(sub)));
    }
    pages
}

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
}

#[test]
fn docs_reference_pages_are_made_from_the_code() {
    let write = std::env::var_os("IRIS_DOCS").is_some_and(|v| v == "write");
    let mut pages = vec![
        ("reference/cli.md".to_string(), cli_page()),
        ("reference/keys.md".to_string(), keys_page()),
        ("reference/exit-codes.md".to_string(), exit_codes_page()),
        ("reference/config.md".to_string(), config_page()),
        ("reference/tools.md".to_string(), tools_page()),
        ("reference/providers.md".to_string(), providers_page()),
    ];
    pages.extend(man_pages());
    let dir = docs_dir();
    let mut stale = Vec::new();
    for (name, made) in &pages {
        let path = dir.join(name);
        if write {
            std::fs::create_dir_all(path.parent().expect("a page is in a folder"))
                .expect("docs/reference, docs/man");
            std::fs::write(&path, made).expect("write the page");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(made.as_str()) {
            stale.push(name.clone());
        }
    }
    // A page made earlier for a command that is gone is stale too.
    let made: Vec<&str> = pages.iter().map(|(name, _)| name.as_str()).collect();
    for folder in ["reference", "man"] {
        for entry in std::fs::read_dir(dir.join(folder))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = format!("{folder}/{}", entry.file_name().to_string_lossy());
            if !made.contains(&name.as_str()) {
                if write {
                    std::fs::remove_file(entry.path()).expect("remove a page no command makes");
                } else {
                    stale.push(name);
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale pages in docs/: {stale:?}; make them again with \
         `IRIS_DOCS=write cargo test --test e2e docs_reference`"
    );
}

/// Every key `iris config` lists has a row in the configuration page, and every provider it
/// lists a row in the providers page: the book documents what the binary offers.
#[test]
fn every_key_iris_config_lists_is_documented() {
    let repo = crate::common::TestRepo::new();
    let out = repo.iris_env(&["config"], &[], "");
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let listed = crate::common::stdout(&out);
    let config = std::fs::read_to_string(docs_dir().join("reference/config.md")).expect("config");
    let providers =
        std::fs::read_to_string(docs_dir().join("reference/providers.md")).expect("providers");
    let mut undocumented = Vec::new();
    let mut keys = 0;
    for line in listed.lines() {
        // `key = value  # source`, or `# key is not set ...`.
        let key = match line.strip_prefix("# ") {
            Some(rest) => match rest.split_once(" is not set") {
                Some((key, _)) => key,
                None => continue,
            },
            None => match line.split_once(" = ") {
                Some((key, _)) => key,
                None => continue,
            },
        };
        keys += 1;
        let row = |page: &str, name: &str| page.contains(&format!("| `{name}` |"));
        let documented = match key.strip_prefix("providers.") {
            Some(rest) => {
                let (provider, field) = rest.rsplit_once('.').expect("providers.NAME.FIELD");
                row(&config, field) && row(&providers, provider)
            }
            None => row(&config, key),
        };
        if !documented {
            undocumented.push(key.to_string());
        }
    }
    assert!(keys > 30, "iris config lists its keys: {listed}");
    assert!(
        undocumented.is_empty(),
        "keys `iris config` lists that the book does not document: {undocumented:?}"
    );
}
