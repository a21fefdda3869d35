//! The LLM providers: which one, which model, where it lives, and the HTTP client all of them
//! share (timeouts, stall detection and retries).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use reqwest::{Request, Response};
use reqwest_middleware::{ClientWithMiddleware, Middleware, Next};

use crate::runtime::budget::{CostCap, Meter};
use crate::runtime::chat_reply::ChatReplies;
use crate::runtime::dry_run::DryRun;
use crate::runtime::events::EventSink;
use crate::runtime::patience::Patience;
use crate::runtime::redact::WithholdSecrets;
use crate::runtime::retry::RetryTransient;
use crate::runtime::stream_end::RequireStreamEnd;
use iris_studio_core::secrets::Scanner;

pub use crate::runtime::transport_failure::TransportFailure;
pub use iris_studio_config::{ProviderKind, Wire};

/// Everything needed to talk to one model.
#[derive(Clone)]
pub struct ProviderSpec {
    /// Which provider, and so which wire the requests speak.
    pub kind: ProviderKind,
    /// The model's name as the provider's API takes it (`claude-sonnet-4-5`).
    pub model: String,
    /// Where the provider's API is, when not at its default address (a local server, a proxy).
    pub base_url: Option<String>,
    /// Whether the server is local (the endpoint's property: [`iris_studio_config::Locality`]): a
    /// small model, free, sent less.
    pub local: bool,
    /// How hard a reasoning model thinks (`reasoning_effort`), when set.
    pub reasoning_effort: Option<String>,
    /// The key the requests carry; `None` for a provider that needs none (a local server).
    pub api_key: Option<String>,
    /// Longest silence while waiting for or reading a reply before the request is abandoned.
    pub stall_timeout: Duration,
    /// What finds secrets in each request before it leaves (`None`: `secret_scan = false`).
    pub secrets: Option<Arc<Scanner>>,
}

/// What one conversation's client reports to and spends from: the slot its transport's
/// failure is said in, its account with the command's budget, and the command's dry run.
/// A conversation's own: two conversations side by side never read each other's failure.
#[derive(Debug, Clone, Default)]
pub struct Conversation {
    /// Why the transport failed mid-reply (a command-line agent's words, a server gone
    /// silent), for the conversation's error (see [`TransportFailure`]).
    pub failure: TransportFailure,
    /// `max_cost_per_run`: the conversation's account with its command's ledger.
    pub meter: Option<Meter>,
    /// `--dry-run`: where the command keeps its first request instead of sending it.
    pub dry_run: Option<DryRun>,
}

impl fmt::Debug for ProviderSpec {
    // The key never reaches a log or an error message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderSpec")
            .field("kind", &self.kind)
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("local", &self.local)
            .field("api_key", &self.api_key.as_ref().map(|_| "****"))
            .field("secret_scan", &self.secrets.is_some())
            .finish()
    }
}

impl ProviderSpec {
    /// "anthropic claude-sonnet-4-5": how errors and progress name the model.
    pub fn label(&self) -> String {
        format!("{} {}", self.kind, self.model)
    }

    /// The shared HTTP client: secrets withheld from every request (reported to `sink`), a
    /// connect timeout, a reply whose head or next piece keeps Iris waiting longer than
    /// `stall_timeout` abandoned (`Patience`), retries for 429 and 5xx answers, and a
    /// stream that ends before its API's final event is an error.
    pub fn http_client(
        &self,
        sink: &EventSink,
        conversation: &Conversation,
    ) -> anyhow::Result<ClientWithMiddleware> {
        // No read timeout: `Patience` counts a server's silence only while Iris waits for it.
        let mut client = reqwest::Client::builder().connect_timeout(Duration::from_secs(15));
        // A server on this machine (Ollama, LM Studio, llama.cpp) is asked directly: a proxy
        // from the environment would not reach it.
        let local = self
            .base_url
            .as_deref()
            .and_then(|url| reqwest::Url::parse(url).ok());
        if local.is_some_and(|url| iris_studio_config::setup::is_loopback(&url)) {
            client = client.no_proxy();
        }
        if let Some(service) = self.kind.service()
            && !service.headers.is_empty()
        {
            let mut headers = reqwest::header::HeaderMap::new();
            for (name, value) in &service.headers {
                if let (Ok(name), Ok(value)) = (
                    reqwest::header::HeaderName::try_from(name.as_str()),
                    reqwest::header::HeaderValue::try_from(value.as_str()),
                ) {
                    headers.insert(name, value);
                }
            }
            client = client.default_headers(headers);
        }
        let client = client.build()?;
        let mut builder = reqwest_middleware::ClientBuilder::new(client);
        // First, so that a retried request is the redacted one.
        if let Some(scanner) = &self.secrets {
            builder = builder.with(WithholdSecrets::new(scanner.clone(), sink.clone()));
        }
        // Before the retries, so a retried request is not counted twice.
        if let Some(meter) = &conversation.meter {
            builder = builder.with(CostCap(meter.clone()));
        }
        let mut builder = builder
            .with(ExplainNoAnswer)
            .with(RetryTransient::default());
        // Each try on its own; a command-line agent's silence is its transport's to judge.
        if self.kind.cli().is_none() {
            builder = builder.with(Patience {
                stall: self.stall_timeout,
                failure: conversation.failure.clone(),
            });
        }
        let mut builder = builder.with(RequireStreamEnd::new(self.kind.wire()));
        if matches!(
            self.kind.wire(),
            Wire::ChatCompletions | Wire::Azure | Wire::Cli
        ) {
            builder = builder.with(ChatReplies::new(
                cost_report(sink, conversation.meter.clone()),
                self.kind.service().is_some_and(|s| !s.stream_usage),
            ));
        }
        // Last, so what it keeps is what would go out: redacted, as the provider reads it.
        if let Some(dry_run) = &conversation.dry_run {
            builder = builder.with(dry_run.clone());
        }
        // A command-line agent answers in place of the network, after everything else.
        if let Some(agent) = self.kind.cli() {
            builder = builder.with(crate::runtime::cli::CliTransport::new(
                agent,
                self.stall_timeout,
                conversation.failure.clone(),
            ));
        }
        Ok(builder.build())
    }
}

/// Where a cost the provider reports goes: the run's events, and its budget.
fn cost_report(sink: &EventSink, meter: Option<Meter>) -> crate::runtime::chat_reply::CostReport {
    let sink = sink.clone();
    Arc::new(move |dollars| {
        if let Some(meter) = &meter {
            meter.cost_reported(dollars);
        }
        sink.send(iris_studio_core::protocol::AgentEvent::Cost(dollars));
    })
}

/// Words a request that could not reach its server: reqwest says "error sending request for
/// url" whatever went wrong, and rig shows only that.
struct ExplainNoAnswer;

#[async_trait::async_trait]
impl Middleware for ExplainNoAnswer {
    async fn handle(
        &self,
        req: Request,
        extensions: &mut http::Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<Response> {
        let url = req.url().clone();
        let explained =
            |text: String| Err(reqwest_middleware::Error::Middleware(anyhow::anyhow!(text)));
        match next.run(req, extensions).await {
            Err(reqwest_middleware::Error::Reqwest(e)) if e.is_connect() => {
                explained(format!("could not connect to {url}"))
            }
            other => other,
        }
    }
}

/// Builds the rig completion model for `$spec` (its requests' secrets reported to `$sink`)
/// and evaluates `$body` with it bound to `$model`. A macro, because every provider's model
/// is a different type.
macro_rules! with_completion_model {
    ($spec:expr, $sink:expr, $conversation:expr, |$model:ident| $body:expr) => {{
        use rig_core::client::CompletionClient as _;
        use rig_core::providers::{anthropic, azure, gemini, ollama, openai};
        use $crate::runtime::provider::Wire;
        let spec: &$crate::runtime::provider::ProviderSpec = $spec;
        let http = spec.http_client($sink, $conversation)?;
        let key = spec.api_key.clone().unwrap_or_default();
        let build_error = |e: rig_core::http_client::Error| {
            anyhow::Error::new($crate::runtime::error::ProviderError::new(
                spec,
                $crate::runtime::error::ErrorKind::Request,
                e.to_string(),
            ))
        };
        // One client of type `$client` with the key, the base URL and the shared HTTP client.
        macro_rules! client {
            ($client:ty) => {{
                let mut builder = <$client>::builder().api_key(key);
                if let Some(url) = &spec.base_url {
                    builder = builder.base_url(url);
                }
                builder.http_client(http).build().map_err(build_error)?
            }};
        }
        match spec.kind.wire() {
            Wire::Responses => {
                let $model = client!(openai::Client).completion_model(&spec.model);
                $body
            }
            Wire::ChatCompletions => {
                let $model = client!(openai::CompletionsClient).completion_model(&spec.model);
                $body
            }
            // The resource's address, the key in an `api-key` header, the model named as
            // its deployment; the API version rig defaults to unless the URL's query says.
            Wire::Azure => {
                let (endpoint, version) =
                    $crate::runtime::provider::azure_endpoint(spec.base_url.as_deref());
                let mut builder = azure::Client::builder()
                    .api_key(azure::AzureOpenAIAuth::ApiKey(key))
                    .azure_endpoint(endpoint);
                if let Some(version) = version {
                    builder = builder.api_version(&version);
                }
                let $model = builder
                    .http_client(http)
                    .build()
                    .map_err(build_error)?
                    .completion_model(&spec.model);
                $body
            }
            Wire::Anthropic => {
                // A cache breakpoint on the instructions (after the tools, which come first):
                // the stable part of every request, so the next run or chat turn reads it at
                // the cached rate; and one on the last message, for the turns of a run.
                let $model = client!(anthropic::Client)
                    .completion_model(&spec.model)
                    .with_prompt_caching();
                $body
            }
            Wire::Gemini => {
                let $model = client!(gemini::Client).completion_model(&spec.model);
                $body
            }
            Wire::Ollama => {
                let $model = client!(ollama::Client).completion_model(&spec.model);
                $body
            }
            // Chat Completions carried to the command by the client's last middleware; the
            // address is only a name.
            Wire::Cli => {
                let $model = openai::CompletionsClient::builder()
                    .api_key(key)
                    .base_url(format!("http://{}.cli.invalid", spec.kind))
                    .http_client(http)
                    .build()
                    .map_err(build_error)?
                    .completion_model(&spec.model);
                $body
            }
        }
    }};
}

/// An Azure OpenAI base URL as rig's client takes it: the resource's address
/// (`https://NAME.openai.azure.com`) and the `api-version` its query names, if any. A
/// deployment's whole URL, as the portal shows it, is cut back to the resource.
pub fn azure_endpoint(url: Option<&str>) -> (String, Option<String>) {
    let url = url.unwrap_or_default().trim();
    let (address, query) = url.split_once('?').unwrap_or((url, ""));
    let version = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("api-version="))
        .filter(|v| !v.is_empty())
        .map(str::to_string);
    let address = address
        .split_once("/openai")
        .map_or(address, |(resource, _)| resource)
        .trim_end_matches('/');
    (address.to_string(), version)
}

pub(crate) use with_completion_model;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::runtime::canned::serve_once;

    fn spec(kind: ProviderKind, base_url: Option<String>) -> ProviderSpec {
        ProviderSpec {
            kind,
            model: "m".into(),
            base_url,
            local: false,
            reasoning_effort: None,
            api_key: Some("sk-secret-123".into()),
            stall_timeout: Duration::from_millis(300),
            secrets: None,
        }
    }

    #[test]
    fn debug_output_hides_the_key() {
        let spec = spec(ProviderKind::Anthropic, None);
        let shown = format!("{spec:?}");
        assert!(!shown.contains("sk-secret-123"));
        assert!(shown.contains("****"));
        assert_eq!(spec.label(), "anthropic m");
    }

    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok";
    const BODY: &str =
        r#"{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[]}"#;

    /// What a service's client sent for BODY.
    async fn sent_by(service: &str) -> String {
        let (url, served) = serve_once(Some(OK)).await;
        let kind = ProviderKind::parse(service).expect("a named service");
        let client = spec(kind, Some(url.clone()))
            .http_client(&EventSink::none(), &Conversation::default())
            .unwrap();
        let response = client
            .post(format!("{url}/chat/completions"))
            .body(BODY)
            .send()
            .await
            .unwrap();
        assert_eq!(response.text().await.unwrap(), "ok");
        served.await.unwrap().to_ascii_lowercase()
    }

    #[tokio::test]
    async fn a_service_s_headers_and_its_stream_options_are_as_its_table_says() {
        let openrouter = sent_by("openrouter").await;
        assert!(
            openrouter.contains("\r\nx-title: iris studio\r\n"),
            "{openrouter}"
        );
        assert!(openrouter.contains("stream_options"), "{openrouter}");
        let mistral = sent_by("mistral").await;
        assert!(!mistral.contains("x-title"), "{mistral}");
        assert!(
            !mistral.contains("stream_options"),
            "refused there: {mistral}"
        );
    }

    #[tokio::test]
    async fn no_answer_is_said_with_the_timeout_and_no_server_with_its_address() {
        let (url, _served) = serve_once(None).await;
        let client = spec(ProviderKind::Anthropic, Some(url.clone()))
            .http_client(&EventSink::none(), &Conversation::default())
            .unwrap();
        let err = client
            .post(format!("{url}/v1/messages"))
            .body("{}")
            .send()
            .await;
        let err = format!("{:#}", err.expect_err("silent"));
        assert!(
            err.contains("no answer from") && err.contains("within 0.3s"),
            "{err}"
        );

        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", closed.local_addr().unwrap());
        drop(closed);
        let err = client
            .post(format!("{url}/v1/messages"))
            .body("{}")
            .send()
            .await;
        let err = format!("{:#}", err.expect_err("nobody there"));
        assert!(err.contains("could not connect to"), "{err}");

        // Any other failure is reqwest's own.
        let (url, _served) = serve_once(Some("nonsense\r\n\r\n")).await;
        let err = client
            .post(format!("{url}/v1/messages"))
            .body("{}")
            .send()
            .await;
        let err = format!("{:#}", err.expect_err("no HTTP"));
        assert!(
            !err.contains("could not connect") && !err.contains("no answer"),
            "{err}"
        );
    }

    #[test]
    fn an_azure_url_is_cut_back_to_its_resource_and_keeps_its_version() {
        assert_eq!(
            azure_endpoint(Some(
                "https://acme.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21"
            )),
            (
                "https://acme.openai.azure.com".to_string(),
                Some("2024-10-21".to_string())
            )
        );
        assert_eq!(
            azure_endpoint(Some("https://acme.openai.azure.com/")),
            ("https://acme.openai.azure.com".to_string(), None)
        );
    }
}
