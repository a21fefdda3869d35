//! Drawing the frame: the tabs, each feature's panes (their `draw.rs`, in
//! `crate::features`) where the layout kept with the screen puts them, the status line, then
//! the overlay on top. Everything here only reads the state.

use crate::features::changes::draw as files;
use crate::features::chat::draw as chat;
use crate::features::diff::draw as diff;
use crate::features::editor::draw as editor;
use crate::features::explore::draw as explore;
use crate::features::findings::draw as findings;
use crate::features::findings::draw_dismiss as dismiss;
use crate::features::generate::draw as alternatives;
use crate::features::intent::draw as blocks;
use crate::features::overlays::confirm;
use crate::features::overlays::help;
use crate::features::overlays::report;
use crate::features::range::draw as commits;
use crate::features::range::draw_picker as range_picker;
use crate::features::setup::draw as setup;
use crate::features::split::draw as split_plan;
use crate::features::stack::draw as stack;
use crate::features::why::draw as answer;
mod status;
mod tabs;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

use super::highlight::Highlights;
use super::keymap::Keymap;
use super::state::{Pane, State};
use super::theme::{Theme, Token};

/// What drawing needs besides the state.
pub struct Looks<'a> {
    /// The colours every pane is drawn in.
    pub theme: &'a Theme,
    /// The keys in force, which the help overlay lists.
    pub keymap: &'a Keymap,
    /// The syntax definitions and the lines already highlighted (the shell keeps them).
    pub highlights: &'a Highlights,
}

/// Draws one frame: the tabs, the mode's panes where the layout puts them, the status line,
/// then whatever overlay is open on top.
pub fn draw(frame: &mut Frame, state: &State, looks: &Looks) {
    let area = frame.area();
    frame.render_widget(
        Block::default().style(looks.theme.style(Token::Background)),
        area,
    );
    let rects = state.layout_in((area.width, area.height));
    tabs::draw(frame, rects.tabs, state, looks.theme);
    if let Some(rect) = rects.list {
        match rects.list_pane {
            Pane::Tree => explore::draw_tree(frame, rect, state, looks.theme),
            Pane::Commits => commits::draw(frame, rect, state, looks.theme),
            _ => files::draw(frame, rect, state, looks.theme),
        }
    }
    if let (Some(rect), Some(view)) = (rects.stack, &state.stack) {
        stack::draw(frame, rect, view, looks.theme);
    }
    if let Some(rect) = rects.view {
        match rects.view_pane {
            Pane::Code => explore::draw_code(frame, rect, state, looks),
            _ => diff::draw(frame, rect, state, looks),
        }
    }
    if let Some(rect) = rects.editor {
        editor::draw(frame, rect, state, looks.theme);
    }
    if let Some(rect) = rects.blocks {
        blocks::draw(frame, rect, state, looks.theme);
    }
    if let Some(rect) = rects.answer {
        answer::draw(frame, rect, state, looks.theme);
    }
    if let Some(rect) = rects.findings {
        findings::draw(frame, rect, state, looks.theme);
    }
    if let (Some(log), Some(input)) = (rects.chat_log, rects.chat_input) {
        chat::draw(frame, log, input, state, looks.theme);
    }
    if let Some(view) = &state.overlay.split_plan {
        let top = rects.tabs.y + rects.tabs.height;
        let body = Rect::new(area.x, top, area.width, rects.status.y.saturating_sub(top));
        split_plan::draw(frame, body, view, looks.theme);
    }
    status::draw(frame, rects.status, state, looks);
    if let Some(input) = &state.overlay.range_input {
        range_picker::draw(frame, area, input, looks.theme);
    }
    // A tool call waiting for approval takes every key, so it is drawn over everything.
    if let Some(request) = state.iris.approvals.front() {
        let waiting = state.iris.approvals.len() - 1;
        confirm::draw_approval(frame, area, request, waiting, looks.theme);
    } else if let Some(setup) = &state.overlay.setup {
        setup::draw(frame, area, setup, &state.start.setup_facts, looks.theme);
    } else if let Some(shown) = &state.overlay.alternatives {
        alternatives::draw(frame, area, shown, looks.theme);
    } else if let Some(asked) = &state.overlay.dismiss {
        dismiss::draw(frame, area, asked, looks.theme);
    } else if let Some(report) = &state.overlay.report {
        report::draw(frame, area, report, looks.theme);
    } else if state.overlay.help {
        help::draw(frame, area, state, looks);
    } else if let Some(question) = &state.overlay.confirm {
        confirm::draw(frame, area, question, state, looks.theme);
    }
}

/// A pane's frame, highlighted when it has the focus.
pub(crate) fn pane_block<'a>(title: String, focused: bool, theme: &Theme) -> Block<'a> {
    let border = if focused {
        Token::BorderFocused
    } else {
        Token::Border
    };
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Rounded
        })
        .border_style(theme.style(border))
        .title(title)
        .title_style(theme.style(Token::Title))
}

pub(crate) fn focused(state: &State, pane: Pane) -> bool {
    state.focus == pane && !state.overlay.help && !state.takes_every_key()
}

/// A list filling a pane from row `top` (as the state keeps it, so clicks agree), the
/// selected row highlighted and in view.
pub(crate) fn draw_list(
    frame: &mut Frame,
    area: Rect,
    block: Block<'_>,
    items: Vec<ratatui::widgets::ListItem<'_>>,
    (selected, top): (usize, usize),
    theme: &Theme,
) {
    let rows = super::layout::inner_rows(Some(area));
    let list = ratatui::widgets::List::new(items)
        .block(block)
        .highlight_style(theme.style(Token::Selection));
    let mut list_state = ratatui::widgets::ListState::default()
        .with_offset(super::layout::keep_in_view(top, selected, rows))
        .with_selected(Some(selected));
    frame.render_stateful_widget(list, area, &mut list_state);
}

/// A framed text over the panes (what is under it cleared): questions and reports.
pub(crate) fn text_box(
    frame: &mut Frame,
    rect: Rect,
    text: &str,
    title: &str,
    trim: bool,
    theme: &Theme,
) {
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim })
            .style(theme.style(Token::Text))
            .block(pane_block(title.to_string(), true, theme)),
        rect,
    );
}

/// A rectangle of `width` x `height` centred in `area` (clamped to it).
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}
