//! The help overlay, generated from the keymap for the current mode.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::command::Command;
use crate::keymap::KeyContext;
use crate::state::State;
use crate::theme::Token;
use crate::ui::{Looks, centered, pane_block};
use iris_studio_core::text;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, looks: &Looks) {
    let theme = looks.theme;
    let rect = centered(
        area,
        area.width.saturating_sub(4),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, rect);
    let block = pane_block(
        format!(" Help: {} mode (? or esc closes) ", state.mode.title()),
        true,
        theme,
    );
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    // Two columns, so every key fits on a 40-row terminal.
    let columns = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
        .split(inner);
    let sections: Vec<(&str, Vec<(String, Command)>)> = [
        (KeyContext::Global, "keys"),
        (KeyContext::Editing, "while typing"),
    ]
    .into_iter()
    .map(|(context, heading)| {
        let keys = looks.keymap.help(context);
        (
            heading,
            keys.into_iter()
                .filter(|(_, c)| c.applies(state.mode).is_ok())
                .collect(),
        )
    })
    .collect();
    let key_width = sections
        .iter()
        .flat_map(|(_, keys)| keys)
        .map(|(chord, _)| text::width(chord))
        .max()
        .unwrap_or(0);
    let text_width = usize::from(columns[0].width)
        .saturating_sub(key_width + 3)
        .max(10);
    // One block of lines per heading and per key, so no key is split between the columns.
    let mut blocks: Vec<Vec<Line>> = Vec::new();
    for (heading, keys) in sections {
        blocks.push(vec![Line::from(Span::styled(
            heading,
            theme.style(Token::Title),
        ))]);
        for (chord, command) in keys {
            // A long description wraps under itself, the keys column left clear.
            let parts = crate::text::wrap_words(command.describe(), text_width);
            blocks.push(
                parts
                    .into_iter()
                    .enumerate()
                    .map(|(i, part)| {
                        let keys = if i == 0 { chord.as_str() } else { "" };
                        let pad = " ".repeat(key_width - text::width(keys));
                        Line::from(vec![
                            Span::styled(format!("{pad}{keys}  "), theme.style(Token::Accent)),
                            Span::styled(part, theme.style(Token::Text)),
                        ])
                    })
                    .collect(),
            );
        }
    }
    let total: usize = blocks.iter().map(Vec::len).sum();
    let (mut entries, mut right) = (Vec::new(), Vec::new());
    for block in blocks {
        if entries.len() < total.div_ceil(2) {
            entries.extend(block);
        } else {
            right.extend(block);
        }
    }
    frame.render_widget(Paragraph::new(entries), columns[0]);
    frame.render_widget(Paragraph::new(right), columns[1]);
}
