//! Styled text that fits: spans scrolled sideways by terminal cells. Plain text is measured,
//! clipped and wrapped by `iris_studio_core::text`.

use ratatui::buffer::{Buffer, CellWidth};
use ratatui::style::Style;
use ratatui::text::Span;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthChar;

/// `text` in lines of at most `width` columns, broken at words (a key's description in the
/// help, under itself).
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    textwrap::wrap(text, width)
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect()
}

/// The beginning of `text` that can show when a paragraph wraps it at words (untrimmed) into
/// `height` rows of `width` cells from its top: the rows it makes are those the whole text
/// makes, so a frame wraps a screenful, not a long reply. Cut after `height` lines (each
/// makes a row at least), or inside a line once it has more cells than `height` rows can
/// hold with what the wrapper may drop at each break and keep pending (three rows' worth a
/// row, and three more).
pub fn wrap_visible(text: &str, width: u16, height: u16) -> &str {
    if width == 0 || height == 0 {
        return text;
    }
    let bound = (3 * u64::from(height) + 3) * u64::from(width);
    let (mut lines, mut cells) = (0u16, 0u64);
    for (at, grapheme) in text.grapheme_indices(true) {
        if grapheme == "\n" || grapheme == "\r\n" {
            lines += 1;
            if lines >= height {
                return &text[..at];
            }
            cells = 0;
            continue;
        }
        if grapheme.contains(char::is_control) {
            continue;
        }
        let w = grapheme.cell_width();
        if w <= width {
            cells += u64::from(w);
        }
        if cells >= bound {
            return &text[..at + grapheme.len()];
        }
    }
    text
}

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

    /// A paragraph shows the same rows for the visible part as for the whole text: words,
    /// runs of spaces, long words, blank lines, wide and zero-width characters, at many sizes.
    #[test]
    fn the_visible_part_wraps_into_the_rows_the_whole_text_shows() {
        use ratatui::layout::Rect;
        use ratatui::widgets::{Paragraph, Widget, Wrap};
        let pieces = [
            "word ",
            "a ",
            "longerword ",
            "   ",
            "\n",
            "\n\n",
            "日本語 ",
            "x",
            "\u{301}",
            "\u{200b}",
            "supercalifragilisticexpialidocious",
            " ",
            "\t",
            "😀 ",
            "\r\n",
        ];
        let mut seed: u64 = 7;
        let mut cut = 0;
        for case in 0..400 {
            let mut text = String::new();
            let len = 20 + (case * 7) % 600;
            for _ in 0..len {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let (width, height) = (1 + (case % 23) as u16, 1 + (case % 9) as u16);
            let area = Rect::new(0, 0, width, height);
            let draw = |text: &str| {
                let mut buf = Buffer::empty(area);
                Paragraph::new(text)
                    .wrap(Wrap { trim: false })
                    .render(area, &mut buf);
                buf
            };
            let shown = wrap_visible(&text, width, height);
            cut += usize::from(shown.len() < text.len());
            assert_eq!(
                draw(shown),
                draw(&text),
                "case {case} {width}x{height}: {text:?}"
            );
        }
        assert!(cut > 300, "the texts were cut in {cut} cases of 400");
    }

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
