//! A yes/no question over the panes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::{centered, pane_block};
use crate::studio::state::{Confirm, State};
use crate::studio::theme::{Theme, Token};

pub fn draw(frame: &mut Frame, area: Rect, question: Confirm, state: &State, theme: &Theme) {
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
