//! The chat with Iris, beside the artifact: the conversation and a multi-line input.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{focused, pane_block};
use crate::studio::state::{Pane, Speaker, State};
use crate::studio::theme::{Theme, Token};

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(3), Constraint::Length(4)])
        .split(area);
    let mut lines: Vec<Line> = Vec::new();
    for message in &state.chat.messages {
        let (who, token) = match message.speaker {
            Speaker::User => ("you", Token::ChatUser),
            Speaker::Iris => ("iris", Token::ChatIris),
        };
        lines.push(Line::from(Span::styled(
            format!("{who}:"),
            theme.style(token),
        )));
        lines.extend(message.text.lines().map(|l| Line::from(l.to_string())));
        lines.push(Line::default());
    }
    if let Some(task) = state
        .task
        .as_ref()
        .filter(|t| t.kind == crate::studio::state::TaskKind::Chat)
    {
        lines.push(Line::from(Span::styled(
            "iris:",
            theme.style(Token::ChatIris),
        )));
        lines.extend(task.streamed.lines().map(|l| Line::from(l.to_string())));
    }
    // Keep the end of the conversation in view.
    let height = usize::from(parts[0].height.saturating_sub(2));
    let skip = lines.len().saturating_sub(height);
    let conversation = Paragraph::new(lines.split_off(skip))
        .wrap(Wrap { trim: false })
        .block(pane_block(" Chat with Iris ".to_string(), false, theme));
    frame.render_widget(conversation, parts[0]);
    let block = pane_block(
        " message (enter sends, alt-enter new line) ".to_string(),
        focused(state, Pane::ChatInput),
        theme,
    );
    let inner = block.inner(parts[1]);
    frame.render_widget(block, parts[1]);
    frame.render_widget(&state.chat.input, inner);
}
