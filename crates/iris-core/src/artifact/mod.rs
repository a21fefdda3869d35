//! The artifacts Iris writes: commit messages, reviews, pull request descriptions,
//! changelogs, release notes, and the critic's verdict on them.
//!
//! Each is plain data the model fills in as JSON (its doc comments become the schema's
//! descriptions, so they are written for the model) and renders itself as markdown.

mod changelog;
mod commit;
pub(crate) mod commit_body;
pub mod commit_template;
mod critique;
pub mod echo;
pub mod intent;
mod kind;
pub(crate) mod markdown;
pub mod partial;
mod pull_request;
mod release_notes;
pub mod review;
pub mod schema;
pub mod title_floor;

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use changelog::{CHANGELOG_HEADER, Changelog, ChangelogEntry, insert_into_changelog};
pub use commit::{GeneratedMessage, MAX_TITLE_CHARS};
pub use critique::{Critique, CritiqueIssue};
pub use kind::{ArtifactKind, Descriptor, Input};
pub use pull_request::PullRequest;
pub use release_notes::{Highlight, ReleaseNotes, ReleaseSection};
pub use review::{
    CONFIDENCE_MARK, Category, Check, Finding, FindingBlock, Folded, NEAR_LINES, Review,
    SecondLook, Severity, Verdict, apply_second_look, check_findings, finding_blocks,
    left_out_line, merge_reviews, second_look_request, without_findings,
};

/// What a capability produces; capability files name it (`output_type = "review"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputType {
    /// A commit message (`iris gen`).
    Commit,
    /// A code review of a change.
    Review,
    /// A pull request description.
    PullRequest,
    /// Changelog entries for a range of commits.
    Changelog,
    /// Release notes for a range of commits.
    ReleaseNotes,
    /// The critic's verdict on another artifact.
    Critique,
    /// A file's intent and responsibility blocks (`iris explain`).
    FileIntent,
    /// Keep or drop for each finding of a review (`iris review --verify`).
    SecondLook,
    /// A change split into commits (`iris split`).
    Split,
    /// Free text (chat replies, explanations): no JSON is asked for.
    Text,
}

impl OutputType {
    /// Every output type; a name from a capability file is looked up among them.
    pub const ALL: [OutputType; 10] = [
        OutputType::Commit,
        OutputType::Review,
        OutputType::PullRequest,
        OutputType::Changelog,
        OutputType::ReleaseNotes,
        OutputType::Critique,
        OutputType::FileIntent,
        OutputType::SecondLook,
        OutputType::Split,
        OutputType::Text,
    ];

    /// The name capability files use.
    pub fn name(self) -> &'static str {
        match self {
            OutputType::Commit => "commit",
            OutputType::Review => "review",
            OutputType::PullRequest => "pull_request",
            OutputType::Changelog => "changelog",
            OutputType::ReleaseNotes => "release_notes",
            OutputType::Critique => "critique",
            OutputType::FileIntent => "file_intent",
            OutputType::SecondLook => "second_look",
            OutputType::Split => "split",
            OutputType::Text => "text",
        }
    }

    /// Whether the model is asked for JSON (every type but `text`).
    pub fn is_structured(self) -> bool {
        self != OutputType::Text
    }

    /// The JSON schema the model's reply must match, in the shape providers accept (see
    /// [`schema::provider_schema`]); `{"type": "string"}` for text.
    pub fn schema(self) -> serde_json::Value {
        match self {
            OutputType::Commit => schema::provider_schema::<GeneratedMessage>(),
            OutputType::Review => schema::provider_schema::<Review>(),
            OutputType::PullRequest => schema::provider_schema::<PullRequest>(),
            OutputType::Changelog => schema::provider_schema::<Changelog>(),
            OutputType::ReleaseNotes => schema::provider_schema::<ReleaseNotes>(),
            OutputType::Critique => schema::provider_schema::<Critique>(),
            OutputType::FileIntent => schema::provider_schema::<intent::IntentAnswer>(),
            OutputType::SecondLook => schema::provider_schema::<SecondLook>(),
            OutputType::Split => schema::provider_schema::<crate::split::SplitPlan>(),
            OutputType::Text => serde_json::json!({ "type": "string" }),
        }
    }
}

impl fmt::Display for OutputType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An output type name that is not one of [`OutputType::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "unknown output type `{0}`; known: commit, review, pull_request, changelog, release_notes, critique, file_intent, second_look, split, text"
)]
pub struct UnknownOutputType(pub String);

impl FromStr for OutputType {
    type Err = UnknownOutputType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OutputType::ALL
            .into_iter()
            .find(|t| t.name() == s.trim())
            .ok_or_else(|| UnknownOutputType(s.to_string()))
    }
}

/// An artifact type: what the model fills in and how it reads as markdown.
pub trait Artifact: Serialize + DeserializeOwned + JsonSchema + Default {
    /// The output type whose schema the model fills in for this artifact.
    const OUTPUT_TYPE: OutputType;

    /// The artifact as markdown, the way the studio shows it and the command line prints it.
    fn to_markdown(&self) -> String;

    /// Fixes what models commonly get wrong in form (a commit title over 72 characters).
    fn normalize(&mut self) {}

    /// What is missing for the artifact to be usable (recovery fills absent fields with
    /// empty values, so an empty reply parses); `None` when it is complete.
    fn missing(&self) -> Option<&'static str> {
        None
    }

    /// Whether a reply must name one of the artifact's fields to be read as one. Set where
    /// every field has a default that [`Artifact::missing`] cannot tell from an answer: a
    /// critique's object of another shape (a commit message's) would read as an approval.
    const NAMES_A_FIELD: bool = false;
}

macro_rules! artifact {
    ($type:ty, $output:expr, |$it:ident| $missing:expr) => {
        impl Artifact for $type {
            const OUTPUT_TYPE: OutputType = $output;

            fn to_markdown(&self) -> String {
                <$type>::to_markdown(self)
            }

            fn missing(&self) -> Option<&'static str> {
                let $it = self;
                $missing
            }
        }
    };
}

impl Artifact for GeneratedMessage {
    const OUTPUT_TYPE: OutputType = OutputType::Commit;

    fn to_markdown(&self) -> String {
        GeneratedMessage::to_markdown(self)
    }

    fn normalize(&mut self) {
        GeneratedMessage::normalize(self);
    }

    fn missing(&self) -> Option<&'static str> {
        self.title.trim().is_empty().then_some("a title")
    }
}

artifact!(Review, OutputType::Review, |r| r
    .summary
    .trim()
    .is_empty()
    .then_some("a summary"));
artifact!(PullRequest, OutputType::PullRequest, |p| p
    .title
    .trim()
    .is_empty()
    .then_some("a title"));
artifact!(Changelog, OutputType::Changelog, |c| c
    .sections()
    .iter()
    .all(|(_, entries)| entries.is_empty())
    .then_some("any entry"));
artifact!(ReleaseNotes, OutputType::ReleaseNotes, |n| n
    .summary
    .trim()
    .is_empty()
    .then_some("a summary"));
impl Artifact for Critique {
    const OUTPUT_TYPE: OutputType = OutputType::Critique;
    const NAMES_A_FIELD: bool = true;

    fn to_markdown(&self) -> String {
        Critique::to_markdown(self)
    }
}
// A plan with no group is one check_plan refuses, so it is sent back rather than unread.
artifact!(crate::split::SplitPlan, OutputType::Split, |_p| None);
artifact!(SecondLook, OutputType::SecondLook, |l| l
    .verdicts
    .is_empty()
    .then_some("a verdict"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_from_str_and_serde() {
        for output in OutputType::ALL {
            assert_eq!(output.name().parse::<OutputType>(), Ok(output));
            assert_eq!(
                serde_json::to_value(output).ok(),
                Some(serde_json::Value::String(output.name().into()))
            );
        }
        let err = "prs".parse::<OutputType>().err().map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.contains("`prs`") && e.contains("pull_request")));
    }

    #[test]
    fn every_structured_schema_is_an_inlined_closed_object() {
        for output in OutputType::ALL.into_iter().filter(|t| t.is_structured()) {
            let schema = output.schema();
            let text = schema.to_string();
            assert_eq!(schema["type"], "object", "{output}");
            assert_eq!(schema["additionalProperties"], false, "{output}");
            assert!(
                !text.contains("$ref") && !text.contains("$defs"),
                "{output}: {text}"
            );
            assert!(!text.contains("oneOf"), "{output}: {text}");
        }
        assert_eq!(OutputType::Text.schema()["type"], "string");
    }

    #[test]
    fn schemas_carry_the_doc_comments_and_enums() {
        let review = OutputType::Review.schema();
        let severity = &review["properties"]["findings"]["items"]["properties"]["severity"];
        assert_eq!(
            severity["enum"],
            serde_json::json!(["critical", "high", "medium", "low", "info"])
        );
        let meaning = severity["description"].as_str().unwrap_or_default();
        assert!(meaning.contains("must be fixed"), "{meaning}");
        let title = &OutputType::Commit.schema()["properties"]["title"]["description"];
        assert!(title.as_str().is_some_and(|d| d.contains("72 characters")));
        let confidence = &OutputType::Critique.schema()["properties"]["confidence"];
        assert_eq!(confidence["maximum"], 1.0);
    }

    #[test]
    fn artifacts_render_through_the_trait() {
        fn render<A: Artifact>(artifact: &A) -> (OutputType, String) {
            (A::OUTPUT_TYPE, artifact.to_markdown())
        }
        let (output, md) = render(&Review::default());
        assert_eq!(output, OutputType::Review);
        assert!(md.starts_with("# Code review"));
    }
}
