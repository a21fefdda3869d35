//! The diff pane (and the code view's sideways scrolling): scrolling, hunks, staging a hunk.

use crate::command::Command;
use crate::effect::Effect;
use crate::failure::Outcome;
use crate::features::msgs::{ChangesFx, DiffFx};
use crate::layout::{PaneRects, inner_size};
use crate::side_by_side;
use crate::state::{Changes, DiffView, Level, Mode, Pane, State};
use crate::update::cx::{Cx, Then};
use crate::update::step;
use iris_studio_core::change::FileDiff;
use iris_studio_core::text::{expand_tabs, width};

/// Columns a sideways step moves the diff or the code.
pub(crate) const SIDEWAYS: isize = 8;

/// A diff arrived: shown when it is still the one asked for, scrolled to the line a finding
/// asked to jump to.
pub(crate) fn loaded(
    (view, pending_jump): (&mut DiffView, &mut Option<(String, u32)>),
    cx: &mut Cx,
    path: String,
    result: Outcome<Vec<FileDiff>>,
    staged: Option<usize>,
) -> Vec<Effect> {
    if view.path.as_deref() != Some(path.as_str()) {
        return Vec::new(); // the diff of a file or commit the user has since left
    }
    view.loading = false;
    match result {
        Ok(files) => {
            view.files = files;
            view.staged = staged;
            if let Some((file, line)) = pending_jump.take() {
                view.scroll = view.row_of_new_line(&file, line).unwrap_or(0);
            }
        }
        Err(err) => {
            let err = err.context(format!("diff of {path} failed"));
            cx.then(Then::Failed(err, None));
        }
    }
    Vec::new()
}

/// The page and arrow keys scroll the diff.
pub(crate) fn scroll(view: &mut DiffView, command: Command) -> Vec<Effect> {
    let last = view.line_count().saturating_sub(1);
    view.scroll = step(view.scroll, last, command);
    Vec::new()
}

/// `n` / `p`: the next or previous hunk at the top of the view.
pub(crate) fn jump_to_hunk(view: &mut DiffView, command: Command) -> Vec<Effect> {
    let starts = view.hunk_starts();
    let scroll = view.scroll;
    let target = if command == Command::NextHunk {
        starts.into_iter().find(|s| *s > scroll)
    } else {
        starts.into_iter().rev().find(|s| *s < scroll)
    };
    if let Some(line) = target {
        view.scroll = line;
    }
    Vec::new()
}

/// Stages the hunk at the top of the view (the first one above them all), or unstages it
/// when it is in the staged part.
pub(crate) fn stage_hunk(view: &DiffView) -> Vec<Effect> {
    let Some(path) = view.path.clone().filter(|_| view.staged.is_some()) else {
        return Vec::new();
    };
    let hunks = view.hunks();
    let top = hunks.iter().rev().find(|h| h.row <= view.scroll);
    let Some(place) = top.or(hunks.first()) else {
        return Vec::new();
    };
    let hunk = place.in_side;
    match view.is_staged(place.file) {
        Some(true) => vec![Effect::Changes(ChangesFx::UnstageHunk { path, hunk })],
        _ => vec![Effect::Changes(ChangesFx::StageHunk { path, hunk })],
    }
}

/// Scrolls the diff (or explore's code view) sideways, never past its longest line.
pub(crate) fn scroll_sideways(state: &mut State, delta: isize) -> Vec<Effect> {
    let widest = |lines: &mut dyn Iterator<Item = &str>| {
        lines.map(|l| width(&expand_tabs(l))).max().unwrap_or(0)
    };
    let explore = state.mode == Mode::Explore;
    let (hscroll, longest) = if explore && state.explore.commit.is_none() {
        let lines = state.explore.lines.as_deref().unwrap_or_default();
        let longest = widest(&mut lines.iter().map(String::as_str));
        (&mut state.explore.hscroll, longest)
    } else {
        // The diff pane, or the commit explore shows in place of the code.
        let view = match state.explore.commit.as_mut().filter(|_| explore) {
            Some(shown) => &mut shown.view,
            None => &mut state.diff,
        };
        let files = &view.files;
        let mut lines = files
            .iter()
            .flat_map(|f| &f.hunks)
            .flat_map(|h| &h.lines)
            .map(|l| l.content.as_str());
        let longest = widest(&mut lines);
        (&mut view.hscroll, longest)
    };
    // Keep some of the longest line in view.
    let most = longest.saturating_sub(SIDEWAYS as usize);
    *hscroll = hscroll.saturating_add_signed(delta).min(most);
    Vec::new()
}

/// Turns side-by-side diffs on or off; a pane `columns` wide too narrow for them stays
/// unified until it is wide enough (zoomed, or the terminal widened).
pub(crate) fn toggle_side_by_side(
    side_by_side: &mut bool,
    cx: &mut Cx,
    columns: usize,
) -> Vec<Effect> {
    *side_by_side = !*side_by_side;
    let text = match (*side_by_side, columns >= side_by_side::MIN_WIDTH) {
        (false, _) => "diffs unified".to_string(),
        (true, true) => "diffs side by side".to_string(),
        (true, false) => format!(
            "diffs side by side where a pane is {} columns wide: zoom it (z) or widen the terminal",
            side_by_side::MIN_WIDTH
        ),
    };
    cx.say(Level::Info, text);
    Vec::new()
}

/// Lays each diff out as the user asked and its pane's width allows.
pub(crate) fn follow_width(state: &mut State, rects: &PaneRects) {
    // A view zoomed off the screen keeps its layout (and so its place).
    if rects.view.is_none() {
        return;
    }
    let (columns, _) = inner_size(rects.view);
    let paired = state.screen.side_by_side && columns >= side_by_side::MIN_WIDTH;
    match rects.view_pane {
        Pane::Diff => state.diff.set_paired(paired),
        _ => {
            if let Some(shown) = state.explore.commit.as_mut() {
                shown.view.set_paired(paired);
            }
        }
    }
}

/// Loads the selected file's diff: in place when it is the one shown, else from the top.
pub(crate) fn load_selected_diff(state: &mut State) -> Vec<Effect> {
    selected_diff(&state.changes, &mut state.diff)
}

/// The diff pane shows the selected changed file's diff, asked for.
pub(crate) fn selected_diff(changes: &Changes, view: &mut DiffView) -> Vec<Effect> {
    let Some(path) = changes.selected_file().map(|f| f.path.clone()) else {
        *view = Default::default();
        return Vec::new();
    };
    if view.path.as_deref() == Some(path.as_str()) {
        // Same file: reload in place (after staging, or a status that arrives while it
        // loads) without jumping to the top or emptying the view meanwhile.
        view.loading = true;
    } else {
        *view = DiffView {
            path: Some(path.clone()),
            loading: true,
            ..Default::default()
        };
    }
    vec![Effect::Diff(DiffFx::Load { path })]
}
