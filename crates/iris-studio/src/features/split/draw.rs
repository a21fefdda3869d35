//! The split view over the panes: the planned commits on the left, the selected commit's
//! hunks (the one at the top of the diff first) and its message on the right, the chat
//! about the plan below them.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, ListItem, Paragraph, Wrap};

use crate::state::{Pending, Speaker, SplitPhase, SplitView};
use crate::theme::{Theme, Token};
use crate::ui::{centered, draw_list, pane_block, text_box};
use iris_studio_core::change::Hunk;

/// Rows of the message box and of the chat.
const MESSAGE_ROWS: u16 = 8;
const CHAT_ROWS: u16 = 7;

pub fn draw(frame: &mut Frame, body: Rect, view: &SplitView, theme: &Theme) {
    frame.render_widget(Clear, body);
    let [list, right] =
        Layout::horizontal([Constraint::Percentage(34), Constraint::Fill(1)]).areas(body);
    draw_groups(frame, list, view, theme);
    let chat_rows = if view.chat.is_empty() && view.chat_input.is_none() {
        0
    } else {
        CHAT_ROWS
    };
    let [diff, message, chat] = Layout::vertical([
        Constraint::Min(4),
        Constraint::Length(MESSAGE_ROWS),
        Constraint::Length(chat_rows),
    ])
    .areas(right);
    draw_hunks(frame, diff, view, theme);
    draw_message(frame, message, view, theme);
    if chat_rows > 0 {
        draw_chat(frame, chat, view, theme);
    }
    if view.phase == SplitPhase::Confirming {
        let count = view.plan.groups.len();
        let text = format!(
            "Make these {count} commits, in order, through git commit (hooks apply)?\n\n\
             y: yes · any other key: no\n\nThe state before is saved: u undoes the split."
        );
        let rect = centered(body, 64, 8);
        text_box(frame, rect, &text, " Apply the split ", true, theme);
    }
}

fn draw_groups(frame: &mut Frame, area: Rect, view: &SplitView, theme: &Theme) {
    let items: Vec<ListItem> = view
        .plan
        .groups
        .iter()
        .enumerate()
        .map(|(i, group)| {
            let count = group.hunks.len();
            let hunks = if count == 1 {
                "1 hunk".to_string()
            } else {
                format!("{count} hunks")
            };
            let style = if group.left_out {
                Token::Warning
            } else {
                Token::Text
            };
            ListItem::new(Line::from(vec![
                Span::styled(format!("{}. ", i + 1), theme.style(Token::Accent)),
                Span::styled(group.title().to_string(), theme.style(style)),
                Span::styled(format!("  {hunks}"), theme.style(Token::TextDim)),
            ]))
        })
        .collect();
    let title = match &view.phase {
        SplitPhase::Applying { done, of, step } => format!(" Applying {done}/{of}: {step} "),
        SplitPhase::Applied(said) => format!(" {said} "),
        _ => match view.pending {
            Some(Pending::Move) => " Move the top hunk to commit: 1-9, or n (a new one) ".into(),
            Some(Pending::Merge) => " Merge this commit into: 1-9 ".into(),
            None => format!(" Split into {} commits ", view.plan.groups.len()),
        },
    };
    let hint = match view.phase {
        SplitPhase::Applied(_) => " u undo · esc close ",
        _ => " m move · M merge · ⏎ apply · esc ",
    };
    let block = pane_block(title, true, theme)
        .title_bottom(Line::styled(hint, theme.style(Token::TextDim)));
    draw_list(frame, area, block, items, (view.selected, 0), theme);
}

fn draw_hunks(frame: &mut Frame, area: Rect, view: &SplitView, theme: &Theme) {
    let units = view.selected_units();
    let top = view.top.min(units.len().saturating_sub(1));
    let mut lines: Vec<Line> = Vec::new();
    for unit in units.iter().skip(top) {
        lines.push(Line::styled(
            format!("{} {}", unit.id, unit.place()),
            theme.style(Token::Title),
        ));
        for hunk in view.hunks_of(unit) {
            hunk_lines(&mut lines, hunk, theme);
        }
        lines.push(Line::default());
    }
    let lines: Vec<Line> = lines.into_iter().skip(view.scroll).collect();
    let title = match units.get(top) {
        Some(unit) => format!(
            " Commit {} · {} ({} of {}) ",
            view.selected + 1,
            unit.id,
            top + 1,
            units.len()
        ),
        None => " No hunk ".to_string(),
    };
    let text = Paragraph::new(lines).block(pane_block(title, false, theme));
    frame.render_widget(text, area);
}

fn hunk_lines(lines: &mut Vec<Line<'static>>, hunk: &Hunk, theme: &Theme) {
    lines.push(Line::styled(
        hunk.header.clone(),
        theme.style(Token::DiffHunk),
    ));
    for line in &hunk.lines {
        let (mark, token) = crate::features::diff::draw::look(line.kind);
        let text = shown(&line.content);
        lines.push(Line::styled(format!("{mark}{text}"), theme.style(token)));
    }
}

fn draw_message(frame: &mut Frame, area: Rect, view: &SplitView, theme: &Theme) {
    let Some(group) = view.plan.groups.get(view.selected) else {
        return;
    };
    if let Some(input) = &view.editing {
        let block = pane_block(" Message · esc keeps it ".to_string(), true, theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        frame.render_widget(input, inner);
        return;
    }
    let mut text = group.message.clone();
    if !group.reason.is_empty() {
        text.push_str(&format!("\n\n(why: {})", group.reason));
    }
    let title = format!(
        " Message of commit {} · e edits, E in $EDITOR · / asks Iris ",
        view.selected + 1
    );
    let shown = Paragraph::new(text)
        .wrap(Wrap { trim: false })
        .style(theme.style(Token::Text))
        .block(pane_block(title, false, theme));
    frame.render_widget(shown, area);
}

fn draw_chat(frame: &mut Frame, area: Rect, view: &SplitView, theme: &Theme) {
    let (log, input) = match &view.chat_input {
        Some(_) => {
            let [log, input] =
                Layout::vertical([Constraint::Min(1), Constraint::Length(3)]).areas(area);
            (log, Some(input))
        }
        None => (area, None),
    };
    let mut lines: Vec<Line> = Vec::new();
    for message in &view.chat {
        let (who, token) = match message.speaker {
            Speaker::User => ("you: ", Token::ChatUser),
            Speaker::Iris => ("iris: ", Token::ChatIris),
        };
        lines.push(Line::from(vec![
            Span::styled(who, theme.style(token)),
            Span::styled(shown(&message.text), theme.style(Token::Text)),
        ]));
    }
    let rows = usize::from(log.height.saturating_sub(2));
    let skip = lines.len().saturating_sub(rows);
    let title = if view.chat_task.is_some() {
        " Iris is answering… (esc cancels) "
    } else {
        " Chat about the plan · / asks "
    };
    let shown = Paragraph::new(lines.into_iter().skip(skip).collect::<Vec<_>>())
        .wrap(Wrap { trim: false })
        .block(pane_block(title.to_string(), false, theme));
    frame.render_widget(shown, log);
    if let (Some(rect), Some(textarea)) = (input, &view.chat_input) {
        let block = pane_block(" Ask Iris · enter sends ".to_string(), true, theme);
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        frame.render_widget(textarea, inner);
    }
}

/// Untrusted text as it may be drawn: control characters written out, tabs expanded.
fn shown(text: &str) -> String {
    iris_studio_core::text::expand_tabs(&iris_studio_core::controls::escape(text))
}
