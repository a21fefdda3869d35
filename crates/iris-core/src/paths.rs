//! Where a path in the work tree leads: the one containment check that every reader of the
//! repository's files (the agent's tools, the PR template lookup) applies after resolving links.

use std::path::Path;

/// Where a resolved path (symbolic links followed) lies that a reader of the work tree must
/// not follow it to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// Out of the repository.
    Outside,
    /// Into `.git`: git's own data, whose config may hold credentials (a remote URL with a
    /// token).
    GitData,
}

/// Whether `real` (canonical) lies in the work tree at `real_root` (canonical) and outside
/// `.git`.
pub fn escape_of(real_root: &Path, real: &Path) -> Option<Escape> {
    let Ok(inner) = real.strip_prefix(real_root) else {
        return Some(Escape::Outside);
    };
    inner
        .components()
        .any(|c| c.as_os_str() == ".git")
        .then_some(Escape::GitData)
}
