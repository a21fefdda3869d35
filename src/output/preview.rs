//! `--dry-run`: what the first request of a run would send, shown instead of sent. The run
//! gathers its evidence and builds the request as always; the HTTP stack keeps it after the
//! secret scan (see `iris_studio_agent::runtime::dry_run`) and the run stops before anything leaves.

use std::sync::LazyLock;

use anyhow::Result;
use serde_json::{Value, json};

use iris_studio_agent::runtime::dry_run::{Captured, DryRun, Part, sizes};
use iris_studio_config::prices::{Price, PriceSource};
use iris_studio_config::{Config, ProviderKind};

/// The line after which the preview gives the request's body, byte for byte.
pub const BODY_FOLLOWS: &str = "The body, byte for byte:";

/// A dry run that showed its request: the command ends here, successfully.
#[derive(Debug, thiserror::Error)]
#[error("the dry run showed the request")]
pub struct DryRunShown;

/// Counts the tokens of a text.
pub type Count = Box<dyn Fn(&str) -> usize>;

/// How tokens are counted (said in words, and done): OpenAI's own tokenizer for its models,
/// else an estimate.
pub fn counter(kind: ProviderKind) -> (&'static str, Count) {
    static O200K: LazyLock<Option<tiktoken_rs::CoreBPE>> =
        LazyLock::new(|| tiktoken_rs::o200k_base().ok());
    match (kind, O200K.as_ref()) {
        (ProviderKind::OpenAi, Some(_)) => (
            "counted with OpenAI's o200k_base tokenizer",
            Box::new(|text: &str| {
                O200K
                    .as_ref()
                    .map_or(0, |bpe| bpe.encode_ordinary(text).len())
            }),
        ),
        _ => (
            "estimated at 4 characters a token (no tokenizer of this provider is at hand)",
            Box::new(|text: &str| text.chars().count().div_ceil(4)),
        ),
    }
}

/// The output budget the request asks for, whatever the wire calls it.
fn output_budget(body: &Value) -> Option<u64> {
    [
        &body["max_output_tokens"],
        &body["max_tokens"],
        &body["max_completion_tokens"],
        &body["options"]["num_predict"],
        &body["generationConfig"]["maxOutputTokens"],
    ]
    .into_iter()
    .find_map(Value::as_u64)
}

/// After a run: when it kept a request (`--dry-run`), shows it (`json`: as JSON) and returns
/// [`DryRunShown`]; else the run's own result stands.
pub fn finish<T>(
    dry_run: Option<&DryRun>,
    result: Result<T, impl Into<anyhow::Error>>,
    config: &Config,
    json: bool,
) -> Result<T> {
    let Some(captured) = dry_run.and_then(DryRun::captured) else {
        return result.map_err(Into::into);
    };
    let model = config
        .require_model()
        .map(str::to_string)
        .unwrap_or_default();
    let price = config.model_price();
    println!(
        "{}",
        preview(&captured, config.provider, &model, price.as_ref(), json)?
    );
    Err(DryRunShown.into())
}

/// What a kept request holds, its size by part and its cost, for `provider`'s `model` at
/// `price`: as text for a person, or as JSON.
pub fn preview(
    captured: &Captured,
    provider: ProviderKind,
    model: &str,
    price: Option<&(Price, PriceSource)>,
    as_json: bool,
) -> Result<String> {
    let body: Value = serde_json::from_slice(&captured.body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&captured.body).into_owned()));
    let (counted, count) = counter(provider);
    let parts = sizes(&body, captured.handed().as_ref(), &*count);
    let total = Part {
        name: "total",
        chars: parts.iter().map(|p| p.chars).sum(),
        tokens: count(&String::from_utf8_lossy(&captured.body)),
    };
    let budget = output_budget(&body);
    let input_cost = price
        .as_ref()
        .map(|(p, _)| p.cost(total.tokens as u64, 0, 0));
    let output_cost = price
        .as_ref()
        .zip(budget)
        .map(|((p, _), budget)| p.cost(0, 0, budget));
    let label = format!("{provider} {model}");
    if as_json {
        let cost = price.as_ref().map(|(p, source)| {
            json!({
                "input": input_cost,
                "output_at_budget": output_cost,
                "price_input": p.input,
                "price_output": p.output,
                "source": source.describe(),
            })
        });
        return Ok(serde_json::to_string_pretty(&json!({
            "model": label,
            "url": captured.url,
            "body": body,
            "parts": parts,
            "total": total,
            "tokens": counted,
            "output_budget": budget,
            "cost": cost,
        }))?);
    }
    // What it holds and costs first (the studio's overlay shows the top), then the body.
    let mut out = format!(
        "The first request to {label}, as it would go out; nothing was sent.\nPOST {}\n\n",
        captured.url
    );
    out.push_str(&format!(
        "{:<18} {:>10} {:>10}\n",
        "part", "chars", "tokens"
    ));
    for part in parts.iter().chain([&total]) {
        out.push_str(&format!(
            "{:<18} {:>10} {:>10}\n",
            part.name,
            thousands(part.chars),
            thousands(part.tokens)
        ));
    }
    out.push_str(&format!("tokens {counted}\n"));
    match (price, input_cost) {
        (Some((price, source)), Some(input)) => {
            out.push_str(&format!(
                "estimated cost: ${input:.4} for its input (${:.2} per million tokens, {})",
                price.input,
                source.describe()
            ));
            if let (Some(output), Some(budget)) = (output_cost, budget) {
                out.push_str(&format!(
                    "; its reply costs at most ${output:.4} (its {}-token budget at ${:.2} per \
                     million)",
                    thousands(budget as usize),
                    price.output
                ));
            }
        }
        _ => out.push_str(&format!(
            "estimated cost: unknown, no price is known for {label} (a hosted model is not \
             free): {}",
            iris_studio_config::prices::how_to_price(provider)
        )),
    }
    // The body byte for byte, as the provider would have read it.
    out.push_str(&format!(
        "\n\n{BODY_FOLLOWS}\n{}",
        String::from_utf8_lossy(&captured.body)
    ));
    Ok(out)
}

/// 12345 as `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_get_their_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(27102), "27,102");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn openai_tokens_are_counted_by_its_tokenizer_and_others_estimated() {
        let (how, count) = counter(ProviderKind::OpenAi);
        assert!(how.contains("o200k_base"));
        assert_eq!(count("hello world"), 2);
        let (how, count) = counter(ProviderKind::Anthropic);
        assert!(how.contains("estimated"));
        assert_eq!(count("hello world"), 3);
    }
}
