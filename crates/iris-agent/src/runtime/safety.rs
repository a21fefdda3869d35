//! The session's safety: [`Safety::permit`] asks whoever watches the run (the studio's prompt,
//! the command line's terminal) through the run's events when the user's [`SafetyMode`] says a
//! tool's [`Risk`] needs an approval. Nobody to ask is a refusal; a refusal reaches the model as
//! a tool error it can read, and the run goes on.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use iris_studio_core::protocol::{
    AgentEvent, ApprovalRequest, Ask, Decision, Reply, Risk, SafetyMode,
};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::runtime::events::EventSink;

/// A call the user did not allow, worded for the model to read (a tool's failure).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// The session's safety: the mode, the tools the user allowed for the session and the time
/// spent waiting for answers, shared by every clone (every run of a studio session).
#[derive(Debug, Clone, Default)]
pub struct Safety {
    /// Which tool calls need the user's approval.
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
    /// A session's safety in `mode`, with no tool allowed for the session yet.
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
    ) -> Result<(), Refused> {
        let ask = self.mode.asks(risk);
        if ask == Ask::Never || self.allowed_for_session(tool) {
            return Ok(());
        }
        let (tx, answer) = oneshot::channel();
        let reply = Reply::new(move |decision| {
            let _ = tx.send(decision);
        });
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
                return Err(Refused(format!(
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

    #[tokio::test(start_paused = true)]
    async fn the_time_questions_wait_counts_once_while_any_is_open() {
        let safety = Safety::new(SafetyMode::Safe);
        let (tx, mut rx) = unbounded_channel();
        // The user answers each question 3 s after it is asked.
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if let AgentEvent::Approval(request) = event {
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_secs(3)).await;
                        request.reply.send(Decision::AllowOnce);
                    });
                }
            }
        });
        let sink = EventSink::new(tx);
        // One asked at 0 s, one at 1 s: questions were open from 0 s to 4 s.
        let (a, b) = tokio::join!(
            safety.permit("static_analysis", Risk::Execute, "{}", &sink),
            async {
                tokio::time::sleep(Duration::from_secs(1)).await;
                safety
                    .permit("parallel_analyze", Risk::Execute, "{}", &sink)
                    .await
            },
        );
        assert!(a.is_ok() && b.is_ok());
        assert_eq!(
            safety.waited(),
            Duration::from_secs(4),
            "overlapping: counted once"
        );
        tokio::time::sleep(Duration::from_secs(10)).await;
        assert_eq!(
            safety.waited(),
            Duration::from_secs(4),
            "none open: the clock stops"
        );
        let open = tokio::spawn({
            let safety = safety.clone();
            async move {
                safety
                    .permit("static_analysis", Risk::Execute, "{}", &sink)
                    .await
            }
        });
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(
            safety.waited(),
            Duration::from_secs(5),
            "the open one counts"
        );
        assert!(open.await.unwrap().is_ok());
        assert_eq!(safety.waited(), Duration::from_secs(7));
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
