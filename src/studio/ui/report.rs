//! A long message (a failed commit's hook output, a long error) shown whole over the panes
//! until esc.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::{centered, pane_block};
use crate::studio::theme::{Theme, Token};

pub fn draw(frame: &mut Frame, area: Rect, report: &str, theme: &Theme) {
    let rect = centered(
        area,
        area.width.saturating_sub(10),
        area.height.saturating_sub(6),
    );
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(report)
            .wrap(Wrap { trim: false })
            .style(theme.style(Token::Text))
            .block(pane_block(" Report (esc closes) ".to_string(), true, theme)),
        rect,
    );
}
