//! One deadline for a whole run (evidence, draft, critic, revision; a chat turn), with the
//! time a question waits for the user left out.

use crate::runtime::safety::Safety;

/// A run that went on past `run_timeout_secs`.
#[derive(Debug, thiserror::Error)]
#[error(
    "stopped after {}s: the run took longer than run_timeout_secs allows (raise it with \
     `iris config set run_timeout_secs N`, or ask for less)",
    .0.as_secs()
)]
pub struct RunTimedOut(pub std::time::Duration);

/// `work`, stopped with [`RunTimedOut`] once `limit` has passed: the one deadline of a write
/// (evidence, draft, critic, revision) and of a chat turn. Time a question waits for the user
/// (`safety`) does not count: an approval given after a coffee still lets the run finish.
pub async fn within<T>(
    limit: std::time::Duration,
    safety: &Safety,
    work: impl std::future::Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    let start = tokio::time::Instant::now();
    let waited_before = safety.waited();
    let mut work = std::pin::pin!(work);
    loop {
        let waited = safety.waited().saturating_sub(waited_before);
        tokio::select! {
            out = &mut work => return out,
            _ = tokio::time::sleep_until(start + limit + waited) => {
                // A question answered (or still open) meanwhile moves the deadline on.
                if safety.waited().saturating_sub(waited_before) == waited {
                    return Err(RunTimedOut(limit).into());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::sync::mpsc::unbounded_channel;

    use super::*;
    use crate::runtime::events::EventSink;
    use iris_studio_core::protocol::{AgentEvent, Decision, Risk, SafetyMode};

    const LIMIT: Duration = Duration::from_millis(300);

    // On a paused clock: time moves only when every task waits, so a loaded machine cannot
    // make the work late (and nothing really sleeps).
    #[tokio::test(start_paused = true)]
    async fn the_deadline_stops_work_that_takes_too_long() {
        let safety = Safety::new(SafetyMode::Safe);
        let slow = async {
            tokio::time::sleep(LIMIT * 3).await;
            Ok(())
        };
        let err = within(LIMIT, &safety, slow).await.unwrap_err();
        assert!(err.downcast_ref::<RunTimedOut>().is_some(), "{err}");
    }

    #[tokio::test(start_paused = true)]
    async fn time_spent_waiting_for_the_user_does_not_count() {
        let safety = Safety::new(SafetyMode::Safe);
        // The user answers after twice the run's whole limit.
        let (tx, mut rx) = unbounded_channel();
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if let AgentEvent::Approval(request) = event {
                    tokio::time::sleep(LIMIT * 2).await;
                    request.reply.send(Decision::AllowOnce);
                }
            }
        });
        let sink = EventSink::new(tx);
        let work = async {
            tokio::time::sleep(LIMIT / 3).await;
            safety
                .permit("static_analysis", Risk::Execute, "{}", &sink)
                .await?;
            tokio::time::sleep(LIMIT / 3).await;
            Ok("done")
        };
        assert_eq!(within(LIMIT, &safety, work).await.unwrap(), "done");
        assert!(safety.waited() >= LIMIT * 2);
    }
}
