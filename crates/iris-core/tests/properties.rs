//! Properties of every parser of repository or model text, on generated input: none panics
//! (and each returns, so none hangs), and each keeps what it promises: a normalised commit
//! message normalises to itself, a streamed reply's prefix shows a prefix of its fields, a
//! redacted text never holds the secret.

use iris_core::artifact::GeneratedMessage;
use iris_core::artifact::partial::{could_become as is_prefix, partial_object};
use iris_core::change::parse_unified_diff;
use iris_core::commit_rules;
use iris_core::pr_template;
use iris_core::secrets::{Scanner, SecretsIgnore};
use iris_core::ticket::Ticket;
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Text that looks like a unified diff often enough to reach the parser's deeper branches.
fn diffish() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just("diff --git a/src/a.rs b/src/a.rs".to_string()),
        Just("--- a/src/a.rs".to_string()),
        Just("+++ b/src/a.rs".to_string()),
        "@@ -[0-9]{1,3},[0-9]{1,2} \\+[0-9]{1,3},[0-9]{1,2} @@.{0,10}",
        "[ +-].{0,40}",
        Just("\\ No newline at end of file".to_string()),
        Just("Binary files a/x and b/x differ".to_string()),
        Just("rename from a".to_string()),
        Just("new file mode 100644".to_string()),
        ".{0,30}",
    ];
    prop::collection::vec(line, 0..40).prop_map(|lines| lines.join("\n"))
}

/// A JSON object of strings, numbers, booleans, lists and nested objects.
fn json_object() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::String),
        Just(Value::Null),
    ];
    let value = leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    prop::collection::btree_map("[a-z_]{1,8}", value, 0..5)
        .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn the_diff_parser_takes_anything(text in diffish(), raw in "\\PC{0,200}") {
        let _ = parse_unified_diff(&text);
        let _ = parse_unified_diff(&raw);
    }

    #[test]
    fn commit_rules_are_read_and_checked_on_anything(
        config in "\\PC{0,200}",
        message in "\\PC{0,200}",
    ) {
        for file in [".commitlintrc.json", ".commitlintrc.yml", "commitlint.config.js", "pyproject.toml"] {
            if let Ok(rules) = commit_rules::parse(file, &config) {
                let _ = rules.check(&message);
            }
        }
        let conventional = commit_rules::parse(
            ".commitlintrc.json",
            r#"{"extends": ["@commitlint/config-conventional"], "rules": {"references-empty": [1, "never"], "trailer-exists": [1, "always", "Signed-off-by:"], "body-case": [1, "always", ["lower-case", "kebab-case"]]}}"#,
        ).unwrap();
        let _ = conventional.check(&message);
        let _ = commit_rules::ParsedMessage::parse(&message);
    }

    #[test]
    fn a_normalised_commit_message_normalises_to_itself(
        emoji in proptest::option::of("\\PC{0,3}"),
        title in "\\PC{0,120}",
        body in prop::collection::vec("[ -~]{0,100}", 0..8),
    ) {
        let mut message = GeneratedMessage { emoji, title, message: body.join("\n") };
        message.normalize();
        let once = message.clone();
        message.normalize();
        prop_assert_eq!(message, once);
    }

    #[test]
    fn every_prefix_of_a_reply_shows_a_prefix_of_its_fields(generated in json_object()) {
        let text = generated.to_string();
        // As read back (serde_json's float parsing may land an ulp off the generated number).
        let object: Value = serde_json::from_str(&text).unwrap();
        let mut last = Value::Object(Map::new());
        for (cut, _) in text.char_indices().skip(1) {
            let shown = Value::Object(partial_object(&text[..cut]).unwrap_or_default());
            prop_assert!(is_prefix(&shown, &object), "cut at {}: {}", cut, shown);
            prop_assert!(is_prefix(&last, &shown), "cut at {}: {} then {}", cut, last, shown);
            last = shown;
        }
        prop_assert_eq!(Value::Object(partial_object(&text).unwrap_or_default()), object);
    }

    #[test]
    fn partial_replies_of_anything_never_panic(text in "\\PC{0,300}") {
        let _ = partial_object(&text);
    }

    #[test]
    fn pr_templates_and_tickets_take_anything(
        template in "\\PC{0,200}",
        body in "\\PC{0,200}",
        branch in "\\PC{0,40}",
        history in prop::collection::vec("\\PC{0,60}", 0..4),
    ) {
        let _ = pr_template::check(&template, &body);
        let _ = pr_template::outline(&template);
        let _ = Ticket::find(&branch, &history);
    }

    #[test]
    fn a_redacted_text_never_holds_the_secret(
        seed in 1u64..1_000_000,
        pick in any::<prop::sample::Index>(),
        before in "[ -~]{0,60}",
        after in "[ -~]{0,60}",
    ) {
        let leaks = iris_testkit::secrets::leaks_seeded(seed);
        let (rule, line, secret) = &leaks[pick.index(leaks.len())];
        let text = format!("{before}\n{line}\n{after}");
        let redacted = Scanner::new(SecretsIgnore::none()).redact(&text);
        for part in secret.lines().filter(|p| p.len() >= 16 || secret.len() < 16) {
            prop_assert!(!redacted.text.contains(part), "{} leaked in {:?}", rule, redacted.text);
        }
    }

    #[test]
    fn the_scanner_takes_anything(text in "\\PC{0,400}") {
        let _ = Scanner::new(SecretsIgnore::none()).redact(&text);
    }
}
