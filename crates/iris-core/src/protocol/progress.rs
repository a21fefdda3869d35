//! What Iris is doing, folded from her events: one pure account that the command line's
//! progress line and the studio's status line both draw, with the spinner they both turn.

use std::time::Duration;

use super::AgentEvent;
use crate::artifact::ArtifactKind;

/// The spinner's frames, one every [`SPINNER_STEP`].
pub const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// How long each spinner frame shows.
pub const SPINNER_STEP: Duration = Duration::from_millis(100);

/// The spinner's frame for something going on for `elapsed`.
pub fn spinner_frame(elapsed: Duration) -> &'static str {
    let step = elapsed.as_millis() / SPINNER_STEP.as_millis();
    SPINNER[(step % SPINNER.len() as u128) as usize]
}

/// A run's progress so far, updated event by event.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Progress {
    /// What Iris is doing now ("reading src/app.rs", "writing"); empty before the first event.
    pub activity: String,
    /// The text streamed since the last tool call: text before a tool call was thinking aloud.
    pub streamed: String,
    /// The artifact as the reply being streamed has written it so far, and which one.
    pub preview: Option<(ArtifactKind, String)>,
    /// Requests sent to the model.
    pub requests: usize,
    /// Input tokens over all requests, cached ones included.
    pub input_tokens: u64,
    /// Output tokens over all requests.
    pub output_tokens: u64,
    /// Input tokens the provider read from its prompt cache.
    pub cached_tokens: u64,
    /// Characters of a reasoning model's thinking so far.
    pub thinking_chars: usize,
    /// What the provider said the run's replies cost, in US dollars, when it says.
    pub reported_cost: Option<f64>,
    /// Tool calls begun.
    pub tool_calls: usize,
    /// Secrets kept out of the requests so far (each once).
    pub secrets_withheld: usize,
    /// Problems that did not stop the run (a template filled from the fields, a rule broken).
    pub warnings: Vec<String>,
}

impl Progress {
    /// What the run cost so far, in words: the provider's own figure when it reports one,
    /// else `at_price` (the tokens at the model's price), else unknown: a model nobody priced
    /// is not free.
    pub fn cost_words(&self, at_price: Option<f64>) -> String {
        match (self.reported_cost, at_price) {
            (Some(dollars), _) => format!("${dollars:.4} as the provider reported"),
            (None, Some(dollars)) => format!("${dollars:.4}"),
            (None, None) => "cost unknown".to_string(),
        }
    }

    /// Takes one event into account.
    pub fn apply(&mut self, event: &AgentEvent) {
        match event {
            AgentEvent::Status(text) => self.activity = text.clone(),
            AgentEvent::Warning(text) => {
                self.activity = format!("warning: {text}");
                self.warnings.push(text.clone());
            }
            AgentEvent::Request => {
                self.requests += 1;
                self.preview = None;
            }
            AgentEvent::ToolStarted { summary, .. } => {
                self.activity = summary.clone();
                self.streamed.clear();
                self.preview = None;
                self.tool_calls += 1;
            }
            AgentEvent::Preview { kind, text } => {
                self.activity = "writing".to_string();
                self.preview = Some((*kind, text.clone()));
            }
            AgentEvent::TextDelta(text) => {
                self.activity = "writing".to_string();
                self.streamed.push_str(text);
            }
            AgentEvent::Thinking(text) => {
                self.thinking_chars += text.chars().count();
                self.activity = format!("thinking ({} characters)", self.thinking_chars);
            }
            AgentEvent::Cost(dollars) => {
                *self.reported_cost.get_or_insert(0.0) += dollars;
            }
            AgentEvent::Usage {
                input,
                output,
                cached,
            } => {
                self.input_tokens += input;
                self.output_tokens += output;
                self.cached_tokens += cached;
            }
            AgentEvent::Approval(request) => {
                self.activity = format!("waiting for your approval of {}", request.tool);
            }
            AgentEvent::SecretWithheld(_) => self.secrets_withheld += 1,
            AgentEvent::ToolFinished { .. } | AgentEvent::Done(_) | AgentEvent::Error(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_shows_as_thinking_and_a_reported_cost_adds_up() {
        let mut progress = Progress::default();
        progress.apply(&AgentEvent::Thinking("The diff".into()));
        progress.apply(&AgentEvent::Thinking(" adds".into()));
        assert_eq!(progress.activity, "thinking (13 characters)");
        assert!(progress.streamed.is_empty(), "thinking is not the reply");
        assert_eq!(progress.reported_cost, None);
        progress.apply(&AgentEvent::Cost(0.25));
        progress.apply(&AgentEvent::Cost(0.5));
        assert_eq!(progress.reported_cost, Some(0.75));
        assert_eq!(
            progress.cost_words(Some(0.1)),
            "$0.7500 as the provider reported"
        );
        assert_eq!(Progress::default().cost_words(Some(0.1)), "$0.1000");
        assert!(
            Progress::default()
                .cost_words(None)
                .starts_with("cost unknown")
        );
    }

    #[test]
    fn a_preview_shows_until_the_next_request_or_tool_call() {
        let mut progress = Progress::default();
        let preview = |text: &str| AgentEvent::Preview {
            kind: ArtifactKind::Commit,
            text: text.into(),
        };
        progress.apply(&preview("Add tw"));
        assert_eq!(
            progress.preview,
            Some((ArtifactKind::Commit, "Add tw".into()))
        );
        progress.apply(&AgentEvent::Request);
        assert_eq!(progress.preview, None);
        progress.apply(&preview("Add two()"));
        progress.apply(&AgentEvent::ToolStarted {
            name: "update_commit".into(),
            summary: "updating the commit message".into(),
        });
        assert_eq!(progress.preview, None);
    }

    #[test]
    fn events_fold_into_activity_text_and_tokens() {
        let mut progress = Progress::default();
        progress.apply(&AgentEvent::Status("running commit".into()));
        assert_eq!(progress.activity, "running commit");
        progress.apply(&AgentEvent::TextDelta("Let me ".into()));
        progress.apply(&AgentEvent::TextDelta("look.".into()));
        assert_eq!(progress.activity, "writing");
        assert_eq!(progress.streamed, "Let me look.");
        progress.apply(&AgentEvent::ToolStarted {
            name: "file_read".into(),
            summary: "reading src/app.rs".into(),
        });
        assert_eq!(progress.activity, "reading src/app.rs");
        assert_eq!(
            progress.streamed, "",
            "text before a tool call was thinking aloud"
        );
        progress.apply(&AgentEvent::TextDelta("feat: ".into()));
        progress.apply(&AgentEvent::Request);
        progress.apply(&AgentEvent::Request);
        progress.apply(&AgentEvent::Usage {
            input: 1200,
            output: 40,
            cached: 1000,
        });
        progress.apply(&AgentEvent::Usage {
            input: 4,
            output: 300,
            cached: 0,
        });
        let before = progress.clone();
        progress.apply(&AgentEvent::ToolFinished {
            name: "file_read".into(),
            ok: true,
        });
        progress.apply(&AgentEvent::Done("feat: x".into()));
        progress.apply(&AgentEvent::Error("boom".into()));
        assert_eq!(progress, before, "endings change nothing");
        assert_eq!(
            progress,
            Progress {
                activity: "writing".into(),
                streamed: "feat: ".into(),
                preview: None,
                requests: 2,
                input_tokens: 1204,
                output_tokens: 340,
                cached_tokens: 1000,
                tool_calls: 1,
                secrets_withheld: 0,
                warnings: Vec::new(),
                thinking_chars: 0,
                reported_cost: None,
            }
        );
        progress.apply(&AgentEvent::Warning("a rule is broken".into()));
        assert_eq!(progress.activity, "warning: a rule is broken");
        assert_eq!(progress.warnings, ["a rule is broken"]);
    }

    #[test]
    fn the_spinner_turns_a_frame_every_step() {
        assert_eq!(spinner_frame(Duration::ZERO), "⠋");
        assert_eq!(spinner_frame(Duration::from_millis(99)), "⠋");
        assert_eq!(spinner_frame(Duration::from_millis(100)), "⠙");
        assert_eq!(spinner_frame(Duration::from_millis(950)), "⠏");
        assert_eq!(spinner_frame(Duration::from_millis(1000)), "⠋");
    }
}
