//! What the model may do without asking: every tool declares a [`Risk`], the user's
//! [`SafetyMode`] says which risks need an approval, and [`Safety::permit`] asks whoever
//! watches the run (the studio's prompt, the command line's terminal) through the run's
//! events. Nobody to ask is a refusal; a refusal reaches the model as a tool error it can read,
//! and the run goes on.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::time::Instant;

use super::events::{AgentEvent, EventSink};
use super::tools::ToolFailure;

/// What a tool can do to the user's machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Risk {
    /// Reads the repository and nothing else.
    ReadOnly,
    /// Changes something of the user's (the `update_*` tools replace the editor's text).
    Write,
    /// Runs programs of the repository (linters run its build scripts).
    Execute,
}

impl Risk {
    pub fn name(self) -> &'static str {
        match self {
            Risk::ReadOnly => "read-only",
            Risk::Write => "write",
            Risk::Execute => "execute",
        }
    }

    /// What a call of this risk does, in the words of a question to the user.
    pub fn what_it_does(self) -> &'static str {
        match self {
            Risk::ReadOnly => "reads the repository",
            Risk::Write => "changes your text",
            Risk::Execute => "runs programs of this repository",
        }
    }
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which risks need the user's approval (`safety_mode`, `--safety`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SafetyMode {
    /// Execute asks every time.
    Safe,
    /// Execute asks once per session per tool.
    #[default]
    Cautious,
    /// Everything but reading asks, every time.
    Paranoid,
    /// Nothing asks.
    Yolo,
}

impl SafetyMode {
    pub const NAMES: &'static str = "safe, cautious, paranoid or yolo";

    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "safe" => Some(Self::Safe),
            "cautious" => Some(Self::Cautious),
            "paranoid" => Some(Self::Paranoid),
            "yolo" => Some(Self::Yolo),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Safe => "safe",
            Self::Cautious => "cautious",
            Self::Paranoid => "paranoid",
            Self::Yolo => "yolo",
        }
    }

    /// How often a tool of `risk` needs the user's approval in this mode.
    pub fn asks(self, risk: Risk) -> Ask {
        match (self, risk) {
            (Self::Yolo, _) | (_, Risk::ReadOnly) => Ask::Never,
            (Self::Cautious, Risk::Execute) => Ask::OncePerSession,
            (Self::Safe | Self::Paranoid, Risk::Execute) | (Self::Paranoid, Risk::Write) => {
                Ask::EveryTime
            }
            (Self::Safe | Self::Cautious, Risk::Write) => Ask::Never,
        }
    }
}

/// How often a call needs approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    Never,
    /// The first call of the session; any approval then holds for the session.
    OncePerSession,
    /// Every call, unless the user allowed the tool for the session.
    EveryTime,
}

/// The user's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    AllowOnce,
    AllowForSession,
    Deny,
}

/// A call waiting for the user: the tool, its arguments as the model gave them, its risk, and
/// where the answer goes. Answering is optional: a request dropped unanswered is a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalRequest {
    pub tool: String,
    pub args: String,
    pub risk: Risk,
    pub reply: Reply,
}

impl ApprovalRequest {
    /// Arguments longer than this are cut where the question shows them.
    const MAX_ARGS_CHARS: usize = 400;

    /// What is asked, for the terminal and the studio alike.
    pub fn question(&self) -> String {
        format!(
            "Iris wants to run {} ({}: {})",
            self.tool,
            self.risk,
            self.risk.what_it_does()
        )
    }

    /// The arguments as the question shows them: cut, with `…`, when long.
    pub fn args_shown(&self) -> String {
        let mut args: String = self.args.chars().take(Self::MAX_ARGS_CHARS).collect();
        if args.len() < self.args.len() {
            args.push_str(" …");
        }
        args
    }
}

/// The one-time channel an answer goes back on, shared by the clones of a request (events
/// are cloned on their way to the screen); the first answer counts.
#[derive(Clone, Default)]
pub struct Reply(Arc<Mutex<Option<oneshot::Sender<Decision>>>>);

impl Reply {
    fn new() -> (Self, oneshot::Receiver<Decision>) {
        let (tx, rx) = oneshot::channel();
        (Self(Arc::new(Mutex::new(Some(tx)))), rx)
    }

    pub fn send(&self, decision: Decision) {
        if let Some(tx) = self.0.lock().ok().and_then(|mut slot| slot.take()) {
            let _ = tx.send(decision);
        }
    }
}

impl fmt::Debug for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reply")
    }
}

impl PartialEq for Reply {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Reply {}

/// The session's safety: the mode, the tools the user allowed for the session and the time
/// spent waiting for answers, shared by every clone (every run of a studio session).
#[derive(Debug, Clone, Default)]
pub struct Safety {
    pub mode: SafetyMode,
    allowed: Arc<Mutex<HashSet<String>>>,
    waiting: Arc<Mutex<Waiting>>,
}

/// Time with a question on screen: a run's deadline does not count it.
#[derive(Debug, Default)]
struct Waiting {
    /// Waits that ended.
    total: Duration,
    /// Questions open now, and since when one has been.
    open: usize,
    since: Option<Instant>,
}

impl Safety {
    pub fn new(mode: SafetyMode) -> Self {
        Self {
            mode,
            ..Self::default()
        }
    }

    /// How long questions have waited for the user so far, the open one included.
    pub fn waited(&self) -> Duration {
        self.waiting.lock().map_or(Duration::ZERO, |w| {
            w.total + w.since.map_or(Duration::ZERO, |since| since.elapsed())
        })
    }

    fn question_opened(&self) {
        if let Ok(mut w) = self.waiting.lock() {
            if w.open == 0 {
                w.since = Some(Instant::now());
            }
            w.open += 1;
        }
    }

    fn question_closed(&self) {
        if let Ok(mut w) = self.waiting.lock() {
            w.open = w.open.saturating_sub(1);
            if w.open == 0
                && let Some(since) = w.since.take()
            {
                w.total += since.elapsed();
            }
        }
    }

    fn allowed_for_session(&self, tool: &str) -> bool {
        self.allowed.lock().is_ok_and(|set| set.contains(tool))
    }

    fn allow_for_session(&self, tool: &str) {
        if let Ok(mut set) = self.allowed.lock() {
            set.insert(tool.to_string());
        }
    }

    /// Whether `tool` may run now: at once when the mode lets it, else after the user said so
    /// through an [`AgentEvent::Approval`] on `sink`. The error is what the model reads.
    pub async fn permit(
        &self,
        tool: &str,
        risk: Risk,
        args: &str,
        sink: &EventSink,
    ) -> Result<(), ToolFailure> {
        let ask = self.mode.asks(risk);
        if ask == Ask::Never || self.allowed_for_session(tool) {
            return Ok(());
        }
        let (reply, answer) = Reply::new();
        self.question_opened();
        sink.send(AgentEvent::Approval(ApprovalRequest {
            tool: tool.to_string(),
            args: args.to_string(),
            risk,
            reply,
        }));
        // A sink nobody reads drops the request, and with it the sender: a refusal.
        let decision = answer.await.unwrap_or(Decision::Deny);
        self.question_closed();
        match decision {
            Decision::AllowForSession => self.allow_for_session(tool),
            Decision::AllowOnce if ask == Ask::OncePerSession => self.allow_for_session(tool),
            Decision::AllowOnce => {}
            Decision::Deny => {
                return Err(ToolFailure::new(format!(
                    "the user did not allow {tool} ({risk}) to run (safety_mode {}); go on \
                     without it, from the evidence you have",
                    self.mode.name()
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc::unbounded_channel;

    #[test]
    fn each_mode_asks_for_the_risks_it_names() {
        use Ask::*;
        use Risk::*;
        let table = [
            (SafetyMode::Safe, [Never, Never, EveryTime]),
            (SafetyMode::Cautious, [Never, Never, OncePerSession]),
            (SafetyMode::Paranoid, [Never, EveryTime, EveryTime]),
            (SafetyMode::Yolo, [Never, Never, Never]),
        ];
        for (mode, expected) in table {
            let got = [ReadOnly, Write, Execute].map(|risk| mode.asks(risk));
            assert_eq!(got, expected, "{mode:?}");
            assert_eq!(SafetyMode::parse(mode.name()), Some(mode));
        }
        assert_eq!(SafetyMode::parse(" Paranoid "), Some(SafetyMode::Paranoid));
        assert_eq!(SafetyMode::parse("careful"), None);
    }

    /// Answers every approval request with the next decision and counts the requests.
    fn answering(decisions: Vec<Decision>) -> (EventSink, Arc<Mutex<Vec<String>>>) {
        let (tx, mut rx) = unbounded_channel();
        let asked = Arc::new(Mutex::new(Vec::new()));
        let seen = asked.clone();
        tokio::spawn(async move {
            let mut decisions = decisions.into_iter();
            while let Some(event) = rx.recv().await {
                if let AgentEvent::Approval(request) = event {
                    seen.lock().unwrap().push(request.tool.clone());
                    request
                        .reply
                        .send(decisions.next().unwrap_or(Decision::Deny));
                }
            }
        });
        (EventSink::new(tx), asked)
    }

    #[tokio::test]
    async fn cautious_asks_once_per_tool_and_session() {
        let safety = Safety::new(SafetyMode::Cautious);
        let (sink, asked) = answering(vec![Decision::AllowOnce]);
        for _ in 0..3 {
            safety
                .permit("static_analysis", Risk::Execute, "{}", &sink)
                .await
                .expect("allowed");
        }
        safety
            .permit("file_read", Risk::ReadOnly, "{}", &sink)
            .await
            .expect("reads never ask");
        assert_eq!(*asked.lock().unwrap(), ["static_analysis"]);
        // A clone is the same session.
        safety
            .clone()
            .permit("static_analysis", Risk::Execute, "{}", &EventSink::none())
            .await
            .expect("still allowed");
    }

    #[tokio::test]
    async fn safe_asks_every_time_unless_allowed_for_the_session() {
        let safety = Safety::new(SafetyMode::Safe);
        let (sink, asked) = answering(vec![
            Decision::AllowOnce,
            Decision::Deny,
            Decision::AllowForSession,
        ]);
        let call = || safety.permit("static_analysis", Risk::Execute, "{}", &sink);
        assert!(call().await.is_ok());
        let refused = call().await.unwrap_err().to_string();
        assert!(
            refused.contains("did not allow static_analysis"),
            "{refused}"
        );
        assert!(call().await.is_ok());
        assert!(call().await.is_ok());
        assert_eq!(asked.lock().unwrap().len(), 3);
    }

    #[tokio::test]
    async fn paranoid_asks_for_writes_and_nobody_to_ask_is_a_refusal() {
        let safety = Safety::new(SafetyMode::Paranoid);
        let refused = safety
            .permit("update_commit", Risk::Write, "{}", &EventSink::none())
            .await
            .unwrap_err();
        assert!(refused.to_string().contains("safety_mode paranoid"));
        assert!(
            Safety::new(SafetyMode::Yolo)
                .permit("static_analysis", Risk::Execute, "{}", &EventSink::none())
                .await
                .is_ok()
        );
    }
}
