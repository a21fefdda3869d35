//! `iris doctor` as a user runs it, in a temporary repository: a healthy setup (the fake
//! provider as an OpenAI-compatible server on this machine, the hook installed) passes and
//! `--json` lists every check; a hook line another tool removed, a broken config value, a
//! missing key or a server that is down is a problem (exit 1) with its fix; a `gh` that is
//! logged out is a warning on a GitHub remote.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::fake_provider::{FAKE_API_KEY, FakeProvider};
use crate::common::{IRIS, IRIS_ENV_PREFIXES, TestRepo, fake_bin, path_with, stderr, stdout};

/// Every check a healthy repository gets, in order.
const CHECKS: [&str; 14] = [
    "git",
    "repository",
    "operation",
    "user config",
    "project config",
    "provider",
    "api key",
    "server",
    "prepare-commit-msg hook",
    "commit-msg step",
    "jj",
    "gh",
    "glab",
    "stores",
];

/// The longest a doctor may take here: its slowest check has a deadline of a few seconds.
const LIMIT: Duration = Duration::from_secs(20);

/// The environment of a local OpenAI-compatible server at `base_url` serving `fake-model`,
/// and a PATH whose tools are those in `bin` (and the system's).
fn local_env(base_url: &str, bin: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("IRIS_PROVIDER", "openai-compatible".to_string()),
        ("OPENAI_BASE_URL", base_url.to_string()),
        ("OPENAI_API_KEY", FAKE_API_KEY.to_string()),
        ("IRIS_MODEL", "fake-model".to_string()),
        ("PATH", path_with(bin).to_string_lossy().into_owned()),
    ]
}

/// `iris ARGS` in `dir` with the repository's HOME and git config, none of the developer's
/// provider settings, and `env`; it must end within [`LIMIT`].
fn iris_in(repo: &TestRepo, dir: &Path, args: &[&str], env: &[(&str, String)]) -> Output {
    let mut command = Command::new(IRIS);
    repo.in_env(command.args(args), dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if IRIS_ENV_PREFIXES.iter().any(|p| name.starts_with(p)) {
            command.env_remove(name.as_ref());
        }
    }
    command.envs(env.iter().map(|(k, v)| (k, v)));
    let started = Instant::now();
    let out = command.output().expect("run iris");
    assert!(
        started.elapsed() < LIMIT,
        "iris {args:?} took {:?}",
        started.elapsed()
    );
    out
}

fn doctor(repo: &TestRepo, args: &[&str], env: &[(&str, String)]) -> Output {
    let args: Vec<&str> = std::iter::once("doctor")
        .chain(args.iter().copied())
        .collect();
    iris_in(repo, &repo.path(), &args, env)
}

/// The doctor's `--json`, as `(check, status, detail, fix)`.
fn json_checks(out: &Output) -> Vec<(String, String, String, Option<String>)> {
    let listed: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)));
    let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
    listed
        .as_array()
        .expect("a JSON list")
        .iter()
        .map(|c| {
            (
                text(&c["check"]).unwrap_or_default(),
                text(&c["status"]).unwrap_or_default(),
                text(&c["detail"]).unwrap_or_default(),
                text(&c["fix"]),
            )
        })
        .collect()
}

/// The line of `check` in the doctor's text, and the line below it.
fn line_of<'a>(out: &'a str, check: &str) -> (&'a str, &'a str) {
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| {
            l.split_whitespace()
                .skip(1)
                .collect::<Vec<_>>()
                .join(" ")
                .starts_with(check)
        })
        .unwrap_or_else(|| panic!("no line for {check}:\n{out}"));
    (lines[at], lines.get(at + 1).copied().unwrap_or_default())
}

/// A repository with a commit and Iris' hook installed.
fn hooked_repo(env: &[(&str, String)]) -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# Doctor\n");
    repo.commit_all("Initial commit");
    let out = iris_in(&repo, &repo.path(), &["hook", "install"], env);
    assert!(out.status.success(), "{}", stderr(&out));
    repo
}

/// A port on 127.0.0.1 nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    port
}

#[test]
fn a_healthy_setup_passes_and_json_lists_every_check() {
    let fake = FakeProvider::start(vec![]);
    let bin = fake_bin(&[]);
    let env = local_env(&fake.openai_base_url(), bin.path());
    let repo = hooked_repo(&env);

    let out = doctor(&repo, &[], &env);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.ends_with("14 ok, 0 warnings, 0 problems\n"), "{text}");
    let (server, _) = line_of(&text, "server");
    assert!(server.contains("answers and lists fake-model"), "{server}");
    let (key, _) = line_of(&text, "api key");
    assert!(key.contains("sk-…me (from env OPENAI_API_KEY)"), "{key}");
    assert!(!text.contains(FAKE_API_KEY), "the key was shown: {text}");
    let (hook, _) = line_of(&text, "prepare-commit-msg hook");
    assert!(hook.contains("installed at"), "{hook}");

    let out = doctor(&repo, &["--json"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let checks = json_checks(&out);
    let names: Vec<&str> = checks.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(names, CHECKS);
    for (check, status, detail, fix) in &checks {
        assert_eq!((status.as_str(), fix), ("ok", &None), "{check}: {detail}");
        assert!(!detail.is_empty(), "{check}");
    }
}

#[test]
fn a_commit_msg_hook_rewritten_without_iris_line_is_a_problem_with_the_command_that_restores_it() {
    let fake = FakeProvider::start(vec![]);
    let bin = fake_bin(&[]);
    let env = local_env(&fake.openai_base_url(), bin.path());
    let repo = hooked_repo(&env);
    // A tool (husky, pre-commit) writes the commit-msg hook anew, without Iris' line.
    let step = repo.path().join(".git/hooks/commit-msg");
    std::fs::write(&step, "#!/bin/sh\nexit 0\n").expect("rewrite commit-msg");

    let out = doctor(&repo, &[], &env);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let (line, fix) = line_of(&text, "commit-msg step");
    assert!(line.starts_with("problem "), "{line}");
    assert!(line.contains("lacks Iris' line"), "{line}");
    assert_eq!(fix.trim(), "fix: `iris hook install` puts it back");

    // What the fix says puts it back.
    let out = iris_in(&repo, &repo.path(), &["hook", "install"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(doctor(&repo, &[], &env).status.code(), Some(0));
}

#[test]
fn a_broken_config_value_or_an_unknown_key_is_a_problem_naming_it() {
    let fake = FakeProvider::start(vec![]);
    let bin = fake_bin(&[]);
    let env = local_env(&fake.openai_base_url(), bin.path());
    let repo = hooked_repo(&env);
    let user = repo.user_config_path();
    std::fs::create_dir_all(user.parent().expect("config dir")).expect("config dir");
    std::fs::write(&user, "preset = \"default\"\ngitmoji = \"maybe\"\n").expect("user config");
    repo.write(".irisconfig", "presett = \"conventional\"\n");

    let out = doctor(&repo, &["--json"], &env);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let checks = json_checks(&out);
    let find = |name: &str| {
        checks
            .iter()
            .find(|c| c.0 == name)
            .unwrap_or_else(|| panic!("no {name} check: {checks:?}"))
    };
    let (_, status, detail, fix) = find("user config");
    assert_eq!(status, "problem");
    assert!(
        detail.contains("line 2") && detail.contains("gitmoji"),
        "{detail}"
    );
    assert!(
        fix.as_deref()
            .unwrap_or_default()
            .contains("iris config set"),
        "{fix:?}"
    );
    let (_, status, detail, _) = find("project config");
    assert_eq!(status, "problem");
    assert!(detail.contains("presett"), "{detail}");
    // The provider is not checked on a configuration that does not load, and says so.
    assert_eq!(find("provider").1, "warning");
}

#[test]
fn a_missing_key_is_a_problem_with_the_variable_to_set() {
    let bin = fake_bin(&[]);
    let repo = TestRepo::new();
    let env = vec![
        ("IRIS_PROVIDER", "anthropic".to_string()),
        ("PATH", path_with(bin.path()).to_string_lossy().into_owned()),
    ];
    let out = doctor(&repo, &[], &env);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let (line, fix) = line_of(&text, "api key");
    assert!(line.starts_with("problem "), "{line}");
    assert!(line.contains("no API key for anthropic"), "{line}");
    assert!(fix.contains("ANTHROPIC_API_KEY"), "{fix}");
}

#[test]
fn a_logged_out_gh_is_a_warning_on_a_github_remote_only() {
    let fake = FakeProvider::start(vec![]);
    let bin = fake_bin(&[(
        "gh",
        "case \"$1\" in\n\
         --version) echo 'gh version 2.60.0 (2024-10-01)' ;;\n\
         auth) echo 'You are not logged into any GitHub hosts. To log in, run: gh auth login' >&2; exit 1 ;;\n\
         esac",
    )]);
    let env = local_env(&fake.openai_base_url(), bin.path());
    let repo = hooked_repo(&env);

    // No GitHub remote: gh is not needed, and its login is not asked.
    let out = doctor(&repo, &[], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    let (line, _) = line_of(&text, "gh");
    assert!(line.starts_with("ok "), "{line}");
    assert!(line.contains("gh version 2.60.0"), "{line}");

    repo.git(&["remote", "add", "origin", "git@github.com:acme/doctor.git"]);
    let out = doctor(&repo, &[], &env);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "warnings only: {text}");
    let (line, fix) = line_of(&text, "gh");
    assert!(line.starts_with("warning "), "{line}");
    assert!(line.contains("not logged in"), "{line}");
    assert!(
        line.contains("You are not logged into any GitHub hosts"),
        "{line}"
    );
    assert_eq!(fix.trim(), "fix: `gh auth login`");
    // glab is not needed there.
    assert!(line_of(&text, "glab").0.starts_with("ok "));
}

#[test]
fn a_local_server_that_is_down_is_a_problem_said_within_its_deadline() {
    let bin = fake_bin(&[]);
    let url = format!("http://127.0.0.1:{}/v1", closed_port());
    let env = local_env(&url, bin.path());
    let repo = hooked_repo(&env);
    let out = doctor(&repo, &[], &env);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let (line, fix) = line_of(&text, "server");
    assert!(line.starts_with("problem "), "{line}");
    assert!(line.contains(&format!("no answer from {url}")), "{line}");
    assert!(fix.contains("start the server"), "{fix}");
}

#[test]
fn a_hosted_provider_is_asked_only_with_online() {
    let fake = FakeProvider::start(vec![]);
    let bin = fake_bin(&[]);
    let path = path_with(bin.path()).to_string_lossy().into_owned();
    let hosted = |base_url: String| {
        vec![
            ("IRIS_PROVIDER", "anthropic".to_string()),
            ("ANTHROPIC_API_KEY", FAKE_API_KEY.to_string()),
            ("ANTHROPIC_BASE_URL", base_url),
            ("IRIS_MODEL", "fake-model".to_string()),
            ("PATH", path.clone()),
        ]
    };
    let repo = TestRepo::new();
    let down = hosted(format!("http://127.0.0.1:{}", closed_port()));
    let out = doctor(&repo, &["--json"], &down);
    assert_eq!(out.status.code(), Some(0), "not asked: {}", stdout(&out));
    let server = |out: &Output| {
        json_checks(out)
            .into_iter()
            .find(|c| c.0 == "server")
            .expect("a server check")
    };
    assert!(server(&out).2.contains("--online"), "{:?}", server(&out));

    let out = doctor(&repo, &["--online", "--json"], &down);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert_eq!(server(&out).1, "problem");
    assert!(!stdout(&out).contains(FAKE_API_KEY));

    let up = hosted(fake.base_url());
    let out = doctor(&repo, &["--online", "--json"], &up);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let (_, status, detail, _) = server(&out);
    assert_eq!(status, "ok", "{detail}");
    assert!(detail.contains("lists fake-model"), "{detail}");
}

#[test]
fn outside_a_repository_it_says_so_and_checks_the_rest() {
    let fake = FakeProvider::start(vec![]);
    let bin = fake_bin(&[]);
    let env = local_env(&fake.openai_base_url(), bin.path());
    let repo = TestRepo::new();
    // The temporary directory above the repository is none.
    let out = iris_in(&repo, repo.home(), &["doctor", "--json"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let checks = json_checks(&out);
    let repository = checks
        .iter()
        .find(|c| c.0 == "repository")
        .expect("repository");
    assert_eq!(repository.1, "warning");
    assert!(
        checks.iter().any(|c| c.0 == "server" && c.1 == "ok"),
        "{checks:?}"
    );
    assert!(!checks.iter().any(|c| c.0 == "stores"), "{checks:?}");
}
