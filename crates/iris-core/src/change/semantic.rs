//! Detect what a change does from its added and removed lines, per language.
//!
//! Line-based and hand-written (no regex): each language has a small matcher that looks at the
//! start of one trimmed line. It misses declarations split across lines, which is fine for a
//! summary hint.

use crate::languages::Language;

/// One notable thing a file's change does.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum SemanticChange {
    /// Declares a function or method, by name.
    AddsFunction(String),
    /// Declares a type (struct, enum, class, trait, alias...), by name.
    AddsType(String),
    /// Adds or removes an import.
    ModifiesImports,
    /// Adds a Rust `impl` block, by its header (`Display for Config`).
    AddsImpl(String),
    /// Changes code without any of the above (lines both added and removed).
    RefactorsCode,
}

impl SemanticChange {
    /// A short phrase such as "adds function parse_config".
    pub fn describe(&self) -> String {
        match self {
            Self::AddsFunction(name) => format!("adds function {name}"),
            Self::AddsType(name) => format!("adds type {name}"),
            Self::ModifiesImports => "modifies imports".to_owned(),
            Self::AddsImpl(header) => format!("adds impl {header}"),
            Self::RefactorsCode => "refactors code".to_owned(),
        }
    }
}

/// Most changes listed for one file.
const MAX_CHANGES: usize = 100;

/// Detect semantic changes for the file at `path` (language from its extension).
///
/// Declarations are looked for in `added`; imports in both `added` and `removed`. The result is
/// deduplicated, in first-seen order, at most 100 entries. `RefactorsCode` is reported for a
/// recognised language when there are both added and removed non-blank lines and nothing else
/// was found; files in other languages get nothing.
pub fn detect_semantic_changes(
    path: &str,
    added: &[&str],
    removed: &[&str],
) -> Vec<SemanticChange> {
    let Some(lang) = Lang::of(path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let lines = added
        .iter()
        .map(|line| lang.classify(line))
        .chain(removed.iter().map(|line| {
            lang.is_import(line)
                .then_some(SemanticChange::ModifiesImports)
        }));
    for change in lines.flatten() {
        if out.len() >= MAX_CHANGES {
            break;
        }
        if !out.contains(&change) {
            out.push(change);
        }
    }
    let has_code = |lines: &[&str]| lines.iter().any(|l| !l.trim().is_empty());
    if out.is_empty() && has_code(added) && has_code(removed) {
        out.push(SemanticChange::RefactorsCode);
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Rust,
    /// TypeScript and JavaScript.
    Script,
    Python,
    Go,
}

impl Lang {
    /// The classifier for a file's language, for the languages it knows.
    fn of(path: &str) -> Option<Self> {
        let lang = match Language::of_path(path)? {
            Language::Rust => Self::Rust,
            Language::TypeScript | Language::JavaScript => Self::Script,
            Language::Python => Self::Python,
            Language::Go => Self::Go,
            _ => return None,
        };
        Some(lang)
    }

    fn classify(self, line: &str) -> Option<SemanticChange> {
        let line = line.trim();
        match self {
            Self::Rust => rust::classify(line),
            Self::Script => script::classify(line),
            Self::Python => python::classify(line),
            Self::Go => go::classify(line),
        }
    }

    fn is_import(self, line: &str) -> bool {
        self.classify(line) == Some(SemanticChange::ModifiesImports)
    }
}

/// `rest` after keyword `kw` when `s` starts with it as a whole word.
fn keyword<'a>(s: &'a str, kw: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(kw)?;
    rest.starts_with(char::is_whitespace)
        .then(|| rest.trim_start())
}

/// The identifier at the start of `s` and what follows it.
fn ident(s: &str) -> Option<(&str, &str)> {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(s.len());
    let (name, rest) = s.split_at(end);
    let first = name.chars().next()?;
    (!first.is_ascii_digit()).then_some((name, rest))
}

fn function(s: &str) -> Option<SemanticChange> {
    ident(s).map(|(name, _)| SemanticChange::AddsFunction(name.to_owned()))
}

fn type_named(s: &str) -> Option<SemanticChange> {
    ident(s).map(|(name, _)| SemanticChange::AddsType(name.to_owned()))
}

/// Skip a balanced `open`..`close` group at the start of `s` (ignoring the `>` of `->`/`=>`).
fn skip_group(s: &str, open: u8, close: u8) -> Option<&str> {
    let bytes = s.as_bytes();
    if bytes.first() != Some(&open) {
        return Some(s);
    }
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        let arrow = b == b'>' && i > 0 && matches!(bytes[i - 1], b'-' | b'=');
        if b == open {
            depth += 1;
        } else if b == close && !arrow {
            depth -= 1;
            if depth == 0 {
                return s.get(i + 1..);
            }
        }
    }
    None
}

mod rust {
    use super::{SemanticChange, function, keyword, skip_group, type_named};

    pub(super) fn classify(line: &str) -> Option<SemanticChange> {
        let s = strip_visibility(line);
        if s.starts_with("use ") || s.starts_with("extern crate ") {
            return Some(SemanticChange::ModifiesImports);
        }
        let s = strip_qualifiers(s);
        if let Some(rest) = keyword(s, "fn") {
            return function(rest.strip_prefix("r#").unwrap_or(rest));
        }
        for kw in ["struct", "enum", "trait", "type", "union"] {
            if let Some(rest) = keyword(s, kw) {
                return type_named(rest);
            }
        }
        impl_header(s).map(|h| SemanticChange::AddsImpl(h.to_owned()))
    }

    /// `pub`, `pub(crate)`, `pub(in a::b)`, ...
    fn strip_visibility(s: &str) -> &str {
        if let Some(rest) = keyword(s, "pub") {
            return rest;
        }
        match s.strip_prefix("pub(").and_then(|r| r.split_once(')')) {
            Some((_, rest)) => rest.trim_start(),
            None => s,
        }
    }

    /// `async`, `const`, `unsafe`, `default`, `extern "C"`, in any order.
    fn strip_qualifiers(mut s: &str) -> &str {
        loop {
            if let Some(rest) = ["async", "const", "unsafe", "default"]
                .iter()
                .find_map(|kw| keyword(s, kw))
            {
                s = rest;
            } else if let Some(rest) = keyword(s, "extern") {
                s = match rest.strip_prefix('"').and_then(|r| r.split_once('"')) {
                    Some((_abi, after)) => after.trim_start(),
                    None => rest,
                };
            } else {
                return s;
            }
        }
    }

    /// `impl<T: X> Display for Config<T> where ... {` -> `Display for Config<T>`.
    fn impl_header(s: &str) -> Option<&str> {
        let rest = s.strip_prefix("impl")?;
        if !rest.starts_with(['<', ' ', '\t']) {
            return None;
        }
        let rest = skip_group(rest, b'<', b'>')?;
        let rest = rest.split('{').next().unwrap_or(rest);
        let rest = rest.split(" where ").next().unwrap_or(rest).trim_end();
        let header = rest.strip_suffix(" where").unwrap_or(rest).trim();
        (!header.is_empty() && !header.ends_with([',', ')', ';'])).then_some(header)
    }
}

mod script {
    use super::{SemanticChange, function, ident, keyword, type_named};

    pub(super) fn classify(line: &str) -> Option<SemanticChange> {
        if is_import(line) {
            return Some(SemanticChange::ModifiesImports);
        }
        let s = strip_modifiers(line);
        if let Some(rest) = s.strip_prefix("function") {
            // `function name`, `function* gen`, `function *gen`.
            if rest.starts_with(['*', ' ', '\t']) {
                return function(rest.trim_start().trim_start_matches('*').trim_start());
            }
        }
        let s = keyword(s, "const")
            .filter(|r| r.starts_with("enum"))
            .unwrap_or(s);
        for kw in ["class", "interface", "enum"] {
            if let Some(rest) = keyword(s, kw) {
                return type_named(rest);
            }
        }
        if let Some((name, after)) = keyword(s, "type").and_then(ident)
            && after.trim_start().starts_with(['=', '<'])
        {
            return Some(SemanticChange::AddsType(name.to_owned()));
        }
        let (name, after) = ["const", "let", "var"]
            .iter()
            .find_map(|kw| keyword(s, kw))
            .and_then(ident)?;
        is_function_value(after).then(|| SemanticChange::AddsFunction(name.to_owned()))
    }

    fn strip_modifiers(mut s: &str) -> &str {
        while let Some(rest) = ["export", "default", "declare", "async", "abstract"]
            .iter()
            .find_map(|kw| keyword(s, kw))
        {
            s = rest;
        }
        s
    }

    fn is_import(s: &str) -> bool {
        if let Some(rest) = s.strip_prefix("import")
            && rest.starts_with([' ', '\t', '{', '"', '\'', '*'])
        {
            return true;
        }
        let from_module = s.contains(" from '") || s.contains(" from \"");
        (from_module && (s.starts_with('}') || s.starts_with("export "))) || s.contains("require(")
    }

    /// After `const name`: `= (a) =>`, `= async x =>`, `= function`, `: Type = ...`.
    fn is_function_value(after: &str) -> bool {
        let after = after.trim_start();
        let value = if let Some(v) = after.strip_prefix('=') {
            v
        } else if after.starts_with(':') {
            match after.find(" = ") {
                Some(i) => &after[i + 3..],
                None => return false,
            }
        } else {
            return false;
        };
        let value = value.trim_start();
        if value.starts_with('=') {
            return false;
        }
        let value = keyword(value, "async").unwrap_or(value);
        if value.starts_with("function") {
            return true;
        }
        if value.starts_with(['(', '<']) {
            return value.contains("=>");
        }
        ident(value).is_some_and(|(_, rest)| rest.trim_start().starts_with("=>"))
    }
}

mod python {
    use super::{SemanticChange, function, keyword, type_named};

    pub(super) fn classify(line: &str) -> Option<SemanticChange> {
        let s = keyword(line, "async").unwrap_or(line);
        if let Some(rest) = keyword(s, "def") {
            return function(rest);
        }
        if let Some(rest) = keyword(line, "class") {
            return type_named(rest);
        }
        let from_import = keyword(line, "from").is_some_and(|r| r.contains(" import"));
        (keyword(line, "import").is_some() || from_import)
            .then_some(SemanticChange::ModifiesImports)
    }
}

mod go {
    use super::{SemanticChange, ident, keyword, skip_group};

    pub(super) fn classify(line: &str) -> Option<SemanticChange> {
        if line.starts_with("import ") || line.starts_with("import(") || is_import_spec(line) {
            return Some(SemanticChange::ModifiesImports);
        }
        if let Some(rest) = keyword(line, "func") {
            // `func (r *T) Name(` or `func Name[T any](`.
            let rest = skip_group(rest, b'(', b')')?.trim_start();
            let (name, after) = ident(rest)?;
            return after
                .starts_with(['(', '['])
                .then(|| SemanticChange::AddsFunction(name.to_owned()));
        }
        if let Some(rest) = keyword(line, "type") {
            let (name, after) = ident(rest)?;
            return (!after.trim().is_empty()).then(|| SemanticChange::AddsType(name.to_owned()));
        }
        None
    }

    /// A line inside an `import ( ... )` block: `"fmt"`, `alias "x/y"`, `_ "x"`, `. "x"`.
    ///
    /// Elsewhere in Go a line holding only a string literal cannot occur: arguments and
    /// composite literal elements split over lines end with a comma.
    fn is_import_spec(line: &str) -> bool {
        let line = line.split("//").next().unwrap_or(line).trim_end();
        let (alias, path) = match line.rsplit_once(' ') {
            Some((alias, path)) => (Some(alias.trim()), path),
            None => (None, line),
        };
        let alias_ok = alias.is_none_or(|a| {
            a == "_" || a == "." || (a != "return" && ident(a).is_some_and(|(_, r)| r.is_empty()))
        });
        let inner = path.strip_prefix('"').and_then(|p| p.strip_suffix('"'));
        alias_ok
            && inner.is_some_and(|p| {
                !p.is_empty()
                    && p.chars().all(|c| {
                        c.is_alphanumeric() || matches!(c, '.' | '/' | '_' | '-' | '~' | '+')
                    })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::SemanticChange::*;
    use super::*;

    fn added(path: &str, lines: &[&str]) -> Vec<SemanticChange> {
        detect_semantic_changes(path, lines, &[])
    }

    fn f(name: &str) -> SemanticChange {
        AddsFunction(name.to_owned())
    }

    fn t(name: &str) -> SemanticChange {
        AddsType(name.to_owned())
    }

    #[test]
    fn describe() {
        assert_eq!(f("parse_config").describe(), "adds function parse_config");
        assert_eq!(t("Config").describe(), "adds type Config");
        assert_eq!(ModifiesImports.describe(), "modifies imports");
        assert_eq!(
            AddsImpl("Display for Config".into()).describe(),
            "adds impl Display for Config"
        );
        assert_eq!(RefactorsCode.describe(), "refactors code");
    }

    #[test]
    fn rust_functions() {
        let lines = [
            "fn plain() {",
            "    pub fn method(&self) -> u32 {",
            "pub(crate) async fn fetch() {",
            "pub(in crate::a) fn scoped() {}",
            "const fn konst() -> u8 { 1 }",
            "pub unsafe extern \"C\" fn ffi(x: i32) {",
            "async unsafe fn both() {}",
            "fn r#match() {}",
            "fn generic<T: Into<String>>(t: T) {",
            "// fn commented() {}",
            "let f = |x| x + 1;",
            "const MAX: usize = 3;",
        ];
        assert_eq!(
            added("src/lib.rs", &lines),
            [
                f("plain"),
                f("method"),
                f("fetch"),
                f("scoped"),
                f("konst"),
                f("ffi"),
                f("both"),
                f("match"),
                f("generic")
            ]
        );
    }

    #[test]
    fn rust_types_imports_impls() {
        let lines = [
            "pub struct Config {",
            "enum Mode { A, B }",
            "pub(crate) trait Render {",
            "type Result<T> = std::result::Result<T, Error>;",
            "pub union Bits {",
            "use std::fmt;",
            "pub use crate::x::Y;",
            "impl fmt::Display for Config {",
            "impl<T: Clone> From<T> for Wrapper<T> where T: Send {",
            "unsafe impl Send for Config {}",
            "impl<F: Fn() -> u8> Runner<F> {",
            "fn takes(x: impl Trait) {}",
        ];
        assert_eq!(
            added("src/config.rs", &lines),
            [
                t("Config"),
                t("Mode"),
                t("Render"),
                t("Result"),
                t("Bits"),
                ModifiesImports,
                AddsImpl("fmt::Display for Config".into()),
                AddsImpl("From<T> for Wrapper<T>".into()),
                AddsImpl("Send for Config".into()),
                AddsImpl("Runner<F>".into()),
                f("takes"),
            ]
        );
    }

    #[test]
    fn imports_count_from_removed_lines_once() {
        let changes = detect_semantic_changes(
            "src/main.rs",
            &["use a::b;", "fn x() {}"],
            &["use a::c;", "use a::d;"],
        );
        assert_eq!(changes, [ModifiesImports, f("x")]);
        let removed_only = detect_semantic_changes("src/main.rs", &["let x = 1;"], &["use a::c;"]);
        assert_eq!(removed_only, [ModifiesImports]);
    }

    #[test]
    fn typescript_and_javascript() {
        let lines = [
            "function plain(a) {",
            "export function exported() {",
            "export default async function main() {",
            "function* gen() {",
            "export const handler = async (req: Request) => {",
            "const add = (a, b) => a + b;",
            "let single = x => x * 2;",
            "var old = function () {",
            "const typed: Handler = async (e) => {",
            "export const generic = <T,>(x: T) => x;",
            "const notFn = compute(1);",
            "const cmp = a == b;",
            "export class Widget extends Base {",
            "export interface Props {",
            "type Id = string;",
            "export type Pair<T> = [T, T];",
            "export enum Color { Red }",
            "const enum Flag { A }",
            "export default abstract class Shape {",
        ];
        assert_eq!(
            added("web/app.tsx", &lines),
            [
                f("plain"),
                f("exported"),
                f("main"),
                f("gen"),
                f("handler"),
                f("add"),
                f("single"),
                f("old"),
                f("typed"),
                f("generic"),
                t("Widget"),
                t("Props"),
                t("Id"),
                t("Pair"),
                t("Color"),
                t("Flag"),
                t("Shape"),
            ]
        );
        for import in [
            "import React from 'react';",
            "import { a, b } from \"./x\";",
            "import type { T } from './t';",
            "import './side-effect.css';",
            "import * as path from 'path';",
            "} from './multi';",
            "export * from './reexport';",
            "const fs = require('fs');",
        ] {
            assert_eq!(added("lib/a.mjs", &[import]), [ModifiesImports], "{import}");
        }
        assert!(added("a.js", &["important();", "const importer = 1;"]).is_empty());
    }

    #[test]
    fn python() {
        let lines = [
            "def top_level(x):",
            "    def method(self):",
            "async def fetch():",
            "    async def inner():",
            "class Config(Base):",
            "class Plain:",
            "define = 3",
        ];
        assert_eq!(
            added("pkg/mod.py", &lines),
            [
                f("top_level"),
                f("method"),
                f("fetch"),
                f("inner"),
                t("Config"),
                t("Plain")
            ]
        );
        assert_eq!(added("a.py", &["import os"]), [ModifiesImports]);
        assert_eq!(added("a.py", &["from x.y import z"]), [ModifiesImports]);
        assert!(added("a.py", &["imported = 1", "from_x = 2"]).is_empty());
    }

    #[test]
    fn go() {
        let lines = [
            "func main() {",
            "func (s *Server) Handle(w http.ResponseWriter) {",
            "func (Server) Close() error {",
            "func Map[T any](xs []T) []T {",
            "type Config struct {",
            "type Reader interface {",
            "type ID string",
            "type (",
            "go func() {",
            "x := func(a int) {}",
        ];
        assert_eq!(
            added("cmd/main.go", &lines),
            [
                f("main"),
                f("Handle"),
                f("Close"),
                f("Map"),
                t("Config"),
                t("Reader"),
                t("ID")
            ]
        );
        for import in [
            "import \"fmt\"",
            "import (",
            "\t\"net/http\"",
            "\tlog \"github.com/sirupsen/logrus\"",
            "\t_ \"github.com/lib/pq\" // driver",
            "\t. \"math\"",
        ] {
            assert_eq!(added("a.go", &[import]), [ModifiesImports], "{import}");
        }
        for not_import in [
            "\t\"a\",",
            "\tx = \"fmt\"",
            "return \"fmt\"",
            "\"has space\"",
        ] {
            assert!(added("a.go", &[not_import]).is_empty(), "{not_import}");
        }
    }

    #[test]
    fn refactors_code_only_when_nothing_else() {
        assert_eq!(
            detect_semantic_changes("a.rs", &["let x = 2;"], &["let x = 1;"]),
            [RefactorsCode]
        );
        assert!(detect_semantic_changes("a.rs", &["let x = 2;"], &[]).is_empty());
        assert!(detect_semantic_changes("a.rs", &["let x = 2;"], &["   "]).is_empty());
        assert_eq!(
            detect_semantic_changes("a.rs", &["fn y() {}"], &["let x = 1;"]),
            [f("y")]
        );
        assert!(detect_semantic_changes("README.md", &["b"], &["a"]).is_empty());
        assert!(detect_semantic_changes("Makefile", &["fn x() {}"], &[]).is_empty());
    }

    #[test]
    fn dedup_order_and_cap() {
        let changes = added("a.rs", &["fn b() {}", "fn a() {}", "fn b() {}"]);
        assert_eq!(changes, [f("b"), f("a")]);
        let many: Vec<String> = (0..150).map(|i| format!("fn f{i}() {{}}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let changes = added("a.rs", &many);
        assert_eq!(changes.len(), 100);
        assert_eq!(changes[0], f("f0"));
        assert_eq!(changes[99], f("f99"));
    }

    #[test]
    fn extension_is_case_insensitive_and_needs_a_dot() {
        assert_eq!(added("A.RS", &["fn x() {}"]), [f("x")]);
        assert!(added("rs", &["fn x() {}"]).is_empty());
        assert!(added("dir.rs/file", &["fn x() {}"]).is_empty());
    }
}
