//! What the studio does when work fails, by the failure's kind: a locked index offers to try
//! again, a failing hook shows the hook's own output in a pane that scrolls, a missing key or
//! a refused sign-in opens the setup, a rate limit says when to try again. Anything else is
//! said in the status line (whole over the panes when it is long).

use super::super::effect::Effect;
use super::super::state::{Confirm, Level, Report, State};
use super::{notice, setup};
use crate::failure::{Failure, FailureKind, GitFailure, ProviderFailure};

/// Acts on `failure`; `retry` is the work that failed, offered again when trying again may
/// work (a locked index).
pub(crate) fn failed(state: &mut State, failure: Failure, retry: Option<Effect>) -> Vec<Effect> {
    match failure.kind {
        FailureKind::Git(GitFailure::IndexLocked) => match retry {
            // A short notice: git's long words would cover the question.
            Some(effect) => {
                notice(
                    state,
                    Level::Error,
                    "another git holds the index (.git/index.lock): nothing was lost",
                );
                state.overlay.confirm = Some(Confirm::TryAgain(Box::new(effect)));
                Vec::new()
            }
            None => {
                notice(state, Level::Error, failure.words);
                Vec::new()
            }
        },
        FailureKind::Git(GitFailure::HookFailed) => {
            notice(
                state,
                Level::Error,
                "a hook refused the commit: the message stays in the editor (esc closes its output)",
            );
            state.overlay.report = Some(Report::new(
                " The hook said (esc closes, arrows scroll) ",
                failure.words,
            ));
            Vec::new()
        }
        FailureKind::Provider(ProviderFailure::NotSetUp | ProviderFailure::SignInRefused) => {
            let effects = if state.overlay.setup.is_none() {
                setup::open(state)
            } else {
                Vec::new()
            };
            notice(
                state,
                Level::Error,
                format!("{}: choose a provider or key here", failure.words),
            );
            effects
        }
        FailureKind::Provider(ProviderFailure::RateLimited { retry_after }) => {
            let when = match retry_after {
                Some(0) | Some(1) => "in a second".to_string(),
                Some(secs) if secs < 120 => format!("in {secs} s"),
                Some(secs) => format!("in {} min", secs.div_ceil(60)),
                None => "in a minute".to_string(),
            };
            notice(
                state,
                Level::Warning,
                format!("{}: try again {when}", failure.words),
            );
            Vec::new()
        }
        _ => {
            notice(state, Level::Error, failure.words);
            Vec::new()
        }
    }
}
