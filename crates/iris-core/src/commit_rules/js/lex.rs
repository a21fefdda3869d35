//! The tokens of a JavaScript or TypeScript file: strings (all three quotes, escapes),
//! numbers, names, punctuation, regular expressions; comments and whitespace dropped.

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Str(String),
    /// A template literal; `None` when it interpolates (`${...}`).
    Template(Option<String>),
    Num(f64),
    Ident(String),
    Punct(char),
    /// `...`
    Spread,
    /// `=>`
    Arrow,
    /// A regular expression literal, as written: `/source/flags`.
    Regex(String),
}

#[derive(Debug, Clone)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
}

/// The tokens of `text`; `Err` for a string, comment or regular expression left open.
pub fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks: Vec<Token> = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let start_line = line;
            i += 2;
            loop {
                match chars.get(i) {
                    None => {
                        return Err(format!(
                            "a comment opened on line {start_line} never closes"
                        ));
                    }
                    Some('*') if chars.get(i + 1) == Some(&'/') => {
                        i += 2;
                        break;
                    }
                    Some('\n') => line += 1,
                    _ => {}
                }
                i += 1;
            }
        } else if c == '#' && next == Some('!') && toks.is_empty() {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '\'' || c == '"' {
            let (s, end, lines) = quoted(&chars, i, c, line)?;
            toks.push(Token {
                tok: Tok::Str(s),
                line,
            });
            line += lines;
            i = end;
        } else if c == '`' {
            let start_line = line;
            let (tok, end, lines) = template(&chars, i, line)?;
            toks.push(Token {
                tok,
                line: start_line,
            });
            line += lines;
            i = end;
        } else if c.is_ascii_digit() || (c == '.' && next.is_some_and(|n| n.is_ascii_digit())) {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '.' || chars[i] == '_')
            {
                // An exponent's sign belongs to the number.
                if (chars[i] == 'e' || chars[i] == 'E')
                    && matches!(chars.get(i + 1), Some('+') | Some('-'))
                    && !text_starts_hex(&chars[start..i])
                {
                    i += 1;
                }
                i += 1;
            }
            let raw: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
            let value =
                number(&raw).ok_or_else(|| format!("line {line}: '{raw}' is not a number"))?;
            toks.push(Token {
                tok: Tok::Num(value),
                line,
            });
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            toks.push(Token {
                tok: Tok::Ident(chars[start..i].iter().collect()),
                line,
            });
        } else if c == '.' && next == Some('.') && chars.get(i + 2) == Some(&'.') {
            toks.push(Token {
                tok: Tok::Spread,
                line,
            });
            i += 3;
        } else if c == '=' && next == Some('>') {
            toks.push(Token {
                tok: Tok::Arrow,
                line,
            });
            i += 2;
        } else if c == '/' && regex_allowed(toks.last()) {
            let end = regex_end(&chars, i, line)?;
            toks.push(Token {
                tok: Tok::Regex(chars[i..end].iter().collect()),
                line,
            });
            i = end;
        } else {
            toks.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    Ok(toks)
}

fn text_starts_hex(chars: &[char]) -> bool {
    chars.len() >= 2 && chars[0] == '0' && matches!(chars[1], 'x' | 'X')
}

fn number(raw: &str) -> Option<f64> {
    let lower = raw.to_ascii_lowercase();
    let radix = |prefix: &str, radix: u32| {
        lower
            .strip_prefix(prefix)
            .and_then(|digits| i64::from_str_radix(digits, radix).ok())
            .map(|n| n as f64)
    };
    radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .or_else(|| radix("0b", 2))
        .or_else(|| lower.trim_end_matches('n').parse::<f64>().ok())
}

/// A `'...'` or `"..."` string from `start`: its value, the index after it and the lines
/// it continues onto (an escaped line break).
fn quoted(
    chars: &[char],
    start: usize,
    quote: char,
    line: usize,
) -> Result<(String, usize, usize), String> {
    let mut out = String::new();
    let mut lines = 0;
    let mut i = start + 1;
    loop {
        match chars.get(i) {
            None | Some('\n') => {
                return Err(format!("line {}: a string never closes", line + lines));
            }
            Some(&c) if c == quote => return Ok((out, i + 1, lines)),
            Some('\\') => {
                lines += usize::from(chars.get(i + 1) == Some(&'\n'));
                let (c, used) = escape(chars, i + 1);
                out.extend(c);
                i += 1 + used;
            }
            Some(&c) => {
                out.push(c);
                i += 1;
            }
        }
    }
}

/// The character an escape stands for (none for a line continuation) and how many
/// characters after the backslash it used.
fn escape(chars: &[char], at: usize) -> (Option<char>, usize) {
    match chars.get(at) {
        Some('n') => (Some('\n'), 1),
        Some('t') => (Some('\t'), 1),
        Some('r') => (Some('\r'), 1),
        Some('0') => (Some('\0'), 1),
        Some('\n') => (None, 1),
        Some('u') if chars.get(at + 1) == Some(&'{') => {
            let end = (at + 2..chars.len().min(at + 10)).find(|&j| chars[j] == '}');
            match end {
                Some(end) => {
                    let hex: String = chars[at + 2..end].iter().collect();
                    let c = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                    (c, end - at + 1)
                }
                None => (Some('u'), 1),
            }
        }
        Some('u') => {
            let hex: String = chars.iter().skip(at + 1).take(4).collect();
            match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                Some(c) if hex.len() == 4 => (Some(c), 5),
                _ => (Some('u'), 1),
            }
        }
        Some('x') => {
            let hex: String = chars.iter().skip(at + 1).take(2).collect();
            match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                Some(c) if hex.len() == 2 => (Some(c), 3),
                _ => (Some('x'), 1),
            }
        }
        Some(&c) => (Some(c), 1),
        None => (None, 0),
    }
}

/// A template literal from `start`: its token, the index after it and the newlines in it.
fn template(chars: &[char], start: usize, line: usize) -> Result<(Tok, usize, usize), String> {
    let mut out = String::new();
    let mut interpolates = false;
    let mut lines = 0;
    let mut i = start + 1;
    loop {
        match chars.get(i) {
            None => return Err(format!("line {line}: a template string never closes")),
            Some('`') => break,
            Some('\\') => {
                lines += usize::from(chars.get(i + 1) == Some(&'\n'));
                let (c, used) = escape(chars, i + 1);
                out.extend(c);
                i += 1 + used;
            }
            Some('$') if chars.get(i + 1) == Some(&'{') => {
                interpolates = true;
                let mut depth = 0usize;
                while let Some(&c) = chars.get(i) {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '\n' => lines += 1,
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
            }
            Some(&c) => {
                if c == '\n' {
                    lines += 1;
                }
                out.push(c);
                i += 1;
            }
        }
    }
    let tok = Tok::Template((!interpolates).then_some(out));
    Ok((tok, i + 1, lines))
}

/// Whether a `/` here starts a regular expression rather than a division.
fn regex_allowed(prev: Option<&Token>) -> bool {
    match prev.map(|t| &t.tok) {
        None => true,
        Some(Tok::Punct(c)) => "(,=:[!&|?{};+-*%<>~^".contains(*c),
        Some(Tok::Arrow) | Some(Tok::Spread) => true,
        Some(Tok::Ident(word)) => {
            matches!(word.as_str(), "return" | "typeof" | "case" | "in" | "of")
        }
        _ => false,
    }
}

fn regex_end(chars: &[char], start: usize, line: usize) -> Result<usize, String> {
    let mut i = start + 1;
    let mut in_class = false;
    loop {
        match chars.get(i) {
            None | Some('\n') => {
                return Err(format!("line {line}: a regular expression never closes"));
            }
            Some('\\') => i += 2,
            Some('[') => {
                in_class = true;
                i += 1;
            }
            Some(']') => {
                in_class = false;
                i += 1;
            }
            Some('/') if !in_class => {
                i += 1;
                while chars.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
                    i += 1;
                }
                return Ok(i);
            }
            Some(_) => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_escaped_line_break_in_a_string_counts_as_a_line() {
        let toks = tokenize("'a\\\nb' `c\\\nd`\nx").expect("tokens");
        let lines: Vec<usize> = toks.iter().map(|t| t.line).collect();
        // 'a…b' opens on line 1 and ends on 2, where the template starts; x is on line 4.
        assert_eq!(lines, [1, 2, 4]);
        assert_eq!(toks[0].tok, Tok::Str("ab".into()));
    }
}
