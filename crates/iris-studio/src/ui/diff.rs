//! The selected file's diff: syntax-highlighted lines, hunk headers, scrolling.
//! Only the visible lines are laid out, so a 10,000-line diff draws as fast as a short one.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{focused, pane_block};
use crate::highlight::Highlighter;
use crate::side_by_side::Side;
use crate::state::{DiffRow, DiffView, Pane, State};
use crate::theme::{Theme, Token};
use iris_core::change::LineKind;
use iris_core::text::clip;

/// How a line of `kind` looks: its sign and its colour.
pub(super) fn look(kind: LineKind) -> (&'static str, Token) {
    match kind {
        LineKind::Added => ("+", Token::DiffAdded),
        LineKind::Removed => ("-", Token::DiffRemoved),
        LineKind::Context => (" ", Token::DiffContext),
    }
}

/// One side of a side-by-side row, exactly `width` columns: the line's number, its sign
/// and its highlighted text (blank where the side has no line).
fn half<'a>(
    side: Option<Side<'a>>,
    path: &str,
    (hscroll, width): (usize, usize),
    highlighter: &mut Highlighter,
    theme: &Theme,
) -> Vec<Span<'a>> {
    let Some(side) = side else {
        return vec![Span::raw(" ".repeat(width))];
    };
    let (sign, token) = look(side.kind);
    let number = format!("{:>4} ", side.number);
    let room = width.saturating_sub(number.len() + 1);
    let mut spans = vec![
        Span::styled(number, theme.style(Token::DiffLineNumber)),
        Span::styled(sign, theme.style(token)),
    ];
    let text = highlighter.window(path, side.text, theme.style(token), (hscroll, room));
    let used: usize = text
        .iter()
        .map(|s| iris_core::text::width(&s.content))
        .sum();
    spans.extend(text);
    spans.push(Span::raw(" ".repeat(room.saturating_sub(used))));
    spans
}

pub fn draw(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    // git shows an unmerged path as a bare header: the view says what to do instead.
    let conflicted =
        state.diff.path.is_some() && state.changes.selected_file().is_some_and(|f| f.conflicted);
    let focused = focused(state, Pane::Diff);
    let jj = state.repo.jj_change.is_some();
    draw_view(frame, area, &state.diff, (focused, conflicted, jj), theme);
}

/// A diff in `area`: the diff pane's, or a commit explore shows in place of the code; `jj`:
/// its files are the change in `@`, not staged or unstaged.
pub fn draw_view(
    frame: &mut Frame,
    area: Rect,
    view: &DiffView,
    (focused, conflicted, jj): (bool, bool, bool),
    theme: &Theme,
) {
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
    let width = usize::from(area.width.saturating_sub(2));
    let mut highlighter = Highlighter::new(theme);
    let lines: Vec<Line> = view
        .rows()
        .skip(view.scroll)
        .take(height)
        .map(|row| match row {
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
                Line::from(Span::styled(clip(&what, width), theme.style(Token::Title)))
            }
            DiffRow::Hunk(hunk) => Line::from(Span::styled(
                clip(hunk.header.trim_end(), width),
                theme.style(Token::DiffHunk),
            )),
            DiffRow::Pair(pair, path) => {
                // Old on the left, new on the right, a rule between.
                let left = width.saturating_sub(1) / 2;
                let right = width.saturating_sub(left + 1);
                let mut spans = half(
                    pair.old,
                    path,
                    (view.hscroll, left),
                    &mut highlighter,
                    theme,
                );
                spans.push(Span::styled("│", theme.style(Token::Border)));
                spans.extend(half(
                    pair.new,
                    path,
                    (view.hscroll, right),
                    &mut highlighter,
                    theme,
                ));
                Line::from(spans)
            }
            DiffRow::Line(line, path) => {
                let (sign, token) = look(line.kind);
                let mut spans = vec![Span::styled(sign, theme.style(token))];
                let shown = (view.hscroll, width.saturating_sub(1));
                spans.extend(highlighter.window(path, &line.content, theme.style(token), shown));
                Line::from(spans)
            }
        })
        .collect();
    let hint = match () {
        _ if view.loading => None,
        _ if conflicted => Some((
            "a merge conflict: resolve it in the file, then stage it (s)",
            Token::Warning,
        )),
        _ if lines.is_empty() && view.path.is_some() => {
            Some(("no changes to show (untracked or binary)", Token::TextDim))
        }
        _ if lines.is_empty() => Some(("select a file", Token::TextDim)),
        _ => None,
    };
    // A hint wraps; diff lines are clipped or scrolled sideways instead.
    let paragraph = match hint {
        Some((text, token)) => {
            Paragraph::new(Span::styled(text, theme.style(token))).wrap(Wrap { trim: true })
        }
        None => Paragraph::new(lines),
    }
    .block(block);
    frame.render_widget(paragraph, area);
}
