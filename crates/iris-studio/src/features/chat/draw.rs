//! The chat with Iris, beside the artifact: the conversation and a multi-line input.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::conversation::{self, Row};
use crate::layout::inner_size;
use crate::state::{Pane, Speaker, State};
use crate::theme::{Theme, Token};
use crate::ui::{focused, pane_block};

/// The conversation in `log` (scrolled as the user left it, else at its end) and the message
/// being written in `input`.
pub fn draw(frame: &mut Frame, log: Rect, input: Rect, state: &State, theme: &Theme) {
    let (_, height) = inner_size(Some(log));
    let rows = &state.rows.chat;
    let top = conversation::top(&state.chat, rows.len(), height);
    let lines: Vec<Line> = rows
        .iter()
        .skip(top)
        .take(height)
        .map(|row| match row {
            Row::Speaker(Speaker::User) => {
                Line::from(Span::styled("you:", theme.style(Token::ChatUser)))
            }
            Row::Speaker(Speaker::Iris) => {
                Line::from(Span::styled("iris:", theme.style(Token::ChatIris)))
            }
            Row::Text(text) => Line::from(text.as_str()),
            Row::Blank => Line::default(),
        })
        .collect();
    let title = match state.chat.top {
        Some(_) => " Chat with Iris (scrolled back: wheel or pgdn for newer) ",
        None => " Chat with Iris ",
    };
    let conversation = Paragraph::new(lines).block(pane_block(title.to_string(), false, theme));
    frame.render_widget(conversation, log);
    let block = pane_block(
        " message (enter sends, alt-enter new line) ".to_string(),
        focused(state, Pane::ChatInput),
        theme,
    );
    let inner = block.inner(input);
    frame.render_widget(block, input);
    frame.render_widget(&state.chat.input, inner);
}
