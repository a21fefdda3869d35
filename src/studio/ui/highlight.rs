//! Syntax highlighting of diff lines with syntect, loaded once and only for visible lines.

use std::sync::OnceLock;

use ratatui::style::{Color, Style};
use ratatui::text::Span;
use syntect::easy::HighlightLines;
use syntect::highlighting::ThemeSet;
use syntect::parsing::SyntaxSet;

use crate::studio::theme::{ColorSupport, Theme};

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn themes() -> &'static ThemeSet {
    static SET: OnceLock<ThemeSet> = OnceLock::new();
    SET.get_or_init(ThemeSet::load_defaults)
}

/// Highlights lines of one frame; keeps the parse state while the file stays the same.
pub struct Highlighter<'t> {
    studio_theme: &'t Theme,
    theme: Option<&'t syntect::highlighting::Theme>,
    current: Option<(String, HighlightLines<'t>)>,
}

impl<'t> Highlighter<'t> {
    pub fn new(studio_theme: &'t Theme) -> Self {
        // No syntax colours when the theme has none (NO_COLOR) or names an unknown syntect theme.
        let theme = match studio_theme.color_support() {
            ColorSupport::NoColor => None,
            _ => themes().themes.get(studio_theme.syntax()),
        };
        Self {
            studio_theme,
            theme,
            current: None,
        }
    }

    /// The line as spans: syntect's colours on the diff line's own style.
    pub fn spans(&mut self, path: &str, line: &str, base: Style) -> Vec<Span<'static>> {
        let Some(theme) = self.theme else {
            return vec![Span::styled(line.to_string(), base)];
        };
        if self.current.as_ref().is_none_or(|(p, _)| p != path) {
            let extension = path.rsplit('.').next().unwrap_or_default();
            let syntax = syntaxes()
                .find_syntax_by_extension(extension)
                .unwrap_or_else(|| syntaxes().find_syntax_plain_text());
            self.current = Some((path.to_string(), HighlightLines::new(syntax, theme)));
        }
        let Some((_, lines)) = self.current.as_mut() else {
            return vec![Span::styled(line.to_string(), base)];
        };
        match lines.highlight_line(line, syntaxes()) {
            Ok(regions) => regions
                .into_iter()
                .map(|(style, text)| {
                    let fg = style.foreground;
                    let color = self.studio_theme.syntax_color(Color::Rgb(fg.r, fg.g, fg.b));
                    Span::styled(text.to_string(), base.fg(color))
                })
                .collect(),
            Err(_) => vec![Span::styled(line.to_string(), base)],
        }
    }
}
