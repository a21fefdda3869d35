//! Styled text that fits: spans scrolled sideways by terminal cells. Plain text is measured,
//! clipped and wrapped by `iris_core::text`.

use ratatui::buffer::{Buffer, CellWidth};
use ratatui::style::Style;
use ratatui::text::Span;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthChar;

/// One row of a buffer written piece by piece, cut at its width, cell for cell as a
/// [`ratatui::widgets::Paragraph`] draws an unwrapped line: without building the line, so a
/// frame allocates nothing for it.
pub struct Row<'b> {
    buf: &'b mut Buffer,
    x: u16,
    y: u16,
    max: u16,
    used: u16,
    full: bool,
}

impl<'b> Row<'b> {
    /// Row `y` of `buf` from column `x`, `max` cells wide.
    pub fn new(buf: &'b mut Buffer, x: u16, y: u16, max: u16) -> Self {
        Self {
            buf,
            x,
            y,
            max,
            used: 0,
            full: false,
        }
    }

    /// The cells written so far.
    pub fn used(&self) -> u16 {
        self.used
    }

    /// Writes `text` in `style` after what is there.
    pub fn put(&mut self, text: &str, style: Style) {
        if self.full {
            return;
        }
        for symbol in text
            .graphemes(true)
            .filter(|g| !g.contains(char::is_control))
        {
            let width = symbol.cell_width();
            // Wider than the whole row: left out, as a paragraph leaves it out.
            if width > self.max {
                continue;
            }
            if self.used + width > self.max {
                self.full = true;
                return;
            }
            if width == 0 {
                continue;
            }
            self.buf[(self.x + self.used, self.y)]
                .set_symbol(symbol)
                .set_style(style);
            self.used += width;
        }
    }

    /// Writes `text` without its first `columns` cells (a wide character cut in two becomes a
    /// space, as [`skip_columns`] cuts it); the cells still to skip after it.
    pub fn put_skipping(&mut self, text: &str, style: Style, columns: usize) -> usize {
        if columns == 0 {
            self.put(text, style);
            return 0;
        }
        let mut skipped = 0;
        for (at, ch) in text.char_indices() {
            if skipped >= columns {
                self.put(&text[at..], style);
                return 0;
            }
            let w = ch.width().unwrap_or(0);
            if skipped + w > columns {
                self.put(" ", style);
                let rest = at + ch.len_utf8();
                self.put(&text[rest..], style);
                return 0;
            }
            skipped += w;
        }
        columns - skipped
    }

    /// Moves on to cell `column` of the row (nothing written between).
    pub fn advance_to(&mut self, column: u16) {
        if column > self.max {
            self.full = true;
        }
        self.used = self.used.max(column.min(self.max));
    }
}

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
