//! JavaScript regular expressions, as a commitlint configuration writes its parser options
//! (`headerPattern: /^(\w*): (.*)$/` or the same as a string), made to match as they do in
//! Node: `\w`, `\d` and `\b` are ASCII, `.` stops at any line break.

use fancy_regex::Regex;

/// The longest pattern read; a configuration's patterns are a line each.
const MAX_PATTERN: usize = 4096;

/// A JavaScript pattern: its source (between the slashes) and its flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsPattern {
    /// The pattern between the slashes, as written.
    pub source: String,
    /// The flags after the closing slash (`i`, `m`, ...), as written.
    pub flags: String,
}

impl JsPattern {
    /// A pattern with no flags.
    pub fn new(source: &str) -> Self {
        Self {
            source: source.to_string(),
            flags: String::new(),
        }
    }

    /// A regex literal as written in a script: `/source/flags`.
    pub fn from_literal(literal: &str) -> Option<Self> {
        let body = literal.strip_prefix('/')?;
        let end = body.rfind('/')?;
        Some(Self {
            source: body[..end].to_string(),
            flags: body[end + 1..].to_string(),
        })
    }

    /// The pattern compiled to match as Node matches it; `Err` says why it cannot be.
    pub fn compile(&self) -> Result<Regex, String> {
        compile(&self.source, &self.flags)
    }
}

/// `source` with JavaScript `flags` (`i`, `m`, `s`; `g`, `u` and `y` change nothing here).
pub fn compile(source: &str, flags: &str) -> Result<Regex, String> {
    if source.len() > MAX_PATTERN {
        return Err(format!("the pattern is longer than {MAX_PATTERN} bytes"));
    }
    let mut prefix = String::new();
    for flag in flags.chars() {
        match flag {
            'i' | 'm' | 's' => prefix.push(flag),
            'g' | 'u' | 'y' | 'd' | 'v' => {}
            other => return Err(format!("'{other}' is not a regular expression flag")),
        }
    }
    let dot_all = flags.contains('s');
    let translated = translate(source, dot_all)?;
    let full = if prefix.is_empty() {
        translated
    } else {
        format!("(?{prefix}){translated}")
    };
    Regex::new(&full).map_err(|e| format!("the pattern /{source}/ cannot be read: {e}"))
}

const WORD: &str = "0-9A-Za-z_";
/// JavaScript's `\b`, between an ASCII word character and anything else.
pub const WORD_BOUNDARY: &str =
    "(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))";
const NOT_WORD_BOUNDARY: &str =
    "(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))";
const DIGIT: &str = "0-9";
/// What JavaScript's `.` does not match without the `s` flag.
const LINE_BREAKS: &str = r"\n\r\x{2028}\x{2029}";

/// The pattern in Rust's syntax.
fn translate(source: &str, dot_all: bool) -> Result<String, String> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len() + 16);
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let Some(&next) = chars.get(i + 1) else {
                    return Err("the pattern ends with a lone backslash".into());
                };
                i += 2;
                let expanded = match next {
                    'w' => Some(class(WORD, false, in_class)),
                    'W' => Some(class(WORD, true, in_class)),
                    'd' => Some(class(DIGIT, false, in_class)),
                    'D' => Some(class(DIGIT, true, in_class)),
                    _ => None,
                };
                if let Some(expanded) = expanded {
                    out.push_str(&expanded);
                    // `[\w-.]`: a dash after a class escape is a dash, not a range.
                    if in_class && chars.get(i) == Some(&'-') && chars.get(i + 1) != Some(&']') {
                        out.push_str(r"\-");
                        i += 1;
                    }
                    continue;
                }
                match next {
                    'b' if !in_class => out.push_str(WORD_BOUNDARY),
                    'B' if !in_class => out.push_str(NOT_WORD_BOUNDARY),
                    'u' if chars.get(i) == Some(&'{') => {
                        let end = chars[i..]
                            .iter()
                            .position(|&c| c == '}')
                            .ok_or("an unclosed \\u{...} escape")?;
                        let hex: String = chars[i + 1..i + end].iter().collect();
                        out.push_str(&format!(r"\x{{{hex}}}"));
                        i += end + 1;
                    }
                    'u' => {
                        let hex: String = chars.iter().skip(i).take(4).collect();
                        if hex.len() != 4 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                            return Err(r"a \u escape without four hex digits".into());
                        }
                        out.push_str(&format!(r"\x{{{hex}}}"));
                        i += 4;
                    }
                    // Node accepts `\/` and other needless escapes of punctuation; `\<` and
                    // `\>` are word boundaries to fancy-regex but the characters to Node.
                    '/' | '<' | '>' => out.push(next),
                    c if c.is_ascii_punctuation() => {
                        out.push('\\');
                        out.push(c);
                    }
                    'n' | 'r' | 't' | 'f' | 'v' | 's' | 'S' | 'x' | '0'..='9' | 'k' | 'p' | 'P' => {
                        out.push('\\');
                        out.push(next);
                    }
                    'b' => out.push_str(r"\x08"),
                    // Any other letter stands for itself in Node (without the `u` flag).
                    other => out.push(other),
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                // `[]` matches nothing and `[^]` anything in JavaScript.
                if chars.get(i) == Some(&']') {
                    out.pop();
                    if out.ends_with('[') {
                        out.pop();
                        out.push_str(r"[^\x{0}-\x{10FFFF}]");
                    } else {
                        out.pop();
                        out.push_str(r"[\x{0}-\x{10FFFF}]");
                    }
                    in_class = false;
                    i += 1;
                }
            }
            '[' => {
                out.push_str(r"\[");
                i += 1;
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
                i += 1;
            }
            '.' if !in_class && !dot_all => {
                out.push_str(&format!("[^{LINE_BREAKS}]"));
                i += 1;
            }
            // Characters that are special to Rust's classes but not to JavaScript's.
            '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    if in_class {
        return Err("an unclosed character class".into());
    }
    Ok(out)
}

/// A class escape as a class (or as the inside of one).
fn class(set: &str, negated: bool, in_class: bool) -> String {
    match (negated, in_class) {
        (false, true) => set.to_string(),
        (false, false) => format!("[{set}]"),
        (true, _) => format!("[^{set}]"),
    }
}

/// JavaScript's white space (what its `trim` removes): Rust's, less U+0085, plus U+FEFF.
pub(crate) fn is_js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// A pattern compiled into the program (never a user's input).
#[allow(
    clippy::expect_used,
    reason = "the patterns are compiled in: a bad one fails every test, never a user's input"
)]
pub(crate) fn built_in(text: &str) -> regex::Regex {
    regex::Regex::new(text).expect("a built-in pattern")
}

/// [`built_in`] for a pattern with lookarounds.
#[allow(
    clippy::expect_used,
    reason = "the patterns are compiled in: a bad one fails every test, never a user's input"
)]
pub(crate) fn built_in_fancy(text: &str) -> Regex {
    Regex::new(text).expect("a built-in pattern")
}

/// `text` escaped to match itself, as commitlint escapes a keyword it joins into a pattern.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if ".*+?^${}()|[]\\/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_match(source: &str, flags: &str, text: &str) -> bool {
        compile(source, flags).unwrap().is_match(text).unwrap()
    }

    #[test]
    fn class_escapes_are_ascii_as_in_node() {
        assert!(is_match(r"^(\w*): (.*)$", "", "feat: x"));
        assert!(!is_match(r"^(\w+): (.*)$", "", "fé: x"));
        assert!(!is_match(r"^\d$", "", "٣"));
        assert!(is_match(r"^[\w-\.\/]+$", "", "org/re-po.x"));
        assert!(!is_match(r"^[\w-\.\/]+$", "", "a b"));
        assert!(is_match(r"^[^\W]+$", "", "abc"));
    }

    #[test]
    fn the_dot_stops_at_line_breaks_and_flags_apply() {
        assert!(!is_match(r"^a.b$", "", "a\rb"));
        assert!(is_match(r"^a.b$", "s", "a\rb"));
        assert!(is_match(r"^FEAT: x$", "i", "feat: x"));
        assert!(is_match(r"^x$", "m", "a\nx\nb"));
        assert!(compile("x", "q").is_err());
    }

    #[test]
    fn needless_escapes_lookarounds_and_named_groups() {
        assert!(is_match(r"^a\/b$", "", "a/b"));
        assert!(is_match(r"(?=.*#)\w+", "", "ab #1"));
        let re = compile(r"^(?<type>\w+): (?<subject>.+)$", "").unwrap();
        let caps = re.captures("fix: y").unwrap().unwrap();
        assert_eq!(caps.name("subject").unwrap().as_str(), "y");
        assert!(is_match(r"\u00e9\u{1F600}", "u", "é😀"));
    }

    #[test]
    fn literals_and_escaping() {
        let p = JsPattern::from_literal(r"/^(\w*)(?:\((.*)\))?!?: (.*)$/i").unwrap();
        assert_eq!(p.flags, "i");
        assert!(p.compile().unwrap().is_match("FEAT(a)!: b").unwrap());
        assert_eq!(escape("a.b(c)"), r"a\.b\(c\)");
        assert!(
            compile(&escape("JIRA-"), "")
                .unwrap()
                .is_match("JIRA-1")
                .unwrap()
        );
    }
}
