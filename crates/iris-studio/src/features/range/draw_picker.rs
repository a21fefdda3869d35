//! The range picker: one input line for FROM..TO over the panes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Clear;
use tui_textarea::TextArea;

use crate::theme::Theme;
use crate::ui::{centered, pane_block};

pub fn draw(frame: &mut Frame, area: Rect, input: &TextArea<'static>, theme: &Theme) {
    let rect = centered(area, 64, 3);
    let block = pane_block(
        " Range FROM..TO (enter applies, esc cancels) ".to_string(),
        true,
        theme,
    );
    let inner = block.inner(rect);
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    frame.render_widget(input, inner);
}
