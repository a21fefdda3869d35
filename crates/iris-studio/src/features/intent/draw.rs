//! The open file's intent and responsibility blocks, beside the code: the chosen block
//! highlighted with its description and elements under it, and how Iris read the file.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::blocks::Row;
use crate::layout::inner_size;
use crate::state::{Pane, State, TaskKind};
use crate::theme::{Theme, Token};
use crate::ui::{focused, pane_block};
use iris_studio_core::text::clip;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let Some(view) = &state.explore.intent else {
        return;
    };
    let (width, height) = inner_size(Some(area));
    let name = view.key.path.rsplit('/').next().unwrap_or(&view.key.path);
    let reading = state
        .iris
        .task
        .as_ref()
        .filter(|t| t.kind == TaskKind::Intent);
    let title = match (&view.intent, reading) {
        (Some(_), _) => format!(" {name} · j/k pick a block "),
        (None, Some(task)) => format!(" {name} · {}… ", task.progress.activity),
        (None, None) => format!(" {name} "),
    };
    let block = pane_block(
        clip(&title, width.saturating_sub(2)),
        focused(state, Pane::Blocks),
        theme,
    );
    let rows = &state.rows.blocks;
    let lines: Vec<Line> = if rows.is_empty() {
        vec![Line::from(Span::styled(
            "Iris is reading the file…",
            theme.style(Token::TextDim),
        ))]
    } else {
        rows.iter()
            .skip(view.scroll)
            .take(height)
            .map(|row| match row {
                Row::Text(text) => {
                    Line::from(Span::styled(text.as_str(), theme.style(Token::Title)))
                }
                Row::Blank => Line::default(),
                Row::Block { index, text } => {
                    let (mark, token) = if *index == view.block {
                        ("▌ ", Token::Selection)
                    } else {
                        ("  ", Token::Accent)
                    };
                    Line::from(Span::styled(format!("{mark}{text}"), theme.style(token)))
                }
                Row::Detail(text) => {
                    Line::from(Span::styled(text.as_str(), theme.style(Token::Text)))
                }
                Row::Footer(text) => {
                    Line::from(Span::styled(text.as_str(), theme.style(Token::TextDim)))
                }
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
