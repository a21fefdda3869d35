//! The artifact editor (tui-textarea) with, in commit mode, the title length against 50 / 72,
//! and the text streaming in while Iris writes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{focused, pane_block};
use crate::state::{Mode, Pane, State, TaskKind};
use crate::text::width;
use crate::theme::{Theme, Token};

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
        let mut marks = vec![Span::styled(
            format!(" title {length}/72 "),
            theme.style(token),
        )];
        marks.extend(rules_mark(state, &buffer.text(), theme));
        marks.push(Span::styled(flags, theme.style(Token::Warning)));
        block = block.title_bottom(Line::from(marks));
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
            "type here (Iris needs a provider: alt-i sets her up)"
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

/// The project's commit rules against the message: the first rule it breaks, named (errors
/// before warnings), or a tick; nothing without rules or a message.
fn rules_mark<'a>(state: &State, message: &str, theme: &Theme) -> Option<Span<'a>> {
    let rules = state.commit_rules.as_ref()?;
    if message.trim().is_empty() {
        return None;
    }
    let mut violations = rules.check(message);
    violations.sort_by_key(|v| !v.error);
    let Some(first) = violations.first() else {
        return Some(Span::styled(" ✔ rules ", theme.style(Token::TitleOk)));
    };
    let (mark, token) = if first.error {
        ("✖", Token::TitleOver)
    } else {
        ("⚠", Token::TitleWarn)
    };
    let more = match violations.len() {
        1 => String::new(),
        n => format!(" +{}", n - 1),
    };
    Some(Span::styled(
        format!(" {mark} {}{more} ", first.rule),
        theme.style(token),
    ))
}
