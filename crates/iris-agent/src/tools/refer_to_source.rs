//! `refer_to_source_code`: numbered lines of the one file Iris is explaining, from the snapshot
//! taken when the explanation began (so every read, and the outline, agree on line numbers).
//! It counts the calls, keeps the valid reads, and refuses reads past a limit with a text
//! telling the model to answer.

use std::fmt::Write;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;

use super::lines::write_numbered_line;
use super::{IrisTool, ToolContext, ToolFailure};
use iris_studio_core::artifact::intent::LineRange;
use iris_studio_core::protocol::Risk;

/// Lines one read shows at most; a longer range is cut with a note.
pub const MAX_READ_LINES: usize = 400;
/// Characters of line text one read shows at most.
const MAX_READ_CHARS: usize = 40_000;
/// One line longer than this (minified code) is cut.
const MAX_LINE_CHARS: usize = 500;

/// The file being explained, as it was read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Relative to the repository root.
    pub path: String,
    /// Its lines, without their line endings.
    pub lines: Vec<String>,
}

impl SourceFile {
    /// The file at `path` (relative to the repository root), read as `text`.
    pub fn new(path: impl Into<String>, text: &str) -> Self {
        Self {
            path: path.into(),
            lines: text.lines().map(str::to_string).collect(),
        }
    }

    /// How many lines the file has.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Lines `start..=end` (1-based, within the file), numbered as every read shows them.
    pub fn numbered(&self, start: usize, end: usize) -> String {
        let mut out = String::new();
        for (i, line) in self.lines[start - 1..end].iter().enumerate() {
            write_numbered_line(&mut out, start + i, line.trim_end(), MAX_LINE_CHARS);
        }
        out
    }

    /// Lines `start..=end` with a header naming them (`src/app.rs lines 10-20 (of 312):`).
    pub fn excerpt(&self, start: usize, end: usize) -> String {
        format!(
            "{} lines {start}-{end} (of {}):\n{}",
            self.path,
            self.line_count(),
            self.numbered(start, end)
        )
    }

    /// The lines a read of `start..=end` shows: the range checked (the error is worded for
    /// the model), its end clamped to the file's last line, and cut to [`MAX_READ_LINES`]
    /// lines and [`MAX_READ_CHARS`] characters with a note saying how to read on.
    pub fn read(&self, start: i64, end: i64) -> Result<(LineRange, String), String> {
        let total = self.line_count();
        if start < 1 {
            return Err(format!(
                "start_line {start} is invalid: lines are numbered from 1 (the file has {total} lines)"
            ));
        }
        if end < start {
            return Err(format!(
                "end_line {end} is before start_line {start}: give the range as start_line <= end_line"
            ));
        }
        let (start, asked_end) = (start as usize, end as usize);
        if start > total {
            return Err(format!(
                "lines {start}-{asked_end} are past the end: the file has {total} lines"
            ));
        }
        let mut end = asked_end.min(total).min(start + MAX_READ_LINES - 1);
        let chars =
            |s: usize, e: usize| self.lines[s - 1..e].iter().map(String::len).sum::<usize>();
        while end > start && chars(start, end) > MAX_READ_CHARS {
            end = start + (end - start) / 2;
        }
        let mut text = self.excerpt(start, end);
        if asked_end > total {
            let _ = writeln!(text, "[the file ends at line {total}]");
        } else if end < asked_end {
            let _ = writeln!(
                text,
                "[cut at {} lines to stay within a read's bound of {MAX_READ_LINES} lines or \
                 {MAX_READ_CHARS} characters; read on with start_line {}]",
                end - start + 1,
                end + 1
            );
        }
        let range = LineRange {
            start_line: start,
            end_line: end,
        };
        Ok((range, text))
    }
}

/// What the model read: every call, and the ranges of the valid ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reads {
    /// Every call, the refused ones included.
    pub calls: usize,
    /// The line ranges of the valid reads, in the order they were made.
    pub ranges: Vec<LineRange>,
}

#[expect(
    missing_docs,
    reason = "a doc comment here would go into the tool's JSON schema, sent with every request"
)]
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReferArgs {
    /// First line to read (1-based).
    pub start_line: i64,
    /// Last line to read (1-based, inclusive).
    pub end_line: i64,
}

/// The tool, over one file, with its read log and limit.
pub struct ReferToSource {
    file: Arc<SourceFile>,
    reads: Arc<Mutex<Reads>>,
    max_calls: usize,
}

impl ReferToSource {
    /// The tool over `file`, logging into `reads`, answering at most `max_calls` calls.
    pub fn new(file: Arc<SourceFile>, reads: Arc<Mutex<Reads>>, max_calls: usize) -> Self {
        Self {
            file,
            reads,
            max_calls,
        }
    }

    /// One call: counted, checked against the limit and the file, logged when valid.
    fn answer(&self, args: &ReferArgs) -> Result<String, ToolFailure> {
        let mut reads = self.reads.lock().unwrap_or_else(|e| e.into_inner());
        reads.calls += 1;
        if reads.calls > self.max_calls {
            return Err(ToolFailure::new(format!(
                "read limit reached; answer now with what you have (all {} reads are used)",
                self.max_calls
            )));
        }
        let (range, text) = self
            .file
            .read(args.start_line, args.end_line)
            .map_err(ToolFailure::new)?;
        reads.ranges.push(range);
        Ok(text)
    }
}

impl IrisTool for ReferToSource {
    const NAME: &'static str = "refer_to_source_code";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Reads lines of the file being explained, numbered: \
        start_line to end_line, 1-based and inclusive. Read what the outline leaves unclear \
        (names that say little, long bodies without a doc line); skip what names and doc lines \
        already make plain. Several calls can go in one turn.";
    type Args = ReferArgs;

    async fn run(&self, _ctx: &ToolContext, args: ReferArgs) -> Result<String, ToolFailure> {
        self.answer(&args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(lines: usize) -> SourceFile {
        let text: String = (1..=lines).map(|i| format!("line {i}\n")).collect();
        SourceFile::new("src/a.rs", &text)
    }

    fn tool(lines: usize, max_calls: usize) -> (ReferToSource, Arc<Mutex<Reads>>) {
        let reads = Arc::new(Mutex::new(Reads::default()));
        let tool = ReferToSource::new(Arc::new(file(lines)), reads.clone(), max_calls);
        (tool, reads)
    }

    fn call(tool: &ReferToSource, start_line: i64, end_line: i64) -> Result<String, String> {
        tool.answer(&ReferArgs {
            start_line,
            end_line,
        })
        .map_err(|e| e.0)
    }

    #[test]
    fn a_valid_range_is_numbered_and_logged() {
        let (tool, reads) = tool(312, 30);
        let text = call(&tool, 10, 12).unwrap();
        assert_eq!(
            text,
            "src/a.rs lines 10-12 (of 312):\n    10| line 10\n    11| line 11\n    12| line 12\n"
        );
        let reads = reads.lock().unwrap().clone();
        assert_eq!(reads.calls, 1);
        assert_eq!(
            reads.ranges,
            vec![LineRange {
                start_line: 10,
                end_line: 12
            }]
        );
    }

    #[test]
    fn invalid_ranges_are_readable_errors_counted_but_not_logged() {
        let (tool, reads) = tool(312, 30);
        assert_eq!(
            call(&tool, 400, 420).unwrap_err(),
            "lines 400-420 are past the end: the file has 312 lines"
        );
        assert!(call(&tool, 0, 5).unwrap_err().contains("numbered from 1"));
        assert!(call(&tool, -4, 5).unwrap_err().contains("numbered from 1"));
        assert!(
            call(&tool, 9, 3)
                .unwrap_err()
                .contains("end_line 3 is before start_line 9")
        );
        let reads = reads.lock().unwrap().clone();
        assert_eq!((reads.calls, reads.ranges.len()), (4, 0));
    }

    #[test]
    fn a_range_past_the_end_is_clamped_and_a_long_one_cut() {
        let (short, reads) = tool(312, 30);
        let end = call(&short, 310, 330).unwrap();
        assert!(
            end.starts_with("src/a.rs lines 310-312 (of 312):\n"),
            "{end}"
        );
        assert!(end.ends_with("[the file ends at line 312]\n"), "{end}");
        let (long_file, _) = tool(1_000, 30);
        let long = call(&long_file, 1, 1_000).unwrap();
        assert!(long.starts_with("src/a.rs lines 1-400 (of 1000):\n"));
        assert!(long.ends_with("read on with start_line 401]\n"), "{long}");
        assert_eq!(
            reads.lock().unwrap().ranges,
            vec![LineRange {
                start_line: 310,
                end_line: 312
            }]
        );
    }

    #[test]
    fn indentation_is_kept_and_minified_lines_cut() {
        let file = SourceFile::new(
            "a.py",
            &format!("def f():\n    return 1  \n{}\n", "y".repeat(600)),
        );
        assert_eq!(
            file.numbered(1, 2),
            "     1| def f():\n     2|     return 1\n"
        );
        assert!(
            file.numbered(3, 3)
                .ends_with("y [line cut at 500 characters]\n")
        );
    }

    #[test]
    fn wide_lines_are_cut_by_characters_too() {
        let text = format!("{}\n", "x".repeat(400)).repeat(300);
        let file = SourceFile::new("min.js", &text);
        let (range, read) = file.read(1, 300).unwrap();
        assert!(range.end_line < 300 && range.end_line >= 50, "{range:?}");
        assert!(read.len() < MAX_READ_CHARS + 2_000);
    }

    #[test]
    fn past_the_limit_the_model_is_told_to_answer() {
        let (tool, reads) = tool(50, 2);
        assert!(call(&tool, 1, 5).is_ok());
        assert!(call(&tool, 60, 70).is_err());
        assert_eq!(
            call(&tool, 6, 9).unwrap_err(),
            "read limit reached; answer now with what you have (all 2 reads are used)"
        );
        let reads = reads.lock().unwrap().clone();
        assert_eq!((reads.calls, reads.ranges.len()), (3, 1));
    }
}
