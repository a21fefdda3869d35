//! The question `d` asks over the panes: why the finding is dismissed, and whose memory
//! keeps it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use super::state::{Dismissing, Reason};
use crate::theme::{Theme, Token};
use crate::ui::{centered, pane_block};
use iris_studio_core::text::{clip, width};

pub fn draw(frame: &mut Frame, area: Rect, asked: &Dismissing, theme: &Theme) {
    let rect = centered(area, 76, 9);
    frame.render_widget(Clear, rect);
    let hint = " ↑/↓ or type: why · tab: whose · enter: dismiss · esc: keep it ";
    let block = pane_block(" Dismiss this finding ".to_string(), true, theme)
        .title_bottom(Line::styled(hint, theme.style(Token::TextDim)));
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let room = usize::from(inner.width);
    let text = |s: String| Span::styled(s, theme.style(Token::Text));
    let mut lines = vec![
        Line::from(text(clip(
            &format!("\"{}\" · id {}", asked.title, asked.id),
            room,
        ))),
        Line::from(Span::styled("Why?", theme.style(Token::Title))),
    ];
    for reason in Reason::ALL {
        let chosen = reason == asked.chosen;
        let mut row = format!("{} {}", if chosen { "▸" } else { " " }, reason.label());
        if reason == Reason::OwnWords {
            // The end of what is typed stays in view, after a cursor's place.
            let cursor = if chosen { "▏" } else { "" };
            let shown = room.saturating_sub(width(&row) + 2);
            let words: String = tail(&asked.words, shown);
            row = format!("{row} {words}{cursor}");
        }
        let style = if chosen {
            Token::Selection
        } else {
            Token::Text
        };
        lines.push(Line::from(Span::styled(row, theme.style(style))));
    }
    let whose = if asked.team {
        "kept for the team: .iris/review-memory.toml (commit it)"
    } else {
        "kept for you: .git/iris/review-memory.toml"
    };
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        clip(whose, room),
        theme.style(Token::Accent),
    )));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The last characters of `text` that fit in `room` columns.
fn tail(text: &str, room: usize) -> String {
    let mut kept: Vec<char> = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        let w = width(&c.to_string());
        if used + w > room {
            break;
        }
        used += w;
        kept.push(c);
    }
    kept.into_iter().rev().collect()
}
