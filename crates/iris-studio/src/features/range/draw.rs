//! The commits of the range (PR, changelog and release notes modes), with FROM..TO in the title.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::ListItem;

use crate::state::{Pane, State};
use crate::theme::{Theme, Token};
use crate::ui::{draw_list, focused, pane_block};
use iris_studio_core::text::clip;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let range = &state.range;
    let from = range
        .from
        .as_deref()
        .or(range.resolved_from.as_deref())
        .unwrap_or("…");
    let title = if range.loading {
        format!(" Commits {from}..{} (loading…) ", range.to_or_head())
    } else {
        format!(
            " Commits {from}..{} ({}) R ",
            range.to_or_head(),
            range.commits.len()
        )
    };
    let width = usize::from(area.width.saturating_sub(2));
    let block = pane_block(clip(&title, width), focused(state, Pane::Commits), theme);
    let items: Vec<ListItem> = if range.commits.is_empty() && !range.loading {
        vec![ListItem::new(Span::styled(
            "no commits in this range",
            theme.style(Token::TextDim),
        ))]
    } else {
        range
            .commits
            .iter()
            .map(|c| {
                ListItem::new(Line::from(vec![
                    Span::styled(format!("{} ", c.short_id), theme.style(Token::Accent)),
                    Span::styled(
                        clip(&c.summary, width.saturating_sub(8)),
                        theme.style(Token::Text),
                    ),
                ]))
            })
            .collect()
    };
    draw_list(
        frame,
        area,
        block,
        items,
        (range.selected, state.screen.list_tops.commits),
        theme,
    );
}
