//! What each command does. Whether it means something in the mode is asked of
//! [`Command::applies`] first, the one place the help overlay asks too.

use super::super::command::Command;
use super::super::effect::Effect;
use super::super::state::{Confirm, Level, Mode, Pane, State};
use super::diff::SIDEWAYS;
use super::{
    changes, chat, diff, editor, explore, external, findings, generate, intent, notice, panes,
    publish, range, reword, setup, split_plan, task, why,
};
use crate::features::msgs::{ChangesFx, ExploreFx};

pub(crate) fn run(state: &mut State, command: Command) -> Vec<Effect> {
    if state.overlay.help && !matches!(command, Command::Help | Command::Back | Command::Quit) {
        return Vec::new();
    }
    // A modal overlay (setup, the versions) takes its keys itself (see `input::key`).
    if state.modal() {
        return Vec::new();
    }
    // The arrows scroll a report over the panes rather than the pane under it.
    if let Some(report) = state.overlay.report.as_mut()
        && matches!(
            command,
            Command::Up
                | Command::Down
                | Command::PageUp
                | Command::PageDown
                | Command::Top
                | Command::Bottom
        )
    {
        let (rows, shown) =
            crate::features::overlays::report::rows_and_shown(&report.text, state.screen.size);
        report.top = super::step(report.top, rows.saturating_sub(shown), command);
        return Vec::new();
    }
    if let Err(why) = command.applies(state.mode) {
        notice(state, Level::Info, why);
        return Vec::new();
    }
    match command {
        Command::Quit => {
            if state.unsaved() {
                state.overlay.confirm = Some(Confirm::Quit);
            } else {
                state.quit = true;
            }
            Vec::new()
        }
        Command::Help => {
            state.overlay.help = !state.overlay.help;
            Vec::new()
        }
        Command::NextPane | Command::PrevPane => {
            let panes = state.visible_panes();
            let at = panes.iter().position(|p| *p == state.focus).unwrap_or(0);
            let next = if command == Command::NextPane {
                (at + 1) % panes.len()
            } else {
                (at + panes.len() - 1) % panes.len()
            };
            state.focus = panes[next];
            Vec::new()
        }
        Command::Up
        | Command::Down
        | Command::PageUp
        | Command::PageDown
        | Command::Top
        | Command::Bottom => move_cursor(state, state.focus, command),
        Command::Select => match state.focus {
            Pane::Findings => findings::update::jump_to_finding(state),
            Pane::Answer => why::open_commit(state),
            Pane::Blocks => {
                state.focus = Pane::Code;
                Vec::new()
            }
            _ => changes::select_in_list(state),
        },
        Command::Back => back(state),
        Command::Generate => generate::generate(state),
        Command::ShowRequest => generate::show_request(state),
        Command::OpenChat => chat::open_chat(state),
        Command::StageFile
        | Command::UnstageFile
        | Command::StageHunk
        | Command::StageAll
        | Command::UnstageAll
        | Command::Commit
        | Command::ToggleAmend
        | Command::ToggleNoVerify => changes::command(state, command),
        Command::UndoVersion | Command::RedoVersion => editor::step_versions(state, command),
        Command::NextHunk | Command::PrevHunk if state.mode == Mode::Explore => {
            why::step_commit(state, command)
        }
        Command::NextHunk | Command::PrevHunk => diff::jump_to_hunk(&mut state.diff, command),
        Command::ScrollLeft => diff::scroll_sideways(state, -SIDEWAYS),
        Command::ScrollRight => diff::scroll_sideways(state, SIDEWAYS),
        Command::Refresh => refresh(state),
        Command::PickRange => range::pick(state),
        Command::SelectLines => explore::select_lines(state),
        Command::AskWhy => why::ask(state),
        Command::FileIntent => intent::ask(state),
        Command::Zoom => {
            state.screen.zoom = !state.screen.zoom;
            Vec::new()
        }
        Command::SideBySide => crate::features::diff::toggle_side_by_side(state),
        Command::EditExternal => external::edit(state),
        Command::Setup => setup::open(state),
        Command::Copy => publish::copy(state),
        Command::Publish => publish::ask_publish(state),
        Command::Alternatives => crate::features::generate::ask_alternatives(state),
        Command::Split => split_plan::ask(state),
        Command::Reword => reword::ask(state),
        Command::PrevLayer | Command::NextLayer => super::stack::step(state, command),
        Command::ShowUnsure => findings::toggle_unsure(state),
        Command::DismissFinding => findings::ask_dismiss(state),
        Command::ModeExplore => switch_mode(state, Mode::Explore),
        Command::ModeCommit => switch_mode(state, Mode::COMMIT),
        Command::ModeReview => switch_mode(state, Mode::REVIEW),
        Command::ModePr => switch_mode(state, Mode::PR),
        Command::ModeChangelog => switch_mode(state, Mode::CHANGELOG),
        Command::ModeReleaseNotes => switch_mode(state, Mode::RELEASE_NOTES),
    }
}

/// Reads the status again (and a range mode's commits): `r`, and what changed outside. The
/// selection, the diff's scroll and every text being edited stay.
pub(crate) fn refresh(state: &mut State) -> Vec<Effect> {
    let mut effects = vec![Effect::Changes(ChangesFx::LoadStatus)];
    if state.mode.uses_range() {
        effects.extend(range::load_commits(state));
    }
    effects
}

/// Moves the cursor of `pane`: a list's selection or a text's first line.
pub(crate) fn move_cursor(state: &mut State, pane: Pane, command: Command) -> Vec<Effect> {
    match pane {
        Pane::Changes => changes::move_cursor(state, command),
        Pane::Tree => explore::move_in_tree(state, command),
        Pane::Commits => range::move_cursor(state, command),
        Pane::Code => explore::move_in_code(state, command),
        Pane::Answer => why::scroll(state, command),
        Pane::Blocks => intent::move_block(state, command),
        Pane::Diff => diff::scroll(&mut state.diff, command),
        Pane::Findings => findings::move_in_findings(state, command),
        Pane::Editor | Pane::ChatInput | Pane::RangeInput => Vec::new(),
    }
}

/// Selects row `row` of the list the left pane shows.
pub(crate) fn select_row(state: &mut State, row: usize) -> Vec<Effect> {
    match state.mode.list_pane() {
        Pane::Tree => explore::select(state, row),
        Pane::Commits => range::select(state, row),
        _ => changes::select(state, row),
    }
}

/// Esc: cancels Iris' work, else closes what is open, else goes back to the list.
fn back(state: &mut State) -> Vec<Effect> {
    if let Some(effects) = task::cancel(state) {
        return effects;
    }
    if state.overlay.report.is_some() {
        state.overlay.report = None;
    } else if state.overlay.help {
        state.overlay.help = false;
    } else if state.explore.commit.is_some() && state.mode == Mode::Explore {
        panes::close_commit(state);
    } else if state.focus == Pane::Blocks {
        panes::close_blocks(state);
    } else if state.focus == Pane::Answer {
        state.explore.why = None;
        state.focus = Pane::Code;
    } else if state.focus == Pane::Code && state.explore.anchor.is_some() {
        state.explore.anchor = None;
    } else if state.focus == Pane::RangeInput {
        range::close_picker(state);
    } else if state.focus == Pane::ChatInput {
        // Out of typing altogether, as from the editor: the next key is a command.
        state.chat.open = false;
        state.focus = state.mode.list_pane();
    } else {
        state.focus = state.mode.list_pane();
    }
    Vec::new()
}

fn switch_mode(state: &mut State, mode: Mode) -> Vec<Effect> {
    if state.mode == mode {
        return Vec::new();
    }
    state.mode = mode;
    state.focus = mode.list_pane();
    // A notice speaks of the mode it was said in (PR mode's stack keys, a range's commits);
    // an error stays until it is read.
    if state
        .notice
        .as_ref()
        .is_some_and(|n| n.level != Level::Error)
    {
        state.notice = None;
    }
    if !mode.has_artifact() {
        state.chat.open = false;
    }
    if mode.uses_range() && state.range.loaded_for != Some(mode) {
        return range::load_commits(state);
    }
    if mode == Mode::Explore && !state.explore.loaded {
        return vec![Effect::Explore(ExploreFx::LoadTree)];
    }
    super::written_for::arrive(state, true)
}
