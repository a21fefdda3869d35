//! Keys that no command claimed (answers to a question, text for the focused input) and the
//! mouse.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};

use super::super::command::Command;
use super::super::effect::Effect;
use super::super::layout::{contains, hit, inner_rows, keep_in_view};
use super::super::state::{Confirm, Level, Pane, State};
use super::diff::SIDEWAYS;
use super::{
    changes, chat, commands, diff, editor, explore, intent, notice, publish, range, reword, setup,
    split_plan, task, why,
};
use crate::features::chat::update::WHEEL;

pub(crate) fn key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    // ctrl-c quits from an overlay too: it closes, so a question about unsaved work shows.
    if state.modal()
        && key.code == KeyCode::Char('c')
        && key.modifiers.contains(KeyModifiers::CONTROL)
    {
        state.overlay.setup = None;
        state.overlay.alternatives = None;
        state.overlay.split_plan = None;
        state.overlay.dismiss = None;
        return commands::run(state, Command::Quit);
    }
    if !state.iris.approvals.is_empty() {
        return task::approval_key(state, key);
    }
    if state.overlay.setup.is_some() {
        return setup::key(state, key);
    }
    if state.overlay.alternatives.is_some() {
        return crate::features::generate::alternatives_key(state, key);
    }
    if state.overlay.split_plan.is_some() {
        return split_plan::key(state, key);
    }
    if state.overlay.dismiss.is_some() {
        return crate::features::findings::dismiss_key(state, key);
    }
    if let Some(question) = state.overlay.confirm.take() {
        let yes = matches!(
            key.code,
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter
        );
        return match (question, yes) {
            (Confirm::Quit, true) => {
                state.quit = true;
                Vec::new()
            }
            (Confirm::Commit, true) => changes::commit_confirmed(state),
            (Confirm::Publish, true) => publish::publish(state),
            (Confirm::PublishStack, true) => super::stack::publish(state),
            (Confirm::Reword, true) => reword::confirmed(state),
            (Confirm::TryAgain(effect), true) => vec![*effect],
            (Confirm::Moved(kind), write_anew) => {
                super::written_for::answered(state, kind, write_anew)
            }
            (Confirm::Sessions(_), yes) => crate::features::sessions::answered(state, yes),
            (question, false) => {
                // A refused rewording's message goes with it.
                if question == Confirm::Reword {
                    state.range.reword = None;
                }
                notice(state, Level::Info, "cancelled");
                Vec::new()
            }
        };
    }
    match state.focus {
        Pane::Editor => editor::type_in_editor(state, key),
        Pane::ChatInput => chat::chat_key(state, key),
        Pane::RangeInput => range::key(state, key),
        _ => Vec::new(),
    }
}

/// The first row a list shows and its selection, for the list the left pane shows.
fn list_selection(state: &State) -> (usize, usize) {
    let tops = &state.screen.list_tops;
    match state.mode.list_pane() {
        Pane::Tree => (state.explore.selected, tops.tree),
        Pane::Commits => (state.range.selected, tops.commits),
        _ => (state.changes.selected, tops.files),
    }
}

pub(crate) fn mouse(state: &mut State, mouse: MouseEvent) -> Vec<Effect> {
    if state.modal() {
        return Vec::new();
    }
    let rects = state.layout();
    if let (MouseEventKind::Down(_), Some(area)) = (mouse.kind, rects.stack)
        && contains(rects.stack, mouse.column, mouse.row)
    {
        // Row 0 of the layers is under the box's top border; the borders select nothing.
        if mouse.row > area.y && mouse.row + 1 < area.y + area.height {
            let row = usize::from(mouse.row - area.y - 1);
            return super::stack::click(state, row, inner_rows(Some(area)));
        }
        return Vec::new();
    }
    let Some(pane) = hit(&rects, mouse.column, mouse.row) else {
        return Vec::new();
    };
    match mouse.kind {
        MouseEventKind::Down(_) => {
            state.focus = pane;
            match pane {
                Pane::Code => return explore::click_code(state, mouse.row),
                Pane::Blocks => return intent::click(state, mouse.row),
                Pane::Answer => return why::click(state, mouse.row),
                _ => {}
            }
            if pane == rects.list_pane
                && let Some(area) = rects.list
                && mouse.row > area.y
                && mouse.row + 1 < area.y + area.height
            {
                // Row 0 of the list is under the top border; the list may be scrolled.
                let rows = inner_rows(Some(area));
                let (current, top) = list_selection(state);
                let row = keep_in_view(top, current, rows) + usize::from(mouse.row - area.y - 1);
                if row != current {
                    return commands::select_row(state, row);
                }
            }
            Vec::new()
        }
        MouseEventKind::Drag(_) if pane == Pane::Code => explore::drag_code(state, mouse.row),
        MouseEventKind::ScrollLeft | MouseEventKind::ScrollRight if pane == rects.view_pane => {
            let right = mouse.kind == MouseEventKind::ScrollRight;
            diff::scroll_sideways(state, if right { SIDEWAYS } else { -SIDEWAYS })
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = mouse.kind == MouseEventKind::ScrollDown;
            if contains(rects.chat_log, mouse.column, mouse.row) {
                chat::scroll_conversation(state, if down { WHEEL } else { -WHEEL });
                return Vec::new();
            }
            if pane == Pane::Editor {
                // The editor's view moves (its cursor kept inside), not the focus.
                if let Some(buffer) = state.artifact_mut() {
                    let rows = if down { WHEEL } else { -WHEEL };
                    buffer.editor.scroll((rows as i16, 0));
                }
                return Vec::new();
            }
            // The wheel focuses the pane under it (the chat's input keeps the focus it had).
            if pane != Pane::ChatInput {
                state.focus = pane;
            }
            let command = if down { Command::Down } else { Command::Up };
            commands::move_cursor(state, pane, command)
        }
        _ => Vec::new(),
    }
}
