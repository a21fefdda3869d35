//! Exit codes, chosen here at the edge: errors travel as `anyhow::Error`, each module owning its
//! error type, and the first one this module recognises in the chain picks the exit code.

use thiserror::Error;

/// A command line that cannot be carried out as written: an unknown tool, a missing argument.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct UsageError(pub String);

impl UsageError {
    /// Fails on the first of `revs` that names no commit in `repo`, naming the branch or tag
    /// it is likeliest a typo of: checked before anything runs, so a typo costs no model time.
    pub fn unless_revisions(repo: &iris_studio_git::GitRepo, revs: &[&str]) -> anyhow::Result<()> {
        for rev in revs {
            match repo.resolve_commit(rev) {
                Ok(_) => {}
                Err(iris_studio_git::GitError::UnknownRevision(_)) => {
                    // A CI checkout is often shallow, with one branch: the base is not missing
                    // from the repository, only from this clone.
                    let shallow = repo.is_shallow().then(|| {
                        format!(
                            " (this is a shallow clone, which may not hold it: `git fetch \
                             --unshallow origin` or `git fetch origin {rev}` brings it; in GitHub \
                             Actions, check out with `fetch-depth: 0`)"
                        )
                    });
                    let hint = shallow
                        .or_else(|| {
                            repo.likely_meant(rev)
                                .map(|name| iris_studio_core::suggest::hint(&name))
                        })
                        .unwrap_or_default();
                    return Err(UsageError(format!(
                        "unknown revision '{rev}': it does not name a commit in this repository{hint}"
                    ))
                    .into());
                }
                // A revision spelt as an option, or with blank space, is the user's too.
                Err(invalid @ iris_studio_git::GitError::InvalidRevision(..)) => {
                    return Err(UsageError(invalid.to_string()).into());
                }
                // Anything else is git's (a damaged repository, a read that failed).
                Err(other) => return Err(other.into()),
            }
        }
        Ok(())
    }

    /// Fails when `from..to` holds no commit (a merge counts): a request about it would be
    /// about nothing, so every command and MCP refuse it before anything is sent. In a shallow
    /// clone the base may only look like the top: said, with how to fetch the rest.
    pub fn unless_commits(
        repo: &iris_studio_git::GitRepo,
        from: &str,
        to: &str,
    ) -> anyhow::Result<()> {
        if !repo.log_range(from, to, 1)?.is_empty() {
            return Ok(());
        }
        let shallow = if repo.is_shallow() {
            " (this shallow clone may not hold the branch it goes into: `git fetch origin main`, \
             or in GitHub Actions `fetch-depth: 0`)"
        } else {
            ""
        };
        Err(UsageError(format!(
            "{from}..{to} holds no commit: there is nothing to write about, and nothing was \
             sent; the range starts after {from}, as git's FROM..TO does: start it at an older \
             revision{shallow}"
        ))
        .into())
    }
}

// Exit codes the command line promises (the README lists them).

/// A failure of no other kind, or a check that did not pass (commit rules, `review --fail-on`,
/// `eval --baseline`).
pub const GENERAL: u8 = 1;
/// Usage or configuration: a bad flag or file, a revision that names no commit, no provider.
pub const CONFIG: u8 = 2;
/// Git: not inside a repository, a git operation that failed.
pub const GIT: u8 = 3;
/// The provider failed or the run ran out of time.
pub const PROVIDER: u8 = 4;

/// The exit code for an error: the first categorised error found in its chain.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    use iris_studio_agent::error::Kind;
    for cause in err.chain() {
        // Iris says what kind of failure hers is.
        if let Some(iris) = cause.downcast_ref::<iris_studio_agent::Error>() {
            match iris.kind() {
                Kind::Provider(_) => return PROVIDER,
                Kind::NotSetUp | Kind::Config | Kind::Usage => return CONFIG,
                Kind::Git => return GIT,
                Kind::Other => {}
            }
        }
        if cause.is::<iris_studio_git::GitError>() {
            return GIT;
        }
        if cause.is::<iris_studio_config::ConfigError>()
            || cause.is::<iris_studio_config::NotConfigured>()
            || cause.is::<UsageError>()
            || cause.is::<iris_studio_core::commit_rules::RulesError>()
            || cause.is::<iris_studio_core::pr_template::TemplateError>()
            || cause.is::<clap::Error>()
            || cause.is::<iris_studio_tui::theme::ThemeError>()
            || cause.is::<iris_studio_tui::keymap::KeymapError>()
        {
            return CONFIG;
        }
    }
    GENERAL
}

/// One line for the user: the error and its causes, joined, without a backtrace.
pub fn one_line(err: &anyhow::Error) -> String {
    let text = format!("{err:#}");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
