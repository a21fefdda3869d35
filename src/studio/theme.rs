//! Colour themes: TOML files of named colours mapped to semantic tokens (`themes/*.toml`,
//! embedded), plus the user's own in `<config dir>/themes/`, adapted to what the terminal can
//! show (`NO_COLOR`, 16 or 256 colours).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ratatui::style::{Color, Modifier, Style};
use thiserror::Error;
use toml_edit::{Document, Item};

use crate::config::display_path;
use crate::config::file::{key_line, line_of};

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
    ($($variant:ident => $name:literal,)*) => {
        /// A semantic role a colour plays in the studio.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Token {
            $($variant,)*
        }

        impl Token {
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
    Text => "text",
    TextDim => "text_dim",
    Background => "background",
    Border => "border",
    BorderFocused => "border_focused",
    Title => "title",
    Accent => "accent",
    Selection => "selection",
    StatusBar => "status_bar",
    StatusBarText => "status_bar_text",
    DiffAdded => "diff_added",
    DiffRemoved => "diff_removed",
    DiffHunk => "diff_hunk",
    DiffContext => "diff_context",
    DiffLineNumber => "diff_line_number",
    Staged => "staged",
    Unstaged => "unstaged",
    Untracked => "untracked",
    Conflict => "conflict",
    SeverityCritical => "severity_critical",
    SeverityHigh => "severity_high",
    SeverityMedium => "severity_medium",
    SeverityLow => "severity_low",
    SeverityInfo => "severity_info",
    Spinner => "spinner",
    Error => "error",
    Warning => "warning",
    Success => "success",
    ChatUser => "chat_user",
    ChatIris => "chat_iris",
    TitleOk => "title_ok",
    TitleWarn => "title_warn",
    TitleOver => "title_over",
}

impl Token {
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

    pub fn style(&self, token: Token) -> Style {
        self.styles.get(token as usize).copied().unwrap_or_default()
    }

    pub fn builtin_names() -> Vec<&'static str> {
        BUILTINS.iter().map(|(name, _)| *name).collect()
    }

    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Option<Theme> {
        Theme::load(name, None).ok()
    }

    /// The built-in themes and the user's (`<user_dir>/themes/*.toml`), sorted, each once.
    pub fn names(user_dir: Option<&Path>) -> Vec<String> {
        let mut names: BTreeSet<String> = BUILTINS.iter().map(|(n, _)| n.to_string()).collect();
        if let Some(Ok(entries)) = user_dir.map(|dir| std::fs::read_dir(dir.join("themes"))) {
            for path in entries.flatten().map(|e| e.path()) {
                if path.extension().is_some_and(|e| e == "toml")
                    && let Some(stem) = path.file_stem().and_then(|s| s.to_str())
                {
                    names.insert(stem.to_owned());
                }
            }
        }
        names.into_iter().collect()
    }

    /// Loads a theme: the user's `<user_dir>/themes/<name>.toml` if there is one, else the
    /// built-in of that name. A theme may `extends = "other"` and set only some tokens.
    pub fn load(name: &str, user_dir: Option<&Path>) -> Result<Theme, ThemeError> {
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
            let source = find_source(&wanted, user_dir, &mut seen, named_by.as_ref())?;
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

/// Which theme file is meant by a name: the user's unless already in the chain, else a built-in.
fn find_source(
    name: &str,
    user_dir: Option<&Path>,
    seen: &mut BTreeSet<PathBuf>,
    named_by: Option<&(String, usize)>,
) -> Result<Source, ThemeError> {
    let where_named = named_by.map_or(String::new(), |(file, line)| {
        format!("{file} line {line}: ")
    });
    let safe = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !safe {
        return Err(ThemeError(format!(
            "{where_named}`{name}` is not a theme name (letters, digits, `-`, `_` and `.`)"
        )));
    }
    let user = user_dir
        .map(|dir| dir.join("themes").join(format!("{name}.toml")))
        .filter(|path| path.is_file());
    let builtin = BUILTINS.iter().find(|(n, _)| *n == name);
    if let Some(path) = user.clone().filter(|path| !seen.contains(path)) {
        seen.insert(path.clone());
        let shown = display_path(&path);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ThemeError(format!("cannot read {shown}: {e}")))?;
        return parse_source(&text, shown);
    }
    let looped = || {
        ThemeError(format!(
            "{where_named}themes extend one another in a loop through `{name}`"
        ))
    };
    let Some((_, text)) = builtin else {
        if user.is_some() {
            return Err(looped());
        }
        let builtins = Theme::builtin_names().join(", ");
        return Err(ThemeError(format!(
            "{where_named}unknown theme `{name}`; built-in themes: {builtins}; your own go in \
             the config directory as themes/{name}.toml"
        )));
    };
    if !seen.insert(PathBuf::from(format!("builtin:{name}"))) {
        return Err(looped());
    }
    parse_source(text, format!("built-in theme `{name}`"))
}

/// One theme file as written, before `extends` and palette names are resolved.
#[derive(Debug)]
struct Source {
    file: String,
    name: Option<String>,
    extends: Option<(String, usize)>,
    syntax: Option<String>,
    palette: BTreeMap<String, Color>,
    tokens: BTreeMap<Token, Spec>,
}

/// A token's style as written: colours are palette names or colours.
#[derive(Debug, Clone)]
struct Spec {
    fg: Option<String>,
    bg: Option<String>,
    modifiers: Modifier,
    file: String,
    line: usize,
}

fn parse_source(text: &str, file: String) -> Result<Source, ThemeError> {
    let doc = Document::parse(text).map_err(|e| {
        let line = line_of(text, e.span().map_or(0, |s| s.start));
        ThemeError(format!(
            "{file} line {line}: {}",
            e.message().trim().replace('\n', "; ")
        ))
    })?;
    let mut source = Source {
        file,
        name: None,
        extends: None,
        syntax: None,
        palette: BTreeMap::new(),
        tokens: BTreeMap::new(),
    };
    let root = doc.as_table();
    for (key, item) in root.iter() {
        let line = key_line(text, root, key, item);
        let fail = |why: &str| ThemeError(format!("{} line {line}: `{key}`: {why}", source.file));
        match key {
            "name" | "extends" | "syntax" => {
                let value = item.as_str().ok_or_else(|| fail("expected a string"))?;
                let value = Some(value.to_owned());
                match key {
                    "name" => source.name = value,
                    "syntax" => source.syntax = value,
                    _ => source.extends = value.map(|v| (v, line)),
                }
            }
            "palette" => {
                let table = item
                    .as_table_like()
                    .ok_or_else(|| fail("expected a table"))?;
                for (name, value) in table.iter() {
                    let line = key_line(text, table, name, value);
                    let color = value.as_str().and_then(parse_color).ok_or_else(|| {
                        ThemeError(format!(
                            "{} line {line}: palette `{name}`: expected a colour such as \
                             \"#1f2329\" or \"bright_blue\"",
                            source.file
                        ))
                    })?;
                    source.palette.insert(name.to_owned(), color);
                }
            }
            "tokens" => {
                let table = item
                    .as_table_like()
                    .ok_or_else(|| fail("expected a table"))?;
                for (name, value) in table.iter() {
                    let line = key_line(text, table, name, value);
                    let token = Token::from_name(name).ok_or_else(|| {
                        ThemeError(format!(
                            "{} line {line}: unknown token `{name}`; tokens: {}",
                            source.file,
                            Token::ALL
                                .iter()
                                .map(|t| t.name())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                    let spec = parse_spec(value, &source.file, line, name)?;
                    source.tokens.insert(token, spec);
                }
            }
            _ => {
                return Err(fail(
                    "unknown key; a theme has name, extends, syntax, [palette] and [tokens]",
                ));
            }
        }
    }
    Ok(source)
}

/// `"colour"` (the foreground) or `{ fg = "...", bg = "...", bold = true, ... }`.
fn parse_spec(item: &Item, file: &str, line: usize, token: &str) -> Result<Spec, ThemeError> {
    let fail = |why: String| ThemeError(format!("{file} line {line}: token `{token}`: {why}"));
    let mut spec = Spec {
        fg: None,
        bg: None,
        modifiers: Modifier::empty(),
        file: file.to_owned(),
        line,
    };
    if let Some(color) = item.as_str() {
        spec.fg = Some(color.to_owned());
        return Ok(spec);
    }
    let table = item.as_table_like().ok_or_else(|| {
        fail("expected a colour or a table such as { fg = \"accent\", bold = true }".into())
    })?;
    for (field, value) in table.iter() {
        let modifier = match field {
            "fg" | "bg" => {
                let color = value
                    .as_str()
                    .ok_or_else(|| fail(format!("`{field}` expects a colour name")))?;
                let slot = if field == "fg" {
                    &mut spec.fg
                } else {
                    &mut spec.bg
                };
                *slot = Some(color.to_owned());
                continue;
            }
            "bold" => Modifier::BOLD,
            "italic" => Modifier::ITALIC,
            "underlined" => Modifier::UNDERLINED,
            "dim" => Modifier::DIM,
            "reversed" => Modifier::REVERSED,
            _ => {
                return Err(fail(format!(
                    "unknown field `{field}`; fields: fg, bg, bold, italic, underlined, dim, \
                     reversed"
                )));
            }
        };
        let on = value
            .as_bool()
            .ok_or_else(|| fail(format!("`{field}` expects true or false")))?;
        spec.modifiers.set(modifier, on);
    }
    Ok(spec)
}

/// Merges a chain of sources (the requested theme first) into a theme.
fn resolve(id: &str, chain: Vec<Source>) -> Result<Theme, ThemeError> {
    let leaf_file = chain.first().map(|s| s.file.clone()).unwrap_or_default();
    let name = chain
        .first()
        .and_then(|s| s.name.clone())
        .unwrap_or_else(|| id.to_owned());
    let mut syntax = None;
    let mut palette = BTreeMap::new();
    let mut specs = BTreeMap::new();
    for source in chain.into_iter().rev() {
        syntax = source.syntax.or(syntax);
        palette.extend(source.palette);
        specs.extend(source.tokens);
    }
    let missing: Vec<&str> = Token::ALL
        .iter()
        .filter(|t| !specs.contains_key(*t))
        .map(|t| t.name())
        .collect();
    if !missing.is_empty() {
        return Err(ThemeError(format!(
            "{leaf_file}: tokens not set: {}; set them or add `extends = \"dark\"`",
            missing.join(", ")
        )));
    }
    let mut styles = Vec::with_capacity(Token::ALL.len());
    for token in Token::ALL {
        let Some(spec) = specs.get(token) else {
            continue;
        };
        let color = |reference: &Option<String>| -> Result<Option<Color>, ThemeError> {
            let Some(reference) = reference else {
                return Ok(None);
            };
            let found = palette
                .get(reference)
                .copied()
                .or_else(|| parse_color(reference));
            found.map(Some).ok_or_else(|| {
                ThemeError(format!(
                    "{} line {}: token `{}`: `{reference}` is neither a [palette] name nor a \
                     colour (\"#rrggbb\" or an ANSI name such as \"bright_blue\")",
                    spec.file,
                    spec.line,
                    token.name()
                ))
            })
        };
        let mut style = Style::new().add_modifier(spec.modifiers);
        style.fg = color(&spec.fg)?;
        style.bg = color(&spec.bg)?;
        styles.push(style);
    }
    Ok(Theme {
        name,
        syntax: syntax.unwrap_or_else(|| DEFAULT_SYNTAX.to_owned()),
        styles,
        support: ColorSupport::TrueColor,
    })
}

/// `"#rrggbb"` or an ANSI colour name (`white` is ANSI 7, `bright_white` ANSI 15).
pub fn parse_color(text: &str) -> Option<Color> {
    if let Some(hex) = text.strip_prefix('#') {
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        return Some(Color::Rgb(channel(0)?, channel(2)?, channel(4)?));
    }
    let name = text.trim().to_ascii_lowercase().replace(['-', ' '], "_");
    let color = match name.as_str() {
        "reset" | "default" => Color::Reset,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "white" | "gray" | "grey" => Color::Gray,
        "bright_black" | "dark_gray" | "dark_grey" => Color::DarkGray,
        "bright_red" | "light_red" => Color::LightRed,
        "bright_green" | "light_green" => Color::LightGreen,
        "bright_yellow" | "light_yellow" => Color::LightYellow,
        "bright_blue" | "light_blue" => Color::LightBlue,
        "bright_magenta" | "light_magenta" => Color::LightMagenta,
        "bright_cyan" | "light_cyan" => Color::LightCyan,
        "bright_white" => Color::White,
        _ => return None,
    };
    Some(color)
}

/// What colours a terminal can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorSupport {
    /// `NO_COLOR` is set: styles keep only bold, reversed and the like.
    NoColor,
    /// The 16 ANSI colours.
    Ansi16,
    /// The xterm 256-colour palette.
    Ansi256,
    /// Any `#rrggbb`.
    TrueColor,
}

impl ColorSupport {
    /// From this process's environment.
    pub fn detect() -> ColorSupport {
        detect_color_support(|name| std::env::var(name).ok())
    }
}

/// What colours the terminal described by these environment variables can show.
pub fn detect_color_support(env: impl Fn(&str) -> Option<String>) -> ColorSupport {
    if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return ColorSupport::NoColor;
    }
    let colorterm = env("COLORTERM").unwrap_or_default().to_ascii_lowercase();
    if colorterm == "truecolor" || colorterm == "24bit" || env("WT_SESSION").is_some() {
        return ColorSupport::TrueColor;
    }
    let term = env("TERM").unwrap_or_default().to_ascii_lowercase();
    if term == "dumb" {
        ColorSupport::NoColor
    } else if term.ends_with("-direct") || term.contains("truecolor") {
        ColorSupport::TrueColor
    } else if term.contains("256color") {
        ColorSupport::Ansi256
    } else {
        ColorSupport::Ansi16
    }
}

fn adapt_style(style: Style, token: Token, support: ColorSupport) -> Style {
    if support == ColorSupport::NoColor {
        // Without colour, emphasis keeps the selection and the focus visible.
        let emphasis = match token {
            Token::Selection | Token::StatusBar => Modifier::REVERSED,
            Token::BorderFocused | Token::Error | Token::SeverityCritical => Modifier::BOLD,
            Token::TitleOver => Modifier::UNDERLINED,
            _ => Modifier::empty(),
        };
        return Style {
            fg: None,
            bg: None,
            ..style.add_modifier(emphasis)
        };
    }
    Style {
        fg: style.fg.map(|c| adapt_color(c, support)),
        bg: style.bg.map(|c| adapt_color(c, support)),
        ..style
    }
}

fn adapt_color(color: Color, support: ColorSupport) -> Color {
    match (support, color) {
        (ColorSupport::Ansi256, Color::Rgb(r, g, b)) => Color::Indexed(nearest_256((r, g, b))),
        (ColorSupport::Ansi16, Color::Rgb(r, g, b)) => nearest_16((r, g, b)),
        (ColorSupport::Ansi16, Color::Indexed(n)) => nearest_16(indexed_rgb(n)),
        _ => color,
    }
}

/// The 16 ANSI colours, with xterm's default values.
const ANSI16: [(Color, (u8, u8, u8)); 16] = [
    (Color::Black, (0, 0, 0)),
    (Color::Red, (205, 0, 0)),
    (Color::Green, (0, 205, 0)),
    (Color::Yellow, (205, 205, 0)),
    (Color::Blue, (0, 0, 238)),
    (Color::Magenta, (205, 0, 205)),
    (Color::Cyan, (0, 205, 205)),
    (Color::Gray, (229, 229, 229)),
    (Color::DarkGray, (127, 127, 127)),
    (Color::LightRed, (255, 0, 0)),
    (Color::LightGreen, (0, 255, 0)),
    (Color::LightYellow, (255, 255, 0)),
    (Color::LightBlue, (92, 92, 255)),
    (Color::LightMagenta, (255, 0, 255)),
    (Color::LightCyan, (0, 255, 255)),
    (Color::White, (255, 255, 255)),
];

/// The cube levels of the xterm 256-colour palette.
const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

/// The RGB value of a 256-palette index.
fn indexed_rgb(n: u8) -> (u8, u8, u8) {
    match n {
        0..=15 => ANSI16[n as usize].1,
        16..=231 => {
            let i = (n - 16) as usize;
            (CUBE[i / 36], CUBE[(i / 6) % 6], CUBE[i % 6])
        }
        _ => {
            let v = 8 + 10 * (n - 232);
            (v, v, v)
        }
    }
}

fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs().pow(2);
    d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
}

/// The nearest colour of the 6x6x6 cube or the grey ramp.
fn nearest_256(rgb: (u8, u8, u8)) -> u8 {
    let level = |v: u8| {
        (0..6)
            .min_by_key(|&i| (i32::from(CUBE[i]) - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let cube = 16 + 36 * level(rgb.0) + 6 * level(rgb.1) + level(rgb.2);
    let mean = (u32::from(rgb.0) + u32::from(rgb.1) + u32::from(rgb.2)) / 3;
    let grey = 232 + (mean.saturating_sub(3) / 10).min(23) as usize;
    [cube, grey]
        .into_iter()
        .filter_map(|i| u8::try_from(i).ok())
        .min_by_key(|&i| distance(rgb, indexed_rgb(i)))
        .unwrap_or(0)
}

/// The ANSI colour of the same hue (a grey by lightness when there is little hue), so that a
/// soft red stays red instead of becoming the grey it is numerically closest to.
fn nearest_16((r, g, b): (u8, u8, u8)) -> Color {
    let (r, g, b) = (i32::from(r), i32::from(g), i32::from(b));
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let chroma = max - min;
    let lightness = (max + min) / 2;
    if chroma < 32 || chroma * 4 < max {
        return match lightness {
            0..60 => Color::Black,
            60..160 => Color::DarkGray,
            160..240 => Color::Gray,
            _ => Color::White,
        };
    }
    let hue = if max == r {
        (60 * (g - b) / chroma).rem_euclid(360)
    } else if max == g {
        60 * (b - r) / chroma + 120
    } else {
        60 * (r - g) / chroma + 240
    };
    let bright = max > 240 || lightness > 170;
    let (normal, light) = match hue {
        0..20 | 330.. => (Color::Red, Color::LightRed),
        20..75 => (Color::Yellow, Color::LightYellow),
        75..155 => (Color::Green, Color::LightGreen),
        155..200 => (Color::Cyan, Color::LightCyan),
        200..270 => (Color::Blue, Color::LightBlue),
        _ => (Color::Magenta, Color::LightMagenta),
    };
    if bright { light } else { normal }
}

/// The WCAG contrast ratio of two colours (1 to 21); `None` for `reset`.
pub fn contrast_ratio(a: Color, b: Color) -> Option<f64> {
    let (la, lb) = (luminance(a)?, luminance(b)?);
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    Some((hi + 0.05) / (lo + 0.05))
}

/// WCAG relative luminance.
fn luminance(color: Color) -> Option<f64> {
    let (r, g, b) = match color {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(n) => indexed_rgb(n),
        Color::Reset => return None,
        named => ANSI16.iter().find(|(c, _)| *c == named)?.1,
    };
    let linear = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    Some(0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("themes")).unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join("themes").join(name), text).unwrap();
        }
        dir
    }

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

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
    fn colours_parse_as_hex_or_ansi_names() {
        assert_eq!(parse_color("#1f2329"), Some(Color::Rgb(0x1f, 0x23, 0x29)));
        assert_eq!(parse_color("bright_blue"), Some(Color::LightBlue));
        assert_eq!(parse_color("Bright-Blue"), Some(Color::LightBlue));
        assert_eq!(parse_color("white"), Some(Color::Gray));
        assert_eq!(parse_color("bright_white"), Some(Color::White));
        assert_eq!(parse_color("reset"), Some(Color::Reset));
        assert_eq!(parse_color("#12345"), None);
        assert_eq!(parse_color("#12345g"), None);
        assert_eq!(parse_color("#ééé"), None);
        assert_eq!(parse_color("accent"), None);
    }

    #[test]
    fn user_theme_extends_a_builtin_and_sets_some_tokens() {
        let dir = user_dir(&[(
            "mine.toml",
            "extends = \"dark\"\n[palette]\nred = \"#ff0000\"\n[tokens]\naccent = { fg = \"bright_yellow\", italic = true }\n",
        )]);
        let theme = Theme::load("mine", Some(dir.path())).unwrap();
        let dark = Theme::builtin("dark").unwrap();
        assert_eq!(theme.name(), "mine");
        assert_eq!(theme.syntax(), dark.syntax());
        assert_eq!(
            theme.style(Token::Accent),
            Style::new()
                .fg(Color::LightYellow)
                .add_modifier(Modifier::ITALIC)
        );
        // A palette colour redefined recolours the parent's tokens that name it.
        assert_eq!(
            theme.style(Token::DiffRemoved).fg,
            Some(Color::Rgb(255, 0, 0))
        );
        assert_eq!(theme.style(Token::Text), dark.style(Token::Text));
    }

    #[test]
    fn user_theme_wins_over_the_builtin_and_may_extend_it() {
        let dir = user_dir(&[(
            "dark.toml",
            "extends = \"dark\"\n[tokens]\ntext = \"#010203\"\n",
        )]);
        let theme = Theme::load("dark", Some(dir.path())).unwrap();
        assert_eq!(theme.style(Token::Text).fg, Some(Color::Rgb(1, 2, 3)));
        let builtin = Theme::builtin("dark").unwrap();
        assert_eq!(theme.style(Token::Accent), builtin.style(Token::Accent));
        assert_ne!(theme, builtin);
    }

    #[test]
    fn user_themes_extend_each_other_and_loops_are_caught() {
        let dir = user_dir(&[
            (
                "a.toml",
                "extends = \"b\"\n[tokens]\ntext = \"bright_red\"\n",
            ),
            (
                "b.toml",
                "extends = \"light\"\n[tokens]\ntext = \"green\"\naccent = \"cyan\"\n",
            ),
            ("x.toml", "extends = \"y\"\n"),
            ("y.toml", "extends = \"x\"\n"),
        ]);
        let a = Theme::load("a", Some(dir.path())).unwrap();
        assert_eq!(a.style(Token::Text).fg, Some(Color::LightRed));
        // A palette name wins over the ANSI colour of that name.
        assert_eq!(a.style(Token::Accent).fg, parse_color("#0b7285"));
        assert_eq!(a.syntax(), "InspiredGitHub");
        let err = Theme::load("x", Some(dir.path())).unwrap_err().to_string();
        assert!(
            err.contains("y.toml line 1: themes extend one another in a loop"),
            "{err}"
        );
        assert_eq!(
            Theme::names(Some(dir.path())),
            ["a", "b", "dark", "high-contrast", "light", "x", "y"]
        );
    }

    #[test]
    fn broken_user_files_name_the_file_and_the_line() {
        let dir = user_dir(&[
            ("syntax.toml", "name = \"s\"\n[tokens]\ntext = \n"),
            (
                "token.toml",
                "extends = \"dark\"\n\n[tokens]\ndiff_add = \"red\"\n",
            ),
            (
                "colour.toml",
                "extends = \"dark\"\n[tokens]\ntext = \"red\"\naccent = \"acent\"\n",
            ),
            (
                "palette.toml",
                "extends = \"dark\"\n[palette]\nx = \"#zzzzzz\"\n",
            ),
            (
                "field.toml",
                "extends = \"dark\"\n[tokens]\ntitle = { fg = \"red\", blod = true }\n",
            ),
            ("parent.toml", "name = \"p\"\nextends = \"drak\"\n"),
            ("partial.toml", "[tokens]\ntext = \"red\"\n"),
        ]);
        let err = |name: &str| Theme::load(name, Some(dir.path())).unwrap_err().to_string();
        let file = |name: &str| display_path(&dir.path().join("themes").join(name));
        let cases = [
            ("syntax", "line 3"),
            ("token", "line 4: unknown token `diff_add`"),
            ("colour", "line 4: token `accent`: `acent`"),
            ("palette", "line 3: palette `x`"),
            ("field", "line 3: token `title`: unknown field `blod`"),
            ("parent", "line 2: unknown theme `drak`"),
        ];
        for (name, expected) in cases {
            let message = err(name);
            let wanted = format!("{} {expected}", file(&format!("{name}.toml")));
            assert!(message.starts_with(&wanted), "{message} / {wanted}");
        }
        let partial = err("partial");
        assert!(partial.contains("tokens not set: text_dim"), "{partial}");
        assert!(err("../etc").contains("not a theme name"));
        assert!(err("nothing").contains("unknown theme `nothing`"));
    }

    #[test]
    fn color_support_follows_the_environment() {
        let detect = |vars: &[(&str, &str)]| detect_color_support(env(vars));
        use ColorSupport::*;
        assert_eq!(
            detect(&[("NO_COLOR", "1"), ("COLORTERM", "truecolor")]),
            NoColor
        );
        assert_eq!(
            detect(&[("NO_COLOR", ""), ("COLORTERM", "truecolor")]),
            TrueColor
        );
        assert_eq!(
            detect(&[("COLORTERM", "24bit"), ("TERM", "xterm")]),
            TrueColor
        );
        assert_eq!(detect(&[("TERM", "xterm-256color")]), Ansi256);
        assert_eq!(detect(&[("TERM", "screen-256color")]), Ansi256);
        assert_eq!(detect(&[("TERM", "xterm-direct")]), TrueColor);
        assert_eq!(detect(&[("TERM", "xterm")]), Ansi16);
        assert_eq!(detect(&[("TERM", "linux")]), Ansi16);
        assert_eq!(detect(&[("TERM", "vt100")]), Ansi16);
        assert_eq!(detect(&[("TERM", "dumb")]), NoColor);
        assert_eq!(detect(&[]), Ansi16);
    }

    #[test]
    fn no_color_strips_colours_and_keeps_the_selection_visible() {
        for name in Theme::builtin_names() {
            let theme = Theme::builtin(name).unwrap().adapt(ColorSupport::NoColor);
            for token in Token::ALL {
                let style = theme.style(*token);
                assert_eq!(
                    (style.fg, style.bg),
                    (None, None),
                    "{name} {}",
                    token.name()
                );
            }
            let selection = theme.style(Token::Selection).add_modifier;
            assert!(selection.contains(Modifier::REVERSED), "{name}");
            assert!(
                theme
                    .style(Token::Title)
                    .add_modifier
                    .contains(Modifier::BOLD)
            );
            assert!(
                theme
                    .style(Token::BorderFocused)
                    .add_modifier
                    .contains(Modifier::BOLD)
            );
        }
    }

    #[test]
    fn sixteen_colours_keep_the_hue() {
        let map = |hex: &str| adapt_color(parse_color(hex).unwrap(), ColorSupport::Ansi16);
        let cases = [
            ("#000000", Color::Black),
            ("#ffffff", Color::White),
            ("#e5e5e5", Color::Gray),
            ("#7f7f7f", Color::DarkGray),
            ("#cd0000", Color::Red),
            ("#ff0000", Color::LightRed),
            ("#00cd00", Color::Green),
            ("#0000ee", Color::Blue),
            ("#cdcd00", Color::Yellow),
            ("#00ffff", Color::LightCyan),
            ("#cd00cd", Color::Magenta),
            // Soft colours keep their hue rather than turning grey.
            ("#e06c75", Color::Red),
            ("#98c379", Color::Green),
            ("#1f2329", Color::Black),
        ];
        for (hex, expected) in cases {
            assert_eq!(map(hex), expected, "{hex}");
        }
        assert_eq!(
            adapt_color(Color::Indexed(196), ColorSupport::Ansi16),
            Color::LightRed
        );
        assert_eq!(adapt_color(Color::Cyan, ColorSupport::Ansi16), Color::Cyan);
        for name in Theme::builtin_names() {
            let theme = Theme::builtin(name).unwrap().adapt(ColorSupport::Ansi16);
            let fg = |t: Token| theme.style(t).fg.unwrap();
            assert!(
                matches!(fg(Token::DiffAdded), Color::Green | Color::LightGreen),
                "{name}"
            );
            assert!(
                matches!(fg(Token::DiffRemoved), Color::Red | Color::LightRed),
                "{name}"
            );
            let background = theme.style(Token::Background).bg.unwrap();
            assert_ne!(fg(Token::Text), background, "{name}");
            for token in Token::ALL {
                let style = theme.style(*token);
                for color in [style.fg, style.bg].into_iter().flatten() {
                    assert!(
                        !matches!(color, Color::Rgb(..) | Color::Indexed(_)),
                        "{name}"
                    );
                }
            }
        }
    }

    #[test]
    fn two_hundred_fifty_six_colours_use_the_cube_and_the_grey_ramp() {
        let map = |hex: &str| adapt_color(parse_color(hex).unwrap(), ColorSupport::Ansi256);
        assert_eq!(map("#ff0000"), Color::Indexed(196));
        assert_eq!(map("#000000"), Color::Indexed(16));
        assert_eq!(map("#5f87af"), Color::Indexed(67));
        assert_eq!(map("#808080"), Color::Indexed(244));
        assert_eq!(map("#1c1c1c"), Color::Indexed(234));
        assert_eq!(adapt_color(Color::Red, ColorSupport::Ansi256), Color::Red);
        let dark = Theme::builtin("dark").unwrap();
        assert_eq!(dark.clone().adapt(ColorSupport::TrueColor), dark);
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
