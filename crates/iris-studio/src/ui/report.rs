//! A long message (a failed commit's hook output, a long error) shown whole over the panes
//! until esc.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{centered, text_box};
use crate::theme::Theme;

pub fn draw(frame: &mut Frame, area: Rect, report: &str, theme: &Theme) {
    let rect = centered(
        area,
        area.width.saturating_sub(10),
        area.height.saturating_sub(6),
    );
    text_box(frame, rect, report, " Report (esc closes) ", false, theme);
}
