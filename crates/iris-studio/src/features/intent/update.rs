//! "What is this file for?": Iris reads the open file (its outline first, the ranges she
//! needs after) and lists its responsibility blocks beside the code; choosing a block
//! highlights its lines and brings the first into view. Kept per file text for the session.

use crate::blocks;
use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::IntentFx;
use crate::layout::keep_in_view;
use crate::state::{Explore, IntentKey, IntentView, Level, Pane, TaskKind};
use crate::update::cx::{Cx, Then};
use crate::update::{explore, step};
use iris_studio_core::artifact::intent::FileIntent;
use ratatui::layout::Rect;

/// Where the intent feature works: explore's state, the focus, the rows of code on screen.
pub(crate) type Parts<'a> = (&'a mut Explore, &'a mut Pane, usize);

/// `i`: asks Iris about the open file, or shows what she said about this text before.
pub(crate) fn ask((explore, focus, code_rows): Parts, cx: &mut Cx) -> Vec<Effect> {
    let (Some(path), Some(_)) = (explore.open.clone(), &explore.lines) else {
        cx.say(
            Level::Info,
            "open a file (enter on the tree), then i asks Iris what it is for",
        );
        return Vec::new();
    };
    let key = IntentKey {
        path,
        digest: explore.digest,
    };
    if let Some(view) = &explore.intent
        && view.key == key
    {
        *focus = Pane::Blocks; // already here (or on its way)
        return Vec::new();
    }
    if let Some(known) = explore.intents.get(&key).cloned() {
        show((explore, focus, code_rows), key, known);
        cx.say(Level::Info, "Iris read this file earlier in the session");
        return Vec::new();
    }
    let Some(task) = cx.start_task(TaskKind::Intent) else {
        return Vec::new();
    };
    let path = key.path.clone();
    explore.intent = Some(IntentView {
        key,
        intent: None,
        block: 0,
        scroll: 0,
    });
    vec![Effect::Intent(IntentFx::Explain { task, path })]
}

/// The blocks in their pane, the first chosen and its lines in view.
fn show((explore, focus, code_rows): Parts, key: IntentKey, intent: FileIntent) {
    explore.intent = Some(IntentView {
        key,
        intent: Some(intent),
        block: 0,
        scroll: 0,
    });
    *focus = Pane::Blocks;
    jump_to_block(explore, code_rows);
}

/// Iris' reading arrived: the blocks beside the code, kept for the session, or why none
/// came (the pane closes).
pub(crate) fn explained(
    (explore, focus, code_rows): Parts,
    cx: &mut Cx,
    task: u64,
    result: Outcome<FileIntent>,
) -> Vec<Effect> {
    let Some(finished) = cx.finish_task(task) else {
        return Vec::new(); // cancelled: the pane has closed
    };
    let Some(key) = explore.intent.as_ref().map(|v| v.key.clone()) else {
        return Vec::new();
    };
    match result {
        Ok(intent) => {
            let what = format!(
                "Iris read {}: {} blocks (j / k pick one, its lines light up)",
                key.path,
                intent.blocks.len()
            );
            explore.intents.insert(key.clone(), intent.clone());
            show((explore, focus, code_rows), key, intent);
            cx.task_done(&finished, what);
        }
        Err(err) => {
            crate::update::panes::close_blocks_of(explore, focus);
            cx.then(Then::Failed(err, None));
        }
    }
    Vec::new()
}

/// Up, down and the page keys choose a block; its lines come into view in the code. The
/// chosen block's details show under it, so its pane's rows (`width` wide, `height` shown)
/// are wrapped again for the new choice.
pub(crate) fn move_block(
    (explore, code_rows): (&mut Explore, usize),
    (width, height): (usize, usize),
    command: Command,
) -> Vec<Effect> {
    let count = explore
        .intent
        .as_ref()
        .and_then(|v| v.intent.as_ref())
        .map_or(0, |i| i.blocks.len());
    let Some(view) = explore.intent.as_mut().filter(|_| count > 0) else {
        return Vec::new();
    };
    view.block = step(view.block, count - 1, command);
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
    jump_to_block(explore, code_rows);
    Vec::new()
}

/// A click on a block's row (of the pane at `area`) chooses it.
pub(crate) fn click(
    (explore, code_rows): (&mut Explore, usize),
    (rows, area): (&[blocks::Row], Option<Rect>),
    row: u16,
) -> Vec<Effect> {
    let (Some(area), Some(view)) = (area, explore.intent.as_mut()) else {
        return Vec::new();
    };
    let at = (row > area.y).then(|| view.scroll + usize::from(row - area.y - 1));
    if let Some(blocks::Row::Block { index, .. }) = at.and_then(|at| rows.get(at)) {
        view.block = *index;
        jump_to_block(explore, code_rows);
    }
    Vec::new()
}

/// The cursor to the first line of the chosen block, when the code shows its file.
fn jump_to_block(explore: &mut Explore, code_rows: usize) {
    if let Some(&(first, _)) = explore.block_ranges().first() {
        explore.anchor = None;
        explore::update::put_cursor(explore, code_rows, first);
    }
}
