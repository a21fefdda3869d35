//! A question over the panes: yes or no, or whether a tool call of Iris' may run.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::{centered, pane_block};
use crate::agent::safety::ApprovalRequest;
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

/// Arguments longer than this are cut in the question.
const MAX_ARGS_CHARS: usize = 600;

/// The first tool call waiting for approval, and how many more wait.
pub fn draw_approval(
    frame: &mut Frame,
    area: Rect,
    request: &ApprovalRequest,
    waiting: usize,
    theme: &Theme,
) {
    let mut args: String = request.args.chars().take(MAX_ARGS_CHARS).collect();
    if args.len() < request.args.len() {
        args.push_str(" …");
    }
    let more = match waiting {
        0 => String::new(),
        n => format!(" ({n} more waiting)"),
    };
    let text = format!(
        "Iris wants to run {} ({}: {}).\n\n{args}\n\ny allow once · s allow for this \
         session · n or esc refuse{more}",
        request.tool,
        request.risk,
        request.risk.what_it_does()
    );
    let rect = centered(area, 72, 11);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .style(theme.style(Token::Text))
            .block(pane_block(" Allow this? ".to_string(), true, theme)),
        rect,
    );
}
