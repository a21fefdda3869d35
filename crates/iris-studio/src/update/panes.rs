//! Closing the explore mode's side panes (the why answer, the commit it shows, the blocks):
//! what opening another file, a finished or cancelled task and the commands all do, kept
//! below them so that none of those modules needs another.

use crate::state::{Explore, Pane, State};

/// A cancelled question closes its pane (an answer shown before stays shown).
pub(crate) fn close_unanswered_why(state: &mut State) {
    if state
        .explore
        .why
        .as_ref()
        .is_some_and(|w| w.answer.is_none())
    {
        state.explore.why = None;
        if state.focus == Pane::Answer {
            state.focus = Pane::Code;
        }
    }
}

/// Back from a commit's diff to the code.
pub(crate) fn close_commit(state: &mut State) {
    state.explore.commit = None;
}

/// A cancelled reading closes its pane (blocks shown before stay shown).
pub(crate) fn close_unread_blocks(state: &mut State) {
    if state
        .explore
        .intent
        .as_ref()
        .is_some_and(|v| v.intent.is_none())
    {
        close_blocks(state);
    }
}

/// Closes the blocks pane.
pub(crate) fn close_blocks(state: &mut State) {
    close_blocks_of(&mut state.explore, &mut state.focus);
}

/// Closes explore's blocks pane, the focus back on the code when it was there.
pub(crate) fn close_blocks_of(explore: &mut Explore, focus: &mut Pane) {
    explore.intent = None;
    if *focus == Pane::Blocks {
        *focus = Pane::Code;
    }
}
