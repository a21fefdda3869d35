//! `project_docs`: the project's own documents (README, contributing guide, changelog, license,
//! code of conduct) and the instructions it leaves for coding agents.

use iris_studio_core::protocol::Risk;
use std::fmt::Write;

use schemars::JsonSchema;
use serde::Deserialize;

use super::{IrisTool, ToolContext, ToolFailure, blocking, bound_output};
use iris_studio_workspace::{Boundary, FileText, read_text};

const DEFAULT_MAX_CHARS: usize = 20_000;
const MIN_MAX_CHARS: usize = 200;
const MAX_MAX_CHARS: usize = 100_000;
/// Documents larger than this are not read at all.
const MAX_DOC_BYTES: u64 = 4 << 20;
/// In `context`, the README keeps at least this share of the budget (in fifths).
const README_MIN_FIFTHS: usize = 2;
/// A document cut shorter than this is left out of `context` instead.
const MIN_USEFUL_CHARS: usize = 100;

/// Which documents: one kind, `context` (a concise README plus agent instructions) or `all`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline)]
pub enum DocType {
    #[default]
    Readme,
    Contributing,
    Changelog,
    License,
    CodeOfConduct,
    Agents,
    Context,
    All,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ProjectDocsArgs {
    /// `readme` (default), `contributing`, `changelog`, `license`, `code_of_conduct`, `agents`
    /// (instructions for coding agents), `context` (concise README plus agent instructions) or `all`.
    #[serde(default)]
    pub doc_type: DocType,
    /// Bound on each document in characters (default 20000); for `context`, on the whole answer.
    #[serde(default)]
    pub max_chars: Option<usize>,
}

/// How a document's file name is recognised (case-insensitively) in a directory.
#[derive(Clone, Copy)]
enum Name {
    Exact(&'static str),
    Prefix(&'static str),
    AnyFile,
}

/// A place a document may be: a directory of the repository ("" for the root) and a name.
type Place = (&'static str, Name);

struct Kind {
    label: &'static str,
    places: &'static [Place],
    /// Only the first document found (README.md and README.rst are the same document).
    first_only: bool,
}

const README: Kind = Kind {
    label: "README",
    places: &[
        ("", Name::Exact("README.md")),
        ("", Name::Exact("README.rst")),
        ("", Name::Exact("README.txt")),
        ("", Name::Exact("README")),
    ],
    first_only: true,
};
const CONTRIBUTING: Kind = Kind {
    label: "contributing guide",
    places: &[
        ("", Name::Exact("CONTRIBUTING.md")),
        ("", Name::Exact("CONTRIBUTING.rst")),
        (".github", Name::Exact("CONTRIBUTING.md")),
        ("docs", Name::Exact("CONTRIBUTING.md")),
    ],
    first_only: true,
};
const CHANGELOG: Kind = Kind {
    label: "changelog",
    places: &[
        ("", Name::Exact("CHANGELOG.md")),
        ("", Name::Exact("HISTORY.md")),
        ("", Name::Exact("CHANGES.md")),
    ],
    first_only: true,
};
const LICENSE: Kind = Kind {
    label: "license",
    places: &[
        ("", Name::Prefix("LICENSE")),
        ("", Name::Prefix("LICENCE")),
        ("", Name::Exact("COPYING")),
    ],
    first_only: false,
};
const CODE_OF_CONDUCT: Kind = Kind {
    label: "code of conduct",
    places: &[
        ("", Name::Exact("CODE_OF_CONDUCT.md")),
        (".github", Name::Exact("CODE_OF_CONDUCT.md")),
    ],
    first_only: true,
};
const AGENTS: Kind = Kind {
    label: "agent instructions",
    places: &[
        ("", Name::Exact("AGENTS.md")),
        ("", Name::Exact("CLAUDE.md")),
        ("", Name::Exact("GEMINI.md")),
        (".github", Name::Exact("copilot-instructions.md")),
        ("", Name::Exact(".cursorrules")),
        (".cursor/rules", Name::AnyFile),
        ("", Name::Exact(".windsurfrules")),
        ("", Name::Exact(".clinerules")),
    ],
    first_only: false,
};

impl Kind {
    fn looked_for(&self) -> String {
        self.places
            .iter()
            .map(|(dir, name)| {
                let name = match name {
                    Name::Exact(n) => n.to_string(),
                    Name::Prefix(p) => format!("{p}*"),
                    Name::AnyFile => "*".to_string(),
                };
                if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The documents of this kind present in the repository, as paths relative to its root.
    fn find(&self, workspace: &Boundary) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        for (dir, name) in self.places {
            let Ok(entries) = std::fs::read_dir(workspace.root().join(dir)) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|file| match name {
                    Name::Exact(n) => file.eq_ignore_ascii_case(n),
                    Name::Prefix(p) => file.to_ascii_uppercase().starts_with(p),
                    Name::AnyFile => true,
                })
                .collect();
            names.sort();
            for file in names {
                let path = if dir.is_empty() {
                    file
                } else {
                    format!("{dir}/{file}")
                };
                if !found.contains(&path) {
                    found.push(path);
                }
            }
            if self.first_only && !found.is_empty() {
                break;
            }
        }
        found
    }
}

/// One document, read within the boundary.
enum Doc {
    Text { path: String, text: String },
    Unreadable { path: String, why: String },
}

impl Doc {
    fn read(workspace: &Boundary, path: &str) -> Doc {
        let unreadable = |why: String| Doc::Unreadable {
            path: path.to_string(),
            why,
        };
        let resolved = match workspace.resolve(path) {
            Ok(resolved) => resolved,
            Err(refused) => return unreadable(refused.0),
        };
        match read_text(&resolved.absolute, MAX_DOC_BYTES) {
            Ok(FileText::Text(text)) => Doc::Text {
                path: path.to_string(),
                text,
            },
            Ok(FileText::Binary { bytes }) => unreadable(format!("a binary file of {bytes} bytes")),
            Ok(FileText::TooLarge { bytes }) => {
                unreadable(format!("{bytes} bytes, too large to read; use file_read"))
            }
            Err(e) => unreadable(format!("cannot be read: {e}")),
        }
    }

    fn path(&self) -> &str {
        let (Doc::Text { path, .. } | Doc::Unreadable { path, .. }) = self;
        path
    }

    fn how_to_see_more(&self) -> String {
        format!(
            "read the rest with file_read {{\"path\": \"{}\"}}",
            self.path()
        )
    }

    /// The document under a header, its text cut at `max_chars`.
    fn render(&self, max_chars: usize) -> String {
        match self {
            Doc::Text { path, text } => {
                let body = bound_output(text.clone(), max_chars, &self.how_to_see_more());
                let mut out = format!("=== {path} ===\n{body}");
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push('\n');
                out
            }
            Doc::Unreadable { path, why } => format!("=== {path} === not shown: {why}\n\n"),
        }
    }

    /// The document rendered in at most `total` characters, header and cut note included, or
    /// `None` when too little of it would fit to be of use.
    fn render_within(&self, total: usize) -> Option<String> {
        let whole = self.render(usize::MAX);
        if whole.chars().count() <= total {
            return Some(whole);
        }
        // The header, the closing blank line and bound_output's note (its figures included).
        let overhead = self.path().len() + 10 + 60 + self.how_to_see_more().len();
        let body = total
            .checked_sub(overhead)
            .filter(|&b| b >= MIN_USEFUL_CHARS)?;
        Some(self.render(body))
    }
}

pub struct ProjectDocs;

impl IrisTool for ProjectDocs {
    const NAME: &'static str = "project_docs";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "The project's documents: readme (default), contributing, \
        changelog, license, code_of_conduct, agents (AGENTS.md, CLAUDE.md, \
        .github/copilot-instructions.md, .cursorrules and the like), context (a concise README \
        plus the agent instructions, within max_chars together) or all. Each document is cut at \
        max_chars (default 20000).";
    type Args = ProjectDocsArgs;

    async fn run(&self, ctx: &ToolContext, args: ProjectDocsArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl ProjectDocs {
    fn run_blocking(ctx: &ToolContext, args: ProjectDocsArgs) -> Result<String, ToolFailure> {
        let max_chars = args
            .max_chars
            .unwrap_or(DEFAULT_MAX_CHARS)
            .clamp(MIN_MAX_CHARS, MAX_MAX_CHARS);
        let workspace = Boundary::open(&ctx.repo_root)?;
        let kinds: &[&Kind] = match args.doc_type {
            DocType::Readme => &[&README],
            DocType::Contributing => &[&CONTRIBUTING],
            DocType::Changelog => &[&CHANGELOG],
            DocType::License => &[&LICENSE],
            DocType::CodeOfConduct => &[&CODE_OF_CONDUCT],
            DocType::Agents => &[&AGENTS],
            DocType::Context => return Ok(context(&workspace, max_chars)),
            DocType::All => &[
                &README,
                &CONTRIBUTING,
                &CHANGELOG,
                &LICENSE,
                &CODE_OF_CONDUCT,
                &AGENTS,
            ],
        };
        let mut out = String::new();
        for kind in kinds {
            let paths = kind.find(&workspace);
            if paths.is_empty() {
                let _ = writeln!(
                    out,
                    "No {} found (looked for {}).\n",
                    kind.label,
                    kind.looked_for()
                );
            }
            for path in paths {
                out.push_str(&Doc::read(&workspace, &path).render(max_chars));
            }
        }
        Ok(out)
    }
}

/// A concise README and the agent instructions, all within `budget` characters: the agent
/// instructions get what they need, the README at least two fifths.
fn context(workspace: &Boundary, budget: usize) -> String {
    let agents: Vec<Doc> = AGENTS
        .find(workspace)
        .iter()
        .map(|p| Doc::read(workspace, p))
        .collect();
    let readme = README
        .find(workspace)
        .first()
        .map(|p| match Doc::read(workspace, p) {
            Doc::Text { path, text } => Doc::Text {
                path,
                text: concise(&text),
            },
            unreadable => unreadable,
        });
    let agents_need: usize = agents
        .iter()
        .map(|doc| doc.render(usize::MAX).chars().count())
        .sum();
    let readme_share = (budget * README_MIN_FIFTHS / 5).max(budget.saturating_sub(agents_need));

    let mut out = String::new();
    // Each part is added only when it fits in what is left of the budget.
    let add = |out: &mut String, part: String| {
        if out.chars().count() + part.chars().count() <= budget {
            out.push_str(&part);
        }
    };
    match &readme {
        Some(doc) => add(
            &mut out,
            doc.render_within(readme_share).unwrap_or_else(|| {
                format!("=== {} === not shown: no room in max_chars\n\n", doc.path())
            }),
        ),
        None => add(
            &mut out,
            format!("No README found (looked for {}).\n\n", README.looked_for()),
        ),
    }
    if agents.is_empty() {
        add(
            &mut out,
            format!(
                "No agent instructions found (looked for {}).\n",
                AGENTS.looked_for()
            ),
        );
    }
    for doc in &agents {
        let left = budget.saturating_sub(out.chars().count());
        add(
            &mut out,
            doc.render_within(left).unwrap_or_else(|| {
                format!(
                    "=== {} === not shown: no room left in max_chars; read it with file_read\n",
                    doc.path()
                )
            }),
        );
    }
    out
}

/// README text without what helps a browser but not a reader: badges, images, HTML blocks and
/// runs of blank lines.
fn concise(text: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let decoration = trimmed.starts_with("[![")
            || trimmed.starts_with("![")
            || trimmed.starts_with("<img")
            || trimmed.starts_with("<p ")
            || trimmed.starts_with("</p>")
            || trimmed.starts_with("<picture")
            || trimmed.starts_with("<source")
            || trimmed.starts_with("</picture")
            || trimmed.starts_with("<!--");
        if decoration {
            continue;
        }
        if trimmed.is_empty() {
            if blank || out.is_empty() {
                continue;
            }
            blank = true;
        } else {
            blank = false;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concise_drops_badges_images_and_blank_runs() {
        let readme = "\n[![CI](x.svg)](y)\n# Title\n\n\n\n![shot](a.png)\nText.\n<!-- note -->\n";
        assert_eq!(concise(readme), "# Title\n\nText.\n");
    }
}
