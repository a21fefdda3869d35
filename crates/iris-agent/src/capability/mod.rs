//! Capabilities: what Iris can be asked to do, each a TOML file with its task prompt and the
//! artifact it produces. The files in `capabilities/` are built in; a user's
//! `<config dir>/capabilities/<name>.toml` overrides the fields it names, or adds a capability.
//!
//! Each capability's module is its entry point on [`IrisAgent`](crate::IrisAgent), with its
//! request, evidence and output: [`write`] (an artifact, from [`requests`] and [`evidence`],
//! through [`generate`]'s draft and critic), [`candidates`] (several versions to choose from),
//! [`chat`] (editing the artifact in place), [`blame`] (why lines are as they are) and
//! [`intent`] (what a file is for). What all of them run through, one conversation within its
//! budget and one deadline per run, is [`conversation`]'s.

pub mod blame;
pub mod candidates;
pub mod chat;
pub mod conversation;
pub(crate) mod delegate;
pub(crate) mod evidence;
pub mod generate;
pub mod intent;
pub mod requests;
pub mod review;
pub mod split;
mod template_filling;
pub mod write;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

use iris_studio_core::artifact::OutputType;

/// The built-in capability files, by name.
const EMBEDDED: &[(&str, &str)] = &[
    ("commit", include_str!("../../capabilities/commit.toml")),
    ("pr", include_str!("../../capabilities/pr.toml")),
    ("review", include_str!("../../capabilities/review.toml")),
    (
        "changelog",
        include_str!("../../capabilities/changelog.toml"),
    ),
    (
        "release-notes",
        include_str!("../../capabilities/release-notes.toml"),
    ),
    ("chat", include_str!("../../capabilities/chat.toml")),
    (
        "semantic_blame",
        include_str!("../../capabilities/semantic_blame.toml"),
    ),
    ("verify", include_str!("../../capabilities/verify.toml")),
    (
        "review_verify",
        include_str!("../../capabilities/review_verify.toml"),
    ),
    (
        "file_intent",
        include_str!("../../capabilities/file_intent.toml"),
    ),
    ("split", include_str!("../../capabilities/split.toml")),
];

/// One capability: the task prompt Iris gets and the artifact type she answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capability {
    /// What it is loaded by (`commit`, `pr`, ...): its file's name without `.toml`.
    pub name: String,
    /// One line for listings.
    pub description: String,
    /// The artifact the answer must be (`output_type`), whose schema the model fills in.
    pub output_type: OutputType,
    /// What Iris is asked to do, added to her instructions (`task_prompt`).
    pub task_prompt: String,
    /// The most output tokens one reply needs (`max_output_tokens`; the configured budget
    /// applies when it is lower or this is unset).
    pub max_output_tokens: Option<u64>,
    /// The budget for a local model (Ollama, an OpenAI-compatible server), when lower: a
    /// brief answer needs no room for hidden reasoning there, and a model that rambles meets
    /// the budget long before the run's deadline (`local_output_tokens`).
    pub local_output_tokens: Option<u64>,
    /// The tools it offers the model, by name (`tools`); none named, or `"*"`: every tool.
    /// Each tool's definition goes with every request, so a capability offers only what it
    /// uses.
    pub tools: Vec<String>,
}

/// A capability file as written: every field optional so an override names only what it
/// changes; unknown fields are refused (a misspelt key would otherwise do nothing).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CapabilityFile {
    name: Option<String>,
    description: Option<String>,
    output_type: Option<OutputType>,
    task_prompt: Option<String>,
    max_output_tokens: Option<u64>,
    local_output_tokens: Option<u64>,
    tools: Option<Vec<String>>,
}

/// Where a capability's text came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file built into Iris from `capabilities/`, by name.
    BuiltIn(&'static str),
    /// A user's capability file, at this path.
    File(PathBuf),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::BuiltIn(name) => write!(f, "built-in capabilities/{name}.toml"),
            Source::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Why a capability could not be loaded, worded for the user to fix.
#[derive(Debug, Error)]
pub enum CapabilityError {
    /// No built-in capability and no user file has this name.
    #[error("unknown capability `{name}`; known: {}", known.join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The built-in capability names.
        known: Vec<&'static str>,
    },
    /// A user's capability file exists but could not be read.
    #[error("cannot read {path}: {source}", path = path.display())]
    Read {
        /// The user's capability file.
        path: PathBuf,
        /// Why it could not be read.
        #[source]
        source: std::io::Error,
    },
    /// A capability file that does not parse: not TOML, a field of the wrong type, or one that
    /// capabilities do not have.
    #[error("{origin}:{line}: {message}")]
    Parse {
        /// The file, built in or the user's.
        origin: Source,
        /// The line (1-based) where the parser stopped.
        line: usize,
        /// What the TOML parser said.
        message: String,
    },
    /// A capability file that parses but cannot be used: a field missing or empty, another
    /// name than the one it is loaded by, a tool that does not exist.
    #[error("{origin}: {message}")]
    Invalid {
        /// The file, built in or the user's.
        origin: Source,
        /// What is wrong, and how to fix it.
        message: String,
    },
}

impl Capability {
    /// Whether it offers every tool (it names none, or `"*"`).
    pub fn offers_every_tool(&self) -> bool {
        self.tools.is_empty() || self.tools.iter().any(|t| t == "*")
    }

    /// The built-in capability names.
    pub fn names() -> Vec<&'static str> {
        EMBEDDED.iter().map(|(name, _)| *name).collect()
    }

    /// The capability `name`: the built-in one with the fields of
    /// `<user_dir>/capabilities/<name>.toml` over it when that file exists, or that file
    /// alone for a capability that is not built in.
    pub fn load(name: &str, user_dir: Option<&Path>) -> Result<Capability, CapabilityError> {
        let unknown = || CapabilityError::Unknown {
            name: name.to_string(),
            known: Self::names(),
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
        if !valid_name {
            return Err(unknown());
        }
        let built_in = EMBEDDED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| parse(text, Source::BuiltIn(n)))
            .transpose()?;
        let user = match user_dir {
            Some(dir) => read_override(&dir.join("capabilities").join(format!("{name}.toml")))?,
            None => None,
        };
        match (built_in, user) {
            (None, None) => Err(unknown()),
            (Some((base, source)), None) => complete(name, base, source),
            (None, Some((file, source))) => complete(name, file, source),
            (Some((base, _)), Some((file, source))) => {
                let merged = CapabilityFile {
                    name: file.name.or(base.name),
                    description: file.description.or(base.description),
                    output_type: file.output_type.or(base.output_type),
                    task_prompt: file.task_prompt.or(base.task_prompt),
                    max_output_tokens: file.max_output_tokens.or(base.max_output_tokens),
                    local_output_tokens: file.local_output_tokens.or(base.local_output_tokens),
                    tools: file.tools.or(base.tools),
                };
                complete(name, merged, source)
            }
        }
    }
}

fn read_override(path: &Path) -> Result<Option<(CapabilityFile, Source)>, CapabilityError> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, Source::File(path.to_path_buf())).map(Some),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(CapabilityError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

fn parse(text: &str, source: Source) -> Result<(CapabilityFile, Source), CapabilityError> {
    match toml::from_str::<CapabilityFile>(text) {
        Ok(file) => Ok((file, source)),
        Err(err) => {
            let at = err.span().map_or(0, |span| span.start.min(text.len()));
            let line = text[..at].matches('\n').count() + 1;
            Err(CapabilityError::Parse {
                origin: source,
                line,
                message: err.message().trim().to_string(),
            })
        }
    }
}

/// The capability once every field is known, or what is missing.
fn complete(
    name: &str,
    file: CapabilityFile,
    source: Source,
) -> Result<Capability, CapabilityError> {
    let invalid = |message: String| CapabilityError::Invalid {
        origin: source.clone(),
        message,
    };
    if let Some(named) = &file.name
        && named != name
    {
        return Err(invalid(format!(
            "it names itself `{named}` but is loaded as `{name}`; make the two agree"
        )));
    }
    let description = file.description.unwrap_or_default().trim().to_string();
    let task_prompt = file.task_prompt.unwrap_or_default().trim().to_string();
    let missing: Vec<&str> = [
        ("description", description.is_empty()),
        ("output_type", file.output_type.is_none()),
        ("task_prompt", task_prompt.is_empty()),
    ]
    .into_iter()
    .filter_map(|(field, absent)| absent.then_some(field))
    .collect();
    for (key, value) in [
        ("max_output_tokens", file.max_output_tokens),
        ("local_output_tokens", file.local_output_tokens),
    ] {
        if value == Some(0) {
            return Err(invalid(format!(
                "{key} is 0; give a whole number of at least 1, or leave it out"
            )));
        }
    }
    let known = crate::tools::registry::MAIN_TOOL_NAMES;
    if let Some(unknown) = file
        .tools
        .iter()
        .flatten()
        .find(|t| *t != "*" && !known.contains(&t.as_str()))
    {
        return Err(invalid(format!(
            "`tools` names `{unknown}`, which is no tool; the tools are: {}, or \"*\" for all",
            known.join(", ")
        )));
    }
    match file.output_type {
        Some(output_type) if missing.is_empty() => Ok(Capability {
            name: name.to_string(),
            description,
            output_type,
            task_prompt,
            max_output_tokens: file.max_output_tokens,
            local_output_tokens: file.local_output_tokens,
            tools: file.tools.unwrap_or_default(),
        }),
        _ => Err(invalid(format!("missing or empty: {}", missing.join(", ")))),
    }
}

/// What the user is told of `who` (a candidate, a review pass) that gave no artifact while
/// others did: stopped by `max_cost_per_run`, or failed and why.
pub(crate) fn did_not_finish(who: &str, err: &anyhow::Error) -> String {
    let over = crate::error::Kind::Provider(crate::ErrorKind::OverBudget);
    if crate::error::kind_of(err) == over {
        format!("{who} was stopped by max_cost_per_run: {err:#}")
    } else {
        format!("{who} failed: {err:#}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user_dir_with(name: &str, text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let folder = dir.path().join("capabilities");
        std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("mkdir: {e}"));
        std::fs::write(folder.join(format!("{name}.toml")), text)
            .unwrap_or_else(|e| panic!("write: {e}"));
        dir
    }

    #[test]
    fn a_capability_names_only_tools_that_exist() {
        let dir = user_dir_with("commit", "tools = [\"git_diff\", \"git_dif\"]\n");
        let err = Capability::load("commit", Some(dir.path())).expect_err("a typo");
        assert!(
            err.to_string()
                .contains("`tools` names `git_dif`, which is no tool"),
            "{err}"
        );
        let dir = user_dir_with("commit", "tools = [\"*\"]\n");
        let every = Capability::load("commit", Some(dir.path())).expect("every tool");
        assert!(every.offers_every_tool());
        let built_in = Capability::load("commit", None).expect("commit");
        assert_eq!(built_in.tools, ["git_diff", "file_read", "code_search"]);
        assert!(!built_in.offers_every_tool());
        assert!(
            Capability::load("chat", None)
                .expect("chat")
                .offers_every_tool()
        );
    }

    #[test]
    fn every_built_in_capability_parses_with_a_known_output_type() {
        let expected = [
            ("commit", OutputType::Commit),
            ("pr", OutputType::PullRequest),
            ("review", OutputType::Review),
            ("changelog", OutputType::Changelog),
            ("release-notes", OutputType::ReleaseNotes),
            ("chat", OutputType::Text),
            ("semantic_blame", OutputType::Text),
            ("verify", OutputType::Critique),
            ("review_verify", OutputType::SecondLook),
            ("file_intent", OutputType::FileIntent),
            ("split", OutputType::Split),
        ];
        assert_eq!(Capability::names(), expected.map(|(n, _)| n));
        for (name, output_type) in expected {
            let capability = Capability::load(name, None);
            let capability = capability.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(capability.name, name);
            assert_eq!(capability.output_type, output_type, "{name}");
            assert!(!capability.description.contains('\n'), "{name}");
            assert!(capability.task_prompt.len() > 500, "{name}");
        }
        // Each artifact's capability is named for it and produces its output type.
        for kind in iris_studio_core::artifact::ArtifactKind::ALL {
            let capability = Capability::load(kind.name(), None);
            let capability = capability.unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(capability.output_type, kind.describe().output, "{kind}");
        }
    }

    #[test]
    fn prompts_name_the_tools_they_rely_on() {
        let prompt = |name: &str| {
            Capability::load(name, None)
                .map(|c| c.task_prompt)
                .unwrap_or_default()
        };
        assert!(prompt("commit").contains("\"detail\": \"standard\""));
        assert!(prompt("commit").contains("carries it up front"));
        assert!(prompt("changelog").contains("git_diff with {\"from\": FROM, \"to\": TO"));
        assert!(
            prompt("semantic_blame").contains("git_blame")
                && prompt("semantic_blame").contains("git_show")
        );
        assert!(prompt("chat").contains("update_commit"));
        assert!(prompt("review").contains("severity"));
        assert!(prompt("file_intent").contains("refer_to_source_code"));
    }

    #[test]
    fn an_override_replaces_only_the_fields_it_names() {
        let dir = user_dir_with(
            "commit",
            "task_prompt = \"Write a haiku about the diff.\"\n",
        );
        let capability = Capability::load("commit", Some(dir.path()));
        let capability = capability.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(capability.task_prompt, "Write a haiku about the diff.");
        assert_eq!(capability.output_type, OutputType::Commit);
        assert!(capability.description.contains("commit message"));
        assert_eq!(
            capability.local_output_tokens,
            Some(2048),
            "kept from the built-in"
        );
    }

    #[test]
    fn brief_capabilities_ask_a_local_model_for_a_brief_budget() {
        for name in ["commit", "verify", "file_intent", "semantic_blame"] {
            let capability = Capability::load(name, None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(capability.local_output_tokens, Some(2048), "{name}");
        }
        for name in ["review", "pr", "changelog", "release-notes", "chat"] {
            let capability = Capability::load(name, None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(capability.local_output_tokens, None, "{name}");
        }
        let dir = user_dir_with("commit", "local_output_tokens = 0\n");
        let err = Capability::load("commit", Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("local_output_tokens is 0"), "{err}");
    }

    #[test]
    fn a_user_directory_without_the_file_gives_the_built_in() {
        let dir = user_dir_with("other", "");
        let loaded = Capability::load("review", Some(dir.path())).ok();
        assert_eq!(loaded, Capability::load("review", None).ok());
    }

    #[test]
    fn a_new_capability_comes_from_the_user_file_alone() {
        let text = "name = \"standup\"\ndescription = \"Daily notes\"\noutput_type = \"text\"\ntask_prompt = \"Summarize.\"\n";
        let dir = user_dir_with("standup", text);
        let capability = Capability::load("standup", Some(dir.path()));
        assert_eq!(
            capability.map(|c| c.output_type).ok(),
            Some(OutputType::Text)
        );
        let partial = user_dir_with("standup", "description = \"x\"\n");
        let err = Capability::load("standup", Some(partial.path())).err();
        let err = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            err.ends_with("missing or empty: output_type, task_prompt"),
            "{err}"
        );
    }

    #[test]
    fn a_broken_override_is_an_error_naming_the_file_and_line() {
        let dir = user_dir_with(
            "review",
            "description = \"ok\"\noutput_type = \"reviews\"\n",
        );
        let err = Capability::load("review", Some(dir.path())).err();
        let text = err.map(|e| e.to_string()).unwrap_or_default();
        let path = dir.path().join("capabilities").join("review.toml");
        assert!(
            text.starts_with(&format!("{}:2: ", path.display())),
            "{text}"
        );
        assert!(text.contains("reviews"), "{text}");

        let syntax = user_dir_with("commit", "task_prompt = \"unclosed\n");
        let text = Capability::load("commit", Some(syntax.path()))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(text.contains("commit.toml:1: "), "{text}");
    }

    #[test]
    fn misspelt_keys_and_mismatched_names_are_refused() {
        let dir = user_dir_with("commit", "\n\ntask_promt = \"x\"\n");
        let text = Capability::load("commit", Some(dir.path()))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            text.contains("commit.toml:3: ") && text.contains("task_promt"),
            "{text}"
        );
        let renamed = user_dir_with("commit", "name = \"pr\"\n");
        let text = Capability::load("commit", Some(renamed.path()))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(text.contains("names itself `pr`"), "{text}");
    }

    #[test]
    fn unknown_and_unsafe_names_list_the_known_capabilities() {
        for name in ["nope", "../commit", "", "Commit"] {
            let text = Capability::load(name, None)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                text.starts_with(&format!("unknown capability `{name}`; known: commit, pr")),
                "{text}"
            );
        }
    }
}
