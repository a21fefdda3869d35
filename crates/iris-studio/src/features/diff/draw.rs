//! The selected file's diff: syntax-highlighted lines, hunk headers, scrolling.
//! Only the visible lines are laid out, so a 10,000-line diff draws as fast as a short one.

use std::fmt::Write;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Paragraph, Wrap};

use crate::highlight::{Highlighter, Highlights};
use crate::side_by_side::Side;
use crate::state::{DiffRow, DiffView, Pane, State};
use crate::text::Row;
use crate::theme::{Theme, Token};
use crate::ui::{Looks, focused, pane_block};
use iris_studio_core::change::LineKind;
use iris_studio_core::text::clip;

/// How a line of `kind` looks: its sign and its colour.
pub(crate) fn look(kind: LineKind) -> (&'static str, Token) {
    match kind {
        LineKind::Added => ("+", Token::DiffAdded),
        LineKind::Removed => ("-", Token::DiffRemoved),
        LineKind::Context => (" ", Token::DiffContext),
    }
}

/// One side of a side-by-side row, `width` columns from where `row` is: the line's number,
/// its sign and its highlighted text (blank where the side has no line).
fn half(
    row: &mut Row,
    side: Option<Side<'_>>,
    path: &str,
    (hscroll, width): (usize, usize),
    looks: (&mut Highlighter, &Theme),
    number: &mut String,
) {
    let (highlighter, theme) = looks;
    let end = row.used() + u16::try_from(width).unwrap_or(u16::MAX);
    if let Some(side) = side {
        let (sign, token) = look(side.kind);
        number.clear();
        let _ = write!(number, "{:>4} ", side.number);
        let room = width.saturating_sub(number.len() + 1);
        row.put(number, theme.style(Token::DiffLineNumber));
        row.put(sign, theme.style(token));
        put_text(
            row,
            highlighter,
            path,
            side.text,
            theme.style(token),
            (hscroll, room),
        );
    }
    row.advance_to(end);
}

/// `width` cells of a line's text from cell `hscroll`, highlighted, in `base`'s style.
fn put_text(
    row: &mut Row,
    highlighter: &mut Highlighter,
    path: &str,
    line: &str,
    base: Style,
    (hscroll, width): (usize, usize),
) {
    let pieces = highlighter.pieces(path, line, hscroll + width);
    let mut skip = hscroll;
    for (text, color) in pieces.runs() {
        let style = match color {
            Some(color) => base.fg(color),
            None => base,
        };
        skip = row.put_skipping(text, style, skip);
    }
}

/// At most `max` cells of `text`, ending in `…` when something was cut (as
/// [`iris_studio_core::text::clip`] cuts it), without copying it.
fn put_clipped(row: &mut Row, text: &str, max: usize, style: Style) {
    if iris_studio_core::text::width(text) <= max {
        row.put(text, style);
        return;
    }
    let mut used = 0;
    let mut end = 0;
    for (at, ch) in text.char_indices() {
        let w = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        if used + w + 1 > max {
            break;
        }
        used += w;
        end = at + ch.len_utf8();
    }
    row.put(&text[..end], style);
    if max > 0 {
        row.put("…", style);
    }
}

pub fn draw(frame: &mut Frame, area: Rect, state: &State, looks: &Looks) {
    // git shows an unmerged path as a bare header: the view says what to do instead.
    let conflicted =
        state.diff.path.is_some() && state.changes.selected_file().is_some_and(|f| f.conflicted);
    let focused = focused(state, Pane::Diff);
    let jj = state.repo.jj_change.is_some();
    draw_view(frame, area, &state.diff, (focused, conflicted, jj), looks);
}

/// A diff in `area`: the diff pane's, or a commit explore shows in place of the code; `jj`:
/// its files are the change in `@`, not staged or unstaged.
pub fn draw_view(
    frame: &mut Frame,
    area: Rect,
    view: &DiffView,
    (focused, conflicted, jj): (bool, bool, bool),
    looks: &Looks,
) {
    let (theme, highlights) = (looks.theme, looks.highlights);
    let mut title = match (&view.path, view.loading) {
        (Some(path), true) => format!(" {path} (loading…) "),
        (Some(path), false) => format!(" {path} "),
        (None, _) => " Diff ".to_string(),
    };
    if view.hscroll > 0 {
        title.push_str(&format!("→{} ", view.hscroll));
    }
    if view.paired {
        title.push_str("old │ new ");
    }
    let block = pane_block(
        clip(&title, usize::from(area.width.saturating_sub(4))),
        focused,
        theme,
    );
    let height = usize::from(area.height.saturating_sub(2));
    let shown = view.rows().skip(view.scroll).take(height).next().is_some();
    let hint = match () {
        _ if view.loading => None,
        _ if conflicted => Some((
            "a merge conflict: resolve it in the file, then stage it (s)",
            Token::Warning,
        )),
        _ if !shown && view.path.is_some() => {
            Some(("no changes to show (untracked or binary)", Token::TextDim))
        }
        _ if !shown => Some(("select a file", Token::TextDim)),
        _ => None,
    };
    // A hint wraps; diff lines are clipped or scrolled sideways instead.
    if let Some((text, token)) = hint {
        let paragraph = Paragraph::new(Span::styled(text, theme.style(token)))
            .wrap(Wrap { trim: true })
            .block(block);
        frame.render_widget(paragraph, area);
        return;
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    draw_rows(frame.buffer_mut(), inner, view, jj, theme, highlights);
}

/// The rows in view, written straight into the buffer: a line shown again (a spinner tick,
/// a streamed token) costs neither a copy nor a highlight.
fn draw_rows(
    buf: &mut Buffer,
    inner: Rect,
    view: &DiffView,
    jj: bool,
    theme: &Theme,
    highlights: &Highlights,
) {
    let inner = inner.intersection(buf.area);
    if inner.is_empty() {
        return;
    }
    let width = usize::from(inner.width);
    let mut highlighter = Highlighter::new(theme, highlights);
    let mut number = String::new();
    let rows = view
        .rows()
        .skip(view.scroll)
        .take(usize::from(inner.height));
    for (y, diff_row) in (inner.y..).zip(rows) {
        let mut row = Row::new(buf, inner.x, y, inner.width);
        match diff_row {
            DiffRow::File(file, staged) => {
                let side = match staged {
                    // jj has no staging area: the file's change is in `@`.
                    Some(_) if jj => " · in @",
                    Some(true) => " · staged",
                    Some(false) => " · unstaged",
                    None => "",
                };
                let what = if file.binary {
                    format!("{} (binary){side}", file.path)
                } else {
                    format!(
                        "{} +{} -{}{side}",
                        file.path, file.additions, file.deletions
                    )
                };
                put_clipped(&mut row, &what, width, theme.style(Token::Title));
            }
            DiffRow::Hunk(hunk) => {
                put_clipped(
                    &mut row,
                    hunk.header.trim_end(),
                    width,
                    theme.style(Token::DiffHunk),
                );
            }
            DiffRow::Pair(pair, path) => {
                // Old on the left, new on the right, a rule between.
                let left = width.saturating_sub(1) / 2;
                let right = width.saturating_sub(left + 1);
                let looks = (&mut highlighter, theme);
                half(
                    &mut row,
                    pair.old,
                    path,
                    (view.hscroll, left),
                    looks,
                    &mut number,
                );
                row.put("│", theme.style(Token::Border));
                let looks = (&mut highlighter, theme);
                half(
                    &mut row,
                    pair.new,
                    path,
                    (view.hscroll, right),
                    looks,
                    &mut number,
                );
            }
            DiffRow::Line(line, path) => {
                let (sign, token) = look(line.kind);
                row.put(sign, theme.style(token));
                let shown = (view.hscroll, width.saturating_sub(1));
                put_text(
                    &mut row,
                    &mut highlighter,
                    path,
                    &line.content,
                    theme.style(token),
                    shown,
                );
            }
        }
    }
}
