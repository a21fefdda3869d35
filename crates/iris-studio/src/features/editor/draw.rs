//! The artifact editor (tui-textarea) with, in commit mode, the title length against 50 / 72,
//! and the text streaming in while Iris writes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::ui::{focused, pane_block};
use std::borrow::Cow;

use crate::state::{Mode, Pane, RulesVerdict, State, TaskKind};
use crate::text::wrap_visible;
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
    let facts = buffer.facts();
    if state.mode == Mode::COMMIT {
        let length = facts.title_width;
        let token = match length {
            0..=50 => Token::TitleOk,
            51..=72 => Token::TitleWarn,
            _ => Token::TitleOver,
        };
        let mut flags = String::new();
        if state.repo.commit_flags.amend {
            flags.push_str("amend ");
        }
        if state.repo.commit_flags.no_verify {
            flags.push_str("no-verify ");
        }
        let mut marks = vec![Span::styled(
            format!(" title {length}/72 "),
            theme.style(token),
        )];
        marks.extend(rules_mark(facts.rules.as_ref(), theme));
        marks.push(Span::styled(flags, theme.style(Token::Warning)));
        block = block.title_bottom(Line::from(marks));
    }
    // While Iris writes this artifact (or replaces it from the chat), show it as it forms.
    if let Some(text) = forming(state) {
        // Only what can show is wrapped: a long reply costs a frame a screenful.
        let inner = block.inner(area);
        let text = match text {
            Cow::Borrowed(text) => Cow::Borrowed(wrap_visible(text, inner.width, inner.height)),
            Cow::Owned(text) => Cow::Owned(text),
        };
        let preview = Paragraph::new(text)
            .style(theme.style(Token::TextDim))
            .wrap(Wrap { trim: false })
            .block(block);
        frame.render_widget(preview, area);
        return;
    }
    if facts.blank && state.iris.task.is_none() {
        let hint = if state.iris.unavailable.is_some() {
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

/// The project's commit rules against the message (as checked when it changed): the first
/// rule it breaks, named (errors before warnings), or a tick; nothing without rules or a
/// message.
fn rules_mark<'a>(verdict: Option<&RulesVerdict>, theme: &Theme) -> Option<Span<'a>> {
    let (rule, error, more) = match verdict? {
        RulesVerdict::Kept => return Some(Span::styled(" ✔ rules ", theme.style(Token::TitleOk))),
        RulesVerdict::Broken { rule, error, more } => (rule, *error, *more),
    };
    let (mark, token) = if error {
        ("✖", Token::TitleOver)
    } else {
        ("⚠", Token::TitleWarn)
    };
    let more = match more {
        0 => String::new(),
        n => format!(" +{n}"),
    };
    Some(Span::styled(
        format!(" {mark} {rule}{more} "),
        theme.style(token),
    ))
}

/// The text to show over the artifact while a task writes it: its preview (the artifact as
/// far as the reply has written it, or a chat edit's new text), else the streamed text of a
/// reply that is no JSON. A structured reply not yet readable shows how far along it is.
/// (A chat reply's prose streams into the chat, not here.)
fn forming(state: &State) -> Option<Cow<'_, str>> {
    let task = state.iris.task.as_ref()?;
    let artifact = state.mode.artifact();
    if let Some((kind, text)) = &task.progress.preview
        && Some(*kind) == artifact
    {
        return Some(Cow::Borrowed(text));
    }
    if task.kind != TaskKind::Generate
        || task.mode != state.mode
        || task.progress.streamed.is_empty()
    {
        return None;
    }
    Some(if task.progress.streamed.trim_start().starts_with('{') {
        Cow::Owned(format!(
            "Iris is writing the {} ({} characters so far)…",
            state.mode.title().to_lowercase(),
            task.progress.streamed.chars().count()
        ))
    } else {
        Cow::Borrowed(&task.progress.streamed)
    })
}
