//! Properties of every parser of repository or model text, on generated input: none panics,
//! none hangs (each call runs within a deadline, and one that does not end fails the test),
//! and each keeps what it promises: a parsed diff's counts are its lines, a conventional
//! message passes the conventional rules, a normalised commit message normalises to itself, a
//! streamed reply's prefix shows a prefix of its fields, a ticket is in its branch, a
//! template's outline is its headings, a redacted text never holds the secret and redacting
//! it again changes nothing.

use std::time::Duration;

use iris_studio_core::artifact::GeneratedMessage;
use iris_studio_core::artifact::partial::{could_become as is_prefix, partial_object};
use iris_studio_core::change::{LineKind, parse_unified_diff};
use iris_studio_core::commit_rules;
use iris_studio_core::pr_template;
use iris_studio_core::secrets::{Scanner, SecretsIgnore, is_placeholder};
use iris_studio_core::ticket::Ticket;
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Longest any one parser call may take on these small inputs: far more than any needs.
const DEADLINE: Duration = Duration::from_secs(10);

/// `work`'s result, or a panic naming `what` when it does not end within [`DEADLINE`] (the
/// stuck thread is left behind; the test fails rather than hangs).
fn bounded<T: Send + 'static>(what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(value) => value,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what} did not end within {DEADLINE:?}")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("{what} panicked"),
    }
}

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

/// A well-formed diff of one to three files, each one hunk of context, removed and added
/// lines in some order, with how many it removes and adds.
fn wellformed() -> impl Strategy<Value = (String, Vec<(usize, usize)>)> {
    let hunk = prop::collection::vec(0u8..3, 1..30);
    prop::collection::vec(hunk, 1..4).prop_map(|files| {
        let mut text = String::new();
        let mut counts = Vec::new();
        for (i, kinds) in files.iter().enumerate() {
            let removed = kinds.iter().filter(|k| **k == 1).count();
            let added = kinds.iter().filter(|k| **k == 2).count();
            let context = kinds.len() - removed - added;
            text.push_str(&format!(
                "diff --git a/f{i}.rs b/f{i}.rs\n--- a/f{i}.rs\n+++ b/f{i}.rs\n@@ -1,{} +1,{} @@\n",
                context + removed,
                context + added
            ));
            for (n, kind) in kinds.iter().enumerate() {
                let mark = [' ', '-', '+'][usize::from(*kind)];
                text.push_str(&format!("{mark}line {n}\n"));
            }
            counts.push((removed, added));
        }
        (text, counts)
    })
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
    fn a_parsed_diff_counts_its_own_lines(text in diffish(), raw in "\\PC{0,200}") {
        for input in [text, raw] {
            let lines = input.lines().count();
            let files = bounded("the diff parser", move || parse_unified_diff(&input));
            let mut seen = 0;
            for file in &files {
                let all = file.hunks.iter().flat_map(|h| &h.lines);
                let added = all.clone().filter(|l| l.kind == LineKind::Added).count();
                let removed = all.clone().filter(|l| l.kind == LineKind::Removed).count();
                prop_assert_eq!(file.additions, added, "{}", file.path);
                prop_assert_eq!(file.deletions, removed, "{}", file.path);
                seen += all.count();
            }
            prop_assert!(seen <= lines, "{} diff lines from {} input lines", seen, lines);
        }
    }

    #[test]
    fn a_wellformed_diff_parses_to_its_files_and_counts((text, counts) in wellformed()) {
        let files = parse_unified_diff(&text);
        let parsed: Vec<(usize, usize)> = files.iter().map(|f| (f.deletions, f.additions)).collect();
        prop_assert_eq!(parsed, counts);
    }

    #[test]
    fn commit_rules_are_read_and_checked_on_anything(
        config in "\\PC{0,200}",
        message in "\\PC{0,200}",
    ) {
        for file in [".commitlintrc.json", ".commitlintrc.yml", "commitlint.config.js", "pyproject.toml"] {
            let (config, message) = (config.clone(), message.clone());
            bounded(file, move || {
                if let Ok(rules) = commit_rules::parse(file, &config) {
                    let _ = rules.check(&message);
                }
            });
        }
        let conventional = commit_rules::parse(
            ".commitlintrc.json",
            r#"{"extends": ["@commitlint/config-conventional"], "rules": {"references-empty": [1, "never"], "trailer-exists": [1, "always", "Signed-off-by:"], "body-case": [1, "always", ["lower-case", "kebab-case"]]}}"#,
        ).unwrap();
        let _ = conventional.check(&message);
        let _ = commit_rules::ParsedMessage::parse(&message);
    }

    #[test]
    fn a_conventional_message_passes_the_conventional_rules(
        kind in prop::sample::select(vec!["feat", "fix", "docs", "refactor", "test", "chore"]),
        scope in proptest::option::of("[a-z]{1,8}"),
        subject in "[a-z][a-z ]{0,40}[a-z]",
        body in proptest::option::of("[A-Za-z][a-z ,]{0,60}"),
    ) {
        let rules = commit_rules::parse(
            ".commitlintrc.json",
            r#"{"extends": ["@commitlint/config-conventional"]}"#,
        ).unwrap();
        let scope = scope.map(|s| format!("({s})")).unwrap_or_default();
        let mut message = format!("{kind}{scope}: {subject}");
        if let Some(body) = body {
            message.push_str(&format!("\n\n{body}"));
        }
        let violations = rules.check(&message);
        prop_assert_eq!(commit_rules::error_count(&violations), 0, "{}: {:?}", message, violations);
        // And a header without its type breaks them.
        let untyped = rules.check(&subject);
        prop_assert!(commit_rules::error_count(&untyped) > 0, "{}", subject);
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
    fn partial_replies_of_anything_end(text in "\\PC{0,300}") {
        bounded("the partial reply reader", move || partial_object(&text));
    }

    #[test]
    fn pr_templates_and_tickets_take_anything(
        template in "\\PC{0,200}",
        body in "\\PC{0,200}",
        branch in "\\PC{0,40}",
        history in prop::collection::vec("\\PC{0,60}", 0..4),
    ) {
        let (checked, body_again) = (template.clone(), body.clone());
        bounded("the template check", move || pr_template::check(&checked, &body_again));
        let outlined = template.clone();
        bounded("the template outline", move || pr_template::outline(&outlined));
        let (named, past) = (branch.clone(), history.clone());
        if let Some(ticket) = bounded("the ticket finder", move || Ticket::find(&named, &past)) {
            // The id is the branch's own: its digits are in the branch.
            let digits: String = ticket.id.chars().filter(char::is_ascii_digit).collect();
            prop_assert!(!digits.is_empty() && branch.contains(&digits), "{} from {}", ticket.id, branch);
            prop_assert_eq!(ticket.branch, branch);
        }
    }

    #[test]
    fn a_redacted_text_never_holds_the_secret(
        seed in 1u64..1_000_000,
        pick in any::<prop::sample::Index>(),
        before in "[ -~]{0,60}",
        after in "[ -~]{0,60}",
    ) {
        let leaks = iris_studio_testkit::secrets::leaks_seeded(seed);
        let (rule, line, secret) = &leaks[pick.index(leaks.len())];
        // A random body that happens to spell a stand-in word (`mvvUyouryk...` holds `your`)
        // is one the scanner leaves alone on purpose.
        prop_assume!(!secret.lines().any(is_placeholder));
        let text = format!("{before}\n{line}\n{after}");
        let redacted = Scanner::new(SecretsIgnore::none()).redact(&text);
        for part in secret.lines().filter(|p| p.len() >= 16 || secret.len() < 16) {
            prop_assert!(!redacted.text.contains(part), "{} leaked in {:?}", rule, redacted.text);
        }
        // The markers left in its place are no secrets themselves.
        let again = Scanner::new(SecretsIgnore::none()).redact(&redacted.text);
        prop_assert!(again.findings.is_empty(), "{}: {:?} in {:?}", rule, again.findings, redacted.text);
    }

    #[test]
    fn redacting_is_done_once(text in "\\PC{0,400}") {
        let input = text.clone();
        let once = bounded("the scanner", move || Scanner::new(SecretsIgnore::none()).redact(&input));
        if once.findings.is_empty() {
            prop_assert_eq!(&once.text, &text);
        }
        // What is left holds no secret: a second pass finds nothing and changes nothing.
        let twice = Scanner::new(SecretsIgnore::none()).redact(&once.text);
        prop_assert!(twice.findings.is_empty(), "{:?}", twice.findings);
        prop_assert_eq!(twice.text, once.text);
    }
}
