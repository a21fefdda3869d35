//! The top line: the modes (the current one highlighted) and the branch.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::state::{Mode, State};
use crate::theme::{Theme, Token};

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let mut spans = vec![Span::styled(" iris ", theme.style(Token::Accent))];
    for (i, mode) in Mode::ALL.into_iter().enumerate() {
        let label = format!(" {} {} ", i + 1, mode.title());
        let style = if mode == state.mode {
            theme.style(Token::Selection)
        } else {
            theme.style(Token::TextDim)
        };
        spans.push(Span::styled(label, style));
    }
    if !state.repo.branch.is_empty() {
        spans.push(Span::styled(
            format!("  {}", state.repo.branch),
            theme.style(Token::Text),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
