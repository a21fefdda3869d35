//! `iris config init` through the real binary: the user file in a temporary
//! `XDG_CONFIG_HOME`, answers piped to stdin (or typed in a pseudo-terminal), and a fake
//! Ollama on a random port that `OLLAMA_HOST` points at.

use crate::common::Iris;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{TestRepo, stderr, stdout};

const TAGS: &str = r#"{"models":[{"name":"qwen3:0.6b","model":"qwen3:0.6b","size":522653767,"details":{"family":"qwen3","parameter_size":"751.63M"}},{"name":"llama3.2:latest","model":"llama3.2:latest","size":2019393189}]}"#;

/// A fake Ollama on 127.0.0.1 that answers `GET /api/tags`, counting the requests.
struct FakeOllama {
    host: String,
    requests: Arc<AtomicUsize>,
}

impl FakeOllama {
    fn start() -> FakeOllama {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let host = format!("127.0.0.1:{}", listener.local_addr().expect("addr").port());
        let requests = Arc::new(AtomicUsize::new(0));
        let count = Arc::clone(&requests);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
                    head.push(byte[0]);
                }
                let tags = head.starts_with(b"GET /api/tags ");
                if tags {
                    count.fetch_add(1, Ordering::SeqCst);
                }
                let (status, body) = if tags {
                    ("200 OK", TAGS)
                } else {
                    ("404 Not Found", "{}")
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\nContent-Type: application/json\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        FakeOllama { host, requests }
    }

    fn url(&self) -> String {
        format!("http://{}", self.host)
    }
}

fn init(repo: &TestRepo, fake: &FakeOllama, stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut all = vec![("OLLAMA_HOST", fake.host.as_str())];
    all.extend_from_slice(env);
    repo.iris_env(&["config", "init"], &all, stdin)
}

fn user_file(repo: &TestRepo) -> Option<String> {
    std::fs::read_to_string(repo.user_config_path()).ok()
}

#[cfg(unix)]
fn mode(repo: &TestRepo) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(repo.user_config_path())
        .expect("user file")
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn choosing_a_model_of_the_local_ollama_writes_it() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let out = init(&repo, &fake, "2\ny\n", &[]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(fake.requests.load(Ordering::SeqCst), 1);
    // The servers and their models are listed, numbered, on stderr.
    let listed = format!(
        "  Ollama at {}\n    1  qwen3:0.6b\n    2  llama3.2:latest\n",
        fake.url()
    );
    assert!(err.contains(&listed), "{err}");
    assert!(err.contains("  anthropic  claude-sonnet-4-5\n"), "{err}");
    assert!(
        err.contains("  provider = \"ollama\"\n  providers.ollama.model = \"llama3.2:latest\"\n"),
        "the lines are shown before asking: {err}"
    );

    let expected = format!(
        "provider = \"ollama\"\n\n[providers.ollama]\nmodel = \"llama3.2:latest\"\n\
         fast_model = \"llama3.2:latest\"\nbase_url = \"{}\"\n",
        fake.url()
    );
    assert_eq!(user_file(&repo).as_deref(), Some(expected.as_str()));
    #[cfg(unix)]
    assert_eq!(mode(&repo), 0o600);
    let text = stdout(&out);
    assert!(
        text.starts_with("Wrote ~/xdg/iris/config.toml:\n  provider = \"ollama\"\n"),
        "{text}"
    );
    assert!(text.contains("iris studio"), "{text}");
    // OLLAMA_HOST holds the same address: nothing to warn about.
    assert!(!err.contains("note:"), "{err}");

    // The configuration now names that provider and model, from the user file.
    let shown = stdout(&repo.iris_env(&["config"], &[], ""));
    assert!(
        shown.contains("provider = \"ollama\"") && shown.contains("\"llama3.2:latest\""),
        "{shown}"
    );
}

#[test]
fn answering_no_writes_nothing_and_an_existing_provider_is_named() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let original = "# mine\nprovider = \"anthropic\"\n[providers.ollama]\nmodel = \"qwen3:0.6b\"\n";
    let path = repo.user_config_path();
    std::fs::create_dir_all(path.parent().expect("dir")).expect("dir");
    std::fs::write(&path, original).expect("write");

    for no in ["1\nn\n", "1\n\n", "1\nmaybe\nno\n"] {
        let out = init(&repo, &fake, no, &[]);
        let err = stderr(&out);
        assert!(out.status.success(), "{err}");
        assert_eq!(user_file(&repo).as_deref(), Some(original), "{no:?}");
        assert_eq!(stdout(&out), "", "{no:?}");
        assert!(
            err.contains("~/xdg/iris/config.toml already sets provider = \"anthropic\""),
            "{err}"
        );
        assert!(
            err.contains("  provider = \"ollama\"   (now \"anthropic\")\n"),
            "{err}"
        );
        assert!(
            err.contains("  providers.ollama.model = \"qwen3:0.6b\"   (unchanged)\n"),
            "{err}"
        );
        assert!(err.contains("Nothing was written."), "{err}");
    }
}

#[test]
fn a_hosted_provider_with_a_typed_key_stores_it_without_showing_it() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let secret = "sk-ant-TYPED-SECRET-4321";
    // An unclear answer is asked again; the model is edited; an empty key is asked again.
    let answers = format!("nine\nanthropic\nclaude-opus-4-1\n\n{secret}\ny\n");
    let out = init(&repo, &fake, &answers, &[]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(err.contains("`nine` is not one of the choices"), "{err}");
    assert!(err.contains("An API key cannot be empty"), "{err}");
    assert!(
        !text.contains("TYPED-SECRET") && !err.contains("TYPED-SECRET"),
        "the key was shown:\n{text}\n{err}"
    );
    assert!(
        text.contains("  providers.anthropic.api_key = \"****\"\n"),
        "{text}"
    );
    assert_eq!(
        user_file(&repo).as_deref(),
        Some(
            format!(
                "provider = \"anthropic\"\n\n[providers.anthropic]\n\
                 model = \"claude-opus-4-1\"\napi_key = \"{secret}\"\n"
            )
            .as_str()
        )
    );
    #[cfg(unix)]
    assert_eq!(mode(&repo), 0o600);
}

#[test]
fn a_named_service_and_azure_are_set_up_by_name() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    // Groq: its default model, its key found by its own variable.
    let out = init(
        &repo,
        &fake,
        "groq\n\ny\ny\n",
        &[("GROQ_API_KEY", "gsk-env")],
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("GROQ_API_KEY is set"), "{err}");
    assert_eq!(
        user_file(&repo).as_deref(),
        Some("provider = \"groq\"\n\n[providers.groq]\nmodel = \"openai/gpt-oss-120b\"\n")
    );
    // Azure: an https endpoint (plain http is asked again) and the deployment as the model.
    std::fs::remove_file(repo.user_config_path()).expect("remove");
    let answers = "azure\nhttp://acme.openai.azure.com\nhttps://acme.openai.azure.com\n\n\
                   team-gpt\nsk-azure-typed\ny\n";
    let out = init(&repo, &fake, answers, &[]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("is not an https:// address"), "{err}");
    assert!(err.contains("A model is needed"), "{err}");
    let file = user_file(&repo).unwrap_or_default();
    for line in [
        "provider = \"azure\"",
        "model = \"team-gpt\"",
        "base_url = \"https://acme.openai.azure.com\"",
        "api_key = \"sk-azure-typed\"",
    ] {
        assert!(file.contains(line), "{line} in:\n{file}");
    }
}

#[test]
fn a_key_in_the_environment_may_stay_there() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let env = [("GOOGLE_API_KEY", "AIza-ENV-SECRET")];
    let out = init(&repo, &fake, "google\n\n\ny\n", &env);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("GOOGLE_API_KEY is set: use the key from the environment"),
        "{err}"
    );
    assert_eq!(
        user_file(&repo).as_deref(),
        Some("provider = \"gemini\"\n\n[providers.gemini]\nmodel = \"gemini-2.5-pro\"\n")
    );
    assert!(!stdout(&out).contains("ENV-SECRET") && !err.contains("ENV-SECRET"));
}

#[test]
fn a_choice_hidden_by_the_environment_says_so() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let out = init(&repo, &fake, "1\ny\n", &[("IRIS_PROVIDER", "openai")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(user_file(&repo).is_some_and(|t| t.starts_with("provider = \"ollama\"\n")));
    assert_eq!(
        stderr(&out).lines().last(),
        Some("note: env IRIS_PROVIDER takes precedence here, so `provider` stays \"openai\"")
    );
}

/// The question of the list: the fake Ollama's two models, then every hosted provider.
fn choose() -> String {
    format!("Choose 1-{}", 2 + iris_studio_config::setup::hosted().len())
}

#[test]
fn the_end_of_input_writes_nothing() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let choose = choose();
    for (stdin, asked) in [
        ("", choose.as_str()),
        ("1\n", "Write it? [y/N]"),
        ("openai\n\n", "API key for openai"),
    ] {
        let out = init(&repo, &fake, stdin, &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{stdin:?}: {err}");
        assert!(err.contains(asked), "{stdin:?}: {err}");
        assert!(
            err.ends_with("error: no answer before the end of input; nothing was written\n"),
            "{err}"
        );
        assert_eq!(stdout(&out), "");
        assert!(!repo.user_config_path().exists(), "{stdin:?}");
    }
}

#[test]
fn a_broken_user_file_is_reported_and_left_alone() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let path = repo.user_config_path();
    std::fs::create_dir_all(path.parent().expect("dir")).expect("dir");
    std::fs::write(&path, "gitmoji = \"yes\"\n").expect("write");
    let out = init(&repo, &fake, "1\ny\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: ~/xdg/iris/config.toml line 1: key `gitmoji`"),
        "{}",
        stderr(&out)
    );
    assert_eq!(user_file(&repo).as_deref(), Some("gitmoji = \"yes\"\n"));
    assert_eq!(fake.requests.load(Ordering::SeqCst), 0);
}

#[test]
fn without_a_provider_the_commands_point_at_init() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.git(&["add", "a.txt"]);
    let out = repo.iris_env(&["gen"], &[], "");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: no API key for openai: set OPENAI_API_KEY"),
        "{err}"
    );
    assert!(err.contains("or run `iris config init`"), "{err}");
}

/// The key typed at a real terminal: echoed as `*`, backspace works, ctrl-c stops with the
/// terminal restored.
#[cfg(target_os = "linux")]
mod terminal {
    use std::os::fd::{AsRawFd, OwnedFd};
    use std::time::Duration;

    use super::Iris;
    use super::{FakeOllama, user_file};
    use crate::common::TestRepo;
    use crate::common::pty::PtyProgram;

    const TIMEOUT: Duration = Duration::from_secs(30);

    fn spawn(repo: &TestRepo, fake: &FakeOllama) -> PtyProgram {
        let mut command = repo.isolated_iris(&["config", "init"]);
        command.env("OLLAMA_HOST", &fake.host);
        PtyProgram::spawn(command, 100, 30)
    }

    fn wait_for(program: &PtyProgram, text: &str) {
        let found = program.wait_for(TIMEOUT, |screen| screen.contains(text));
        assert!(found.is_some(), "no `{text}` on:\n{}", program.text());
    }

    /// The terminal's line discipline flags (the master reports the slave's settings).
    fn local_flags(master: &OwnedFd) -> libc::tcflag_t {
        // SAFETY: tcgetattr fills the termios it is given; the result is checked.
        unsafe {
            let mut termios: libc::termios = std::mem::zeroed();
            assert_eq!(libc::tcgetattr(master.as_raw_fd(), &mut termios), 0);
            termios.c_lflag
        }
    }

    fn wait_exit(program: &mut PtyProgram) -> Option<i32> {
        let deadline = std::time::Instant::now() + TIMEOUT;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = program.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("iris config init did not exit:\n{}", program.text());
    }

    #[test]
    fn the_key_is_masked_as_it_is_typed() {
        let repo = TestRepo::new();
        let fake = FakeOllama::start();
        let mut program = spawn(&repo, &fake);
        wait_for(&program, &super::choose());
        program.send(b"anthropic\r");
        wait_for(&program, "Model [claude-sonnet-4-5]:");
        program.send(b"\r");
        wait_for(&program, "API key for anthropic");
        program.send(b"sk-ant-PTY-SECRETX");
        wait_for(&program, &"*".repeat(18));
        assert_eq!(
            local_flags(&program.master) & (libc::ICANON | libc::ECHO),
            0,
            "raw mode while the key is typed"
        );
        // Backspace (DEL) erases the X and its star.
        program.send(b"\x7f");
        let erased = program.wait_for(TIMEOUT, |screen| {
            screen.lines().any(|line| {
                line.starts_with("API key for anthropic")
                    && line.trim_end().ends_with(&"*".repeat(17))
                    && !line.contains(&"*".repeat(18))
            })
        });
        assert!(erased.is_some(), "{}", program.text());
        program.send(b"\r");
        wait_for(&program, "Write it? [y/N]");
        program.send(b"y\r");
        assert_eq!(wait_exit(&mut program), Some(0), "{}", program.text());
        let all = String::from_utf8_lossy(&program.bytes()).into_owned();
        assert!(!all.contains("PTY-SECRET"), "the key was echoed:\n{all}");
        let text = user_file(&repo).expect("written");
        assert!(text.contains("api_key = \"sk-ant-PTY-SECRET\"\n"), "{text}");
        let flags = local_flags(&program.master);
        assert_ne!(flags & libc::ICANON, 0, "canonical mode restored");
        assert_ne!(flags & libc::ECHO, 0, "echo restored");
    }

    #[test]
    fn ctrl_c_while_typing_the_key_writes_nothing_and_restores_the_terminal() {
        let repo = TestRepo::new();
        let fake = FakeOllama::start();
        let mut program = spawn(&repo, &fake);
        wait_for(&program, &super::choose());
        program.send(b"openai\r");
        wait_for(&program, "Model [gpt-5]:");
        program.send(b"\r");
        wait_for(&program, "API key for openai");
        program.send(b"sk-half");
        wait_for(&program, "*******");
        program.send(b"\x03");
        assert_eq!(wait_exit(&mut program), Some(130), "{}", program.text());
        wait_for(&program, "interrupted; nothing was written");
        assert_eq!(user_file(&repo), None);
        let flags = local_flags(&program.master);
        assert_ne!(flags & libc::ICANON, 0, "canonical mode restored");
        assert_ne!(flags & libc::ECHO, 0, "echo restored");
    }
}

#[test]
fn a_command_line_agent_on_path_is_offered_and_written_without_a_key() {
    let repo = TestRepo::new();
    let fake = FakeOllama::start();
    let bin = crate::common::fake_bin(&[("claude", "exit 0")]);
    let path = crate::common::path_with(bin.path());
    let out = init(
        &repo,
        &fake,
        "3\ny\n",
        &[("PATH", path.to_str().expect("utf-8 PATH"))],
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("    3  claude-code runs `claude`, your Claude plan pays\n"),
        "{err}"
    );
    assert!(!err.contains("API key for"), "no key is asked: {err}");
    let written = user_file(&repo).unwrap_or_default();
    assert!(
        written.starts_with("provider = \"claude-code\"\n"),
        "{written}"
    );
    assert!(written.contains("model = \"default\""), "{written}");
}
