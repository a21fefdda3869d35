//! Iris' tasks: one runs at a time (a generation, a chat reply or an explanation); its
//! progress, the approvals it asks for, cancelling it, and how it ends.

use crossterm::event::{KeyCode, KeyEvent};

use super::super::effect::Effect;
use std::time::Instant;

use crate::failure::{Failure, FailureKind, ProviderFailure};

use super::super::state::{ChatMessage, IrisState, Level, Mode, Speaker, State, Task, TaskKind};
use super::{notice, panes};
use iris_studio_core::protocol::AgentEvent;
use iris_studio_core::protocol::progress::Progress;
use iris_studio_core::protocol::{ApprovalRequest, Decision};

pub(crate) fn start(state: &mut State, kind: TaskKind) -> Option<u64> {
    match begin(&mut state.iris, state.mode, state.now, kind) {
        Ok(id) => Some(id),
        Err(why) => {
            notice(state, Level::Warning, why.words);
            None
        }
    }
}

/// Starts a task of `kind` in `mode` at `now`: its id, or why Iris cannot start one (she is
/// not set up, or busy).
pub(crate) fn begin(
    iris: &mut IrisState,
    mode: Mode,
    now: Instant,
    kind: TaskKind,
) -> Result<u64, Failure> {
    if let Some(why) = &iris.unavailable {
        return Err(Failure::new(
            FailureKind::Provider(ProviderFailure::NotSetUp),
            why.clone(),
        ));
    }
    if iris.task.is_some() {
        return Err(Failure::usage(
            "Iris is busy: Esc cancels what she is doing",
        ));
    }
    let id = iris.next_task_id;
    iris.next_task_id += 1;
    iris.task = Some(Task {
        id,
        mode,
        kind,
        started: now,
        progress: Progress {
            activity: "starting".to_string(),
            ..Progress::default()
        },
    });
    Ok(id)
}

/// Cancels what Iris is doing, if anything; the text from before stays.
pub(crate) fn cancel(state: &mut State) -> Option<Vec<Effect>> {
    let task = state.iris.task.take()?;
    state.iris.approvals.clear();
    let said = match task.kind {
        TaskKind::Why => "cancelled: Iris stopped reading the lines' history",
        TaskKind::Intent => "cancelled: Iris stopped reading the file",
        TaskKind::Reword => "cancelled: the commit keeps its message",
        TaskKind::PublishStack => {
            "cancelled: the layers written so far keep their text; what was published stays"
        }
        _ => "cancelled: the text from before stays",
    };
    notice(state, Level::Info, said);
    match task.kind {
        // Keep the conversation alternating: the question gets an answer.
        TaskKind::Chat => state.chat.messages.push(ChatMessage {
            speaker: Speaker::Iris,
            text: "(cancelled)".to_string(),
        }),
        TaskKind::Why => panes::close_unanswered_why(state),
        TaskKind::Intent => panes::close_unread_blocks(state),
        TaskKind::SplitChat => {
            if let Some(view) = state.overlay.split_plan.as_mut() {
                view.chat_task = None;
                view.chat.push(ChatMessage {
                    speaker: Speaker::Iris,
                    text: "(cancelled)".to_string(),
                });
            }
        }
        TaskKind::Generate
        | TaskKind::Alternatives
        | TaskKind::Split
        | TaskKind::Reword
        | TaskKind::PublishStack => {}
    }
    Some(vec![Effect::Cancel { task: task.id }])
}

/// A running task's progress.
pub(crate) fn progress(state: &mut State, task: u64, event: &AgentEvent) -> Vec<Effect> {
    // Said even when it arrives after its task ended: the request went out with the marker.
    // While the task runs its line counts them; the notice shows once it ends.
    if let AgentEvent::SecretWithheld(finding) = event {
        let text = format!("a secret was withheld from Iris: {finding} (sent as a marker)");
        notice(state, Level::Warning, text);
    }
    // A problem that did not stop her (commit rules that cannot be read, a retry that failed).
    if let AgentEvent::Warning(text) = event {
        notice(state, Level::Warning, text.clone());
    }
    let Some(running) = state.iris.task.as_mut().filter(|t| t.id == task) else {
        // A cancelled task's late question is refused.
        if let AgentEvent::Approval(request) = event {
            return vec![answer(request, Decision::Deny)];
        }
        return Vec::new();
    };
    running.progress.apply(event);
    if let AgentEvent::Approval(request) = event {
        state.iris.approvals.push_back(request.clone());
    }
    Vec::new()
}

fn answer(request: &ApprovalRequest, decision: Decision) -> Effect {
    Effect::Answer {
        reply: request.reply.clone(),
        decision,
    }
}

/// The answer to the first question waiting: `y` once, `s` for the session, `n` or esc no.
/// Other keys leave the question up.
pub(crate) fn approval_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let decision = match key.code {
        KeyCode::Char('y' | 'Y') => Decision::AllowOnce,
        KeyCode::Char('s' | 'S') => Decision::AllowForSession,
        KeyCode::Char('n' | 'N') | KeyCode::Esc => Decision::Deny,
        _ => return Vec::new(),
    };
    let Some(request) = state.iris.approvals.pop_front() else {
        return Vec::new();
    };
    let said = match decision {
        Decision::AllowOnce => format!("allowed {} once", request.tool),
        Decision::AllowForSession => format!("allowed {} for this session", request.tool),
        Decision::Deny => format!("refused {}; Iris goes on without it", request.tool),
    };
    notice(state, Level::Info, said);
    vec![answer(&request, decision)]
}

/// Ends the running task `task`; `None` for a cancelled task's late result.
pub(crate) fn end(iris: &mut IrisState, task: u64) -> Option<Task> {
    let finished = iris.task.take_if(|t| t.id == task)?;
    iris.approvals.clear();
    Some(finished)
}

/// `what`, followed by how many secrets the run's requests went without and the last
/// warning it raised; at the warning level then (an error stays an error), else `level`.
pub(crate) fn with_run_notes(finished: &Task, what: String, level: Level) -> (String, Level) {
    let mut text = what;
    let secrets = finished.progress.secrets_withheld;
    if secrets > 0 {
        let secrets = if secrets == 1 {
            "1 secret".to_string()
        } else {
            format!("{secrets} secrets")
        };
        text = format!("{text}; {secrets} withheld from her (sent as markers)");
    }
    let warnings = &finished.progress.warnings;
    if let Some(last) = warnings.last() {
        let more = match warnings.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        text = format!("{text}; warning: {last}{more}");
    }
    let noted = secrets > 0 || !warnings.is_empty();
    let level = match level {
        Level::Error => Level::Error,
        _ if noted => Level::Warning,
        other => other,
    };
    (text, level)
}
