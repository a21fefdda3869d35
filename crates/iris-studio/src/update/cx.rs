//! What a feature's update is handed beside its own part of the state: a [`Cx`] to say
//! something in the status line and to ask for what another feature does next. The reducer
//! settles it with the whole state once the feature is done, so a feature's update touches
//! only its own part, and says in its signature which part that is.

use super::{failed, generate, notice};
use crate::effect::Effect;
use crate::failure::Failure;
use crate::state::{Level, State};

/// What a feature asked of the rest of the studio while it updated its own part.
#[derive(Debug, Default)]
#[must_use = "a feature's context is settled with the whole state"]
pub(crate) struct Cx {
    said: Vec<(Level, String)>,
    then: Vec<Then>,
}

/// What happens elsewhere once a feature is done.
#[derive(Debug)]
pub(crate) enum Then {
    /// Work failed: acted on by its kind (see `failed.rs`), `retry` offered where trying
    /// again may work.
    Failed(Failure, Option<Effect>),
    /// Iris runs now (setup wrote her configuration): she is no longer unavailable.
    IrisReady,
    /// Iris may start on the mode's artifact, if it is empty and its input is not.
    AutoGenerate,
}

impl Cx {
    /// Says `text` in the status line (the last said is what shows).
    pub(crate) fn say(&mut self, level: Level, text: impl Into<String>) {
        self.said.push((level, text.into()));
    }

    /// Asks for `then` once the feature is done.
    pub(crate) fn then(&mut self, then: Then) {
        self.then.push(then);
    }

    /// Carries out what was said and asked, in order, after the feature's own `effects`.
    pub(crate) fn settle(self, state: &mut State, mut effects: Vec<Effect>) -> Vec<Effect> {
        for (level, text) in self.said {
            notice(state, level, text);
        }
        for then in self.then {
            match then {
                Then::Failed(failure, retry) => {
                    effects.extend(failed::failed(state, failure, retry));
                }
                Then::IrisReady => state.iris.unavailable = None,
                Then::AutoGenerate => effects.extend(generate::auto_generate(state)),
            }
        }
        effects
    }
}
