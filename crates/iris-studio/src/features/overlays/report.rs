//! A long text (a hook's output, a long error, the request's preview) shown whole over the
//! panes until esc; the arrows scroll it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::state::Report;
use crate::theme::{Theme, Token};
use crate::ui::centered;

/// The report's box on a screen of `area`: five columns and three rows in from each side.
pub(crate) fn box_in(area: Rect) -> Rect {
    centered(
        area,
        area.width.saturating_sub(10),
        area.height.saturating_sub(6),
    )
}

/// The rows inside the box (`width` and `height` of the screen) that `text` takes, a long
/// line as many as it wraps to, and the rows the box shows.
pub(crate) fn rows_and_shown(text: &str, (width, height): (u16, u16)) -> (usize, usize) {
    let inner = box_in(Rect::new(0, 0, width, height));
    let columns = usize::from(inner.width.saturating_sub(2)).max(1);
    let shown = usize::from(inner.height.saturating_sub(2)).max(1);
    let rows = text
        .lines()
        .map(|line| iris_studio_core::text::width(line).div_ceil(columns).max(1))
        .sum();
    (rows, shown)
}

pub fn draw(frame: &mut Frame, area: Rect, report: &Report, theme: &Theme) {
    let rect = box_in(area);
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
