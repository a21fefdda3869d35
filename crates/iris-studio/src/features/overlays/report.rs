//! A long text (a hook's output, a long error, the request's preview) shown whole over the
//! panes until esc; the arrows scroll it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::state::Report;
use crate::theme::{Theme, Token};
use crate::ui::centered;

pub fn draw(frame: &mut Frame, area: Rect, report: &Report, theme: &Theme) {
    let rect = centered(
        area,
        area.width.saturating_sub(10),
        area.height.saturating_sub(6),
    );
    frame.render_widget(Clear, rect);
    let top = u16::try_from(report.top).unwrap_or(u16::MAX);
    frame.render_widget(
        Paragraph::new(report.text.as_str())
            .wrap(Wrap { trim: false })
            .scroll((top, 0))
            .style(theme.style(Token::Text))
            .block(crate::ui::pane_block(report.title.to_string(), true, theme)),
        rect,
    );
}
