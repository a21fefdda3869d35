//! Explore mode: the repository's file tree, and a code view (or a commit of an answer) over
//! the file's history.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{ListItem, Paragraph};

use crate::features::diff::draw as diff;
use crate::highlight::Highlighter;
use crate::layout::code_and_history;
use crate::state::{Heat, Pane, State};
use crate::theme::{Theme, Token};
use crate::ui::{Looks, draw_list, focused, pane_block};
use iris_studio_core::text::clip;

pub fn draw_tree(frame: &mut Frame, area: Rect, state: &State, theme: &Theme) {
    let explorer = &state.explore;
    let rows = explorer.rows();
    let title = if explorer.loaded {
        format!(" Files ({}) ", explorer.files.len())
    } else {
        " Files (loading…) ".to_string()
    };
    let width = usize::from(area.width.saturating_sub(2));
    let items: Vec<ListItem> = rows
        .iter()
        .map(|row| {
            let name = row.path.rsplit('/').next().unwrap_or(&row.path);
            let (marker, token) = match (row.is_dir, explorer.expanded.contains(&row.path)) {
                (true, true) => ("▾ ", Token::Accent),
                (true, false) => ("▸ ", Token::Accent),
                (false, _) => ("  ", Token::Text),
            };
            let text = format!("{}{marker}{name}", "  ".repeat(row.depth));
            ListItem::new(Span::styled(clip(&text, width), theme.style(token)))
        })
        .collect();
    let block = pane_block(title, focused(state, Pane::Tree), theme);
    draw_list(
        frame,
        area,
        block,
        items,
        (explorer.selected, state.screen.list_tops.tree),
        theme,
    );
}

/// The heat margin's cell for a line: bright for recent changes, dim for old ones, the
/// unstaged colour for lines not committed yet, blank until the blame has been read.
fn heat_mark(heat: Option<Heat>, theme: &Theme) -> Span<'static> {
    let token = match heat {
        None => return Span::raw(" "),
        Some(Heat::Uncommitted) => Token::Unstaged,
        Some(Heat::Hot) => Token::Warning,
        Some(Heat::Warm) => Token::Accent,
        Some(Heat::Cool) => Token::DiffLineNumber,
        Some(Heat::Cold) => Token::Border,
    };
    Span::styled("▎", theme.style(token))
}

pub fn draw_code(frame: &mut Frame, area: Rect, state: &State, looks: &Looks) {
    let theme = looks.theme;
    let explorer = &state.explore;
    let (code, history) = code_and_history(area);
    if let Some(view) = explorer.commit.as_ref().map(|c| &c.view) {
        // A commit of the answer, in place of the code until esc.
        diff::draw_view(
            frame,
            code,
            view,
            (focused(state, Pane::Code), false, false),
            looks,
        );
    } else {
        draw_lines(frame, code, state, looks);
    }
    let width = usize::from(history.width.saturating_sub(2));
    let history_lines: Vec<Line> = explorer
        .history
        .iter()
        .map(|c| {
            Line::from(vec![
                Span::styled(format!("{} ", c.short_id), theme.style(Token::Accent)),
                Span::styled(format!("{} ", c.date), theme.style(Token::TextDim)),
                Span::styled(
                    clip(&c.summary, width.saturating_sub(20)),
                    theme.style(Token::Text),
                ),
            ])
        })
        .collect();
    frame.render_widget(
        Paragraph::new(history_lines).block(pane_block(" History ".to_string(), false, theme)),
        history,
    );
}

/// The open file's lines: heat margin, numbers (the cursor's marked, the lines Iris was
/// asked about in the accent colour), the selection highlighted.
fn draw_lines(frame: &mut Frame, area: Rect, state: &State, looks: &Looks) {
    let theme = looks.theme;
    let explorer = &state.explore;
    let mut title = explorer
        .open
        .as_deref()
        .map_or(" Code ".to_string(), |p| format!(" {p} "));
    let selection = explorer.selection().filter(|_| explorer.anchor.is_some());
    if let Some((first, last)) = selection {
        title.push_str(&format!("· lines {}-{} (w asks why) ", first + 1, last + 1));
    }
    if explorer.hscroll > 0 {
        title.push_str(&format!("→{} ", explorer.hscroll));
    }
    let is_focused = focused(state, Pane::Code);
    let block = pane_block(
        clip(&title, usize::from(area.width.saturating_sub(4))),
        is_focused,
        theme,
    );
    // The lines of the answer beside the code, while it is about this text.
    let asked = explorer
        .why
        .as_ref()
        .map(|w| &w.key)
        .filter(|k| explorer.shows(&k.path, k.digest))
        .map(|k| (k.start - 1, k.end - 1));
    let within = |range: Option<(usize, usize)>, i: usize| {
        range.is_some_and(|(first, last)| (first..=last).contains(&i))
    };
    // The chosen responsibility block's lines: a bar after the line number.
    let chosen = explorer.block_ranges();
    let in_block = |i: usize| chosen.iter().any(|&range| within(Some(range), i));
    let height = usize::from(area.height.saturating_sub(2));
    let width = usize::from(area.width.saturating_sub(2));
    let body: Vec<Line> = match (&explorer.open, &explorer.lines) {
        (None, _) => vec![Line::from(Span::styled(
            "enter opens the selected file",
            theme.style(Token::TextDim),
        ))],
        (Some(_), None) => vec![Line::from(Span::styled(
            "binary or too large to show",
            theme.style(Token::TextDim),
        ))],
        (Some(path), Some(lines)) => {
            let mut highlighter = Highlighter::new(theme, looks.highlights);
            let number_width = lines.len().to_string().len();
            lines
                .iter()
                .enumerate()
                .skip(explorer.scroll)
                .take(height)
                .map(|(i, line)| {
                    let heat = explorer.heat.as_ref().and_then(|heat| heat.get(i));
                    let number = if i == explorer.cursor && is_focused {
                        Token::Selection
                    } else if within(asked, i) {
                        Token::Accent
                    } else {
                        Token::DiffLineNumber
                    };
                    let bar = if in_block(i) {
                        Span::styled("▌", theme.style(Token::Accent))
                    } else {
                        Span::raw(" ")
                    };
                    let mut spans = vec![
                        heat_mark(heat.copied(), theme),
                        Span::styled(format!("{:>number_width$}", i + 1), theme.style(number)),
                        bar,
                    ];
                    let shown = (explorer.hscroll, width.saturating_sub(number_width + 2));
                    spans.extend(highlighter.window(path, line, theme.style(Token::Text), shown));
                    let line = Line::from(spans);
                    if within(selection, i) {
                        line.style(theme.style(Token::Selection))
                    } else {
                        line
                    }
                })
                .collect()
        }
    };
    frame.render_widget(Paragraph::new(body).block(block), area);
}
