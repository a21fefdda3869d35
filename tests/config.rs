//! `iris config` and configuration loading, through the real binary: precedence, file errors,
//! masked keys, `config set`, and the trust `iris tool` takes from the configuration.

use crate::common::Iris;

use std::process::Output;

use crate::common::{TestRepo, stderr, stdout};

const USER_FILE: &str = "user file ~/xdg/iris/config.toml";

fn write_user_config(repo: &TestRepo, text: &str) {
    let path = repo.user_config_path();
    std::fs::create_dir_all(path.parent().expect("parent")).expect("config dir");
    std::fs::write(path, text).expect("write user config");
}

/// `iris ARGS` with `env`, which must succeed; returns stdout.
fn iris_ok(repo: &TestRepo, args: &[&str], env: &[(&str, &str)]) -> String {
    let out = repo.iris_env(args, env, "");
    assert!(
        out.status.success(),
        "iris {args:?} failed ({:?}): {}",
        out.status.code(),
        stderr(&out)
    );
    stdout(&out)
}

/// The value and source `iris config` shows for a key.
fn shown(config_output: &str, key: &str) -> (String, String) {
    let prefix = format!("{key} = ");
    let line = config_output
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no line for {key} in:\n{config_output}"));
    let (assignment, source) = line.split_once("  # ").expect("a source comment");
    (
        assignment[prefix.len()..].trim().to_string(),
        source.to_string(),
    )
}

/// A failure that must be exit 2 with one line on stderr; returns that line.
fn config_failure(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err.trim().to_string()
}

#[test]
fn each_source_overrides_the_one_below_and_says_so() {
    let repo = TestRepo::new();
    write_user_config(
        &repo,
        "provider = \"anthropic\"\npreset = \"user-preset\"\ngitmoji = true\n\
         [providers.anthropic]\nmodel = \"user-model\"\n",
    );
    let out = iris_ok(&repo, &["config"], &[]);
    assert_eq!(
        shown(&out, "provider"),
        ("\"anthropic\"".into(), USER_FILE.into())
    );
    assert_eq!(
        shown(&out, "providers.anthropic.model"),
        ("\"user-model\"".into(), USER_FILE.into())
    );
    assert_eq!(
        shown(&out, "critic_enabled"),
        ("true".into(), "default".into())
    );

    repo.write(".irisconfig", "provider = \"ollama\"\npreset = \"team\"\n");
    let project = "project file ~/repo/.irisconfig";
    let out = iris_ok(&repo, &["config"], &[]);
    assert_eq!(
        shown(&out, "provider"),
        ("\"ollama\"".into(), project.into())
    );
    assert_eq!(shown(&out, "preset"), ("\"team\"".into(), project.into()));
    assert_eq!(shown(&out, "gitmoji"), ("true".into(), USER_FILE.into()));

    let env = [
        ("IRIS_PROVIDER", "anthropic"),
        ("IRIS_MODEL", "env-model"),
        ("IRIS_GITMOJI", "false"),
    ];
    let out = iris_ok(&repo, &["config"], &env);
    assert_eq!(
        shown(&out, "provider"),
        ("\"anthropic\"".into(), "env IRIS_PROVIDER".into())
    );
    assert_eq!(
        shown(&out, "providers.anthropic.model"),
        ("\"env-model\"".into(), "env IRIS_MODEL".into())
    );
    assert_eq!(
        shown(&out, "gitmoji"),
        ("false".into(), "env IRIS_GITMOJI".into())
    );
    assert_eq!(shown(&out, "preset"), ("\"team\"".into(), project.into()));

    let flags = [
        "config",
        "--provider",
        "google",
        "--model",
        "flag-model",
        "--preset",
        "flag-preset",
        "--gitmoji",
    ];
    let out = iris_ok(&repo, &flags, &env);
    assert_eq!(
        shown(&out, "provider"),
        ("\"gemini\"".into(), "flag --provider".into())
    );
    assert_eq!(
        shown(&out, "providers.gemini.model"),
        ("\"flag-model\"".into(), "flag --model".into())
    );
    assert_eq!(
        shown(&out, "preset"),
        ("\"flag-preset\"".into(), "flag --preset".into())
    );
    assert_eq!(
        shown(&out, "gitmoji"),
        ("true".into(), "flag --gitmoji".into())
    );
    // The model variable follows the selected provider; anthropic keeps its file value.
    assert_eq!(
        shown(&out, "providers.anthropic.model"),
        ("\"user-model\"".into(), USER_FILE.into())
    );
}

#[test]
fn provider_variables_set_keys_and_urls() {
    let repo = TestRepo::new();
    let env = [
        ("ANTHROPIC_BASE_URL", "https://proxy.example/v1"),
        ("OLLAMA_HOST", "localhost:11434"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1"),
        ("GOOGLE_API_KEY", "AIza-test-value"),
    ];
    let out = iris_ok(&repo, &["config"], &env);
    assert_eq!(
        shown(&out, "providers.anthropic.base_url"),
        (
            "\"https://proxy.example/v1\"".into(),
            "env ANTHROPIC_BASE_URL".into()
        )
    );
    assert_eq!(
        shown(&out, "providers.ollama.base_url"),
        (
            "\"http://localhost:11434\"".into(),
            "env OLLAMA_HOST".into()
        )
    );
    assert_eq!(
        shown(&out, "providers.openai-compatible.base_url"),
        (
            "\"http://127.0.0.1:8000/v1\"".into(),
            "env OPENAI_BASE_URL".into()
        )
    );
    assert_eq!(
        shown(&out, "providers.gemini.api_key"),
        ("\"****\"".into(), "env GOOGLE_API_KEY".into())
    );
    assert!(out.contains("# providers.anthropic.api_key is not set (ANTHROPIC_API_KEY)"));
}

#[test]
fn config_works_outside_a_repository_without_a_project_file() {
    let repo = TestRepo::new();
    let outside = repo.path().parent().expect("temp").join("elsewhere");
    std::fs::create_dir(&outside).expect("dir");
    let out = repo.iris_in(&outside, &["config"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("# project file: none\n"), "{text}");
    assert_eq!(
        shown(&text, "provider"),
        ("\"openai\"".into(), "default".into())
    );
}

#[test]
fn a_malformed_user_file_names_the_file_and_line() {
    let repo = TestRepo::new();
    write_user_config(
        &repo,
        "provider = \"openai\"\n\n[providers.openai\nmodel = \"x\"\n",
    );
    let err = config_failure(&repo.iris_env(&["config"], &[], ""));
    assert!(
        err.starts_with("error: ~/xdg/iris/config.toml line 3:"),
        "{err}"
    );
    // The tools read the configuration too, and fail the same way.
    let err = config_failure(&repo.iris_env(&["tool", "git_status"], &[], ""));
    assert!(err.contains("config.toml line 3"), "{err}");
}

#[test]
fn an_unknown_key_or_a_wrong_type_names_the_key_and_line() {
    let repo = TestRepo::new();
    write_user_config(&repo, "provider = \"openai\"\n# comment\ngitmojj = true\n");
    let err = config_failure(&repo.iris_env(&["config"], &[], ""));
    assert_eq!(
        err,
        "error: ~/xdg/iris/config.toml line 3: key `gitmojj`: unknown key; did you mean `gitmoji`?"
    );

    write_user_config(
        &repo,
        "[providers.anthropic]\nmodel = \"m\"\ntemperature = 0.2\n",
    );
    let err = config_failure(&repo.iris_env(&["config"], &[], ""));
    assert!(
        err.starts_with(
            "error: ~/xdg/iris/config.toml line 3: key `providers.anthropic.temperature`: unknown key"
        ),
        "{err}"
    );

    write_user_config(&repo, "preset = \"p\"\n\ngitmoji = \"yes\"\n");
    let err = config_failure(&repo.iris_env(&["config"], &[], ""));
    assert_eq!(
        err,
        "error: ~/xdg/iris/config.toml line 3: key `gitmoji`: expected a boolean (true or false)"
    );
}

#[test]
fn an_api_key_in_the_project_file_is_refused_without_echoing_it() {
    let repo = TestRepo::new();
    repo.write(
        ".irisconfig",
        "preset = \"team\"\n[providers.anthropic]\napi_key = \"sk-ant-PROJECT-SECRET\"\n",
    );
    let out = repo.iris_env(&["config"], &[], "");
    let err = config_failure(&out);
    assert!(
        err.starts_with(
            "error: ~/repo/.irisconfig line 3: key `providers.anthropic.api_key`: API keys are never read from a project file"
        ),
        "{err}"
    );
    assert!(
        err.contains("user config") && err.contains("ANTHROPIC_API_KEY"),
        "{err}"
    );
    assert!(!stdout(&out).contains("SECRET") && !err.contains("SECRET"));
}

#[test]
fn keys_are_masked_in_output_errors_and_debug_traces() {
    let repo = TestRepo::new();
    write_user_config(
        &repo,
        "[providers.openai]\napi_key = \"sk-USER-SECRET-1\"\n",
    );
    let env = [
        ("ANTHROPIC_API_KEY", "sk-ant-ENV-SECRET-2"),
        ("GEMINI_API_KEY", "ENV-SECRET-3"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
    ];
    let runs = [
        repo.iris_env(&["config"], &env, ""),
        repo.iris_env(&["--debug", "config", "--provider", "anthropic"], &env, ""),
        repo.iris_env(&["--debug", "tool", "git_status"], &env, ""),
    ];
    for out in &runs {
        assert!(out.status.success(), "{}", stderr(out));
        let all = format!("{}{}", stdout(out), stderr(out));
        assert!(!all.contains("SECRET"), "a key leaked:\n{all}");
    }
    let text = stdout(&runs[0]);
    assert_eq!(
        shown(&text, "providers.openai.api_key"),
        ("\"****\"".into(), USER_FILE.into())
    );
    assert_eq!(
        shown(&text, "providers.anthropic.api_key"),
        ("\"****\"".into(), "env ANTHROPIC_API_KEY".into())
    );
    // openai-compatible borrows OPENAI_API_KEY only when no file speaks: the user file's
    // key is OpenAI's, not the compatible server's.
    assert!(
        text.contains("# providers.openai-compatible.api_key is not set"),
        "{text}"
    );
    // The debug runs did trace the configuration (with the keys masked).
    for out in &runs[1..] {
        let err = stderr(out);
        assert!(
            err.contains("configuration loaded") && err.contains("****"),
            "{err}"
        );
    }

    // A syntax error on a key's line names the key but not the value.
    write_user_config(&repo, "[providers.openai]\napi_key = sk-UNQUOTED-SECRET\n");
    let out = repo.iris_env(&["config"], &[], "");
    let err = config_failure(&out);
    assert!(err.contains("line 2: key `api_key`"), "{err}");
    assert!(!err.contains("SECRET"), "{err}");
}

#[test]
fn config_set_round_trips_and_keeps_comments() {
    let repo = TestRepo::new();
    let original = "# Iris, my way\nprovider = \"openai\" # for now\n\n\
                    [providers.anthropic]\n# pinned for the team\nmodel = \"claude-sonnet-4-5\"\n";
    write_user_config(&repo, original);

    let out = iris_ok(
        &repo,
        &["config", "set", "anthropic.model", "claude-opus-4-1"],
        &[],
    );
    assert_eq!(
        out,
        "providers.anthropic.model = \"claude-opus-4-1\" in ~/xdg/iris/config.toml\n"
    );
    iris_ok(&repo, &["config", "set", "provider", "anthropic"], &[]);
    iris_ok(
        &repo,
        &[
            "config",
            "set",
            "providers.anthropic.fast_model",
            "claude-haiku-4-5",
        ],
        &[],
    );
    iris_ok(&repo, &["config", "set", "max_turns", "30"], &[]);
    let text = std::fs::read_to_string(repo.user_config_path()).expect("user file");
    assert_eq!(
        text,
        "# Iris, my way\nprovider = \"anthropic\" # for now\nmax_turns = 30\n\n\
         [providers.anthropic]\n# pinned for the team\nmodel = \"claude-opus-4-1\"\n\
         fast_model = \"claude-haiku-4-5\"\n"
    );
    let out = iris_ok(&repo, &["config"], &[]);
    assert_eq!(
        shown(&out, "providers.anthropic.model"),
        ("\"claude-opus-4-1\"".into(), USER_FILE.into())
    );
    assert_eq!(shown(&out, "max_turns"), ("30".into(), USER_FILE.into()));

    // The project file takes style settings.
    iris_ok(
        &repo,
        &["config", "set", "--project", "preset", "conventional"],
        &[],
    );
    let project = std::fs::read_to_string(repo.path().join(".irisconfig")).expect("project file");
    assert_eq!(project, "preset = \"conventional\"\n");
}

#[test]
fn config_set_says_when_a_higher_source_still_wins() {
    let repo = TestRepo::new();
    let out = repo.iris_env(
        &["config", "set", "provider", "ollama"],
        &[("IRIS_PROVIDER", "anthropic")],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "note: env IRIS_PROVIDER takes precedence here, so `provider` stays \"anthropic\"\n"
    );
}

#[test]
fn config_set_refuses_bad_keys_and_values_with_exit_2() {
    let repo = TestRepo::new();
    let cases: [(&[&str], &str); 6] = [
        (
            &["config", "set", "gitmojii", "true"],
            "error: unknown key `gitmojii`; did you mean `gitmoji`?",
        ),
        (
            &["config", "set", "providers.claude.model", "x"],
            "error: unknown key `providers.claude.model`;",
        ),
        (
            &["config", "set", "gitmoji", "sometimes"],
            "error: bad value `sometimes` for `gitmoji`: expected a boolean (true or false)",
        ),
        (
            &["config", "set", "provider", "claude"],
            "error: bad value `claude` for `provider`: expected one of openai, anthropic",
        ),
        (
            &["config", "set", "ollama.base_url", "not a url"],
            "error: bad value `not a url` for `providers.ollama.base_url`: expected a URL",
        ),
        (
            &[
                "config",
                "set",
                "--project",
                "anthropic.api_key",
                "sk-PROJECT-SECRET",
            ],
            "error: cannot set `providers.anthropic.api_key` in .irisconfig: API keys are never read from a project file",
        ),
    ];
    for (args, expected) in cases {
        let out = repo.iris_env(args, &[], "");
        let err = config_failure(&out);
        assert!(err.starts_with(expected), "{args:?}: {err}");
        assert!(!err.contains("SECRET"), "{err}");
    }
    assert!(!repo.user_config_path().exists());
    assert!(!repo.path().join(".irisconfig").exists());
}

#[test]
fn config_set_reads_a_key_from_stdin_and_keeps_the_file_private() {
    let repo = TestRepo::new();
    let out = repo.iris_env(
        &["config", "set", "openai.api_key", "-"],
        &[],
        "sk-STDIN-SECRET\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "providers.openai.api_key = \"****\" in ~/xdg/iris/config.toml\n"
    );
    let path = repo.user_config_path();
    let text = std::fs::read_to_string(&path).expect("user file");
    assert_eq!(text, "[providers.openai]\napi_key = \"sk-STDIN-SECRET\"\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let out = iris_ok(&repo, &["config"], &[]);
    assert!(!out.contains("SECRET"));
    assert_eq!(
        shown(&out, "providers.openai.api_key"),
        ("\"****\"".into(), USER_FILE.into())
    );
}

#[test]
fn tools_take_their_trust_from_the_configuration() {
    const UNTRUSTED: &str = "static_analysis was not run: this repository is not trusted";
    let repo = TestRepo::new();
    // A Python project, on a PATH with no analyzer: trusted, the tool says none is installed.
    repo.write("pyproject.toml", "[project]\nname = \"x\"\n");
    let empty_bin = repo.path().parent().expect("temp").join("empty-bin");
    std::fs::create_dir(&empty_bin).expect("bin dir");
    let empty_path = empty_bin.display().to_string();
    let run = |env: &[(&str, &str)], extra: &[&str]| {
        let mut args = vec!["tool"];
        args.extend_from_slice(extra);
        args.push("static_analysis");
        let mut env = env.to_vec();
        env.push(("PATH", &empty_path));
        iris_ok(&repo, &args, &env)
    };
    assert!(run(&[], &[]).starts_with(UNTRUSTED));

    write_user_config(&repo, "trust_repo = true\n");
    let trusted = run(&[], &[]);
    assert!(
        trusted.starts_with("== Python: no analyzer installed"),
        "{trusted}"
    );
    // The environment beats the user file, and the flag beats the environment.
    assert!(run(&[("IRIS_TRUST_REPO", "0")], &[]).starts_with(UNTRUSTED));
    let flagged = run(&[("IRIS_TRUST_REPO", "0")], &["--trust-repo"]);
    assert!(
        flagged.starts_with("== Python: no analyzer installed"),
        "{flagged}"
    );

    // A repository cannot trust itself.
    write_user_config(&repo, "");
    repo.write(".irisconfig", "trust_repo = true\n");
    let err = config_failure(&repo.iris_env(&["tool", "static_analysis"], &[], ""));
    assert!(err.contains("a repository cannot trust itself"), "{err}");
}

#[test]
fn config_says_whether_the_server_is_local_and_why() {
    let repo = TestRepo::new();
    let line = |out: &str, provider: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("# {provider} is ")))
            .unwrap_or_else(|| panic!("no locality line in:\n{out}"))
            .to_string()
    };
    let compat = [
        ("IRIS_PROVIDER", "openai-compatible"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:4000/v1"),
    ];
    let out = iris_ok(&repo, &["config"], &compat);
    assert!(
        line(&out, "openai-compatible").contains("is local: 127.0.0.1 is this machine"),
        "{out}"
    );
    // A LiteLLM proxy on loopback in front of a paid API says so.
    write_user_config(&repo, "[providers.openai-compatible]\nlocal = false\n");
    let out = iris_ok(&repo, &["config"], &compat);
    assert!(
        line(&out, "openai-compatible").contains("is hosted: set in your config (local = false)"),
        "{out}"
    );
    assert_eq!(
        shown(&out, "providers.openai-compatible.local"),
        ("false".into(), USER_FILE.into())
    );
    // A named service: hosted by its address, its key's variable named, no other service's
    // unset keys listed.
    let out = iris_ok(&repo, &["config"], &[("IRIS_PROVIDER", "groq")]);
    assert!(
        line(&out, "groq").contains("is hosted: api.groq.com is a hosted service"),
        "{out}"
    );
    assert!(
        out.contains("# providers.groq.api_key is not set (GROQ_API_KEY)"),
        "{out}"
    );
    assert!(!out.contains("providers.mistral."), "{out}");
    // A project cannot make its server free.
    std::fs::write(
        repo.path().join(".irisconfig"),
        "[providers.openai-compatible]\nlocal = true\n",
    )
    .expect("project file");
    let err = config_failure(&repo.iris_env(&["config"], &compat, ""));
    assert!(err.contains("cannot say a server is local"), "{err}");
}

/// A misspelt provider or preset gets the name it likeliest means, as a misspelt revision
/// does; the request is never sent.
#[test]
fn a_misspelt_provider_or_preset_gets_a_did_you_mean() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.git(&["add", "a.txt"]);
    let env = [("OPENAI_API_KEY", "sk-unused")];
    for (args, says) in [
        (
            &["gen", "--dry-run", "--provider", "openruoter"][..],
            "(did you mean 'openrouter'?)",
        ),
        (
            &["gen", "--dry-run", "--preset", "conventionl"],
            "unknown preset `conventionl` (did you mean 'conventional'?)",
        ),
    ] {
        let out = repo.iris_env(args, &env, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}
