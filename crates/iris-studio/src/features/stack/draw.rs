//! The stack's layers above PR mode's commits: bottom first, the shown layer highlighted,
//! the checked-out one marked `@`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::ListItem;

use crate::state::StackView;
use crate::theme::{Theme, Token};
use crate::ui::{draw_list, pane_block};
use iris_studio_core::text::clip;

pub fn draw(frame: &mut Frame, area: Rect, view: &StackView, theme: &Theme) {
    let width = usize::from(area.width.saturating_sub(2));
    let title = format!(" Stack on {} [ ] ", view.stack.base);
    let block = pane_block(clip(&title, width), false, theme);
    let items = view
        .stack
        .layers
        .iter()
        .enumerate()
        .map(|(i, layer)| {
            let here = if i == view.stack.current { "@" } else { " " };
            let branch = format!("{}{here} {} ", i + 1, layer.branch);
            let title = layer.titles.last().map(String::as_str).unwrap_or_default();
            let room = width.saturating_sub(iris_studio_core::text::width(&branch));
            ListItem::new(Line::from(vec![
                Span::styled(branch, theme.style(Token::Accent)),
                Span::styled(clip(title, room), theme.style(Token::Text)),
            ]))
        })
        .collect();
    draw_list(frame, area, block, items, (view.selected, 0), theme);
}
