//! The open file's intent and responsibility blocks as screen rows: the intent wrapped to the
//! pane's width, one row per block with its lines, the chosen block's description and
//! elements under it, and how Iris read the file. Drawing shows a window of these rows and the
//! reducer keeps the chosen block in view, so both measure the pane the same way.

use crate::conversation::wrap_message;
use crate::state::IntentView;
use iris_studio_core::artifact::intent::{
    ExecutionPath, FileIntent, ResponsibilityBlock, ranges_text,
};
use iris_studio_core::text::clip;

/// One screen row of the blocks pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A wrapped line of the file's intent.
    Text(String),
    /// An empty row around the list of blocks.
    Blank,
    /// A block: its index, its label and lines.
    Block {
        /// Its position in the file's blocks, which the chosen block is compared to.
        index: usize,
        /// The block's label and line ranges, clipped to the pane's width.
        text: String,
    },
    /// The chosen block's description and elements, indented.
    Detail(String),
    /// How Iris read the file.
    Footer(String),
}

/// The pane's rows at `width` cells; none while Iris reads the file.
pub fn rows(view: &IntentView, width: usize) -> Vec<Row> {
    let Some(intent) = &view.intent else {
        return Vec::new();
    };
    let mut rows: Vec<Row> = wrap_message(&intent.intent, width)
        .into_iter()
        .map(Row::Text)
        .collect();
    rows.push(Row::Blank);
    for (index, block) in intent.blocks.iter().enumerate() {
        let text = format!("{} · {}", block.label, lines_of(block));
        rows.push(Row::Block {
            index,
            text: clip(&text, width.saturating_sub(2)),
        });
        if index == view.block {
            let indented = width.saturating_sub(4);
            let details = std::iter::once(block.description.clone()).chain(elements(block));
            for detail in details {
                for line in wrap_message(&detail, indented) {
                    rows.push(Row::Detail(format!("    {line}")));
                }
            }
        }
    }
    rows.push(Row::Blank);
    rows.push(Row::Footer(clip(&how_read(intent), width)));
    rows
}

/// The row of block `index`.
pub fn block_row(rows: &[Row], index: usize) -> Option<usize> {
    rows.iter()
        .position(|row| matches!(row, Row::Block { index: i, .. } if *i == index))
}

/// `12-40, 88` for a block's ranges.
fn lines_of(block: &ResponsibilityBlock) -> String {
    ranges_text(block.ranges.iter().map(|&[start, end]| (start, end)))
}

/// `functions: parse, render` and the like, for the kinds of elements a block has.
fn elements(block: &ResponsibilityBlock) -> Vec<String> {
    let e = &block.elements;
    [
        ("functions", &e.functions),
        ("types", &e.types),
        ("state", &e.state),
        ("constants", &e.constants),
        ("imports", &e.imports),
    ]
    .into_iter()
    .filter(|(_, names)| !names.is_empty())
    .map(|(kind, names)| format!("{kind}: {}", names.join(", ")))
    .collect()
}

/// `read whole (fast path)`, `outline + 4 read(s) in 5 call(s)` or `two stages (fallback): 4 range(s)`.
fn how_read(intent: &FileIntent) -> String {
    let meta = &intent.metadata;
    match meta.execution_path {
        ExecutionPath::FastPath => "read whole (fast path)".to_string(),
        ExecutionPath::TwoStage => {
            format!("two stages (fallback): {} range(s)", meta.tool_reads.len())
        }
        ExecutionPath::ToolCalling => format!(
            "outline + {} read(s) in {} call(s)",
            meta.tool_reads.len(),
            meta.tool_call_count
        ),
    }
}
