//! The review's findings by severity; enter shows one in the diff.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::ListItem;

use super::{draw_list, focused, pane_block};
use crate::studio::findings::findings_in;
use crate::studio::state::{Pane, State};
use crate::studio::text::clip;
use crate::studio::theme::{Theme, Token};
use crate::types::Severity;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let rows = findings_in(&state.artifact().map(|a| a.text()).unwrap_or_default());
    let block = pane_block(
        format!(" Findings ({}) ", rows.len()),
        focused(state, Pane::Findings),
        theme,
    );
    let width = usize::from(area.width.saturating_sub(2));
    let items: Vec<ListItem> = if rows.is_empty() {
        vec![ListItem::new(Span::styled(
            "no findings yet",
            theme.style(Token::TextDim),
        ))]
    } else {
        rows.iter()
            .map(|row| {
                let token = match row.severity {
                    Severity::Critical => Token::SeverityCritical,
                    Severity::High => Token::SeverityHigh,
                    Severity::Medium => Token::SeverityMedium,
                    Severity::Low => Token::SeverityLow,
                    Severity::Info => Token::SeverityInfo,
                };
                let place = match row.line {
                    Some(line) => format!("{}:{line}", row.file),
                    None => row.file.clone(),
                };
                let label = format!("{:<8} ", row.severity.label());
                let rest = clip(
                    &format!("{} · {place}", row.title),
                    width.saturating_sub(label.len()),
                );
                ListItem::new(Line::from(vec![
                    Span::styled(label, theme.style(token)),
                    Span::styled(rest, theme.style(Token::Text)),
                ]))
            })
            .collect()
    };
    let selected = state.finding.min(rows.len().saturating_sub(1));
    draw_list(
        frame,
        area,
        block,
        items,
        (selected, state.list_tops.findings),
        theme,
    );
}
