//! What a model costs: the user's own prices first, nothing on a local server, else the
//! built-in table of the default models' prices (assets/prices.toml, dated). A hosted model
//! nobody priced costs "unknown", never $0.

use std::sync::LazyLock;

use serde::Deserialize;

use super::{Config, ProviderKind};

/// Prices in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    /// Input tokens sent.
    pub input: f64,
    /// Input read from the provider's prompt cache; the input price when not known.
    pub cached_input: f64,
    /// Output tokens the model wrote.
    pub output: f64,
}

impl Price {
    /// What a local server costs: nothing.
    pub const FREE: Price = Price {
        input: 0.0,
        cached_input: 0.0,
        output: 0.0,
    };

    /// What `input` tokens (`cached` of them from the cache) and `output` tokens cost.
    pub fn cost(&self, input: u64, cached: u64, output: u64) -> f64 {
        let fresh = input.saturating_sub(cached);
        (fresh as f64 * self.input
            + cached as f64 * self.cached_input
            + output as f64 * self.output)
            / 1e6
    }
}

/// Where a price comes from, for the user to judge it.
#[derive(Debug, Clone, PartialEq)]
pub enum PriceSource {
    /// A local server; why it is one.
    Local(String),
    /// The user's `price_input` / `price_output`.
    Config,
    /// A command-line agent's subscription, which the user pays for already; its name.
    Plan(String),
    /// The built-in table, as of its date.
    Table {
        /// The date the table's prices were taken.
        date: String,
    },
}

impl PriceSource {
    /// Where the price comes from, in words for the user.
    pub fn describe(&self) -> String {
        match self {
            PriceSource::Local(why) => format!("a local server costs nothing: {why}"),
            PriceSource::Config => "prices from your configuration".to_string(),
            PriceSource::Plan(plan) => format!("{plan} pays: nothing more per request"),
            PriceSource::Table { date } => format!("list prices of {date}"),
        }
    }
}

#[derive(Deserialize)]
struct Table {
    date: String,
    model: Vec<Row>,
}

#[derive(Deserialize)]
struct Row {
    provider: String,
    model: String,
    input: f64,
    cached_input: Option<f64>,
    output: f64,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    // assets/prices.toml, as JSON (build.rs says why).
    serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/prices.json"))).unwrap_or(Table {
        date: String::new(),
        model: Vec::new(),
    })
});

/// The listed price of `model` of `kind`, and the table's date: the price table's, or for a
/// named service's default model, the service's row.
pub fn listed(kind: ProviderKind, model: &str) -> Option<(Price, &'static str)> {
    if let Some(service) = kind.service() {
        let (Some(input), Some(output)) = (service.price_input, service.price_output) else {
            return None;
        };
        let price = Price {
            input,
            cached_input: input,
            output,
        };
        return (service.model == model.trim()).then_some((price, crate::service::checked()));
    }
    let table = &*TABLE;
    table
        .model
        .iter()
        .find(|row| row.provider == kind.name() && row.model == model.trim())
        .map(|row| {
            let price = Price {
                input: row.input,
                cached_input: row.cached_input.unwrap_or(row.input),
                output: row.output,
            };
            (price, table.date.as_str())
        })
}

/// How to give `kind`'s model a price, in words: the commands that set it.
pub fn how_to_price(kind: ProviderKind) -> String {
    format!(
        "set its prices in US dollars per million tokens: `iris config set {kind}.price_input \
         N` and `iris config set {kind}.price_output N`"
    )
}

impl Config {
    /// What the selected provider's main model costs ([`Config::price_of`]).
    pub fn model_price(&self) -> Option<(Price, PriceSource)> {
        self.price_of(self.require_model().ok()?)
    }

    /// What `model` of the selected provider costs: the user's prices when set (each over
    /// the table's), else nothing on a local server, else the table's; None when nobody
    /// knows (a hosted model is never assumed free).
    pub fn price_of(&self, model: &str) -> Option<(Price, PriceSource)> {
        let settings = self.provider_settings();
        let listed = listed(self.provider, model);
        let dollars = |micros: u64| micros as f64 / 1e6;
        let locality = self.locality();
        match (settings.price_input, settings.price_output, listed) {
            (None, None, _) if locality.local => {
                Some((Price::FREE, PriceSource::Local(locality.why)))
            }
            (None, None, _) if self.provider.cli().is_some() => Some((
                Price::FREE,
                PriceSource::Plan(self.provider.cli().map_or("", |a| a.plan()).to_string()),
            )),
            (None, None, Some((price, date))) => Some((
                price,
                PriceSource::Table {
                    date: date.to_string(),
                },
            )),
            (None, None, None) => None,
            // Half a price for a model nobody listed: the other half is unknown, not free.
            (Some(_), None, None) | (None, Some(_), None) if !locality.local => None,
            (input, output, listed) => {
                let base = listed.map(|(p, _)| p);
                let input = input.map(dollars).or(base.map(|p| p.input)).unwrap_or(0.0);
                let output = output
                    .map(dollars)
                    .or(base.map(|p| p.output))
                    .unwrap_or(0.0);
                let cached_input = base.map_or(input, |p| p.cached_input.min(input));
                Some((
                    Price {
                        input,
                        cached_input,
                        output,
                    },
                    PriceSource::Config,
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_model_of_a_hosted_provider_has_a_listed_price() {
        let hosted = [
            ProviderKind::OpenAi,
            ProviderKind::Anthropic,
            ProviderKind::Gemini,
        ];
        for kind in hosted {
            for model in [kind.default_model(), kind.default_fast_model()] {
                let (price, date) = listed(kind, model).unwrap_or_else(|| panic!("{kind} {model}"));
                assert!(
                    price.input > 0.0 && price.output > price.input,
                    "{kind} {model}"
                );
                assert!(price.cached_input <= price.input);
                assert_eq!(date.len(), 10, "a date: {date}");
            }
        }
    }

    #[test]
    fn a_service_lists_its_default_models_price_only() {
        let groq = ProviderKind::parse("groq").expect("groq");
        let (price, date) = listed(groq, groq.default_model()).expect("listed");
        assert!(price.input > 0.0 && price.output > 0.0);
        assert_eq!(date, crate::service::checked());
        assert_eq!(listed(groq, "some-other-model"), None);
        let vllm = ProviderKind::parse("vllm").expect("vllm");
        assert_eq!(listed(vllm, ""), None);
    }

    #[test]
    fn half_a_price_for_an_unlisted_hosted_model_is_no_price() {
        let mut config = Config {
            provider: ProviderKind::OpenAiCompatible,
            ..Config::default()
        };
        let settings = config.providers.get_mut(ProviderKind::OpenAiCompatible);
        settings.base_url = Some("https://api.example.com/v1".into());
        settings.price_input = Some(1_000_000);
        assert_eq!(config.price_of("m"), None);
        config
            .providers
            .get_mut(ProviderKind::OpenAiCompatible)
            .price_output = Some(2_000_000);
        let (price, source) = config.price_of("m").expect("priced");
        assert_eq!(
            (price.input, price.output, source),
            (1.0, 2.0, PriceSource::Config)
        );
    }

    #[test]
    fn cost_counts_cached_input_at_its_own_price() {
        let price = Price {
            input: 2.0,
            cached_input: 0.5,
            output: 10.0,
        };
        let cost = price.cost(1_000_000, 400_000, 100_000);
        assert!((cost - (1.2 + 0.2 + 1.0)).abs() < 1e-9, "{cost}");
    }
}
