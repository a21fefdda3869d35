//! The split feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::effect::Effect;
use crate::failure::{Done, Outcome};
use crate::state::ChatMessage;
use crate::state::State;
use crate::update::cx::Cx;

/// What comes back to the split feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// Iris planned how to split the change into commits (the change and her plan), or why
    /// not.
    Planned {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// The change read and Iris' plan for it, or why there is none.
        result: Outcome<Box<crate::state::PlannedChange>>,
    },
    /// Iris replaced the split plan through `update_split` (checked already).
    Updated {
        /// The split chat's task in which she replaced it.
        task: u64,
        /// The new plan.
        plan: iris_studio_core::split::SplitPlan,
    },
    /// A chat reply about the split plan finished.
    ChatReplied {
        /// The task that asked (a cancelled or overtaken one's result is dropped).
        task: u64,
        /// Her reply, or why none came.
        result: Outcome<String>,
    },
    /// A step of applying the split: commits made so far, of how many, and what happens.
    Step {
        /// Commits made so far.
        done: usize,
        /// Commits the plan makes in all.
        of: usize,
        /// What is being done now, as the split view says it.
        step: String,
    },
    /// Applying the split ended: what to say, and whether the state before was saved (so
    /// `u` can undo it).
    Applied {
        /// What was committed, or why applying stopped or was refused.
        result: Outcome<Done>,
        /// Whether the state from before was saved, so the split can be undone.
        undoable: bool,
    },
    /// The last split was undone (what to say), or why not.
    Undone(Outcome<Done>),
    /// The user's editor closed on a split group's message: its text, or why it could not run.
    MessageEdited {
        /// The group (0-based) whose message it is.
        group: usize,
        /// The message saved in the editor, or why the editor could not run.
        result: Outcome<String>,
    },
}

/// The work the split feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Reads the change (the index's and the working tree's) and has Iris plan its split.
    Plan {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
    },
    /// A chat turn about the split plan; Iris may replace it through `update_split`.
    Chat {
        /// The studio's id for the task, which its results and progress carry back.
        task: u64,
        /// The units (hunks, files) the change was cut into.
        units: Vec<iris_studio_core::split::Unit>,
        /// The change's diff, file by file, that the units come from.
        files: Vec<iris_studio_core::change::FileDiff>,
        /// The plan as it stands.
        plan: iris_studio_core::split::SplitPlan,
        /// The conversation about the plan before this message.
        history: Vec<ChatMessage>,
        /// What the user just wrote.
        message: String,
    },
    /// Commits the plan's groups in order, if the change still has exactly `units`.
    Apply {
        /// The units the plan was made for.
        units: Vec<iris_studio_core::split::Unit>,
        /// The groups to commit, each with its message.
        plan: iris_studio_core::split::SplitPlan,
    },
    /// Restores the state from before the last split.
    Undo,
}

pub(crate) mod update;

/// Applies what came back to the split feature; returns the work it asks for next.
pub(crate) fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    within(state, |open, cx| match msg {
        Msg::Planned { task, result } => update::planned(open, cx, task, result),
        Msg::Updated { task, plan } => update::updated(open, cx, task, plan),
        Msg::ChatReplied { task, result } => update::chat_replied(open, cx, task, result),
        Msg::Step { done, of, step } => update::step(open, done, of, step),
        Msg::Applied { result, undoable } => update::applied(open, cx, result, undoable),
        Msg::Undone(result) => update::undone(open, cx, result),
        Msg::MessageEdited { group, result } => update::message_edited(open, cx, group, result),
    })
}

/// `x`: Iris plans the split of the change.
pub(crate) fn ask(state: &mut State) -> Vec<Effect> {
    let no_change = state.changes.files.is_empty();
    within(state, |_, cx| update::ask(cx, no_change))
}

/// A key while the split view is open: every key goes to it.
pub(crate) fn key(state: &mut State, key: crossterm::event::KeyEvent) -> Vec<Effect> {
    within(state, |open, cx| update::key(open, cx, key))
}

/// Runs `work` on the split view with a context, then settles what it asked.
fn within(
    state: &mut State,
    work: impl FnOnce(&mut Option<state::SplitView>, &mut Cx) -> Vec<Effect>,
) -> Vec<Effect> {
    let mut cx = Cx::new(&mut state.iris, state.mode, state.now);
    let effects = work(&mut state.overlay.split_plan, &mut cx);
    cx.asked().settle(state, effects)
}
pub(crate) mod draw;
pub mod state;
