//! The file to explain: read once from the working copy (refused before anything is sent
//! when it is outside the repository, missing, a directory, binary or too large), and what
//! the first request shows of it when it does not go whole.

use std::path::Path;

use crate::tools::outline::outline;
use crate::tools::refer_to_source::SourceFile;
use crate::tools::{ToolContext, bound_output};
use iris_studio_workspace::{Boundary, FileText, read_text};

/// Files larger than this are not explained.
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;
/// Files under this many lines (and [`FAST_PATH_MAX_CHARS`]) go whole in one request.
pub const FAST_PATH_LINES: usize = 150;
/// A short file of very long lines (minified code) is not sent whole.
const FAST_PATH_MAX_CHARS: usize = 30_000;
/// Lines shown of a file whose language has no outline.
pub const HEAD_LINES: usize = 100;
/// Characters of outline sent at most; the model reads the rest with the tool.
const MAX_OUTLINE_CHARS: usize = 40_000;

/// A file or lines that cannot be explained, and why (a usage error: nothing was sent).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct FileRefused(pub String);

/// The file at `path` (relative to the repository root) as it is in the working copy.
pub async fn read(ctx: &ToolContext, path: &str) -> Result<SourceFile, FileRefused> {
    let ctx = ctx.clone();
    let path = path.to_string();
    tokio::task::spawn_blocking(move || read_blocking(&ctx, &path))
        .await
        .unwrap_or_else(|e| Err(FileRefused(format!("reading the file stopped: {e}"))))
}

fn read_blocking(ctx: &ToolContext, path: &str) -> Result<SourceFile, FileRefused> {
    let refused = |e: iris_studio_workspace::OutOfBounds| FileRefused(e.0);
    let file = Boundary::open(&ctx.repo_root)
        .and_then(|b| b.resolve(path))
        .map_err(refused)?;
    let name = &file.relative;
    if file.absolute.is_dir() {
        return Err(FileRefused(format!(
            "'{name}' is a directory; name a file in it"
        )));
    }
    if !file.absolute.is_file() {
        return Err(FileRefused(format!("'{name}' is not a regular file")));
    }
    let text = match read_text(&file.absolute, MAX_FILE_BYTES) {
        Ok(FileText::Text(text)) => text,
        Ok(FileText::Binary { .. }) => {
            return Err(FileRefused(format!(
                "'{name}' is a binary file; there is no source to explain"
            )));
        }
        Ok(FileText::TooLarge { bytes }) => {
            return Err(FileRefused(format!(
                "'{name}' is {bytes} bytes; files up to {MAX_FILE_BYTES} bytes are explained"
            )));
        }
        Err(e) => return Err(FileRefused(format!("cannot read '{name}': {e}"))),
    };
    if text.trim().is_empty() {
        return Err(FileRefused(format!(
            "'{name}' is empty; there is nothing to explain"
        )));
    }
    Ok(SourceFile::new(name.clone(), &text))
}

/// Whether the file is small enough to go whole in the first request.
pub fn fits_whole(file: &SourceFile) -> bool {
    let chars: usize = file.lines.iter().map(String::len).sum();
    file.line_count() < FAST_PATH_LINES && chars <= FAST_PATH_MAX_CHARS
}

/// What the first request shows of a file that does not go whole: its outline, or for a
/// language without one (or an outline with no definition), its first [`HEAD_LINES`] lines.
pub fn overview(file: &SourceFile) -> String {
    // Each line ends with its newline, so the outline counts the lines the file has.
    let text: String = file.lines.iter().map(|l| format!("{l}\n")).collect();
    match outline(Path::new(&file.path), &text).filter(|o| !o.definitions.is_empty()) {
        Some(outline) => format!(
            "Its outline: the imports, and each definition with the lines it spans (first to \
             last), its first line and the first line of its doc comment; no bodies.\n{}",
            bound_output(
                outline.render(&file.path),
                MAX_OUTLINE_CHARS,
                "read the rest of the file with refer_to_source_code"
            )
        ),
        None => {
            let shown = HEAD_LINES.min(file.line_count());
            format!(
                "There is no outline for its language; its first {shown} lines:\n{}",
                file.numbered(1, shown)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust_file(functions: usize) -> SourceFile {
        let text: String = (0..functions)
            .map(|i| {
                format!("/// Adds {i}.\npub fn add_{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n\n")
            })
            .collect();
        SourceFile::new("src/add.rs", &text)
    }

    #[test]
    fn small_files_go_whole_and_minified_ones_do_not() {
        assert!(fits_whole(&rust_file(20)));
        assert!(!fits_whole(&rust_file(40)));
        let minified = SourceFile::new("a.js", &"x".repeat(40_000));
        assert!(!fits_whole(&minified));
    }

    #[test]
    fn the_overview_is_the_outline_or_the_first_lines() {
        let outlined = overview(&rust_file(40));
        assert!(
            outlined.contains("src/add.rs: Rust, 200 lines"),
            "{outlined}"
        );
        assert!(outlined.contains("2-4        pub fn add_0(x: u32) -> u32  // Adds 0."));
        assert!(!outlined.contains("x + 0"), "no bodies");
        let text: String = (1..=300).map(|i| format!("word {i}\n")).collect();
        let plain = overview(&SourceFile::new("notes.txt", &text));
        assert!(plain.starts_with("There is no outline for its language; its first 100 lines:\n"));
        assert!(plain.contains("   100| word 100\n") && !plain.contains("word 101"));
    }

    #[tokio::test]
    async fn paths_outside_missing_directories_binary_and_empty_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(root.join("blob.bin"), [0u8, 1, 2, 0]).unwrap();
        std::fs::write(root.join("empty.rs"), "\n\n").unwrap();
        let ctx = ToolContext::new(root.to_path_buf());
        let file = read(&ctx, "./src/../src/a.rs").await.unwrap();
        assert_eq!((file.path.as_str(), file.line_count()), ("src/a.rs", 1));
        for (path, why) in [
            ("../outside.rs", "leaves the repository"),
            ("/etc/passwd", "relative to the repository root"),
            ("missing.rs", "does not exist"),
            ("src", "is a directory"),
            ("blob.bin", "binary file"),
            ("empty.rs", "is empty"),
        ] {
            let err = read(&ctx, path).await.unwrap_err().to_string();
            assert!(err.contains(why), "{path}: {err}");
        }
    }
}
