//! Finding the model servers running on this machine: Ollama, LM Studio and llama.cpp's
//! server, each asked for its models at its usual address.
//!
//! Only loopback addresses are ever contacted (a candidate elsewhere is skipped unasked), every
//! request has a short deadline and all of them run at once, so a probe with nothing listening
//! costs about a second at most. Replies are bounded: a large one is dropped, a long list cut.
//! The command-line agents (Claude Code, Codex, Gemini CLI) are looked for on PATH.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use reqwest::Url;

use iris_studio_config::setup::{LocalServer, host_ip, is_loopback};
use iris_studio_config::{EnvLookup, ProviderKind, ollama_host_url};

/// Ollama's address when `OLLAMA_HOST` does not name another loopback one.
pub const OLLAMA_DEFAULT: &str = "http://127.0.0.1:11434";
/// LM Studio's server, OpenAI-compatible.
pub const LM_STUDIO_DEFAULT: &str = "http://127.0.0.1:1234/v1";
/// llama.cpp's `llama-server`, OpenAI-compatible.
pub const LLAMA_CPP_DEFAULT: &str = "http://127.0.0.1:8080/v1";

/// The longest a connection may take to open (loopback answers in well under a millisecond).
const CONNECT_TIMEOUT: Duration = Duration::from_millis(300);
/// The longest one server may take to answer in full, by [`probe_local_servers`].
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);
/// A reply larger than this is not a list of models: it is dropped whole.
pub(crate) const MAX_REPLY_BYTES: usize = 1 << 20;
/// At most this many models of one server are listed.
pub(crate) const MAX_MODELS: usize = 200;
/// A longer name is not a model's.
const MAX_NAME_CHARS: usize = 256;

/// Where a server might be, and how to ask it for its models.
#[derive(Debug, Clone)]
pub struct ServerAddress {
    /// "Ollama", "LM Studio" or "llama.cpp".
    pub label: &'static str,
    /// The provider Iris talks to it as.
    pub provider: ProviderKind,
    /// The base URL as it would be configured: Ollama's without a path, an OpenAI-compatible
    /// server's ending in `/v1`.
    pub base_url: String,
    /// How to ask it for its models.
    pub api: ProbeApi,
}

/// How a server lists its models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeApi {
    /// Ollama: `GET {base}/api/tags` answers `{"models": [{"name": ...}, ...]}`.
    OllamaTags,
    /// OpenAI's: `GET {base}/models` (the base ends in `/v1`) answers
    /// `{"data": [{"id": ...}, ...]}`.
    OpenAiModels,
}

/// The servers [`probe_local_servers`] looks for: Ollama (at `OLLAMA_HOST` when that is a
/// loopback address), LM Studio and llama.cpp at their usual ports.
pub fn default_candidates() -> Vec<ServerAddress> {
    candidates_from(&|name| std::env::var(name).ok())
}

/// [`default_candidates`] with the environment read through `env`.
fn candidates_from(env: EnvLookup<'_>) -> Vec<ServerAddress> {
    let ollama = env("OLLAMA_HOST")
        .filter(|host| !host.trim().is_empty())
        .and_then(|host| local_ollama_url(&host))
        .unwrap_or_else(|| OLLAMA_DEFAULT.to_string());
    vec![
        ServerAddress {
            label: "Ollama",
            provider: ProviderKind::Ollama,
            base_url: ollama,
            api: ProbeApi::OllamaTags,
        },
        ServerAddress {
            label: "LM Studio",
            // The named service, so that its settings are its own, not `openai-compatible`'s.
            provider: ProviderKind::parse("lmstudio").unwrap_or(ProviderKind::OpenAiCompatible),
            base_url: LM_STUDIO_DEFAULT.to_string(),
            api: ProbeApi::OpenAiModels,
        },
        ServerAddress {
            label: "llama.cpp",
            provider: ProviderKind::OpenAiCompatible,
            base_url: LLAMA_CPP_DEFAULT.to_string(),
            api: ProbeApi::OpenAiModels,
        },
    ]
}

/// `OLLAMA_HOST` as a URL when it names this machine; `None` for any other host. A server
/// told to listen on every address (`0.0.0.0`, `[::]`, as Ollama is often set up) is reached
/// on loopback, as Ollama's own client does.
fn local_ollama_url(host: &str) -> Option<String> {
    let mut url = Url::parse(&ollama_host_url(host)).ok()?;
    match host_ip(&url) {
        Some(IpAddr::V4(ip)) if ip.is_unspecified() => {
            url.set_ip_host(IpAddr::V4(Ipv4Addr::LOCALHOST)).ok()?;
        }
        Some(IpAddr::V6(ip)) if ip.is_unspecified() => {
            url.set_ip_host(IpAddr::V6(Ipv6Addr::LOCALHOST)).ok()?;
        }
        _ => {}
    }
    is_loopback(&url).then(|| url.as_str().trim_end_matches('/').to_string())
}

/// The command-line agents on PATH (Claude Code, Codex, Gemini CLI), as providers: the
/// subscriptions setup offers beside the servers and the hosted providers.
pub fn cli_agents_on_path() -> Vec<ProviderKind> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    iris_studio_config::CliAgent::ALL
        .into_iter()
        .filter(|agent| iris_studio_process::find_on_path(agent.program(), &path).is_some())
        .map(ProviderKind::Cli)
        .collect()
}

/// The default candidates, probed at once with a one-second deadline each: the servers that
/// answered, in candidate order.
pub async fn probe_local_servers() -> Vec<LocalServer> {
    probe(&default_candidates(), PROBE_TIMEOUT).await
}

/// Asks every candidate on a loopback address for its models, all at once, each within
/// `timeout` (connecting within at most 300 ms of it). Returns the ones that answered with a
/// list of models (possibly empty), in candidate order; a candidate anywhere but on this
/// machine is never contacted.
pub async fn probe(candidates: &[ServerAddress], timeout: Duration) -> Vec<LocalServer> {
    let client = match client(timeout) {
        Ok(client) => client,
        Err(e) => {
            tracing::debug!(error = %e, "no HTTP client to probe local servers with");
            return Vec::new();
        }
    };
    let asks = candidates.iter().map(|candidate| {
        let client = &client;
        async move {
            let url = models_url(candidate)?;
            let asked = tokio::time::timeout(timeout, ask(client, url, candidate.api)).await;
            let models = asked.ok().flatten()?;
            Some(LocalServer {
                label: candidate.label,
                provider: candidate.provider,
                base_url: candidate.base_url.trim_end_matches('/').to_string(),
                models,
            })
        }
    });
    futures::future::join_all(asks)
        .await
        .into_iter()
        .flatten()
        .collect()
}

/// An HTTP client that only ever talks to this machine: no proxy (a proxy would carry the
/// request elsewhere), no redirects, and `localhost` resolved to loopback without asking DNS.
fn client(timeout: Duration) -> reqwest::Result<reqwest::Client> {
    let loopback = [
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
        SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), 0),
    ];
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .resolve_to_addrs("localhost", &loopback)
        .connect_timeout(CONNECT_TIMEOUT.min(timeout))
        .timeout(timeout)
        .build()
}

/// The URL that lists a candidate's models; `None` when its base URL is not an http(s) URL on
/// a loopback address.
fn models_url(candidate: &ServerAddress) -> Option<Url> {
    let base = Url::parse(candidate.base_url.trim()).ok()?;
    if !matches!(base.scheme(), "http" | "https") || !is_loopback(&base) {
        tracing::debug!(url = %candidate.base_url, "not a loopback address: not probed");
        return None;
    }
    let path = match candidate.api {
        ProbeApi::OllamaTags => "api/tags",
        ProbeApi::OpenAiModels => "models",
    };
    let base = format!("{}/", base.as_str().trim_end_matches('/'));
    Url::parse(&base).ok()?.join(path).ok()
}

/// One server's models; `None` for no answer, an error status, a reply over
/// [`MAX_REPLY_BYTES`] or one that is not that API's list.
async fn ask(client: &reqwest::Client, url: Url, api: ProbeApi) -> Option<Vec<String>> {
    let mut response = client
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .ok()?;
    if !response.status().is_success() {
        return None;
    }
    if response
        .content_length()
        .is_some_and(|n| n > MAX_REPLY_BYTES as u64)
    {
        return None;
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.ok()? {
        if body.len() + chunk.len() > MAX_REPLY_BYTES {
            return None;
        }
        body.extend_from_slice(&chunk);
    }
    parse_models(api, &body)
}

/// The chat models a server's reply lists, in its order, at most [`MAX_MODELS`]; `None` when
/// the reply is not that API's list (it may be some other program on the port). Embedding
/// models (named `...embed...`) are left out: they cannot write. Names that could not be a
/// model's (empty, control characters, over 256 characters) are skipped.
pub(crate) fn parse_models(api: ProbeApi, body: &[u8]) -> Option<Vec<String>> {
    if body.len() > MAX_REPLY_BYTES {
        return None;
    }
    let reply: serde_json::Value = serde_json::from_slice(body).ok()?;
    let (list, field) = match api {
        ProbeApi::OllamaTags => ("models", "name"),
        ProbeApi::OpenAiModels => ("data", "id"),
    };
    let entries = reply.get(list)?.as_array()?;
    let mut models: Vec<String> = Vec::new();
    for name in entries
        .iter()
        .filter_map(|entry| entry.get(field)?.as_str())
    {
        let name = name.trim();
        let usable = !name.is_empty()
            && name.chars().count() <= MAX_NAME_CHARS
            && !name.contains(char::is_control)
            && !name.to_ascii_lowercase().contains("embed");
        if usable && !models.iter().any(|m| m == name) {
            models.push(name.to_string());
            if models.len() == MAX_MODELS {
                break;
            }
        }
    }
    Some(models)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_with(ollama_host: &'static str) -> impl Fn(&str) -> Option<String> {
        move |name| (name == "OLLAMA_HOST").then(|| ollama_host.to_string())
    }

    fn ollama_candidate(env: EnvLookup<'_>) -> ServerAddress {
        candidates_from(env).remove(0)
    }

    #[test]
    fn the_defaults_are_ollama_lm_studio_and_llama_cpp_on_loopback() {
        let candidates = candidates_from(&|_| None);
        let shown: Vec<(&str, ProviderKind, &str, ProbeApi)> = candidates
            .iter()
            .map(|c| (c.label, c.provider, c.base_url.as_str(), c.api))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "Ollama",
                    ProviderKind::Ollama,
                    "http://127.0.0.1:11434",
                    ProbeApi::OllamaTags
                ),
                (
                    "LM Studio",
                    ProviderKind::parse("lmstudio").expect("the lmstudio service"),
                    "http://127.0.0.1:1234/v1",
                    ProbeApi::OpenAiModels
                ),
                (
                    "llama.cpp",
                    ProviderKind::OpenAiCompatible,
                    "http://127.0.0.1:8080/v1",
                    ProbeApi::OpenAiModels
                ),
            ]
        );
    }

    #[test]
    fn a_loopback_ollama_host_is_followed_and_a_remote_one_ignored() {
        for (host, expected) in [
            ("127.0.0.1:11500", "http://127.0.0.1:11500"),
            ("localhost:9999", "http://localhost:9999"),
            ("http://[::1]:7000/", "http://[::1]:7000"),
            ("0.0.0.0", "http://127.0.0.1:11434"),
            ("0.0.0.0:12000", "http://127.0.0.1:12000"),
            ("[::]:12000", "http://[::1]:12000"),
            ("127.0.0.1", "http://127.0.0.1:11434"),
            ("  ", OLLAMA_DEFAULT),
            // Elsewhere: the default local address is probed instead.
            ("gpu-box:11434", OLLAMA_DEFAULT),
            ("https://ollama.example.com", OLLAMA_DEFAULT),
            ("10.0.0.5:11434", OLLAMA_DEFAULT),
            ("localhost.example.com:11434", OLLAMA_DEFAULT),
            ("[::ffff:127.0.0.1]:11434", OLLAMA_DEFAULT),
        ] {
            let env = env_with(host);
            assert_eq!(ollama_candidate(&env).base_url, expected, "{host}");
        }
    }

    #[test]
    fn only_loopback_urls_are_probed() {
        let candidate = |base_url: &str, api| ServerAddress {
            label: "x",
            provider: ProviderKind::Ollama,
            base_url: base_url.to_string(),
            api,
        };
        let url = |base: &str, api| models_url(&candidate(base, api)).map(|u| u.to_string());
        assert_eq!(
            url("http://127.0.0.1:11434", ProbeApi::OllamaTags).as_deref(),
            Some("http://127.0.0.1:11434/api/tags")
        );
        assert_eq!(
            url("http://localhost:1234/v1/", ProbeApi::OpenAiModels).as_deref(),
            Some("http://localhost:1234/v1/models")
        );
        assert_eq!(
            url("http://[::1]:8080/v1", ProbeApi::OpenAiModels).as_deref(),
            Some("http://[::1]:8080/v1/models")
        );
        assert!(url("http://127.9.9.9:1/v1", ProbeApi::OpenAiModels).is_some());
        for elsewhere in [
            "http://0.0.0.0:11434",
            "http://10.1.2.3:11434",
            "http://example.com:11434",
            "http://localhost.evil.example:1234/v1",
            "http://[::ffff:127.0.0.1]:8080/v1",
            "ftp://127.0.0.1/",
            "127.0.0.1:11434",
        ] {
            assert_eq!(url(elsewhere, ProbeApi::OllamaTags), None, "{elsewhere}");
        }
    }

    #[test]
    fn ollama_tags_are_read_like_ollama_writes_them() {
        let reply = r#"{"models":[
            {"name":"qwen3:0.6b","model":"qwen3:0.6b","modified_at":"2025-05-01T10:00:00.1+02:00",
             "size":522653767,"digest":"7df6b6e09427",
             "details":{"parent_model":"","format":"gguf","family":"qwen3","families":["qwen3"],
                        "parameter_size":"751.63M","quantization_level":"Q4_K_M"}},
            {"name":"nomic-embed-text:latest","model":"nomic-embed-text:latest","size":274302450},
            {"name":"llama3.2:latest","model":"llama3.2:latest","size":2019393189},
            {"name":"llama3.2:latest"},
            {"model":"nameless"},
            {"name":"bad\u0007name"},
            {"name":42}
        ]}"#;
        assert_eq!(
            parse_models(ProbeApi::OllamaTags, reply.as_bytes()),
            Some(vec![
                "qwen3:0.6b".to_string(),
                "llama3.2:latest".to_string()
            ])
        );
        assert_eq!(
            parse_models(ProbeApi::OllamaTags, br#"{"models":[]}"#),
            Some(vec![])
        );
    }

    #[test]
    fn openai_model_lists_are_read_from_lm_studio_and_llama_cpp() {
        let lm_studio = r#"{"data":[
            {"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"},
            {"id":"text-embedding-nomic-embed-text-v1.5","object":"model","owned_by":"organization_owner"}
        ],"object":"list"}"#;
        assert_eq!(
            parse_models(ProbeApi::OpenAiModels, lm_studio.as_bytes()),
            Some(vec!["qwen2.5-7b-instruct".to_string()])
        );
        let llama_cpp = r#"{"models":[{"name":"SmolLM2-135M-Instruct-Q8_0.gguf","model":"x"}],
            "object":"list","data":[{"id":"SmolLM2-135M-Instruct-Q8_0.gguf","object":"model",
            "created":1735689600,"owned_by":"llamacpp","meta":{"n_ctx_train":8192}}]}"#;
        assert_eq!(
            parse_models(ProbeApi::OpenAiModels, llama_cpp.as_bytes()),
            Some(vec!["SmolLM2-135M-Instruct-Q8_0.gguf".to_string()])
        );
    }

    #[test]
    fn malformed_or_foreign_replies_are_not_servers() {
        for body in [
            "",
            "<html><body>It works!</body></html>",
            "{\"models\": [",
            "{\"models\": {\"name\": \"x\"}}",
            "[]",
            "{\"data\": \"none\"}",
            "{\"error\": \"unauthorized\"}",
        ] {
            assert_eq!(
                parse_models(ProbeApi::OllamaTags, body.as_bytes()),
                None,
                "{body}"
            );
            assert_eq!(
                parse_models(ProbeApi::OpenAiModels, body.as_bytes()),
                None,
                "{body}"
            );
        }
        // Each API reads its own list only.
        assert_eq!(
            parse_models(ProbeApi::OpenAiModels, br#"{"models":[{"name":"m"}]}"#),
            None
        );
    }

    #[test]
    fn big_replies_are_dropped_and_long_lists_cut() {
        let many: Vec<String> = (0..5000)
            .map(|i| format!("{{\"name\":\"model-{i}\"}}"))
            .collect();
        let reply = format!("{{\"models\":[{}]}}", many.join(","));
        assert!(reply.len() < MAX_REPLY_BYTES);
        let models = parse_models(ProbeApi::OllamaTags, reply.as_bytes()).unwrap();
        assert_eq!(models.len(), MAX_MODELS);
        assert_eq!(models[0], "model-0");
        assert_eq!(models[MAX_MODELS - 1], format!("model-{}", MAX_MODELS - 1));

        let padding = " ".repeat(MAX_REPLY_BYTES);
        let oversized = format!("{{\"models\":[{{\"name\":\"m\"}}]{padding}}}");
        assert_eq!(
            parse_models(ProbeApi::OllamaTags, oversized.as_bytes()),
            None
        );

        let long_name = "x".repeat(MAX_NAME_CHARS + 1);
        let reply = format!("{{\"data\":[{{\"id\":\"{long_name}\"}},{{\"id\":\"ok\"}}]}}");
        assert_eq!(
            parse_models(ProbeApi::OpenAiModels, reply.as_bytes()),
            Some(vec!["ok".to_string()])
        );
    }
}
