//! The artifact editor (tui-textarea) with, in commit mode, the title length against 50 / 72,
//! and the text streaming in while Iris writes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{focused, pane_block};
use crate::studio::state::{Mode, Pane, State, TaskKind};
use crate::studio::text::width;
use crate::studio::theme::{Theme, Token};

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let Some(buffer) = state.artifact() else {
        return;
    };
    let mut title = format!(" {} ", state.mode.title());
    if buffer.position < buffer.versions.len() {
        // Stepped back: `versions` holds every version, the one shown included.
        title.push_str(&format!(
            "(version {} of {}) ",
            buffer.position + 1,
            buffer.versions.len()
        ));
    }
    let mut block = pane_block(title, focused(state, Pane::Editor), theme);
    if state.mode == Mode::COMMIT {
        let first = buffer
            .editor
            .lines()
            .first()
            .map(String::as_str)
            .unwrap_or("");
        let length = width(first);
        let token = match length {
            0..=50 => Token::TitleOk,
            51..=72 => Token::TitleWarn,
            _ => Token::TitleOver,
        };
        let mut flags = String::new();
        if state.commit_flags.amend {
            flags.push_str("amend ");
        }
        if state.commit_flags.no_verify {
            flags.push_str("no-verify ");
        }
        block = block.title_bottom(Line::from(vec![
            Span::styled(format!(" title {length}/72 "), theme.style(token)),
            Span::styled(flags, theme.style(Token::Warning)),
        ]));
    }
    // While Iris writes the artifact, show her text as it streams in (a chat reply streams
    // into the chat, not over the artifact being discussed).
    if let Some(task) = state.task.as_ref().filter(|t| {
        t.kind == TaskKind::Generate && t.mode == state.mode && !t.progress.streamed.is_empty()
    }) {
        // Structured artifacts arrive as JSON: show how far along it is rather than raw JSON.
        let text = if task.progress.streamed.trim_start().starts_with('{') {
            format!(
                "Iris is writing the {} ({} characters so far)…",
                state.mode.title().to_lowercase(),
                task.progress.streamed.chars().count()
            )
        } else {
            task.progress.streamed.clone()
        };
        let preview = Paragraph::new(text)
            .style(theme.style(Token::TextDim))
            .wrap(Wrap { trim: false })
            .block(block);
        frame.render_widget(preview, area);
        return;
    }
    if buffer.is_empty() && state.task.is_none() {
        let hint = if state.ai_unavailable.is_some() {
            "type here (Iris needs a provider: I sets her up)"
        } else {
            "empty: ctrl-g asks Iris to write it, or type here"
        };
        let inner = block.inner(area);
        frame.render_widget(block, area);
        frame.render_widget(
            Paragraph::new(Span::styled(hint, theme.style(Token::TextDim)))
                .wrap(Wrap { trim: true }),
            inner,
        );
        return;
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(&buffer.editor, inner);
}
