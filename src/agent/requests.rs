//! What Iris is asked to do, worded once for the command line and the studio alike.

/// The commit message for what is staged.
pub const COMMIT_STAGED: &str = "Write the commit message for the staged changes.";

/// A review of what is staged.
pub const REVIEW_STAGED: &str = "Review the staged changes.";

/// An artifact about the commits of FROM..TO (a PR description, a changelog entry, release
/// notes), pointing Iris at the tools that read that range.
pub fn range(what: &str, from: &str, to: &str, version: Option<&str>) -> String {
    let version = version
        .map(|v| format!(" for version {v}"))
        .unwrap_or_default();
    format!(
        "Write the {what}{version} for the changes from {from} to {to} ({from}..{to}). \
         FROM={from} TO={to}: the commits are git_log with from={from}, to={to}; the changes \
         are git_diff with from={from}, to={to}."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_request_names_the_range_the_version_and_the_tools() {
        let text = range("changelog entry", "v1.0", "HEAD", Some("1.1.0"));
        assert!(text.starts_with("Write the changelog entry for version 1.1.0 for the changes from v1.0 to HEAD (v1.0..HEAD)."));
        assert!(text.contains("git_log with from=v1.0, to=HEAD"));
        assert!(!range("pull request description", "main", "HEAD", None).contains("version"));
    }
}
