//! What a question about lines of code is and what its answer holds (`iris blame`, the studio's
//! why pane).

use serde::Serialize;

/// Lines asked about: a file of the repository and a 1-based, inclusive range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LinesAsked {
    pub path: String,
    pub start: usize,
    pub end: usize,
    /// Numbered as in the working copy (what the studio shows), not as committed at HEAD.
    pub working_copy: bool,
}

/// A commit behind the lines, as the explanation can cite it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlamedCommit {
    pub id: String,
    pub short_id: String,
    pub author: String,
    pub time: i64,
    /// The author date, `YYYY-MM-DD`.
    pub date: String,
    pub summary: String,
    /// Lines of the range it last changed.
    pub lines: usize,
}

/// Iris' explanation and the commits behind the lines, those she cited first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explained {
    pub path: String,
    pub start_line: usize,
    pub end_line: usize,
    pub explanation: String,
    pub commits: Vec<BlamedCommit>,
    /// Short ids of the commits the explanation names.
    pub cited: Vec<String>,
}
