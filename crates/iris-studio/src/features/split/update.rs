//! The split view (commit mode's `x`): Iris plans how the change splits into commits; the
//! user moves hunks between the groups, merges groups, edits their messages (in place or in
//! $EDITOR), talks the plan over with Iris, applies it and undoes it.

use crate::failure::{Done, Outcome};
use crate::features::msgs::{ChangesFx, ExternalFx, SplitFx};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::effect::{EditTarget, Effect};
use crate::state::{
    ChatMessage, Level, Pending, PlannedChange, Speaker, SplitPhase, SplitView, TaskKind,
    text_input,
};
use crate::update::cx::{Cx, Then};
use iris_studio_core::split::SplitPlan;

/// What the keys do, for the status line when the view opens.
pub const KEYS: &str = "↑↓ group · n/p hunk · J/K scroll · m+N move the top hunk (m n: a new \
                        group) · M+N merge into N · e edit · E $EDITOR · / chat · z undo a change · \
                        enter apply · esc close";
/// Lines a scroll of the split view's diff moves.
const SCROLL: usize = 10;

/// `x`: Iris plans the split of the change.
pub(crate) fn ask(cx: &mut Cx, no_change: bool) -> Vec<Effect> {
    if no_change {
        cx.say(Level::Warning, "there is no change to split");
        return Vec::new();
    }
    let Some(task) = cx.start_task(TaskKind::Split) else {
        return Vec::new();
    };
    cx.say(
        Level::Info,
        "Iris is planning the commits of the change (esc cancels)",
    );
    vec![Effect::Split(SplitFx::Plan { task })]
}

/// The plan arrived: the split view opens on it, or why not.
pub(crate) fn planned(
    open: &mut Option<SplitView>,
    cx: &mut Cx,
    task: u64,
    result: Outcome<Box<PlannedChange>>,
) -> Vec<Effect> {
    let Some(finished) = cx.finish_task(task) else {
        return Vec::new();
    };
    match result {
        Ok(planned) => {
            let sent_back = match planned.first_problems.as_slice() {
                [] => String::new(),
                problems => format!(" (her first plan was sent back: {})", problems.join("; ")),
            };
            let what = format!(
                "Iris planned {} commits{sent_back}: {KEYS}",
                planned.plan.groups.len()
            );
            *open = Some(SplitView::new(*planned));
            cx.task_done(&finished, what);
        }
        Err(err) => cx.task_failed(&finished, err),
    }
    Vec::new()
}

/// A key while the split view is open: every key goes to it.
pub(crate) fn key(open: &mut Option<SplitView>, cx: &mut Cx, key: KeyEvent) -> Vec<Effect> {
    let Some(view) = open.as_mut() else {
        return Vec::new();
    };
    if view.editing.is_some() {
        return edit_key(open, cx, key);
    }
    if view.chat_input.is_some() {
        return chat_key(open, cx, key);
    }
    if let Some(pending) = view.pending.take() {
        return pending_key(open, cx, pending, key);
    }
    match view.phase.clone() {
        SplitPhase::Confirming => {
            if matches!(key.code, KeyCode::Char('y' | 'Y') | KeyCode::Enter) {
                let of = view.plan.groups.len();
                view.phase = SplitPhase::Applying {
                    done: 0,
                    of,
                    step: "starting".into(),
                };
                let effect = Effect::Split(SplitFx::Apply {
                    units: view.units.clone(),
                    plan: view.plan.clone(),
                });
                return vec![effect];
            }
            view.phase = SplitPhase::Planning;
            cx.say(Level::Info, "cancelled: nothing was committed");
            Vec::new()
        }
        SplitPhase::Applying { .. } => {
            cx.say(
                Level::Info,
                "the commits are being made: the split stops only at a failing hook",
            );
            Vec::new()
        }
        SplitPhase::Applied(_) => match key.code {
            KeyCode::Char('u') => vec![Effect::Split(SplitFx::Undo)],
            KeyCode::Esc | KeyCode::Char('q' | 'x') => close(open, cx),
            _ => Vec::new(),
        },
        SplitPhase::Planning => planning_key(open, cx, key),
    }
}

fn planning_key(open: &mut Option<SplitView>, cx: &mut Cx, key: KeyEvent) -> Vec<Effect> {
    let Some(view) = open.as_mut() else {
        return Vec::new();
    };
    let groups = view.plan.groups.len();
    let hunks = view
        .plan
        .groups
        .get(view.selected)
        .map_or(0, |g| g.hunks.len());
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => select(view, view.selected.saturating_sub(1)),
        KeyCode::Down | KeyCode::Char('j') => {
            select(view, (view.selected + 1).min(groups.saturating_sub(1)))
        }
        KeyCode::Char('n') => {
            view.top = (view.top + 1).min(hunks.saturating_sub(1));
            view.scroll = 0;
        }
        KeyCode::Char('p') => {
            view.top = view.top.saturating_sub(1);
            view.scroll = 0;
        }
        // A long hunk is read line by line (drawing stops at its end).
        KeyCode::PageDown | KeyCode::Char('J') => {
            view.scroll = (view.scroll + SCROLL).min(view.diff_lines().saturating_sub(1))
        }
        KeyCode::PageUp | KeyCode::Char('K') => view.scroll = view.scroll.saturating_sub(SCROLL),
        KeyCode::Char('m') => view.pending = Some(Pending::Move),
        KeyCode::Char('z') => {
            let said = if view.step_back() {
                "back to the plan before the last change"
            } else {
                "this is the plan Iris made first"
            };
            cx.say(Level::Info, said);
        }
        KeyCode::Char('M') => view.pending = Some(Pending::Merge),
        KeyCode::Char('e') => {
            let Some(group) = view.plan.groups.get(view.selected) else {
                return Vec::new();
            };
            let message = group.message.clone();
            let mut input = text_input(message.lines().map(str::to_string).collect());
            input.move_cursor(tui_textarea::CursorMove::Bottom);
            input.move_cursor(tui_textarea::CursorMove::End);
            view.editing = Some(input);
            cx.say(Level::Info, "editing the message: esc keeps it");
        }
        KeyCode::Char('E') => {
            let group = view.selected;
            let Some(text) = view.plan.groups.get(group).map(|g| g.message.clone()) else {
                return Vec::new();
            };
            return vec![Effect::External(ExternalFx::Edit(
                EditTarget::SplitMessage { group, text },
            ))];
        }
        KeyCode::Char('/' | 'c') => {
            view.chat_input = Some(text_input(Vec::new()));
            cx.say(
                Level::Info,
                "ask Iris about the plan: enter sends, esc closes",
            );
        }
        KeyCode::Enter => {
            view.phase = SplitPhase::Confirming;
        }
        KeyCode::Esc | KeyCode::Char('q' | 'x') => {
            if view.chat_task.is_some() {
                return cancel_chat(cx);
            }
            return close(open, cx);
        }
        _ => {}
    }
    Vec::new()
}

fn select(view: &mut SplitView, group: usize) {
    view.selected = group;
    view.top = 0;
    view.scroll = 0;
}

/// The number after `m` or `M`.
fn pending_key(
    open: &mut Option<SplitView>,
    cx: &mut Cx,
    pending: Pending,
    key: KeyEvent,
) -> Vec<Effect> {
    let Some(view) = open.as_mut() else {
        return Vec::new();
    };
    let groups = view.plan.groups.len();
    let target = match key.code {
        KeyCode::Char('n') if pending == Pending::Move => Some(groups),
        KeyCode::Char(c @ '1'..='9') => {
            let n = c as usize - '0' as usize;
            (n <= groups).then(|| n - 1)
        }
        _ => None,
    };
    let Some(target) = target else {
        cx.say(Level::Info, "cancelled: a group's number was expected");
        return Vec::new();
    };
    let said = match pending {
        Pending::Move => {
            let Some(id) = view.top_unit() else {
                return Vec::new();
            };
            match view.change(|plan| plan.move_unit(&id, target)) {
                Some(now) => {
                    select(view, now);
                    view.top = view.plan.groups[now]
                        .hunks
                        .iter()
                        .position(|h| h == &id)
                        .unwrap_or(0);
                    view.scroll = 0;
                    format!("{id} is in commit {} now", now + 1)
                }
                None => return Vec::new(),
            }
        }
        Pending::Merge => {
            let from = view.selected;
            match view.change(|plan| plan.merge(target, from)) {
                Some(now) => {
                    select(view, now);
                    format!("merged into commit {}", now + 1)
                }
                None => "a group merges into another one".to_string(),
            }
        }
    };
    cx.say(Level::Info, said);
    Vec::new()
}

/// A key while a group's message is edited in place: esc keeps the text.
fn edit_key(open: &mut Option<SplitView>, cx: &mut Cx, key: KeyEvent) -> Vec<Effect> {
    let Some(view) = open.as_mut() else {
        return Vec::new();
    };
    let done = key.code == KeyCode::Esc
        || (key.code == KeyCode::Char('s') && key.modifiers.contains(KeyModifiers::CONTROL));
    if !done {
        if let Some(input) = view.editing.as_mut() {
            input.input(key);
        }
        return Vec::new();
    }
    let text = view
        .editing
        .take()
        .map(|i| i.lines().join("\n"))
        .unwrap_or_default();
    let group = view.selected;
    set_message(open, cx, group, &text);
    Vec::new()
}

fn set_message(open: &mut Option<SplitView>, cx: &mut Cx, group: usize, text: &str) {
    let Some(view) = open.as_mut() else {
        return;
    };
    match view.change(|plan| plan.set_message(group, text)) {
        Ok(()) => cx.say(
            Level::Success,
            format!("commit {}'s message is set", group + 1),
        ),
        Err(why) => cx.say(
            Level::Warning,
            format!("the message was not changed: {why}"),
        ),
    }
}

/// The user's editor closed on a group's message.
pub(crate) fn message_edited(
    open: &mut Option<SplitView>,
    cx: &mut Cx,
    group: usize,
    result: Outcome<String>,
) -> Vec<Effect> {
    match result {
        Ok(text) => {
            set_message(open, cx, group, &text);
            Vec::new()
        }
        Err(err) => {
            cx.then(Then::Failed(err, None));
            Vec::new()
        }
    }
}

/// A key while the chat input is open: enter sends, esc closes it.
fn chat_key(open: &mut Option<SplitView>, cx: &mut Cx, key: KeyEvent) -> Vec<Effect> {
    let Some(view) = open.as_mut() else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => {
            view.chat_input = None;
            Vec::new()
        }
        KeyCode::Enter
            if !key
                .modifiers
                .intersects(KeyModifiers::SHIFT | KeyModifiers::ALT) =>
        {
            let message = view
                .chat_input
                .as_ref()
                .map(|i| i.lines().join("\n").trim().to_string())
                .unwrap_or_default();
            if message.is_empty() {
                return Vec::new();
            }
            send(open, cx, message)
        }
        _ => {
            if let Some(input) = view.chat_input.as_mut() {
                input.input(key);
            }
            Vec::new()
        }
    }
}

/// Sends `message` to Iris with the conversation so far.
fn send(open: &mut Option<SplitView>, cx: &mut Cx, message: String) -> Vec<Effect> {
    let Some(task) = cx.start_task(TaskKind::SplitChat) else {
        return Vec::new();
    };
    let Some(view) = open.as_mut() else {
        return Vec::new();
    };
    let history = view.chat.clone();
    view.chat.push(ChatMessage {
        speaker: Speaker::User,
        text: message.clone(),
    });
    view.chat_input = None;
    view.chat_task = Some(task);
    vec![Effect::Split(SplitFx::Chat {
        task,
        units: view.units.clone(),
        files: view.files.clone(),
        plan: view.plan.clone(),
        history,
        message,
    })]
}

fn cancel_chat(cx: &mut Cx) -> Vec<Effect> {
    cx.then(Then::CancelTask);
    Vec::new()
}

/// Iris replaced the plan in chat.
pub(crate) fn updated(
    open: &mut Option<SplitView>,
    cx: &mut Cx,
    task: u64,
    plan: SplitPlan,
) -> Vec<Effect> {
    let Some(view) = open.as_mut().filter(|v| v.chat_task == Some(task)) else {
        return Vec::new();
    };
    let count = plan.groups.len();
    view.change(|current| *current = plan);
    select(view, view.selected.min(count.saturating_sub(1)));
    cx.say(
        Level::Success,
        format!("Iris changed the plan: {count} commits"),
    );
    Vec::new()
}

/// Iris' chat reply about the plan.
pub(crate) fn chat_replied(
    open: &mut Option<SplitView>,
    cx: &mut Cx,
    task: u64,
    result: Outcome<String>,
) -> Vec<Effect> {
    let Some(finished) = cx.finish_task(task) else {
        return Vec::new();
    };
    let Some(view) = open.as_mut() else {
        return Vec::new();
    };
    view.chat_task = None;
    let (text, effects) = match result {
        Ok(reply) => (reply, Vec::new()),
        Err(err) => {
            let said = format!("(failed: {err})");
            {
                cx.task_failed(&finished, err);
                (said, Vec::new())
            }
        }
    };
    if let Some(view) = open.as_mut() {
        view.chat.push(ChatMessage {
            speaker: Speaker::Iris,
            text,
        });
    }
    effects
}

/// A step of applying the split.
pub(crate) fn step(
    open: &mut Option<SplitView>,
    done: usize,
    of: usize,
    step: String,
) -> Vec<Effect> {
    if let Some(view) = open.as_mut() {
        view.phase = SplitPhase::Applying { done, of, step };
    }
    Vec::new()
}

/// Applying ended: the view says how, and `u` undoes it when the state before was saved.
pub(crate) fn applied(
    open: &mut Option<SplitView>,
    cx: &mut Cx,
    result: Outcome<Done>,
    undoable: bool,
) -> Vec<Effect> {
    let (level, text) = match &result {
        Ok(done) => (Level::Success, done.0.clone()),
        Err(err) => (Level::Error, err.words.clone()),
    };
    if let Some(view) = open.as_mut() {
        view.phase = if undoable {
            SplitPhase::Applied(text.clone())
        } else {
            SplitPhase::Planning
        };
    }
    let hint = if undoable {
        " · u undoes the split, esc closes"
    } else {
        ""
    };
    cx.say(level, format!("{text}{hint}"));
    vec![Effect::Changes(ChangesFx::LoadStatus)]
}

/// The split was undone: the plan can be changed and applied again.
pub(crate) fn undone(
    open: &mut Option<SplitView>,
    cx: &mut Cx,
    result: Outcome<Done>,
) -> Vec<Effect> {
    match result {
        Ok(text) => {
            if let Some(view) = open.as_mut() {
                view.phase = SplitPhase::Planning;
            }
            cx.say(Level::Success, text.0);
        }
        Err(err) => {
            cx.then(Then::Failed(err, Some(Effect::Split(SplitFx::Undo))));
        }
    }
    vec![Effect::Changes(ChangesFx::LoadStatus)]
}

fn close(open: &mut Option<SplitView>, cx: &mut Cx) -> Vec<Effect> {
    *open = None;
    cx.say(Level::Info, "the split view is closed");
    vec![Effect::Changes(ChangesFx::LoadStatus)]
}
