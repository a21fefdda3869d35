//! Colour themes: TOML files of named colours mapped to semantic tokens (`themes/*.toml`,
//! embedded), plus the user's own in `<config dir>/themes/`, adapted to what the terminal can
//! show (`NO_COLOR`, 16 or 256 colours).

mod color;
mod file;

use iris_studio_config::studio_files::UserTheme;
use std::collections::BTreeSet;
use std::path::Path;

use ratatui::style::{Color, Style};
use thiserror::Error;

pub use color::{ColorSupport, contrast_ratio, detect_color_support, parse_color};
use color::{adapt_color, adapt_style};
use file::{find_source, resolve};

/// The built-in themes, embedded in the binary.
const BUILTINS: [(&str, &str); 3] = [
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
];

/// The syntect theme used when no theme in the chain names one.
const DEFAULT_SYNTAX: &str = "base16-ocean.dark";

/// How many `extends` a theme may chain before it is taken for a loop.
const MAX_EXTENDS: usize = 8;

/// A theme that cannot be loaded; the message names the file and the line.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct ThemeError(pub String);

macro_rules! tokens {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// A semantic role a colour plays in the studio.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Token {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Token {
            /// Every token; a [`Theme`] keeps its styles in this order.
            pub const ALL: &'static [Token] = &[$(Token::$variant,)*];

            /// The token's name in a theme file.
            pub fn name(self) -> &'static str {
                match self {
                    $(Token::$variant => $name,)*
                }
            }
        }
    };
}

tokens! {
    /// Ordinary text in the panes.
    Text => "text",
    /// Secondary text: hints, placeholders, dates, a text Iris is still writing.
    TextDim => "text_dim",
    /// The screen's background, under every pane.
    Background => "background",
    /// The border of a pane without the focus.
    Border => "border",
    /// The border of the focused pane.
    BorderFocused => "border_focused",
    /// Pane titles and headings.
    Title => "title",
    /// Things to pick out: commit ids, the tree's directories, the commits Iris cites.
    Accent => "accent",
    /// The highlighted row or the selected lines.
    Selection => "selection",
    /// The status line at the bottom, its background included.
    StatusBar => "status_bar",
    /// Plain notices and key help on the status line.
    StatusBarText => "status_bar_text",
    /// Added lines of a diff.
    DiffAdded => "diff_added",
    /// Removed lines of a diff.
    DiffRemoved => "diff_removed",
    /// A hunk's `@@` header.
    DiffHunk => "diff_hunk",
    /// Unchanged lines around a diff's changes.
    DiffContext => "diff_context",
    /// Line numbers beside a diff or code.
    DiffLineNumber => "diff_line_number",
    /// A file with staged changes, and the staged mark in the files list.
    Staged => "staged",
    /// A file with only unstaged changes, and the unstaged mark in the files list.
    Unstaged => "unstaged",
    /// A file git does not track yet.
    Untracked => "untracked",
    /// A file with unresolved merge conflicts.
    Conflict => "conflict",
    /// A review finding of critical severity.
    SeverityCritical => "severity_critical",
    /// A review finding of high severity.
    SeverityHigh => "severity_high",
    /// A review finding of medium severity.
    SeverityMedium => "severity_medium",
    /// A review finding of low severity.
    SeverityLow => "severity_low",
    /// A review finding that is only for information.
    SeverityInfo => "severity_info",
    /// The spinner and the line saying what Iris or git is doing.
    Spinner => "spinner",
    /// A notice that something failed.
    Error => "error",
    /// A notice of something not done, or done with a caveat.
    Warning => "warning",
    /// A notice that something was done.
    Success => "success",
    /// The `you:` over the user's chat messages.
    ChatUser => "chat_user",
    /// The `iris:` over Iris' chat messages.
    ChatIris => "chat_iris",
    /// A commit title that fits (50 columns at most), or a message that keeps the rules.
    TitleOk => "title_ok",
    /// A commit title over 50 columns, or a rule's warning.
    TitleWarn => "title_warn",
    /// A commit title over 72 columns, or a broken rule.
    TitleOver => "title_over",
}

impl Token {
    /// The token a theme file's key names, if any (the reverse of [`Token::name`]).
    pub fn from_name(name: &str) -> Option<Token> {
        Token::ALL.iter().copied().find(|t| t.name() == name)
    }
}

/// A resolved theme: one style per token.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    name: String,
    syntax: String,
    styles: Vec<Style>,
    /// The colours the terminal shows, once adapted (syntax colours are adapted to it too).
    support: ColorSupport,
}

impl Theme {
    /// The theme's display name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The syntect theme for highlighting code in diffs.
    pub fn syntax(&self) -> &str {
        &self.syntax
    }

    /// The colours this theme was adapted to (`TrueColor` until [`Theme::adapt`]).
    pub fn color_support(&self) -> ColorSupport {
        self.support
    }

    /// A syntax highlighting colour as this terminal can show it.
    pub fn syntax_color(&self, color: Color) -> Color {
        adapt_color(color, self.support)
    }

    /// The style `token` is drawn in: colours, and bold and the like.
    pub fn style(&self, token: Token) -> Style {
        self.styles.get(token as usize).copied().unwrap_or_default()
    }

    /// The names of the themes embedded in the binary (`dark` first, the default).
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTINS.iter().map(|(name, _)| *name).collect()
    }

    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Option<Theme> {
        Theme::load_from(name, &[]).ok()
    }

    /// The built-in themes and the user's (`<user_dir>/themes/*.toml`), sorted, each once.
    pub fn names(user_dir: Option<&Path>) -> Vec<String> {
        Theme::names_from(&iris_studio_config::studio_files::themes(user_dir))
    }

    /// The built-in themes and the user's (as read by the shell), sorted, each once.
    pub fn names_from(user_themes: &[UserTheme]) -> Vec<String> {
        let mut names: BTreeSet<String> = BUILTINS.iter().map(|(n, _)| n.to_string()).collect();
        names.extend(user_themes.iter().map(|(name, _)| name.clone()));
        names.into_iter().collect()
    }

    /// Loads a theme: the user's `<user_dir>/themes/<name>.toml` if there is one, else the
    /// built-in of that name (the files read through iris-config; [`Theme::load_from`] is
    /// handed them).
    pub fn load(name: &str, user_dir: Option<&Path>) -> Result<Theme, ThemeError> {
        Theme::load_from(name, &iris_studio_config::studio_files::themes(user_dir))
    }

    /// A theme by name from the user's themes (read by the shell, see
    /// `iris_studio_config::studio_files::themes`) or the built-ins: the user's of that name if there
    /// is one, else the built-in. A theme may `extends = "other"` and set only some tokens.
    pub fn load_from(name: &str, user_themes: &[UserTheme]) -> Result<Theme, ThemeError> {
        let mut chain = Vec::new();
        let mut seen = BTreeSet::new();
        let mut wanted = name.to_owned();
        let mut named_by: Option<(String, usize)> = None;
        loop {
            if chain.len() >= MAX_EXTENDS {
                return Err(ThemeError(format!(
                    "theme `{name}`: more than {MAX_EXTENDS} themes extend one another (a loop?)"
                )));
            }
            let source = find_source(&wanted, user_themes, &mut seen, named_by.as_ref())?;
            let next = source.extends.clone();
            let file = source.file.clone();
            chain.push(source);
            match next {
                Some((parent, line)) => {
                    named_by = Some((file, line));
                    wanted = parent;
                }
                None => break,
            }
        }
        resolve(name, chain)
    }

    /// The theme as this terminal can show it.
    pub fn adapt(mut self, support: ColorSupport) -> Theme {
        for (style, token) in self.styles.iter_mut().zip(Token::ALL) {
            *style = adapt_style(*style, *token, support);
        }
        self.support = support;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use file::parse_source;
    use ratatui::style::Modifier;

    #[test]
    fn every_builtin_parses_and_defines_every_token() {
        assert_eq!(Theme::builtin_names(), ["dark", "light", "high-contrast"]);
        for name in Theme::builtin_names() {
            let source = parse_source(
                BUILTINS.iter().find(|b| b.0 == name).unwrap().1,
                name.into(),
            )
            .unwrap();
            for token in Token::ALL {
                assert!(
                    source.tokens.contains_key(token),
                    "{name} lacks {}",
                    token.name()
                );
            }
            let theme = Theme::builtin(name).unwrap();
            assert_eq!(theme.name(), name);
            assert_eq!(theme.styles.len(), Token::ALL.len());
            assert!(theme.style(Token::Background).bg.is_some(), "{name}");
            assert!(theme.style(Token::Selection).bg.is_some(), "{name}");
            assert!(
                theme
                    .style(Token::Title)
                    .add_modifier
                    .contains(Modifier::BOLD)
            );
        }
        assert!(Theme::builtin("solarized").is_none());
    }

    #[test]
    fn builtin_syntax_themes_exist_in_syntect() {
        let set = syntect::highlighting::ThemeSet::load_defaults();
        for name in Theme::builtin_names() {
            let syntax = Theme::builtin(name).unwrap().syntax;
            assert!(set.themes.contains_key(&syntax), "{name}: {syntax}");
        }
        assert!(set.themes.contains_key(DEFAULT_SYNTAX));
    }

    #[test]
    fn token_names_round_trip() {
        for token in Token::ALL {
            assert_eq!(Token::from_name(token.name()), Some(*token));
        }
        assert_eq!(Token::from_name("diff_add"), None);
    }

    #[test]
    fn high_contrast_meets_wcag_aaa() {
        assert!((contrast_ratio(Color::Black, Color::White).unwrap() - 21.0).abs() < 1e-9);
        assert!((contrast_ratio(Color::Gray, Color::Gray).unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(contrast_ratio(Color::Reset, Color::White), None);
        let theme = Theme::builtin("high-contrast").unwrap();
        let background = theme.style(Token::Background).bg.unwrap();
        let status = theme.style(Token::StatusBar).bg.unwrap();
        for token in Token::ALL {
            let style = theme.style(*token);
            let Some(fg) = style.fg else { continue };
            let under = match token {
                Token::StatusBarText => status,
                _ => style.bg.unwrap_or(background),
            };
            let ratio = contrast_ratio(fg, under).unwrap();
            assert!(ratio >= 7.0, "{}: {ratio:.2}", token.name());
        }
    }

    #[test]
    fn every_builtin_text_is_readable() {
        for name in Theme::builtin_names() {
            let theme = Theme::builtin(name).unwrap();
            let background = theme.style(Token::Background).bg.unwrap();
            let text = theme.style(Token::Text).fg.unwrap();
            assert!(contrast_ratio(text, background).unwrap() >= 4.5, "{name}");
            let selection = theme.style(Token::Selection);
            let selected = selection.fg.unwrap_or(text);
            assert!(
                contrast_ratio(selected, selection.bg.unwrap()).unwrap() >= 4.5,
                "{name}"
            );
        }
    }
}
