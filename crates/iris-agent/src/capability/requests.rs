//! What Iris is asked to do, worded once for the command line and the studio alike.

use iris_studio_core::artifact::ArtifactKind;

/// What an artifact covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The staged change.
    Staged,
    /// Every uncommitted change, staged and unstaged.
    Uncommitted,
    /// HEAD's own change together with what is staged (a message for amending HEAD).
    Amend,
    /// One commit.
    Commit(String),
    /// The commits FROM..TO, and the version they ship in when known.
    Range {
        /// The revision the range starts after (excluded, as in git's `FROM..TO`).
        from: String,
        /// The revision the range ends at (included).
        to: String,
        /// The version the commits ship in, when known; a changelog or release notes the model
        /// left without one get it.
        version: Option<String>,
    },
}

impl Scope {
    /// The diffs that make up the scope, as git reads them.
    pub fn diff_targets(&self) -> Vec<iris_studio_git::DiffTarget> {
        use iris_studio_git::DiffTarget;
        match self {
            Scope::Staged => vec![DiffTarget::Staged],
            Scope::Uncommitted => vec![DiffTarget::WorkingTree],
            Scope::Amend => vec![DiffTarget::Commit("HEAD".into()), DiffTarget::Staged],
            Scope::Commit(rev) => vec![DiffTarget::Commit(rev.clone())],
            Scope::Range { from, to, .. } => vec![DiffTarget::Range {
                from: from.clone(),
                to: to.clone(),
            }],
        }
    }
}

impl Scope {
    /// The commits `from..to`, their version unknown.
    pub fn range(from: &str, to: &str) -> Self {
        Scope::Range {
            from: from.to_string(),
            to: to.to_string(),
            version: None,
        }
    }

    /// The version a range ships in, when it was given.
    pub fn version(&self) -> Option<&str> {
        match self {
            Scope::Range { version, .. } => version.as_deref(),
            _ => None,
        }
    }
}

/// The request for `kind` over `scope`, pointing Iris at the tools that read it.
pub fn request(kind: ArtifactKind, scope: &Scope) -> String {
    let noun = kind.noun();
    match (kind, scope) {
        (ArtifactKind::Commit, Scope::Amend) => {
            "Write the commit message for amending HEAD: it replaces HEAD's message and \
             describes HEAD's own changes (git_diff with to=HEAD, git_show HEAD) together with \
             any staged changes (git_diff)."
                .to_string()
        }
        (ArtifactKind::Review, Scope::Staged) => "Review the staged changes.".to_string(),
        (ArtifactKind::Review, Scope::Uncommitted) => "Review all uncommitted changes, staged \
             and unstaged (git_diff with include_unstaged=true)."
            .to_string(),
        (ArtifactKind::Review, Scope::Commit(rev)) => {
            format!("Review commit {rev}: its changes are git_diff with to={rev}.")
        }
        (ArtifactKind::Review, Scope::Range { from, to, .. }) => format!(
            "Review the changes in {from}..{to} (git_diff and git_log with from={from}, to={to})."
        ),
        (_, Scope::Range { from, to, version }) => range(noun, from, to, version.as_deref()),
        (_, Scope::Commit(rev)) => {
            format!("Write the {noun} for commit {rev}: its changes are git_diff with to={rev}.")
        }
        (_, Scope::Uncommitted) => format!(
            "Write the {noun} for all uncommitted changes, staged and unstaged (git_diff with \
             include_unstaged=true)."
        ),
        (_, Scope::Staged | Scope::Amend) => format!("Write the {noun} for the staged changes."),
    }
}

/// An artifact about the commits of FROM..TO (a PR description, a changelog entry, release
/// notes), pointing Iris at the tools that read that range.
fn range(what: &str, from: &str, to: &str, version: Option<&str>) -> String {
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
        let scope = Scope::Range {
            from: "v1.0".into(),
            to: "HEAD".into(),
            version: Some("1.1.0".into()),
        };
        let text = request(ArtifactKind::Changelog, &scope);
        assert!(text.starts_with("Write the changelog entry for version 1.1.0 for the changes from v1.0 to HEAD (v1.0..HEAD)."));
        assert!(text.contains("git_log with from=v1.0, to=HEAD"));
        let pr = request(ArtifactKind::Pr, &Scope::range("main", "HEAD"));
        assert!(pr.starts_with("Write the pull request description for the changes from main"));
        assert!(!pr.contains("version"));
    }

    #[test]
    fn staged_requests_keep_their_wording() {
        assert_eq!(
            request(ArtifactKind::Commit, &Scope::Staged),
            "Write the commit message for the staged changes."
        );
        assert_eq!(
            request(ArtifactKind::Review, &Scope::Staged),
            "Review the staged changes."
        );
        assert!(request(ArtifactKind::Review, &Scope::Commit("abc".into())).contains("to=abc"));
    }
}
