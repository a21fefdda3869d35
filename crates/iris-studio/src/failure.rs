//! What comes back to the studio when work fails, and what it says when it succeeds: a
//! [`Failure`] carries its kind, which the reducer acts on (a locked index offers to try
//! again, a failing hook shows its output, a missing key opens the setup, a rate limit says
//! when to try again), and its words, for the user and the log. A success that only tells
//! the user something is a [`Done`].

use std::fmt;

/// Work that failed: what kind of failure, and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What kind of failure it is: what the studio can do about it.
    pub kind: FailureKind,
    /// What went wrong, as the user reads it.
    pub words: String,
}

/// What kind of failure came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureKind {
    /// Git (or jj) failed.
    Git(GitFailure),
    /// Iris' model or its provider failed.
    Provider(ProviderFailure),
    /// What was asked names something that is not there or not allowed.
    Usage,
    /// A file or a program could not be read, written or run.
    Io,
    /// Anything else.
    Other,
}

/// How git failed, where the studio can do something about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitFailure {
    /// Another git holds the index (`.git/index.lock` exists): trying again may work.
    IndexLocked,
    /// A commit hook refused the commit; the words are the hook's own output.
    HookFailed,
    /// The directory is not (or no longer) inside a repository.
    NoRepository,
    /// Any other failure of git.
    Other,
}

/// How the model's provider failed, where the studio can do something about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderFailure {
    /// No provider or key is configured: the setup opens.
    NotSetUp,
    /// The provider refused the key or the sign-in (401, 403): the setup opens.
    SignInRefused,
    /// The provider is limiting requests; it asked to wait this many seconds, when it said.
    RateLimited {
        /// The wait the provider asked for, in seconds.
        retry_after: Option<u64>,
    },
    /// Any other failure of the model or its provider.
    Other,
}

impl Failure {
    /// A failure of `kind` saying `words`.
    pub fn new(kind: FailureKind, words: impl Into<String>) -> Self {
        Self {
            kind,
            words: words.into(),
        }
    }

    /// A failure of git, of no kind the studio acts on.
    pub fn git(words: impl Into<String>) -> Self {
        Self::new(FailureKind::Git(GitFailure::Other), words)
    }

    /// Asked for something that is not there or not allowed.
    pub fn usage(words: impl Into<String>) -> Self {
        Self::new(FailureKind::Usage, words)
    }

    /// A file or a program failed.
    pub fn io(words: impl Into<String>) -> Self {
        Self::new(FailureKind::Io, words)
    }

    /// Any other failure.
    pub fn other(words: impl Into<String>) -> Self {
        Self::new(FailureKind::Other, words)
    }

    /// The same failure, `: more` after its words.
    pub fn also(mut self, more: impl fmt::Display) -> Self {
        self.words = format!("{}: {more}", self.words);
        self
    }

    /// The same failure, its words after `context: `.
    pub fn context(mut self, context: impl fmt::Display) -> Self {
        self.words = format!("{context}: {}", self.words);
        self
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words)
    }
}

/// Work done that only tells the user something: what the notice says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done(pub String);

impl Done {
    /// What the notice says.
    pub fn text(&self) -> &str {
        &self.0
    }
}

impl From<String> for Done {
    fn from(text: String) -> Self {
        Done(text)
    }
}

impl From<&str> for Done {
    fn from(text: &str) -> Self {
        Done(text.to_string())
    }
}

/// What an effect's work comes back as: a value, or a typed failure.
pub type Outcome<T> = Result<T, Failure>;

impl std::error::Error for Failure {}
