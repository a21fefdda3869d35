//! Structured output: from a model's reply to a typed artifact.
//!
//! Models asked for JSON wrap it in reasoning, fences and prose, break its syntax and bend
//! its shape. [`parse_structured`] undoes that in steps, each usable alone: [`extract_json`]
//! finds the JSON, [`sanitize`] repairs its syntax, [`recover`] fits it to the schema, and
//! [`clean_text`] strips leaked fences and reasoning from every string.

mod coerce;
mod extract;
mod recover;
mod sanitize;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use thiserror::Error;

pub use extract::extract_json;
pub use recover::recover;
pub use sanitize::sanitize;

use iris_studio_core::artifact::Artifact;
use iris_studio_core::artifact::partial::{Incremental, partial_object};
use iris_studio_core::artifact::schema::full_schema;

/// Why a reply could not be turned into the artifact. Each carries the raw reply so the
/// caller can save it for the user.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OutputError {
    /// The reply is empty or only whitespace.
    #[error("the reply is empty")]
    Empty {
        /// The model's reply, as it came.
        raw: String,
    },
    /// No JSON object could be found in the reply's text.
    #[error("the reply holds no JSON object ({} characters of text)", raw.chars().count())]
    NoJson {
        /// The model's reply, as it came.
        raw: String,
    },
    /// The reply's JSON is broken beyond what [`sanitize`] repairs.
    #[error("the reply's JSON does not parse even after repair: {detail}")]
    InvalidJson {
        /// What the JSON parser said, on one line.
        detail: String,
        /// The model's reply, as it came.
        raw: String,
    },
    /// The JSON parses but is not the artifact, even after [`recover`]: no object, or a
    /// field that cannot be read as its type.
    #[error("the reply's JSON does not fit the expected shape: {detail}")]
    WrongShape {
        /// What does not fit, on one line.
        detail: String,
        /// The model's reply, as it came.
        raw: String,
    },
}

impl OutputError {
    /// The model's reply, as it came.
    pub fn raw(&self) -> &str {
        match self {
            OutputError::Empty { raw }
            | OutputError::NoJson { raw }
            | OutputError::InvalidJson { raw, .. }
            | OutputError::WrongShape { raw, .. } => raw,
        }
    }
}

/// The artifact a reply describes: extract, sanitize, parse, clean every string, recover
/// against `T`'s schema, deserialize.
pub fn parse_structured<T: DeserializeOwned + JsonSchema>(reply: &str) -> Result<T, OutputError> {
    let raw = || reply.to_string();
    if reply.trim().is_empty() {
        return Err(OutputError::Empty { raw: raw() });
    }
    let json = extract_json(reply).ok_or_else(|| OutputError::NoJson { raw: raw() })?;
    let value: Value = serde_json::from_str(&json)
        .or_else(|_| serde_json::from_str(&sanitize(&json)))
        .map_err(|e| OutputError::InvalidJson {
            detail: one_line(&e.to_string()),
            raw: raw(),
        })?;
    let schema = full_schema::<T>();
    if let Some(found) = not_an_object(&value, &schema) {
        return Err(OutputError::WrongShape {
            detail: format!("expected a JSON object, found {found}"),
            raw: raw(),
        });
    }
    let value = recover(clean_strings(value), &schema);
    serde_json::from_value(value).map_err(|e| OutputError::WrongShape {
        detail: one_line(&e.to_string()),
        raw: raw(),
    })
}

/// The keys of `reply`'s object when it names none of `T`'s fields (matched as recovery
/// matches them, inside one wrapper field too): a reply of another shape, which recovery
/// would turn into `T`'s defaults. `None` for a reply that names one, or that is no object.
pub fn foreign_keys<T: JsonSchema>(reply: &str) -> Option<Vec<String>> {
    let json = extract_json(reply)?;
    let value: Value = serde_json::from_str(&json)
        .or_else(|_| serde_json::from_str(&sanitize(&json)))
        .ok()?;
    let schema = full_schema::<T>();
    let properties = schema.get("properties")?.as_object()?;
    let mut object = match value {
        Value::Array(mut items) if items.len() == 1 => items.pop()?,
        other => other,
    };
    loop {
        let map = object.as_object()?;
        if map.is_empty() || map.keys().any(|k| recover::names(properties, k)) {
            return None;
        }
        match map.values().next() {
            Some(inner @ Value::Object(_)) if map.len() == 1 => object = inner.clone(),
            _ => return Some(map.keys().cloned().collect()),
        }
    }
}

/// The artifact `T` as far as `streamed` (its structured reply, still being written) has
/// written it, as markdown: the certain part of the JSON ([`partial_object`]), shaped as the
/// finished reply is; `None` while nothing of it is certain.
pub fn preview<T: Artifact>(streamed: &str) -> Option<String> {
    preview_with::<T>(streamed, &full_schema::<T>())
}

/// [`preview`] with `T`'s schema made once by the caller (a reply is previewed many times).
pub fn preview_with<T: Artifact>(streamed: &str, schema: &Value) -> Option<String> {
    // A reasoning model's thinking may hold braces of its own: the answer comes after it.
    let answer = extract::strip_leading_think(streamed);
    render::<T>(partial_object(&answer), schema)
}

/// The artifact's markdown from the certain part of its reply.
fn render<T: Artifact>(partial: Option<Map<String, Value>>, schema: &Value) -> Option<String> {
    let partial = partial.filter(|fields| !fields.is_empty())?;
    let value = recover(clean_strings(Value::Object(partial)), schema);
    let artifact: T = serde_json::from_value(value).ok()?;
    let text = artifact.to_markdown();
    (!text.trim().is_empty()).then_some(text)
}

/// [`preview_with`] over a reply that streams: each piece is read once (iris-core's
/// [`Incremental`]), so previewing a reply as it grows costs its length once, not once per
/// preview. What it shows is what [`preview_with`] shows for the reply so far.
pub struct Previewer<T> {
    schema: Value,
    streamed: String,
    /// Where the answer begins (after leading reasoning); `None` inside an unclosed one.
    answer_at: Option<usize>,
    /// How much of the answer has been read.
    read: usize,
    reader: Incremental,
    artifact: std::marker::PhantomData<fn() -> T>,
}

impl<T: Artifact> Previewer<T> {
    /// A previewer of `T` replies against its `schema` (made once by the caller).
    pub fn new(schema: Value) -> Self {
        Self {
            schema,
            streamed: String::new(),
            answer_at: Some(0),
            read: 0,
            reader: Incremental::new(),
            artifact: std::marker::PhantomData,
        }
    }

    /// The reply so far.
    pub fn streamed(&self) -> &str {
        &self.streamed
    }

    /// The next piece of the reply.
    pub fn push(&mut self, piece: &str) {
        self.streamed.push_str(piece);
        // Reasoning tags end in `>`: only then can where the answer begins move (a closed
        // block, or a stray closing tag that drops what came before it).
        if piece.contains('>') {
            let at = extract::answer_start(&self.streamed);
            if at != self.answer_at {
                self.answer_at = at;
                self.reader = Incremental::new();
                self.read = at.unwrap_or(0);
            }
        }
        if let Some(at) = self.answer_at {
            let from = self.read.max(at);
            self.reader.push(&self.streamed[from..]);
            self.read = self.streamed.len();
        }
    }

    /// Starts over (a new request, a tool call).
    pub fn clear(&mut self) {
        self.streamed.clear();
        self.answer_at = Some(0);
        self.read = 0;
        self.reader = Incremental::new();
    }

    /// The artifact as far as the reply has written it, as markdown; `None` while nothing
    /// of it is certain.
    pub fn render(&self) -> Option<String> {
        let partial = self.answer_at.and_then(|_| self.reader.object());
        render::<T>(partial, &self.schema)
    }
}

/// What the value is instead, when the schema wants an object and the value is not one (nor
/// an object wrapped in a one-element array), so recovery would only produce defaults.
fn not_an_object(value: &Value, schema: &Value) -> Option<&'static str> {
    if schema.get("type").is_none_or(|t| t != "object") {
        return None;
    }
    match value {
        Value::Object(_) => None,
        Value::Array(items) if items.len() == 1 && items[0].is_object() => None,
        Value::Array(_) => Some("an array"),
        Value::String(_) => Some("a string"),
        Value::Number(_) => Some("a number"),
        Value::Bool(_) => Some("a boolean"),
        Value::Null => Some("null"),
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// [`clean_text`] applied to every string in the value.
fn clean_strings(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(clean_text(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(clean_strings).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, clean_strings(v)))
                .collect(),
        ),
        other => other,
    }
}

/// Fence languages that mark a wrapper around prose, not code worth keeping as a block.
const WRAPPER_LANGS: &[&str] = &[
    "",
    "json",
    "text",
    "txt",
    "plaintext",
    "markdown",
    "md",
    "git",
    "commit",
];

/// The text without what leaked into it: leading `<think>` blocks, a code fence wrapping the
/// whole text when it is a prose wrapper (```` ``` ````, ```` ```text ````, ```` ```markdown ````...;
/// a ```` ```rust ```` block stays), an opening or closing fence line with no partner, and
/// the blanks around it. Fenced code inside the text is kept.
pub fn clean_text(text: &str) -> String {
    let text = extract::strip_leading_think(text);
    let mut lines: Vec<&str> = text.trim().lines().collect();
    let is_fence = |line: &str| line.trim_start().starts_with("```");
    let fence_count = lines.iter().filter(|l| is_fence(l)).count();
    let wrapper_open = lines.first().is_some_and(|first| {
        first
            .trim()
            .strip_prefix("```")
            .is_some_and(|lang| WRAPPER_LANGS.contains(&lang.trim().to_ascii_lowercase().as_str()))
    });
    let close_last = lines.len() > 1 && lines.last().is_some_and(|l| l.trim() == "```");
    if wrapper_open && close_last && fence_count == 2 {
        lines.remove(0);
        lines.pop();
    } else if fence_count % 2 == 1 {
        if wrapper_open {
            lines.remove(0);
        } else if close_last {
            lines.pop();
        }
    }
    lines.join("\n").trim().to_string()
}

impl<T: Artifact> crate::runtime::preview::Render for Previewer<T> {
    fn push(&mut self, piece: &str) {
        Previewer::push(self, piece);
    }

    fn clear(&mut self) {
        Previewer::clear(self);
    }

    fn render(&self) -> Option<String> {
        Previewer::render(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::artifact::{Critique, GeneratedMessage, Review, Severity};

    /// The previewer, fed piece by piece, shows at every point what previewing the whole
    /// reply so far shows: replies with reasoning before them, a stray closing tag, a fence.
    #[test]
    fn a_streamed_preview_shows_what_the_whole_reply_so_far_shows() {
        let message = r#"{"emoji": null, "title": "Add \"two()\"", "message": "Adds it.\n\nAnd é 😀 \u00e9."}"#;
        let replies = [
            message.to_string(),
            format!("<think>the {{diff}} adds</think>\n{message}"),
            "<thinking>unclosed { so far".to_string(),
            format!("<THINK>a</THINK> <think>b</think>```json\n{message}\n```"),
            format!("reasoning {{x}} then </think>{message}"),
            r#"{"title": "x </think> y", "message": "m"}"#.to_string(),
        ];
        let schema = full_schema::<GeneratedMessage>();
        for reply in &replies {
            for size in [1, 3, 8] {
                let mut previewer = Previewer::<GeneratedMessage>::new(schema.clone());
                let cuts: Vec<usize> = reply.char_indices().map(|(i, _)| i).collect();
                let mut read = 0;
                for &cut in cuts.iter().step_by(size).skip(1).chain([&reply.len()]) {
                    previewer.push(&reply[read..cut]);
                    read = cut;
                    assert_eq!(
                        previewer.render(),
                        preview_with::<GeneratedMessage>(&reply[..cut], &schema),
                        "{reply:?} at {cut} in pieces of {size}"
                    );
                }
                previewer.clear();
                assert_eq!(previewer.render(), None);
            }
        }
    }

    #[test]
    fn a_reply_naming_none_of_the_fields_is_of_another_shape() {
        let message = r#"{"emoji": null, "title": "Add two()", "message": "Adds it."}"#;
        assert_eq!(
            foreign_keys::<Critique>(message),
            Some(vec!["emoji".into(), "message".into(), "title".into()])
        );
        assert_eq!(
            foreign_keys::<Critique>(r#"{"commit": {"title": "x"}}"#),
            Some(vec!["title".into()])
        );
        for named in [
            r#"{"requires_revision": false, "issues": [], "revision_prompt": ""}"#,
            r#"{"critique": {"requiresRevision": true}}"#,
            r#"[{"confidence": 0.9}]"#,
            "{}",
            "no JSON at all",
        ] {
            assert_eq!(foreign_keys::<Critique>(named), None, "{named}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 128, ..Default::default() })]

        /// Recovery of a reply that already fits its schema gives it back unchanged.
        #[test]
        fn recovering_a_valid_reply_changes_nothing(
            emoji in proptest::option::of("[^\\pC]{1,2}"),
            title in "[^\\pC]{0,80}",
            message in "[^\\pC\\n]{0,200}",
        ) {
            let valid = serde_json::to_value(GeneratedMessage { emoji, title, message }).unwrap();
            let schema = full_schema::<GeneratedMessage>();
            proptest::prop_assert_eq!(recover(valid.clone(), &schema), valid);
        }

        /// Any reply, JSON or not, is read or refused: never a panic.
        #[test]
        fn any_reply_is_read_or_refused(reply in "\\PC{0,300}") {
            let _ = parse_structured::<Review>(&reply);
            let _ = preview::<Review>(&reply);
        }
    }

    #[test]
    fn a_preview_is_the_artifact_as_far_as_its_reply_is_written() {
        let reply = r#"{"emoji": null, "title": "Add two()", "message": "Adds it.\nFor callers."}"#;
        let upto = |needle: &str| &reply[..reply.find(needle).unwrap() + needle.len()];
        assert_eq!(preview::<GeneratedMessage>(upto("null")), None);
        assert_eq!(
            preview::<GeneratedMessage>(upto("Add tw")).as_deref(),
            Some("Add tw")
        );
        assert_eq!(
            preview::<GeneratedMessage>(upto("Adds it.\\n")).as_deref(),
            Some("Add two()\n\nAdds it.")
        );
        assert_eq!(
            preview::<GeneratedMessage>(reply).as_deref(),
            Some("Add two()\n\nAdds it.\nFor callers.")
        );
        // A reasoning model's thinking is not the answer, braces and all.
        let thinking = format!(
            "<think>Maybe {{\"title\": \"no\"}}</think>{}",
            upto("Add tw")
        );
        assert_eq!(
            preview::<GeneratedMessage>(&thinking).as_deref(),
            Some("Add tw")
        );
        // A review's findings show once each is whole.
        let review = r#"{"summary": "Two.", "findings": [{"severity": "high", "file": "a.rs", "line": 3, "title": "Off by one"}, {"severity": "low", "title": "Nam"#;
        let shown = preview::<Review>(review).unwrap();
        assert!(
            shown.contains("Two.") && shown.contains("Off by one"),
            "{shown}"
        );
        assert!(!shown.contains("Nam"), "{shown}");
    }

    #[test]
    fn a_fenced_reply_after_reasoning_parses() {
        let reply = "<think>The diff adds a parser.</think>\nHere it is:\n```json\n\
            {\"emoji\": null, \"title\": \"Add the parser\", \"message\": \"It parses.\"}\n```";
        let message: Result<GeneratedMessage, _> = parse_structured(reply);
        assert_eq!(
            message,
            Ok(GeneratedMessage {
                emoji: None,
                title: "Add the parser".into(),
                message: "It parses.".into(),
            })
        );
    }

    #[test]
    fn a_messy_review_is_recovered() {
        let reply = "Review:\n{\n  \"summary\": \"Adds a cache\nwith a bug.\",\n  \"findings\": [\n    \
            {\"severity\": \"High\", \"file\": \"src/cache.rs\", \"line\": \"42\", \"title\": \"Stale\", \
            \"body\": \"Never invalidated.\", \"extra\": 1},\n    {\"severity\": \"Warning\", \
            \"file\": \"src/lib.rs\", \"line\": null,},\n  ],\n  \"strengths\": \"Small diff\"\n}\n";
        let review: Review = parse_structured(reply).unwrap_or_default();
        assert_eq!(review.summary, "Adds a cache\nwith a bug.");
        assert_eq!(review.findings.len(), 2);
        assert_eq!(review.findings[0].severity, Severity::High);
        assert_eq!(review.findings[0].line, Some(42));
        assert_eq!(review.findings[1].severity, Severity::Medium);
        assert_eq!(review.findings[1].title, "");
        assert_eq!(review.strengths, vec!["Small diff".to_string()]);
    }

    #[test]
    fn missing_fields_and_wrong_types_still_give_an_artifact() {
        let critique: Critique =
            parse_structured(r#"{"requires_revision": "true", "confidence": "0.7"}"#)
                .unwrap_or_default();
        assert!(critique.requires_revision);
        assert!((critique.confidence - 0.7).abs() < 1e-6);
        assert!(critique.issues.is_empty());
    }

    #[test]
    fn strings_lose_leaked_fences_and_reasoning() {
        let reply = r#"{"title": "<think>hmm</think> Fix it", "message": "```\nBody text.\n```"}"#;
        let message: GeneratedMessage = parse_structured(reply).unwrap_or_default();
        assert_eq!(message.title, "Fix it");
        assert_eq!(message.message, "Body text.");
    }

    #[test]
    fn clean_text_keeps_code_blocks_and_drops_stray_fences() {
        let code = "```rust\nfn main() {}\n```";
        assert_eq!(clean_text(code), code);
        let prose_with_code = "Use this:\n```rust\nx();\n```\nDone.";
        assert_eq!(clean_text(prose_with_code), prose_with_code);
        assert_eq!(clean_text("```markdown\n# Title\n```"), "# Title");
        assert_eq!(clean_text("```json\nno close"), "no close");
        assert_eq!(clean_text("no open\n```"), "no open");
        assert_eq!(clean_text("  plain  "), "plain");
        assert_eq!(
            clean_text("Mentions <think> tags."),
            "Mentions <think> tags."
        );
    }

    #[test]
    fn hopeless_replies_are_errors_carrying_the_raw_text() {
        let err = parse_structured::<Review>("I cannot review this change.").err();
        assert_eq!(
            err.as_ref().map(ToString::to_string).as_deref(),
            Some("the reply holds no JSON object (28 characters of text)")
        );
        assert_eq!(
            err.as_ref().map(OutputError::raw),
            Some("I cannot review this change.")
        );
        assert!(matches!(
            parse_structured::<Review>("  "),
            Err(OutputError::Empty { .. })
        ));
        let broken = parse_structured::<Review>("{\"summary\": [1, 2 3]}").err();
        assert!(
            matches!(broken, Some(OutputError::InvalidJson { .. })),
            "{broken:?}"
        );
        assert!(broken.is_some_and(|e| !e.to_string().contains('\n')));
    }

    #[test]
    fn a_reply_that_is_not_an_object_is_an_error() {
        let err = parse_structured::<Review>("[1, 2, 3]").err();
        assert_eq!(
            err.map(|e| e.to_string()).as_deref(),
            Some(
                "the reply's JSON does not fit the expected shape: expected a JSON object, found an array"
            )
        );
        let wrapped: Result<Review, _> = parse_structured(r#"[{"summary": "ok"}]"#);
        assert_eq!(wrapped.map(|r| r.summary).as_deref(), Ok("ok"));
    }
}
