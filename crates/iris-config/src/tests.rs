//! Loading: precedence, the environment, and what the selected provider needs.

use std::collections::HashMap;

use super::*;

/// A user file and a repository with a project file, in a temporary directory.
struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new(user: &str, project: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), user).unwrap();
        std::fs::create_dir(dir.path().join("repo")).unwrap();
        if !project.is_empty() {
            std::fs::write(dir.path().join("repo").join(PROJECT_FILE), project).unwrap();
        }
        Self { dir }
    }

    fn user_file(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    fn load(&self, env: &[(&str, &str)], overrides: &Overrides) -> Result<Config, ConfigError> {
        let env: HashMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::load_from(
            Some(&self.user_file()),
            Some(&self.dir.path().join("repo")),
            &|name| env.get(name).cloned(),
            overrides,
        )
    }
}

fn setting(config: &Config, key: &str) -> Setting {
    config.sources().into_iter().find(|s| s.key == key).unwrap()
}

#[test]
fn defaults_with_nothing_configured() {
    let config = Setup::new("", "").load(&[], &Overrides::default()).unwrap();
    assert_eq!(config.provider, ProviderKind::OpenAi);
    assert_eq!(config.provider_settings().model, "gpt-5");
    assert_eq!(config.provider_settings().fast_model, "gpt-5-mini");
    assert_eq!(config.preset, "default");
    assert!(!config.gitmoji && config.critic_enabled && !config.trust_repo);
    assert_eq!((config.max_turns, config.subagent_max_turns), (50, 20));
    assert_eq!(
        (config.subagent_timeout_secs, config.request_timeout_secs),
        (120, 120)
    );
    assert_eq!(config.run_timeout_secs, 300);
    assert_eq!(
        (config.max_output_tokens, config.subagent_max_output_tokens),
        (16_384, 4_096)
    );
    assert!(config.structured_output);
    assert!(config.studio_auto_generate);
    assert!(config.sources().iter().all(|s| s.source == Source::Default));
}

#[test]
fn each_layer_overrides_the_one_below() {
    let setup = Setup::new(
        "provider = \"anthropic\"\npreset = \"user\"\ngitmoji = true\n",
        "provider = \"ollama\"\npreset = \"project\"\n",
    );
    let user = setup.user_file();
    let project = setup.dir.path().join("repo").join(PROJECT_FILE);

    let config = setup.load(&[], &Overrides::default()).unwrap();
    assert_eq!(config.provider, ProviderKind::Ollama);
    assert_eq!(
        setting(&config, "provider").source,
        Source::ProjectFile(project)
    );
    assert_eq!(setting(&config, "gitmoji").source, Source::UserFile(user));

    let env = [("IRIS_PROVIDER", "google"), ("IRIS_PRESET", "env")];
    let config = setup.load(&env, &Overrides::default()).unwrap();
    assert_eq!(config.provider, ProviderKind::Gemini);
    assert_eq!(config.preset, "env");
    assert_eq!(
        setting(&config, "provider").source,
        Source::Env("IRIS_PROVIDER")
    );

    let flags = Overrides {
        provider: Some("openai".into()),
        gitmoji: Some(false),
        ..Overrides::default()
    };
    let config = setup.load(&env, &flags).unwrap();
    assert_eq!(config.provider, ProviderKind::OpenAi);
    assert!(!config.gitmoji);
    assert_eq!(
        setting(&config, "provider").source,
        Source::Flag("--provider")
    );
    assert_eq!(
        setting(&config, "gitmoji").source,
        Source::Flag("--no-gitmoji")
    );
    assert_eq!(config.preset, "env");
}

#[test]
fn the_model_env_and_flag_apply_to_the_selected_provider() {
    let setup = Setup::new(
        "provider = \"anthropic\"\n[providers.anthropic]\nmodel = \"file-model\"\n\
         [providers.openai]\nmodel = \"file-openai\"\n",
        "",
    );
    let config = setup
        .load(&[("IRIS_MODEL", "env-model")], &Overrides::default())
        .unwrap();
    assert_eq!(
        config.providers.get(ProviderKind::Anthropic).model,
        "env-model"
    );
    assert_eq!(
        config.providers.get(ProviderKind::OpenAi).model,
        "file-openai"
    );
    assert_eq!(
        setting(&config, "providers.anthropic.model").source,
        Source::Env("IRIS_MODEL")
    );

    let flags = Overrides {
        provider: Some("ollama".into()),
        model: Some("flag-model".into()),
        fast_model: Some("flag-fast".into()),
        ..Overrides::default()
    };
    let config = setup.load(&[("IRIS_MODEL", "env-model")], &flags).unwrap();
    assert_eq!(config.provider_settings().model, "flag-model");
    assert_eq!(config.provider_settings().fast_model, "flag-fast");
    assert_eq!(
        config.providers.get(ProviderKind::Anthropic).model,
        "file-model"
    );
}

#[test]
fn provider_variables_give_keys_and_urls() {
    let setup = Setup::new(
        "[providers.anthropic]\napi_key = \"from-file\"\nbase_url = \"https://file.example\"\n",
        "",
    );
    let env = [
        ("ANTHROPIC_API_KEY", "from-env"),
        ("GOOGLE_API_KEY", "google-key"),
        ("GEMINI_API_KEY", "gemini-key"),
        ("OLLAMA_HOST", "gpu-box:11434"),
        ("GEMINI_BASE_URL", "https://gemini-proxy.example"),
    ];
    let config = setup.load(&env, &Overrides::default()).unwrap();
    let anthropic = &config.providers.get(ProviderKind::Anthropic);
    assert_eq!(
        anthropic.api_key.as_ref().map(Secret::expose),
        Some("from-env")
    );
    assert_eq!(anthropic.base_url.as_deref(), Some("https://file.example"));
    let gemini = &config.providers.get(ProviderKind::Gemini);
    assert_eq!(
        gemini.api_key.as_ref().map(Secret::expose),
        Some("gemini-key")
    );
    assert_eq!(
        gemini.base_url.as_deref(),
        Some("https://gemini-proxy.example")
    );
    assert_eq!(
        config
            .providers
            .get(ProviderKind::Ollama)
            .base_url
            .as_deref(),
        Some("http://gpu-box:11434")
    );
    let shown = setting(&config, "providers.anthropic.api_key");
    assert_eq!(shown.value.as_deref(), Some("\"****\""));
    assert_eq!(shown.source, Source::Env("ANTHROPIC_API_KEY"));

    let only_google = setup
        .load(
            &[("GOOGLE_API_KEY", "google-key"), ("GEMINI_API_KEY", "")],
            &Overrides::default(),
        )
        .unwrap();
    assert_eq!(
        only_google
            .providers
            .get(ProviderKind::Gemini)
            .api_key
            .as_ref()
            .map(Secret::expose),
        Some("google-key")
    );
}

#[test]
fn openai_compatible_borrows_openai_variables_only_where_no_file_speaks() {
    let env = [
        ("OPENAI_API_KEY", "openai-key"),
        ("OPENAI_BASE_URL", "http://localhost:8000/v1"),
    ];
    let bare = Setup::new("provider = \"openai-compatible\"\n", "");
    let config = bare.load(&env, &Overrides::default()).unwrap();
    let compat = config.provider_settings();
    assert_eq!(
        compat.api_key.as_ref().map(Secret::expose),
        Some("openai-key")
    );
    assert_eq!(config.base_url().unwrap(), Some("http://localhost:8000/v1"));
    // OpenAI itself takes them at their usual precedence.
    assert_eq!(
        config
            .providers
            .get(ProviderKind::OpenAi)
            .base_url
            .as_deref(),
        Some("http://localhost:8000/v1")
    );

    let own = Setup::new(
        "provider = \"openai-compatible\"\n[providers.openai-compatible]\n\
         base_url = \"https://together.example/v1\"\napi_key = \"tg-key\"\nmodel = \"m\"\n",
        "",
    );
    let config = own.load(&env, &Overrides::default()).unwrap();
    let compat = config.provider_settings();
    assert_eq!(compat.api_key.as_ref().map(Secret::expose), Some("tg-key"));
    assert_eq!(
        compat.base_url.as_deref(),
        Some("https://together.example/v1")
    );
    assert_eq!(
        compat.fast_model, "m",
        "the fast model falls back to the model"
    );
}

#[test]
fn a_missing_key_names_the_variable_to_set() {
    let setup = Setup::new("", "");
    for (provider, var) in [
        ("openai", "set OPENAI_API_KEY or"),
        ("anthropic", "set ANTHROPIC_API_KEY or"),
        ("gemini", "set GEMINI_API_KEY (or GOOGLE_API_KEY) or"),
    ] {
        let flags = Overrides {
            provider: Some(provider.into()),
            ..Overrides::default()
        };
        let config = setup.load(&[], &flags).unwrap();
        let err = config.api_key().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "no API key for {provider}: {var} `iris config set {provider}.api_key ...`, \
                 or run `iris config init`"
            )
        );
        assert_eq!(
            (err.provider.name(), err.missing),
            (provider, Missing::ApiKey)
        );
    }
    for provider in ["ollama", "openai-compatible"] {
        let flags = Overrides {
            provider: Some(provider.into()),
            ..Overrides::default()
        };
        assert_eq!(setup.load(&[], &flags).unwrap().api_key().unwrap(), None);
    }
    let config = setup
        .load(
            &[("ANTHROPIC_API_KEY", "k"), ("IRIS_PROVIDER", "anthropic")],
            &Overrides::default(),
        )
        .unwrap();
    assert_eq!(config.api_key().unwrap().map(Secret::expose), Some("k"));
}

#[test]
fn openai_compatible_loads_without_a_model_or_url_but_says_so_when_used() {
    let flags = Overrides {
        provider: Some("openai-compatible".into()),
        ..Overrides::default()
    };
    let config = Setup::new("", "").load(&[], &flags).unwrap();
    let err = config.require_model().unwrap_err();
    assert!(
        err.to_string()
            .starts_with("no model for openai-compatible: set IRIS_MODEL"),
        "{err}"
    );
    assert_eq!(err.missing, Missing::Model);
    let err = config.base_url().unwrap_err();
    assert!(err.to_string().contains("set OPENAI_BASE_URL or"), "{err}");
    assert_eq!(err.missing, Missing::BaseUrl);
    assert_eq!(
        setting(&config, "providers.openai-compatible.model").value,
        None
    );

    let config = Setup::new("", "").load(&[], &Overrides::default()).unwrap();
    assert_eq!(config.require_model().unwrap(), "gpt-5");
    assert_eq!(config.base_url().unwrap(), None);
}

#[test]
fn bad_environment_and_flag_values_name_their_origin() {
    let setup = Setup::new("", "");
    let err = setup
        .load(&[("IRIS_GITMOJI", "sometimes")], &Overrides::default())
        .unwrap_err();
    assert_eq!(err.0, "IRIS_GITMOJI: expected a boolean (true or false)");
    let err = setup
        .load(
            &[("ANTHROPIC_BASE_URL", "proxy.local")],
            &Overrides::default(),
        )
        .unwrap_err();
    assert!(
        err.0.starts_with("ANTHROPIC_BASE_URL: expected a URL"),
        "{err}"
    );
    let flags = Overrides {
        provider: Some("claude".into()),
        ..Overrides::default()
    };
    let err = setup.load(&[], &flags).unwrap_err();
    assert!(
        err.0.starts_with("--provider: expected one of openai"),
        "{err}"
    );
    // An empty variable counts as unset.
    let config = setup
        .load(&[("IRIS_PROVIDER", "")], &Overrides::default())
        .unwrap();
    assert_eq!(config.provider, ProviderKind::OpenAi);
}

#[test]
fn trust_comes_from_the_user_file_env_or_flag_but_never_the_project() {
    let setup = Setup::new("trust_repo = true\n", "");
    assert!(setup.load(&[], &Overrides::default()).unwrap().trust_repo);
    let config = setup
        .load(&[("IRIS_TRUST_REPO", "0")], &Overrides::default())
        .unwrap();
    assert!(!config.trust_repo);
    let flags = Overrides {
        trust_repo: Some(true),
        ..Overrides::default()
    };
    let config = setup.load(&[("IRIS_TRUST_REPO", "0")], &flags).unwrap();
    assert!(config.trust_repo);

    let project = Setup::new("", "trust_repo = true\n");
    let err = project.load(&[], &Overrides::default()).unwrap_err();
    assert!(
        err.0.contains(".irisconfig line 1: key `trust_repo`"),
        "{err}"
    );
}

#[test]
fn the_debug_form_of_a_config_masks_every_key() {
    let setup = Setup::new("[providers.openai]\napi_key = \"sk-file-secret\"\n", "");
    let config = setup
        .load(
            &[("ANTHROPIC_API_KEY", "sk-env-secret")],
            &Overrides::default(),
        )
        .unwrap();
    let debug = format!("{config:?}");
    assert!(!debug.contains("sk-file-secret") && !debug.contains("sk-env-secret"));
    assert!(debug.contains("****"));
    let listed = format!("{:?}", config.sources());
    assert!(
        !listed.contains("sk-file-secret") && !listed.contains("sk-env-secret"),
        "{listed}"
    );
}

#[test]
fn a_project_file_that_is_not_a_file_is_refused() {
    let setup = Setup::new("", "");
    std::fs::create_dir(setup.dir.path().join("repo").join(PROJECT_FILE)).unwrap();
    let err = setup.load(&[], &Overrides::default()).unwrap_err();
    assert!(
        err.0.ends_with(".irisconfig is not a regular file"),
        "{err}"
    );
}

#[test]
fn the_language_comes_from_the_project_the_environment_or_the_flag() {
    let setup = Setup::new("language = \"fr\"\n", "language = \"de\"\n");
    let config = setup.load(&[], &Overrides::default()).unwrap();
    assert_eq!(config.language, "de");
    let config = setup
        .load(&[("IRIS_LANGUAGE", "es")], &Overrides::default())
        .unwrap();
    assert_eq!(config.language, "es");
    let flag = Overrides {
        language: Some("pt-BR".into()),
        ..Overrides::default()
    };
    let config = setup.load(&[("IRIS_LANGUAGE", "es")], &flag).unwrap();
    assert_eq!(config.language, "pt-BR");
    assert_eq!(
        setting(&config, "language").source,
        Source::Flag("--language")
    );
    let unset = Setup::new("", "").load(&[], &Overrides::default()).unwrap();
    assert_eq!(unset.language, "");
    assert_eq!(setting(&unset, "language").value, None);
}

#[test]
fn the_review_threshold_takes_0_to_100() {
    let config = Setup::new("", "").load(&[], &Overrides::default()).unwrap();
    assert_eq!(config.review_min_confidence, 70);
    let config = Setup::new("review_min_confidence = 0\n", "")
        .load(&[], &Overrides::default())
        .unwrap();
    assert_eq!(config.review_min_confidence, 0);
    let err = Setup::new("review_min_confidence = 101\n", "")
        .load(&[], &Overrides::default())
        .unwrap_err();
    assert!(
        err.0.contains("expected a whole number from 0 to 100"),
        "{err}"
    );
}

#[test]
fn the_endpoint_decides_local_and_price_and_the_users_word_wins() {
    let compat = |url: &str| {
        vec![
            ("IRIS_PROVIDER", "openai-compatible".to_string()),
            ("OPENAI_BASE_URL", url.to_string()),
            ("IRIS_MODEL", "m".to_string()),
        ]
    };
    let load = |user: &str, env: &[(&str, String)]| {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Setup::new(user, "")
            .load(&env, &Overrides::default())
            .unwrap()
    };
    // A server on this machine: local, free.
    let config = load("", &compat("http://127.0.0.1:8080/v1"));
    assert!(config.locality().local);
    let (price, source) = config.model_price().unwrap();
    assert_eq!(price, prices::Price::FREE);
    assert!(source.describe().contains("127.0.0.1 is this machine"));
    // A hosted endpoint nobody priced: unknown, not $0.
    let config = load("", &compat("https://openrouter.ai/api/v1"));
    assert!(!config.locality().local);
    assert_eq!(config.model_price(), None);
    // The user's prices win on loopback too; IRIS_LOCAL says hosted.
    let config = load(
        "[providers.openai-compatible]\nprice_input = 1.0\nprice_output = 2.0\n",
        &compat("http://127.0.0.1:4000/v1"),
    );
    assert_eq!(config.model_price().unwrap().0.input, 1.0);
    let mut env = compat("http://127.0.0.1:4000/v1");
    env.push(("IRIS_LOCAL", "false".to_string()));
    let config = load("", &env);
    assert!(!config.locality().local);
    assert_eq!(
        setting(&config, "providers.openai-compatible.local").source,
        Source::Env("IRIS_LOCAL")
    );
    // A named service: its own address, hosted, its default model priced by its row.
    let config = load("provider = \"groq\"\n", &[]);
    assert_eq!(
        config.base_url().unwrap(),
        Some("https://api.groq.com/openai/v1")
    );
    assert!(!config.locality().local);
    assert!(config.model_price().is_some());
    assert_eq!(config.api_key().unwrap_err().missing, Missing::ApiKey);
    let config = load("provider = \"lmstudio\"\n", &[]);
    assert!(config.locality().local);
    assert_eq!(config.require_model().unwrap_err().missing, Missing::Model);
}

#[test]
fn agent_sessions_are_off_until_a_file_or_the_flag_turns_them_on() {
    let unset = Setup::new("", "").load(&[], &Overrides::default()).unwrap();
    assert!(!unset.agent_sessions);
    assert_eq!(unset.source(ConfigKey::AgentSessions), Source::Default);
    for (user, project) in [
        ("agent_sessions = true\n", ""),
        ("", "agent_sessions = true\n"),
    ] {
        let config = Setup::new(user, project)
            .load(&[], &Overrides::default())
            .unwrap();
        assert!(config.agent_sessions, "{user}{project}");
    }
    let setup = Setup::new("agent_sessions = true\n", "");
    let off = Overrides {
        agent_sessions: Some(false),
        ..Overrides::default()
    };
    let config = setup.load(&[], &off).unwrap();
    assert!(!config.agent_sessions);
    assert_eq!(
        config.source(ConfigKey::AgentSessions),
        Source::Flag("--no-sessions")
    );
    let err = Setup::new("agent_sessions = \"sure\"\n", "")
        .load(&[], &Overrides::default())
        .unwrap_err();
    assert!(err.0.contains("agent_sessions"), "{err}");
    assert!(err.0.contains("expected a boolean"), "{err}");
}
