//! The models a provider lists: one `GET`, which costs nothing and writes nothing, made by the
//! client its requests are made with (its address, its key). `iris doctor --online` asks it to
//! learn that the key and the address work before a run finds out.

use std::time::Duration;

use anyhow::{Context, bail};
use rig_core::client::ModelListingClient as _;
use rig_core::providers::{anthropic, gemini, ollama, openai};

use super::provider::{ProviderKind, Wire};

/// Where a provider's models are asked for: the provider, its base URL (`None`: its vendor's
/// own) and its key, as its requests carry them.
#[derive(Clone, Copy)]
pub struct Lister<'a> {
    /// The provider, whose wire says how to ask.
    pub kind: ProviderKind,
    /// Its base URL; `None` for its vendor's own.
    pub base_url: Option<&'a str>,
    /// Its key; `None` for a server that takes none.
    pub api_key: Option<&'a str>,
}

/// The model ids the provider lists, asked within `timeout`. An error says why not in words;
/// the key is never in them (a provider's error that quotes it has it masked).
pub async fn list_models(lister: Lister<'_>, timeout: Duration) -> anyhow::Result<Vec<String>> {
    let mut http = reqwest::Client::builder()
        .connect_timeout(timeout)
        .timeout(timeout);
    // As for the provider's requests: a server on this machine is asked directly.
    let url = lister
        .base_url
        .and_then(|url| reqwest::Url::parse(url).ok());
    if url.is_some_and(|url| iris_studio_config::setup::is_loopback(&url)) {
        http = http.no_proxy();
    }
    let http = http.build().context("could not build an HTTP client")?;
    let key = lister.api_key.unwrap_or_default().to_string();
    let asked = tokio::time::timeout(timeout, listed(lister, http, key.clone())).await;
    let listed = match asked {
        Ok(listed) => listed,
        Err(_) => bail!("no answer within {} s", timeout.as_secs_f32()),
    };
    listed.map_err(|e| anyhow::anyhow!(said(&format!("{e:#}"), &key)))
}

/// The most of a provider's error said: its words and the start of the body it answered.
const MAX_SAID: usize = 400;

/// The list, from the client of the provider's wire.
async fn listed(
    lister: Lister<'_>,
    http: reqwest::Client,
    key: String,
) -> anyhow::Result<Vec<String>> {
    // One client of type `$client` with the key and the base URL, asked for its models.
    macro_rules! list {
        ($client:ty) => {{
            let mut builder = <$client>::builder().api_key(key);
            if let Some(url) = lister.base_url {
                builder = builder.base_url(url);
            }
            builder.http_client(http).build()?.list_models().await?
        }};
    }
    let models = match lister.kind.wire() {
        // Both of OpenAI's APIs list at `{base}/models`; rig's lister is the Responses client's.
        Wire::Responses | Wire::ChatCompletions => list!(openai::Client),
        Wire::Anthropic => list!(anthropic::Client),
        Wire::Gemini => list!(gemini::Client),
        Wire::Ollama => list!(ollama::Client),
        Wire::Azure | Wire::Cli => bail!("{} lists no models to ask for", lister.kind),
    };
    Ok(models.data.into_iter().map(|model| model.id).collect())
}

/// `text` on one line, at most [`MAX_SAID`] characters, with every occurrence of `key`
/// replaced by `****`.
fn said(text: &str, key: &str) -> String {
    let text = match key.trim() {
        "" => text.to_string(),
        key => text.replace(key, "****"),
    };
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(MAX_SAID) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_one_bounded_line_with_the_key_masked() {
        assert_eq!(
            said("401 for key sk-abc123:\nsk-abc123 is wrong", "sk-abc123"),
            "401 for key ****: **** is wrong"
        );
        assert_eq!(said("no key\n\nhere", ""), "no key here");
        let long = said(&"x ".repeat(1000), "");
        assert_eq!(long.chars().count(), MAX_SAID + 3);
        assert!(long.ends_with("..."));
    }
}
