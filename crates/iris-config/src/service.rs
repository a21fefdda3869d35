//! The named services: servers that speak OpenAI's Chat Completions under a name of their own
//! (`openrouter`, `groq`, `deepseek`, ..., `lmstudio`, `vllm`), each with its address, its
//! key's variable, its default model and what its wire supports. Their facts are data
//! (`assets/services.toml`, one row each, as documented), so a service is a row, not code.

use std::sync::LazyLock;

use serde::Deserialize;

/// One named service, as `assets/services.toml` describes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Service {
    /// The name users write: `groq`.
    pub name: String,
    /// How it is shown: `Groq`.
    pub title: String,
    /// The base URL whose `/chat/completions` is the endpoint; empty when the user gives it
    /// (Azure: the resource's address).
    #[serde(default)]
    pub base_url: String,
    /// The environment variable of its key; empty when it needs none.
    #[serde(default)]
    pub key_var: String,
    /// The environment variable of its address, when the service's docs name one.
    #[serde(default)]
    pub base_url_var: String,
    /// The default main model; empty when the user must name one.
    #[serde(default)]
    pub model: String,
    /// The default fast model; empty: the main model.
    #[serde(default)]
    pub fast_model: String,
    /// Whether `response_format: {type: json_schema}` is taken.
    #[serde(default)]
    pub json_schema: bool,
    /// Whether `response_format: {type: json_object}` is taken.
    #[serde(default)]
    pub json_object: bool,
    /// Whether it calls tools.
    #[serde(default)]
    pub tools: bool,
    /// Whether `stream_options: {include_usage: true}` is taken.
    #[serde(default)]
    pub stream_usage: bool,
    /// Whether the service usually runs on the user's machine (LM Studio, vLLM).
    #[serde(default)]
    pub local: bool,
    /// Whether requests are refused without a key.
    #[serde(default)]
    pub key_required: bool,
    /// The field of a reply that carries a reasoning model's thinking, when documented.
    #[serde(default)]
    pub reasoning_field: String,
    /// Fields merged into every request's body (OpenRouter's `usage: {include: true}`).
    #[serde(default)]
    pub extra_body: toml::Table,
    /// Headers every request carries (OpenRouter's optional attribution).
    #[serde(default)]
    pub headers: std::collections::BTreeMap<String, String>,
    /// Where these facts were read.
    #[serde(default)]
    pub docs: String,
    /// Anything notable about the service, in a line.
    #[serde(default)]
    pub note: String,
    /// The default model's list price per million input tokens, in US dollars, when known.
    #[serde(default)]
    pub price_input: Option<f64>,
    /// The default model's list price per million output tokens.
    #[serde(default)]
    pub price_output: Option<f64>,
}

#[derive(Deserialize)]
struct Table {
    /// When the facts (and prices) were checked.
    date: String,
    service: Vec<Service>,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    // assets/services.toml, as JSON (build.rs says why).
    serde_json::from_str::<Table>(include_str!(concat!(env!("OUT_DIR"), "/services.json")))
        .unwrap_or(Table {
            date: String::new(),
            service: Vec::new(),
        })
});

/// When the table's facts and prices were checked.
pub fn checked() -> &'static str {
    &TABLE.date
}

/// Every named service, in the file's order. The file is part of the binary and a test reads
/// it, so an empty table means it did not parse, which that test reports.
pub fn all() -> &'static [Service] {
    &TABLE.service
}

/// A named service by its index in [`all`]: small and `Copy`, for [`crate::ProviderKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ServiceId(u8);

impl ServiceId {
    /// Every service's id, in the file's order.
    pub fn all() -> impl Iterator<Item = ServiceId> {
        (0..all().len()).filter_map(|i| u8::try_from(i).ok().map(ServiceId))
    }

    /// The service named `name` (already lower case).
    pub fn find(name: &str) -> Option<ServiceId> {
        Self::all().find(|id| id.get().name == name)
    }

    /// The service's facts.
    pub fn get(self) -> &'static Service {
        // Ids are only made from indexes of the table, which never changes.
        &all()[usize::from(self.0)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header name of token characters and a visible ASCII value.
    fn valid_header(name: &str, value: &str) -> bool {
        !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && value.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
    }

    #[test]
    fn the_table_parses_and_every_row_is_usable() {
        let services = all();
        assert!(services.len() >= 11, "{} services", services.len());
        assert_eq!(checked().len(), 10, "a date: {}", checked());
        for s in services {
            assert!(!s.name.is_empty() && s.name == s.name.to_ascii_lowercase());
            assert!(!s.title.is_empty(), "{}", s.name);
            if !s.base_url.is_empty() {
                let url =
                    url::Url::parse(&s.base_url).unwrap_or_else(|e| panic!("{}: {e}", s.name));
                assert!(!s.base_url.ends_with('/'), "{}", s.name);
                assert_eq!(
                    s.local,
                    crate::endpoint::locality_of_url(&url).0,
                    "{}",
                    s.name
                );
            }
            assert_eq!(s.key_required, !s.key_var.is_empty(), "{}", s.name);
            assert!(s.docs.starts_with("https://"), "{}", s.name);
            assert!(s.json_schema || s.json_object || s.local, "{}", s.name);
            for (name, value) in &s.headers {
                assert!(valid_header(name, value), "{}: {name}", s.name);
            }
        }
        for name in [
            "openrouter",
            "groq",
            "deepseek",
            "mistral",
            "together",
            "fireworks",
            "xai",
            "cerebras",
            "azure",
            "lmstudio",
            "vllm",
        ] {
            assert!(ServiceId::find(name).is_some(), "{name}");
        }
    }
}
