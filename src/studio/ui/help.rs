//! The help overlay (generated from the keymap for the current mode) and yes/no questions.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::{Looks, centered, pane_block};
use crate::studio::command::Command;
use crate::studio::keymap::KeyContext;
use crate::studio::state::{Confirm, Mode, State};
use crate::studio::theme::{Theme, Token};

/// Commands that mean something in `mode`.
fn applies(command: Command, mode: Mode) -> bool {
    match command {
        Command::Commit | Command::ToggleAmend | Command::ToggleNoVerify => mode == Mode::Commit,
        Command::Generate | Command::OpenChat | Command::UndoVersion | Command::RedoVersion => {
            mode.has_artifact()
        }
        _ => true,
    }
}

pub fn draw(frame: &mut Frame, area: Rect, state: &State, looks: &Looks) {
    let theme = looks.theme;
    let mut entries: Vec<Line> = Vec::new();
    for (context, heading) in [
        (KeyContext::Global, "keys"),
        (KeyContext::Editing, "while typing"),
    ] {
        entries.push(Line::from(Span::styled(heading, theme.style(Token::Title))));
        for (chord, command) in looks.keymap.help(context) {
            if applies(command, state.mode) {
                entries.push(Line::from(vec![
                    Span::styled(format!("{chord:>17}  "), theme.style(Token::Accent)),
                    Span::styled(command.describe(), theme.style(Token::Text)),
                ]));
            }
        }
    }
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
    let half = entries.len().div_ceil(2);
    let right = entries.split_off(half);
    let columns = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
        .split(inner);
    frame.render_widget(Paragraph::new(entries), columns[0]);
    frame.render_widget(Paragraph::new(right), columns[1]);
}

pub fn confirm(frame: &mut Frame, area: Rect, question: Confirm, state: &State, theme: &Theme) {
    let text = match question {
        Confirm::Commit => {
            let mut what = "Commit with this message".to_string();
            if state.commit_flags.amend {
                what.push_str(", amending the last commit");
            }
            if state.commit_flags.no_verify {
                what.push_str(", skipping hooks");
            }
            format!("{what}? (y/n)")
        }
        Confirm::Quit => "An artifact has unsaved changes. Quit anyway? (y/n)".to_string(),
    };
    let rect = centered(area, 64, 5);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .style(theme.style(Token::Text))
            .block(pane_block(" Confirm ".to_string(), true, theme)),
        rect,
    );
}
