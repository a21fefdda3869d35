//! Theme files: TOML of named colours mapped to tokens, read from the user's
//! `<config dir>/themes/` or the built-ins, with `extends` and palette names resolved, and
//! errors that name the file and the line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use ratatui::style::{Color, Modifier, Style};
use toml_edit::{Document, Item};

use iris_studio_config::file::{key_line, line_of};
use iris_studio_config::studio_files::UserTheme;

use super::color::parse_color;
use super::{BUILTINS, ColorSupport, DEFAULT_SYNTAX, Theme, ThemeError, Token};

/// Which theme file is meant by a name: the user's unless already in the chain, else a built-in.
pub(super) fn find_source(
    name: &str,
    user_themes: &[UserTheme],
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
    let user = user_themes.iter().find(|(n, _)| n == name);
    let builtin = BUILTINS.iter().find(|(n, _)| *n == name);
    let user_key = PathBuf::from(format!("user:{name}"));
    if let Some((_, file)) = user.filter(|_| !seen.contains(&user_key)) {
        seen.insert(user_key);
        let file = file.as_ref().map_err(|e| ThemeError(e.clone()))?;
        return parse_source(&file.text, file.shown.clone());
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
pub(super) struct Source {
    /// The file, as errors name it.
    pub(super) file: String,
    name: Option<String>,
    /// The theme it extends, and the line that says so.
    pub(super) extends: Option<(String, usize)>,
    syntax: Option<String>,
    palette: BTreeMap<String, Color>,
    pub(super) tokens: BTreeMap<Token, Spec>,
}

/// A token's style as written: colours are palette names or colours.
#[derive(Debug, Clone)]
pub(super) struct Spec {
    fg: Option<String>,
    bg: Option<String>,
    modifiers: Modifier,
    file: String,
    line: usize,
}

pub(super) fn parse_source(text: &str, file: String) -> Result<Source, ThemeError> {
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
pub(super) fn resolve(id: &str, chain: Vec<Source>) -> Result<Theme, ThemeError> {
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
        let file =
            |name: &str| iris_studio_config::display_path(&dir.path().join("themes").join(name));
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
}
