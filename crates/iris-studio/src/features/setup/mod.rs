//! The setup feature: what comes back to it ([`Msg`]) and the work it asks for ([`Fx`]).

use crate::failure::{Done, Outcome};
use iris_config::setup::Choice;

/// What comes back to the setup feature.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The model servers that answered on this machine (setup).
    ServersFound(Vec<iris_config::setup::LocalServer>),
    /// Setup's choice was written and Iris started with it (what to tell the user), or why not.
    Written(Outcome<Done>),
}

/// The work the setup feature asks of the shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fx {
    /// Looks for model servers on this machine (setup).
    Probe,
    /// Writes setup's choice into the user's config file and starts Iris with it.
    Write {
        /// The provider and model the user chose, with its address and key if given.
        choice: Choice,
    },
}

pub(crate) mod update;

/// Applies what came back to the setup feature; returns the work it asks for next.
pub(crate) fn update(state: &mut crate::state::State, msg: Msg) -> Vec<crate::effect::Effect> {
    match msg {
        Msg::ServersFound(servers) => update::servers_found(state, servers),
        Msg::Written(result) => update::written(state, result),
    }
}
pub mod state;
