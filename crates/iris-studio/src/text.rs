//! Styled text that fits: spans scrolled sideways by terminal cells. Plain text is measured,
//! clipped and wrapped by `iris_core::text`.

use ratatui::text::Span;
use unicode_width::UnicodeWidthChar;

/// The spans without their first `columns` cells (a wide character cut in two becomes a
/// space), for text scrolled sideways.
pub fn skip_columns(spans: Vec<Span<'static>>, columns: usize) -> Vec<Span<'static>> {
    if columns == 0 {
        return spans;
    }
    let mut skipped = 0;
    spans
        .into_iter()
        .filter_map(|span| {
            if skipped >= columns {
                return Some(span);
            }
            let mut kept = String::new();
            for ch in span.content.chars() {
                let w = ch.width().unwrap_or(0);
                if skipped >= columns {
                    kept.push(ch);
                } else if skipped + w > columns {
                    kept.push(' ');
                }
                skipped += w;
            }
            (!kept.is_empty()).then(|| Span::styled(kept, span.style))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_scrolled_sideways_lose_their_first_columns() {
        let spans = vec![Span::raw("let "), Span::raw("日本 = 1;")];
        let text = |spans: Vec<Span<'static>>| {
            spans
                .iter()
                .map(|s| s.content.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(text(skip_columns(spans.clone(), 0)), ["let ", "日本 = 1;"]);
        assert_eq!(text(skip_columns(spans.clone(), 2)), ["t ", "日本 = 1;"]);
        assert_eq!(text(skip_columns(spans.clone(), 4)), ["日本 = 1;"]);
        // Half of 日 is gone: a space keeps the columns where they were.
        assert_eq!(text(skip_columns(spans.clone(), 5)), [" 本 = 1;"]);
        assert!(skip_columns(spans, 40).is_empty());
    }
}
