//! The reference pages in `docs/reference/` are made from the code: the command line from
//! clap (every command's `--help`), the studio's keys from the default keymap, the exit codes
//! from the constants the binary exits with, the configuration keys from iris-config's list,
//! the tools from `iris tool --list`. The test fails when a page is stale; make them
//! again with `IRIS_DOCS=write cargo test --test e2e docs_reference`.

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

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference")
}

#[test]
fn docs_reference_pages_are_made_from_the_code() {
    let write = std::env::var_os("IRIS_DOCS").is_some_and(|v| v == "write");
    let pages = [
        ("cli.md", cli_page()),
        ("keys.md", keys_page()),
        ("exit-codes.md", exit_codes_page()),
        ("config.md", config_page()),
        ("tools.md", tools_page()),
    ];
    let dir = reference_dir();
    let mut stale = Vec::new();
    for (name, made) in pages {
        let path = dir.join(name);
        if write {
            std::fs::create_dir_all(&dir).expect("docs/reference");
            std::fs::write(&path, &made).expect("write the page");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(made.as_str()) {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "stale reference pages in docs/reference: {stale:?}; make them again with \
         `IRIS_DOCS=write cargo test --test e2e docs_reference`"
    );
}
