//! The transport end to end: fake CLIs (shell scripts) answer requests sent through a client.

use super::*;

#[test]
fn a_sign_in_failure_says_how_to_sign_in() {
    let text = said(
        CliAgent::ClaudeCode,
        "Invalid API key · Please run /login",
        Some(1),
    );
    assert!(text.starts_with("Invalid API key"));
    assert!(text.contains("sign in with /login"));
    assert!(
        said(CliAgent::GeminiCli, "Please set an Auth method", Some(41)).contains("run `gemini`")
    );
    assert_eq!(said(CliAgent::Codex, "boom", Some(1)), "boom");
}

use std::time::Instant;

use iris_studio_testkit::{fake_bin, path_with};
use reqwest_middleware::ClientWithMiddleware;

const RESULT: &str = r#"{"type":"result","subtype":"success","is_error":false,"result":"Add two","total_cost_usd":0.01,"usage":{"input_tokens":10,"output_tokens":2}}"#;

fn delta(text: &str) -> String {
    format!(
        r#"{{"type":"stream_event","event":{{"type":"content_block_delta","index":0,"delta":{{"type":"text_delta","text":"{text}"}}}}}}"#
    )
}

/// `printf` of `lines`, a line each, for a fake's script.
fn printed(lines: &[&str]) -> String {
    let quoted: String = lines.iter().map(|l| format!(" '{l}'")).collect();
    format!("printf '%s\\n'{quoted}")
}

/// A fake `claude` that runs `script`, and a client whose requests it answers.
struct Fake {
    bin: tempfile::TempDir,
    client: ClientWithMiddleware,
    failure: TransportFailure,
}

fn claude(script: &str, stall: Duration) -> Fake {
    let bin = fake_bin(&[("claude", script)]);
    let failure = TransportFailure::default();
    let mut transport = CliTransport::new(CliAgent::ClaudeCode, stall, failure.clone());
    transport.path = path_with(bin.path());
    let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
        .with(transport)
        .build();
    Fake {
        bin,
        client,
        failure,
    }
}

impl Fake {
    async fn ask(&self, stream: bool) -> reqwest_middleware::Result<Response> {
        let body = serde_json::json!({
            "model": "default",
            "stream": stream,
            "messages": [
                {"role": "system", "content": "You are Iris."},
                {"role": "user", "content": "Describe the change."}
            ]
        });
        self.client
            .post("http://cli.invalid/v1/chat/completions")
            .body(body.to_string())
            .send()
            .await
    }
}

/// The text of a Chat Completions stream's chunks, and whether it ended with `[DONE]`.
fn streamed_text(events: &str) -> (String, bool) {
    let text = events
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| {
            v.pointer("/choices/0/delta/content")?
                .as_str()
                .map(str::to_string)
        })
        .collect();
    (text, events.trim_end().ends_with("data: [DONE]"))
}

#[tokio::test]
async fn a_streamed_reply_is_its_pieces_then_the_rest_of_the_result() {
    // The CLI streamed "Add " and its result says "Add two": "two" is still to come.
    let fake = claude(&printed(&[&delta("Add "), RESULT]), Duration::from_secs(10));
    let response = fake.ask(true).await.expect("an answer");
    let kind = response.headers()[reqwest::header::CONTENT_TYPE].clone();
    assert_eq!(kind, "text/event-stream");
    let (text, done) = streamed_text(&response.text().await.unwrap());
    assert_eq!(text, "Add two");
    assert!(done);
    assert_eq!(fake.failure.take(), None);
}

#[tokio::test]
async fn a_reply_not_streamed_is_one_object() {
    let fake = claude(&printed(&[RESULT]), Duration::from_secs(10));
    let response = fake.ask(false).await.expect("an answer");
    let reply: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    assert_eq!(reply["choices"][0]["message"]["content"], "Add two");
    assert_eq!(reply["usage"]["cost"], 0.01);
}

#[tokio::test]
async fn a_cli_failing_at_once_fails_the_request_with_its_words_kept_once() {
    let fake = claude(
        "echo 'Invalid API key · Please run /login' >&2\nexit 1",
        Duration::from_secs(10),
    );
    let err = fake.ask(true).await.expect_err("no answer");
    assert!(format!("{err:#}").contains("Invalid API key"), "{err:#}");
    let kept = fake.failure.take().expect("the failure is kept");
    assert!(kept.contains("sign in with /login"), "{kept}");
    assert_eq!(fake.failure.take(), None, "the next run starts without it");
    // Its exit code counts too: 41 is Gemini CLI's "not signed in", for every CLI alike.
    let fake = claude("echo boom >&2\nexit 41", Duration::from_secs(10));
    fake.ask(false).await.expect_err("no answer");
    let kept = fake.failure.take().expect("the failure is kept");
    assert!(kept.starts_with("boom (not signed in?"), "{kept}");
}

#[tokio::test]
async fn a_cli_failing_after_it_began_breaks_the_stream_and_says_why() {
    let fake = claude(
        &format!(
            "{}\necho 'it crashed' >&2\nexit 3",
            printed(&[&delta("Add ")])
        ),
        Duration::from_secs(10),
    );
    let response = fake.ask(true).await.expect("the stream began");
    assert!(response.text().await.is_err(), "the body breaks");
    assert_eq!(fake.failure.take().as_deref(), Some("it crashed"));
}

#[tokio::test]
async fn a_silent_cli_is_stopped_after_the_stall_timeout() {
    let fake = claude("sleep 30", Duration::from_secs(1));
    let started = Instant::now();
    let err = fake.ask(true).await.expect_err("stopped");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(
        format!("{err:#}").contains("printed nothing for 1s"),
        "{err:#}"
    );
}

#[tokio::test]
async fn output_past_eight_megabytes_is_stopped_and_up_to_it_is_read() {
    // 16 bytes a line: 524,288 lines are 8 MiB exactly.
    let lines = |n: usize| format!("yes '{{\"type\":\"ping\"}}' | head -n {n}");
    let over = claude(&lines(524_289), Duration::from_secs(10));
    let err = over.ask(true).await.expect_err("stopped");
    assert!(
        format!("{err:#}").contains("printed more than 8 MB"),
        "{err:#}"
    );
    let at = claude(&lines(524_288), Duration::from_secs(10));
    let err = at.ask(true).await.expect_err("no answer in it");
    assert!(!format!("{err:#}").contains("more than"), "{err:#}");
}

/// Whether the process `pid` still runs, given two seconds to end.
fn still_running(pid: &str) -> bool {
    iris_studio_testkit::still_runs(pid, Duration::from_secs(2))
}

#[tokio::test]
async fn what_the_cli_started_ends_with_its_run() {
    let fake = claude(
        &format!(
            "sleep 60 &\necho $! > \"$(dirname \"$0\")/helper\"\n{}\nsleep 60",
            printed(&[&delta("Add ")])
        ),
        Duration::from_secs(30),
    );
    let response = fake.ask(true).await.expect("the stream began");
    let helper = std::fs::read_to_string(fake.bin.path().join("helper")).unwrap();
    assert!(
        still_running(&helper),
        "the helper runs while the reply does"
    );
    drop(response);
    assert!(
        !still_running(&helper),
        "given up on, the run takes its helper along"
    );
}

#[test]
fn the_cli_gets_none_of_iris_keys_but_its_own() {
    let body =
        serde_json::json!({"model": "default", "messages": [{"role": "user", "content": "x"}]});
    let asked = Asked::from_body(&body).unwrap();
    let removed = |agent: CliAgent| -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let invocation = Invocation::of(agent, &asked, dir.path());
        let command = command(std::path::Path::new("/bin/true"), &invocation);
        command
            .as_std()
            .get_envs()
            .filter(|(_, value)| value.is_none())
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect()
    };
    let claude = removed(CliAgent::ClaudeCode);
    assert!(
        claude.contains(&"ANTHROPIC_API_KEY".to_string()),
        "{claude:?}"
    );
    assert!(claude.contains(&"GEMINI_API_KEY".to_string()), "{claude:?}");
    let gemini = removed(CliAgent::GeminiCli);
    assert!(
        gemini.contains(&"ANTHROPIC_API_KEY".to_string()),
        "{gemini:?}"
    );
    assert!(
        !gemini.contains(&"GEMINI_API_KEY".to_string()),
        "its own: {gemini:?}"
    );
}
