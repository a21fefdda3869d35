//! Where definitions and imports are in each language, as line patterns shared by `code_search`
//! (definitions of a name) and `repo_map` (every definition of a file).
//!
//! Each pattern matches one line. `{name}` stands for the defined name: a pattern around the
//! query for a search, any identifier for a map. Patterns are compiled with line semantics (see
//! [`super::lines::line_matcher`]): `^` is a line start and `\s` never crosses a line.

use std::path::Path;
use std::sync::OnceLock;

use grep_regex::RegexMatcher;

use super::ToolFailure;
use super::lines::line_matcher;
use iris_studio_core::languages::Language;

/// The placeholder for the defined name in a pattern.
const NAME: &str = "{name}";
/// Any identifier, for listing every definition.
pub const ANY_NAME: &str = r"[A-Za-z_$][\w$]*";

/// What kind of definition to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefinitionKind {
    Function,
    /// Classes, structs, enums, traits, interfaces, type aliases, modules.
    Type,
    /// Module-level constants and variables and, for a search, local bindings too.
    Variable,
}

/// The definition and import patterns of one language, or of a few that share them.
pub struct LanguagePatterns {
    pub name: &'static str,
    pub languages: &'static [Language],
    functions: &'static [&'static str],
    types: &'static [&'static str],
    /// Module-level bindings: part of a file's outline.
    constants: &'static [&'static str],
    /// Bindings inside bodies: searched for, but too noisy for an outline.
    locals: &'static [&'static str],
    imports: &'static [&'static str],
}

const RUST_VIS: &str = r"(?:pub(?:\([^)]*\))?\s+)?";

pub static LANGUAGES: &[LanguagePatterns] = &[
    LanguagePatterns {
        name: "Rust",
        languages: &[Language::Rust],
        functions: &[
            r#"^\s*{vis}(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+{name}\b"#,
        ],
        types: &[
            r"^\s*{vis}(?:unsafe\s+)?(?:struct|enum|trait|union|type)\s+{name}\b",
            r"^\s*(?:unsafe\s+)?impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?{name}\b",
        ],
        constants: &[r"^\s*{vis}(?:const|static(?:\s+mut)?)\s+{name}\b"],
        locals: &[r"\blet\s+(?:mut\s+)?{name}\b"],
        imports: &[r"^\s*{vis}use\s+\S.*", r"^\s*{vis}mod\s+\w+\s*;"],
    },
    LanguagePatterns {
        name: "TypeScript/JavaScript",
        languages: &[Language::TypeScript, Language::JavaScript],
        functions: &[
            r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*{name}\b",
            r"^\s*(?:export\s+)?(?:const|let|var)\s+{name}\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)",
            r"^\s+(?:(?:public|private|protected|static|async|override|readonly|get|set)\s+)*{name}\s*(?:<[^>]*>)?\([^)]*\)\s*(?::[^={]+)?\{\s*$",
        ],
        types: &[
            r"^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:const\s+)?(?:class|interface|type|enum)\s+{name}\b",
        ],
        constants: &[r"^(?:export\s+)?(?:const|let|var)\s+{name}\b"],
        locals: &[r"^\s+(?:const|let|var)\s+{name}\b"],
        imports: &[
            r"^\s*import\s.+",
            r"^\s*(?:const|let|var)\s.+=\s*require\(.+",
            r"^\s*export\s.+\sfrom\s.+",
        ],
    },
    LanguagePatterns {
        name: "Python",
        languages: &[Language::Python],
        functions: &[r"^\s*(?:async\s+)?def\s+{name}\b"],
        types: &[r"^\s*class\s+{name}\b"],
        constants: &[r"^{name}\s*(?::[^=]+)?=[^=]"],
        locals: &[r"^\s+(?:self\.)?{name}\s*(?::[^=]+)?=[^=]"],
        imports: &[r"^\s*(?:from\s+\S+\s+)?import\s.+"],
    },
    LanguagePatterns {
        name: "Go",
        languages: &[Language::Go],
        functions: &[r"^func\s+(?:\([^)]*\)\s*)?{name}\b"],
        types: &[
            r"^\s*type\s+{name}\b",
            r"^\s+{name}\s+(?:struct|interface)\s*\{",
        ],
        constants: &[r"^(?:var|const)\s+{name}\b"],
        locals: &[r"^\s+var\s+{name}\b", r"^\s+{name}\s*(?:,\s*\w+\s*)*:="],
        imports: &[
            r#"^import\s+(?:[\w.]+\s+)?"[^"]+""#,
            r#"^\s+(?:[\w.]+\s+)?"[^"\s]+"\s*$"#,
        ],
    },
    LanguagePatterns {
        name: "Kotlin/Swift",
        languages: &[Language::Kotlin, Language::Swift],
        functions: &[
            r"^\s*(?:(?:public|private|internal|protected|open|override|static|final|inline|suspend|class|mutating|@\w+)\s+)*(?:fun|func)\s+(?:<[^>]*>\s*)?(?:[\w.<>]+\.)?{name}\b",
        ],
        types: &[
            r"^\s*(?:(?:public|private|internal|protected|open|final|abstract|sealed|data|enum|annotation|inner|value|indirect)\s+)*(?:class|interface|object|struct|enum|protocol|extension|actor|typealias)\s+{name}\b",
        ],
        constants: &[
            r"^(?:(?:public|private|internal|const|static)\s+)*(?:val|var|let)\s+{name}\b",
        ],
        locals: &[r"^\s+(?:val|var|let)\s+{name}\b"],
        imports: &[r"^\s*import\s+\S+.*"],
    },
    LanguagePatterns {
        name: "Ruby",
        languages: &[Language::Ruby],
        functions: &[r"^\s*def\s+(?:self\.)?{name}"],
        types: &[r"^\s*(?:class|module)\s+(?:[\w:]+::)?{name}\b"],
        constants: &[],
        locals: &[r"^\s+@?{name}\s*=[^=~]"],
        imports: &[r#"^\s*(?:require|require_relative|load)\s*\(?\s*['"][^'"]+['"]"#],
    },
    LanguagePatterns {
        name: "Lua",
        languages: &[Language::Lua],
        functions: &[
            r"^\s*(?:local\s+)?function\s+(?:[\w.]+[.:])?{name}\b",
            r"^\s*(?:local\s+)?(?:[\w.]+\.)?{name}\s*=\s*function\b",
        ],
        types: &[],
        constants: &[],
        locals: &[r"^\s*local\s+{name}\b"],
        imports: &[r#"\brequire\s*\(?\s*['"][^'"]+['"]"#],
    },
    LanguagePatterns {
        name: "Shell",
        languages: &[Language::Shell],
        functions: &[r"^\s*function\s+{name}\b", r"^\s*{name}\s*\(\)"],
        types: &[],
        constants: &[r"^(?:export\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?{name}="],
        locals: &[r"^\s+(?:local\s+)?{name}="],
        imports: &[r"^\s*(?:source|\.)\s+\S+"],
    },
];

/// The compiled patterns of one language.
pub struct LanguageMatchers {
    pub name: &'static str,
    /// Functions and types: what an outline shows first.
    pub definitions: Option<RegexMatcher>,
    /// Module-level constants and variables: shown when there is room left.
    pub constants: Option<RegexMatcher>,
    pub imports: Option<RegexMatcher>,
}

/// Every language's matchers, compiled once per process (tens of milliseconds): a session
/// that maps the repository (or outlines a file) again pays only for the work.
pub fn language_matchers() -> Result<&'static [LanguageMatchers], ToolFailure> {
    use DefinitionKind::*;
    static MATCHERS: OnceLock<Result<Vec<LanguageMatchers>, String>> = OnceLock::new();
    let compiled = MATCHERS.get_or_init(|| {
        LANGUAGES
            .iter()
            .map(|lang| {
                Ok(LanguageMatchers {
                    name: lang.name,
                    definitions: lang.definitions(&[Function, Type], ANY_NAME, false)?,
                    constants: lang.definitions(&[Variable], ANY_NAME, false)?,
                    imports: lang.imports()?,
                })
            })
            .collect()
    });
    compiled
        .as_deref()
        .map_err(|err| ToolFailure::new(err.clone()))
}

/// Words that open a statement, never a definition (a method pattern would take `if (x) {`).
const STATEMENT_KEYWORDS: &[&str] = &[
    "if", "else", "for", "while", "switch", "catch", "return", "do", "with", "elif", "except",
    "match", "unless", "until", "when", "guard",
];

impl LanguagePatterns {
    /// The patterns for a file, by its language.
    pub fn of(path: &Path) -> Option<&'static LanguagePatterns> {
        let language = Language::of_path(path)?;
        LANGUAGES
            .iter()
            .find(|patterns| patterns.languages.contains(&language))
    }

    /// A matcher for definitions of these kinds whose name matches `name` (a regex), or `None`
    /// when the language has no pattern for them. `locals` adds bindings inside bodies.
    pub fn definitions(
        &self,
        kinds: &[DefinitionKind],
        name: &str,
        locals: bool,
    ) -> Result<Option<RegexMatcher>, String> {
        let mut patterns: Vec<&str> = Vec::new();
        for kind in kinds {
            match kind {
                DefinitionKind::Function => patterns.extend(self.functions),
                DefinitionKind::Type => patterns.extend(self.types),
                DefinitionKind::Variable => {
                    patterns.extend(self.constants);
                    if locals {
                        patterns.extend(self.locals);
                    }
                }
            }
        }
        compile(&patterns, name)
    }

    /// A matcher for import lines, or `None` when the language has none.
    pub fn imports(&self) -> Result<Option<RegexMatcher>, String> {
        compile(self.imports, ANY_NAME)
    }
}

fn compile(patterns: &[&str], name: &str) -> Result<Option<RegexMatcher>, String> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let name = format!("(?:{name})");
    let alternation = patterns
        .iter()
        .map(|p| format!("(?:{})", p.replace("{vis}", RUST_VIS).replace(NAME, &name)))
        .collect::<Vec<_>>()
        .join("|");
    line_matcher(&alternation, false).map(Some)
}

/// Whether a matched line is a statement rather than a definition.
pub fn is_statement(line: &str) -> bool {
    let first = line
        .trim_start()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    STATEMENT_KEYWORDS.contains(&first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grep_matcher::Matcher;

    fn matches(lang: &str, kinds: &[DefinitionKind], locals: bool, line: &str) -> bool {
        let language = LANGUAGES.iter().find(|l| l.name == lang).expect("language");
        let matcher = language
            .definitions(kinds, ANY_NAME, locals)
            .expect("compiles")
            .expect("has patterns");
        matcher.is_match(line.as_bytes()).expect("match") && !is_statement(line)
    }

    #[test]
    fn every_pattern_compiles() {
        use DefinitionKind::*;
        for lang in LANGUAGES {
            lang.definitions(&[Function, Type, Variable], ANY_NAME, true)
                .unwrap_or_else(|e| panic!("{}: {e}", lang.name));
            lang.imports()
                .unwrap_or_else(|e| panic!("{}: {e}", lang.name));
        }
    }

    #[test]
    fn definitions_are_recognised_per_language() {
        use DefinitionKind::*;
        assert!(matches(
            "Rust",
            &[Function],
            false,
            "pub(crate) async fn run() {"
        ));
        assert!(matches("Rust", &[Type], false, "pub struct Config {"));
        assert!(matches(
            "Rust",
            &[Type],
            false,
            "impl<T: Tool> Tool for Adapter<T> {"
        ));
        assert!(!matches("Rust", &[Function], false, "    run();"));
        assert!(matches(
            "TypeScript/JavaScript",
            &[Function],
            false,
            "export const load = async (x) => {"
        ));
        assert!(matches(
            "TypeScript/JavaScript",
            &[Function],
            false,
            "  async fetchAll(id: string): Promise<void> {"
        ));
        assert!(!matches(
            "TypeScript/JavaScript",
            &[Function],
            false,
            "  if (ready) {"
        ));
        assert!(matches(
            "TypeScript/JavaScript",
            &[Type],
            false,
            "export interface Props {"
        ));
        assert!(matches(
            "Python",
            &[Function],
            false,
            "    async def handle(self):"
        ));
        assert!(matches("Python", &[Variable], false, "MAX_SIZE = 10"));
        assert!(!matches("Python", &[Variable], false, "    total = 0"));
        assert!(matches("Python", &[Variable], true, "    total = 0"));
        assert!(!matches("Python", &[Variable], true, "    if a == b:"));
        assert!(matches(
            "Go",
            &[Function],
            false,
            "func (s *Server) Start(ctx context.Context) error {"
        ));
        assert!(matches("Go", &[Type], false, "type Server struct {"));
        assert!(matches(
            "Kotlin/Swift",
            &[Function],
            false,
            "    override fun onCreate() {"
        ));
        assert!(matches("Ruby", &[Type], false, "class Admin::User < Base"));
        assert!(matches("Lua", &[Function], false, "function M.setup(opts)"));
        assert!(matches("Shell", &[Function], false, "build_all() {"));
    }

    #[test]
    fn languages_are_found_by_extension() {
        assert_eq!(
            LanguagePatterns::of(Path::new("a/b.tsx")).map(|l| l.name),
            Some("TypeScript/JavaScript")
        );
        assert_eq!(
            LanguagePatterns::of(Path::new("x.RS")).map(|l| l.name),
            Some("Rust")
        );
        assert!(LanguagePatterns::of(Path::new("README.md")).is_none());
    }
}
