//! The programming languages Iris knows, and the one table that tells a file's language by its
//! extension. The agent's tools (definitions, outlines) and the change analysis all ask here.

use std::path::Path;

/// A language Iris reads the structure of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// Rust (`.rs`).
    Rust,
    /// TypeScript (`.ts`, `.tsx`, `.mts`, `.cts`).
    TypeScript,
    /// JavaScript (`.js`, `.jsx`, `.mjs`, `.cjs`).
    JavaScript,
    /// Python (`.py`, `.pyi`).
    Python,
    /// Go (`.go`).
    Go,
    /// Kotlin (`.kt`, `.kts`).
    Kotlin,
    /// Swift (`.swift`).
    Swift,
    /// Ruby (`.rb`, `.rake`).
    Ruby,
    /// Lua (`.lua`).
    Lua,
    /// Shell scripts (`.sh`, `.bash`, `.zsh`).
    Shell,
}

/// Each language's file extensions, lower case.
const EXTENSIONS: &[(Language, &[&str])] = &[
    (Language::Rust, &["rs"]),
    (Language::TypeScript, &["ts", "tsx", "mts", "cts"]),
    (Language::JavaScript, &["js", "jsx", "mjs", "cjs"]),
    (Language::Python, &["py", "pyi"]),
    (Language::Go, &["go"]),
    (Language::Kotlin, &["kt", "kts"]),
    (Language::Swift, &["swift"]),
    (Language::Ruby, &["rb", "rake"]),
    (Language::Lua, &["lua"]),
    (Language::Shell, &["sh", "bash", "zsh"]),
];

impl Language {
    /// The language of a file, by its extension (in any case).
    pub fn of_path(path: impl AsRef<Path>) -> Option<Language> {
        let ext = path.as_ref().extension()?.to_str()?;
        EXTENSIONS
            .iter()
            .find(|(_, exts)| exts.iter().any(|e| e.eq_ignore_ascii_case(ext)))
            .map(|(language, _)| *language)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_found_by_extension() {
        assert_eq!(Language::of_path("a/b.tsx"), Some(Language::TypeScript));
        assert_eq!(Language::of_path("x.RS"), Some(Language::Rust));
        assert_eq!(Language::of_path("lib/tasks/db.rake"), Some(Language::Ruby));
        assert_eq!(Language::of_path("README.md"), None);
        assert_eq!(Language::of_path("Makefile"), None);
    }

    #[test]
    fn each_extension_belongs_to_one_language() {
        let mut seen = std::collections::HashSet::new();
        for (language, exts) in EXTENSIONS {
            assert!(!exts.is_empty(), "{language:?}");
            for ext in *exts {
                assert!(seen.insert(*ext), "{ext} twice");
                assert_eq!(Language::of_path(format!("f.{ext}")), Some(*language));
            }
        }
    }
}
