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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_escapes_out_of_the_tree_or_into_git_s_data() {
        let root = Path::new("/repo");
        assert_eq!(escape_of(root, Path::new("/repo/src/lib.rs")), None);
        assert_eq!(escape_of(root, Path::new("/repo/.github/x.md")), None);
        assert_eq!(escape_of(root, Path::new("/repo/a.git/x")), None);
        assert_eq!(
            escape_of(root, Path::new("/repo/.git/config")),
            Some(Escape::GitData)
        );
        assert_eq!(
            escape_of(root, Path::new("/repo/vendor/dep/.git/config")),
            Some(Escape::GitData)
        );
        assert_eq!(
            escape_of(root, Path::new("/etc/passwd")),
            Some(Escape::Outside)
        );
        assert_eq!(
            escape_of(root, Path::new("/repository/x")),
            Some(Escape::Outside)
        );
    }
}
