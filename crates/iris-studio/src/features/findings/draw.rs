//! The review's findings by severity; enter shows one in the diff.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::ListItem;

use crate::findings::shown_findings;
use crate::state::{Pane, State};
use crate::theme::{Theme, Token};
use crate::ui::{draw_list, focused, pane_block};
use iris_studio_core::artifact::Severity;
use iris_studio_core::text::clip;

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let (rows, folds) = shown_findings(state);
    let folded = folds.total();
    let min = state.findings.min_confidence;
    let title = match folded {
        0 => format!(" Findings ({}) ", rows.len()),
        n => format!(" Findings ({}, {n} folded) ", rows.len()),
    };
    let block = pane_block(title, focused(state, Pane::Findings), theme);
    let width = usize::from(area.width.saturating_sub(2));
    let mut items: Vec<ListItem> = if rows.is_empty() && folded == 0 {
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
                // A finding shown although folded by default says why, dimmed.
                let (unsure, text) = match row.confidence.filter(|_| row.unsure(min)) {
                    _ if row.unchecked => (true, format!("{} · {place} · unverified", row.title)),
                    Some(c) => (true, format!("{} · {place} · {c}%", row.title)),
                    None => (false, format!("{} · {place}", row.title)),
                };
                let rest = clip(&text, width.saturating_sub(label.len()));
                let style = if unsure { Token::TextDim } else { Token::Text };
                ListItem::new(Line::from(vec![
                    Span::styled(label, theme.style(token)),
                    Span::styled(rest, theme.style(style)),
                ]))
            })
            .collect()
    };
    if folded > 0 {
        let text = match folds.unchecked {
            0 => format!("▸ {folded} under {min}% sure folded: f shows"),
            n => format!("▸ {folded} folded, {n} unverified: f shows"),
        };
        items.push(ListItem::new(Span::styled(
            clip(&text, width),
            theme.style(Token::TextDim),
        )));
    }
    let selected = state.findings.selected.min(rows.len().saturating_sub(1));
    draw_list(
        frame,
        area,
        block,
        items,
        (selected, state.screen.list_tops.findings),
        theme,
    );
}
