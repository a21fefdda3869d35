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

mod alternatives;
mod artifact;
mod changes;
mod commands;
mod diff;
mod explore;
mod external;
mod input;
mod intent;
mod panes;
mod range;
mod reword;
mod setup;
mod split_plan;
mod stack;
mod task;
mod why;
mod written_for;

pub(crate) use written_for::what_moved;

use super::action::Action;
use super::effect::Effect;
use super::layout::{PaneRects, inner_rows, keep_in_view};
use super::state::{Level, Notice, State};

/// Lines a page moves.
const PAGE: usize = 20;

/// Applies `action` to `state` and returns the effects the shell must carry out; then keeps
/// every list's selection in view and each diff side by side or not, as the new layout allows.
pub fn update(state: &mut State, action: Action) -> Vec<Effect> {
    let effects = reduce(state, action);
    let rects = PaneRects::compute(state.screen.size, state);
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
        Action::RankingLoaded { result, complete } => {
            changes::ranking_loaded(state, result, complete)
        }
        Action::StatusLoaded(result) => changes::status_loaded(state, result),
        Action::GitDone { result, committed } => changes::git_done(state, result, committed),
        Action::TreeLoaded(result) => explore::tree_loaded(state, result),
        Action::FileOpened { path, result } => explore::file_opened(state, path, result),
        Action::LinesAged { path, result } => explore::lines_aged(state, path, result),
        Action::LinesExplained { task, result } => why::explained(state, task, result),
        Action::CommitShown { id, result } => why::commit_shown(state, id, result),
        Action::FileExplained { task, result } => intent::explained(state, task, result),
        Action::CommitsLoaded { mode, result } => range::commits_loaded(state, mode, result),
        Action::StackLoaded(result) => stack::loaded(state, result),
        Action::StackLayerWritten { task, index, text } => {
            stack::layer_written(state, task, index, &text)
        }
        Action::StackPublished { task, result } => stack::published(state, task, result),
        Action::DiffLoaded {
            path,
            result,
            staged,
        } => diff::loaded(state, path, result, staged),
        Action::Agent { task, event } => task::progress(state, task, &event),
        Action::Generated { task, kind, result } => artifact::generated(state, task, kind, result),
        Action::AlternativesWritten { task, kind, result } => {
            alternatives::written(state, task, kind, result)
        }
        Action::ChatReplied { task, result, .. } => artifact::chat_replied(state, task, result),
        Action::ArtifactUpdated { task, kind, text } => {
            artifact::updated_by_iris(state, task, kind, &text)
        }
        Action::ArtifactEdited { kind, result } => external::artifact_edited(state, kind, result),
        Action::FileEdited { path, result } => external::file_edited(state, path, result),
        Action::RequestShown(Ok(preview)) => {
            state.overlay.report = Some(preview);
            notice(
                state,
                Level::Info,
                "nothing was sent: esc closes the preview",
            );
            Vec::new()
        }
        Action::RequestShown(Err(err)) => {
            notice(state, Level::Error, err);
            Vec::new()
        }
        Action::Copied(result) | Action::Published(result) => {
            match result {
                Ok(done) => notice(state, Level::Success, done),
                Err(err) => notice(state, Level::Error, err),
            }
            Vec::new()
        }
        Action::RulesLoaded(Ok(rules)) => {
            state.set_commit_rules(rules.map(|rules| *rules));
            Vec::new()
        }
        Action::RulesLoaded(Err(err)) => {
            notice(state, Level::Warning, err);
            Vec::new()
        }
        Action::ServersFound(servers) => setup::servers_found(state, servers),
        Action::SetupWritten(result) => setup::written(state, result),
        Action::SplitPlanned { task, result } => split_plan::planned(state, task, result),
        Action::SplitUpdated { task, plan } => split_plan::updated(state, task, plan),
        Action::SplitChatReplied { task, result } => split_plan::chat_replied(state, task, result),
        Action::SplitStep { done, of, step } => split_plan::step(state, done, of, step),
        Action::SplitApplied { result, undoable } => split_plan::applied(state, result, undoable),
        Action::SplitUndone(result) => split_plan::undone(state, result),
        Action::RewordWritten { task, result } => reword::written(state, task, result),
        Action::Reworded(result) => reword::done(state, result),
        Action::SplitMessageEdited { group, result } => {
            split_plan::message_edited(state, group, result)
        }
        Action::DraftsLoaded(drafts) => artifact::drafts_loaded(state, drafts),
        Action::GitPrepared { operation, message } => {
            artifact::git_prepared(state, &operation, message)
        }
        Action::DraftFailed(err) => {
            notice(
                state,
                Level::Error,
                format!("saving the draft failed: {err}"),
            );
            Vec::new()
        }
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

fn notice(state: &mut State, level: Level, text: impl Into<String>) {
    let text = text.into().split_whitespace().collect::<Vec<_>>().join(" ");
    // An error longer than the status line is shown whole over the panes (esc closes it).
    let room = usize::from(state.screen.size.0).saturating_sub(10);
    if level == Level::Error && iris_core::text::width(&text) > room {
        state.overlay.report = Some(text.clone());
    }
    state.notice = Some(Notice { level, text });
}

/// A cursor moved by a navigation command within `0..=last`.
fn step(at: usize, last: usize, command: super::command::Command) -> usize {
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
