//! Providers as they are: whether a server is local is its endpoint's to say, named services
//! go to their own address with their own key and options, a hosted model nobody priced is
//! not free, and a reasoning model's thinking never reaches the artifact. The fake provider
//! is on loopback, so the services that stand for hosted ones are marked `local = false`.

use crate::common::agent::{
    commit_json, failure, run, spec_at, staged_repo, success, write_user_config,
};
use crate::common::fake_provider::{FAKE_API_KEY, FakeProvider, Step};
use serde_json::{Value, json};

/// `IRIS_PROVIDER=NAME`, its key in `var`.
fn service_env(name: &str, var: &'static str) -> Vec<(&'static str, String)> {
    vec![
        ("IRIS_PROVIDER", name.to_string()),
        (var, FAKE_API_KEY.to_string()),
    ]
}

/// A user config pointing `service` at the fake, marked hosted.
fn hosted_at_fake(service: &str, fake: &FakeProvider, more: &str) -> String {
    format!(
        "critic_enabled = false\n[providers.{service}]\nbase_url = \"{}\"\nlocal = false\n{more}",
        fake.openai_base_url()
    )
}

/// A Chat Completions event stream of `chunks` (each a delta), then a stop, usage with a
/// cost, and `[DONE]`.
fn chat_stream(deltas: &[Value], cost: f64) -> Step {
    let mut body = String::new();
    let chunk = |delta: &Value, finish: Value| {
        json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    for delta in deltas {
        body.push_str(&format!("data: {}\n\n", chunk(delta, Value::Null)));
    }
    let calls = deltas.iter().any(|d| d.get("tool_calls").is_some());
    let finish = if calls { "tool_calls" } else { "stop" };
    body.push_str(&format!("data: {}\n\n", chunk(&json!({}), json!(finish))));
    let usage = json!({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                       "choices": [], "usage": {"prompt_tokens": 900, "completion_tokens": 40,
                                                "total_tokens": 940, "cost": cost}});
    body.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
    Step::Raw {
        status: 200,
        content_type: "text/event-stream".into(),
        body,
    }
}

#[test]
fn a_named_service_goes_to_its_address_with_its_key_and_the_format_it_takes() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![
        Step::text(commit_json("Add two()", "")),
        Step::text(commit_json("Add two()", "")),
    ]);
    // DeepSeek takes JSON mode, not a schema.
    write_user_config(&repo, &hosted_at_fake("deepseek", &fake, ""));
    let out = run(
        &repo,
        &["gen", "--print"],
        &service_env("deepseek", "DEEPSEEK_API_KEY"),
    );
    assert_eq!(success(&out).trim(), "Add two()");
    let request = &fake.requests()[0];
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {FAKE_API_KEY}").as_str())
    );
    assert_eq!(request.body["model"], "deepseek-v4-pro");
    assert_eq!(
        request.body["response_format"],
        json!({"type": "json_object"})
    );
    // Hosted: the budget of a hosted model, not a small local one's.
    assert_eq!(request.body["max_tokens"], 8192, "{}", request.body);

    // Mistral refuses rig's `stream_options`: it is left out. OpenRouter's requests carry
    // its attribution header.
    write_user_config(&repo, &hosted_at_fake("mistral", &fake, ""));
    let out = run(
        &repo,
        &["gen", "--print"],
        &service_env("mistral", "MISTRAL_API_KEY"),
    );
    success(&out);
    let request = &fake.requests()[1];
    assert_eq!(request.body["model"], "mistral-medium-latest");
    assert_eq!(request.body["stream"], true, "{}", request.body);
    assert!(
        request.body.get("stream_options").is_none(),
        "{}",
        request.body
    );
    assert_eq!(request.body["response_format"]["type"], "json_schema");
}

#[test]
fn azure_goes_to_the_deployment_with_its_api_key_header_and_version() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    // The deployment's whole URL, as the portal shows it.
    let url = format!(
        "{}/openai/deployments/team-gpt/chat/completions?api-version=2025-01-01",
        fake.base_url()
    );
    write_user_config(
        &repo,
        &format!(
            "critic_enabled = false\n[providers.azure]\nbase_url = \"{url}\"\nmodel = \"team-gpt\"\n\
             local = false\n"
        ),
    );
    let out = run(
        &repo,
        &["gen", "--print"],
        &service_env("azure", "AZURE_OPENAI_API_KEY"),
    );
    assert_eq!(success(&out).trim(), "Add two()");
    let request = &fake.requests()[0];
    assert!(
        request
            .path
            .starts_with("/openai/deployments/team-gpt/chat/completions"),
        "{}",
        request.path
    );
    assert_eq!(request.query("api-version"), Some("2025-01-01"));
    assert_eq!(request.header("api-key"), Some(FAKE_API_KEY));
    assert_eq!(request.header("authorization"), None);
    assert_eq!(
        request.body["max_completion_tokens"], 8192,
        "{}",
        request.body
    );
}

#[test]
fn a_service_without_its_key_names_the_variable_and_a_wrong_name_lists_the_names() {
    let repo = staged_repo();
    let out = run(
        &repo,
        &["gen", "--print"],
        &[("IRIS_PROVIDER", "groq".into())],
    );
    let err = failure(&out, 2);
    assert!(
        err.contains("no API key for groq: set GROQ_API_KEY or `iris config set groq.api_key"),
        "{err}"
    );
    let out = run(&repo, &["gen", "--print", "--provider", "grok"], &[]);
    let err = failure(&out, 2);
    for name in [
        "groq",
        "openrouter",
        "deepseek",
        "azure",
        "lmstudio",
        "openai-compatible",
    ] {
        assert!(err.contains(name), "{name} in: {err}");
    }
}

#[test]
fn a_hosted_service_dry_run_shows_its_url_and_price_and_sends_nothing() {
    let repo = staged_repo();
    let env = service_env("openrouter", "OPENROUTER_API_KEY");
    let out = success(&run(&repo, &["gen", "--dry-run"], &env));
    assert!(
        out.contains("POST https://openrouter.ai/api/v1/chat/completions"),
        "{out}"
    );
    assert!(out.contains("estimated cost: $"), "{out}");
    assert!(!out.contains("costs nothing"), "{out}");
    // Another model than the listed one: nobody knows its price, which is not $0.
    let out = success(&run(
        &repo,
        &["gen", "--dry-run", "--model", "qwen/qwen3-235b"],
        &env,
    ));
    assert!(
        out.contains("estimated cost: unknown, no price is known for openrouter qwen/qwen3-235b"),
        "{out}"
    );
    assert!(
        out.contains("`iris config set openrouter.price_input N`"),
        "{out}"
    );

    // The same through `openai-compatible` at OpenRouter's address: hosted too, whole schema
    // and a hosted budget, where it used to be taken for a small local model.
    let compat = vec![
        ("IRIS_PROVIDER", "openai-compatible".to_string()),
        ("OPENAI_API_KEY", FAKE_API_KEY.to_string()),
        (
            "OPENAI_BASE_URL",
            "https://openrouter.ai/api/v1".to_string(),
        ),
        ("IRIS_MODEL", "anthropic/claude-sonnet-4.5".to_string()),
    ];
    let out = success(&run(&repo, &["gen", "--dry-run", "--json"], &compat));
    let preview: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        preview["output_budget"], 8192,
        "{}",
        preview["output_budget"]
    );
    assert_eq!(preview["cost"], Value::Null, "unknown, not free");
    let schema = preview["body"]["response_format"]["json_schema"]["schema"].to_string();
    assert!(
        schema.contains("\"description\""),
        "the whole schema: {schema}"
    );
}

#[test]
fn max_cost_per_run_refuses_an_unpriced_hosted_server_until_a_price_is_set() {
    let repo = staged_repo();
    let fake = FakeProvider::start(vec![Step::text(commit_json("Add two()", ""))]);
    let env = vec![
        ("IRIS_PROVIDER", "openai-compatible".to_string()),
        ("OPENAI_BASE_URL", fake.openai_base_url()),
        ("IRIS_MODEL", "proxied-model".to_string()),
    ];
    // A LiteLLM proxy on loopback in front of a paid API.
    let config = "max_cost_per_run = 0.50\ncritic_enabled = false\n\
                  [providers.openai-compatible]\nlocal = false\n";
    write_user_config(&repo, config);
    let err = failure(&run(&repo, &["gen", "--print"], &env), 2);
    assert!(
        err.contains("no price is known for openai-compatible proxied-model")
            && err.contains("`iris config set openai-compatible.price_input N`"),
        "{err}"
    );
    assert!(fake.requests().is_empty());
    // The user's prices win, local or not.
    write_user_config(
        &repo,
        &format!("{config}price_input = 1.0\nprice_output = 2.0\n"),
    );
    let out = success(&run(&repo, &["gen", "--dry-run"], &env));
    assert!(
        out.contains("($1.00 per million tokens, prices from your configuration)"),
        "{out}"
    );
    assert_eq!(
        success(&run(&repo, &["gen", "--print"], &env)).trim(),
        "Add two()"
    );
}

#[test]
fn a_reasoning_models_thinking_never_reaches_the_artifact() {
    let repo = staged_repo();
    let answer = commit_json("Add two()", "Adds a second constant.");
    let (head, tail) = answer.split_at(answer.len() / 2);
    let fake = FakeProvider::start(vec![
        // OpenRouter and Groq: a `reasoning` field.
        chat_stream(
            &[
                json!({"role": "assistant", "reasoning": "The diff adds two(); "}),
                json!({"reasoning": "title it plainly."}),
                json!({"content": head}),
                json!({"content": tail}),
            ],
            0.0021,
        ),
        // Qwen3 served raw: a `<think>` block opening the text.
        chat_stream(
            &[
                json!({"role": "assistant", "content": "<think>"}),
                json!({"content": "Maybe \"title\": \"Think out loud\" is it?"}),
                json!({"content": format!("</think>\n\n{head}")}),
                json!({"content": tail}),
            ],
            0.0,
        ),
    ]);
    write_user_config(&repo, &hosted_at_fake("openrouter", &fake, ""));
    let env = service_env("openrouter", "OPENROUTER_API_KEY");
    for _ in 0..2 {
        let out = success(&run(&repo, &["gen", "--print"], &env));
        assert_eq!(out, "Add two()\n\nAdds a second constant.\n");
    }
    assert_eq!(
        fake.requests()[0].header("x-title"),
        Some("Iris Studio"),
        "OpenRouter's attribution"
    );
}

/// Thinking reaches the events as thinking (the progress line and the studio's status show
/// it), never the text; a cost the provider reports reaches them too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thinking_and_a_reported_cost_reach_the_events_and_the_text_does_not_hold_them() {
    use iris_studio_agent::{EventSink, ProviderKind, ProviderSpec, Run, run};
    use iris_studio_core::protocol::AgentEvent;
    let fake = FakeProvider::start(vec![
        chat_stream(
            &[
                json!({"role": "assistant", "reasoning": "Weighing it."}),
                json!({"content": "Done."}),
            ],
            0.0021,
        ),
        chat_stream(
            &[
                json!({"role": "assistant", "content": "<think>"}),
                json!({"content": "Hmm.</think>"}),
                json!({"content": "Done too."}),
            ],
            0.0,
        ),
    ]);
    for (expected_text, expected_thought) in [("Done.", "Weighing it."), ("Done too.", "Hmm.")] {
        let openrouter = ProviderKind::parse("openrouter").expect("openrouter");
        let spec = ProviderSpec {
            reasoning_effort: Some("low".into()),
            ..spec_at(openrouter, "m", fake.openai_base_url())
        };
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let request = Run {
            preamble: "Be brief.".into(),
            history: Vec::new(),
            prompt: "Look.".into(),
            tools: Vec::new(),
            max_turns: 2,
            max_tokens: 100,
            schema: None,
            stream: true,
        };
        let output = run(&spec, &Default::default(), request, EventSink::new(tx))
            .await
            .expect("run");
        assert_eq!(output.text, expected_text);
        let (mut thought, mut cost) = (String::new(), 0.0);
        while let Ok(event) = rx.try_recv() {
            match event {
                AgentEvent::Thinking(text) => thought.push_str(&text),
                AgentEvent::Cost(dollars) => cost += dollars,
                AgentEvent::TextDelta(text) => assert!(!text.contains("Hmm"), "{text}"),
                _ => {}
            }
        }
        assert_eq!(thought, expected_thought);
        if expected_text == "Done." {
            assert!((cost - 0.0021).abs() < 1e-12, "{cost}");
        }
    }
    // OpenRouter is asked for the effort its way.
    assert_eq!(fake.requests()[0].body["reasoning"]["effort"], "low");
}

/// Thinking that came as `reasoning` is not sent back as `reasoning_content` on the next
/// turn: Groq refuses the field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thinking_made_reasoning_content_here_is_not_sent_back() {
    use iris_studio_agent::tools::ToolContext;
    use iris_studio_agent::tools::registry::core_tools;
    use iris_studio_agent::{EventSink, ProviderKind, Run, run};

    let repo = staged_repo();
    let call = json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                      "function": {"name": "git_status", "arguments": "{}"}}]});
    let fake = FakeProvider::start(vec![
        chat_stream(
            &[
                json!({"role": "assistant", "reasoning": "Look first."}),
                call,
            ],
            0.0,
        ),
        chat_stream(&[json!({"role": "assistant", "content": "Done."})], 0.0),
    ]);
    let groq = ProviderKind::parse("groq").expect("groq");
    let spec = spec_at(groq, "openai/gpt-oss-120b", fake.openai_base_url());
    let request = Run {
        preamble: "Be brief.".into(),
        history: Vec::new(),
        prompt: "Look.".into(),
        tools: core_tools(&ToolContext::new(repo.path())),
        max_turns: 4,
        max_tokens: 100,
        schema: None,
        stream: true,
    };
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let output = run(&spec, &Default::default(), request, EventSink::new(tx))
        .await
        .expect("run");
    assert_eq!(output.text, "Done.");
    let second = &fake.requests()[1];
    assert!(
        !second.raw_body.contains("reasoning_content"),
        "{}",
        second.raw_body
    );
}
