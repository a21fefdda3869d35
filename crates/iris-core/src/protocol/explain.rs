//! What a question about lines of code is and what its answer holds (`iris blame`, the studio's
//! why pane).

use serde::Serialize;

/// Lines asked about: a file of the repository and a 1-based, inclusive range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LinesAsked {
    /// The file, relative to the repository root.
    pub path: String,
    /// The first line asked about.
    pub start: usize,
    /// The last line asked about.
    pub end: usize,
    /// Numbered as in the working copy (what the studio shows), not as committed at HEAD.
    pub working_copy: bool,
}

/// A commit behind the lines, as the explanation can cite it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlamedCommit {
    /// The full commit id.
    pub id: String,
    /// The abbreviated id, as the explanation cites it.
    pub short_id: String,
    /// The author's name.
    pub author: String,
    /// The author's time, in seconds since the epoch (0 for lines not committed yet).
    pub time: i64,
    /// The author date, `YYYY-MM-DD`.
    pub date: String,
    /// The commit message's first line.
    pub summary: String,
    /// Lines of the range it last changed.
    pub lines: usize,
}

/// Iris' explanation and the commits behind the lines, those she cited first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explained {
    /// The file, relative to the repository root.
    pub path: String,
    /// The first line explained.
    pub start_line: usize,
    /// The last line explained.
    pub end_line: usize,
    /// Iris' explanation, as she wrote it.
    pub explanation: String,
    /// The commits behind the lines, those she cited first.
    pub commits: Vec<BlamedCommit>,
    /// Short ids of the commits the explanation names.
    pub cited: Vec<String>,
}
