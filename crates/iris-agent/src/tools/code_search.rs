//! `code_search`: definitions, text or a regex across the repository, with ripgrep's own
//! library crates (no `rg` binary, no shell: the query is only ever a pattern).

use iris_studio_core::protocol::Risk;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use grep_regex::RegexMatcher;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::definitions::{DefinitionKind, LanguagePatterns, is_statement};
use super::lines::{line_matcher, line_searcher, matching_lines, trim_line};
use super::{IrisTool, ToolContext, ToolFailure, blocking};
use iris_studio_workspace::Boundary;

const DEFAULT_RESULTS: usize = 20;
const MAX_RESULTS: usize = 100;
/// A matched line is shown up to this many characters.
const MAX_LINE_CHARS: usize = 300;

/// `function`, `class` and `variable` find definitions of a name; `text` finds a literal,
/// ignoring case; `pattern` finds a regular expression.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
pub enum SearchType {
    Function,
    Class,
    Variable,
    #[default]
    Text,
    Pattern,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct CodeSearchArgs {
    /// What to find.
    pub query: String,
    /// What the query is (default text).
    #[serde(default)]
    pub search_type: SearchType,
    /// Only files matching this glob.
    #[serde(default)]
    pub file_pattern: Option<String>,
    /// Default 20, at most 100.
    #[serde(default)]
    pub max_results: Option<usize>,
}

/// The answer, its fields in the order the model reads them.
#[derive(Serialize)]
struct Answer<'a> {
    query: &'a str,
    search_type: SearchType,
    results: Vec<Hit>,
    total_found: usize,
    max_results: usize,
}

#[derive(Debug, Serialize)]
struct Hit {
    file: String,
    line: u64,
    content: String,
}

/// What decides whether a line matches: one matcher for every file, or one per language.
enum Matchers {
    Every(RegexMatcher),
    PerLanguage(Vec<(&'static str, RegexMatcher)>),
}

impl Matchers {
    fn build(query: &str, search_type: SearchType) -> Result<Self, ToolFailure> {
        let kind =
            match search_type {
                SearchType::Text => {
                    return line_matcher(&regex::escape(query), true)
                        .map(Matchers::Every)
                        .map_err(ToolFailure::new);
                }
                SearchType::Pattern => {
                    return line_matcher(query, false).map(Matchers::Every).map_err(|e| {
                    ToolFailure::new(format!(
                        "invalid regular expression '{query}': {e}\n(use search_type \"text\" \
                         to search for it literally)"
                    ))
                });
                }
                SearchType::Function => DefinitionKind::Function,
                SearchType::Class => DefinitionKind::Type,
                SearchType::Variable => DefinitionKind::Variable,
            };
        if !query
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            return Err(ToolFailure::new(format!(
                "a definition search takes a name (letters, digits, '_' or '$'), not '{query}'; \
                 use search_type \"text\" or \"pattern\" for other queries"
            )));
        }
        // The name ignores case (`parse` finds `ParseArgs`); the keywords around it do not.
        let name = format!(r"(?i:[\w$]*{}[\w$]*)", regex::escape(query));
        let mut matchers = Vec::new();
        for lang in super::definitions::LANGUAGES {
            if let Some(matcher) = lang
                .definitions(&[kind], &name, true)
                .map_err(ToolFailure::new)?
            {
                matchers.push((lang.name, matcher));
            }
        }
        Ok(Matchers::PerLanguage(matchers))
    }

    fn for_file(&self, path: &std::path::Path) -> Option<&RegexMatcher> {
        match self {
            Matchers::Every(matcher) => Some(matcher),
            Matchers::PerLanguage(matchers) => {
                let lang = LanguagePatterns::of(path)?;
                matchers
                    .iter()
                    .find(|(name, _)| *name == lang.name)
                    .map(|(_, m)| m)
            }
        }
    }

    fn is_definition_search(&self) -> bool {
        matches!(self, Matchers::PerLanguage(_))
    }
}

pub struct CodeSearch;

impl IrisTool for CodeSearch {
    const NAME: &'static str = "code_search";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Finds text, a regex (pattern) or where a \
        function/class/variable is defined.";
    type Args = CodeSearchArgs;

    async fn run(&self, ctx: &ToolContext, args: CodeSearchArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl CodeSearch {
    fn run_blocking(ctx: &ToolContext, args: CodeSearchArgs) -> Result<String, ToolFailure> {
        if args.query.trim().is_empty() {
            return Err(ToolFailure::new("query is empty: say what to search for"));
        }
        let max_results = args
            .max_results
            .unwrap_or(DEFAULT_RESULTS)
            .clamp(1, MAX_RESULTS);
        let workspace = Boundary::open(&ctx.repo_root)?;
        let matchers = Matchers::build(&args.query, args.search_type)?;
        let (results, total_found) = search(
            &workspace,
            &matchers,
            args.file_pattern.as_deref(),
            max_results,
        )?;
        let answer = Answer {
            query: &args.query,
            search_type: args.search_type,
            results,
            total_found,
            max_results,
        };
        serde_json::to_string_pretty(&answer)
            .map_err(|e| ToolFailure::new(format!("could not render the results: {e}")))
    }
}

/// The first `max_results` matches in path and line order, and how many there are in all.
fn search(
    workspace: &Boundary,
    matchers: &Matchers,
    file_pattern: Option<&str>,
    max_results: usize,
) -> Result<(Vec<Hit>, usize), ToolFailure> {
    let kept = Mutex::new(Vec::<Hit>::new());
    let total = AtomicUsize::new(0);
    workspace.par_files(file_pattern, line_searcher, |searcher, path, relative| {
        let Some(matcher) = matchers.for_file(path) else {
            return;
        };
        let mut found = 0;
        let mut hits = Vec::new();
        matching_lines(searcher, matcher, path, |line, content| {
            if matchers.is_definition_search() && is_statement(content) {
                return true;
            }
            found += 1;
            if hits.len() < max_results {
                hits.push(Hit {
                    file: relative.clone(),
                    line,
                    content: trim_line(content, MAX_LINE_CHARS),
                });
            }
            true
        });
        if found == 0 {
            return;
        }
        total.fetch_add(found, Ordering::Relaxed);
        if let Ok(mut kept) = kept.lock() {
            kept.extend(hits);
            // Keep memory bounded on very common matches: only the first ones can be shown.
            if kept.len() > 4 * max_results {
                first_in_order(&mut kept, max_results);
            }
        }
    })?;
    let mut kept = kept
        .into_inner()
        .map_err(|_| ToolFailure::new("the search stopped unexpectedly"))?;
    first_in_order(&mut kept, max_results);
    Ok((kept, total.into_inner()))
}

fn first_in_order(hits: &mut Vec<Hit>, n: usize) {
    hits.sort_by(|a, b| a.file.cmp(&b.file).then(a.line.cmp(&b.line)));
    hits.truncate(n);
}
