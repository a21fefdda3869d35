//! Syntax highlighting of diff and code lines with syntect, loaded once, only for visible
//! lines, and remembered.

use std::cell::RefCell;
use std::sync::OnceLock;

use ratatui::style::{Color, Style};
use ratatui::text::Span;
use syntect::easy::HighlightLines;
use syntect::highlighting::ThemeSet;
use syntect::parsing::SyntaxSet;

use crate::memo::Memo;
use crate::text::skip_columns;
use crate::theme::{ColorSupport, Theme};
use iris_core::text::{clip, expand_tabs};

/// Loads the syntax definitions and colour schemes (tens of milliseconds) ahead of use.
pub fn preload() {
    syntaxes();
    themes();
}

/// Compiles, off the UI thread, the patterns that highlighting these lines of `path` needs:
/// syntect compiles each pattern on first use, which can hold a frame up for tens of
/// milliseconds. Each line on its own, as [`Highlighter::spans`] does it.
pub fn warm<'a>(path: &str, lines: impl Iterator<Item = &'a str>) {
    let Some(theme) = themes().themes.values().next() else {
        return;
    };
    let syntax = syntax_for(extension(path));
    for line in lines {
        let _ = HighlightLines::new(syntax, theme).highlight_line(line, syntaxes());
    }
}

fn extension(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or_default()
}

fn syntax_for(extension: &str) -> &'static syntect::parsing::SyntaxReference {
    syntaxes()
        .find_syntax_by_extension(extension)
        .unwrap_or_else(|| syntaxes().find_syntax_plain_text())
}

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn themes() -> &'static ThemeSet {
    static SET: OnceLock<ThemeSet> = OnceLock::new();
    SET.get_or_init(ThemeSet::load_defaults)
}

/// Highlighted lines already seen: (look, file extension, line) -> coloured pieces.
/// Each line is highlighted on its own, so a line looks the same wherever it is scrolled to
/// and a frame that shows the same lines again (a spinner tick, a streamed token) costs no
/// highlighting at all.
type Pieces = Vec<(Option<Color>, String)>;

thread_local! {
    static CACHE: RefCell<Memo<(String, String, String), Pieces>> = RefCell::new(Memo::new(CACHE_LINES));
}

/// Lines kept before the cache starts afresh.
const CACHE_LINES: usize = 20_000;

/// Highlights the lines of one frame.
pub struct Highlighter<'t> {
    studio_theme: &'t Theme,
    theme: Option<&'t syntect::highlighting::Theme>,
}

impl<'t> Highlighter<'t> {
    /// A highlighter in `studio_theme`'s syntax colours; it leaves lines plain when the theme
    /// has no colour (NO_COLOR) or names a syntect theme that does not exist.
    pub fn new(studio_theme: &'t Theme) -> Self {
        // No syntax colours when the theme has none (NO_COLOR) or names an unknown syntect theme.
        let theme = match studio_theme.color_support() {
            ColorSupport::NoColor => None,
            _ => themes().themes.get(studio_theme.syntax()),
        };
        Self {
            studio_theme,
            theme,
        }
    }

    /// The `width` cells of `line` that follow its first `skip` (scrolled sideways), tabs
    /// expanded; highlighted from the line's start, so the colours stay right when scrolled.
    pub fn window(
        &mut self,
        path: &str,
        line: &str,
        base: Style,
        (skip, width): (usize, usize),
    ) -> Vec<Span<'static>> {
        let text = clip(&expand_tabs(line), skip + width);
        skip_columns(self.spans(path, &text, base), skip)
    }

    /// The line as spans: syntect's colours on the diff line's own style.
    fn spans(&mut self, path: &str, line: &str, base: Style) -> Vec<Span<'static>> {
        let Some(theme) = self.theme else {
            return vec![Span::styled(line.to_string(), base)];
        };
        let extension = extension(path).to_string();
        // The colours depend on the syntect theme and on how they were fitted to the terminal.
        let look = format!(
            "{} {:?}",
            self.studio_theme.syntax(),
            self.studio_theme.color_support()
        );
        let key = (look, extension, line.to_string());
        let pieces = CACHE.with(|cache| {
            cache.borrow_mut().get_or_make(key, |(_, extension, line)| {
                self.highlight(theme, extension, line)
            })
        });
        pieces
            .into_iter()
            .map(|(color, text)| match color {
                Some(color) => Span::styled(text, base.fg(color)),
                None => Span::styled(text, base),
            })
            .collect()
    }

    fn highlight(
        &self,
        theme: &syntect::highlighting::Theme,
        extension: &str,
        line: &str,
    ) -> Pieces {
        let mut lines = HighlightLines::new(syntax_for(extension), theme);
        match lines.highlight_line(line, syntaxes()) {
            Ok(regions) => regions
                .into_iter()
                .map(|(style, text)| {
                    let fg = style.foreground;
                    let color = self.studio_theme.syntax_color(Color::Rgb(fg.r, fg.g, fg.b));
                    (Some(color), text.to_string())
                })
                .collect(),
            Err(_) => vec![(None, line.to_string())],
        }
    }
}
