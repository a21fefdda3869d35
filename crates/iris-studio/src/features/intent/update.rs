//! "What is this file for?": Iris reads the open file (its outline first, the ranges she
//! needs after) and lists its responsibility blocks beside the code; choosing a block
//! highlights its lines and brings the first into view. Kept per file text for the session.

use crate::blocks;
use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::IntentFx;
use crate::layout::{inner_size, keep_in_view};
use crate::state::{IntentKey, IntentView, Level, Pane, State, TaskKind};
use crate::update::{explore, notice, panes, step, task};
use iris_core::artifact::intent::FileIntent;

/// `i`: asks Iris about the open file, or shows what she said about this text before.
pub(crate) fn ask(state: &mut State) -> Vec<Effect> {
    let explorer = &state.explore;
    let (Some(path), Some(_)) = (explorer.open.clone(), &explorer.lines) else {
        notice(
            state,
            Level::Info,
            "open a file (enter on the tree), then i asks Iris what it is for",
        );
        return Vec::new();
    };
    let key = IntentKey {
        path,
        digest: explorer.digest,
    };
    if let Some(view) = &state.explore.intent
        && view.key == key
    {
        state.focus = Pane::Blocks; // already here (or on its way)
        return Vec::new();
    }
    if let Some(known) = state.explore.intents.get(&key).cloned() {
        show(state, key, known);
        notice(
            state,
            Level::Info,
            "Iris read this file earlier in the session",
        );
        return Vec::new();
    }
    let Some(task) = task::start(state, TaskKind::Intent) else {
        return Vec::new();
    };
    let path = key.path.clone();
    state.explore.intent = Some(IntentView {
        key,
        intent: None,
        block: 0,
        scroll: 0,
    });
    vec![Effect::Intent(IntentFx::Explain { task, path })]
}

/// The blocks in their pane, the first chosen and its lines in view.
fn show(state: &mut State, key: IntentKey, intent: FileIntent) {
    state.explore.intent = Some(IntentView {
        key,
        intent: Some(intent),
        block: 0,
        scroll: 0,
    });
    state.focus = Pane::Blocks;
    jump_to_block(state);
}

pub(crate) fn explained(state: &mut State, task: u64, result: Outcome<FileIntent>) -> Vec<Effect> {
    let Some(finished) = task::finish(state, task) else {
        return Vec::new(); // cancelled: the pane has closed
    };
    let Some(key) = state.explore.intent.as_ref().map(|v| v.key.clone()) else {
        return Vec::new();
    };
    match result {
        Ok(intent) => {
            let what = format!(
                "Iris read {}: {} blocks (j / k pick one, its lines light up)",
                key.path,
                intent.blocks.len()
            );
            state.explore.intents.insert(key.clone(), intent.clone());
            show(state, key, intent);
            task::done_notice(state, &finished, what);
        }
        Err(err) => {
            panes::close_blocks(state);
            return crate::update::failed::failed(state, err, None);
        }
    }
    Vec::new()
}

/// Up, down and the page keys choose a block; its lines come into view in the code.
pub(crate) fn move_block(state: &mut State, command: Command) -> Vec<Effect> {
    let count = state
        .explore
        .intent
        .as_ref()
        .and_then(|v| v.intent.as_ref())
        .map_or(0, |i| i.blocks.len());
    let Some(view) = state.explore.intent.as_mut().filter(|_| count > 0) else {
        return Vec::new();
    };
    view.block = step(view.block, count - 1, command);
    let rects = state.layout();
    let (width, height) = inner_size(rects.blocks);
    if let Some(view) = state.explore.intent.as_mut() {
        let rows = blocks::rows(view, width);
        if let Some(row) = blocks::block_row(&rows, view.block) {
            // The block's row, and its details under it when they fit.
            let details = rows[row + 1..]
                .iter()
                .take_while(|r| matches!(r, blocks::Row::Detail(_)))
                .count();
            let last = (row + details).min(row + height.saturating_sub(1));
            view.scroll = keep_in_view(keep_in_view(view.scroll, last, height), row, height);
        }
    }
    jump_to_block(state);
    Vec::new()
}

/// A click on a block's row chooses it.
pub(crate) fn click(state: &mut State, row: u16) -> Vec<Effect> {
    let rects = state.layout();
    let (Some(area), Some(view)) = (rects.blocks, state.explore.intent.as_mut()) else {
        return Vec::new();
    };
    let rows = blocks::rows(view, inner_size(Some(area)).0);
    let at = (row > area.y).then(|| view.scroll + usize::from(row - area.y - 1));
    if let Some(blocks::Row::Block { index, .. }) = at.and_then(|at| rows.get(at)) {
        view.block = *index;
        jump_to_block(state);
    }
    Vec::new()
}

/// The cursor to the first line of the chosen block, when the code shows its file.
fn jump_to_block(state: &mut State) {
    if let Some(&(first, _)) = state.explore.block_ranges().first() {
        state.explore.anchor = None;
        let rows = explore::code_rows(state);
        explore::update::put_cursor(&mut state.explore, rows, first);
    }
}
