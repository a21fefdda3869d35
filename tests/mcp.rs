//! `iris mcp` driven by a real MCP client (rmcp's, over the binary's stdio) on temporary
//! repositories, with the fake provider behind it: the handshake, the tool list, a commit
//! message written with progress notifications, a cancelled run, bad arguments, the rules
//! checked without a model, and `commit` only with `--allow-commit`.

use std::process::Command as StdCommand;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ProgressNotificationParam, ProgressToken,
    Request, ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::common::agent::{commit_json, openai_env, staged_repo};
use crate::common::fake_provider::{FakeProvider, Step};
use crate::common::{IRIS, TestRepo, secrets};

/// A client that keeps the progress notifications it receives.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

type Client = RunningService<RoleClient, Recorder>;

/// `iris mcp ARGS` in `repo`, the fake provider behind it, and a client connected to it.
async fn connect(repo: &TestRepo, fake: &FakeProvider, args: &[&str]) -> (Client, Recorder) {
    connect_with(repo, openai_env(fake), args).await
}

/// [`connect`] with this environment.
async fn connect_with(
    repo: &TestRepo,
    env: Vec<(&'static str, String)>,
    args: &[&str],
) -> (Client, Recorder) {
    let mut command = StdCommand::new(IRIS);
    command.arg("mcp").args(args);
    repo.in_env(&mut command, &repo.path());
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if iris_studio_testkit::IRIS_ENV_PREFIXES
            .iter()
            .any(|p| name.starts_with(p))
        {
            command.env_remove(name.as_ref());
        }
    }
    command.envs(env);
    let transport =
        TokioChildProcess::new(tokio::process::Command::from(command)).expect("start iris mcp");
    let recorder = Recorder::default();
    let client = tokio::time::timeout(Duration::from_secs(20), recorder.clone().serve(transport))
        .await
        .expect("the handshake ends in time")
        .expect("the handshake succeeds");
    (client, recorder)
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(name.to_string()).with_arguments(arguments)
}

/// Calls `name` and returns its result (an error result included), failing on an MCP error.
async fn answer(client: &Client, name: &str, arguments: Value) -> CallToolResult {
    tokio::time::timeout(
        Duration::from_secs(60),
        client.call_tool(call(name, arguments)),
    )
    .await
    .expect("the call ends in time")
    .expect("a tool result")
}

/// Asserts that `result` is an error result whose text says `says`.
fn assert_refused(result: &CallToolResult, says: &str) {
    assert_eq!(result.is_error, Some(true), "{}", text_of(result));
    assert!(text_of(result).contains(says), "{}", text_of(result));
}

/// Calls `name` with a progress token and returns its result and the token.
async fn answer_with_progress(
    client: &Client,
    name: &str,
    arguments: Value,
) -> (CallToolResult, ProgressToken) {
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(call(name, arguments))),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("send the call");
    let token = handle.progress_token.clone();
    let response = tokio::time::timeout(Duration::from_secs(60), handle.await_response())
        .await
        .expect("the call ends in time")
        .expect("the call succeeds");
    let ServerResult::CallToolResult(result) = response else {
        panic!("a tool result: {response:?}")
    };
    (result, token)
}

/// A call's text content, joined.
fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

async fn tool_names(client: &Client) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name.to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_lists_the_tools_and_gets_a_commit_message_with_progress() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::slow(
        300,
        Step::text(commit_json("Add two()", "Add `two()` beside `one()`.")),
    )]);
    let (client, recorder) = connect(&repo, &fake, &[]).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|s| s.name.as_str()),
        Some("iris")
    );

    let names = tool_names(&client).await;
    for expected in [
        "write_commit_message",
        "review",
        "write_pr_description",
        "write_changelog",
        "write_release_notes",
        "explain_file",
        "explain_lines",
        "check_commit_message",
    ] {
        assert!(
            names.contains(&expected.to_string()),
            "{expected}: {names:?}"
        );
    }
    assert!(!names.contains(&"commit".to_string()), "{names:?}");

    let (result, token) = answer_with_progress(&client, "write_commit_message", json!({})).await;
    assert_ne!(result.is_error, Some(true), "{}", text_of(&result));
    assert!(
        text_of(&result).starts_with("Add two()"),
        "{}",
        text_of(&result)
    );
    let structured = result.structured_content.expect("the message as JSON");
    assert_eq!(structured["title"], "Add two()");

    let progress = recorder.progress.lock().unwrap().clone();
    assert!(!progress.is_empty(), "no progress notification arrived");
    assert!(progress.iter().all(|p| p.progress_token == token));
    assert!(
        progress.windows(2).all(|w| w[0].progress < w[1].progress),
        "progress grows: {progress:?}"
    );
    assert!(progress.iter().all(|p| p.message.is_some()));
    client.cancel().await.expect("close the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_call_ends_its_run_and_the_server_goes_on() {
    let repo = staged_repo();
    // The first reply would take a minute; the second comes at once.
    let fake = FakeProvider::start(vec![
        Step::slow(60_000, Step::text(commit_json("Never sent", "x"))),
        Step::text(commit_json("Add two()", "Add `two()`.")),
    ]);
    let (client, _) = connect(&repo, &fake, &[]).await;
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(call("write_commit_message", json!({})))),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("send the call");
    // Cancel once the provider holds the request.
    let started = std::time::Instant::now();
    while fake.requests().is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no request reached the provider"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    handle
        .cancel(Some("the user pressed esc".into()))
        .await
        .expect("send the cancellation");
    // The cancelled run hangs up on the provider: its slow answer is never sent. (rmcp runs
    // each request as a task of its own, so the next call below would succeed even if
    // cancelling did nothing; this is what shows the run ended.)
    while fake.abandoned() == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the cancelled run still holds its request"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The server answers the next call at once, with the next reply: the cancelled run no
    // longer holds it.
    let result = tokio::time::timeout(
        Duration::from_secs(30),
        client.call_tool(call("write_commit_message", json!({}))),
    )
    .await
    .expect("the next call ends in time")
    .expect("the next call succeeds");
    assert!(
        text_of(&result).starts_with("Add two()"),
        "{}",
        text_of(&result)
    );
    assert!(started.elapsed() < Duration::from_secs(45));
    client.cancel().await.expect("close the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_are_mcp_errors_and_failed_runs_say_why() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![]);
    let (client, _) = connect(&repo, &fake, &[]).await;
    for (tool, arguments, says) in [
        (
            "explain_lines",
            json!({"file": "src/lib.rs", "start": 0}),
            "from 1",
        ),
        ("write_changelog", json!({}), "missing field `from`"),
        (
            "review",
            json!({"commit": "HEAD", "from": "HEAD~1"}),
            "not both",
        ),
        ("commit", json!({"message": "feat: x"}), "--allow-commit"),
        (
            "write_commit_message",
            json!({"repository": "/"}),
            "outside the workspace",
        ),
    ] {
        let err = client
            .call_tool(call(tool, arguments))
            .await
            .expect_err("an MCP error");
        assert!(err.to_string().contains(says), "{tool}: {err}");
    }
    assert!(fake.requests().is_empty(), "nothing reached the provider");

    // A revision that names no commit stops before the provider is asked.
    let result = answer(&client, "review", json!({"commit": "nosuch"})).await;
    assert_refused(&result, "unknown revision 'nosuch'");
    assert!(fake.requests().is_empty());

    // A run that cannot start is the tool's answer, in the command line's words.
    repo.git(&["reset", "-q"]);
    let result = answer(&client, "write_commit_message", json!({})).await;
    assert_refused(&result, "nothing is staged");
    client.cancel().await.expect("close the connection");
}

/// A range without commits, or no change to review, is refused as the command line refuses
/// it, before the provider is asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_range_without_commits_or_no_change_is_refused_before_any_request() {
    let repo = staged_repo();
    repo.commit_all("Add two()");
    let fake = FakeProvider::start(vec![]);
    let (client, _) = connect(&repo, &fake, &[]).await;
    for (tool, arguments) in [
        ("write_changelog", json!({"from": "HEAD"})),
        ("write_release_notes", json!({"from": "HEAD", "to": "HEAD"})),
        ("write_pr_description", json!({"from": "HEAD"})),
        ("review", json!({"from": "HEAD"})),
    ] {
        let result = answer(&client, tool, arguments).await;
        assert_refused(&result, "HEAD..HEAD holds no commit");
    }
    let result = answer(&client, "review", json!({"include_unstaged": true})).await;
    assert_refused(&result, "nothing has changed to review");
    assert!(
        fake.requests().is_empty(),
        "a request about nothing was sent"
    );
    client.cancel().await.expect("close the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_commit_message_needs_no_model() {
    let repo = staged_repo();
    repo.write(
        ".commitlintrc.json",
        r#"{"extends": ["@commitlint/config-conventional"]}"#,
    );
    let fake = FakeProvider::start(vec![]);
    let (client, _) = connect(&repo, &fake, &[]).await;
    let result = answer(
        &client,
        "check_commit_message",
        json!({"message": "Added Stuff."}),
    )
    .await;
    let structured = result.structured_content.clone().expect("JSON");
    assert_eq!(structured["valid"], false);
    let rules: Vec<&str> = structured["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["subject-empty", "subject-full-stop", "type-empty"]);
    assert!(
        text_of(&result).contains("✖ type-empty"),
        "{}",
        text_of(&result)
    );
    let result = answer(
        &client,
        "check_commit_message",
        json!({"message": "feat: add two"}),
    )
    .await;
    assert_eq!(result.structured_content.unwrap()["valid"], true);
    assert!(fake.requests().is_empty());
    client.cancel().await.expect("close the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commit_is_offered_and_works_only_with_allow_commit() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![]);
    let (client, _) = connect(&repo, &fake, &["--allow-commit"]).await;
    assert!(tool_names(&client).await.contains(&"commit".to_string()));
    let result = answer(
        &client,
        "commit",
        json!({"message": "Add two()\n\nBeside one()."}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text_of(&result));
    let log = repo.git(&["log", "-1", "--format=%B"]);
    assert_eq!(log.trim(), "Add two()\n\nBeside one().");
    // Nothing is staged any more: a second commit is refused, saying why.
    let result = answer(&client, "commit", json!({"message": "Again"})).await;
    assert_refused(&result, "nothing is staged");
    client.cancel().await.expect("close the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_safety_mode_refuses_what_it_would_ask_and_secrets_stay_home() {
    let repo = TestRepo::new();
    repo.write("pyproject.toml", "[project]\nname = \"demo\"\n");
    repo.write("demo.py", "import os\n");
    repo.commit_all("Initial commit");
    let (rule, line, secret) = secrets::leaks()
        .into_iter()
        .find(|(rule, _, _)| rule.starts_with("aws"))
        .expect("an AWS key in the corpus");
    repo.write("demo.py", format!("import os\n{line}\n"));
    repo.git(&["add", "-A"]);
    // The model runs the linters while writing a commit message.
    repo.offer_every_tool("commit");
    let fake = FakeProvider::start(vec![
        Step::tool_call("static_analysis", json!({})),
        Step::text(commit_json("Read the key from the environment", "x")),
    ]);
    let mut env = openai_env(&fake);
    env.push(("IRIS_TRUST_REPO", "1".to_string()));
    let (client, recorder) = connect_with(&repo, env, &[]).await;
    let (result, _) = answer_with_progress(&client, "write_commit_message", json!({})).await;
    assert!(
        text_of(&result).starts_with("Read the key"),
        "{}",
        text_of(&result)
    );

    // The analyzer was not run: there is no one to ask over MCP, and the model was told.
    let requests = fake.requests();
    let read = requests.last().expect("requests").tool_results();
    assert!(
        read.iter()
            .any(|(_, t)| t.contains("the user did not allow static_analysis")),
        "{read:?}"
    );
    let said: Vec<String> = recorder
        .progress
        .lock()
        .unwrap()
        .iter()
        .filter_map(|p| p.message.clone())
        .collect();
    assert!(
        said.iter()
            .any(|m| m.contains("static_analysis (execute) was not run")),
        "{said:?}"
    );
    // The secret never reached the provider, and the client heard it was withheld.
    for request in &requests {
        assert!(!request.raw_body.contains(&secret), "{rule} leaked");
    }
    assert!(
        said.iter().any(|m| m.contains("a secret was withheld")),
        "{said:?}"
    );
    client.cancel().await.expect("close the connection");
}

/// In a jj workspace the commit message is `@`'s, written from its own diff, and `commit`
/// records it with `jj commit`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_jj_workspace_the_message_is_at_s_and_commit_is_jj_commit() {
    let repo = TestRepo::jj_adding_two(false);
    let at = repo.jj_field("@", "commit_id");
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    let (client, _) = connect(&repo, &fake, &["--allow-commit"]).await;
    let result = answer(&client, "write_commit_message", json!({})).await;
    assert_ne!(result.is_error, Some(true), "{}", text_of(&result));
    assert!(text_of(&result).contains("Add two()"));
    let asked = fake.requests()[0].user_texts().join("\n");
    assert!(asked.contains(&format!("commit {at}")), "{asked}");
    let result = answer(&client, "commit", json!({"message": "Add two()"})).await;
    assert_ne!(result.is_error, Some(true), "{}", text_of(&result));
    assert_eq!(repo.jj_description("@-"), "Add two()\n");
    // @ is a new empty change now: nothing to commit.
    let result = answer(&client, "commit", json!({"message": "Again"})).await;
    assert_refused(&result, "is empty");
    client.cancel().await.expect("close the connection");
}
