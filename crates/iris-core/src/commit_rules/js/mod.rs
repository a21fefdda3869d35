//! A tolerant reader of a JavaScript or TypeScript configuration's exported object literal,
//! without running it: `module.exports = {...}`, `export default {...}` or an exported
//! constant, with comments, any quotes, trailing commas, type annotations and `as const`.
//! Top-level constants (`const ERROR = 2`) and `RuleConfigSeverity.Error` are resolved;
//! what cannot be evaluated (a function, a call, arithmetic) becomes [`Node::Unreadable`]
//! saying what it was, and a skipped spread or computed key becomes a note.

mod lex;

use std::collections::HashMap;

use super::tree::{MAX_DEPTH, Node};
use lex::{Tok, Token, tokenize};

/// The exported configuration object of a JavaScript/TypeScript file, and notes on what was
/// skipped. `Err` when the file does not tokenize or exports nothing Iris can find.
pub fn read(text: &str) -> Result<(Node, Vec<String>), String> {
    let tokens = tokenize(text)?;
    let mut reader = Reader {
        toks: &tokens,
        consts: HashMap::new(),
        notes: Vec::new(),
        budget: MAX_RESOLUTIONS,
    };
    reader.collect_consts();
    let start = reader.export_start().ok_or_else(|| {
        "no `module.exports =` or `export default` was found (Iris reads the exported object without running the file)".to_string()
    })?;
    let mut pos = start;
    let node = reader.export_value(&mut pos)?;
    Ok((node, reader.notes))
}

struct Reader<'a> {
    toks: &'a [Token],
    /// Top-level `const|let|var NAME = ...`: where each initializer starts.
    consts: HashMap<String, usize>,
    notes: Vec<String>,
    /// Constant look-ups left: constants naming constants cannot make the work explode.
    budget: usize,
}

/// How many constant look-ups one file may make.
const MAX_RESOLUTIONS: usize = 10_000;

impl Reader<'_> {
    fn tok(&self, pos: usize) -> Option<&Tok> {
        self.toks.get(pos).map(|t| &t.tok)
    }

    fn is_punct(&self, pos: usize, c: char) -> bool {
        self.tok(pos) == Some(&Tok::Punct(c))
    }

    fn is_ident(&self, pos: usize, word: &str) -> bool {
        matches!(self.tok(pos), Some(Tok::Ident(w)) if w == word)
    }

    fn line(&self, pos: usize) -> usize {
        self.toks
            .get(pos)
            .or_else(|| self.toks.last())
            .map_or(1, |t| t.line)
    }

    /// The positions of the top-level tokens (outside any bracket).
    fn top_level(&self) -> Vec<usize> {
        let mut depth = 0usize;
        let mut out = Vec::new();
        for (i, t) in self.toks.iter().enumerate() {
            match t.tok {
                Tok::Punct('{' | '[' | '(') => {
                    if depth == 0 {
                        out.push(i);
                    }
                    depth += 1;
                }
                Tok::Punct('}' | ']' | ')') => depth = depth.saturating_sub(1),
                _ if depth == 0 => out.push(i),
                _ => {}
            }
        }
        out
    }

    fn collect_consts(&mut self) {
        for i in self.top_level() {
            if !(self.is_ident(i, "const") || self.is_ident(i, "let") || self.is_ident(i, "var")) {
                continue;
            }
            let Some(Tok::Ident(name)) = self.tok(i + 1) else {
                continue;
            };
            // `const NAME: Type = value`: the initializer follows the first `=` at depth 0.
            let mut j = i + 2;
            let mut depth = 0usize;
            while let Some(tok) = self.tok(j) {
                match tok {
                    Tok::Punct('(' | '[' | '{' | '<') => depth += 1,
                    Tok::Punct(')' | ']' | '}' | '>') => depth = depth.saturating_sub(1),
                    Tok::Punct('=') if depth == 0 => break,
                    Tok::Punct(';' | ',') if depth == 0 => break,
                    _ => {}
                }
                j += 1;
            }
            if self.is_punct(j, '=') {
                self.consts.insert(name.clone(), j + 1);
            }
        }
    }

    /// Where the exported value starts: after the last top-level `module.exports =`,
    /// `exports.default =` or `export default`.
    fn export_start(&self) -> Option<usize> {
        let mut found = None;
        for i in self.top_level() {
            let assigned = |object: &str, property: &str| {
                self.is_ident(i, object)
                    && self.is_punct(i + 1, '.')
                    && self.is_ident(i + 2, property)
                    && self.is_punct(i + 3, '=')
                    && !self.is_punct(i + 4, '=')
            };
            if assigned("module", "exports") || assigned("exports", "default") {
                found = Some(i + 4);
            } else if self.is_ident(i, "export") && self.is_ident(i + 1, "default") {
                found = Some(i + 2);
            }
        }
        found
    }

    /// The exported value; a wrapper call such as `defineConfig({...})` is read through.
    fn export_value(&mut self, pos: &mut usize) -> Result<Node, String> {
        if let Some(Tok::Ident(name)) = self.tok(*pos).cloned()
            && self.is_punct(*pos + 1, '(')
            && (self.is_punct(*pos + 2, '{') || matches!(self.tok(*pos + 2), Some(Tok::Ident(_))))
            && !matches!(name.as_str(), "function" | "async" | "require")
        {
            *pos += 2;
            let node = self.value(pos, 0)?;
            self.notes.push(format!(
                "the object passed to {name}() is read as the configuration"
            ));
            return Ok(node);
        }
        self.value(pos, 0)
    }

    /// A value at `pos`, with anything that follows it up to the next `,` `;` or closing
    /// bracket; a value with more after it (arithmetic, a call) is unreadable.
    fn value(&mut self, pos: &mut usize, depth: usize) -> Result<Node, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "line {}: nested more than {MAX_DEPTH} levels deep",
                self.line(*pos)
            ));
        }
        let start = *pos;
        let node = self.primary(pos, depth)?;
        if self.at_end_of_value(*pos) {
            return Ok(node);
        }
        if self.is_ident(*pos, "as") || self.is_ident(*pos, "satisfies") {
            // A type assertion keeps the value.
            self.skip_expression(pos, true);
            return Ok(node);
        }
        self.skip_expression(pos, false);
        Ok(match node {
            Node::Unreadable(what) => Node::Unreadable(what),
            _ => Node::Unreadable(format!("a computed value (line {})", self.line(start))),
        })
    }

    /// Whether `pos` ends a value: a separator, a closing bracket, the end, or (by automatic
    /// semicolon insertion) a name or string on a later line.
    fn at_end_of_value(&self, pos: usize) -> bool {
        match self.tok(pos) {
            None | Some(Tok::Punct(',' | ';' | '}' | ']' | ')')) => true,
            Some(Tok::Ident(word)) if word != "as" && word != "satisfies" => {
                pos > 0 && self.line(pos) > self.line(pos - 1)
            }
            Some(Tok::Str(_)) => pos > 0 && self.line(pos) > self.line(pos - 1),
            _ => false,
        }
    }

    /// Skips to the end of the current value (balanced brackets); in a type, `<...>` nests too.
    fn skip_expression(&self, pos: &mut usize, in_type: bool) {
        let mut depth = 0usize;
        while let Some(tok) = self.tok(*pos) {
            match tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct('<') if in_type => depth += 1,
                Tok::Punct('>') if in_type && depth > 0 => depth -= 1,
                Tok::Punct(')' | ']' | '}') if depth == 0 => return,
                Tok::Punct(')' | ']' | '}') => depth -= 1,
                Tok::Punct(',' | ';') if depth == 0 => return,
                _ if depth == 0 && *pos > 0 && self.line(*pos) > self.line(*pos - 1) => {
                    if matches!(tok, Tok::Ident(w) if ["const", "let", "var", "export", "module", "function"].contains(&w.as_str()))
                    {
                        return;
                    }
                }
                _ => {}
            }
            *pos += 1;
        }
    }

    fn primary(&mut self, pos: &mut usize, depth: usize) -> Result<Node, String> {
        let line = self.line(*pos);
        let Some(tok) = self.tok(*pos).cloned() else {
            return Err(format!(
                "line {line}: the file ends where a value should be"
            ));
        };
        *pos += 1;
        Ok(match tok {
            Tok::Str(s) => Node::String(s),
            Tok::Template(Some(s)) => Node::String(s),
            Tok::Template(None) => {
                Node::Unreadable(format!("a template with ${{...}} (line {line})"))
            }
            Tok::Num(n) => Node::Number(n),
            Tok::Punct('-') => match self.tok(*pos) {
                Some(Tok::Num(n)) => {
                    let n = -*n;
                    *pos += 1;
                    Node::Number(n)
                }
                _ => Node::Unreadable(format!("an expression (line {line})")),
            },
            Tok::Punct('{') => self.object(pos, depth)?,
            Tok::Punct('[') => self.array(pos, depth)?,
            Tok::Punct('(') => {
                *pos -= 1;
                self.skip_balanced(pos);
                if self.tok(*pos) == Some(&Tok::Arrow) {
                    self.skip_expression(pos, false);
                    Node::Unreadable(format!("a function (line {line})"))
                } else {
                    Node::Unreadable(format!("an expression (line {line})"))
                }
            }
            Tok::Regex(literal) => Node::Regex(literal),
            Tok::Ident(word) => self.identifier(&word, pos, depth, line),
            other => Node::Unreadable(format!("an expression ({other:?}, line {line})")),
        })
    }

    fn identifier(&mut self, word: &str, pos: &mut usize, depth: usize, line: usize) -> Node {
        match word {
            "true" => return Node::Bool(true),
            "false" => return Node::Bool(false),
            "null" | "undefined" => return Node::Null,
            "Infinity" => return Node::Number(f64::INFINITY),
            "function" | "async" | "class" => {
                self.skip_expression(pos, false);
                return Node::Unreadable(format!("a function (line {line})"));
            }
            _ => {}
        }
        if self.tok(*pos) == Some(&Tok::Arrow) {
            self.skip_expression(pos, false);
            return Node::Unreadable(format!("a function (line {line})"));
        }
        if self.is_punct(*pos, '.')
            && let Some(Tok::Ident(member)) = self.tok(*pos + 1).cloned()
        {
            *pos += 2;
            if word == "RuleConfigSeverity" {
                match member.as_str() {
                    "Disabled" => return Node::Number(0.0),
                    "Warning" => return Node::Number(1.0),
                    "Error" => return Node::Number(2.0),
                    _ => {}
                }
            }
            return Node::Unreadable(format!("the value {word}.{member} (line {line})"));
        }
        if self.is_punct(*pos, '(') {
            self.skip_balanced(pos);
            return Node::Unreadable(format!("a call to {word}() (line {line})"));
        }
        match self.consts.get(word).copied() {
            Some(_) if self.budget == 0 => Node::Unreadable(format!(
                "the constant {word} (too many constants to follow)"
            )),
            Some(mut at) => {
                self.budget -= 1;
                self.value(&mut at, depth + 1).unwrap_or_else(|_| {
                    Node::Unreadable(format!("the constant {word}, which cannot be read"))
                })
            }
            None => Node::Unreadable(format!("the variable {word} (line {line})")),
        }
    }

    /// Skips a bracketed group starting at `pos` (its opening bracket).
    fn skip_balanced(&self, pos: &mut usize) {
        let mut depth = 0usize;
        while let Some(tok) = self.tok(*pos) {
            *pos += 1;
            match tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn expect_close(&self, pos: &mut usize, close: char, what: &str) -> Result<(), String> {
        if self.is_punct(*pos, close) {
            *pos += 1;
            Ok(())
        } else {
            Err(format!(
                "line {}: expected ',' or '{close}' in {what}",
                self.line(*pos)
            ))
        }
    }

    fn array(&mut self, pos: &mut usize, depth: usize) -> Result<Node, String> {
        let mut items = Vec::new();
        loop {
            if self.is_punct(*pos, ']') {
                *pos += 1;
                return Ok(Node::Array(items));
            }
            if self.tok(*pos) == Some(&Tok::Spread) {
                *pos += 1;
                match self.value(pos, depth + 1)? {
                    Node::Array(more) => items.extend(more),
                    other => {
                        items.push(Node::Unreadable(format!("a spread of {}", what_of(&other))))
                    }
                }
            } else {
                items.push(self.value(pos, depth + 1)?);
            }
            if self.is_punct(*pos, ',') {
                *pos += 1;
            } else {
                self.expect_close(pos, ']', "a list")?;
                return Ok(Node::Array(items));
            }
        }
    }

    fn object(&mut self, pos: &mut usize, depth: usize) -> Result<Node, String> {
        let mut entries: Vec<(String, Node)> = Vec::new();
        loop {
            if self.is_punct(*pos, '}') {
                *pos += 1;
                return Ok(Node::Object(entries));
            }
            let line = self.line(*pos);
            let key = match self.tok(*pos).cloned() {
                Some(Tok::Spread) => {
                    *pos += 1;
                    match self.value(pos, depth + 1)? {
                        Node::Object(more) => entries.extend(more),
                        other => self.notes.push(format!(
                            "line {line}: a spread of {} was skipped",
                            what_of(&other)
                        )),
                    }
                    None
                }
                Some(Tok::Ident(k)) | Some(Tok::Str(k)) | Some(Tok::Template(Some(k))) => {
                    *pos += 1;
                    Some(k)
                }
                Some(Tok::Num(n)) => {
                    *pos += 1;
                    Some(n.to_string())
                }
                Some(Tok::Punct('[')) => {
                    self.skip_balanced(pos);
                    self.notes.push(format!(
                        "line {line}: an entry with a computed key was skipped"
                    ));
                    if self.is_punct(*pos, ':') {
                        *pos += 1;
                    }
                    self.skip_expression(pos, false);
                    None
                }
                None => return Err(format!("line {line}: the file ends inside an object")),
                _ => return Err(format!("line {line}: expected a key in an object")),
            };
            if let Some(key) = key {
                if self.is_punct(*pos, ':') {
                    *pos += 1;
                    let value = self.value(pos, depth + 1)?;
                    entries.push((key, value));
                } else if self.is_punct(*pos, '(') || matches!(self.tok(*pos), Some(Tok::Ident(_)))
                {
                    // A method (`ignores() {...}`, `async x() {...}`, `get x() {...}`).
                    self.skip_expression(pos, false);
                    entries.push((key, Node::Unreadable(format!("a function (line {line})"))));
                } else {
                    // Shorthand `{ rules }`: the constant of that name.
                    let value = self.identifier(&key, pos, depth + 1, line);
                    entries.push((key, value));
                }
            }
            if self.is_punct(*pos, ',') {
                *pos += 1;
            } else {
                self.expect_close(pos, '}', "an object")?;
                return Ok(Node::Object(entries));
            }
        }
    }
}

fn what_of(node: &Node) -> String {
    match node {
        Node::Unreadable(what) => what.clone(),
        other => other.kind().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Node {
        Node::String(text.into())
    }

    #[test]
    fn module_exports_with_comments_quotes_and_trailing_commas() {
        let (node, notes) = read(
            "/* header */\n// line\nmodule.exports = {\n  extends: ['@commitlint/config-conventional',],\n  rules: {\n    \"a\": [2, `always`, 10,], // why\n    'b-c': [1, 'never'],\n  },\n};\n",
        )
        .unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(
            node.get("extends"),
            Some(&Node::Array(vec![s("@commitlint/config-conventional")]))
        );
        let rules = node.get("rules").unwrap();
        assert_eq!(
            rules.get("a"),
            Some(&Node::Array(vec![
                Node::Number(2.0),
                s("always"),
                Node::Number(10.0)
            ]))
        );
        assert_eq!(
            rules.get("b-c"),
            Some(&Node::Array(vec![Node::Number(1.0), s("never")]))
        );
    }

    #[test]
    fn typescript_with_a_typed_constant_and_severity_enum() {
        let (node, _) = read(
            "import type { UserConfig } from '@commitlint/types';\nimport { RuleConfigSeverity } from '@commitlint/types';\n\nconst MAX = 72\nconst Configuration: UserConfig = {\n  rules: {\n    'header-max-length': [RuleConfigSeverity.Error, 'always', MAX] as const,\n  },\n} satisfies UserConfig;\n\nexport default Configuration;\n",
        )
        .unwrap();
        assert_eq!(
            node.get("rules").and_then(|r| r.get("header-max-length")),
            Some(&Node::Array(vec![
                Node::Number(2.0),
                s("always"),
                Node::Number(72.0)
            ]))
        );
    }

    #[test]
    fn functions_calls_and_arithmetic_are_unreadable_not_fatal() {
        let (node, notes) = read(
            "const scopes = require('./scopes')\nmodule.exports = {\n  ignores: [(commit) => commit.includes('WIP')],\n  rules: {\n    'scope-enum': async (ctx) => [2, 'always', await getScopes(ctx)],\n    'header-max-length': [2, 'always', 50 + 22],\n    'type-enum': [2, 'always', [...scopes, 'x']],\n    ...extra,\n    [computed]: [2],\n  },\n  prompt() { return {} },\n}\n",
        )
        .unwrap();
        let rules = node.get("rules").unwrap();
        assert!(
            matches!(rules.get("scope-enum"), Some(Node::Unreadable(w)) if w.starts_with("a function"))
        );
        assert!(matches!(
            rules.get("header-max-length"),
            Some(Node::Array(items)) if matches!(&items[2], Node::Unreadable(w) if w.starts_with("a computed value"))
        ));
        assert!(matches!(
            rules.get("type-enum"),
            Some(Node::Array(items)) if matches!(&items[2], Node::Array(v) if matches!(&v[0], Node::Unreadable(w) if w.starts_with("a spread of a call to require()")))
        ));
        assert!(matches!(node.get("prompt"), Some(Node::Unreadable(_))));
        assert_eq!(notes.len(), 2, "{notes:?}");
    }

    #[test]
    fn a_file_without_an_export_or_with_a_broken_literal_is_an_error() {
        assert!(
            read("const x = { a: 1 }")
                .unwrap_err()
                .contains("no `module.exports")
        );
        assert!(
            read("module.exports = { a: [1, 2 }")
                .unwrap_err()
                .contains("line 1")
        );
        assert!(read("module.exports = { a: 'open }").is_err());
        assert!(read("/* never closed").is_err());
    }

    #[test]
    fn regular_expressions_and_wrappers() {
        let (node, notes) = read(
            "export default defineConfig({\n  parserPreset: { parserOpts: { headerPattern: /^(\\w*)(?:\\((.*)\\))?!?: (.*)$/ } },\n  rules: { 'type-empty': [2, 'never'] },\n});\n",
        )
        .unwrap();
        assert!(node.get("rules").is_some());
        let pattern = node
            .get("parserPreset")
            .and_then(|p| p.get("parserOpts"))
            .and_then(|o| o.get("headerPattern"));
        assert_eq!(
            pattern,
            Some(&Node::Regex(r"/^(\w*)(?:\((.*)\))?!?: (.*)$/".into()))
        );
        assert_eq!(
            notes,
            vec!["the object passed to defineConfig() is read as the configuration"]
        );
    }

    #[test]
    fn a_header_pattern_read_from_a_javascript_config_parses_headers() {
        let text = "module.exports = {\n  parserPreset: { parserOpts: {\n    headerPattern: /^(\\w+)\\/(\\w+): (.*)$/,\n    headerCorrespondence: ['type', 'scope', 'subject'],\n  } },\n  rules: { 'type-empty': [2, 'never'], 'scope-empty': [2, 'never'] },\n};\n";
        let rules = crate::commit_rules::parse("commitlint.config.js", text).unwrap();
        assert_eq!(
            rules
                .parser
                .header_pattern
                .as_ref()
                .map(|p| p.source.as_str()),
            Some(r"^(\w+)\/(\w+): (.*)$")
        );
        // The pattern decides what the type and scope are: `feat/ui: x` has both.
        assert!(rules.check("feat/ui: add the menu").is_empty());
        let broken = rules.check("feat(ui): add the menu");
        let names: Vec<&str> = broken.iter().map(|v| v.rule.as_str()).collect();
        assert!(names.contains(&"type-empty"), "{names:?}");
    }

    #[test]
    fn constants_that_name_each_other_end() {
        let mut text = String::from("const c0 = [1]\n");
        for i in 1..40 {
            text.push_str(&format!("const c{i} = [c{j}, c{j}, c{j}]\n", j = i - 1));
        }
        text.push_str("const a = b\nconst b = a\nmodule.exports = { x: c39, y: a }\n");
        let (node, _) = read(&text).unwrap();
        assert!(matches!(node.get("y"), Some(Node::Unreadable(_))));
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = format!("module.exports = {}{}", "[".repeat(200), "]".repeat(200));
        assert!(read(&text).unwrap_err().contains("nested more than"));
    }
}
