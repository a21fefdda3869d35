//! A file's shallow outline, built without a model: its imports, and each definition with
//! the line range it spans and the first line of its doc comment; no bodies. What the first
//! request of "explain this file" carries, so a model reads only the ranges it needs.
//!
//! Ranges come from the text's shape: braces for Rust, TypeScript/JavaScript, Go (and the
//! other brace languages), indentation for Python. Strings and line comments are skipped
//! when counting braces; a definition that never opens a body ends at its `;`, or before a
//! blank line or the next definition.

use std::fmt::Write;
use std::path::Path;

use grep_matcher::Matcher;

use super::definitions::{LanguagePatterns, is_statement, language_matchers};
use super::lines::trim_line;
use iris_studio_core::artifact::intent::ranges_text;

/// Characters of a signature or doc line shown at most.
const MAX_LINE_CHARS: usize = 160;

/// What a definition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefinitionKind {
    /// A function, method, class, struct, type or impl block.
    Item,
    /// A module-level constant or variable.
    Constant,
}

/// One definition: its first line (the signature), where it spans (1-based, inclusive), how
/// deep it sits (indentation) and the first line of its doc comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// What it defines.
    pub kind: DefinitionKind,
    /// Its first line, trimmed and bounded, without the brace that opens its body.
    pub signature: String,
    /// Its first line (1-based).
    pub start: usize,
    /// Its last line (1-based, inclusive).
    pub end: usize,
    /// The width of its first line's leading whitespace: how deep it is nested.
    pub indent: usize,
    /// The first line of its doc comment (or Python docstring), if it has one.
    pub doc: Option<String>,
}

/// A file's outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    /// The language whose patterns read it (`Rust`, `Python`, ...).
    pub language: &'static str,
    /// The file's length in lines.
    pub lines: usize,
    /// Import lines (1-based) and their text.
    pub imports: Vec<(usize, String)>,
    /// Every definition, in the order the file has them.
    pub definitions: Vec<Definition>,
}

/// The outline of `text`, the content of `path`; `None` for a language without patterns.
pub fn outline(path: &Path, text: &str) -> Option<Outline> {
    let patterns = LanguagePatterns::of(path)?;
    let matchers = language_matchers()
        .ok()?
        .iter()
        .find(|m| m.name == patterns.name)?;
    let lines: Vec<&str> = text.lines().collect();
    let indented = patterns.name == "Python";
    let mut imports = Vec::new();
    let mut starts = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let is = |m: &Option<grep_regex::RegexMatcher>| {
            m.as_ref()
                .is_some_and(|m| m.is_match(line.as_bytes()).unwrap_or(false))
        };
        if is(&matchers.imports) {
            imports.push((i + 1, trim_line(line.trim(), MAX_LINE_CHARS)));
        } else if is_statement(line) {
            continue;
        } else if is(&matchers.definitions) {
            starts.push((i, DefinitionKind::Item));
        } else if is(&matchers.constants) {
            starts.push((i, DefinitionKind::Constant));
        }
    }
    let definitions = starts
        .iter()
        .enumerate()
        .map(|(n, &(start, kind))| {
            let next = starts.get(n + 1).map(|&(s, _)| s);
            let end = if indented {
                indented_end(&lines, start)
            } else {
                braced_end(&lines, start, next)
            };
            Definition {
                kind,
                signature: signature(lines[start]),
                start: start + 1,
                end: end + 1,
                indent: indent_of(lines[start]),
                doc: doc_above(&lines, start).or_else(|| docstring_below(&lines, start, end)),
            }
        })
        .collect();
    Some(Outline {
        language: matchers.name,
        lines: lines.len(),
        imports,
        definitions,
    })
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn signature(line: &str) -> String {
    trim_line(line.trim(), MAX_LINE_CHARS)
        .trim_end_matches(['{', ' '])
        .to_string()
}

/// Braces opened minus closed on a line, and other brackets likewise, outside strings and
/// `//` comments.
fn depths(line: &str) -> (i32, i32) {
    let (mut braces, mut others) = (0, 0);
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => match c {
                '\\' => {
                    chars.next();
                }
                c if c == q => quote = None,
                _ => {}
            },
            None => match c {
                '"' | '`' => quote = Some(c),
                // A char literal ('{'), not a Rust lifetime ('a).
                '\'' if line.len() > 2 => {
                    let rest: String = chars.clone().take(3).collect();
                    if rest.chars().nth(1) == Some('\'')
                        || (rest.starts_with('\\') && rest.chars().nth(2) == Some('\''))
                    {
                        quote = Some('\'');
                    }
                }
                '/' if chars.peek() == Some(&'/') => break,
                '{' => braces += 1,
                '}' => braces -= 1,
                '(' | '[' => others += 1,
                ')' | ']' => others -= 1,
                _ => {}
            },
        }
    }
    (braces, others)
}

/// The last line (0-based) of a definition in a brace language.
fn braced_end(lines: &[&str], start: usize, next: Option<usize>) -> usize {
    let (mut braces, mut others) = (0, 0);
    let mut opened = false;
    for (i, line) in lines.iter().enumerate().skip(start) {
        let (b, o) = depths(line);
        if b > 0 || (braces > 0 && b != 0) {
            opened = true;
        }
        braces += b;
        others += o;
        if opened && braces <= 0 {
            return i;
        }
        if !opened {
            let code = line.split("//").next().unwrap_or_default().trim_end();
            if others <= 0 && code.ends_with(';') {
                return i;
            }
            // No body and no `;` (a JavaScript constant): it ends before what follows it.
            if i > start && others <= 0 && line.trim().is_empty() {
                return last_non_blank(lines, start, i);
            }
            if next == Some(i + 1) && others <= 0 {
                return i;
            }
        }
    }
    last_non_blank(lines, start, lines.len())
}

/// The last non-blank line before `before`, not above `start`.
fn last_non_blank(lines: &[&str], start: usize, before: usize) -> usize {
    (start..before)
        .rev()
        .find(|&i| !lines[i].trim().is_empty())
        .unwrap_or(start)
}

/// The last line (0-based) of a Python definition: its header up to the `:` that closes it,
/// then every line indented deeper than the header (blank lines between them included).
fn indented_end(lines: &[&str], start: usize) -> usize {
    let base = indent_of(lines[start]);
    let mut header_end = start;
    let mut open = 0;
    for (i, line) in lines.iter().enumerate().skip(start) {
        open += depths(line).1 + depths(line).0;
        header_end = i;
        if open <= 0 {
            break;
        }
    }
    let mut end = header_end;
    for (i, line) in lines.iter().enumerate().skip(header_end + 1) {
        if line.trim().is_empty() {
            continue;
        }
        if indent_of(line) <= base {
            break;
        }
        end = i;
    }
    end
}

/// The first line of the comment block right above a definition (attributes and decorators
/// between them skipped).
fn doc_above(lines: &[&str], start: usize) -> Option<String> {
    let mut first = None;
    for line in lines[..start].iter().rev() {
        let t = line.trim();
        if t.starts_with("#[") || (t.starts_with('@') && !t.starts_with("@param")) {
            continue;
        }
        let text = ["///", "//!", "//", "/**", "*/", "* ", "*", "#"]
            .iter()
            .find_map(|p| t.strip_prefix(p));
        match text {
            Some(text) if !t.starts_with("#[") => {
                let text = text.trim().trim_end_matches("*/").trim();
                if !text.is_empty() {
                    first = Some(text.to_string());
                }
            }
            _ => break,
        }
    }
    first.map(|t| trim_line(&t, MAX_LINE_CHARS))
}

/// A Python docstring's first line.
fn docstring_below(lines: &[&str], start: usize, end: usize) -> Option<String> {
    let line = lines
        .get(start + 1..=end)?
        .iter()
        .find(|l| !l.trim().is_empty())?;
    let t = line.trim();
    let text = t
        .strip_prefix("\"\"\"")
        .or_else(|| t.strip_prefix("'''"))?
        .trim_end_matches("\"\"\"")
        .trim_end_matches("'''")
        .trim();
    (!text.is_empty()).then(|| trim_line(text, MAX_LINE_CHARS))
}

/// Line numbers as runs: `1-3, 7, 9-10`.
fn runs(lines: impl Iterator<Item = usize>) -> String {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for line in lines {
        match spans.last_mut() {
            Some((_, end)) if *end + 1 == line => *end = line,
            _ => spans.push((line, line)),
        }
    }
    ranges_text(spans)
}

impl Outline {
    /// The outline as the model reads it.
    pub fn render(&self, path: &str) -> String {
        let mut out = format!("{path}: {}, {} lines\n", self.language, self.lines);
        if !self.imports.is_empty() {
            let _ = writeln!(
                out,
                "imports (lines {}): {}",
                runs(self.imports.iter().map(|(line, _)| *line)),
                self.imports
                    .iter()
                    .map(|(_, text)| text.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
        }
        for d in &self.definitions {
            let range = format!("{}-{}", d.start, d.end);
            let _ = write!(
                out,
                "{:width$}{range:<10} {}",
                "",
                d.signature,
                width = d.indent
            );
            if let Some(doc) = &d.doc {
                let _ = write!(out, "  // {doc}");
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests;
