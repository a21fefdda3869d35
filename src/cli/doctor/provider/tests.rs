use super::reach::Ask;
use super::*;
use crate::cli::doctor::check::Status;
use crate::probe::ProbeApi;

const KEY_TEXT: &str = "sk-doctor-test-key-0123456789";

fn config(env: &[(&str, &str)]) -> Config {
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let lookup = move |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    Config::load_from(
        None,
        None,
        &lookup,
        &iris_studio_config::Overrides::default(),
    )
    .expect("the configuration loads")
}

fn local_server() -> Config {
    config(&[
        ("IRIS_PROVIDER", "openai-compatible"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1"),
        ("IRIS_MODEL", "qwen3"),
    ])
}

fn facts(config: Config, reach: Reach) -> ProviderFacts {
    ProviderFacts {
        config: Ok(config),
        files_broken: false,
        reach,
    }
}

fn statuses(checks: &[Check]) -> Vec<(&'static str, Status)> {
    checks.iter().map(|c| (c.check, c.status)).collect()
}

#[test]
fn a_server_on_this_machine_is_asked_and_a_hosted_one_only_online() {
    assert_eq!(
        ask(&local_server(), false),
        Ask::Local("http://127.0.0.1:8080/v1".into(), ProbeApi::OpenAiModels)
    );
    assert_eq!(
        ask(&config(&[("IRIS_PROVIDER", "ollama")]), false),
        Ask::Local("http://127.0.0.1:11434".into(), ProbeApi::OllamaTags)
    );
    let openai = config(&[("OPENAI_API_KEY", KEY_TEXT)]);
    assert_eq!(ask(&openai, false), Ask::Nothing(Reach::Offline));
    assert_eq!(
        ask(&openai, true),
        Ask::Online {
            kind: ProviderKind::OpenAi,
            base_url: None,
            key: Some(KEY_TEXT.into()),
        }
    );
    let keyless = config(&[("IRIS_PROVIDER", "anthropic")]);
    assert!(matches!(
        ask(&keyless, true),
        Ask::Nothing(Reach::NotChecked(_))
    ));
    let nowhere = config(&[("IRIS_PROVIDER", "openai-compatible"), ("IRIS_MODEL", "m")]);
    assert!(matches!(
        ask(&nowhere, false),
        Ask::Nothing(Reach::NotChecked(_))
    ));
    assert_eq!(
        ask(&config(&[("IRIS_PROVIDER", "claude-code")]), true),
        Ask::Program("claude")
    );
}

#[test]
fn a_healthy_local_server_is_ok_and_its_key_shown_as_a_hint() {
    let config = config(&[
        ("IRIS_PROVIDER", "openai-compatible"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1"),
        ("OPENAI_API_KEY", KEY_TEXT),
        ("IRIS_MODEL", "qwen3"),
    ]);
    let reach = Reach::Local {
        url: "http://127.0.0.1:8080/v1".into(),
        models: Some(vec!["qwen3".into(), "llama".into()]),
    };
    let checks = checks(&facts(config, reach));
    assert_eq!(
        statuses(&checks),
        [
            (PROVIDER, Status::Ok),
            (KEY, Status::Ok),
            (SERVER, Status::Ok)
        ]
    );
    assert_eq!(checks[1].detail, "sk-…89 (from env OPENAI_API_KEY)");
    assert!(checks.iter().all(|c| !c.detail.contains(KEY_TEXT)));
    assert!(
        checks[0].detail.contains("model qwen3"),
        "{}",
        checks[0].detail
    );
}

#[test]
fn a_missing_key_or_a_silent_server_is_a_problem_with_a_fix() {
    let keyless = checks(&facts(
        config(&[("IRIS_PROVIDER", "anthropic")]),
        Reach::Offline,
    ));
    let key = &keyless[1];
    assert_eq!((key.check, key.status), (KEY, Status::Problem));
    assert_eq!(key.detail, "no API key for anthropic");
    assert!(
        key.fix
            .as_deref()
            .unwrap_or_default()
            .contains("ANTHROPIC_API_KEY")
    );
    let silent = checks(&facts(
        local_server(),
        Reach::Local {
            url: "http://127.0.0.1:8080/v1".into(),
            models: None,
        },
    ));
    assert_eq!(silent[2].status, Status::Problem);
    assert!(
        silent[2]
            .detail
            .starts_with("no answer from http://127.0.0.1:8080/v1")
    );
    assert!(
        silent[2]
            .fix
            .as_deref()
            .unwrap_or_default()
            .contains("base_url")
    );
}

#[test]
fn a_model_the_server_does_not_list_is_a_warning_naming_what_it_lists() {
    let listed = |models: &[&str]| {
        let reach = Reach::Local {
            url: "u".into(),
            models: Some(models.iter().map(|m| m.to_string()).collect()),
        };
        server(&local_server(), &reach)
    };
    let other = listed(&["llama3", "mistral"]);
    assert_eq!(other.status, Status::Warning);
    assert_eq!(
        other.detail,
        "u answers, but does not list qwen3 (it lists llama3, mistral)"
    );
    assert_eq!(listed(&[]).status, Status::Warning);
    assert!(names("qwen3:latest", "qwen3"));
    assert!(names("models/gemini-2.5-pro", "gemini-2.5-pro"));
    assert!(!names("qwen3:8b", "qwen3"));
}

#[test]
fn a_configuration_that_does_not_load_is_said_once() {
    let broken = |files_broken| ProviderFacts {
        config: Err("IRIS_GITMOJI: expected true or false".into()),
        files_broken,
        reach: Reach::NotChecked(String::new()),
    };
    let alone = checks(&broken(false));
    assert_eq!(statuses(&alone), [(PROVIDER, Status::Problem)]);
    assert!(alone[0].detail.contains("IRIS_GITMOJI"));
    // A config file's own check says why: the provider is only not checked.
    assert_eq!(
        statuses(&checks(&broken(true))),
        [(PROVIDER, Status::Warning)]
    );
}

#[test]
fn hosted_answers_online_or_says_why_not() {
    let openai = config(&[("OPENAI_API_KEY", KEY_TEXT)]);
    assert_eq!(server(&openai, &Reach::Offline).status, Status::Ok);
    let refused = Reach::Online {
        url: "openai's own endpoint".into(),
        listed: Err("401 Unauthorized".into()),
    };
    let check = server(&openai, &refused);
    assert_eq!(check.status, Status::Problem);
    assert_eq!(
        check.detail,
        "openai's own endpoint did not list its models: 401 Unauthorized"
    );
    let listed = Reach::Online {
        url: "x".into(),
        listed: Ok(vec!["gpt-5".into()]),
    };
    assert_eq!(server(&openai, &listed).status, Status::Ok);
}
