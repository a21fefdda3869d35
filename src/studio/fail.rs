//! Failures as the studio's reducer reads them: the kind is decided here, once, at the
//! shell's edge, from the typed error the work failed with (Iris' error and its kind, git's
//! error, the system's); the words are the whole chain, for the user and the log.

use iris_studio_agent::ErrorKind;
use iris_studio_agent::error::Kind;
use iris_studio_git::GitError;
use iris_studio_tui::failure::{Failure, FailureKind, GitFailure, Outcome, ProviderFailure};

/// The failure `err` is: the kind of the first typed cause in its chain.
pub fn of(err: &anyhow::Error) -> Failure {
    let words = format!("{err:#}");
    for cause in err.chain() {
        if let Some(failure) = cause.downcast_ref::<Failure>() {
            // The hook's own output stays what the user reads; anything else reads whole.
            return match failure.kind {
                FailureKind::Git(GitFailure::HookFailed) => failure.clone(),
                _ => Failure::new(failure.kind.clone(), words),
            };
        }
        if let Some(iris) = cause.downcast_ref::<iris_studio_agent::Error>() {
            return Failure::new(agent_kind(iris.kind(), &words), words);
        }
        if let Some(git) = cause.downcast_ref::<GitError>() {
            return git_failure(git, words);
        }
        if cause.is::<std::io::Error>() {
            return Failure::io(words);
        }
        if cause.is::<crate::output::exit::UsageError>() {
            return Failure::usage(words);
        }
    }
    Failure::other(words)
}

/// The failure any error is (see [`of`]).
pub fn any(err: impl Into<anyhow::Error>) -> Failure {
    of(&err.into())
}

/// The failure a git error is.
pub fn git(err: &GitError) -> Failure {
    git_failure(err, err.to_string())
}

/// `result` with its failure typed.
pub fn typed<T>(result: anyhow::Result<T>) -> Outcome<T> {
    result.map_err(|err| of(&err))
}

fn git_failure(err: &GitError, words: String) -> Failure {
    let kind = match err {
        _ if err.locked() => GitFailure::IndexLocked,
        // The hook's own output is what the user reads.
        GitError::HookRefused(output) => {
            return Failure::new(FailureKind::Git(GitFailure::HookFailed), output.clone());
        }
        GitError::NotARepository(_) => GitFailure::NoRepository,
        GitError::UnknownRevision(_)
        | GitError::InvalidRevision(..)
        | GitError::InvalidPath(..) => {
            return Failure::usage(words);
        }
        _ => GitFailure::Other,
    };
    Failure::new(FailureKind::Git(kind), words)
}

fn agent_kind(kind: Kind, words: &str) -> FailureKind {
    match kind {
        Kind::NotSetUp => FailureKind::Provider(ProviderFailure::NotSetUp),
        Kind::Provider(ErrorKind::Status(401 | 403)) => {
            FailureKind::Provider(ProviderFailure::SignInRefused)
        }
        Kind::Provider(ErrorKind::RateLimited) => {
            FailureKind::Provider(ProviderFailure::RateLimited {
                retry_after: retry_after(words),
            })
        }
        Kind::Provider(_) => FailureKind::Provider(ProviderFailure::Other),
        Kind::Usage => FailureKind::Usage,
        Kind::Git => FailureKind::Git(GitFailure::Other),
        Kind::Config | Kind::Other => FailureKind::Other,
    }
}

/// The wait a rate limit's words ask for, in whole seconds, when they name one: OpenAI's
/// "Please try again in 20s" (or "in 1.5s", "in 120ms"), Gemini's `"retryDelay": "20s"`,
/// "retry after 30 seconds".
fn retry_after(words: &str) -> Option<u64> {
    let lower = words.to_ascii_lowercase();
    ["try again in ", "retrydelay\": \"", "retry after "]
        .iter()
        .find_map(|marker| {
            let at = lower.find(marker)? + marker.len();
            duration(&lower[at..])
        })
}

/// A duration at the start of `text`: `20s`, `1.5s`, `120ms`, `2m`, `30 seconds`.
fn duration(text: &str) -> Option<u64> {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let number: f64 = text[..end].parse().ok()?;
    let unit = text[end..].trim_start();
    let seconds = if unit.starts_with("ms") {
        number / 1000.0
    } else if unit.starts_with('m') && !unit.starts_with("ms") {
        number * 60.0
    } else if unit.starts_with('s') {
        number
    } else {
        return None;
    };
    (seconds.is_finite() && seconds >= 0.0).then(|| seconds.ceil() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_waits_providers_name_are_read_in_seconds() {
        let said = |w: &str| retry_after(w);
        assert_eq!(
            said("Rate limit reached. Please try again in 20s. Visit"),
            Some(20)
        );
        assert_eq!(said("Please try again in 1.5s."), Some(2));
        assert_eq!(said("Please try again in 120ms."), Some(1));
        assert_eq!(said(r#"{"retryDelay": "37s"}"#), Some(37));
        assert_eq!(said("retry after 2 minutes"), Some(120));
        assert_eq!(said("slow down"), None);
        assert_eq!(said("try again in a while"), None);
    }

    #[test]
    fn a_refused_hook_is_its_own_output_and_a_lock_can_be_tried_again() {
        let hook = git(&GitError::HookRefused("tickets required".into()));
        assert_eq!(hook.kind, FailureKind::Git(GitFailure::HookFailed));
        assert_eq!(hook.words, "tickets required");
        let locked = git(&GitError::IndexLocked("index.lock: File exists".into()));
        assert_eq!(locked.kind, FailureKind::Git(GitFailure::IndexLocked));
        let usage = git(&GitError::UnknownRevision("nope".into()));
        assert_eq!(usage.kind, FailureKind::Usage);
    }
}
