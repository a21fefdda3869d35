//! The tools `iris mcp` offers: each one's name, description and argument schema, and a
//! call's arguments read into what to run. Pure: running a [`Call`] is `super::run`'s.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// What a tool call asks for, its arguments checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// Something Iris writes with a model.
    Write(Model),
    /// `check_commit_message`: a message checked against the repository's commit rules.
    CheckMessage {
        /// The message, as it would be committed.
        message: String,
    },
    /// `commit`: what is staged committed through `git commit` (only with `--allow-commit`).
    Commit {
        /// The commit message (never empty).
        message: String,
        /// Skip the pre-commit and commit-msg hooks.
        no_verify: bool,
    },
}

/// The calls that ask a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Model {
    /// `write_commit_message`: the message for the staged changes.
    CommitMessage {
        /// Have the critic check the message and revise it once if needed.
        critic: bool,
    },
    /// `review`: findings on the changes `scope` covers.
    Review {
        /// The changes reviewed.
        scope: ReviewScope,
        /// Findings less certain than this (0-100) are left out; `None` takes the
        /// configuration's `review_min_confidence`.
        min_confidence: Option<u8>,
    },
    /// `write_pr_description`: the description of the branch `from..to`.
    PrDescription {
        /// The base (exclusive); `None` is the repository's default branch.
        from: Option<String>,
        /// The branch's tip (HEAD unless told).
        to: String,
    },
    /// `write_changelog`: the changelog entry for a range.
    Changelog(Range),
    /// `write_release_notes`: the release notes for a range.
    ReleaseNotes(Range),
    /// `explain_file`: why a file exists and the blocks its code divides into.
    ExplainFile {
        /// Relative to the repository root, as it is in the working copy.
        file: String,
    },
    /// `explain_lines`: why lines `start..=end` of a file are as they are.
    ExplainLines {
        /// Relative to the repository root, as committed at HEAD.
        file: String,
        /// The first line, from 1.
        start: usize,
        /// The last line, never before `start`.
        end: usize,
    },
}

/// What a review covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewScope {
    /// The staged changes (the default).
    Staged,
    /// The staged and unstaged changes together (`include_unstaged`).
    Uncommitted,
    /// One commit, as a revision.
    Commit(String),
    /// The commits after `from` up to `to`.
    Range {
        /// The start of the range (exclusive).
        from: String,
        /// The end of the range (HEAD unless told).
        to: String,
    },
}

/// The commits FROM..TO an artifact covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    /// The start (exclusive), such as the previous release tag.
    pub from: String,
    /// The end (HEAD unless told).
    pub to: String,
    /// The version these changes ship in, when the client names it.
    pub version: Option<String>,
}

/// A checked call, and the repository it names (relative to the workspace), if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// What to run.
    pub call: Call,
    /// A path inside the workspace; `None` is the workspace itself.
    pub repository: Option<String>,
}

/// A tool as listed: its name, what it does, the JSON schema of its arguments.
pub struct ToolSpec {
    /// The name a client calls it by (one of the constants below).
    pub name: &'static str,
    /// What it does, for the client's model to choose it by.
    pub description: &'static str,
    /// The JSON schema of its arguments, without the generator's `$schema` and `title`.
    pub schema: Map<String, Value>,
    /// It writes to the repository (offered only with `--allow-commit`).
    pub writes: bool,
    /// It asks a model (and may take a minute).
    pub uses_model: bool,
}

/// The tool that writes the commit message for the staged changes.
pub const COMMIT_MESSAGE: &str = "write_commit_message";
/// The tool that reviews the staged changes, a commit or a range.
pub const REVIEW: &str = "review";
/// The tool that writes a branch's pull request description.
pub const PR_DESCRIPTION: &str = "write_pr_description";
/// The tool that writes the changelog entry for a range.
pub const CHANGELOG: &str = "write_changelog";
/// The tool that writes the release notes for a range.
pub const RELEASE_NOTES: &str = "write_release_notes";
/// The tool that explains a file.
pub const EXPLAIN_FILE: &str = "explain_file";
/// The tool that explains lines of a file from their history.
pub const EXPLAIN_LINES: &str = "explain_lines";
/// The tool that checks a message against the commit rules, without a model.
pub const CHECK_MESSAGE: &str = "check_commit_message";
/// The tool that commits what is staged (offered only with `--allow-commit`).
pub const COMMIT: &str = "commit";

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CommitMessageArgs {
    /// Have the critic check the message and revise it once if needed.
    #[serde(default)]
    critic: bool,
    /// The repository, as a path inside the workspace the server was started in (default:
    /// that workspace).
    repository: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReviewArgs {
    /// Review this commit (a revision: a hash, a branch, `HEAD~1`).
    commit: Option<String>,
    /// Review the commits after this revision (exclusive), up to `to`.
    from: Option<String>,
    /// The end of the range with `from` (default HEAD).
    to: Option<String>,
    /// Review the staged and unstaged changes together (default: the staged ones).
    #[serde(default)]
    include_unstaged: bool,
    /// Leave out findings the reviewer is less sure of than this (0-100; default the
    /// configuration's `review_min_confidence`).
    min_confidence: Option<u8>,
    /// The repository, as a path inside the workspace (default: the workspace).
    repository: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PrArgs {
    /// The base (exclusive): default the default branch (main, master or the remote's HEAD).
    from: Option<String>,
    /// The branch's tip (default HEAD).
    to: Option<String>,
    /// The repository, as a path inside the workspace (default: the workspace).
    repository: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RangeArgs {
    /// The start of the range (exclusive), e.g. the previous release tag.
    from: String,
    /// The end of the range (default HEAD).
    to: Option<String>,
    /// The version these changes ship in.
    version: Option<String>,
    /// The repository, as a path inside the workspace (default: the workspace).
    repository: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExplainFileArgs {
    /// The file, relative to the repository root, as it is in the working copy.
    file: String,
    /// The repository, as a path inside the workspace (default: the workspace).
    repository: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExplainLinesArgs {
    /// The file, relative to the repository root, as committed at HEAD.
    file: String,
    /// The first line (from 1).
    start: usize,
    /// The last line (default `start`).
    end: Option<usize>,
    /// The repository, as a path inside the workspace (default: the workspace).
    repository: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CheckArgs {
    /// The commit message to check, as it would be committed.
    message: String,
    /// The repository, as a path inside the workspace (default: the workspace).
    repository: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CommitArgs {
    /// The commit message.
    message: String,
    /// Skip the pre-commit and commit-msg hooks.
    #[serde(default)]
    no_verify: bool,
    /// The repository, as a path inside the workspace (default: the workspace).
    repository: Option<String>,
}

fn schema<T: JsonSchema>() -> Map<String, Value> {
    match serde_json::to_value(schemars::schema_for!(T)) {
        Ok(Value::Object(mut map)) => {
            // Clients want the object schema itself, without the generator's header.
            map.remove("$schema");
            map.remove("title");
            map
        }
        _ => Map::new(),
    }
}

/// Every tool, the writing ones only when `allow_commit`.
pub fn catalogue(allow_commit: bool) -> Vec<ToolSpec> {
    let spec = |name, description, schema, uses_model| ToolSpec {
        name,
        description,
        schema,
        writes: false,
        uses_model,
    };
    let mut tools = vec![
        spec(
            COMMIT_MESSAGE,
            "Write the commit message for the staged changes, following the repository's history, \
             commit rules (commitlint, commitizen) and ticket habit. Secrets in the changes are \
             withheld from the model. Returns the message; commits nothing.",
            schema::<CommitMessageArgs>(),
            true,
        ),
        spec(
            REVIEW,
            "Review code changes (the staged ones by default, or a commit, or a range): findings \
             with severity, file, line and a suggested fix, the less certain ones left out.",
            schema::<ReviewArgs>(),
            true,
        ),
        spec(
            PR_DESCRIPTION,
            "Write the pull request description for a branch (the default branch to HEAD unless \
             told), with the repository's PR template when it has one.",
            schema::<PrArgs>(),
            true,
        ),
        spec(
            CHANGELOG,
            "Write the changelog entry (Keep a Changelog sections) for the commits of a range.",
            schema::<RangeArgs>(),
            true,
        ),
        spec(
            RELEASE_NOTES,
            "Write the release notes for the commits of a range.",
            schema::<RangeArgs>(),
            true,
        ),
        spec(
            EXPLAIN_FILE,
            "Explain a file: why it exists and the responsibility blocks its code divides into, \
             from its history.",
            schema::<ExplainFileArgs>(),
            true,
        ),
        spec(
            EXPLAIN_LINES,
            "Explain why lines of a file are as they are, from the commits that shaped them \
             (semantic blame).",
            schema::<ExplainLinesArgs>(),
            true,
        ),
        spec(
            CHECK_MESSAGE,
            "Check a commit message against the repository's commit rules (its commitlint or \
             commitizen configuration) as commitlint would. Needs no model.",
            schema::<CheckArgs>(),
            false,
        ),
    ];
    if allow_commit {
        tools.push(ToolSpec {
            writes: true,
            ..spec(
                COMMIT,
                "Commit the staged changes with the given message, through `git commit` (hooks \
                 and signing apply).",
                schema::<CommitArgs>(),
                false,
            )
        });
    }
    tools
}

/// Reads a call to tool `name` with `arguments`; `Err` says what is wrong, for the client.
pub fn read(name: &str, arguments: Value, allow_commit: bool) -> Result<Request, String> {
    let request = |call, repository| Ok(Request { call, repository });
    let model = |m, repository| {
        Ok(Request {
            call: Call::Write(m),
            repository,
        })
    };
    match name {
        COMMIT_MESSAGE => {
            let a: CommitMessageArgs = args(name, arguments)?;
            model(Model::CommitMessage { critic: a.critic }, a.repository)
        }
        REVIEW => {
            let a: ReviewArgs = args(name, arguments)?;
            let scope = match (a.commit, a.from) {
                (Some(_), Some(_)) => return Err("review: give `commit` or `from`, not both".into()),
                (Some(commit), None) => ReviewScope::Commit(non_empty("commit", commit)?),
                (None, Some(from)) => ReviewScope::Range {
                    from: non_empty("from", from)?,
                    to: a.to.unwrap_or_else(|| "HEAD".into()),
                },
                (None, None) if a.to.is_some() => {
                    return Err("review: `to` needs `from`".into());
                }
                (None, None) if a.include_unstaged => ReviewScope::Uncommitted,
                (None, None) => ReviewScope::Staged,
            };
            if a.min_confidence.is_some_and(|m| m > 100) {
                return Err("review: `min_confidence` is a percentage, 0 to 100".into());
            }
            model(
                Model::Review {
                    scope,
                    min_confidence: a.min_confidence,
                },
                a.repository,
            )
        }
        PR_DESCRIPTION => {
            let a: PrArgs = args(name, arguments)?;
            model(
                Model::PrDescription {
                    from: a.from,
                    to: a.to.unwrap_or_else(|| "HEAD".into()),
                },
                a.repository,
            )
        }
        CHANGELOG | RELEASE_NOTES => {
            let a: RangeArgs = args(name, arguments)?;
            let range = Range {
                from: non_empty("from", a.from)?,
                to: a.to.unwrap_or_else(|| "HEAD".into()),
                version: a.version,
            };
            let call = if name == CHANGELOG {
                Model::Changelog(range)
            } else {
                Model::ReleaseNotes(range)
            };
            model(call, a.repository)
        }
        EXPLAIN_FILE => {
            let a: ExplainFileArgs = args(name, arguments)?;
            model(
                Model::ExplainFile {
                    file: non_empty("file", a.file)?,
                },
                a.repository,
            )
        }
        EXPLAIN_LINES => {
            let a: ExplainLinesArgs = args(name, arguments)?;
            let end = a.end.unwrap_or(a.start);
            if a.start == 0 || end < a.start {
                return Err(format!(
                    "explain_lines: lines are numbers from 1 and `end` ({end}) may not come before `start` ({})",
                    a.start
                ));
            }
            model(
                Model::ExplainLines {
                    file: non_empty("file", a.file)?,
                    start: a.start,
                    end,
                },
                a.repository,
            )
        }
        CHECK_MESSAGE => {
            let a: CheckArgs = args(name, arguments)?;
            request(Call::CheckMessage { message: a.message }, a.repository)
        }
        COMMIT if allow_commit => {
            let a: CommitArgs = args(name, arguments)?;
            if a.message.trim().is_empty() {
                return Err("commit: the message is empty".into());
            }
            request(
                Call::Commit {
                    message: a.message,
                    no_verify: a.no_verify,
                },
                a.repository,
            )
        }
        COMMIT => Err(
            "commit: this server does not write to the repository (start it with `iris mcp --allow-commit`)"
                .into(),
        ),
        other => Err(format!("no tool named '{other}'")),
    }
}

/// The arguments as `T`; a missing object is no arguments.
fn args<T: DeserializeOwned>(tool: &str, arguments: Value) -> Result<T, String> {
    let arguments = match arguments {
        Value::Null => Value::Object(Map::new()),
        other => other,
    };
    serde_json::from_value(arguments).map_err(|e| format!("{tool}: {e}"))
}

fn non_empty(field: &str, value: String) -> Result<String, String> {
    if value.trim().is_empty() {
        Err(format!("`{field}` is empty"))
    } else {
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_catalogue_offers_commit_only_when_allowed() {
        let names = |allow| -> Vec<&str> { catalogue(allow).iter().map(|t| t.name).collect() };
        assert!(!names(false).contains(&COMMIT));
        assert!(names(true).contains(&COMMIT));
        assert_eq!(names(false).len(), 8);
        for tool in catalogue(true) {
            assert_eq!(
                tool.schema.get("type"),
                Some(&json!("object")),
                "{}",
                tool.name
            );
        }
    }

    #[test]
    fn calls_are_read_with_their_defaults() {
        let r = read(REVIEW, json!({"from": "v1.0"}), false).unwrap();
        assert_eq!(
            r.call,
            Call::Write(Model::Review {
                scope: ReviewScope::Range {
                    from: "v1.0".into(),
                    to: "HEAD".into()
                },
                min_confidence: None
            })
        );
        let r = read(COMMIT_MESSAGE, Value::Null, false).unwrap();
        assert_eq!(r.call, Call::Write(Model::CommitMessage { critic: false }));
        let r = read(
            EXPLAIN_LINES,
            json!({"file": "a.rs", "start": 3, "repository": "sub"}),
            false,
        )
        .unwrap();
        assert_eq!(r.repository.as_deref(), Some("sub"));
        assert_eq!(
            r.call,
            Call::Write(Model::ExplainLines {
                file: "a.rs".into(),
                start: 3,
                end: 3
            })
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let err = |name, args| read(name, args, false).unwrap_err();
        assert!(err(REVIEW, json!({"commit": "a", "from": "b"})).contains("not both"));
        assert!(err(CHANGELOG, json!({})).contains("missing field `from`"));
        assert!(err(EXPLAIN_LINES, json!({"file": "a", "start": 5, "end": 2})).contains("from 1"));
        assert!(err(CHECK_MESSAGE, json!({"message": "x", "colour": 1})).contains("unknown field"));
        assert!(err(COMMIT, json!({"message": "x"})).contains("--allow-commit"));
        assert!(err("rm_rf", json!({})).contains("no tool named"));
    }
}
