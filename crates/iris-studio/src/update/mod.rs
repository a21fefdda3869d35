//! The reducer: `update(&mut State, Action) -> Vec<Effect>`. Pure: no terminal, git, network
//! or clock (time arrives with `Tick`).
//!
//! - [`input`]: keys and the mouse that no command claimed.
//! - [`commands`]: what each command does, after [`Command::applies`] says it means something.
//! - [`changes`], [`explore`], [`range`]: the list on the left of each mode and its results.
//! - [`diff`]: the diff pane.
//! - [`task`]: Iris' tasks: starting one, its progress and approvals, cancelling, ending.
//! - [`artifact`]: generating, the chat, the artifact's versions and drafts.
//! - [`why`]: explore's selected lines explained, and the commits behind them.
//! - [`intent`]: explore's open file, its intent and responsibility blocks.
//! - [`setup`]: the setup overlay, from the servers found to the written choice.
//! - [`split_plan`]: the split view, from Iris' plan to the commits made and undone.
//! - [`reword`]: PR mode's `r`, a commit's message written anew and the commit reworded.
//! - [`external`]: the artifact or a file in the user's own editor, the clipboard, and
//!   publishing through gh or glab.

pub(crate) mod commands;
pub(crate) mod cx;
pub(crate) mod failed;
pub(crate) mod input;
pub(crate) mod panes;
pub(crate) mod task;

pub(crate) use crate::features::changes;
pub(crate) use crate::features::chat;
pub(crate) use crate::features::diff::update as diff;
pub(crate) use crate::features::editor;
pub(crate) use crate::features::editor::update as editing;
pub(crate) use crate::features::editor::written_for;
pub(crate) use crate::features::explore;
pub(crate) use crate::features::external::update as external;
pub(crate) use crate::features::findings;
pub(crate) use crate::features::generate;
pub(crate) use crate::features::intent;
pub(crate) use crate::features::publish;
pub(crate) use crate::features::range;
pub(crate) use crate::features::reword;
pub(crate) use crate::features::setup;
pub(crate) use crate::features::split as split_plan;
pub(crate) use crate::features::stack::update as stack;
pub(crate) use crate::features::why;
pub(crate) use written_for::what_moved;

use super::action::Action;
use super::effect::Effect;
use super::layout::{PaneRects, inner_rows, keep_in_view};
use super::state::{Level, Notice, Report, State};
use crate::features;

/// Lines a page moves.
pub(crate) const PAGE: usize = 20;

/// Applies `action` to `state` and returns the effects the shell must carry out; then keeps
/// every list's selection in view and each diff side by side or not, as the new layout allows.
pub fn update(state: &mut State, action: Action) -> Vec<Effect> {
    let effects = reduce(state, action);
    let rects = state.lay_out();
    follow_selections(state, &rects);
    diff::follow_width(state, &rects);
    state.refresh_rows();
    effects
}

fn reduce(state: &mut State, action: Action) -> Vec<Effect> {
    match action {
        Action::Key(key) => input::key(state, key),
        Action::Mouse(mouse) => input::mouse(state, mouse),
        Action::ResizeTo(width, height) => {
            state.screen.size = (width, height);
            Vec::new()
        }
        Action::Tick(now) => {
            state.now = now;
            Vec::new()
        }
        // Nothing changes but the next frame's colours.
        Action::SyntaxCompiled => Vec::new(),
        Action::Command(command) => commands::run(state, command),
        Action::ChangedOutside => commands::refresh(state),
        Action::WatchLimited(why) => {
            notice(state, Level::Warning, why);
            Vec::new()
        }
        Action::Agent { task, event } => task::progress(state, task, &event),
        Action::Changes(msg) => features::changes::update(state, msg),
        Action::Diff(msg) => features::diff::update(state, msg),
        Action::Explore(msg) => features::explore::update(state, msg),
        Action::Why(msg) => features::why::update(state, msg),
        Action::Intent(msg) => features::intent::update(state, msg),
        Action::Range(msg) => features::range::update(state, msg),
        Action::Generate(msg) => features::generate::update(state, msg),
        Action::Chat(msg) => features::chat::update(state, msg),
        Action::Editor(msg) => features::editor::update(state, msg),
        Action::Split(msg) => features::split::update(state, msg),
        Action::Reword(msg) => features::reword::update(state, msg),
        Action::Stack(msg) => features::stack::update(state, msg),
        Action::Publish(msg) => features::publish::update(state, msg),
        Action::Sessions(msg) => features::sessions::update(state, msg),
        Action::Findings(msg) => features::findings::update(state, msg),
        Action::Setup(msg) => features::setup::update(state, msg),
        Action::External(msg) => features::external::update(state, msg),
    }
}

/// Each list's first row, moved only as far as its selection needs (a list not on screen,
/// zoomed away, keeps its place).
fn follow_selections(state: &mut State, rects: &PaneRects) {
    let tops = &mut state.screen.list_tops;
    if rects.list.is_some() {
        let list = inner_rows(rects.list);
        tops.files = keep_in_view(tops.files, state.changes.selected, list);
        tops.tree = keep_in_view(tops.tree, state.explore.selected, list);
        tops.commits = keep_in_view(tops.commits, state.range.selected, list);
    }
    if rects.findings.is_some() {
        tops.findings = keep_in_view(
            tops.findings,
            state.findings.selected,
            inner_rows(rects.findings),
        );
    }
}

pub(crate) fn notice(state: &mut State, level: Level, text: impl Into<String>) {
    let text = text.into().split_whitespace().collect::<Vec<_>>().join(" ");
    // An error longer than the status line is shown whole over the panes (esc closes it).
    let room = usize::from(state.screen.size.0).saturating_sub(10);
    if level == Level::Error && iris_studio_core::text::width(&text) > room {
        state.overlay.report = Some(Report::plain(text.clone()));
    }
    state.notice = Some(Notice { level, text });
}

/// A cursor moved by a navigation command within `0..=last`.
pub(crate) fn step(at: usize, last: usize, command: super::command::Command) -> usize {
    use super::command::Command;
    match command {
        Command::Up => at.saturating_sub(1),
        Command::Down => (at + 1).min(last),
        Command::PageUp => at.saturating_sub(PAGE),
        Command::PageDown => (at + PAGE).min(last),
        Command::Top => 0,
        Command::Bottom => last,
        _ => at,
    }
}
