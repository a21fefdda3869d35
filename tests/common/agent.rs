//! Helpers for the agent tests: repositories with a change to describe, the environment that
//! points each provider at the fake, and runs of the real binary that must end in time,
//! without a panic and without the API key in what they print.

use super::Iris;
use std::process::Output;
use std::time::Duration;

use serde_json::{Value, json};

use super::fake_provider::{FAKE_API_KEY, FakeProvider, Recorded};
use super::{TestRepo, stderr, stdout};

/// Longest a run may take before it counts as a hang (the slowest test takes about 2 s).
pub const RUN_LIMIT: Duration = Duration::from_secs(60);

/// The tools the main agent is offered, in no particular order.
pub const MAIN_AGENT_TOOLS: &[&str] = &[
    "git_status",
    "git_diff",
    "git_log",
    "git_show",
    "git_changed_files",
    "git_blame",
    "file_read",
    "file_list",
    "file_search",
    "code_search",
    "repo_map",
    "static_analysis",
    "project_docs",
    "git_repo_info",
    "workspace",
    "parallel_analyze",
    "analyze_subagent",
];

/// Whether `request` asks for `schema` once: as the provider's own field where it has one
/// (OpenAI's `text.format`, the schema itself; Anthropic's `output_config.format`, without
/// its numeric limits), the instructions only pointing at it; elsewhere in the instructions.
pub fn asks_schema_once(request: &Recorded, schema: &serde_json::Value) -> bool {
    let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
    let system = request.system_text();
    let openai = &request.body["text"]["format"]["schema"];
    let anthropic = &request.body["output_config"]["format"]["schema"];
    let carried = if openai.is_object() {
        openai == schema
    } else {
        anthropic.is_object()
            && anthropic["properties"].as_object().map(|p| p.len())
                == schema["properties"].as_object().map(|p| p.len())
    };
    if openai.is_object() || anthropic.is_object() {
        carried
            && !system.contains(&pretty)
            && system.contains("the JSON schema this request gives as its response format")
    } else {
        system.contains(&pretty)
    }
}

/// A repository with one commit and a staged change that adds `two()` to `src/lib.rs`.
pub fn staged_repo() -> TestRepo {
    let repo = changed_repo();
    repo.git(&["add", "-A"]);
    repo
}

/// [`staged_repo`]'s change made but not staged, as a user's is before they commit.
pub fn changed_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.write("README.md", "# Numbers\n\nSmall numbers as functions.\n");
    repo.commit_all("Initial commit");
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo
}

/// A repository with a release tag `v0.1.0` on `main`, then two commits after it:
/// "Add two()" and "Fix one() doc".
pub fn released_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit_all("Initial commit");
    repo.git(&["tag", "v0.1.0"]);
    repo.write(
        "src/lib.rs",
        "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.commit_all("Add two()");
    repo.write(
        "src/lib.rs",
        "/// One.\npub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    2\n}\n",
    );
    repo.commit_all("Fix one() doc");
    repo
}

/// Which of the fake's wire formats a run talks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// `IRIS_PROVIDER=openai`: the Responses API.
    Responses,
    /// `IRIS_PROVIDER=openai-compatible`: Chat Completions, model `local-model`.
    Chat,
    /// `IRIS_PROVIDER=anthropic`: Messages.
    Anthropic,
    /// `IRIS_PROVIDER=gemini`: generateContent.
    Gemini,
    /// `IRIS_PROVIDER=ollama`: `/api/chat`.
    Ollama,
}

impl Wire {
    /// The wires most tests run on.
    pub const ALL: [Wire; 3] = [Wire::Responses, Wire::Chat, Wire::Anthropic];
    /// Every wire the fake speaks.
    pub const EVERY: [Wire; 5] = [
        Wire::Responses,
        Wire::Chat,
        Wire::Anthropic,
        Wire::Gemini,
        Wire::Ollama,
    ];

    /// The environment that selects this provider and points it at `fake`. A hosted
    /// provider's fake, on loopback, is marked hosted (`IRIS_LOCAL=false`), as a LiteLLM
    /// proxy in front of it would be.
    pub fn env(self, fake: &FakeProvider) -> Vec<(&'static str, String)> {
        let mut env = self.endpoint(fake);
        if !matches!(self, Wire::Chat | Wire::Ollama) {
            env.push(("IRIS_LOCAL", "false".to_string()));
        }
        env
    }

    fn endpoint(self, fake: &FakeProvider) -> Vec<(&'static str, String)> {
        match self {
            Wire::Responses => vec![
                ("IRIS_PROVIDER", "openai".to_string()),
                ("OPENAI_API_KEY", FAKE_API_KEY.to_string()),
                ("OPENAI_BASE_URL", fake.openai_base_url()),
            ],
            Wire::Chat => vec![
                ("IRIS_PROVIDER", "openai-compatible".to_string()),
                ("OPENAI_API_KEY", FAKE_API_KEY.to_string()),
                ("OPENAI_BASE_URL", fake.openai_base_url()),
                ("IRIS_MODEL", "local-model".to_string()),
            ],
            Wire::Anthropic => vec![
                ("IRIS_PROVIDER", "anthropic".to_string()),
                ("ANTHROPIC_API_KEY", FAKE_API_KEY.to_string()),
                ("ANTHROPIC_BASE_URL", fake.base_url()),
            ],
            Wire::Gemini => vec![
                ("IRIS_PROVIDER", "gemini".to_string()),
                ("GEMINI_API_KEY", FAKE_API_KEY.to_string()),
                ("GEMINI_BASE_URL", fake.base_url()),
            ],
            Wire::Ollama => vec![
                ("IRIS_PROVIDER", "ollama".to_string()),
                ("OLLAMA_HOST", fake.base_url()),
            ],
        }
    }

    /// How errors name the provider and its main model.
    pub fn label(self) -> &'static str {
        match self {
            Wire::Responses => "openai gpt-5",
            Wire::Chat => "openai-compatible local-model",
            Wire::Anthropic => "anthropic claude-sonnet-4-5",
            Wire::Gemini => "gemini gemini-2.5-pro",
            Wire::Ollama => "ollama llama3.1",
        }
    }
}

/// The Responses environment (the default provider).
pub fn openai_env(fake: &FakeProvider) -> Vec<(&'static str, String)> {
    Wire::Responses.env(fake)
}

/// [`openai_env`] as a lookup, for `Config::load_from` in tests that build Iris in process.
pub fn openai_lookup(fake: &FakeProvider) -> impl Fn(&str) -> Option<String> + use<> {
    let env = openai_env(fake);
    move |name: &str| {
        env.iter()
            .find(|(var, _)| *var == name)
            .map(|(_, value)| value.clone())
    }
}

/// Runs `iris ARGS` with `env` and checks what every run must satisfy: it ends within
/// [`RUN_LIMIT`], it does not panic, and the API key appears in neither stdout nor stderr.
pub fn run(repo: &TestRepo, args: &[&str], env: &[(&'static str, String)]) -> Output {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = repo.iris_env_within(args, &env, RUN_LIMIT);
    let (so, se) = (stdout(&out), stderr(&out));
    assert!(
        !se.contains("panicked") && out.status.code() != Some(101),
        "iris {args:?} panicked:\n{se}"
    );
    assert!(
        !so.contains(FAKE_API_KEY) && !se.contains(FAKE_API_KEY),
        "iris {args:?} printed the API key:\nstdout: {so}\nstderr: {se}"
    );
    out
}

/// Asserts the run succeeded and returns its stdout.
pub fn success(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        stdout(out),
        stderr(out)
    );
    stdout(out)
}

/// Asserts the run failed with `code` and that its error is exactly one line starting
/// with `error: `; returns that line.
pub fn failure(out: &Output, code: i32) -> String {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {}\nstderr: {err}",
        stdout(out)
    );
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "one error line expected:\n{err}");
    errors[0].to_string()
}

/// A commit message reply as the model writes it.
pub fn commit_json(title: &str, message: &str) -> String {
    json!({"emoji": null, "title": title, "message": message}).to_string()
}

/// Writes the user config file the `iris` of `repo`'s tests reads.
pub fn write_user_config(repo: &TestRepo, text: &str) {
    let path = repo.user_config_path();
    std::fs::create_dir_all(path.parent().unwrap_or(&path)).expect("config dir");
    std::fs::write(&path, text).expect("write user config");
}

/// The critic's verdict that nothing needs revising.
pub fn approval() -> String {
    json!({"requires_revision": false, "issues": [], "revision_prompt": "", "confidence": 0.9})
        .to_string()
}

/// The model named in a request's body.
pub fn model_of(request: &Recorded) -> String {
    request
        .body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// A spec for `model` of `kind` at `base_url`: hosted, a key, a 30-second stall limit,
/// nothing else; a test changes what it is about.
pub fn spec_at(
    kind: iris_studio_agent::ProviderKind,
    model: &str,
    base_url: String,
) -> iris_studio_agent::ProviderSpec {
    iris_studio_agent::ProviderSpec {
        kind,
        model: model.into(),
        base_url: Some(base_url),
        local: false,
        reasoning_effort: None,
        api_key: Some(FAKE_API_KEY.into()),
        stall_timeout: std::time::Duration::from_secs(30),
        secrets: None,
    }
}

/// `sh -c LINE` in the repository, as a user types it: the built `iris` first on PATH, the
/// repository's home and git config, no variable of the developer's that configures iris or
/// a provider (as every run of the tests), the editor a no-op, `env` added, `stdin` typed.
pub fn shell(repo: &TestRepo, line: &str, env: &[(&'static str, String)], stdin: &str) -> Output {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_iris"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let path = path.to_string_lossy().into_owned();
    let mut all: Vec<(&str, &str)> = vec![("PATH", &path), ("GIT_EDITOR", "true")];
    all.extend(env.iter().map(|(k, v)| (*k, v.as_str())));
    let child = repo.spawn_bin(std::path::Path::new("sh"), &["-c", line], &all, stdin);
    child.wait_with_output().expect("sh")
}
