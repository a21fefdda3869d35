//! `file_read`: a file of the repository, or a range of its lines, with line numbers.

use iris_studio_core::protocol::Risk;
use std::fmt::Write;
use std::fs::File;
use std::io::{BufRead, BufReader};

use schemars::JsonSchema;
use serde::Deserialize;

use super::lines::write_numbered_line;
use super::{IrisTool, ToolContext, ToolFailure, blocking};
use iris_studio_git::looks_binary;
use iris_studio_workspace::Boundary;

/// Lines shown in one call at most.
const MAX_LINES: usize = 1_000;
/// Characters of line text shown in one call at most.
const MAX_CHARS: usize = 40_000;
/// One line longer than this (minified code) is cut.
const MAX_LINE_CHARS: usize = 1_000;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FileReadArgs {
    /// Relative to the repository root.
    pub path: String,
    /// 1-based, default 1.
    #[serde(default)]
    pub start_line: Option<usize>,
    /// Default: to the end, at most 1000.
    #[serde(default)]
    pub num_lines: Option<usize>,
}

pub struct FileRead;

impl IrisTool for FileRead {
    const NAME: &'static str = "file_read";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Reads a file, with line numbers.";
    type Args = FileReadArgs;

    async fn run(&self, ctx: &ToolContext, args: FileReadArgs) -> Result<String, ToolFailure> {
        blocking(ctx, move |ctx| Self::run_blocking(ctx, args)).await
    }
}

impl FileRead {
    fn run_blocking(ctx: &ToolContext, args: FileReadArgs) -> Result<String, ToolFailure> {
        let start = args.start_line.unwrap_or(1);
        if start == 0 {
            return Err(ToolFailure::new(
                "start_line is 1-based: the first line is 1",
            ));
        }
        if args.num_lines == Some(0) {
            return Err(ToolFailure::new("num_lines must be at least 1"));
        }
        let file = Boundary::open(&ctx.repo_root)?.resolve(&args.path)?;
        if file.absolute.is_dir() {
            return Err(ToolFailure::new(format!(
                "'{}' is a directory; use file_list to see its entries, or file_search to find \
                 files in it",
                file.relative
            )));
        }
        if !file.absolute.is_file() {
            // A FIFO or device would block or never end.
            return Err(ToolFailure::new(format!(
                "'{}' is not a regular file",
                file.relative
            )));
        }
        let open = File::open(&file.absolute)
            .map_err(|e| ToolFailure::new(format!("cannot read '{}': {e}", file.relative)))?;
        read_lines(BufReader::new(open), &file.relative, start, args.num_lines)
            .map_err(|e| ToolFailure::new(format!("cannot read '{}': {e}", file.relative)))?
    }
}

/// Renders lines `start..start+wanted` of a reader, within the bounds; the inner result is the
/// answer for the model, the outer one an I/O failure.
fn read_lines(
    mut reader: impl BufRead,
    name: &str,
    start: usize,
    wanted: Option<usize>,
) -> std::io::Result<Result<String, ToolFailure>> {
    if looks_binary(reader.fill_buf()?) {
        return Ok(Ok(format!(
            "{name} is a binary file; its content is not shown.\n"
        )));
    }
    let wanted = wanted.unwrap_or(usize::MAX);
    let mut body = String::new();
    let (mut shown, mut chars, mut line_no) = (0usize, 0usize, 0usize);
    let mut last_shown = 0;
    let mut cut_by_bound = false;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        line_no += 1;
        if line_no < start {
            continue;
        }
        if shown == wanted {
            line_no += count_remaining_lines(&mut reader)?;
            break;
        }
        if shown == MAX_LINES || chars >= MAX_CHARS {
            cut_by_bound = true;
            line_no += count_remaining_lines(&mut reader)?;
            break;
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim_end_matches(['\n', '\r']);
        chars += write_numbered_line(&mut body, line_no, text, MAX_LINE_CHARS);
        shown += 1;
        last_shown = line_no;
    }
    let total = line_no;
    if total == 0 {
        return Ok(Ok(format!("{name} is empty.\n")));
    }
    if start > total {
        return Ok(Err(ToolFailure::new(format!(
            "start_line {start} is past the end of {name}, which has {total} lines"
        ))));
    }
    let mut out = format!("{name}: lines {start}-{last_shown} of {total}\n{body}");
    if cut_by_bound {
        let _ = writeln!(
            out,
            "[cut at the bound of {MAX_LINES} lines or {MAX_CHARS} characters per read; read on \
             with start_line: {}]",
            last_shown + 1
        );
    } else if last_shown < total {
        let _ = writeln!(
            out,
            "[{} more lines; read on with start_line: {}]",
            total - last_shown,
            last_shown + 1
        );
    }
    Ok(Ok(out))
}

/// The lines left in the reader.
fn count_remaining_lines(reader: &mut impl BufRead) -> std::io::Result<usize> {
    let mut count = 0;
    let mut ends_with_newline = true;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        count += chunk.iter().filter(|&&b| b == b'\n').count();
        ends_with_newline = chunk.last() == Some(&b'\n');
        let len = chunk.len();
        reader.consume(len);
    }
    // A last line without a newline is a line too.
    Ok(if ends_with_newline { count } else { count + 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, start: usize, wanted: Option<usize>) -> String {
        read_lines(text.as_bytes(), "f.txt", start, wanted)
            .expect("io")
            .unwrap_or_else(|e| e.0)
    }

    #[test]
    fn ranges_are_numbered_and_say_how_to_read_on() {
        let text = "one\ntwo\nthree\nfour\nfive";
        let all = read(text, 1, None);
        assert!(
            all.starts_with("f.txt: lines 1-5 of 5\n     1| one\n"),
            "{all}"
        );
        assert!(all.contains("     5| five\n"));
        let middle = read(text, 2, Some(2));
        assert_eq!(
            middle,
            "f.txt: lines 2-3 of 5\n     2| two\n     3| three\n[2 more lines; read on with start_line: 4]\n"
        );
        assert!(read(text, 9, None).contains("past the end of f.txt, which has 5 lines"));
        assert_eq!(read("", 1, None), "f.txt is empty.\n");
    }

    #[test]
    fn large_files_are_cut_at_the_bound() {
        let text: String = (1..=2_500).map(|i| format!("line {i}\n")).collect();
        let out = read(&text, 1, None);
        assert!(
            out.starts_with("f.txt: lines 1-1000 of 2500\n"),
            "{}",
            &out[..80]
        );
        assert!(out.ends_with("read on with start_line: 1001]\n"));
        let long = format!("{}\n", "x".repeat(5_000));
        assert!(read(&long, 1, None).contains("[line cut at 1000 characters]"));
    }
}
