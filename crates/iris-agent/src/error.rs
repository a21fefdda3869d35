//! The one error Iris' public methods return: what went wrong, in words, with its [`Kind`],
//! decided once, here at the crate's edge. Inside the crate failures travel as
//! `anyhow::Error`, each module owning its error type; callers (the exit code, eval's
//! classes, the studio's notice) match on the kind and never look inside.

use crate::capability::CapabilityError;
use crate::capability::intent::FileRefused;
use crate::runtime::error::ErrorKind;
use crate::style::UnknownPreset;

/// What a public method of Iris returns.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What kind of failure ended a call of Iris.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The model or its provider failed, or the run was stopped (out of time, past
    /// `max_cost_per_run`, a reply that could not be read): the [`ErrorKind`] says which.
    Provider(ErrorKind),
    /// No provider is configured: Iris needs setting up (`iris init`, the studio's setup).
    NotSetUp,
    /// The configuration is wrong: a broken file or value, a capability file, a style
    /// preset, a PR template or commit rules that cannot be read.
    Config,
    /// What was asked names something that is not there or not allowed: a file outside the
    /// repository, lines past a file's end, a path that was never committed. Nothing was
    /// sent.
    Usage,
    /// The repository could not be read or written.
    Git,
    /// Anything else (a file that could not be written, a task that panicked).
    Other,
}

/// A failure of Iris: the words of every cause, and its [`Kind`].
pub struct Error {
    kind: Kind,
    inner: anyhow::Error,
}

impl Error {
    /// What kind of failure this is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The provider's kind of failure, when it is one.
    pub fn provider_kind(&self) -> Option<ErrorKind> {
        match self.kind {
            Kind::Provider(kind) => Some(kind),
            _ => None,
        }
    }

    /// Why no artifact came, in the classes `iris eval` counts.
    pub fn failure(&self) -> iris_studio_core::eval::Failure {
        use iris_studio_core::eval::Failure;
        match self.provider_kind() {
            None => Failure::Other,
            Some(ErrorKind::Deadline) => Failure::Deadline,
            Some(kind) if kind.never_answered() => Failure::Runaway,
            Some(ErrorKind::Echo) => Failure::Echo,
            Some(ErrorKind::NoTitle) => Failure::NoTitle,
            Some(ErrorKind::Unreadable) => Failure::Schema,
            Some(_) => Failure::Provider,
        }
    }
}

/// The kind of a failure from inside the crate: the first cause in its chain that has one.
pub(crate) fn kind_of(err: &anyhow::Error) -> Kind {
    for cause in err.chain() {
        if let Some(edge) = cause.downcast_ref::<Error>() {
            return edge.kind;
        }
        if let Some(kind) = ErrorKind::of_cause(cause) {
            return Kind::Provider(kind);
        }
        if cause.is::<iris_studio_config::NotConfigured>() {
            return Kind::NotSetUp;
        }
        if cause.is::<CapabilityError>()
            || cause.is::<UnknownPreset>()
            || cause.is::<iris_studio_config::ConfigError>()
            || cause.is::<iris_studio_core::pr_template::TemplateError>()
            || cause.is::<iris_studio_core::commit_rules::RulesError>()
        {
            return Kind::Config;
        }
        if cause.is::<FileRefused>() {
            return Kind::Usage;
        }
        if cause.is::<iris_studio_git::GitError>() {
            return Kind::Git;
        }
    }
    Kind::Other
}

impl From<anyhow::Error> for Error {
    fn from(err: anyhow::Error) -> Self {
        // An edge error that came back through a caller inside the crate as it is (no
        // context added to it) is not wrapped twice.
        let err = match err.chain().next().is_some_and(|top| top.is::<Error>()) {
            true => match err.downcast::<Error>() {
                Ok(edge) => return edge,
                Err(err) => err,
            },
            false => err,
        };
        Self {
            kind: kind_of(&err),
            inner: err,
        }
    }
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} ({:?})", self.inner, self.kind)
    }
}

/// The first cause's words; the others are its [`source`](std::error::Error::source)s, so
/// `{:#}` of an `anyhow::Error` holding this one reads as the whole chain did.
impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.inner, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner.source()
    }
}

/// Runs `work` and gives its failure a kind: how a public method of Iris ends. The work is
/// kept on the heap: a run's future is large, and a caller's stack (an MCP call on a runtime
/// thread) need not hold it twice.
pub(crate) async fn at_edge<T>(
    work: impl std::future::Future<Output = anyhow::Result<T>>,
) -> Result<T> {
    Box::pin(work).await.map_err(Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::deadline::RunTimedOut;
    use crate::runtime::error::ProviderError;

    #[test]
    fn the_kind_is_the_first_cause_s_that_has_one_and_the_words_are_all_kept() {
        let provider = ProviderError {
            provider: "openai (gpt-5)".into(),
            message: "slow down".into(),
            kind: ErrorKind::RateLimited,
        };
        let err = Error::from(anyhow::Error::new(provider).context("writing the message"));
        assert_eq!(err.kind(), Kind::Provider(ErrorKind::RateLimited));
        let text = format!("{:#}", anyhow::Error::new(err));
        assert!(text.starts_with("writing the message: "), "{text}");
        assert!(text.ends_with("slow down"), "{text}");

        let broken =
            iris_studio_config::ConfigError("line 3: key `gitmoji`: expected a boolean".into());
        let broken = Error::from(anyhow::Error::new(broken).context("the studio could not start"));
        assert_eq!(
            broken.kind(),
            Kind::Config,
            "a broken file is to fix, not to set up"
        );
        let refused = FileRefused("'nosuch.rs' does not exist".into());
        assert_eq!(Error::from(anyhow::Error::new(refused)).kind(), Kind::Usage);
        let git = iris_studio_git::GitError::Unsupported("odd".into());
        assert_eq!(Error::from(anyhow::Error::new(git)).kind(), Kind::Git);
        assert_eq!(
            Error::from(anyhow::anyhow!("disk full")).kind(),
            Kind::Other
        );
    }

    #[test]
    fn an_edge_error_passed_back_in_keeps_its_kind_and_is_not_wrapped_twice() {
        let first = Error {
            kind: Kind::Config,
            inner: anyhow::anyhow!("no such capability"),
        };
        let again = Error::from(anyhow::Error::new(first).context("reviewing"));
        assert_eq!(again.kind(), Kind::Config);
        let bare = Error::from(anyhow::Error::new(Error {
            kind: Kind::Git,
            inner: anyhow::anyhow!("locked"),
        }));
        assert_eq!(format!("{bare}"), "locked");
        assert_eq!(bare.kind(), Kind::Git);
    }

    #[test]
    fn a_failed_run_is_classed_by_why() {
        use iris_studio_core::eval::Failure;
        let provider = |kind: ErrorKind| -> anyhow::Error {
            ProviderError {
                provider: "openai".into(),
                message: "what the server said".into(),
                kind,
            }
            .into()
        };
        let cases = [
            (ErrorKind::Runaway, Failure::Runaway),
            (ErrorKind::OutOfTurns, Failure::Runaway),
            (ErrorKind::Unreadable, Failure::Schema),
            (ErrorKind::Status(401), Failure::Provider),
            (ErrorKind::RateLimited, Failure::Provider),
            (ErrorKind::Echo, Failure::Echo),
            (ErrorKind::NoTitle, Failure::NoTitle),
        ];
        for (kind, class) in cases {
            assert_eq!(Error::from(provider(kind)).failure(), class, "{kind:?}");
        }
        let late = anyhow::Error::new(RunTimedOut(std::time::Duration::from_secs(3)))
            .context("writing the commit");
        assert_eq!(Error::from(late).failure(), Failure::Deadline);
        assert_eq!(
            Error::from(anyhow::anyhow!("disk full")).failure(),
            Failure::Other
        );
    }
}
