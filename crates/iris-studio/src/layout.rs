//! Where each pane sits, from the terminal size and the state alone, so drawing and mouse
//! clicks agree without drawing having to write anything back.

use ratatui::layout::{Constraint, Direction, Layout, Rect};

use super::state::{Pane, State};

/// The screen area of every pane in one frame; `None` for a pane the mode or the zoom hides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaneRects {
    /// The row of mode tabs at the top.
    pub tabs: Rect,
    /// The list on the left (changed files, tree or commits) and what it shows.
    pub list: Option<Rect>,
    /// Which pane the list is in this mode.
    pub list_pane: Pane,
    /// The diff, or explore's code view.
    pub view: Option<Rect>,
    /// Which pane the view is in this mode.
    pub view_pane: Pane,
    /// The editor of the generated artifact (every mode but explore).
    pub editor: Option<Rect>,
    /// The review's findings, above the editor (review mode).
    pub findings: Option<Rect>,
    /// The chat: the conversation above, the message being written below.
    pub chat_log: Option<Rect>,
    /// The message being written, under the conversation.
    pub chat_input: Option<Rect>,
    /// Iris' answer about the selected lines, beside the code (explore).
    pub answer: Option<Rect>,
    /// The open file's intent and responsibility blocks, beside the code (explore).
    pub blocks: Option<Rect>,
    /// The stack's layers, above the commits (PR mode over a stack of branches).
    pub stack: Option<Rect>,
    /// The status line at the bottom.
    pub status: Rect,
}

/// Rows of the file's history under explore's code.
const HISTORY_ROWS: u16 = 8;

/// Explore's view: the code above, the file's history below.
pub fn code_and_history(view: Rect) -> (Rect, Rect) {
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(5), Constraint::Length(HISTORY_ROWS)])
        .split(view);
    (parts[0], parts[1])
}

/// The chat's area: the conversation above, the message being written below.
fn chat_parts(area: Rect) -> (Rect, Rect) {
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(3), Constraint::Length(4)])
        .split(area);
    (parts[0], parts[1])
}

/// What the layout depends on: when none of it changed, the panes are where they were.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutKey {
    size: (u16, u16),
    mode: super::state::Mode,
    /// The focused pane, when zoomed (only it shows).
    zoomed: Option<Pane>,
    chat: bool,
    answer: bool,
    blocks: bool,
    /// The stack's layers shown above PR mode's commits.
    layers: usize,
}

impl LayoutKey {
    /// What the panes of `state` in a terminal of `size` depend on.
    pub fn of(size: (u16, u16), state: &State) -> Self {
        Self {
            size,
            mode: state.mode,
            zoomed: state.screen.zoom.then_some(state.focus),
            chat: state.chat.open,
            answer: state.explore.why.is_some(),
            blocks: state.explore.intent.is_some(),
            layers: stack_layers(state),
        }
    }
}

impl State {
    /// The panes as they are laid out now: the last layout when nothing it depends on has
    /// changed since, else computed (and not kept: see [`State::lay_out`]).
    pub fn layout(&self) -> PaneRects {
        self.layout_in(self.screen.size)
    }

    /// The panes in a terminal of `size` (drawing's frame).
    pub fn layout_in(&self, size: (u16, u16)) -> PaneRects {
        let key = LayoutKey::of(size, self);
        match self.screen.laid_out {
            Some((laid, rects)) if laid == key => rects,
            _ => PaneRects::compute(size, self),
        }
    }

    /// Lays the panes out for the state as it is (once per change: the reducer calls it after
    /// each action) and keeps them with the screen.
    pub fn lay_out(&mut self) -> PaneRects {
        let rects = self.layout();
        self.screen.laid_out = Some((LayoutKey::of(self.screen.size, self), rects));
        rects
    }
}

impl PaneRects {
    /// The panes for a terminal of `size` (columns, rows): the mode's panes side by side, or
    /// only the focused one when zoomed.
    pub fn compute(size: (u16, u16), state: &State) -> Self {
        let rects = Self::tiled(size, state);
        if state.screen.zoom {
            rects.zoomed(state)
        } else {
            rects
        }
    }

    /// Only the focused pane, over the whole body (the chat's input keeps the conversation
    /// above it; explore's code keeps its history below).
    fn zoomed(self, state: &State) -> Self {
        let body = Rect::new(
            self.status.x,
            self.tabs.y + self.tabs.height,
            self.status.width,
            self.status.y.saturating_sub(self.tabs.y + self.tabs.height),
        );
        let mut only = Self {
            list: None,
            view: None,
            editor: None,
            findings: None,
            chat_log: None,
            chat_input: None,
            answer: None,
            blocks: None,
            stack: None,
            ..self
        };
        match state.focus {
            Pane::Editor => only.editor = Some(body),
            Pane::Findings => only.findings = Some(body),
            Pane::Answer => only.answer = Some(body),
            Pane::Blocks => only.blocks = Some(body),
            Pane::ChatInput => {
                let (log, input) = chat_parts(body);
                (only.chat_log, only.chat_input) = (Some(log), Some(input));
            }
            pane if pane == self.view_pane => only.view = Some(body),
            // The list, and the range picker drawn over it.
            _ => only.list = Some(body),
        }
        only
    }

    /// Every pane of the mode beside the others.
    fn tiled(size: (u16, u16), state: &State) -> Self {
        let area = Rect::new(0, 0, size.0, size.1);
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(1),
                Constraint::Min(3),
                Constraint::Length(1),
            ])
            .split(area);
        let (tabs, body, status) = (rows[0], rows[1], rows[2]);
        if !state.mode.has_artifact() {
            // The blocks and the answer, when there are any, take a third column beside the
            // code: the blocks above, the answer below.
            let (blocks, answer) = (state.explore.intent.is_some(), state.explore.why.is_some());
            let aside = blocks || answer;
            let widths: &[Constraint] = if aside {
                &[
                    Constraint::Percentage(22),
                    Constraint::Percentage(45),
                    Constraint::Percentage(33),
                ]
            } else {
                &[Constraint::Percentage(30), Constraint::Percentage(70)]
            };
            let cols = Layout::default()
                .direction(Direction::Horizontal)
                .constraints(widths)
                .split(body);
            let stacked = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
                .split(cols[cols.len() - 1]);
            let (blocks, answer) = match (blocks, answer) {
                (true, true) => (Some(stacked[0]), Some(stacked[1])),
                (true, false) => (Some(cols[2]), None),
                (false, true) => (None, Some(cols[2])),
                (false, false) => (None, None),
            };
            return Self {
                tabs,
                list: Some(cols[0]),
                list_pane: state.mode.list_pane(),
                view: Some(cols[1]),
                view_pane: state.mode.view_pane(),
                editor: None,
                findings: None,
                chat_log: None,
                chat_input: None,
                answer,
                blocks,
                stack: None,
                status,
            };
        }
        let cols = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([
                Constraint::Percentage(26),
                Constraint::Percentage(38),
                Constraint::Percentage(36),
            ])
            .split(body);
        // The right column: [findings] / editor / [chat], top to bottom.
        let review = state.mode == super::state::Mode::REVIEW;
        let mut parts = Vec::new();
        if review {
            parts.push(Constraint::Percentage(if state.chat.open {
                30
            } else {
                40
            }));
        }
        parts.push(Constraint::Min(4));
        if state.chat.open {
            parts.push(Constraint::Percentage(if review { 35 } else { 50 }));
        }
        let right = Layout::default()
            .direction(Direction::Vertical)
            .constraints(parts)
            .split(cols[2]);
        let findings = review.then(|| right[0]);
        let editor = right[usize::from(review)];
        let chat = state.chat.open.then(|| chat_parts(right[right.len() - 1]));
        let (stack, list) = stack_and_commits(cols[0], state);
        Self {
            tabs,
            list: Some(list),
            list_pane: state.mode.list_pane(),
            view: Some(cols[1]),
            view_pane: state.mode.view_pane(),
            editor: Some(editor),
            findings,
            chat_log: chat.map(|parts| parts.0),
            chat_input: chat.map(|parts| parts.1),
            answer: None,
            blocks: None,
            stack,
            status,
        }
    }
}

/// The stack's layers PR mode shows above its commits (0: no stack shown).
fn stack_layers(state: &State) -> usize {
    match &state.stack {
        Some(view) if state.mode == super::state::Mode::PR => view.stack.layers.len(),
        _ => 0,
    }
}

/// PR mode over a stack: the layers above the commits (a row each, at most half the
/// column); else the whole column is the list.
fn stack_and_commits(column: Rect, state: &State) -> (Option<Rect>, Rect) {
    let layers = stack_layers(state);
    if layers == 0 {
        return (None, column);
    }
    let rows = (layers as u16 + 2).min(column.height / 2);
    if rows < 3 {
        return (None, column);
    }
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(rows), Constraint::Min(3)])
        .split(column);
    (Some(parts[0]), parts[1])
}

/// The first row a list of `rows` rows (inside its borders) shows: `top` as it was, moved
/// just enough to keep `selected` in view. Drawing and clicks both use it.
pub fn keep_in_view(top: usize, selected: usize, rows: usize) -> usize {
    let rows = rows.max(1);
    if selected < top {
        selected
    } else if selected >= top + rows {
        selected + 1 - rows
    } else {
        top
    }
}

/// Columns and rows inside a pane's borders (none for a pane not shown).
pub fn inner_size(rect: Option<Rect>) -> (usize, usize) {
    rect.map_or((0, 0), |r| {
        (
            usize::from(r.width.saturating_sub(2)),
            usize::from(r.height.saturating_sub(2)),
        )
    })
}

/// Rows inside a pane's borders.
pub fn inner_rows(rect: Option<Rect>) -> usize {
    inner_size(rect).1
}

/// Whether a screen cell is inside `rect`.
pub fn contains(rect: Option<Rect>, column: u16, row: u16) -> bool {
    rect.is_some_and(|r| {
        column >= r.x && column < r.x + r.width && row >= r.y && row < r.y + r.height
    })
}

/// The pane under a screen cell (a click on the conversation goes to the chat's input).
pub fn hit(rects: &PaneRects, column: u16, row: u16) -> Option<Pane> {
    let inside = |rect: Option<Rect>| contains(rect, column, row);
    if inside(rects.list) {
        Some(rects.list_pane)
    } else if inside(rects.view) {
        Some(rects.view_pane)
    } else if inside(rects.answer) {
        Some(Pane::Answer)
    } else if inside(rects.blocks) {
        Some(Pane::Blocks)
    } else if inside(rects.findings) {
        Some(Pane::Findings)
    } else if inside(rects.editor) {
        Some(Pane::Editor)
    } else if inside(rects.chat_log) || inside(rects.chat_input) {
        Some(Pane::ChatInput)
    } else {
        None
    }
}
