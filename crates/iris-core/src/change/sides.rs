//! Both versions of one changed file, as text: what a change's parsers read when the diff's
//! lines are not enough (a lock file's packages, a workflow's pins).

/// One side of a changed file, read within a bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideText {
    /// The file is not on this side (added, or deleted).
    Absent,
    /// Its text (invalid UTF-8 replaced).
    Text(String),
    /// Larger than the bound it was read within: not read.
    TooLarge {
        /// Its size in bytes.
        bytes: u64,
    },
    /// Binary content.
    Binary,
}

/// Both versions of one changed file: before the change and after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sides {
    /// The path after the change (the path it had, for a deleted file).
    pub path: String,
    /// The old side.
    pub old: SideText,
    /// The new side.
    pub new: SideText,
}
