//! A reply that repeats its instructions instead of writing: a small model fills the schema's
//! fields with the nearest text it has seen, which is often the field's own description ("The
//! subject line: imperative mood ...") or a sentence of the prompt.
//!
//! A field echoes when at least half of its words (five at least) sit in runs of [`RUN`] or
//! more words in a row that the instructions hold too, or when it carries a run of
//! [`SENTENCE`] of them (a copied sentence in a longer text). Words are compared lowercased,
//! without punctuation, so a few words in common never count.

use std::collections::HashSet;

use serde_json::Value;

/// The shortest run of words in a row that counts as shared with the instructions.
const RUN: usize = 4;
/// A field with fewer words shared than this is no echo, however short.
const MIN_SHARED: usize = 5;
/// A run this long is a copied sentence, whatever else the field says.
const SENTENCE: usize = 8;
/// Characters of the echoed text quoted back.
const QUOTED: usize = 80;

/// Where a reply repeated its instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Echo {
    /// The field (`title`, `findings.0.body`).
    pub field: String,
    /// The start of what it holds.
    pub text: String,
}

/// The first field of `artifact` (its JSON) that repeats `instructions`, if any.
pub fn echoed(artifact: &Value, instructions: &str) -> Option<Echo> {
    let source = words(instructions);
    let runs: HashSet<&[String]> = source.windows(RUN).collect();
    let mut fields = Vec::new();
    strings(artifact, String::new(), &mut fields);
    fields.into_iter().find_map(|(field, text)| {
        let said = words(&text);
        echoes(&said, &runs).then(|| Echo {
            field,
            text: text.chars().take(QUOTED).collect(),
        })
    })
}

/// Whether `said` is mostly, or holds a sentence of, runs the instructions hold.
fn echoes(said: &[String], runs: &HashSet<&[String]>) -> bool {
    let mut shared = vec![false; said.len()];
    for (i, window) in said.windows(RUN).enumerate() {
        if runs.contains(window) {
            shared[i..i + RUN].fill(true);
        }
    }
    let count = shared.iter().filter(|&&s| s).count();
    let longest = shared.split(|&s| !s).map(<[bool]>::len).max().unwrap_or(0);
    (count >= MIN_SHARED && count * 2 >= said.len()) || longest >= SENTENCE
}

/// Lowercased words: runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Every string of `value` with its path.
fn strings(value: &Value, path: String, out: &mut Vec<(String, String)>) {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match value {
        Value::String(text) => out.push((path, text.clone())),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                strings(item, join(&i.to_string()), out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                strings(item, join(key), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const INSTRUCTIONS: &str = "## Output\nReply with JSON. \"title\": The subject line: \
        imperative mood (\"Add\", \"Fix\"), at most 72 characters, no trailing period. \
        \"message\": The body: why the change was made and what it does, in plain text \
        wrapped at about 72 columns. Empty when the title says everything. Write a body that \
        explains what changed and why.";

    #[test]
    fn a_copied_description_is_an_echo() {
        let reply = json!({
            "title": "The subject line: imperative mood (\"Add\", \"Fix\"), at most 72 characters",
            "message": ""
        });
        let echo = echoed(&reply, INSTRUCTIONS).unwrap();
        assert_eq!(echo.field, "title");
        assert!(echo.text.starts_with("The subject line"));
        // A long field that carries a sentence of them.
        let reply = json!({"title": "Add the walker",
            "message": "This adds a walker. The body: why the change was made and what it does."});
        assert_eq!(echoed(&reply, INSTRUCTIONS).unwrap().field, "message");
        // A short field that is a piece of them whole.
        let reply = json!({"title": "Imperative mood (Add, Fix), at most"});
        assert_eq!(echoed(&reply, INSTRUCTIONS).unwrap().field, "title");
        // Mostly theirs, with a word or two of its own (what SmolLM2 wrote on fd).
        for title in [
            "The subject line: imperative mood (Added),",
            "The subject line: Imperative mood (Add), Git_diff.git (git_diff.yaml)",
        ] {
            assert!(
                echoed(&json!({ "title": title }), INSTRUCTIONS).is_some(),
                "{title}"
            );
        }
    }

    #[test]
    fn a_reply_sharing_a_few_words_is_not() {
        for reply in [
            json!({"title": "Add the title check", "message": "The subject line of a commit is now checked at most once."}),
            json!({"title": "Fix the body wrapping at 72 columns", "message": "Wrapped in plain text."}),
            json!({"title": "Add", "message": "Fix"}),
            // Four words of a sentence of them ("a body that explains what changed and why").
            json!({"title": "Change the code", "message": "What changed and why."}),
            json!({"findings": [{"title": "Unchecked index", "body": "The change does not check the index before it reads."}]}),
        ] {
            assert_eq!(echoed(&reply, INSTRUCTIONS), None, "{reply}");
        }
    }

    #[test]
    fn nested_fields_are_named_by_their_path() {
        let reply = json!({"findings": [{"title": "ok"}, {"body": "why the change was made and what it does in plain text"}]});
        assert_eq!(
            echoed(&reply, INSTRUCTIONS).unwrap().field,
            "findings.1.body"
        );
    }
}
