//! Iris' answer about the selected lines, beside the code: what she has streamed while she
//! writes, then her explanation and the commits behind the lines (the cited ones marked, the
//! one enter opens highlighted).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::answer::Row;
use crate::layout::inner_size;
use crate::state::{Pane, State, TaskKind};
use crate::theme::{Theme, Token};
use crate::ui::{focused, pane_block};
use iris_studio_core::text::clip;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let Some(why) = &state.explore.why else {
        return;
    };
    let (width, height) = inner_size(Some(area));
    let writing = state.iris.task.as_ref().filter(|t| t.kind == TaskKind::Why);
    let rows = &state.rows.answer;
    let range = format!("{}-{}", why.key.start, why.key.end);
    let title = match (&why.answer, writing) {
        (Some(_), _) => format!(" Why {range} · n/p pick a commit "),
        (None, Some(task)) => format!(" Why {range} · {}… ", task.progress.activity),
        (None, None) => format!(" Why {range} "),
    };
    let block = pane_block(
        clip(&title, width.saturating_sub(2)),
        focused(state, Pane::Answer),
        theme,
    );
    let lines: Vec<Line> = if rows.is_empty() {
        vec![Line::from(Span::styled(
            "Iris is reading the lines' history…",
            theme.style(Token::TextDim),
        ))]
    } else {
        rows.iter()
            .skip(why.scroll)
            .take(height)
            .map(|row| match row {
                Row::Text(text) => Line::from(text.as_str()),
                Row::Blank => Line::default(),
                Row::Heading(text) => {
                    Line::from(Span::styled(clip(text, width), theme.style(Token::Title)))
                }
                Row::Commit { index, text, cited } => {
                    let mark = if *cited { "★ " } else { "  " };
                    let token = if *index == why.commit {
                        Token::Selection
                    } else if *cited {
                        Token::Accent
                    } else {
                        Token::Text
                    };
                    Line::from(Span::styled(format!("{mark}{text}"), theme.style(token)))
                }
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
