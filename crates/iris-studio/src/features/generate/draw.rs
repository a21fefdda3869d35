//! The versions of the message to choose from, side by side over the panes: the editor's own
//! first, then Iris' alternatives, each numbered as the key that picks it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::state::Alternatives;
use crate::theme::{Theme, Token};
use crate::ui::{centered, pane_block};

pub fn draw(frame: &mut Frame, area: Rect, shown: &Alternatives, theme: &Theme) {
    let rect = centered(
        area,
        area.width.saturating_sub(4),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, rect);
    let count = shown.versions.len().max(1);
    let hint = format!(" 1-{count} or ←/→ and enter: pick · esc: keep the current ");
    let outer = pane_block(" Versions to choose from ".to_string(), true, theme)
        .title_bottom(Line::styled(hint, theme.style(Token::TextDim)));
    let inner = outer.inner(rect);
    frame.render_widget(outer, rect);
    let columns = Layout::horizontal(vec![Constraint::Fill(1); count]).split(inner);
    for (i, (version, column)) in shown.versions.iter().zip(columns.iter()).enumerate() {
        let title = if version.current {
            format!(" {} · current ", i + 1)
        } else {
            format!(" {} ", i + 1)
        };
        let block = pane_block(title, i == shown.selected, theme);
        let text = Paragraph::new(version.text.as_str())
            .style(theme.style(Token::Text))
            .wrap(Wrap { trim: false })
            .block(block);
        frame.render_widget(text, *column);
    }
}
