//! Colour maths: colour names, what the terminal can show (`NO_COLOR`, 16 or 256 colours),
//! the nearest colour it can, and WCAG contrast.

use ratatui::style::{Color, Modifier, Style};

use super::Token;

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

pub(super) fn adapt_style(style: Style, token: Token, support: ColorSupport) -> Style {
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

pub(super) fn adapt_color(color: Color, support: ColorSupport) -> Color {
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
    use crate::theme::Theme;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
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
}
