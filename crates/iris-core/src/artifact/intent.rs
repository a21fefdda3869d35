//! A file's intent and responsibility blocks: why a file exists and the few purposes its code
//! divides into, each with its elements and the lines it covers.
//!
//! The model fills in an [`IntentAnswer`] (intent and blocks, nothing else); [`normalize`]
//! turns that untrusted answer into blocks that hold: bounded text, unique kebab-case ids, and
//! ranges inside the file, sorted and merged. Iris adds the path and the [`IntentMetadata`].

use std::collections::BTreeSet;
use std::fmt::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Blocks kept at most.
pub const MAX_BLOCKS: usize = 6;
/// Lines of intent kept at most.
const MAX_INTENT_LINES: usize = 4;
const MAX_INTENT_CHARS: usize = 800;
const MAX_ID_CHARS: usize = 48;
const MAX_LABEL_CHARS: usize = 60;
const MAX_DESCRIPTION_CHARS: usize = 600;
/// Names kept at most in each list of a block's elements, and characters of one name.
const MAX_ELEMENTS: usize = 40;
const MAX_ELEMENT_CHARS: usize = 120;
/// Blocks and ranges of an answer looked at at most (the rest is not read).
const MAX_ANSWER_BLOCKS: usize = 32;
const MAX_ANSWER_RANGES: usize = 64;

/// A file's intent and its responsibility blocks, as Iris explains it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileIntent {
    /// The file, relative to the repository root.
    pub path: String,
    /// One to four lines: why the file exists. (`file_intent`, as the IRIS specification
    /// names it for the tools that read it; `intent` is read too.)
    #[serde(rename = "file_intent", alias = "intent")]
    pub intent: String,
    /// Three to six responsibility blocks (at most six; a small file may have fewer).
    #[serde(rename = "responsibilities", alias = "blocks")]
    pub blocks: Vec<ResponsibilityBlock>,
    /// How the explanation was made (set by Iris, not the model).
    pub metadata: IntentMetadata,
}

/// One purpose the file's code serves, with everything that serves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ResponsibilityBlock {
    /// Kebab-case, unique within the file.
    pub id: String,
    /// Two to five words.
    pub label: String,
    /// One line: what the block is for and why.
    pub description: String,
    /// The functions, state, imports, types and constants the block is made of.
    pub elements: BlockElements,
    /// 1-based inclusive line ranges, sorted, not overlapping; a block may be scattered.
    pub ranges: Vec<[usize; 2]>,
}

/// The names a block is made of, as they appear in the code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct BlockElements {
    /// Functions and methods.
    pub functions: Vec<String>,
    /// Fields, statics and variables the block keeps.
    pub state: Vec<String>,
    /// Imports the block needs.
    pub imports: Vec<String>,
    /// Types: structs, enums, classes, traits, interfaces, aliases.
    pub types: Vec<String>,
    /// Constants.
    pub constants: Vec<String>,
}

/// How the explanation was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct IntentMetadata {
    /// The line ranges the model read besides the first request (tool reads, or the ranges
    /// the two-stage path read for it).
    pub tool_reads: Vec<LineRange>,
    /// refer_to_source_code calls the model made, refused ones included.
    pub tool_call_count: usize,
    /// Which way the explanation was made.
    pub execution_path: ExecutionPath,
}

/// A 1-based, inclusive range of lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LineRange {
    /// The first line, 1-based.
    pub start_line: usize,
    /// The last line, included.
    pub end_line: usize,
}

/// Which way the explanation was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExecutionPath {
    /// A small file, sent whole in one request without tools.
    FastPath,
    /// The outline first; the model read what it needed with refer_to_source_code.
    ToolCalling,
    /// The outline, then the ranges the model asked for, in two requests without tools.
    TwoStage,
}

impl ExecutionPath {
    /// The path's name in the explanation's last line (`fast-path`, `two-stage`).
    pub fn name(self) -> &'static str {
        match self {
            ExecutionPath::FastPath => "fast-path",
            ExecutionPath::ToolCalling => "tool-calling",
            ExecutionPath::TwoStage => "two-stage",
        }
    }
}

/// What the model writes: the intent and the blocks. Its doc comments are the schema's
/// descriptions, so they are written for the model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct IntentAnswer {
    /// One to four lines on why the file exists: the problem it solves for the rest of the
    /// code base, not a list of what it contains.
    #[serde(rename = "file_intent", alias = "intent")]
    pub intent: String,
    /// Three to six responsibility blocks, peers rather than a hierarchy.
    #[serde(rename = "responsibilities", alias = "blocks")]
    pub blocks: Vec<BlockAnswer>,
}

/// One responsibility block as the model writes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct BlockAnswer {
    /// A unique kebab-case id, such as `config-loading`.
    pub id: String,
    /// Two to five words.
    pub label: String,
    /// One or two sentences: what the block is for and why.
    pub description: String,
    /// The names the block is made of, as they appear in the code.
    pub elements: BlockElements,
    /// The line ranges the block covers, each `[start, end]` (1-based, inclusive); several
    /// scattered ranges are fine.
    pub ranges: Vec<Vec<i64>>,
}

/// Why an answer gave nothing usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidAnswer {
    /// The intent was empty (or only blank lines).
    #[error("it has no intent")]
    NoIntent,
    /// No block had a range inside the file, of this many lines.
    #[error("no block has a line range inside the file's {0} lines")]
    NoBlock(usize),
}

/// The intent and blocks of `answer` for a file of `lines` lines, made to hold: text bounded,
/// ids kebab-case and unique, ranges clamped into the file (those wholly outside it or
/// reversed dropped), sorted and merged, blocks without a range dropped, at most
/// [`MAX_BLOCKS`] kept.
pub fn normalize(
    answer: IntentAnswer,
    lines: usize,
) -> Result<(String, Vec<ResponsibilityBlock>), InvalidAnswer> {
    let intent = bounded_lines(&answer.intent, MAX_INTENT_LINES, MAX_INTENT_CHARS);
    if intent.is_empty() {
        return Err(InvalidAnswer::NoIntent);
    }
    let mut ids = BTreeSet::new();
    let blocks: Vec<ResponsibilityBlock> = answer
        .blocks
        .into_iter()
        .take(MAX_ANSWER_BLOCKS)
        .filter_map(|block| {
            let ranges = clean_ranges(block.ranges.iter().map(|r| range_pair(r)), lines);
            (!ranges.is_empty()).then_some((block, ranges))
        })
        .take(MAX_BLOCKS)
        .map(|(block, ranges)| {
            let label = one_line(&block.label, MAX_LABEL_CHARS);
            let id = unique(kebab(&block.id).or_else(|| kebab(&label)), &mut ids);
            ResponsibilityBlock {
                label: if label.is_empty() {
                    id.replace('-', " ")
                } else {
                    label
                },
                id,
                description: one_line(&block.description, MAX_DESCRIPTION_CHARS),
                elements: clean_elements(block.elements),
                ranges: ranges.into_iter().map(|(a, b)| [a, b]).collect(),
            }
        })
        .collect();
    if blocks.is_empty() {
        return Err(InvalidAnswer::NoBlock(lines));
    }
    Ok((intent, blocks))
}

/// A range as the model wrote it: `[start, end]`, or `[line]` for one line; anything else is
/// no range.
pub fn range_pair(range: &[i64]) -> Option<(i64, i64)> {
    match *range {
        [line] => Some((line, line)),
        [start, end] => Some((start, end)),
        _ => None,
    }
}

/// Ranges inside a file of `lines` lines, sorted and merged (touching ones too). A range
/// reaching past either end is clamped; one wholly outside, reversed or malformed is dropped.
pub fn clean_ranges(
    ranges: impl IntoIterator<Item = Option<(i64, i64)>>,
    lines: usize,
) -> Vec<(usize, usize)> {
    let last = i64::try_from(lines).unwrap_or(i64::MAX);
    let mut kept: Vec<(usize, usize)> = ranges
        .into_iter()
        .take(MAX_ANSWER_RANGES)
        .flatten()
        .filter(|&(start, end)| start <= end && end >= 1 && start <= last)
        .map(|(start, end)| (start.max(1) as usize, end.min(last) as usize))
        .collect();
    kept.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(kept.len());
    for (start, end) in kept {
        match merged.last_mut() {
            Some((_, last_end)) if start <= *last_end + 1 => *last_end = (*last_end).max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// `text` in kebab-case (`Config Loading!` → `config-loading`), cut to a bound; `None` when
/// nothing is left.
fn kebab(text: &str) -> Option<String> {
    let mut id = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            id.extend(c.to_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
        if id.chars().count() >= MAX_ID_CHARS {
            break;
        }
    }
    let id = id.trim_end_matches('-').to_string();
    (!id.is_empty()).then_some(id)
}

/// `id` (or `block`) made unique among `taken` with a numeric suffix.
fn unique(id: Option<String>, taken: &mut BTreeSet<String>) -> String {
    let base = id.unwrap_or_else(|| "block".to_string());
    let mut id = base.clone();
    let mut n = 2;
    while taken.contains(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(id.clone());
    id
}

/// Whitespace collapsed to single spaces, cut at `max_chars` characters.
fn one_line(text: &str, max_chars: usize) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    cut(&joined, max_chars)
}

/// At most `max_lines` non-blank lines, each with its whitespace collapsed, cut at
/// `max_chars` characters in all.
fn bounded_lines(text: &str, max_lines: usize, max_chars: usize) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|l| one_line(l, max_chars))
        .filter(|l| !l.is_empty())
        .take(max_lines)
        .collect();
    cut(&lines.join("\n"), max_chars)
}

fn cut(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_string(),
    }
}

fn clean_elements(elements: BlockElements) -> BlockElements {
    let clean = |names: Vec<String>| {
        let mut seen = BTreeSet::new();
        names
            .iter()
            .map(|n| one_line(n, MAX_ELEMENT_CHARS))
            .filter(|n| !n.is_empty() && seen.insert(n.clone()))
            .take(MAX_ELEMENTS)
            .collect()
    };
    BlockElements {
        functions: clean(elements.functions),
        state: clean(elements.state),
        imports: clean(elements.imports),
        types: clean(elements.types),
        constants: clean(elements.constants),
    }
}

/// Ranges as people read them: `10-20, 31, 40-52`.
pub fn ranges_text(ranges: impl IntoIterator<Item = (usize, usize)>) -> String {
    ranges
        .into_iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl FileIntent {
    /// The explanation as plain text: the intent, each block (label, id, lines, description
    /// and its non-empty elements), and a last line on how it was made.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.intent);
        for block in &self.blocks {
            let lines = ranges_text(block.ranges.iter().map(|r| (r[0], r[1])));
            let word = if block.ranges.len() == 1 && block.ranges[0][0] == block.ranges[0][1] {
                "line"
            } else {
                "lines"
            };
            let _ = write!(out, "\n{} ({}) {word} {lines}\n", block.label, block.id);
            if !block.description.is_empty() {
                let _ = writeln!(out, "  {}", block.description);
            }
            let e = &block.elements;
            for (name, names) in [
                ("functions", &e.functions),
                ("state", &e.state),
                ("imports", &e.imports),
                ("types", &e.types),
                ("constants", &e.constants),
            ] {
                if !names.is_empty() {
                    let _ = writeln!(out, "  {name}: {}", names.join(", "));
                }
            }
        }
        let _ = write!(out, "\n{}", self.metadata.summary());
        out
    }
}

impl IntentMetadata {
    /// One line: the path taken and what was read (`tool-calling: 2 calls, read lines 10-40,
    /// 80-95`).
    pub fn summary(&self) -> String {
        let read = if self.tool_reads.is_empty() {
            "nothing read beyond the first request".to_string()
        } else {
            format!(
                "read lines {}",
                ranges_text(self.tool_reads.iter().map(|r| (r.start_line, r.end_line)))
            )
        };
        match self.execution_path {
            ExecutionPath::FastPath => "fast-path: the whole file in one request".to_string(),
            ExecutionPath::ToolCalling => {
                format!("tool-calling: {} call(s), {read}", self.tool_call_count)
            }
            ExecutionPath::TwoStage => format!("two-stage: {read}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(id: &str, label: &str, ranges: &[&[i64]]) -> BlockAnswer {
        BlockAnswer {
            id: id.into(),
            label: label.into(),
            description: "  What it is\n for. ".into(),
            elements: BlockElements {
                functions: vec!["load".into(), " load ".into(), "".into(), "save".into()],
                ..BlockElements::default()
            },
            ranges: ranges.iter().map(|r| r.to_vec()).collect(),
        }
    }

    fn answer(blocks: Vec<BlockAnswer>) -> IntentAnswer {
        IntentAnswer {
            intent: "Loads the configuration.".into(),
            blocks,
        }
    }

    #[test]
    fn ranges_are_clamped_sorted_merged_and_the_impossible_dropped() {
        let ranges = [
            Some((40, 60)),
            Some((1, 5)),
            Some((6, 9)),   // touches 1-5
            Some((50, 80)), // overlaps 40-60
            Some((-3, 2)),  // clamped to 1
            Some((90, 120)),
            Some((150, 160)), // past the end
            Some((30, 20)),   // reversed
            Some((0, 0)),     // before the start
            None,             // malformed
        ];
        assert_eq!(clean_ranges(ranges, 100), vec![(1, 9), (40, 80), (90, 100)]);
        assert!(clean_ranges([Some((5, 7))], 0).is_empty());
    }

    #[test]
    fn ids_become_unique_kebab_case_and_labels_one_line() {
        let (intent, blocks) = normalize(
            answer(vec![
                block("Config Loading!", "Config\n loading", &[&[1, 3]]),
                block("config_loading", "Again", &[&[5]]),
                block("", "Saving the File", &[&[7, 8]]),
                block("", "", &[&[9, 9]]),
            ]),
            10,
        )
        .unwrap();
        assert_eq!(intent, "Loads the configuration.");
        let ids: Vec<&str> = blocks.iter().map(|b| b.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "config-loading",
                "config-loading-2",
                "saving-the-file",
                "block"
            ]
        );
        assert_eq!(blocks[0].label, "Config loading");
        assert_eq!(blocks[3].label, "block");
        assert_eq!(blocks[1].ranges, vec![[5, 5]]);
        assert_eq!(blocks[0].description, "What it is for.");
        assert_eq!(blocks[0].elements.functions, ["load", "save"]);
    }

    #[test]
    fn blocks_without_a_valid_range_are_dropped_and_six_kept_at_most() {
        let mut blocks = vec![block("outside", "Outside", &[&[200, 210], &[3, 1]])];
        for i in 0..9 {
            blocks.push(block(&format!("b{i}"), "B", &[&[i + 1, i + 1]]));
        }
        let (_, kept) = normalize(answer(blocks), 50).unwrap();
        assert_eq!(kept.len(), MAX_BLOCKS);
        assert_eq!(kept[0].id, "b0");
        let none = normalize(answer(vec![block("x", "X", &[&[60, 70]])]), 50);
        assert_eq!(none, Err(InvalidAnswer::NoBlock(50)));
        let empty = IntentAnswer {
            intent: " \n ".into(),
            blocks: vec![block("x", "X", &[&[1, 2]])],
        };
        assert_eq!(normalize(empty, 50), Err(InvalidAnswer::NoIntent));
    }

    #[test]
    fn long_text_is_bounded() {
        let long = IntentAnswer {
            intent: (1..=9).map(|i| format!("line {i}\n")).collect(),
            blocks: vec![BlockAnswer {
                id: "x".repeat(500),
                label: "word ".repeat(100),
                description: "d".repeat(5_000),
                ranges: vec![vec![1, 2]],
                ..BlockAnswer::default()
            }],
        };
        let (intent, blocks) = normalize(long, 10).unwrap();
        assert_eq!(intent, "line 1\nline 2\nline 3\nline 4");
        assert_eq!(blocks[0].id.chars().count(), MAX_ID_CHARS);
        assert!(blocks[0].label.chars().count() <= MAX_LABEL_CHARS + 1);
        assert!(blocks[0].description.chars().count() <= MAX_DESCRIPTION_CHARS + 1);
    }

    #[test]
    fn the_text_form_names_blocks_lines_elements_and_the_path_taken() {
        let intent = FileIntent {
            path: "src/config.rs".into(),
            intent: "Loads the configuration.".into(),
            blocks: vec![ResponsibilityBlock {
                id: "loading".into(),
                label: "Loading".into(),
                description: "Reads the file.".into(),
                elements: BlockElements {
                    functions: vec!["load".into(), "parse".into()],
                    ..BlockElements::default()
                },
                ranges: vec![[1, 9], [40, 80]],
            }],
            metadata: IntentMetadata {
                tool_reads: vec![LineRange {
                    start_line: 40,
                    end_line: 80,
                }],
                tool_call_count: 2,
                execution_path: ExecutionPath::ToolCalling,
            },
        };
        assert_eq!(
            intent.to_text(),
            "Loads the configuration.\n\nLoading (loading) lines 1-9, 40-80\n  Reads the file.\n  \
             functions: load, parse\n\ntool-calling: 2 call(s), read lines 40-80"
        );
        let json = serde_json::to_value(&intent).unwrap();
        assert_eq!(json["metadata"]["execution_path"], "tool-calling");
        assert_eq!(
            json["responsibilities"][0]["ranges"],
            serde_json::json!([[1, 9], [40, 80]])
        );
        assert_eq!(json["metadata"]["tool_reads"][0]["start_line"], 40);
    }
}
