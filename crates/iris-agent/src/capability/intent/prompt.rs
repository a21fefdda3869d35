//! The requests of a file explanation, one function per request: pure text from the file and
//! what is shown of it.

use crate::tools::refer_to_source::{MAX_READ_LINES, SourceFile};

use super::plan::{MAX_PLAN_LINES, MAX_PLAN_RANGES};

fn opening(file: &SourceFile) -> String {
    format!(
        "Explain the file {}: why it exists, and the responsibility blocks its code divides \
         into. It has {} lines.",
        file.path,
        file.line_count()
    )
}

/// The fast path's one request: the whole file, numbered.
pub fn whole_file(file: &SourceFile) -> String {
    format!(
        "{}\n\nThe whole file, with line numbers:\n{}",
        opening(file),
        file.numbered(1, file.line_count())
    )
}

/// The single stage's first request: the overview, and how to read more.
pub fn with_tool(file: &SourceFile, overview: &str, max_reads: usize) -> String {
    let reads = if max_reads == 1 { "read" } else { "reads" };
    format!(
        "{}\n\n{overview}\n\nRead what this leaves unclear with refer_to_source_code (at most \
         {max_reads} {reads}, {MAX_READ_LINES} lines each), then answer.",
        opening(file)
    )
}

/// The two-stage path's first request: the overview, and which ranges to name.
pub fn plan(file: &SourceFile, overview: &str) -> String {
    format!(
        "{}\n\n{overview}\n\nThis is the first of two steps, and it has no tools: name the line \
         ranges you need to read to explain the file (what the overview above leaves unclear), \
         at most {MAX_PLAN_RANGES} ranges and {MAX_PLAN_LINES} lines in all, most important \
         first. The next request will carry them; the explanation comes then.",
        opening(file)
    )
}

/// The two-stage path's second request: the overview and the lines read for the model.
pub fn with_excerpts(file: &SourceFile, overview: &str, excerpts: &str) -> String {
    let read = if excerpts.is_empty() {
        "You chose to read no lines.".to_string()
    } else {
        format!("The lines you chose to read:\n{excerpts}")
    };
    format!("{}\n\n{overview}\n\n{read}\n\nNow answer.", opening(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_request_names_the_file_and_its_size() {
        let file = SourceFile::new("src/a.rs", "fn a() {}\nfn b() {}\n");
        let whole = whole_file(&file);
        assert!(whole.starts_with("Explain the file src/a.rs"), "{whole}");
        assert!(whole.contains("It has 2 lines.") && whole.contains("     2| fn b() {}"));
        assert!(with_tool(&file, "OUTLINE", 7).contains(
            "OUTLINE\n\nRead what this leaves unclear with refer_to_source_code (at most 7 reads"
        ));
        assert!(plan(&file, "OUTLINE").contains("at most 12 ranges"));
        assert!(with_excerpts(&file, "OUTLINE", "").contains("You chose to read no lines."));
        assert!(
            with_excerpts(&file, "OUTLINE", "src/a.rs lines 1-1")
                .contains("The lines you chose to read:\nsrc/a.rs lines 1-1")
        );
    }
}
