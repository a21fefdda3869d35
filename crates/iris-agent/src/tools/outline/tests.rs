//! Outlines per language: every range is checked against the source it came from.

use super::*;

/// (start, end, what the signature starts with) of each definition.
fn spans(path: &str, text: &str) -> Vec<(usize, usize, String)> {
    let outline = outline(Path::new(path), text).expect("a known language");
    outline
        .definitions
        .iter()
        .map(|d| (d.start, d.end, d.signature.clone()))
        .collect()
}

fn check(path: &str, text: &str, expected: &[(usize, usize, &str)]) {
    let got = spans(path, text);
    let got_short: Vec<(usize, usize, &str)> = got
        .iter()
        .map(|(s, e, sig)| (*s, *e, sig.as_str()))
        .collect();
    assert_eq!(got.len(), expected.len(), "{path}: {got_short:#?}");
    for ((s, e, sig), (ws, we, wsig)) in got.iter().zip(expected) {
        assert!(
            (s, e) == (ws, we) && sig.starts_with(wsig),
            "{path}: got {s}-{e} `{sig}`, want {ws}-{we} `{wsig}`"
        );
        // The range's first line is the signature's line in the source.
        let line = text.lines().nth(s - 1).unwrap_or_default();
        assert!(line.trim().starts_with(wsig), "{path}:{s}: {line}");
    }
}

#[test]
fn rust_items_methods_and_constants() {
    let text = r#"//! A module.
use std::fmt;
use crate::x::{A, B};

/// The limit.
pub const MAX: usize = 10;

/// A thing.
#[derive(Debug)]
pub struct Thing {
    name: String, // a { brace in a comment
}

impl Thing {
    /// Makes one.
    pub fn new(name: &str) -> Self {
        let s = "a } brace in a string";
        Self { name: s.into() }
    }

    fn helper<'a>(
        &'a self,
        x: u32,
    ) -> &'a str
    where
        Self: Sized,
    {
        &self.name
    }
}

pub trait Shape {
    fn area(&self) -> f64;
}

pub struct Unit;
"#;
    check(
        "src/thing.rs",
        text,
        &[
            (6, 6, "pub const MAX"),
            (10, 12, "pub struct Thing"),
            (14, 30, "impl Thing"),
            (16, 19, "pub fn new"),
            (21, 29, "fn helper"),
            (32, 34, "pub trait Shape"),
            (33, 33, "fn area"),
            (36, 36, "pub struct Unit"),
        ],
    );
    let outline = outline(Path::new("src/thing.rs"), text).unwrap();
    assert_eq!(outline.language, "Rust");
    assert_eq!(
        outline.imports.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
        [2, 3]
    );
    let docs: Vec<Option<&str>> = outline
        .definitions
        .iter()
        .map(|d| d.doc.as_deref())
        .collect();
    assert_eq!(docs[0], Some("The limit."));
    assert_eq!(
        docs[1],
        Some("A thing."),
        "the attribute between is skipped"
    );
    assert_eq!(docs[3], Some("Makes one."));
}

#[test]
fn python_by_indentation_with_docstrings_and_decorators() {
    let text = r#"import os
from typing import List

LIMIT = 3

class Store:
    """Keeps things."""

    def __init__(self, root):
        self.root = root

    @property
    def size(
        self,
    ) -> int:
        return len(os.listdir(self.root))


def main(args: List[str]) -> None:
    # not a doc
    store = Store(args[0])

    print(store.size)
"#;
    check(
        "app/store.py",
        text,
        &[
            (4, 4, "LIMIT"),
            (6, 16, "class Store"),
            (9, 10, "def __init__"),
            (13, 16, "def size("),
            (19, 23, "def main"),
        ],
    );
    let outline = outline(Path::new("app/store.py"), text).unwrap();
    assert_eq!(outline.definitions[1].doc.as_deref(), Some("Keeps things."));
    assert_eq!(outline.imports.len(), 2);
}

#[test]
fn typescript_functions_classes_arrows_and_constants() {
    let text = r#"import { readFile } from "fs";
import path from "path";

export const VERSION = "1.0"

export interface Options {
  root: string;
}

/** Loads a file. */
export async function load(opts: Options): Promise<string> {
  const p = path.join(opts.root, "a.txt");
  return readFile(p, "utf8");
}

export const twice = (x: number) => x * 2;

export class Cache {
  private items = new Map<string, string>();

  get(key: string): string | undefined {
    return this.items.get(key);
  }
}
"#;
    check(
        "web/load.ts",
        text,
        &[
            (4, 4, "export const VERSION"),
            (6, 8, "export interface Options"),
            (11, 14, "export async function load"),
            (16, 16, "export const twice"),
            (18, 24, "export class Cache"),
            (21, 23, "get(key: string)"),
        ],
    );
    let outline = outline(Path::new("web/load.ts"), text).unwrap();
    assert_eq!(outline.definitions[2].doc.as_deref(), Some("Loads a file."));
}

#[test]
fn go_functions_methods_and_types() {
    let text = r#"package store

import (
	"fmt"
	"os"
)

const Limit = 3

// Store keeps things.
type Store struct {
	root string
}

// New makes a store.
func New(root string) *Store {
	return &Store{root: root}
}

func (s *Store) Size() (int, error) {
	entries, err := os.ReadDir(s.root)
	if err != nil {
		return 0, fmt.Errorf("size: %w", err)
	}
	return len(entries), nil
}
"#;
    check(
        "store/store.go",
        text,
        &[
            (8, 8, "const Limit"),
            (11, 13, "type Store struct"),
            (16, 18, "func New"),
            (20, 26, "func (s *Store) Size"),
        ],
    );
    let outline = outline(Path::new("store/store.go"), text).unwrap();
    assert_eq!(
        outline.definitions[1].doc.as_deref(),
        Some("Store keeps things.")
    );
    assert_eq!(
        outline.imports.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
        [4, 5]
    );
}

#[test]
fn the_rendered_outline_has_ranges_and_no_bodies() {
    let text = "use std::io;\n\n/// Runs.\npub fn run() -> io::Result<()> {\n    let secret_body = 1;\n    Ok(())\n}\n";
    let rendered = outline(Path::new("src/main.rs"), text)
        .unwrap()
        .render("src/main.rs");
    assert_eq!(
        rendered,
        "src/main.rs: Rust, 7 lines\nimports (lines 1): use std::io;\n4-7        pub fn run() -> io::Result<()>  // Runs.\n"
    );
    assert!(outline(Path::new("notes.txt"), "hello").is_none());
    assert_eq!(runs([1, 2, 3, 7, 9, 10].into_iter()), "1-3, 7, 9-10");
}
