//! `repo_map`: an outline of the repository's most telling files (their definitions and
//! imports), ranked, with changed and mentioned files first, within a token budget.

use iris_studio_core::protocol::Risk;
use std::fmt::Write;
use std::path::Path;
use std::sync::Mutex;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::definitions::{LanguageMatchers, LanguagePatterns, is_statement, language_matchers};
use super::lines::{line_searcher, matching_lines_in, trim_line};
use super::{IrisTool, ToolContext, ToolFailure, blocking};
use iris_studio_workspace::{Boundary, FileText, read_text};

const DEFAULT_TOKEN_BUDGET: usize = 2_000;
const MIN_TOKEN_BUDGET: usize = 200;
const MAX_TOKEN_BUDGET: usize = 8_000;
const DEFAULT_MAX_FILES: usize = 60;
const MAX_MAX_FILES: usize = 200;
const DEFINITIONS_PER_FILE: usize = 12;
const IMPORTS_PER_FILE: usize = 6;
/// A definition or import line is shown up to this many characters.
const MAX_LINE_CHARS: usize = 120;
/// Files larger than this are generated or data: not outlined.
const MAX_FILE_BYTES: u64 = 512 * 1024;
/// Paths listed in `changed_files` at most.
const MAX_LISTED_CHANGES: usize = 50;
/// A rough rule for code and English: a token is about four characters.
const CHARS_PER_TOKEN: usize = 4;
const CHANGED_BOOST: f64 = 25.0;
const MENTIONED_BOOST: f64 = 100.0;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RepoMapArgs {
    /// Size of the map in tokens (about 4 characters each): default 2000, at most 8000.
    #[serde(default)]
    pub token_budget: Option<usize>,
    /// Files or directories (relative to the repository root) to rank first.
    #[serde(default)]
    pub mentioned_files: Vec<String>,
    /// How many files the map may show (1-200, default 60).
    #[serde(default)]
    pub max_files: Option<usize>,
}

/// The answer, its fields in the order the model reads them.
#[derive(Serialize)]
struct Answer<'a> {
    files_analyzed: usize,
    files_shown: usize,
    changed_files: Vec<&'a str>,
    mentioned_files: &'a [String],
    content: String,
}

/// One file's outline.
#[derive(Debug, Default)]
struct Outline {
    path: String,
    definitions: Vec<String>,
    definition_count: usize,
    imports: Vec<String>,
    import_count: usize,
    changed: bool,
    mentioned: bool,
}

impl Outline {
    fn score(&self) -> f64 {
        let mut score =
            self.definition_count.min(30) as f64 + self.import_count.min(15) as f64 * 0.5;
        if self.changed {
            score += CHANGED_BOOST;
        }
        if self.mentioned {
            score += MENTIONED_BOOST;
        }
        score
    }

    fn render(&self) -> String {
        let mut marks = Vec::new();
        if self.mentioned {
            marks.push("mentioned");
        }
        if self.changed {
            marks.push("changed");
        }
        let marks = if marks.is_empty() {
            String::new()
        } else {
            format!(" [{}]", marks.join(", "))
        };
        let mut out = format!(
            "{}{marks} ({} definitions, {} imports)\n",
            self.path, self.definition_count, self.import_count
        );
        if !self.imports.is_empty() {
            let _ = writeln!(out, "  imports: {}", self.imports.join(" | "));
        }
        for definition in &self.definitions {
            let _ = writeln!(out, "  {definition}");
        }
        let more = self.definition_count - self.definitions.len();
        if more > 0 {
            let _ = writeln!(out, "  … {more} more definitions");
        }
        out
    }
}

/// Paths (files, or directories ending in `/`) that a file may fall under.
struct PathSet(Vec<String>);

impl PathSet {
    fn contains(&self, path: &str) -> bool {
        self.0.iter().any(|p| {
            p == path
                || (path.starts_with(p.as_str())
                    && (p.ends_with('/') || path[p.len()..].starts_with('/')))
        })
    }
}

pub struct RepoMap;

impl IrisTool for RepoMap {
    const NAME: &'static str = "repo_map";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "A map of the repository: its most telling source files \
        (ranked by definitions and imports, changed and mentioned files first) with their \
        imports and definitions, within token_budget. Use it to find where things live before \
        reading files. Returns JSON {files_analyzed, files_shown, changed_files, \
        mentioned_files, content}.";
    type Args = RepoMapArgs;

    async fn run(&self, ctx: &ToolContext, args: RepoMapArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl RepoMap {
    fn run_blocking(ctx: &ToolContext, args: RepoMapArgs) -> Result<String, ToolFailure> {
        let budget = args
            .token_budget
            .unwrap_or(DEFAULT_TOKEN_BUDGET)
            .clamp(MIN_TOKEN_BUDGET, MAX_TOKEN_BUDGET);
        let max_files = args
            .max_files
            .unwrap_or(DEFAULT_MAX_FILES)
            .clamp(1, MAX_MAX_FILES);
        let workspace = Boundary::open(&ctx.repo_root)?;
        let mut mentioned = Vec::new();
        for path in &args.mentioned_files {
            let resolved = workspace.resolve(path)?;
            let mut relative = workspace.relative(&resolved.absolute);
            if resolved.absolute.is_dir() {
                relative.push('/');
            }
            mentioned.push(relative);
        }
        let mentioned = PathSet(mentioned);
        let changed = PathSet(
            ctx.repo()?
                .status()?
                .entries
                .into_iter()
                .map(|e| e.path)
                .collect(),
        );

        let mut outlines = outline_files(&workspace, &changed, &mentioned)?;
        let files_analyzed = outlines.len();
        outlines.sort_by(|a, b| b.score().total_cmp(&a.score()).then(a.path.cmp(&b.path)));
        let (content, files_shown) = render(&outlines, budget, max_files);

        let changed_files: Vec<&str> = outlines
            .iter()
            .filter(|o| o.changed)
            .map(|o| o.path.as_str())
            .take(MAX_LISTED_CHANGES)
            .collect();
        let answer = Answer {
            files_analyzed,
            files_shown,
            changed_files,
            mentioned_files: &mentioned.0,
            content,
        };
        serde_json::to_string_pretty(&answer)
            .map_err(|e| ToolFailure::new(format!("could not render the map: {e}")))
    }
}

/// Outlines every source file in a known language, and every changed or mentioned file.
fn outline_files(
    workspace: &Boundary,
    changed: &PathSet,
    mentioned: &PathSet,
) -> Result<Vec<Outline>, ToolFailure> {
    let matchers = language_matchers()?;
    let outlines = Mutex::new(Vec::new());
    workspace.par_files(None, line_searcher, |searcher, path, relative| {
        let mut outline = Outline {
            changed: changed.contains(&relative),
            mentioned: mentioned.contains(&relative),
            path: relative,
            ..Outline::default()
        };
        let language = LanguagePatterns::of(path)
            .and_then(|lang| matchers.iter().find(|m| m.name == lang.name));
        match language {
            Some(language) => outline_source(searcher, language, path, &mut outline),
            None if outline.changed || outline.mentioned => {}
            None => return,
        }
        if let Ok(mut outlines) = outlines.lock() {
            outlines.push(outline);
        }
    })?;
    outlines
        .into_inner()
        .map_err(|_| ToolFailure::new("the repository walk stopped unexpectedly"))
}

fn outline_source(
    searcher: &mut grep_searcher::Searcher,
    language: &LanguageMatchers,
    path: &Path,
    outline: &mut Outline,
) {
    let Ok(FileText::Text(text)) = read_text(path, MAX_FILE_BYTES) else {
        return;
    };
    for definitions in [&language.definitions, &language.constants]
        .into_iter()
        .flatten()
    {
        matching_lines_in(searcher, definitions, text.as_bytes(), |_, line| {
            if !is_statement(line) {
                outline.definition_count += 1;
                if outline.definitions.len() < DEFINITIONS_PER_FILE {
                    outline.definitions.push(signature(line));
                }
            }
            true
        });
    }
    if let Some(imports) = &language.imports {
        matching_lines_in(searcher, imports, text.as_bytes(), |_, line| {
            outline.import_count += 1;
            if outline.imports.len() < IMPORTS_PER_FILE {
                outline.imports.push(signature(line));
            }
            true
        });
    }
}

/// A definition or import line, shortened: no body opener, no statement end.
fn signature(line: &str) -> String {
    trim_line(line, MAX_LINE_CHARS)
        .trim_end_matches(['{', ';', ' '])
        .to_string()
}

/// The map's text: whole file outlines in rank order while they fit the budget, then a line
/// about what was left out. Returns the text and how many files it shows.
fn render(outlines: &[Outline], budget_tokens: usize, max_files: usize) -> (String, usize) {
    let budget = budget_tokens * CHARS_PER_TOKEN;
    // Room kept for the closing line.
    let reserve = 120;
    let mut content = String::new();
    let mut shown = 0;
    for outline in outlines.iter().take(max_files) {
        let block = outline.render();
        if content.len() + block.len() + reserve > budget {
            break;
        }
        content.push_str(&block);
        shown += 1;
    }
    if outlines.is_empty() {
        content.push_str("No source files found (none in a known language, or all ignored).\n");
    } else if shown < outlines.len() {
        let _ = writeln!(
            content,
            "[{} more files not shown; raise token_budget or max_files, or name files in \
             mentioned_files]",
            outlines.len() - shown
        );
    }
    (content, shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(path: &str, definitions: usize) -> Outline {
        Outline {
            path: path.to_string(),
            definitions: (0..definitions.min(DEFINITIONS_PER_FILE))
                .map(|i| format!("fn f{i}()"))
                .collect(),
            definition_count: definitions,
            ..Outline::default()
        }
    }

    #[test]
    fn boosts_outrank_size_and_the_budget_holds() {
        let mut small_changed = outline("b.rs", 1);
        small_changed.changed = true;
        let mut mentioned = outline("c.rs", 0);
        mentioned.mentioned = true;
        let mut outlines = vec![outline("a.rs", 20), small_changed, mentioned];
        outlines.sort_by(|a, b| b.score().total_cmp(&a.score()));
        let order: Vec<&str> = outlines.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(order, ["c.rs", "b.rs", "a.rs"]);

        let (content, shown) = render(&outlines, MIN_TOKEN_BUDGET, 10);
        assert!(content.len() <= MIN_TOKEN_BUDGET * CHARS_PER_TOKEN);
        assert_eq!(shown, 3, "{content}");
        let (content, shown) = render(&outlines, MIN_TOKEN_BUDGET, 1);
        assert_eq!(shown, 1);
        assert!(content.contains("[2 more files not shown"), "{content}");
    }

    #[test]
    fn path_sets_match_files_and_directories() {
        let set = PathSet(vec!["src/a.rs".into(), "docs/".into(), "lib".into()]);
        assert!(set.contains("src/a.rs"));
        assert!(set.contains("docs/guide.md"));
        assert!(set.contains("lib/x.rs"));
        assert!(!set.contains("library.rs"));
        assert!(!set.contains("src/a.rs.bak"));
    }
}
