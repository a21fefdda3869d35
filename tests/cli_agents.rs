//! `claude-code`, `codex` and `gemini-cli` as Iris' model: the real binary runs fake CLIs on
//! PATH that print what the documented ones print (each output format, a sign-in failure, a
//! silence), and each fake keeps what it was given (its arguments a line each, its standard
//! input, its environment and directory) for the test to check.

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::agent::write_user_config;
use crate::common::{Iris, TestRepo, fake_bin, path_with, stderr, stdout, still_runs};

const TITLE: &str = "Add a greeting";
const MESSAGE: &str = r#"{"emoji": null, "title": "Add a greeting", "message": "Prints hello."}"#;

fn staged_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("main.rs", "fn main() {}\n");
    repo.commit_all("Initial commit");
    repo.write("main.rs", "fn main() {\n    println!(\"hello\");\n}\n");
    repo.git(&["add", "main.rs"]);
    repo
}

/// A fake `program` that keeps what it was given beside itself, then runs `then`.
fn fake(program: &str, then: &str) -> tempfile::TempDir {
    let body = format!(
        "LOG=$(dirname \"$0\")\n\
         printf '%s\\n' \"$@\" > \"$LOG/args\"\n\
         cat > \"$LOG/stdin\"\n\
         env > \"$LOG/env\"\n\
         pwd > \"$LOG/pwd\"\n\
         {then}"
    );
    fake_bin(&[(program, &body)])
}

/// Whether the process `pid` still runs, given a second to end.
fn running(pid: &str) -> bool {
    still_runs(pid, Duration::from_secs(1))
}

fn kept(dir: &tempfile::TempDir, name: &str) -> String {
    std::fs::read_to_string(dir.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `iris gen --print ARGS` with `provider` and the fake first on PATH; a key of Iris' own in
/// the environment, which the CLI must not see.
fn gen_with(repo: &TestRepo, provider: &str, bin: &Path, args: &[&str]) -> Output {
    let mut full = vec!["gen", "--print", "--provider", provider];
    full.extend_from_slice(args);
    let path = path_with(bin);
    repo.iris_env_within(
        &full,
        &[
            ("PATH", path.to_str().expect("utf-8 PATH")),
            ("ANTHROPIC_API_KEY", "sk-ant-iris-own-key"),
            ("OPENAI_API_KEY", "sk-iris-own-key"),
            ("GEMINI_API_KEY", "gm-users-gemini-key"),
        ],
        Duration::from_secs(60),
    )
}

/// A JSON string of `text`, for the fakes' output.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("json")
}

fn claude_result(text: &str) -> String {
    format!(
        r#"{{"type":"result","subtype":"success","is_error":false,"result":{},"total_cost_usd":0.0042,"usage":{{"input_tokens":1200,"cache_read_input_tokens":300,"output_tokens":30}}}}"#,
        quoted(text)
    )
}

#[test]
fn claude_code_writes_the_message_from_the_evidence_with_no_tools_and_no_iris_key() {
    let repo = staged_repo();
    let (head, tail) = MESSAGE.split_at(30);
    let delta = |text: &str| {
        format!(
            r#"{{"type":"stream_event","event":{{"type":"content_block_delta","index":0,"delta":{{"type":"text_delta","text":{}}}}}}}"#,
            quoted(text)
        )
    };
    let script = format!(
        "case \"$*\" in\n\
         *stream-json*) printf '%s\\n' '{{\"type\":\"system\",\"subtype\":\"init\",\"tools\":[]}}' '{}' '{}' '{}' ;;\n\
         *) printf '%s\\n' '{}' ;;\n\
         esac",
        delta(head),
        delta(tail),
        claude_result(MESSAGE),
        claude_result(MESSAGE),
    );
    let claude = fake("claude", &script);
    for args in [&[][..], &["--no-stream"][..]] {
        let out = gen_with(&repo, "claude-code", claude.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out).trim_end(), format!("{TITLE}\n\nPrints hello."));
        let given = kept(&claude, "args");
        let arg_lines: Vec<&str> = given.lines().collect();
        assert_eq!(arg_lines[0], "-p");
        assert!(arg_lines.contains(&"--tools="), "{given}");
        assert!(arg_lines.contains(&"--no-session-persistence"));
        assert_eq!(
            arg_lines.contains(&"stream-json"),
            args.is_empty(),
            "{given}"
        );
        // The instructions: Iris' own, the schema in words, no tools to call.
        assert!(given.contains("You are Iris"), "{given}");
        assert!(given.contains("matching this JSON schema"), "{given}");
        assert!(given.contains("no tools to call"), "{given}");
        // The request with its evidence, on standard input.
        let prompt = kept(&claude, "stdin");
        assert!(prompt.contains("println!(\"hello\")"), "{prompt}");
        // None of Iris' keys, and not in the repository.
        let env = kept(&claude, "env");
        assert!(!env.contains("sk-ant-iris-own-key") && !env.contains("sk-iris-own-key"));
        assert!(!env.contains("gm-users-gemini-key"), "{env}");
        assert!(!env.contains("IRIS_"), "{env}");
        let pwd = kept(&claude, "pwd");
        assert!(
            !pwd.trim().starts_with(repo.path().to_str().unwrap()),
            "{pwd}"
        );
    }
}

#[test]
fn codex_answers_through_its_events_with_the_schema_as_a_file() {
    let repo = staged_repo();
    let events = [
        r#"{"type":"thread.started","thread_id":"t1"}"#.to_string(),
        r#"{"type":"turn.started"}"#.to_string(),
        r#"{"type":"error","message":"Reconnecting... 1/5"}"#.to_string(),
        format!(
            r#"{{"type":"item.completed","item":{{"id":"i1","type":"agent_message","text":{}}}}}"#,
            quoted(MESSAGE)
        ),
        r#"{"type":"turn.completed","usage":{"input_tokens":900,"cached_input_tokens":800,"output_tokens":40}}"#.to_string(),
    ];
    let printed: String = events.iter().map(|e| format!(" '{e}'")).collect();
    let codex = fake(
        "codex",
        &format!(
            "while [ $# -gt 0 ]; do [ \"$1\" = --output-schema ] && cp \"$2\" \"$LOG/schema\"; shift; done\n\
             printf '%s\\n'{printed}"
        ),
    );
    let out = gen_with(&repo, "codex", codex.path(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim_end(), format!("{TITLE}\n\nPrints hello."));
    let given = kept(&codex, "args");
    assert!(given.starts_with("exec\n--json\n"), "{given}");
    assert!(
        given.contains("\nread-only\n") && given.contains("\nshell_tool\n"),
        "{given}"
    );
    assert!(
        given
            .lines()
            .any(|l| l.starts_with("developer_instructions=")),
        "{given}"
    );
    let schema: serde_json::Value =
        serde_json::from_str(&kept(&codex, "schema")).expect("the schema file is JSON");
    assert!(schema["properties"]["title"].is_object(), "{schema}");
    assert!(kept(&codex, "stdin").contains("println!(\"hello\")"));
}

#[test]
fn gemini_cli_streams_its_messages_with_its_tools_off() {
    let repo = staged_repo();
    let (head, tail) = MESSAGE.split_at(20);
    let lines = [
        r#"{"type":"init","session_id":"s","model":"gemini-2.5-flash"}"#.to_string(),
        format!(
            r#"{{"type":"message","role":"assistant","content":{},"delta":true}}"#,
            quoted(head)
        ),
        format!(
            r#"{{"type":"message","role":"assistant","content":{},"delta":true}}"#,
            quoted(tail)
        ),
        r#"{"type":"result","status":"success","stats":{"input_tokens":700,"output_tokens":20}}"#
            .to_string(),
    ];
    let printed: String = lines.iter().map(|e| format!(" '{e}'")).collect();
    let gemini = fake(
        "gemini",
        &format!(
            "cp \"$GEMINI_CLI_SYSTEM_SETTINGS_PATH\" \"$LOG/settings\"\n\
             cp \"$GEMINI_SYSTEM_MD\" \"$LOG/system\"\n\
             printf '%s\\n'{printed}"
        ),
    );
    let out = gen_with(&repo, "gemini-cli", gemini.path(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim_end(), format!("{TITLE}\n\nPrints hello."));
    assert_eq!(
        kept(&gemini, "args").lines().collect::<Vec<_>>(),
        ["--output-format", "stream-json"]
    );
    assert!(kept(&gemini, "settings").contains(r#""core":[]"#));
    // Gemini CLI may sign in with GEMINI_API_KEY: it is its own, left to it; no other key is.
    let env = kept(&gemini, "env");
    assert!(env.contains("GEMINI_API_KEY=gm-users-gemini-key"), "{env}");
    assert!(!env.contains("sk-ant-iris-own-key"), "{env}");
    assert!(kept(&gemini, "system").contains("You are Iris"));
}

#[test]
fn a_cli_not_signed_in_or_not_installed_says_what_fixes_it() {
    let repo = staged_repo();
    let claude = fake(
        "claude",
        r#"echo '{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login","total_cost_usd":0}'; exit 1"#,
    );
    let out = gen_with(&repo, "claude-code", claude.path(), &["--no-stream"]);
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(
        said.contains("error: claude-code default: Invalid API key · Please run /login"),
        "{said}"
    );
    assert!(said.contains("sign in with /login"), "{said}");

    let gemini = fake(
        "gemini",
        "echo 'Please set an Auth method in your settings.json or specify GEMINI_API_KEY' >&2; exit 41",
    );
    let out = gen_with(&repo, "gemini-cli", gemini.path(), &[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Please set an Auth method"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("run `gemini`"), "{}", stderr(&out));

    let empty = tempfile::tempdir().expect("dir");
    let out = gen_with(&repo, "codex", empty.path(), &[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("`codex` was not found on PATH")
            && stderr(&out).contains("npm install -g @openai/codex"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_silent_cli_is_stopped_after_the_stall_timeout() {
    let repo = staged_repo();
    write_user_config(&repo, "request_timeout_secs = 1\n");
    let claude = fake("claude", "echo $$ > \"$LOG/pid\"\nexec sleep 30");
    let started = Instant::now();
    let out = gen_with(&repo, "claude-code", claude.path(), &[]);
    assert!(!out.status.success());
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stderr(&out).contains("printed nothing for 1s"),
        "{}",
        stderr(&out)
    );
    // The command is gone with the run.
    assert!(!running(&kept(&claude, "pid")), "still running");
}

#[test]
fn a_secret_in_the_change_never_reaches_the_cli() {
    let repo = staged_repo();
    let (_, line, secret) = crate::common::secrets::leaks()
        .into_iter()
        .find(|(rule, _, _)| *rule == "github-token")
        .expect("a GitHub token");
    repo.write("config.txt", format!("{line}\n"));
    repo.git(&["add", "config.txt"]);
    let claude = fake(
        "claude",
        &format!("printf '%s\\n' '{}'", claude_result(MESSAGE)),
    );
    let out = gen_with(&repo, "claude-code", claude.path(), &["--no-stream"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let prompt = kept(&claude, "stdin");
    assert!(
        prompt.contains("config.txt"),
        "the file is in the evidence: {prompt}"
    );
    assert!(!prompt.contains(&secret));
    assert!(!kept(&claude, "args").contains(&secret));
}

#[test]
fn a_cli_that_talks_without_answering_is_stopped_at_the_run_s_deadline() {
    let repo = staged_repo();
    write_user_config(&repo, "run_timeout_secs = 2\n");
    let claude = fake(
        "claude",
        "echo $$ > \"$LOG/pid\"\n\
         while :; do echo '{\"type\":\"system\",\"subtype\":\"status\"}'; sleep 0.2; done",
    );
    let started = Instant::now();
    let out = gen_with(&repo, "claude-code", claude.path(), &[]);
    assert!(!out.status.success());
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stderr(&out).contains("run_timeout_secs"),
        "{}",
        stderr(&out)
    );
    assert!(!running(&kept(&claude, "pid")), "still running");
}

#[test]
fn a_cli_reply_that_repeats_itself_is_cut_and_the_cli_stopped() {
    let repo = staged_repo();
    // The same sentence streamed as deltas for as long as it is read.
    let delta = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"This is the first version of the version. "}}}"#;
    let claude = fake(
        "claude",
        &format!(
            "echo $$ > \"$LOG/pid\"\n\
             echo '{{\"type\":\"stream_event\",\"event\":{{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"{{\\\"title\\\": \\\"Add\\\", \\\"message\\\": \\\"\"}}}}}}'\n\
             while :; do echo '{delta}'; sleep 0.005; done"
        ),
    );
    let started = Instant::now();
    let out = gen_with(&repo, "claude-code", claude.path(), &[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("repeats itself"), "{}", stderr(&out));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(!running(&kept(&claude, "pid")), "still running");
}

#[test]
fn a_cli_that_fails_after_it_began_to_answer_says_why() {
    let repo = staged_repo();
    let delta = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"{\"title\": "}}}"#;
    let failed = r#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 Overloaded","total_cost_usd":0}"#;
    let claude = fake(
        "claude",
        &format!("printf '%s\\n' '{delta}' '{failed}'; exit 1"),
    );
    let out = gen_with(&repo, "claude-code", claude.path(), &[]);
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(
        said.contains("error: claude-code default: API Error: 529 Overloaded"),
        "{said}"
    );
}

#[test]
fn gemini_cli_answers_in_one_object_and_the_critic_runs_on_the_cli_too() {
    let repo = staged_repo();
    let verdict =
        r#"{"requires_revision": false, "issues": [], "revision_prompt": "", "confidence": 0.9}"#;
    let object = |text: &str| {
        serde_json::json!({"session_id": "s", "response": text,
            "stats": {"models": {"gemini-2.5-flash": {"tokens": {"prompt": 700, "candidates": 20}}}}})
        .to_string()
    };
    // The message first, then the critic's verdict.
    let gemini = fake(
        "gemini",
        &format!(
            "n=$(cat \"$LOG/count\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$LOG/count\"\n\
             if [ $n = 1 ]; then printf '%s\\n' '{}'; else printf '%s\\n' '{}'; fi",
            object(MESSAGE),
            object(verdict)
        ),
    );
    let out = gen_with(
        &repo,
        "gemini-cli",
        gemini.path(),
        &["--no-stream", "--critic"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim_end(), format!("{TITLE}\n\nPrints hello."));
    assert_eq!(
        kept(&gemini, "args").lines().collect::<Vec<_>>(),
        ["--output-format", "json"]
    );
    assert_eq!(
        kept(&gemini, "count").trim(),
        "2",
        "the message, then the critic"
    );
}
